//! Banqi (暗棋, Taiwan rules of seed 004): 32 pieces face down on a 4 × 8 half board.
//!
//! - Squares are named as on the set-up sheet ([`crate::setup`]): columns `a`–`h`, rows
//!   `1`–`4`, row 1 first.
//! - A turn is a flip of any face-down piece, a one-step orthogonal move of one's own face-up
//!   piece to an empty square, or a capture of a face-up enemy piece. Rank decides captures:
//!   帥 > 仕 > 相 > 車 > 馬 > 炮 > 兵, a piece takes equal or lower ranks, except that the
//!   general cannot take a soldier and a soldier can take the general. The cannon captures
//!   only by jumping exactly one piece (face up or down) along a row or column, at any
//!   distance, and then takes any piece.
//! - The first flip gives its colour to the player who flipped; the other colour moves next.
//! - A side whose pieces are all captured, or that has no legal turn, has lost.
//! - **25-move count** (算步): once no piece is face down, 25 moves (回合, 50 half-moves)
//!   without a capture is a draw; a capture (even on the 25th move) starts the count again.
//!   The count is reported in moves rounded up, so the first half-move of a count is move 1.
//! - **Chase** (長捉): a side's consecutive turns in which the same piece moves and can then
//!   capture a same enemy piece it could capture after the previous such turn. The 7th in a
//!   row is a foul (連抓以6次為限，抓第7次時計犯規). The "必死除外" exception (a chased piece
//!   that is lost anyway) is for the arbiter and is not judged here.
//!
//! Record notation: a flip is the square, optionally with the piece revealed (`b2`, `b2=K`,
//! `b2=k`: upper case Red, lower case Black, letters of [`crate::setup::Piece`]); a move is
//! `b2-b3`, a capture `b2xb3` (`-` is read for captures too).

use crate::model::Side;
use crate::setup::{BanqiSetup, ColouredPiece, Piece};

/// A square of the half board: row-major index 0–31, row 1 first, columns `a`–`h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BanqiSquare(u8);

impl BanqiSquare {
    /// The square at column 0–7 and row 0–3 (row 1 is 0).
    pub fn new(column: u8, row: u8) -> Option<BanqiSquare> {
        (column < 8 && row < 4).then_some(BanqiSquare(row * 8 + column))
    }

    /// Column 0–7.
    pub fn column(self) -> u8 {
        self.0 % 8
    }

    /// Row 0–3 (named 1–4).
    pub fn row(self) -> u8 {
        self.0 / 8
    }

    /// Its name, e.g. `b2`.
    pub fn name(self) -> String {
        format!("{}{}", char::from(b'a' + self.column()), self.row() + 1)
    }

    /// Reads a name such as `b2`.
    pub fn parse(text: &str) -> Option<BanqiSquare> {
        let mut chars = text.chars();
        let c = chars.next()?.to_ascii_lowercase();
        let r = chars.next()?;
        if chars.next().is_some() || !('a'..='h').contains(&c) || !('1'..='4').contains(&r) {
            return None;
        }
        BanqiSquare::new(c as u8 - b'a', r as u8 - b'1')
    }

    fn idx(self) -> usize {
        usize::from(self.0)
    }
}

/// What a square holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A face-down piece, with its identity when the set-up is known.
    FaceDown(Option<ColouredPiece>),
    /// A face-up piece.
    FaceUp(ColouredPiece),
}

/// A Banqi turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BanqiMove {
    /// Turn a face-down piece over; `piece` is what it is (when known).
    Flip {
        /// The square.
        at: BanqiSquare,
        /// The piece revealed.
        piece: Option<ColouredPiece>,
    },
    /// Move or capture with a face-up piece.
    Step {
        /// From.
        from: BanqiSquare,
        /// To.
        to: BanqiSquare,
    },
}

/// Why a Banqi turn is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BanqiError {
    /// Occurs when the text is no Banqi turn.
    #[error("cannot read {0:?}")]
    Unreadable(String),
    /// Occurs when the turn is not legal here.
    #[error("illegal turn {0:?}")]
    Illegal(String),
    /// Occurs when a flip does not say what it reveals and the set-up is not known, or says
    /// something the set-up contradicts (or a piece no longer in the box).
    #[error("flip on {square}: {why}")]
    Reveal {
        /// The square.
        square: String,
        /// What is wrong.
        why: RevealProblem,
    },
}

/// What is wrong with a Banqi flip ([`BanqiError::Reveal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RevealProblem {
    /// The set-up has another piece there (its letter).
    #[error("the set-up has {0}")]
    SetUpHas(char),
    /// The set-up is not known and the flip does not say what it reveals.
    #[error("the piece revealed is not given")]
    NotGiven,
    /// No such piece is left face down.
    #[error("no such piece is left face down")]
    NoneLeft,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BanqiStatus {
    /// Play on.
    Ongoing,
    /// This side has won (the other has no piece or no legal turn).
    Won(Side),
    /// 25 moves without a capture once every piece is face up.
    Draw,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Chase {
    streak: u32,
    chaser: u8,
    targets: u32,
}

/// A Banqi position with the counters the arbiter needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Banqi {
    cells: [Cell; 32],
    /// Identity of the physical piece on each square (its set-up square), 255 when empty.
    ids: [u8; 32],
    turn: Option<Side>,
    quiet_plies: u32,
    captured: [u8; 2],
    chase: [Chase; 2],
    fouls: Vec<(usize, Side)>,
    ply: usize,
    /// Pieces not yet seen (for flips whose identity is given by the record).
    unseen: Vec<ColouredPiece>,
}

fn rank(p: Piece) -> u8 {
    match p {
        Piece::General => 7,
        Piece::Advisor => 6,
        Piece::Elephant => 5,
        Piece::Chariot => 4,
        Piece::Horse => 3,
        Piece::Cannon => 2,
        Piece::Pawn => 1,
    }
}

/// Whether a piece of kind `a` may take one of kind `t` by rank (the cannon aside).
pub fn outranks(a: Piece, t: Piece) -> bool {
    match (a, t) {
        (Piece::General, Piece::Pawn) => false,
        (Piece::Pawn, Piece::General) => true,
        _ => rank(a) >= rank(t),
    }
}

fn side_index(side: Side) -> usize {
    usize::from(side == Side::Black)
}

fn full_set() -> Vec<ColouredPiece> {
    let mut out = Vec::with_capacity(32);
    for side in [Side::Red, Side::Black] {
        for (piece, n) in [
            (Piece::General, 1),
            (Piece::Advisor, 2),
            (Piece::Elephant, 2),
            (Piece::Chariot, 2),
            (Piece::Horse, 2),
            (Piece::Cannon, 2),
            (Piece::Pawn, 5),
        ] {
            out.extend(std::iter::repeat_n(ColouredPiece { side, piece }, n));
        }
    }
    out
}

const DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn step(sq: BanqiSquare, (dc, dr): (i8, i8)) -> Option<BanqiSquare> {
    let c = u8::try_from(sq.column() as i8 + dc).ok()?;
    let r = u8::try_from(sq.row() as i8 + dr).ok()?;
    BanqiSquare::new(c, r)
}

impl Banqi {
    /// All 32 pieces face down with unknown identities (flips must say what they reveal).
    pub fn unknown() -> Banqi {
        Banqi {
            cells: [Cell::FaceDown(None); 32],
            ids: std::array::from_fn(|i| i as u8),
            turn: None,
            quiet_plies: 0,
            captured: [0; 2],
            chase: [Chase::default(); 2],
            fouls: Vec::new(),
            ply: 0,
            unseen: full_set(),
        }
    }

    /// The start of a round's set-up (flips reveal the set-up's pieces).
    pub fn from_setup(setup: &BanqiSetup) -> Banqi {
        let mut b = Banqi::unknown();
        for (cell, &p) in b.cells.iter_mut().zip(setup.squares.iter()) {
            *cell = Cell::FaceDown(Some(p));
        }
        b
    }

    /// What a square holds.
    pub fn cell(&self, sq: BanqiSquare) -> Cell {
        self.cells[sq.idx()]
    }

    /// The colour to move (`None` before the first flip).
    pub fn turn(&self) -> Option<Side> {
        self.turn
    }

    /// A position with given squares and colour to move (no pieces left face down in the
    /// box beyond those on the board; the counters start at zero).
    pub fn with_cells(cells: [Cell; 32], turn: Side) -> Banqi {
        let mut b = Banqi::unknown();
        b.cells = cells;
        b.turn = Some(turn);
        b.unseen.clear();
        for (i, c) in cells.iter().enumerate() {
            if *c == Cell::Empty {
                b.ids[i] = 255;
            }
        }
        b
    }

    /// Whether every remaining piece is face up.
    pub fn all_face_up(&self) -> bool {
        !self.cells.iter().any(|c| matches!(c, Cell::FaceDown(_)))
    }

    /// Whether `attacker` (face up, on `from`) may capture on `to`.
    fn can_capture(&self, from: BanqiSquare, to: BanqiSquare) -> bool {
        let (Cell::FaceUp(a), Cell::FaceUp(t)) = (self.cells[from.idx()], self.cells[to.idx()])
        else {
            return false;
        };
        if a.side == t.side {
            return false;
        }
        if a.piece == Piece::Cannon {
            return self.cannon_line(from, to);
        }
        let adjacent = from.column().abs_diff(to.column()) + from.row().abs_diff(to.row()) == 1;
        adjacent && outranks(a.piece, t.piece)
    }

    /// Exactly one piece between two squares of a row or column.
    fn cannon_line(&self, from: BanqiSquare, to: BanqiSquare) -> bool {
        let between: Vec<BanqiSquare> = if from.row() == to.row() {
            let (lo, hi) = (
                from.column().min(to.column()),
                from.column().max(to.column()),
            );
            (lo + 1..hi)
                .filter_map(|c| BanqiSquare::new(c, from.row()))
                .collect()
        } else if from.column() == to.column() {
            let (lo, hi) = (from.row().min(to.row()), from.row().max(to.row()));
            (lo + 1..hi)
                .filter_map(|r| BanqiSquare::new(from.column(), r))
                .collect()
        } else {
            return false;
        };
        between
            .iter()
            .filter(|s| self.cells[s.idx()] != Cell::Empty)
            .count()
            == 1
    }

    /// Every legal turn of the side to move (flips carry the set-up's piece when known).
    pub fn legal_moves(&self) -> Vec<BanqiMove> {
        let mut out = Vec::new();
        for i in 0..32u8 {
            let sq = BanqiSquare(i);
            match self.cells[sq.idx()] {
                Cell::FaceDown(piece) => out.push(BanqiMove::Flip { at: sq, piece }),
                Cell::FaceUp(p) if Some(p.side) == self.turn => {
                    for d in DIRS {
                        if let Some(t) = step(sq, d) {
                            if self.cells[t.idx()] == Cell::Empty
                                || (p.piece != Piece::Cannon && self.can_capture(sq, t))
                            {
                                out.push(BanqiMove::Step { from: sq, to: t });
                            }
                        }
                    }
                    if p.piece == Piece::Cannon {
                        for j in 0..32u8 {
                            let t = BanqiSquare(j);
                            if (t.row() == sq.row() || t.column() == sq.column())
                                && self.can_capture(sq, t)
                            {
                                out.push(BanqiMove::Step { from: sq, to: t });
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The state of the game.
    pub fn status(&self) -> BanqiStatus {
        for side in [Side::Red, Side::Black] {
            if self.captured[side_index(side)] >= 16 {
                return BanqiStatus::Won(side.opposite());
            }
        }
        if self.all_face_up() && self.quiet_plies >= 50 {
            return BanqiStatus::Draw;
        }
        if let Some(side) = self.turn {
            if self.legal_moves().is_empty() {
                return BanqiStatus::Won(side.opposite());
            }
        }
        BanqiStatus::Ongoing
    }

    /// Checks and plays a turn (a flip's piece is filled from the set-up or checked against
    /// it).
    pub fn play(&mut self, mv: BanqiMove) -> Result<BanqiMove, BanqiError> {
        let illegal = || BanqiError::Illegal(self.format_move(mv));
        match mv {
            BanqiMove::Flip { at, piece } => {
                let Cell::FaceDown(known) = self.cells[at.idx()] else {
                    return Err(illegal());
                };
                let bad = |why: RevealProblem| BanqiError::Reveal {
                    square: at.name(),
                    why,
                };
                let piece = match (known, piece) {
                    (Some(k), Some(p)) if k != p => {
                        return Err(bad(RevealProblem::SetUpHas(k.letter())))
                    }
                    (Some(k), _) => k,
                    (None, Some(p)) => p,
                    (None, None) => return Err(bad(RevealProblem::NotGiven)),
                };
                let Some(pos) = self.unseen.iter().position(|&u| u == piece) else {
                    return Err(bad(RevealProblem::NoneLeft));
                };
                self.unseen.swap_remove(pos);
                self.cells[at.idx()] = Cell::FaceUp(piece);
                let mover = self.turn.unwrap_or(piece.side);
                self.chase[side_index(mover)] = Chase::default();
                self.quiet_plies = 0;
                self.turn = Some(mover.opposite());
                self.ply += 1;
                Ok(BanqiMove::Flip {
                    at,
                    piece: Some(piece),
                })
            }
            BanqiMove::Step { from, to } => {
                if !self.legal_moves().contains(&mv) {
                    return Err(illegal());
                }
                let Cell::FaceUp(p) = self.cells[from.idx()] else {
                    return Err(illegal());
                };
                let capture = matches!(self.cells[to.idx()], Cell::FaceUp(_));
                if capture {
                    self.captured[side_index(p.side.opposite())] += 1;
                    self.quiet_plies = 0;
                } else {
                    self.quiet_plies += 1;
                }
                self.cells[to.idx()] = self.cells[from.idx()];
                self.cells[from.idx()] = Cell::Empty;
                self.ids[to.idx()] = self.ids[from.idx()];
                self.ids[from.idx()] = 255;
                self.ply += 1;
                self.update_chase(p.side, to);
                self.turn = Some(p.side.opposite());
                Ok(mv)
            }
        }
    }

    fn update_chase(&mut self, side: Side, at: BanqiSquare) {
        let mut targets = 0u32;
        for j in 0..32u8 {
            let t = BanqiSquare(j);
            if self.can_capture(at, t) {
                targets |= 1 << self.ids[t.idx()];
            }
        }
        let chaser = self.ids[at.idx()];
        let c = &mut self.chase[side_index(side)];
        let common = if c.streak > 0 && c.chaser == chaser {
            c.targets & targets
        } else {
            0
        };
        *c = if common != 0 {
            Chase {
                streak: c.streak + 1,
                chaser,
                targets: common,
            }
        } else if targets != 0 {
            Chase {
                streak: 1,
                chaser,
                targets,
            }
        } else {
            Chase::default()
        };
        if c.streak >= 7 {
            self.fouls.push((self.ply, side));
        }
    }

    /// Prints a turn (`b2=K`, `b2-b3`, `b2xb3`).
    pub fn format_move(&self, mv: BanqiMove) -> String {
        match mv {
            BanqiMove::Flip { at, piece } => match piece {
                Some(p) => format!("{}={}", at.name(), p.letter()),
                None => at.name(),
            },
            BanqiMove::Step { from, to } => {
                let sep = if matches!(self.cells[to.idx()], Cell::FaceUp(_)) {
                    'x'
                } else {
                    '-'
                };
                format!("{}{sep}{}", from.name(), to.name())
            }
        }
    }

    /// Reads a turn (`b2`, `b2=K`, `b2(k)`, `b2-b3`, `b2xb3`).
    pub fn parse_move(&self, text: &str) -> Result<BanqiMove, BanqiError> {
        let t = text.trim();
        let bad = || BanqiError::Unreadable(t.to_string());
        let cleaned: String = t.chars().filter(|c| !matches!(c, '(' | ')')).collect();
        if let Some((a, b)) = cleaned.split_once(['-', 'x', 'X', ':']) {
            let from = BanqiSquare::parse(a).ok_or_else(bad)?;
            let to = BanqiSquare::parse(b).ok_or_else(bad)?;
            return Ok(BanqiMove::Step { from, to });
        }
        let (sq, piece) = match cleaned.split_once('=') {
            Some((sq, p)) => (sq, Some(p)),
            None if cleaned.len() == 3 && cleaned.is_ascii() => {
                let (sq, p) = cleaned.split_at(2);
                (sq, Some(p))
            }
            None => (cleaned.as_str(), None),
        };
        let at = BanqiSquare::parse(sq).ok_or_else(bad)?;
        let piece = match piece.filter(|p| !p.is_empty()) {
            None => None,
            Some(p) => {
                let mut chars = p.chars();
                let c = chars.next().ok_or_else(bad)?;
                if chars.next().is_some() {
                    return Err(bad());
                }
                let piece = crate::game::notation::letter_piece(c).ok_or_else(bad)?;
                let side = if c.is_ascii_uppercase() {
                    Side::Red
                } else {
                    Side::Black
                };
                Some(ColouredPiece { side, piece })
            }
        };
        Ok(BanqiMove::Flip { at, piece })
    }

    /// Reads and plays a turn.
    pub fn play_text(&mut self, text: &str) -> Result<BanqiMove, BanqiError> {
        let mv = self.parse_move(text)?;
        self.play(mv)
    }

    /// The arbiter's desk aid for the current position.
    pub fn desk_aid(&self) -> DeskAid {
        let counting = self.all_face_up();
        DeskAid {
            to_move: self.turn,
            all_face_up: counting,
            quiet_plies: if counting { self.quiet_plies } else { 0 },
            count: if counting {
                self.quiet_plies.div_ceil(2)
            } else {
                0
            },
            chase: [self.chase[0].streak, self.chase[1].streak],
            fouls: self.fouls.clone(),
            status: self.status(),
        }
    }
}

/// What the arbiter's desk needs during a Banqi game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeskAid {
    /// The colour to move (`None` before the first flip).
    pub to_move: Option<Side>,
    /// Whether every piece is face up (the 25-move count runs only then).
    pub all_face_up: bool,
    /// Half-moves since the last capture or flip, while counting.
    pub quiet_plies: u32,
    /// The 25-move count in moves (回合), the first half-move of a count being move 1;
    /// 25 full moves (50 half-moves) is a draw.
    pub count: u32,
    /// Consecutive chases by Red and by Black ([Red, Black]); the 7th is a foul.
    pub chase: [u32; 2],
    /// Chase fouls: (half-move, side).
    pub fouls: Vec<(usize, Side)>,
    /// Where the game stands.
    pub status: BanqiStatus,
}

/// Why a Banqi record cannot be replayed: the first bad half-move (from 1) and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {kind}")]
pub struct BanqiRecordError {
    /// Half-moves counted from 1.
    pub ply: usize,
    /// What is wrong.
    pub kind: BanqiError,
}

/// Desk aid from a record: replays the turns (whitespace-separated, move numbers ignored)
/// from the set-up (or, without one, from flips that name their pieces) and reports the
/// 25-move count and the chase counts.
pub fn desk_aid(setup: Option<&BanqiSetup>, record: &str) -> Result<DeskAid, BanqiRecordError> {
    let mut game = match setup {
        Some(s) => Banqi::from_setup(s),
        None => Banqi::unknown(),
    };
    for (i, text) in super::record::tokens(record).into_iter().enumerate() {
        game.play_text(text)
            .map_err(|kind| BanqiRecordError { ply: i + 1, kind })?;
    }
    Ok(game.desk_aid())
}
