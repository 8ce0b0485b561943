//! What the knockout's pages share (issue #40): a round's title, its rules in words (captured
//! pieces, time control, tiebreak games) and the game a match plays next.

use crate::i18n::Tr;
use crate::service::knockout::{BracketView, MatchView};
use crate::service::knockout_stages::{StageRules, TiebreakLine};
use crate::vocab::CaptureRule;

/// The heading of knockout round `round` of `rounds`: final, semi-finals, quarter-finals, or
/// "round of N".
pub fn round_title(tr: Tr, round: i32, rounds: i32) -> String {
    match rounds - round {
        0 => tr.t("bracket.final").to_string(),
        1 => tr.t("bracket.semi").to_string(),
        2 => tr.t("bracket.quarter").to_string(),
        left => tr.fmt("bracket.round_of", 1u64 << (left + 1).clamp(0, 20)),
    }
}

/// A knockout round's rules in words.
#[derive(Debug, Clone)]
pub struct StageLine {
    /// Knockout round.
    pub round: i32,
    /// Its heading.
    pub title: String,
    /// Captured hidden pieces (`capture_rule`) in words.
    pub capture: String,
    /// Captured pieces stay face down for both sides.
    pub face_down: bool,
    /// Time control of the regular games (empty: not set).
    pub time_control: String,
    /// The tiebreak games in words, then the lot.
    pub tiebreaks: String,
}

/// The tiebreak chain in words (`up to 1 rapid game (10+5) → armageddon (…) → lot`).
pub fn tiebreak_words(tr: Tr, lines: &[TiebreakLine]) -> String {
    let mut words: Vec<String> = lines
        .iter()
        .map(|l| {
            if l.kind == "armageddon" {
                tr.fmt("ko.tiebreak.armageddon", &l.time_control)
            } else {
                tr.fmt2("ko.tiebreak.rapid", l.games, &l.time_control)
            }
        })
        .collect();
    if lines.last().is_none_or(|l| l.kind != "armageddon") {
        words.push(tr.t("ko.tiebreak.lot").to_string());
    }
    words.join(" → ")
}

/// One round's rules in words.
pub fn stage_line(tr: Tr, rules: &StageRules, rounds: i32) -> StageLine {
    StageLine {
        round: rules.round,
        title: round_title(tr, rules.round, rounds),
        capture: tr
            .t(&format!("ko.capture.{}", rules.capture_rule))
            .to_string(),
        face_down: rules.capture_rule == CaptureRule::FaceDown,
        time_control: rules.time_control.clone(),
        tiebreaks: tiebreak_words(tr, &rules.tiebreaks),
    }
}

/// Every round's rules in words.
pub fn stage_lines(tr: Tr, view: &BracketView) -> Vec<StageLine> {
    let rounds = view.stages.len() as i32;
    view.stages
        .iter()
        .map(|s| stage_line(tr, s, rounds))
        .collect()
}

/// The game a match plays next, in words (`game 2`, `game 4 · rapid tiebreak game`), and
/// its set-up's commitment when drawn.
pub fn next_game(tr: Tr, m: &MatchView) -> Option<(String, Option<String>)> {
    let next = m.next_game.as_ref()?;
    let number = m.games.len() + 1;
    let label = if next.kind == crate::vocab::GameKind::Regular {
        tr.fmt("rec.game_n", number)
    } else {
        format!(
            "{} · {}",
            tr.fmt("rec.game_n", number),
            tr.t(&format!("ko.kind.{}", next.kind))
        )
    };
    Some((label, next.setup.as_ref().map(|s| s.commitment.clone())))
}
