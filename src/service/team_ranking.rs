//! Team rankings inside an individual section (issue #41): the entrants' club (单位) is their
//! team label — a club, a province or a nation, whatever the organiser entered — and the
//! teams are ranked from the members' places in the live standings by the WXF rule (sum of
//! the best members' places) or the Chinese rule (total of the best members' points), see
//! `arbiter_core::teams::individual`.

use super::{Error, Result};
use crate::i18n::messages as m;
use arbiter_core::model::Points;
use arbiter_core::teams::individual::{self, Member, TeamRule};
use serde::Serialize;
use sqlx::PgPool;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use uuid::Uuid;

/// The most members a team ranking counts.
pub const MAX_COUNTED: u32 = 10;

/// Reads a rule name: `wxf` or `chinese` (none: `wxf`).
pub fn rule_of(name: Option<&str>) -> Result<TeamRule> {
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        None | Some("wxf") => Ok(TeamRule::Wxf),
        Some("chinese") => Ok(TeamRule::Chinese),
        Some(_) => Err(Error::invalid("rule", m::TEAM_RANK_RULE.msg())),
    }
}

/// The members a rule counts by default: two (WXF), three (Chinese).
pub fn default_counted(rule: TeamRule) -> u32 {
    match rule {
        TeamRule::Wxf => 2,
        TeamRule::Chinese => 3,
    }
}

/// One member of a team in the ranking.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamMember {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: u32,
    /// Name.
    pub name: String,
    /// Place in the individual standings.
    pub place: u32,
    /// Points.
    pub points: f64,
}

/// One team of the ranking.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamRankingRow {
    /// Rank; teams equal on every criterion share it.
    pub rank: u32,
    /// The team label (the members' club).
    pub team: String,
    /// Sum of the counted members' places.
    pub places: u32,
    /// Total of the counted members' points.
    pub points: f64,
    /// The team has as many members as the rule counts (incomplete teams come last).
    pub complete: bool,
    /// The counted members, best first.
    pub counted: Vec<TeamMember>,
    /// The other members.
    pub others: Vec<TeamMember>,
}

/// A section's team ranking.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamRanking {
    /// `wxf` or `chinese`.
    pub rule: String,
    /// Members counted per team.
    pub members: u32,
    /// Rounds evaluated.
    pub round: u32,
    /// No result is missing in the rounds evaluated.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// Teams in ranking order.
    pub rows: Vec<TeamRankingRow>,
}

/// The team ranking of a section under `rule`, counting `members` per team (default: the
/// rule's, [`default_counted`]; 1–[`MAX_COUNTED`]).
pub async fn compute(
    pool: &PgPool,
    section_id: Uuid,
    rule: TeamRule,
    members: Option<u32>,
) -> Result<TeamRanking> {
    let counted = members.unwrap_or_else(|| default_counted(rule));
    if !(1..=MAX_COUNTED).contains(&counted) {
        return Err(Error::invalid(
            "members",
            m::CHECK_BETWEEN.with(&[&1, &MAX_COUNTED]),
        ));
    }
    let standings = super::standings::compute(pool, section_id).await?;
    let mut by_no = BTreeMap::new();
    let list: Vec<Member> = standings
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let member = TeamMember {
                entrant_id: row.entrant_id,
                start_no: row.start_no,
                name: row.name.clone(),
                // The standings' order is the individual ranking (ties decided by the chain,
                // then by lot or by the arbiter): a place is a position in it.
                place: i as u32 + 1,
                points: row.points,
            };
            by_no.insert(row.start_no, member);
            Member {
                start_no: row.start_no,
                place: i as u32 + 1,
                points: Points::from_tenths((row.points * 10.0).round() as i64),
                team: row.club.clone(),
            }
        })
        .collect();
    let people = |nos: &[u32]| nos.iter().filter_map(|n| by_no.get(n).cloned()).collect();
    let rows = individual::rank(&list, rule, counted as usize)
        .into_iter()
        .map(|t| TeamRankingRow {
            rank: t.rank,
            team: t.team,
            places: t.places,
            points: t.points.tenths() as f64 / 10.0,
            complete: t.complete,
            counted: people(&t.counted),
            others: people(&t.others),
        })
        .collect();
    Ok(TeamRanking {
        rule: match rule {
            TeamRule::Wxf => "wxf".into(),
            TeamRule::Chinese => "chinese".into(),
        },
        members: counted,
        round: standings.round,
        is_final: standings.is_final,
        rows,
    })
}
