//! What pages of several features share: number formats, the section heading and tabs, the
//! tournament list item, QR codes, the set-up diagram, the account form helpers.

pub mod account;
pub mod board;
pub mod confirm;
pub mod knockout;
pub mod setup;
pub mod standings;
pub mod tiebreaks;

use crate::http::error::PageError;
use crate::http::page::PageCtx;
use crate::http::AppState;
use crate::service;
use crate::service::rounds::RoundView;
use crate::service::sections::Section;
use crate::service::tournaments::Tournament;
use crate::service::tournaments::TournamentSummary;
use crate::vocab::SetupMode;
use arbiter_core::model::ResultCode;
use serde_json::Value;
use uuid::Uuid;

/// Shows points and tiebreak numbers without trailing zeros (2, 1.5, 12.25).
pub fn format_number(value: f64) -> String {
    // Points and most tiebreaks are whole hundredths: written from an integer, which is many
    // times cheaper than float formatting (a standings page writes thousands, issue #38).
    let hundredths = (value * 100.0).round();
    if (value * 100.0 - hundredths).abs() < 1e-6 && hundredths.abs() < 1e15 {
        let h = hundredths as i64;
        let sign = if h < 0 { "-" } else { "" };
        let (whole, frac) = (h.unsigned_abs() / 100, h.unsigned_abs() % 100);
        return match frac {
            0 => format!("{sign}{whole}"),
            f if f % 10 == 0 => format!("{sign}{whole}.{}", f / 10),
            f => format!("{sign}{whole}.{f:02}"),
        };
    }
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A tiebreak value as text: a number, or a sequence (PREV, CUT_EARLY) separated by spaces.
pub fn format_value(value: Option<&Value>) -> String {
    match value {
        Some(Value::Number(n)) => n.as_f64().map(format_number).unwrap_or_default(),
        Some(Value::Array(list)) => list
            .iter()
            .map(|v| format_value(Some(v)))
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

pub fn date_range(t: &Tournament) -> String {
    match (t.starts_on, t.ends_on) {
        (Some(a), Some(b)) if a != b => format!("{a} – {b}"),
        (Some(a), _) => a.to_string(),
        (None, Some(b)) => b.to_string(),
        (None, None) => String::new(),
    }
}

// ---------------------------------------------------------------- section pages

/// The heading and tabs shared by the section pages.
pub struct SectionNav {
    /// Tournament id.
    pub tournament_id: String,
    /// Tournament name.
    pub tournament_name: String,
    /// Section id.
    pub section_id: String,
    /// Section name.
    pub section_name: String,
    /// Rounds paired so far.
    pub rounds: Vec<i32>,
    /// The page shown: `now`, `entrants`, `pairings`, `standings`, `crosstable`, `bracket`,
    /// `player`, `find`.
    pub tab: &'static str,
    /// The round shown (pairings), else 0.
    pub round: i32,
    /// Rounds planned.
    pub planned_rounds: i32,
    /// The section has a prize table (the prize list is linked).
    pub prizes: bool,
    /// The section's rounds have hidden-piece set-ups (Jieqi, Banqi), linked from each round.
    pub setups: bool,
    /// What the find-me box shows typed in (the query of the find page), else empty.
    pub query: String,
    /// A team section (issue #41): rounds are matches, the board rankings are linked.
    pub team: bool,
}

impl SectionNav {
    /// Whether round `n` is the one shown.
    pub fn is_round(&self, n: &i32) -> bool {
        self.tab == "pairings" && self.round == *n
    }
}

/// Loads the tournament and section of a section page (and whether it has prizes) and fixes
/// the page language to the event's default unless the visitor chose one.
pub async fn load_section(
    state: &AppState,
    ctx: PageCtx,
    section_id: Uuid,
) -> Result<(PageCtx, Tournament, Section, bool), PageError> {
    let lang = ctx.lang;
    let section = service::sections::get(&state.db, section_id)
        .await
        .map_err(|err| PageError::from_service(err, lang))?;
    let tournament = service::tournaments::get(&state.db, section.tournament_id)
        .await
        .map_err(|err| PageError::from_service(err, lang))?;
    let prizes = service::prizes::get(&state.db, section_id)
        .await
        .map_err(|err| PageError::from_service(err, lang))?;
    let ctx = ctx.with_default_tag(&tournament.default_language);
    Ok((ctx, tournament, section, !prizes.prizes.is_empty()))
}

pub fn nav(
    t: &Tournament,
    s: &Section,
    rounds: &[RoundView],
    tab: &'static str,
    round: i32,
    prizes: bool,
) -> SectionNav {
    nav_of(
        t,
        s,
        rounds.iter().map(|r| r.number).collect(),
        tab,
        round,
        prizes,
    )
}

/// [`nav`] from the round numbers alone ([`crate::service::rounds::visible_numbers`]: no
/// round's boards loaded for the tabs).
pub fn nav_of(
    t: &Tournament,
    s: &Section,
    rounds: Vec<i32>,
    tab: &'static str,
    round: i32,
    prizes: bool,
) -> SectionNav {
    SectionNav {
        tournament_id: t.id.to_string(),
        tournament_name: t.name.clone(),
        section_id: s.id.to_string(),
        section_name: s.name.clone(),
        rounds,
        tab,
        round,
        planned_rounds: s.rounds,
        prizes,
        setups: s.setup_mode != SetupMode::None
            && crate::service::setups::variant(t.game).is_some(),
        query: String::new(),
        team: s.entry_type == crate::vocab::EntryType::Team,
    }
}

/// Screen or print view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Screen,
    Print,
}

/// A QR code of `text` as inline SVG.
pub fn qr_svg(text: &str) -> String {
    match qrcode::QrCode::new(text.as_bytes()) {
        Ok(code) => code
            .render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(120, 120)
            .build()
            // Inline SVG in HTML takes no XML declaration.
            .split_once("<svg")
            .map(|(_, rest)| format!("<svg{rest}"))
            .unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// One row of the list.
pub struct TournamentItem {
    /// Id, for the link.
    pub id: String,
    /// Name.
    pub name: String,
    /// Catalogue key of the game name.
    pub game_key: String,
    /// Catalogue key of the status.
    pub status_key: String,
    /// First day (ISO), or empty.
    pub date: String,
    /// Venue, or empty.
    pub venue: String,
}

impl From<TournamentSummary> for TournamentItem {
    fn from(t: TournamentSummary) -> TournamentItem {
        TournamentItem {
            id: t.tournament_id.to_string(),
            name: t.name,
            game_key: format!("game.{}", t.game),
            status_key: format!("status.{}", t.status),
            date: t.starts_on.map(|d| d.to_string()).unwrap_or_default(),
            venue: t.venue.unwrap_or_default(),
        }
    }
}

/// Game points as the match notation writes them: `1½`, `½`, `0`, `2`.
pub fn game_points(points: f64) -> String {
    let halves = (points * 2.0).round() as i64;
    match (halves / 2, halves % 2) {
        (0, 1) => "½".to_string(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

/// A knockout match's score in the one notation of the bracket, its print, the playoff page
/// and the desk (issue #39, item 3): game points (1/½/0) of the regular games, those of the
/// tiebreak games apart, and what decided the match.
pub struct MatchScoreText {
    /// The regular games, higher seed first: `1½–½`.
    pub regular: String,
    /// The tiebreak games (`tiebreak 1–0`), empty when none was played.
    pub tiebreak: String,
    /// What decided the match (`decided by rapid games`), empty until decided.
    pub decided: String,
}

impl MatchScoreText {
    /// The score of `m`.
    pub fn of(tr: crate::i18n::Tr, m: &service::knockout::MatchView) -> MatchScoreText {
        let s = &m.score;
        MatchScoreText {
            regular: format!(
                "{}–{}",
                game_points(s.regular_high),
                game_points(s.regular_low)
            ),
            tiebreak: if s.tiebreak_games > 0 {
                tr.fmt_n(
                    "ko.score.tiebreak",
                    &[&game_points(s.tiebreak_high), &game_points(s.tiebreak_low)],
                )
            } else {
                String::new()
            },
            decided: m
                .decided_by
                .map(|d| tr.t(&format!("bracket.decided_by.{d}")).to_string())
                .unwrap_or_default(),
        }
    }

    /// The whole score on one line: `1–1 · tiebreak 1–0`.
    pub fn line(&self) -> String {
        if self.tiebreak.is_empty() {
            self.regular.clone()
        } else {
            format!("{} · {}", self.regular, self.tiebreak)
        }
    }
}

/// The symbol of a result code as printed in crosstables.
pub fn outcome_symbol(code: ResultCode) -> &'static str {
    match code {
        ResultCode::Win | ResultCode::UnratedWin => "1",
        ResultCode::Draw | ResultCode::UnratedDraw => "½",
        ResultCode::Loss | ResultCode::UnratedLoss => "0",
        ResultCode::ForfeitWin => "+",
        ResultCode::ForfeitLoss => "−",
        _ => "",
    }
}

/// The points an outcome gave in the section's scoring, written as the totals are (one
/// notation on the page); forfeits keep their marks, explained by the legend.
pub fn outcome_points(code: ResultCode, scoring: &crate::service::sections::ScoringView) -> String {
    let points = |p: f64| {
        if p == 0.5 {
            "½".to_string()
        } else {
            format_number(p)
        }
    };
    match code {
        ResultCode::Win | ResultCode::UnratedWin => points(scoring.win),
        ResultCode::Draw | ResultCode::UnratedDraw => points(scoring.draw),
        ResultCode::Loss | ResultCode::UnratedLoss => points(scoring.loss),
        _ => outcome_symbol(code).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_show_without_trailing_zeros() {
        assert_eq!(format_number(2.0), "2");
        assert_eq!(format_number(1.5), "1.5");
        assert_eq!(format_number(12.25), "12.25");
        assert_eq!(format_number(0.0), "0");
        assert_eq!(format_value(Some(&serde_json::json!([1.0, 2.5]))), "1 2.5");
    }

    /// The integer shortcut writes what float formatting to two places wrote.
    #[test]
    fn the_fast_path_writes_what_float_formatting_wrote() {
        let slow = |v: f64| {
            let text = format!("{v:.2}");
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        for tenths in -2000..20000 {
            let v = f64::from(tenths) / 10.0;
            assert_eq!(format_number(v), slow(v), "{v}");
        }
        for hundredths in -500..50000 {
            let v = f64::from(hundredths) / 100.0;
            assert_eq!(format_number(v), slow(v), "{v}");
        }
        for v in [1523.456, 0.333_333, 2.0 / 3.0, 1e20, -7.125, 99.995] {
            assert_eq!(format_number(v), slow(v), "{v}");
        }
    }
}
