//! FEN for Xiangqi, with `X`/`x` for Jieqi's face-down pieces (module doc of [`super`]).

use super::position::{
    kind_code, start_kind, Position, Square, Variant, ADVISOR, CANNON, CHARIOT, ELEPHANT, GENERAL,
    HIDDEN, HORSE, KIND, OFF, PAWN,
};
use crate::model::Side;

/// Why a FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Occurs when the board field does not have 10 ranks of 9 points.
    #[error("the board needs 10 ranks of 9 points: {0}")]
    Shape(String),
    /// Occurs on a letter that is no piece.
    #[error("unknown piece letter {0:?}")]
    Letter(char),
    /// Occurs when the side to move is not `w`, `r` or `b`, or fields are missing or extra.
    #[error("bad field: {0}")]
    Field(String),
    /// Occurs when a side has no general or more than one, or a general is outside its palace.
    #[error("each side needs one general in its palace")]
    Generals,
    /// Occurs when a face-down piece is not on one of its side's starting squares.
    #[error("a face-down piece on {0} is not on a starting square")]
    HiddenSquare(String),
    /// Occurs when the side that has just moved is left in check.
    #[error("the side not to move is in check")]
    OpponentInCheck,
}

fn letter_kind(c: char) -> Option<u8> {
    Some(match c.to_ascii_lowercase() {
        'k' => GENERAL,
        'a' => ADVISOR,
        'b' | 'e' => ELEPHANT,
        'n' | 'h' => HORSE,
        'r' => CHARIOT,
        'c' => CANNON,
        'p' => PAWN,
        _ => return None,
    })
}

fn kind_letter(kind: u8) -> char {
    match kind {
        GENERAL => 'k',
        ADVISOR => 'a',
        ELEPHANT => 'b',
        HORSE => 'n',
        CHARIOT => 'r',
        CANNON => 'c',
        _ => 'p',
    }
}

impl Position {
    /// Reads a FEN, short (`board side`) or six-field (`board side - - half full`). A FEN
    /// with `X`/`x` is a Jieqi position; any other is Xiangqi.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() || fields.len() > 6 {
            return Err(FenError::Field(fen.to_string()));
        }
        let variant = if fields[0].contains(['x', 'X']) {
            Variant::Jieqi
        } else {
            Variant::Xiangqi
        };
        let mut pos = Position::empty(variant);
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::Shape(fields[0].to_string()));
        }
        let mut generals = [0u8; 2];
        for (row, text) in ranks.iter().enumerate() {
            let rank = 9 - row as u8;
            let mut file = 0u8;
            for c in text.chars() {
                if let Some(n) = c.to_digit(10) {
                    file = file.saturating_add(n as u8);
                    continue;
                }
                let sq =
                    Square::new(file, rank).ok_or_else(|| FenError::Shape(text.to_string()))?;
                let side = if c.is_ascii_uppercase() {
                    Side::Red
                } else {
                    Side::Black
                };
                if c == 'x' || c == 'X' {
                    let kind =
                        start_kind(sq, side).ok_or_else(|| FenError::HiddenSquare(sq.name()))?;
                    pos.set(sq, side, kind_code(kind), true);
                } else {
                    let kind = letter_kind(c).ok_or(FenError::Letter(c))?;
                    if kind == GENERAL {
                        generals[usize::from(side == Side::Black)] += 1;
                        let palace = (3..=5).contains(&sq.file())
                            && match side {
                                Side::Red => sq.rank() <= 2,
                                Side::Black => sq.rank() >= 7,
                            };
                        if !palace {
                            return Err(FenError::Generals);
                        }
                    }
                    pos.set(sq, side, kind, false);
                }
                file += 1;
            }
            if file != 9 {
                return Err(FenError::Shape(text.to_string()));
            }
        }
        if generals != [1, 1] {
            return Err(FenError::Generals);
        }
        let side = match fields.get(1).copied() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Side::Red,
            Some("b") | Some("B") => Side::Black,
            Some(other) => return Err(FenError::Field(other.to_string())),
        };
        pos.set_side(side);
        if let Some(h) = fields.get(4) {
            pos.halfmove = h.parse().map_err(|_| FenError::Field(h.to_string()))?;
        }
        if let Some(f) = fields.get(5) {
            pos.fullmove = f.parse().map_err(|_| FenError::Field(f.to_string()))?;
        }
        if pos.attacked_king(pos.side ^ super::position::BLACK) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// The six-field FEN (`… w - - 0 1`), `X`/`x` for face-down pieces.
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..10u8).rev() {
            let mut gap = 0;
            for file in 0..9u8 {
                let Some(sq) = Square::new(file, rank) else {
                    continue;
                };
                let c = self.board[sq.idx()];
                if c == 0 || c == OFF {
                    gap += 1;
                    continue;
                }
                if gap > 0 {
                    out.push(char::from(b'0' + gap));
                    gap = 0;
                }
                let letter = if c & HIDDEN != 0 {
                    'x'
                } else {
                    kind_letter(c & KIND)
                };
                out.push(if c & super::position::BLACK == 0 {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
            if gap > 0 {
                out.push(char::from(b'0' + gap));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = if self.side == 0 { 'w' } else { 'b' };
        format!("{out} {side} - - {} {}", self.halfmove, self.fullmove)
    }
}
