//! The words of the manual pairing editor (`repair.rs`): what it shows beside a chosen player
//! (points before the round, colours, opponents) and its refusals said by board and name
//! ("Board 7: Wang is already on board 3") instead of the service's field paths.

use super::form::Fields;
use crate::http::pages::shared::format_number;
use crate::i18n::messages::{self as m, Msg};
use crate::i18n::Tr;
use crate::service::players::{HistoryBefore, Opponent};
use crate::service::FieldErrors;
use arbiter_core::model::Side;
use std::collections::HashMap;
use uuid::Uuid;

/// What the page shows beside a chosen player: their history before the round.
pub struct SeatNote {
    /// Points before the round, as the standings write them (2, 1.5).
    pub points: String,
    /// Colours of the earlier rounds in short words (`紅黑–紅`, `RB–R`; – for no game).
    pub colours: String,
    /// The same, round by round in full words (the tooltip).
    pub colours_title: String,
    /// Opponents so far by starting number (`5, 8`).
    pub opponents: String,
    /// The same, round by round with names (the tooltip).
    pub opponents_title: String,
}

/// A problem with the proposed boards, said by board and name, linked to its field.
pub struct Problem {
    /// The field's id (`black_7`).
    pub field: String,
    /// The sentence in the page's language.
    pub text: String,
}

/// The history of the player chosen in a field, in the page's language.
pub fn note(history: &HashMap<Uuid, &HistoryBefore>, chosen: &str, tr: Tr) -> Option<SeatNote> {
    let h = history.get(&chosen.trim().parse::<Uuid>().ok()?)?;
    let colour = |c: &Option<Side>, short: bool| match (c, short) {
        (Some(Side::Red), true) => tr.t("colour.red_short"),
        (Some(Side::Black), true) => tr.t("colour.black_short"),
        (Some(Side::Red), false) => tr.t("col.red"),
        (Some(Side::Black), false) => tr.t("col.black"),
        (None, true) => "–",
        (None, false) => tr.t("adm.repair.no_game"),
    };
    let opponent = |o: &Opponent, long: bool| match o.start_no {
        Some(no) if long => format!("{no}. {}", o.name),
        Some(no) => no.to_string(),
        None => o.name.clone(),
    };
    Some(SeatNote {
        points: format_number(h.points),
        colours: h.colours.iter().map(|c| colour(c, true)).collect(),
        colours_title: h
            .colours
            .iter()
            .enumerate()
            .map(|(i, c)| tr.fmt_n("adm.repair.in_round", &[&(i + 1), &colour(c, false)]))
            .collect::<Vec<_>>()
            .join("; "),
        opponents: h
            .opponents
            .iter()
            .map(|(_, o)| opponent(o, false))
            .collect::<Vec<_>>()
            .join(", "),
        opponents_title: h
            .opponents
            .iter()
            .map(|(r, o)| tr.fmt_n("adm.repair.in_round", &[r, &opponent(o, true)]))
            .collect::<Vec<_>>()
            .join("; "),
    })
}

/// A form field's row and side: `black_7` → (7, 1); other fields `None`.
fn seat_of(key: &str) -> Option<(usize, u8)> {
    let (side, row) = key.split_once('_')?;
    let side = match side {
        "red" => 0,
        "black" => 1,
        _ => return None,
    };
    Some((row.parse().ok()?, side))
}

/// Says the problems of a form of `rows` rows by board and name (`name` gives a player's
/// from their id): each row field's messages become sentences ("Board 7: Wang is already on
/// board 3") next to the field and in the list at the top; other fields' messages stay.
pub fn explain(
    errors: FieldErrors,
    form: &Fields,
    rows: usize,
    name: impl Fn(&str) -> String,
    tr: Tr,
) -> (FieldErrors, Vec<Problem>) {
    let chosen = |key: &str| form.get(key).map(|v| v.trim()).unwrap_or("").to_string();
    let mut out = FieldErrors::new();
    let mut problems = Vec::new();
    for (key, messages) in errors {
        let Some((row, side)) = seat_of(&key) else {
            out.insert(key, messages);
            continue;
        };
        // An empty Black (a bye where none may be) is about the row's Red.
        let id = match chosen(&key) {
            id if id.is_empty() && side == 1 => chosen(&format!("red_{row}")),
            id => id,
        };
        let same_row = chosen(&format!("red_{row}")) == chosen(&format!("black_{row}"));
        let worded: Vec<String> = messages
            .iter()
            .filter_map(|message| {
                if message.code() != m::CHECK_ALREADY_ANOTHER_BOARD.key {
                    return Some(worded(message, row, &name(&id), tr));
                }
                let elsewhere = (1..=rows).find(|&r| {
                    r != row
                        && [format!("red_{r}"), format!("black_{r}")]
                            .iter()
                            .any(|k| chosen(k) == id)
                });
                match elsewhere {
                    Some(other) => {
                        Some(tr.fmt_n("adm.repair.error.twice", &[&row, &name(&id), &other]))
                    }
                    // Red and Black alike: "cannot play against themselves" says it.
                    None if same_row => None,
                    None => Some(worded(message, row, &name(&id), tr)),
                }
            })
            .collect();
        problems.extend(worded.iter().map(|text| {
            (
                (row, side),
                Problem {
                    field: key.clone(),
                    text: text.clone(),
                },
            )
        }));
        out.insert(key, worded.into_iter().map(Msg::shown).collect());
    }
    problems.sort_by_key(|(at, _)| *at);
    (out, problems.into_iter().map(|(_, p)| p).collect())
}

/// A service's message about the player `name` on board `row` as a sentence of the page.
fn worded(message: &Msg, row: usize, name: &str, tr: Tr) -> String {
    match message.code() {
        code if code == m::FORM_MUST_DIFFER_FROM_RED.key => {
            tr.fmt_n("adm.repair.error.self", &[&row, &name])
        }
        code if code == m::CHECK_ONLY_ONE_BYE_LAST.key => {
            tr.fmt_n("adm.repair.error.bye", &[&row, &name])
        }
        _ if name.is_empty() => tr.fmt_n("adm.repair.error.board", &[&row, &tr.msg(message)]),
        _ => tr.fmt_n("adm.repair.error.player", &[&row, &name, &tr.msg(message)]),
    }
}
