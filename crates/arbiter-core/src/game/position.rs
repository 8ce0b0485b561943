//! The Xiangqi/Jieqi board: padded mailbox, move generation, make/unmake, check, perft.

use crate::model::Side;
use crate::setup::{JieqiSetup, Piece, JIEQI_PIECES, JIEQI_RED_SQUARES};

/// Mailbox width: 9 files plus 2 off-board columns shared by both edges.
pub(crate) const W: i16 = 11;
/// Mailbox size: 10 ranks plus 2 off-board rows above and below.
pub(crate) const SIZE: usize = 154;

pub(crate) const EMPTY: u8 = 0;
pub(crate) const OFF: u8 = 0xFF;
pub(crate) const BLACK: u8 = 8;
pub(crate) const HIDDEN: u8 = 16;
pub(crate) const KIND: u8 = 7;

pub(crate) const CHARIOT: u8 = 1;
pub(crate) const HORSE: u8 = 2;
pub(crate) const ELEPHANT: u8 = 3;
pub(crate) const ADVISOR: u8 = 4;
pub(crate) const CANNON: u8 = 5;
pub(crate) const PAWN: u8 = 6;
pub(crate) const GENERAL: u8 = 7;

const ORTHO: [i16; 4] = [W, -W, 1, -1];
const DIAG: [i16; 4] = [W + 1, W - 1, -W + 1, -W - 1];

pub(crate) fn kind_code(p: Piece) -> u8 {
    match p {
        Piece::Chariot => CHARIOT,
        Piece::Horse => HORSE,
        Piece::Elephant => ELEPHANT,
        Piece::Advisor => ADVISOR,
        Piece::Cannon => CANNON,
        Piece::Pawn => PAWN,
        Piece::General => GENERAL,
    }
}

pub(crate) fn code_kind(c: u8) -> Piece {
    match c & KIND {
        CHARIOT => Piece::Chariot,
        HORSE => Piece::Horse,
        ELEPHANT => Piece::Elephant,
        ADVISOR => Piece::Advisor,
        CANNON => Piece::Cannon,
        PAWN => Piece::Pawn,
        _ => Piece::General,
    }
}

fn side_bit(side: Side) -> u8 {
    match side {
        Side::Red => 0,
        Side::Black => BLACK,
    }
}

fn bit_side(bit: u8) -> Side {
    if bit & BLACK == 0 {
        Side::Red
    } else {
        Side::Black
    }
}

/// A point of the board: file `a`–`i` (0–8) from Red's left, rank 0–9 from Red's back rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `file` 0–8 and `rank` 0–9; `None` off the board.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 9 && rank < 10).then(|| Square(((i16::from(rank) + 2) * W + i16::from(file)) as u8))
    }

    /// File 0–8 (`a`–`i`).
    pub fn file(self) -> u8 {
        (i16::from(self.0) % W) as u8
    }

    /// Rank 0–9.
    pub fn rank(self) -> u8 {
        (i16::from(self.0) / W - 2) as u8
    }

    /// The ICCS name, e.g. `h2`.
    pub fn name(self) -> String {
        format!("{}{}", char::from(b'a' + self.file()), self.rank())
    }

    /// Reads an ICCS square name (`h2`, either case).
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let f = chars.next()?.to_ascii_lowercase();
        let r = chars.next()?;
        if chars.next().is_some() || !('a'..='i').contains(&f) || !r.is_ascii_digit() {
            return None;
        }
        Square::new(f as u8 - b'a', r as u8 - b'0')
    }

    pub(crate) fn idx(self) -> usize {
        usize::from(self.0)
    }

    pub(crate) fn from_idx(i: usize) -> Square {
        Square(i as u8)
    }

    /// Every square, rank 0 first, each rank from file `a`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..10u8).flat_map(|r| (0..9u8).filter_map(move |f| Square::new(f, r)))
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// One move: from, to, and (Jieqi) the piece a face-down mover turns out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stood.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
    /// Jieqi: what a face-down mover is revealed as (`None` for a face-up mover, or while
    /// the identity is unknown to the position).
    pub reveal: Option<Piece>,
}

impl Move {
    /// A move without reveal.
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            reveal: None,
        }
    }
}

/// Which game a [`Position`] plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// 象棋.
    Xiangqi,
    /// 揭棋: face-down pieces; advisors and elephants are free of palace and river.
    Jieqi,
}

/// Where the game stands for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move has a legal move.
    Ongoing,
    /// The side to move has no legal move and is in check: it has lost (将死).
    Checkmated,
    /// The side to move has no legal move and is not in check: it has lost too (困毙).
    Stalemated,
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Occurs when the move is not among the legal moves of the position.
    #[error("illegal move {0}")]
    Illegal(String),
    /// Occurs when a face-down piece moves and neither the move nor the position says what
    /// it is.
    #[error("the face-down piece on {0} moves but its identity is not given")]
    MissingReveal(String),
    /// Occurs when the move's reveal contradicts the set-up (or a face-up mover has one).
    #[error("{square} is {actual}, not {claimed}")]
    WrongReveal {
        /// The mover's square.
        square: String,
        /// What the set-up says (or why the claim cannot be).
        actual: Revealed,
        /// What the move says.
        claimed: String,
    },
}

/// What a square holds against a move's reveal ([`MoveError::WrongReveal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Revealed {
    /// The set-up's piece (its letter).
    #[error("{0}")]
    Piece(char),
    /// The mover is face up: it reveals nothing.
    #[error("face up")]
    FaceUp,
    /// Every piece of the claimed kind is already accounted for.
    #[error("not that: every one of them is accounted for")]
    AllAccountedFor,
    /// A face-down piece is never a general.
    #[error("not a general")]
    NotAGeneral,
}

/// What make needs to undo a move.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    moved: u8,
    captured: u8,
    halfmove: u16,
}

/// A Xiangqi or Jieqi position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) board: [u8; SIZE],
    /// Identities of face-down pieces (kind codes; 0 = unknown), by square.
    pub(crate) identity: [u8; SIZE],
    pub(crate) side: u8,
    pub(crate) kings: [u8; 2],
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    /// Jieqi: face-down pieces revealed so far, by side and kind code.
    pub(crate) revealed: [[u8; 8]; 2],
}

pub(crate) fn sq_file(i: usize) -> i16 {
    i as i16 % W
}

pub(crate) fn sq_rank(i: usize) -> i16 {
    i as i16 / W - 2
}

fn in_palace(i: usize, side: u8) -> bool {
    let f = sq_file(i);
    let r = sq_rank(i);
    (3..=5).contains(&f)
        && if side == 0 {
            (0..=2).contains(&r)
        } else {
            (7..=9).contains(&r)
        }
}

fn own_half(i: usize, side: u8) -> bool {
    let r = sq_rank(i);
    if side == 0 {
        r <= 4
    } else {
        r >= 5
    }
}

fn forward(side: u8) -> i16 {
    if side == 0 {
        W
    } else {
        -W
    }
}

/// The kind of piece that starts on a square for `side` in Xiangqi (generals excluded).
pub(crate) fn start_kind(sq: Square, side: Side) -> Option<Piece> {
    let rank = match side {
        Side::Red => sq.rank(),
        Side::Black => 9 - sq.rank(),
    };
    JIEQI_RED_SQUARES
        .iter()
        .position(|&(f, r)| f == sq.file() && r == rank)
        .map(|i| JIEQI_PIECES[i])
}

impl Position {
    pub(crate) fn empty(variant: Variant) -> Position {
        let mut board = [OFF; SIZE];
        for sq in Square::all() {
            board[sq.idx()] = EMPTY;
        }
        Position {
            variant,
            board,
            identity: [0; SIZE],
            side: 0,
            kings: [0; 2],
            halfmove: 0,
            fullmove: 1,
            revealed: [[0; 8]; 2],
        }
    }

    /// The Xiangqi start position.
    pub fn xiangqi_start() -> Position {
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
            .expect("the start FEN is valid")
    }

    /// The Jieqi start with all thirty face-down pieces unknown.
    pub fn jieqi_start() -> Position {
        Position::from_fen("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w")
            .expect("the Jieqi start FEN is valid")
    }

    /// The Jieqi start of a round's set-up: every face-down piece's identity is known, so
    /// legal moves carry their reveals and a record's reveal suffixes are checked.
    pub fn jieqi_from_setup(setup: &JieqiSetup) -> Position {
        let mut pos = Position::jieqi_start();
        pos.attach_setup(setup);
        pos
    }

    /// Gives the face-down pieces of a Jieqi position (say, read from a FEN) their
    /// identities from the round's set-up: a face-down piece never moved, so it is the
    /// set-up's piece of its square.
    pub fn attach_setup(&mut self, setup: &JieqiSetup) {
        for (i, &(f, r)) in JIEQI_RED_SQUARES.iter().enumerate() {
            if let (Some(red), Some(black)) = (Square::new(f, r), Square::new(f, 9 - r)) {
                self.identity[red.idx()] = kind_code(setup.red[i]);
                self.identity[black.idx()] = kind_code(setup.black[i]);
            }
        }
    }

    /// Which game.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        bit_side(self.side)
    }

    /// What stands on a square: side, the kind it moves as, and whether it is face down.
    pub fn piece_at(&self, sq: Square) -> Option<(Side, Piece, bool)> {
        let c = self.board[sq.idx()];
        (c != EMPTY && c != OFF).then(|| (bit_side(c), code_kind(c), c & HIDDEN != 0))
    }

    /// The identity of a face-down piece, when the position knows it.
    pub fn hidden_identity(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.idx()];
        let id = self.identity[sq.idx()];
        (c != OFF && c & HIDDEN != 0 && id != 0).then(|| code_kind(id))
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.attacked_king(self.side)
    }

    /// All legal moves of the side to move (reveals filled in where identities are known).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut pseudo = Vec::with_capacity(64);
        self.pseudo_moves(&mut pseudo);
        let mut scratch = self.clone();
        let king = usize::from(self.kings[usize::from(self.side >> 3)]);
        let checked = self.in_check();
        pseudo
            .retain(|&mv| (!checked && self.surely_legal(mv, king)) || scratch.is_legal_pseudo(mv));
        pseudo
    }

    /// The state of the game for the side to move.
    pub fn status(&self) -> Status {
        if !self.legal_moves().is_empty() {
            Status::Ongoing
        } else if self.in_check() {
            Status::Checkmated
        } else {
            Status::Stalemated
        }
    }

    /// Checks a move (legality, reveal) and returns it completed with the set-up's reveal.
    pub fn check_move(&self, mv: Move) -> Result<Move, MoveError> {
        let found = self
            .legal_moves()
            .into_iter()
            .find(|m| m.from == mv.from && m.to == mv.to)
            .ok_or_else(|| MoveError::Illegal(format!("{}{}", mv.from, mv.to)))?;
        let hidden = self.board[mv.from.idx()] & HIDDEN != 0;
        match (hidden, found.reveal, mv.reveal) {
            (false, _, None) => Ok(found),
            (false, _, Some(claimed)) => Err(MoveError::WrongReveal {
                square: mv.from.name(),
                actual: Revealed::FaceUp,
                claimed: claimed.letter().to_string(),
            }),
            (true, Some(actual), Some(claimed)) if actual != claimed => {
                Err(MoveError::WrongReveal {
                    square: mv.from.name(),
                    actual: Revealed::Piece(actual.letter()),
                    claimed: claimed.letter().to_string(),
                })
            }
            (true, Some(_), _) => Ok(found),
            (true, None, Some(claimed)) => {
                let side = usize::from(self.side >> 3);
                let in_set = JIEQI_PIECES.iter().filter(|&&p| p == claimed).count();
                let known = (0..SIZE)
                    .filter(|&i| {
                        self.board[i] != OFF
                            && self.board[i] & (HIDDEN | BLACK) == (HIDDEN | self.side)
                            && self.identity[i] == kind_code(claimed)
                    })
                    .count();
                if usize::from(self.revealed[side][usize::from(kind_code(claimed))]) + known
                    >= in_set
                {
                    return Err(MoveError::WrongReveal {
                        square: mv.from.name(),
                        actual: Revealed::AllAccountedFor,
                        claimed: claimed.letter().to_string(),
                    });
                }
                if claimed == Piece::General {
                    return Err(MoveError::WrongReveal {
                        square: mv.from.name(),
                        actual: Revealed::NotAGeneral,
                        claimed: claimed.letter().to_string(),
                    });
                }
                Ok(Move {
                    reveal: Some(claimed),
                    ..found
                })
            }
            (true, None, None) => Err(MoveError::MissingReveal(mv.from.name())),
        }
    }

    /// Plays a move after [`Position::check_move`].
    pub fn play(&mut self, mv: Move) -> Result<Move, MoveError> {
        let mv = self.check_move(mv)?;
        self.make(mv);
        Ok(mv)
    }

    /// Makes a legal move (unchecked: use [`Position::play`] for moves from outside).
    pub fn make(&mut self, mv: Move) -> Undo {
        let from = mv.from.idx();
        let to = mv.to.idx();
        let moved = self.board[from];
        let captured = self.board[to];
        let mut placed = moved;
        if moved & HIDDEN != 0 {
            let id = mv
                .reveal
                .map(kind_code)
                .unwrap_or(self.identity[from] & KIND);
            // An unknown reveal keeps the square's kind (only reachable through `make` misuse).
            let id = if id == 0 { moved & KIND } else { id };
            placed = (moved & BLACK) | id;
            self.revealed[usize::from(moved >> 3 & 1)][usize::from(id)] += 1;
        }
        self.board[to] = placed;
        self.board[from] = EMPTY;
        if placed & KIND == GENERAL {
            self.kings[usize::from(self.side >> 3)] = to as u8;
        }
        let undo = Undo {
            moved,
            captured,
            halfmove: self.halfmove,
        };
        self.halfmove = if captured != EMPTY {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if self.side == BLACK {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side ^= BLACK;
        undo
    }

    /// Takes back a move made with [`Position::make`].
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.side ^= BLACK;
        if self.side == BLACK {
            self.fullmove = self.fullmove.saturating_sub(1);
        }
        let from = mv.from.idx();
        let to = mv.to.idx();
        self.board[from] = undo.moved;
        if undo.moved & HIDDEN != 0 {
            let id = self.board[to] & KIND;
            self.revealed[usize::from(undo.moved >> 3 & 1)][usize::from(id)] -= 1;
        }
        self.board[to] = undo.captured;
        if undo.moved & KIND == GENERAL && undo.moved & HIDDEN == 0 {
            self.kings[usize::from(self.side >> 3)] = from as u8;
        }
        self.halfmove = undo.halfmove;
    }

    fn is_legal_pseudo(&mut self, mv: Move) -> bool {
        let me = self.side;
        let undo = self.make(mv);
        let ok = !self.attacked_king(me);
        self.unmake(mv, undo);
        ok
    }

    #[inline]
    fn push(&self, out: &mut Vec<Move>, from: usize, to: usize, hidden: bool) {
        let reveal = if hidden && self.identity[from] != 0 {
            Some(code_kind(self.identity[from]))
        } else {
            None
        };
        out.push(Move {
            from: Square::from_idx(from),
            to: Square::from_idx(to),
            reveal,
        });
    }

    /// Pseudo-legal moves (the general may be left in check).
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let me = self.side;
        // Face-down advisors and elephants keep to the palace and their half; revealed ones
        // in Jieqi do not.
        let bound = self.variant == Variant::Xiangqi;
        // A target is fine when empty or an enemy piece.
        let open = |t: u8| t == EMPTY || (t != OFF && (t & BLACK) != me);
        for from in 0..SIZE {
            let c = self.board[from];
            if c == EMPTY || c == OFF || (c & BLACK) != me {
                continue;
            }
            let hidden = c & HIDDEN != 0;
            let f = from as i16;
            match c & KIND {
                CHARIOT => {
                    for d in ORTHO {
                        let mut t = f + d;
                        loop {
                            let x = self.board[t as usize];
                            if x == EMPTY {
                                self.push(out, from, t as usize, hidden);
                            } else {
                                if x != OFF && (x & BLACK) != me {
                                    self.push(out, from, t as usize, hidden);
                                }
                                break;
                            }
                            t += d;
                        }
                    }
                }
                CANNON => {
                    for d in ORTHO {
                        let mut t = f + d;
                        loop {
                            let x = self.board[t as usize];
                            if x == EMPTY {
                                self.push(out, from, t as usize, hidden);
                                t += d;
                                continue;
                            }
                            if x == OFF {
                                break;
                            }
                            // Screen found: the next piece beyond it may be captured.
                            t += d;
                            loop {
                                let y = self.board[t as usize];
                                if y == EMPTY {
                                    t += d;
                                    continue;
                                }
                                if y != OFF && (y & BLACK) != me {
                                    self.push(out, from, t as usize, hidden);
                                }
                                break;
                            }
                            break;
                        }
                    }
                }
                HORSE => {
                    for d in ORTHO {
                        if self.board[(f + d) as usize] != EMPTY {
                            continue;
                        }
                        let side_step = if d == W || d == -W { 1 } else { W };
                        for t in [f + 2 * d + side_step, f + 2 * d - side_step] {
                            if open(self.board[t as usize]) {
                                self.push(out, from, t as usize, hidden);
                            }
                        }
                    }
                }
                ELEPHANT => {
                    for d in DIAG {
                        if self.board[(f + d) as usize] != EMPTY {
                            continue;
                        }
                        let t = (f + 2 * d) as usize;
                        if open(self.board[t]) && (!(bound || hidden) || own_half(t, me)) {
                            self.push(out, from, t, hidden);
                        }
                    }
                }
                ADVISOR => {
                    for d in DIAG {
                        let t = (f + d) as usize;
                        if open(self.board[t]) && (!(bound || hidden) || in_palace(t, me)) {
                            self.push(out, from, t, hidden);
                        }
                    }
                }
                PAWN => {
                    let t = (f + forward(me)) as usize;
                    if open(self.board[t]) {
                        self.push(out, from, t, hidden);
                    }
                    if !own_half(from, me) {
                        for d in [1, -1] {
                            let t = (f + d) as usize;
                            if open(self.board[t]) {
                                self.push(out, from, t, hidden);
                            }
                        }
                    }
                }
                _ => {
                    for d in ORTHO {
                        let t = (f + d) as usize;
                        if open(self.board[t]) && in_palace(t, me) {
                            self.push(out, from, t, hidden);
                        }
                    }
                }
            }
        }
    }

    /// Whether the general of side bit `me` is attacked (including the flying general).
    pub(crate) fn attacked_king(&self, me: u8) -> bool {
        let k = i16::from(self.kings[usize::from(me >> 3)]);
        let enemy = me ^ BLACK;
        let b = &self.board;
        let is = |i: i16, kind: u8| {
            let x = b[i as usize];
            x != OFF && x != EMPTY && (x & (BLACK | KIND)) == (enemy | kind)
        };
        for d in ORTHO {
            let mut t = k + d;
            while b[t as usize] == EMPTY {
                t += d;
            }
            let x = b[t as usize];
            if x == OFF {
                continue;
            }
            if (x & BLACK) == enemy {
                let kind = x & KIND;
                if kind == CHARIOT || (kind == GENERAL && (d == W || d == -W)) {
                    return true;
                }
                if kind == PAWN && t == k + d && d != -forward(me) {
                    // An enemy pawn in front of the general or beside it (a pawn next to a
                    // general in its palace has crossed the river).
                    return true;
                }
            }
            t += d;
            while b[t as usize] == EMPTY {
                t += d;
            }
            if is(t, CANNON) {
                return true;
            }
        }
        for d in DIAG {
            if b[(k + d) as usize] != EMPTY {
                continue;
            }
            let (dx, dy) = if d == W + 1 || d == -W + 1 {
                (1, d - 1)
            } else {
                (-1, d + 1)
            };
            if is(k + 2 * dx + dy, HORSE) || is(k + dx + 2 * dy, HORSE) {
                return true;
            }
        }
        if self.variant == Variant::Jieqi {
            for d in DIAG {
                if is(k + d, ADVISOR) {
                    return true;
                }
                if b[(k + d) as usize] == EMPTY && is(k + 2 * d, ELEPHANT) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a pseudo-legal move surely keeps the mover's general safe without trying it:
    /// the side is not in check, the mover is not the general, it leaves no square on the
    /// general's file, rank or diagonal neighbours (rays, horse legs, elephant eyes) and does
    /// not land on the general's file or rank (a new cannon screen).
    #[inline]
    fn surely_legal(&self, mv: Move, king: usize) -> bool {
        let from = mv.from.idx();
        let to = mv.to.idx();
        if usize::from(self.kings[usize::from(self.side >> 3)]) == from {
            return false;
        }
        let (kf, kr) = (sq_file(king), sq_rank(king));
        let (ff, fr) = (sq_file(from), sq_rank(from));
        let (tf, tr) = (sq_file(to), sq_rank(to));
        ff != kf
            && fr != kr
            && ((ff - kf).abs() != 1 || (fr - kr).abs() != 1)
            && tf != kf
            && tr != kr
    }

    /// Leaf count at `depth` (bulk-counted at the last ply).
    fn perft_inner(&mut self, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        let Some((moves, rest)) = buffers.split_first_mut() else {
            return 1;
        };
        moves.clear();
        self.pseudo_moves(moves);
        let me = self.side;
        let king = usize::from(self.kings[usize::from(me >> 3)]);
        let checked = self.attacked_king(me);
        let mut nodes = 0;
        for &mv in moves.iter() {
            if depth == 1 && !checked && self.surely_legal(mv, king) {
                nodes += 1;
                continue;
            }
            let undo = self.make(mv);
            if !self.attacked_king(me) {
                nodes += if depth == 1 {
                    1
                } else {
                    self.perft_inner(depth - 1, rest)
                };
            }
            self.unmake(mv, undo);
        }
        nodes
    }
}

/// The number of move paths of length `depth` (perft), bulk-counted at the last ply.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut pos = position.clone();
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(128)).collect();
    pos.perft_inner(depth, &mut buffers)
}

impl Position {
    pub(crate) fn set(&mut self, sq: Square, side: Side, kind: u8, hidden: bool) {
        let c = side_bit(side) | kind | if hidden { HIDDEN } else { 0 };
        self.board[sq.idx()] = c;
        if kind == GENERAL {
            self.kings[usize::from(side_bit(side) >> 3)] = sq.idx() as u8;
        }
    }

    pub(crate) fn set_side(&mut self, side: Side) {
        self.side = side_bit(side);
    }
}
