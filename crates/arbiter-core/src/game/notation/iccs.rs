//! ICCS: `h2e2` (also `H2-E2`), with Jieqi's reveal as a trailing piece letter (`b0c2C`).

use super::{complete, letter_piece, NotationError};
use crate::game::position::{Move, Position, Square};

/// Prints `h2e2`, plus the reveal letter (upper case) for a face-down mover.
pub(super) fn format(pos: &Position, mv: Move) -> String {
    let mut out = format!("{}{}", mv.from, mv.to);
    if pos.piece_at(mv.from).is_some_and(|p| p.2) {
        if let Some(p) = mv.reveal.or_else(|| pos.hidden_identity(mv.from)) {
            out.push(p.letter());
        }
    }
    out
}

/// Reads `h2e2`, `H2-E2`, `h2e2C`, `h2e2=C` or `h2e2(C)`.
pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let bad = || NotationError::Unreadable(text.to_string());
    let cleaned: String = text
        .chars()
        .filter(|c| !matches!(c, '-' | '=' | '(' | ')' | 'x' | 'X' | ':'))
        .collect();
    let chars: Vec<char> = cleaned.chars().collect();
    if chars.len() != 4 && chars.len() != 5 {
        return Err(bad());
    }
    let from = Square::parse(&chars[..2].iter().collect::<String>()).ok_or_else(bad)?;
    let to = Square::parse(&chars[2..4].iter().collect::<String>()).ok_or_else(bad)?;
    let reveal = match chars.get(4) {
        Some(&c) => Some(letter_piece(c).ok_or_else(bad)?),
        None => None,
    };
    let found = pos
        .legal_moves()
        .into_iter()
        .find(|m| m.from == from && m.to == to)
        .ok_or_else(|| NotationError::Illegal(text.to_string()))?;
    complete(pos, found, reveal)
}
