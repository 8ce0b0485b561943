//! Chinese notation: 炮二平五, 马8进7, 前炮平五, 三兵进一, 前兵五平四, 马二进三炮.
//!
//! Piece, file, action (进 forward, 退 back, 平 sideways), then the distance for a straight
//! move of 车炮兵帅 or else the destination file. Red counts files right to left in Chinese
//! numerals (一…九), Black in digits (1…9). With two or more of the mover's like pieces on
//! the file, a position word replaces piece and file (前/后; 前/中/后; 前/二/三/四[/五…]) and
//! is followed by the piece, and by the file too when another file also holds two or more
//! (前兵五平四, 中兵五进一). Jieqi adds the revealed piece at the end. Reading takes either
//! script, full-width or ASCII digits, Chinese numerals or digits for either side, the file
//! after a position word or not (三兵进一, 三兵五进一), and the older 车前平三 order.

use super::{Dir, Facts, Mark, Pattern, Script};
use crate::model::Side;
use crate::setup::Piece;

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn name(kind: Piece, side: Side, script: Script) -> char {
    let red = side == Side::Red;
    let trad = script == Script::Traditional;
    match kind {
        Piece::Chariot => {
            if trad {
                '車'
            } else {
                '车'
            }
        }
        Piece::Horse => {
            if trad {
                '馬'
            } else {
                '马'
            }
        }
        Piece::Elephant => {
            if red {
                '相'
            } else {
                '象'
            }
        }
        Piece::Advisor => {
            if red {
                '仕'
            } else {
                '士'
            }
        }
        Piece::General => match (red, trad) {
            (true, false) => '帅',
            (true, true) => '帥',
            (false, false) => '将',
            (false, true) => '將',
        },
        Piece::Cannon => {
            if !red && trad {
                '砲'
            } else {
                '炮'
            }
        }
        Piece::Pawn => {
            if red {
                '兵'
            } else {
                '卒'
            }
        }
    }
}

fn number(n: u8, side: Side) -> char {
    match side {
        Side::Red => NUMERALS[usize::from(n.clamp(1, 9) - 1)],
        Side::Black => char::from(b'0' + n),
    }
}

fn word(index: u8, count: u8, script: Script) -> char {
    let rear = if script == Script::Traditional {
        '後'
    } else {
        '后'
    };
    match (count, index) {
        (_, 0) => '前',
        (2, _) => rear,
        (3, 1) => '中',
        (3, _) => rear,
        (_, i) => NUMERALS[usize::from(i.min(8))],
    }
}

/// Prints a move's facts in Chinese.
pub(super) fn format(f: &Facts, script: Script) -> String {
    let mut out = String::new();
    let piece = name(f.kind, f.side, script);
    if f.count <= 1 {
        out.push(piece);
        out.push(number(f.file, f.side));
    } else {
        out.push(word(f.index, f.count, script));
        out.push(piece);
        if f.stacked_files >= 2 {
            out.push(number(f.file, f.side));
        }
    }
    out.push(match (f.dir, script) {
        (Dir::Forward, Script::Simplified) => '进',
        (Dir::Forward, Script::Traditional) => '進',
        (Dir::Back, _) => '退',
        (Dir::Sideways, _) => '平',
    });
    out.push(number(f.number, f.side));
    if f.hidden {
        if let Some(p) = f.reveal {
            out.push(name(p, f.side, script));
        }
    }
    out
}

fn piece_of(c: char) -> Option<Piece> {
    Some(match c {
        '车' | '車' | '俥' | '伡' => Piece::Chariot,
        '马' | '馬' | '傌' => Piece::Horse,
        '相' | '象' => Piece::Elephant,
        '仕' | '士' => Piece::Advisor,
        '帅' | '帥' | '将' | '將' => Piece::General,
        '炮' | '砲' | '包' => Piece::Cannon,
        '兵' | '卒' => Piece::Pawn,
        _ => return None,
    })
}

fn digit_of(c: char) -> Option<u8> {
    if let Some(i) = NUMERALS.iter().position(|&n| n == c) {
        return Some(i as u8 + 1);
    }
    let d = match c {
        '1'..='9' => c as u32 - '0' as u32,
        '１'..='９' => c as u32 - '０' as u32,
        _ => return None,
    };
    Some(d as u8)
}

fn mark_of(c: char) -> Option<Mark> {
    match c {
        '前' => Some(Mark::Front),
        '后' | '後' => Some(Mark::Rear),
        '中' => Some(Mark::Middle),
        _ => digit_of(c).map(Mark::Nth),
    }
}

/// Reads a Chinese move into a pattern.
pub(super) fn parse(text: &str) -> Option<Pattern> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let at = chars
        .iter()
        .position(|&c| matches!(c, '进' | '進' | '退' | '平'))?;
    let dir = match chars[at] {
        '退' => Dir::Back,
        '平' => Dir::Sideways,
        _ => Dir::Forward,
    };
    let tail = &chars[at + 1..];
    let number = digit_of(*tail.first()?)?;
    let reveal = match tail.get(1..)? {
        [] => None,
        [c] => Some(piece_of(*c)?),
        _ => return None,
    };
    let mut pattern = Pattern {
        kind: Piece::Pawn,
        file: None,
        mark: None,
        plain_middle: false,
        dir,
        number,
        reveal,
    };
    match chars[..at] {
        [p, x] if piece_of(p).is_some() => {
            pattern.kind = piece_of(p)?;
            match x {
                '前' | '后' | '後' | '中' => pattern.mark = mark_of(x),
                _ => pattern.file = Some(digit_of(x)?),
            }
        }
        [m, p] => {
            pattern.mark = Some(mark_of(m)?);
            pattern.kind = piece_of(p)?;
        }
        [m, p, x] => {
            pattern.mark = Some(mark_of(m)?);
            pattern.kind = piece_of(p)?;
            pattern.file = Some(digit_of(x)?);
        }
        _ => return None,
    }
    Some(pattern)
}
