//! The standings table (`templates/partials/standings_table.html`) as the public pages and the
//! desk's standings tab show it.

use super::tiebreaks::{heads, TiebreakHead};
use super::{format_number, format_value};
use crate::i18n::Tr;
use crate::service;
use crate::vocab::{EntrantStatus, TieMethod};
use uuid::Uuid;

/// One line of the standings.
pub struct StandingLine {
    /// Rank (shared ranks repeat).
    pub rank: u32,
    /// Starting number.
    pub start_no: u32,
    /// Name.
    pub name: String,
    /// Club.
    pub club: String,
    /// Points.
    pub points: String,
    /// Tiebreak values in chain order.
    pub tiebreaks: Vec<String>,
    /// Withdrawn.
    pub withdrawn: bool,
    /// `lot` or `manual` when the arbiter ordered a tie the chain left.
    pub tie_decided_by: Option<TieMethod>,
}

/// What the standings page shows.
pub struct StandingsData {
    /// The section (its players' pages are linked).
    pub section_id: Uuid,
    /// Rounds evaluated.
    pub round: u32,
    /// No result missing.
    pub is_final: bool,
    /// Tiebreak column heads, in chain order.
    pub tiebreaks: Vec<TiebreakHead>,
    /// Lines in ranking order.
    pub lines: Vec<StandingLine>,
}

/// The standings of section `section_id` as the table shows them.
pub fn standings_data(
    tr: Tr,
    section_id: Uuid,
    view: service::standings::StandingsView,
) -> StandingsData {
    let keys = view.tiebreaks.clone();
    StandingsData {
        section_id,
        round: view.round,
        is_final: view.is_final,
        lines: view
            .rows
            .into_iter()
            .map(|row| StandingLine {
                tie_decided_by: row.tie_decided_by,
                rank: row.rank,
                start_no: row.start_no,
                club: row.club.unwrap_or_default(),
                points: format_number(row.points),
                tiebreaks: keys
                    .iter()
                    .map(|k| format_value(row.tiebreaks.get(k)))
                    .collect(),
                withdrawn: row.status == EntrantStatus::Withdrawn,
                name: row.name,
            })
            .collect(),
        tiebreaks: heads(tr, &keys),
    }
}
