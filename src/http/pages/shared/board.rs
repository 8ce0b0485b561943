//! The game board as SVG (issue #18): a Xiangqi/Jieqi board from a FEN, a Banqi half board
//! from its rows; `static/js/records.js` draws the same markup when it steps through a game.

use crate::i18n::{Lang, Tr};
use crate::service::records::piece_glyph;
use crate::vocab::Game;
use arbiter_core::game::Script;
use std::fmt::Write as _;

fn fen_letter(c: char) -> Option<char> {
    let upper = match c.to_ascii_uppercase() {
        'K' => 'K',
        'A' => 'A',
        'B' | 'E' => 'E',
        'N' | 'H' => 'H',
        'R' => 'R',
        'C' => 'C',
        'P' => 'P',
        'X' => 'X',
        _ => return None,
    };
    Some(if c.is_ascii_uppercase() {
        upper
    } else {
        upper.to_ascii_lowercase()
    })
}

/// The pieces of a FEN's board: (file 0–8, rank 0–9, letter; `X`/`x` face down).
pub fn fen_pieces(fen: &str) -> Vec<(u8, u8, char)> {
    let board = fen.split_whitespace().next().unwrap_or("");
    let mut out = Vec::new();
    for (i, row) in board.split('/').enumerate().take(10) {
        let rank = 9 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file = file.saturating_add(d as u8);
            } else if let Some(letter) = fen_letter(c) {
                if file < 9 {
                    out.push((file, rank, letter));
                }
                file = file.saturating_add(1);
            }
        }
    }
    out
}

fn piece_svg(out: &mut String, x: i32, y: i32, letter: char, hidden: Option<char>, r: i32) {
    let red = letter.is_ascii_uppercase();
    let side = if red { "red" } else { "black" };
    if letter.eq_ignore_ascii_case(&'x') {
        let _ = write!(
            out,
            r#"<g class="pc down {side}"><circle cx="{x}" cy="{y}" r="{r}"/>"#
        );
        if let Some(h) = hidden {
            let _ = write!(
                out,
                r#"<text x="{x}" y="{y}" class="hint">{}</text>"#,
                piece_glyph(h)
            );
        }
        out.push_str("</g>");
    } else {
        let _ = write!(
            out,
            r#"<g class="pc {side}"><circle cx="{x}" cy="{y}" r="{r}"/><text x="{x}" y="{y}">{}</text></g>"#,
            piece_glyph(letter)
        );
    }
}

fn hidden_at(hidden: &[(String, char)], square: &str) -> Option<char> {
    hidden.iter().find(|(s, _)| s == square).map(|(_, c)| *c)
}

/// A Xiangqi/Jieqi board as SVG (Red at the bottom), with the pieces of `fen`; face-down
/// pieces show a hint of what they are when `hidden` names their square.
pub fn xiangqi_svg(fen: &str, hidden: &[(String, char)], label: &str) -> String {
    const S: i32 = 40;
    const M: i32 = 30;
    let (w, h) = (8 * S + 2 * M, 9 * S + 2 * M);
    let mut out = format!(
        r#"<svg class="xq-board" viewBox="0 0 {w} {h}" role="img" aria-label="{label}" xmlns="http://www.w3.org/2000/svg"><rect class="bg" x="0" y="0" width="{w}" height="{h}"/><g class="grid">"#
    );
    for i in 0..10 {
        let y = M + i * S;
        let _ = write!(
            out,
            r#"<line x1="{M}" y1="{y}" x2="{}" y2="{y}"/>"#,
            M + 8 * S
        );
    }
    for f in 0..9 {
        let x = M + f * S;
        if f == 0 || f == 8 {
            let _ = write!(
                out,
                r#"<line x1="{x}" y1="{M}" x2="{x}" y2="{}"/>"#,
                M + 9 * S
            );
        } else {
            let _ = write!(
                out,
                r#"<line x1="{x}" y1="{M}" x2="{x}" y2="{}"/>"#,
                M + 4 * S
            );
            let _ = write!(
                out,
                r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
                M + 5 * S,
                M + 9 * S
            );
        }
    }
    for top in [0, 7] {
        let (x1, x2, y1, y2) = (M + 3 * S, M + 5 * S, M + top * S, M + (top + 2) * S);
        let _ = write!(
            out,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/><line x1="{x2}" y1="{y1}" x2="{x1}" y2="{y2}"/>"#
        );
    }
    out.push_str("</g><g class=\"coords\">");
    for f in 0..9u8 {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}">{}</text>"#,
            M + i32::from(f) * S,
            h - 6,
            char::from(b'a' + f)
        );
    }
    for r in 0..10 {
        let _ = write!(out, r#"<text x="10" y="{}">{r}</text>"#, M + (9 - r) * S);
    }
    out.push_str("</g><g class=\"pieces\">");
    for (file, rank, letter) in fen_pieces(fen) {
        let square = format!("{}{}", char::from(b'a' + file), rank);
        let x = M + i32::from(file) * S;
        let y = M + (9 - i32::from(rank)) * S;
        piece_svg(&mut out, x, y, letter, hidden_at(hidden, &square), 17);
    }
    out.push_str("</g></svg>");
    out
}

/// A Banqi half board as SVG (row 1 at the bottom), from the rows of
/// [`crate::service::records::banqi_rows`].
pub fn banqi_svg(rows: &str, hidden: &[(String, char)], label: &str) -> String {
    const S: i32 = 44;
    const M: i32 = 24;
    let (w, h) = (8 * S + 2 * M, 4 * S + 2 * M);
    let mut out = format!(
        r#"<svg class="bq-board" viewBox="0 0 {w} {h}" role="img" aria-label="{label}" xmlns="http://www.w3.org/2000/svg"><rect class="bg" x="0" y="0" width="{w}" height="{h}"/><g class="grid">"#
    );
    for i in 0..=4 {
        let y = M + i * S;
        let _ = write!(
            out,
            r#"<line x1="{M}" y1="{y}" x2="{}" y2="{y}"/>"#,
            M + 8 * S
        );
    }
    for i in 0..=8 {
        let x = M + i * S;
        let _ = write!(
            out,
            r#"<line x1="{x}" y1="{M}" x2="{x}" y2="{}"/>"#,
            M + 4 * S
        );
    }
    out.push_str("</g><g class=\"coords\">");
    for c in 0..8u8 {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}">{}</text>"#,
            M + i32::from(c) * S + S / 2,
            h - 6,
            char::from(b'a' + c)
        );
    }
    for r in 0..4 {
        let _ = write!(
            out,
            r#"<text x="10" y="{}">{}</text>"#,
            M + (3 - r) * S + S / 2,
            r + 1
        );
    }
    out.push_str("</g><g class=\"pieces\">");
    for (row, line) in rows.split('/').enumerate().take(4) {
        for (column, c) in line.chars().enumerate().take(8) {
            if c == '.' {
                continue;
            }
            let square = format!("{}{}", char::from(b'a' + column as u8), row + 1);
            let x = M + column as i32 * S + S / 2;
            let y = M + (3 - row as i32) * S + S / 2;
            piece_svg(&mut out, x, y, c, hidden_at(hidden, &square), 19);
        }
    }
    out.push_str("</g></svg>");
    out
}

/// The board of a game in a position.
pub fn board_svg(game: Game, fen: &str, hidden: &[(String, char)], tr: Tr) -> String {
    let label = tr.t("rec.board");
    if game == Game::Banqi {
        banqi_svg(fen, hidden, label)
    } else {
        xiangqi_svg(fen, hidden, label)
    }
}

/// The Chinese characters for a language.
pub fn script_of(lang: Lang) -> Script {
    match lang {
        Lang::ZhHant => Script::Traditional,
        _ => Script::Simplified,
    }
}

/// The `hidden` attribute text: `a0:R,b0:h,…`.
pub fn hidden_attr(hidden: &[(String, char)]) -> String {
    hidden
        .iter()
        .map(|(s, c)| format!("{s}:{c}"))
        .collect::<Vec<_>>()
        .join(",")
}
