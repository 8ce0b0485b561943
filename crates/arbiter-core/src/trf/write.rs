//! Writing the model as TRF: TRF-16 player lines with the TRF-26 and JaVaFo headers.

use crate::model::{Points, Scoring, Side, Tournament};
use std::fmt::Write as _;

/// Writes `t` as a TRF file (UTF-8, LF line ends, no trailing blanks).
///
/// Order: `012`, the kept header lines, `142`, `152`, `162` (plus `XXS` when the scoring has
/// values `162` cannot express), `XXR`, `XXC`, the `001` player lines, forbidden pairs (`XXP`,
/// or `260` when limited to rounds) and accelerations (`XXA`). Names are padded and cut by
/// characters, so fixed columns hold for any script.
pub fn write(t: &Tournament) -> String {
    let mut out = String::new();
    push_line(&mut out, &format!("012 {}", t.name));
    for (code, text) in &t.headers {
        push_line(&mut out, &format!("{code} {text}"));
    }
    if let Some(n) = t.rounds_total {
        push_line(&mut out, &format!("142 {n}"));
    }
    if let Some(side) = t.initial_colour {
        let letter = match side {
            Side::Red => 'W',
            Side::Black => 'B',
        };
        push_line(&mut out, &format!("152 {letter}"));
    }
    write_scoring(&mut out, &t.scoring);
    if let Some(n) = t.rounds_total {
        push_line(&mut out, &format!("XXR {n}"));
    }
    if let Some(side) = t.initial_colour {
        let word = match side {
            Side::Red => "white1",
            Side::Black => "black1",
        };
        push_line(&mut out, &format!("XXC {word}"));
    }

    let completed = t.rounds_played();
    for e in &t.entrants {
        let mut line = String::from("001 ");
        pad_left(&mut line, &e.start_no.to_string(), 4);
        line.push(' ');
        line.push(e.sex.unwrap_or(' '));
        pad_right(&mut line, &e.title, 3);
        line.push(' ');
        pad_right(&mut line, &e.name, 33);
        line.push(' ');
        pad_left(
            &mut line,
            &e.rating.map(|r| r.to_string()).unwrap_or_default(),
            4,
        );
        line.push(' ');
        pad_right(&mut line, &e.federation, 3);
        line.push(' ');
        pad_left(&mut line, &e.fide_id, 11);
        line.push(' ');
        pad_right(&mut line, &e.birth_date, 10);
        line.push(' ');
        // The points column: as declared, else the score over the completed rounds (a bye
        // announced for the round to be paired is not yet part of the score).
        let points = e
            .declared_points
            .unwrap_or_else(|| e.points_after(&t.scoring, completed));
        pad_left(&mut line, &four_wide(points), 4);
        line.push(' ');
        pad_left(
            &mut line,
            &e.declared_rank.map(|r| r.to_string()).unwrap_or_default(),
            4,
        );
        for r in &e.rounds {
            line.push_str("  ");
            pad_left(
                &mut line,
                &r.opponent
                    .map(|o| o.to_string())
                    .unwrap_or_else(|| "0000".into()),
                4,
            );
            line.push(' ');
            line.push(r.colour.map(Side::trf_letter).unwrap_or('-'));
            line.push(' ');
            line.push(r.result.trf_letter());
        }
        push_line(&mut out, &line);
    }

    for f in &t.forbidden {
        let mut line = if f.first_round.is_none() && f.last_round.is_none() {
            String::from("XXP")
        } else {
            let round = |r: Option<u32>| r.map(|r| r.to_string()).unwrap_or_default();
            let mut line = String::from("260 ");
            pad_left(&mut line, &round(f.first_round), 3);
            line.push(' ');
            pad_left(&mut line, &round(f.last_round), 3);
            line
        };
        for id in &f.entrants {
            line.push(' ');
            pad_left(&mut line, &id.to_string(), 4);
        }
        push_line(&mut out, &line);
    }
    for a in &t.accelerations {
        let mut line = String::from("XXA ");
        pad_left(&mut line, &a.start_no.to_string(), 4);
        for p in &a.points {
            line.push(' ');
            pad_left(&mut line, &four_wide(*p), 4);
        }
        push_line(&mut out, &line);
    }
    out
}

/// `162` always; `XXS` with every code as well when `162` cannot say it all (a forfeit win
/// or full-point bye not worth a win, a half-point bye not worth a draw, a forfeit loss not
/// worth a zero-point bye). `XXS` comes after `162`, so it wins on reading.
fn write_scoring(out: &mut String, s: &Scoring) {
    let mut line = String::from("162 ");
    for (symbol, points) in [
        ('W', s.win),
        ('D', s.draw),
        ('L', s.loss),
        ('A', s.zero_bye),
        ('P', s.pairing_bye),
    ] {
        line.push(' ');
        line.push(symbol);
        pad_left(&mut line, &one_decimal(points), 4);
        line.push_str("   ");
    }
    push_line(out, &line);
    let expressible = s.forfeit_win == s.win
        && s.full_bye == s.win
        && s.half_bye == s.draw
        && s.forfeit_loss == s.zero_bye;
    if !expressible {
        let mut line = String::from("XXS");
        for (code, points) in [
            ("WW", s.win),
            ("BW", s.win),
            ("WD", s.draw),
            ("BD", s.draw),
            ("WL", s.loss),
            ("BL", s.loss),
            ("ZPB", s.zero_bye),
            ("HPB", s.half_bye),
            ("FPB", s.full_bye),
            ("PAB", s.pairing_bye),
            ("FW", s.forfeit_win),
            ("FL", s.forfeit_loss),
        ] {
            let _ = write!(line, " {code}={}", one_decimal(points));
        }
        push_line(out, &line);
    }
}

/// Appends one line: line breaks inside become blanks (a name must not split the file) and
/// trailing blanks are dropped.
pub(super) fn push_line(out: &mut String, line: &str) {
    let clean: String = line
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    out.push_str(clean.trim_end());
    out.push('\n');
}

/// Left-aligned in `width` characters, cut to fit.
pub(super) fn pad_right(out: &mut String, text: &str, width: usize) {
    let mut n = 0;
    for c in text.chars().take(width) {
        out.push(c);
        n += 1;
    }
    out.extend(std::iter::repeat_n(' ', width - n));
}

/// Right-aligned in `width` characters (never cut: a number that does not fit is written whole).
pub(super) fn pad_left(out: &mut String, text: &str, width: usize) {
    let n = text.chars().count();
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(n)));
    out.push_str(text);
}

/// Points for a 4-character column: one decimal when it fits (`11.5`), else the whole number
/// (`105`). A value that fits neither (a non-whole score of 100 or more) loses its decimal:
/// keeping the columns matters more than an informational field.
fn four_wide(p: Points) -> String {
    let text = one_decimal(p);
    if text.chars().count() <= 4 {
        text
    } else {
        (p.0 / 10).to_string()
    }
}

/// TRF's points format: always one decimal (`2.0`, `13.5`, `-0.5`).
pub(crate) fn one_decimal(p: Points) -> String {
    let sign = if p.0 < 0 { "-" } else { "" };
    let abs = p.0.unsigned_abs();
    format!("{sign}{}.{}", abs / 10, abs % 10)
}
