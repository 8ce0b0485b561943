//! Move notation, both ways: ICCS (`h2e2`), Chinese (炮二平五) and WXF (`C2.5`).
//!
//! Every legal move is described by its [`Facts`]; printing turns facts into text, and
//! parsing reads text into a pattern and keeps the legal moves whose facts match it (see the
//! [`super`] module doc). A pattern is matched strictly first (a plain file means the only
//! like piece on it, or the middle one of three in WXF) and liberally only when nothing
//! matches strictly (a plain file then means any like piece on it), so `R2+1` is read when
//! just one of two chariots on file 2 can go forward one.
//!
//! Jieqi: a face-down piece is named after the piece of its square (it moves as that piece),
//! counts with the face-up pieces of that kind for 前/后 and stacks, and the piece it turns
//! out to be is written at the end (马二进三炮, `H2+3C`, `b0c2C`).

mod chinese;
mod iccs;
mod wxf;

use super::position::{code_kind, sq_file, sq_rank, Move, MoveError, Position, Square, HIDDEN};
use super::position::{BLACK, EMPTY, KIND, OFF};
use crate::model::Side;
use crate::setup::Piece;

/// Which notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// ICCS coordinates: `h2e2` (files a–i from Red's left, ranks 0–9 from Red's back rank).
    Iccs,
    /// Chinese: 炮二平五 / 炮8平5.
    Chinese,
    /// WXF: `C2.5`.
    Wxf,
}

/// Which Chinese characters to print (both are always read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Script {
    /// 车马相仕帅炮兵 / 车马象士将炮卒, 进退平 (the default).
    #[default]
    Simplified,
    /// 車馬相仕帥炮兵 / 車馬象士將砲卒, 進退平.
    Traditional,
}

/// Why a move text could not be turned into a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Occurs when the text is not a move in the notation at all.
    #[error("cannot read {0:?}")]
    Unreadable(String),
    /// Occurs when the text reads well but no legal move fits it.
    #[error("no legal move fits {0:?}")]
    Illegal(String),
    /// Occurs when more than one legal move fits the text.
    #[error("{text:?} fits more than one move ({})", candidates.join(", "))]
    Ambiguous {
        /// The text.
        text: String,
        /// The fitting moves in ICCS.
        candidates: Vec<String>,
    },
    /// Occurs when a reveal is missing or contradicts the set-up.
    #[error("{0}")]
    Move(#[from] MoveError),
}

/// Direction of a move from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// 进 `+`.
    Forward,
    /// 退 `-`.
    Back,
    /// 平 `.`.
    Sideways,
}

/// What the notations say about a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The mover's side.
    pub side: Side,
    /// The piece it moves as (for a face-down piece, its square's piece).
    pub kind: Piece,
    /// Its file, 1–9 from the mover's right.
    pub file: u8,
    /// Direction.
    pub dir: Dir,
    /// Distance (straight moves of chariot, cannon, pawn, general) or destination file.
    pub number: u8,
    /// Its place among the mover's like pieces on its file, 0 = the front one.
    pub index: u8,
    /// How many like pieces the mover has on that file.
    pub count: u8,
    /// How many files hold two or more of the mover's like pieces.
    pub stacked_files: u8,
    /// Whether the mover is face down.
    pub hidden: bool,
    /// What a face-down mover turns out to be, when known.
    pub reveal: Option<Piece>,
}

/// File 1–9 counted from `side`'s right.
pub(crate) fn file_number(side: Side, file: u8) -> u8 {
    match side {
        Side::Red => 9 - file,
        Side::Black => file + 1,
    }
}

impl Facts {
    /// The facts of a move in a position (the move should be legal there).
    pub fn of(pos: &Position, mv: Move) -> Facts {
        let from = mv.from.idx();
        let c = pos.board[from];
        let side = if c & BLACK == 0 {
            Side::Red
        } else {
            Side::Black
        };
        let kind = code_kind(c);
        let like = |x: u8| x != EMPTY && x != OFF && (x & (BLACK | KIND)) == (c & (BLACK | KIND));
        let mut per_file = [0u8; 9];
        let mut ahead = 0u8;
        for sq in Square::all() {
            if like(pos.board[sq.idx()]) {
                per_file[usize::from(sq.file())] += 1;
                if sq.file() == mv.from.file() {
                    let in_front = match side {
                        Side::Red => sq.rank() > mv.from.rank(),
                        Side::Black => sq.rank() < mv.from.rank(),
                    };
                    ahead += u8::from(in_front);
                }
            }
        }
        let mut dr = sq_rank(mv.to.idx()) - sq_rank(from);
        if side == Side::Black {
            dr = -dr;
        }
        let dir = match dr {
            0 => Dir::Sideways,
            d if d > 0 => Dir::Forward,
            _ => Dir::Back,
        };
        let straight = matches!(
            kind,
            Piece::Chariot | Piece::Cannon | Piece::Pawn | Piece::General
        );
        let number = if dir != Dir::Sideways && straight {
            dr.unsigned_abs() as u8
        } else {
            file_number(side, sq_file(mv.to.idx()) as u8)
        };
        Facts {
            side,
            kind,
            file: file_number(side, mv.from.file()),
            dir,
            number,
            index: ahead,
            count: per_file[usize::from(mv.from.file())],
            stacked_files: per_file.iter().filter(|&&n| n >= 2).count() as u8,
            hidden: c & HIDDEN != 0,
            reveal: mv.reveal.or_else(|| pos.hidden_identity(mv.from)),
        }
    }
}

/// Which of several like pieces on a file a text names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// 前 / a `+` marker meaning the front one.
    Front,
    /// 后 / a `-` marker meaning the rear one.
    Rear,
    /// 中: the middle one of an odd stack.
    Middle,
    /// 二, 三…: the n-th from the front (1-based).
    Nth(u8),
    /// WXF `P+` of a single stack: front of two or three, second of four or five.
    WxfPlus,
    /// WXF `P-` of a single stack: rear of two or three, second-last of four or five.
    WxfMinus,
}

impl Mark {
    fn fits(self, index: u8, count: u8) -> bool {
        if count < 2 {
            return false;
        }
        match self {
            Mark::Front => index == 0,
            Mark::Rear => index == count - 1,
            Mark::Middle => count % 2 == 1 && index == count / 2,
            Mark::Nth(n) => n >= 1 && index == n - 1,
            Mark::WxfPlus => index == if count >= 4 { 1 } else { 0 },
            Mark::WxfMinus => index + if count >= 4 { 2 } else { 1 } == count,
        }
    }
}

/// A move text read into its parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    pub kind: Piece,
    pub file: Option<u8>,
    pub mark: Option<Mark>,
    /// WXF: a plain file may name the middle of an odd stack.
    pub plain_middle: bool,
    pub dir: Dir,
    pub number: u8,
    pub reveal: Option<Piece>,
}

impl Pattern {
    fn fits(&self, f: &Facts, strict: bool) -> bool {
        if f.kind != self.kind || f.dir != self.dir || f.number != self.number {
            return false;
        }
        if self.file.is_some_and(|file| file != f.file) {
            return false;
        }
        if self.reveal.is_some() && !f.hidden {
            return false;
        }
        match self.mark {
            Some(mark) => mark.fits(f.index, f.count),
            None if !strict => true,
            None => {
                f.count == 1 || (self.plain_middle && f.count % 2 == 1 && f.index == f.count / 2)
            }
        }
    }
}

/// Reads a move in a position.
pub fn parse_move(pos: &Position, text: &str, notation: Notation) -> Result<Move, NotationError> {
    let text = text.trim();
    let patterns = match notation {
        Notation::Iccs => return iccs::parse(pos, text),
        Notation::Chinese => chinese::parse(text).map(|p| vec![p]),
        Notation::Wxf => wxf::parse(text),
    }
    .ok_or_else(|| NotationError::Unreadable(text.to_string()))?;
    let moves = pos.legal_moves();
    let facts: Vec<Facts> = moves.iter().map(|&m| Facts::of(pos, m)).collect();
    // Each reading in turn, strictly then liberally; the first that fits a move decides.
    for pattern in &patterns {
        let pick = |strict: bool| -> Vec<Move> {
            moves
                .iter()
                .zip(&facts)
                .filter(|(_, f)| pattern.fits(f, strict))
                .map(|(&m, _)| m)
                .collect()
        };
        let mut found = pick(true);
        if found.is_empty() {
            found = pick(false);
        }
        match found.as_slice() {
            [] => continue,
            [mv] => return complete(pos, *mv, pattern.reveal),
            many => {
                return Err(NotationError::Ambiguous {
                    text: text.to_string(),
                    candidates: many.iter().map(|m| format!("{}{}", m.from, m.to)).collect(),
                })
            }
        }
    }
    Err(NotationError::Illegal(text.to_string()))
}

/// Adds a written reveal to a legal move, checking it against what the position knows.
pub(crate) fn complete(
    pos: &Position,
    mv: Move,
    written: Option<Piece>,
) -> Result<Move, NotationError> {
    if written.is_none() {
        // Reveal filled from the set-up, a face-up mover, or a face-down mover nobody
        // named: the caller decides about the last (a record replay refuses it).
        return Ok(mv);
    }
    Ok(pos.check_move(Move {
        reveal: written,
        ..mv
    })?)
}

/// Prints a legal move.
pub fn format_move(pos: &Position, mv: Move, notation: Notation, script: Script) -> String {
    match notation {
        Notation::Iccs => iccs::format(pos, mv),
        Notation::Chinese => chinese::format(&Facts::of(pos, mv), script),
        Notation::Wxf => wxf::format(&Facts::of(pos, mv)),
    }
}

/// The WXF letter of a piece (`K A E H R C P`).
pub fn wxf_letter(p: Piece) -> char {
    p.letter()
}

/// A WXF/ICCS piece letter, either case, with the common aliases `N` (horse) and `B`
/// (elephant).
pub(crate) fn letter_piece(c: char) -> Option<Piece> {
    match c.to_ascii_uppercase() {
        'N' => Some(Piece::Horse),
        'B' => Some(Piece::Elephant),
        'G' => None,
        u => Piece::from_letter(u),
    }
}
