//! The big screen (issue #16): what a projector in the hall shows of a section — the round in
//! play with its clock, its latest results, the standings — and the round clock the arbiter
//! starts. Public data only: published rounds, no contact data.

use super::access::{self, Change, Need};
use super::rounds::{self, RoundView};
use super::standings::{self, StandingsView};
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::i18n::messages as m;
use crate::vocab::RoundStatus;
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

/// What the screen shows of one section.
#[derive(Debug, Clone)]
pub struct SectionScreen {
    /// The section.
    pub section: super::sections::Section,
    /// The latest public round (published or completed), if any.
    pub round: Option<RoundView>,
    /// When the arbiter started its clock.
    pub started_at: Option<DateTime<Utc>>,
    /// The minutes the round was given when its clock started (none: the clock counts up).
    pub clock_minutes: Option<i32>,
    /// Board numbers of the round's results, the latest first.
    pub latest: Vec<i32>,
    /// The standings.
    pub standings: StandingsView,
    /// The next round's planned start still to come (issue #37): its number and start.
    pub next_start: Option<(i32, DateTime<Utc>)>,
    /// At the end of the event, its podium (place, name), champion first: the knockout's when
    /// the section has one and it is decided, else the final Swiss standings' top three.
    pub podium: Vec<(u32, String)>,
    /// The section's knockout bracket, when it has one (issue #40: the screen shows the
    /// bracket and the matches in play during the knockout).
    pub bracket: Option<super::knockout::BracketView>,
    /// A team section's round and standings (issue #41): the screen shows them instead of
    /// the pairings by name, the results and the standings of entrants.
    pub team: Option<TeamScreen>,
}

/// What the screen shows of a team section.
#[derive(Debug, Clone)]
pub struct TeamScreen {
    /// The matches of the round shown, with their boards.
    pub matches: Vec<super::team_matches::MatchView>,
    /// The team standings.
    pub standings: super::team_matches::TeamStandingsView,
}

/// A team section's screen: the matches of `round` and the team standings.
async fn team_screen(
    pool: &PgPool,
    section_id: Uuid,
    round: Option<&RoundView>,
) -> Result<TeamScreen> {
    use super::team_matches;
    let matches = match round {
        Some(r) => team_matches::round_matches(pool, None, section_id, r.number).await?,
        None => Vec::new(),
    };
    Ok(TeamScreen {
        matches,
        standings: team_matches::standings(pool, section_id).await?,
    })
}

/// The podium of a finished team section: the team standings' places 1 to 3.
fn team_podium(section: &super::sections::Section, team: &TeamScreen) -> Vec<(u32, String)> {
    if team.standings.rounds_completed < section.rounds || section.rounds == 0 {
        return Vec::new();
    }
    team.standings
        .rows
        .iter()
        .filter(|r| r.rank <= 3)
        .map(|r| (r.rank, r.name.clone()))
        .collect()
}

/// The podium of a decided knockout bracket: the champion, the final's loser, then the
/// third-place match's winner, or both losing semi-finalists when there is none.
fn knockout_podium(bracket: &super::knockout::BracketView) -> Vec<(u32, String)> {
    let Some(champion) = bracket.champion else {
        return Vec::new();
    };
    let name = |id: Uuid, m: &super::knockout::MatchView| {
        [&m.high, &m.low]
            .into_iter()
            .flatten()
            .find(|side| side.entrant_id == id)
            .map(|side| side.name.clone())
    };
    let loser = |m: &super::knockout::MatchView| {
        let winner = m.winner?;
        [&m.high, &m.low]
            .into_iter()
            .flatten()
            .find(|side| side.entrant_id != winner)
            .map(|side| side.name.clone())
    };
    let last = bracket
        .matches
        .iter()
        .filter(|m| !m.third_place)
        .map(|m| m.round)
        .max()
        .unwrap_or(0);
    let Some(final_match) = bracket
        .matches
        .iter()
        .find(|m| !m.third_place && m.round == last)
    else {
        return Vec::new();
    };
    let mut podium = Vec::new();
    if let Some(first) = name(champion, final_match) {
        podium.push((1, first));
    }
    if let Some(second) = loser(final_match) {
        podium.push((2, second));
    }
    match bracket.matches.iter().find(|m| m.third_place) {
        Some(third) => {
            if let Some(winner) = third.winner.and_then(|w| name(w, third)) {
                podium.push((3, winner));
            }
        }
        None => podium.extend(
            bracket
                .matches
                .iter()
                .filter(|m| !m.third_place && m.round == last - 1)
                .filter_map(loser)
                .map(|n| (3, n)),
        ),
    }
    podium
}

/// The podium of a finished Swiss section: its final standings' places 1 to 3 (ties share).
fn swiss_podium(
    section: &super::sections::Section,
    standings: &StandingsView,
) -> Vec<(u32, String)> {
    let finished =
        standings.is_final && u32::try_from(section.rounds).ok() == Some(standings.round);
    if !finished {
        return Vec::new();
    }
    standings
        .rows
        .iter()
        .filter(|r| r.rank <= 3)
        .map(|r| (r.rank, r.name.clone()))
        .collect()
}

/// Loads a section's screen.
pub async fn section(pool: &PgPool, section_id: Uuid) -> Result<SectionScreen> {
    let section = super::sections::get(pool, section_id).await?;
    let round = rounds::list_visible(pool, None, section_id)
        .await?
        .into_iter()
        .last();
    let (clock, latest) = match &round {
        Some(r) => (
            db::round::started_at(pool, section_id, r.number).await?,
            db::round::latest_results(pool, section_id, r.number, 24).await?,
        ),
        None => (None, Vec::new()),
    };
    let (started_at, clock_minutes) = match clock {
        Some((at, minutes)) => (Some(at), minutes),
        None => (None, None),
    };
    let standings = standings::compute(pool, section_id).await?;
    let now = Utc::now();
    let next_start = super::schedule::get(pool, section_id)
        .await?
        .planned
        .iter()
        .find(|p| p.starts_at > now)
        .map(|p| (p.round, p.starts_at));
    let (mut podium, bracket) = match super::knockout::get(pool, None, section_id).await {
        Ok(bracket) => (knockout_podium(&bracket), Some(bracket)),
        Err(Error::NotFound(_)) => (swiss_podium(&section, &standings), None),
        Err(err) => return Err(err),
    };
    let team = if section.entry_type == crate::vocab::EntryType::Team {
        let team = team_screen(pool, section_id, round.as_ref()).await?;
        podium = team_podium(&section, &team);
        Some(team)
    } else {
        None
    };
    Ok(SectionScreen {
        team,
        bracket,
        podium,
        next_start,
        section,
        round,
        started_at,
        clock_minutes,
        latest,
        standings,
    })
}

/// The round length last set in a section: what the desk's clock form offers next.
pub async fn last_clock_minutes(pool: &PgPool, section_id: Uuid) -> Result<Option<i32>> {
    Ok(db::round::last_clock_minutes(pool, section_id).await?)
}

/// A started round clock.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundClock {
    /// Round number.
    pub round: i32,
    /// When the clock was started (the screens count from it).
    pub started_at: DateTime<Utc>,
    /// The round's length in minutes, when set: the screens count down to its end.
    pub minutes: Option<i32>,
    /// When the set length runs out.
    pub ends_at: Option<DateTime<Utc>>,
}

/// The longest round the clock takes: a day.
pub const MAX_CLOCK_MINUTES: i32 = 1440;

/// Starts (or restarts) round `number`'s clock now, with `minutes` to play when given (the
/// screens then count down to the end). The round must be published: players are told their
/// boards before the clock runs.
pub async fn start_clock(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    number: i32,
    minutes: Option<i32>,
) -> Result<RoundClock> {
    if let Some(minutes) = minutes {
        if !(1..=MAX_CLOCK_MINUTES).contains(&minutes) {
            return Err(Error::invalid(
                "minutes",
                m::CLOCK_MINUTES_RANGE.with(&[&MAX_CLOCK_MINUTES]),
            ));
        }
    }
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let round = db::round::find(&mut *tx, section_id, number)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ROUND))?;
    if round.status == RoundStatus::Paired {
        return Err(Error::conflict(
            m::REPORT_PUBLISH_ROUND_BEFORE_STARTING.msg(),
        ));
    }
    let started_at = db::round::start_clock(&mut *tx, round.round_id, minutes).await?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "start_clock",
            entity: "round",
            entity_id: Some(round.round_id),
            before: None,
            after: Some(json!({"round": number, "started_at": started_at, "minutes": minutes})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(RoundClock {
        round: number,
        started_at,
        minutes,
        ends_at: minutes.map(|m| started_at + chrono::Duration::minutes(i64::from(m))),
    })
}
