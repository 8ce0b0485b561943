//! WXF: piece letter, file from the mover's right, `+` `-` `.`, distance or file (`C2.5`).
//!
//! Two like pieces on a file: `+`/`-` replace the file (`C+.5`, `R--1`); two soldiers on each
//! of two files put the file first (`3+.4`, `3-.4`). Three or more soldiers on a file are
//! named by number, as the Chinese 前/中/后 and 一二三四五 name them: the place from the front,
//! then the file, with no letter (`25.6`: the second soldier from the front on file 5 goes to
//! file 6; `13+1`), whether or not another file holds a stack too. Forms WXF has no word for
//! (Jieqi's four chariots on two files, or bigger stacks of other pieces) use
//! `letter + marker + file`, the marker being `+`/`-` of two or the place 1–9 from the front
//! (`R-9.8`).
//! Read liberally: `=` for `.`, `+C.5` for `C+.5`, lower case, a plain file when only one of
//! the pieces on it can make the move, and the older WXF table for soldier stacks (three on a
//! file `P+`, `P3` for the middle one, `P-`; four `++`, `P+`, `P-`, `--`; five `++`, `P+`,
//! `P3`, `P-`, `--`; on two files `3+.4`, `33.4` for the middle of three, `3-.4`); `33.4` is
//! read as the third soldier on file 3 first, and as the middle one only when that fits no
//! move.

use super::{letter_piece, Dir, Facts, Mark, Pattern};
use crate::setup::Piece;

fn act(dir: Dir) -> char {
    match dir {
        Dir::Forward => '+',
        Dir::Back => '-',
        Dir::Sideways => '.',
    }
}

/// Prints a move's facts in WXF.
pub(super) fn format(f: &Facts) -> String {
    let l = f.kind.letter();
    let file = char::from(b'0' + f.file);
    let plus_minus = |front: bool| if front { '+' } else { '-' };
    let ext = || -> String {
        let m = if f.count == 2 {
            plus_minus(f.index == 0)
        } else {
            char::from(b'1' + f.index)
        };
        format!("{l}{m}{file}")
    };
    let middle = f.count % 2 == 1 && f.index == f.count / 2;
    let designator = if f.count <= 1 {
        format!("{l}{file}")
    } else if f.kind == Piece::Pawn && f.count >= 3 {
        // The place from the front, then the file (前/中/后, 一二三四五 in Chinese).
        format!("{}{file}", f.index + 1)
    } else if f.stacked_files <= 1 {
        match f.count {
            2 | 3 if middle => format!("{l}{file}"),
            2 | 3 => format!("{l}{}", plus_minus(f.index == 0)),
            _ => ext(),
        }
    } else if f.kind == Piece::Pawn {
        // Two soldiers on this file and two or more on another: the file first.
        format!("{file}{}", plus_minus(f.index == 0))
    } else {
        ext()
    };
    let mut out = format!("{designator}{}{}", act(f.dir), f.number);
    if f.hidden {
        if let Some(p) = f.reveal {
            out.push(p.letter());
        }
    }
    out
}

/// Reads a WXF move into patterns, the first one preferred: a second one only for the older
/// table's `33.4` (the middle of three soldiers on file 3) beside `33.4` by number (the third
/// on file 3).
pub(super) fn parse(text: &str) -> Option<Vec<Pattern>> {
    let mut chars: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let mut reveal = None;
    if chars.len() >= 5 && chars.last().is_some_and(|c| c.is_ascii_alphabetic()) {
        reveal = Some(letter_piece(chars.pop()?)?);
    }
    if chars.len() != 4 && chars.len() != 5 {
        return None;
    }
    let n = chars.len();
    let dir = match chars[n - 2] {
        '+' => Dir::Forward,
        '-' => Dir::Back,
        '.' | '=' => Dir::Sideways,
        _ => return None,
    };
    let number = chars[n - 1].to_digit(10).filter(|&d| d >= 1)? as u8;
    let digit = |c: char| c.to_digit(10).filter(|&d| d >= 1).map(|d| d as u8);
    let sign = |c: char| match c {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    };
    let mut pattern = Pattern {
        kind: Piece::Pawn,
        file: None,
        mark: None,
        plain_middle: true,
        dir,
        number,
        reveal,
    };
    if n == 5 {
        pattern.kind = letter_piece(chars[0])?;
        pattern.file = Some(digit(chars[2])?);
        pattern.mark = Some(match (sign(chars[1]), digit(chars[1])) {
            (Some(true), _) => Mark::Front,
            (Some(false), _) => Mark::Rear,
            (None, Some(k)) => Mark::Nth(k),
            _ => return None,
        });
        return Some(vec![pattern]);
    }
    let (a, b) = (chars[0], chars[1]);
    if let Some(kind) = letter_piece(a) {
        pattern.kind = kind;
        if let Some(file) = digit(b) {
            pattern.file = Some(file);
        } else {
            pattern.mark = Some(if sign(b)? {
                Mark::WxfPlus
            } else {
                Mark::WxfMinus
            });
        }
    } else if let Some(front) = sign(a) {
        if b == a {
            pattern.mark = Some(if front { Mark::Front } else { Mark::Rear });
        } else {
            pattern.kind = letter_piece(b)?;
            pattern.mark = Some(if front { Mark::WxfPlus } else { Mark::WxfMinus });
        }
    } else if let Some(front) = sign(b) {
        // `3+.4`: the front (or rear) soldier on file 3.
        pattern.file = Some(digit(a)?);
        pattern.mark = Some(if front { Mark::Front } else { Mark::Rear });
    } else {
        // `25.6`: the second soldier from the front on file 5.
        let (place, file) = (digit(a)?, digit(b)?);
        pattern.file = Some(file);
        pattern.mark = Some(Mark::Nth(place));
        if place == file {
            let older = Pattern {
                mark: Some(Mark::Middle),
                ..pattern
            };
            return Some(vec![pattern, older]);
        }
    }
    Some(vec![pattern])
}
