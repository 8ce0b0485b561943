//! The round schedule (issue #37): each round's planned start, a section setting entered in
//! the event's time zone (`GET`/`PUT /api/v1/sections/{id}/schedule`, the desk's schedule
//! page) and shown on the public pages, the players' pages, the prints, the big screen and the
//! calendars. A change of a start counts up the round's `sequence` (the calendars' SEQUENCE).

use super::access::{self, Change, Need};
use super::check::Check;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::i18n::messages as m;
use chrono::{DateTime, NaiveDateTime, TimeZone as _, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgPool;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use uuid::Uuid;

/// How a local time is written (`datetime-local`).
pub const LOCAL_FORMAT: &str = "%Y-%m-%dT%H:%M";

/// One round's planned start.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct PlannedRound {
    /// Round number.
    pub round: i32,
    /// The start (UTC).
    pub starts_at: DateTime<Utc>,
    /// The start in the event's time zone (`2026-12-08T09:30`).
    pub local: String,
    /// How many times this start changed (the calendars' SEQUENCE).
    pub sequence: i32,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

/// A section's schedule.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScheduleView {
    /// The event's IANA time zone, the zone of `local`.
    pub time_zone: String,
    /// The section's number of rounds.
    pub rounds: i32,
    /// The planned rounds in round order (rounds without a start are left out).
    pub planned: Vec<PlannedRound>,
}

impl ScheduleView {
    /// Round `number`'s planned start, if any.
    pub fn of(&self, number: i32) -> Option<&PlannedRound> {
        self.planned.iter().find(|p| p.round == number)
    }

    /// Round `number`'s start as shown (`2026-12-08 09:30`, event time), if planned.
    pub fn shown(&self, number: i32) -> Option<String> {
        self.of(number).map(|p| p.local.replacen('T', " ", 1))
    }

    /// The zone.
    pub fn zone(&self) -> chrono_tz::Tz {
        self.time_zone.parse().unwrap_or(chrono_tz::UTC)
    }
}

/// One round of a `PUT`: `starts_at` (RFC 3339 with its offset) or `local` (in the event's
/// time zone); neither, or null, removes the round's start.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlannedInput {
    /// Round number.
    pub round: i32,
    /// The start with its offset (`2026-12-08T09:30:00+08:00`).
    #[serde(default)]
    pub starts_at: Option<String>,
    /// The start in the event's time zone (`2026-12-08T09:30`).
    #[serde(default)]
    pub local: Option<String>,
}

/// A whole schedule: the rounds listed get these starts, the rounds not listed lose theirs.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScheduleInput {
    /// The planned rounds.
    pub rounds: Vec<PlannedInput>,
}

/// Reads a start: RFC 3339, or a local time in `zone` (a skipped local time is refused, a
/// repeated one taken at its first occurrence).
pub fn parse_start(text: &str, zone: chrono_tz::Tz) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Some(t.with_timezone(&Utc));
    }
    NaiveDateTime::parse_from_str(text, LOCAL_FORMAT)
        .or_else(|_| NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S"))
        .or_else(|_| NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M"))
        .ok()
        .and_then(|t| zone.from_local_datetime(&t).earliest())
        .map(|t| t.with_timezone(&Utc))
}

fn view(zone: chrono_tz::Tz, rounds: i32, rows: Vec<db::schedule::Planned>) -> ScheduleView {
    ScheduleView {
        time_zone: zone.name().to_string(),
        rounds,
        planned: rows
            .into_iter()
            .filter_map(|r| {
                let at = r.starts_at?;
                Some(PlannedRound {
                    round: r.number,
                    starts_at: at,
                    local: at.with_timezone(&zone).format(LOCAL_FORMAT).to_string(),
                    sequence: r.sequence,
                    updated_at: r.updated_at,
                })
            })
            .collect(),
    }
}

/// A section's schedule (public: the pages show it).
pub async fn get(pool: &PgPool, section_id: Uuid) -> Result<ScheduleView> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let zone = super::tournaments::zone_of_section(pool, section_id).await?;
    let rows = db::schedule::list(&mut *conn, section_id).await?;
    Ok(view(zone, section.rounds, rows))
}

/// Sets a section's schedule (the tournament's arbiters; audited): the listed rounds get their
/// starts, the others lose theirs. Returns the schedule and the rounds whose start changed.
pub async fn set(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    input: &ScheduleInput,
) -> Result<(ScheduleView, Vec<i32>)> {
    let zone = super::tournaments::zone_of_section(pool, section_id).await?;
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let mut check = Check::new();
    let mut wanted: BTreeMap<i32, Option<DateTime<Utc>>> = BTreeMap::new();
    for (i, r) in input.rounds.iter().enumerate() {
        let field = format!("rounds[{i}]");
        if r.round < 1 || r.round > section.rounds {
            check.error(
                &format!("{field}.round"),
                m::CHECK_SCHEDULE_ROUND.with(&[&r.round, &section.rounds]),
            );
            continue;
        }
        let text = r
            .starts_at
            .as_deref()
            .or(r.local.as_deref())
            .filter(|t| !t.trim().is_empty());
        let at = match text {
            None => None,
            Some(t) => match parse_start(t, zone) {
                Some(at) => Some(at),
                None => {
                    let name = if r.starts_at.is_some() {
                        "starts_at"
                    } else {
                        "local"
                    };
                    check.error(&format!("{field}.{name}"), m::CHECK_SCHEDULE_TIME.msg());
                    continue;
                }
            },
        };
        if wanted.insert(r.round, at).is_some() {
            check.error(
                &format!("{field}.round"),
                m::CHECK_SCHEDULE_TWICE.with(&[&r.round]),
            );
        }
    }
    // A later round starts later.
    let mut last: Option<(i32, DateTime<Utc>)> = None;
    for (&round, at) in &wanted {
        let Some(at) = at else { continue };
        if let Some((before, before_at)) = last {
            if *at <= before_at {
                let i = input
                    .rounds
                    .iter()
                    .position(|r| r.round == round)
                    .unwrap_or_default();
                check.error(
                    &format!("rounds[{i}].round"),
                    m::CHECK_SCHEDULE_ORDER.with(&[&round, &before]),
                );
            }
        }
        last = Some((round, *at));
    }
    check.finish()?;
    let before = db::schedule::list(&mut *tx, section_id).await?;
    let mut changed = Vec::new();
    for row in &before {
        if row.starts_at.is_some() && !wanted.contains_key(&row.number) {
            wanted.insert(row.number, None);
        }
    }
    for (&round, &at) in &wanted {
        let known = before.iter().any(|b| b.number == round);
        if (known || at.is_some()) && db::schedule::put(&mut *tx, section_id, round, at).await? {
            changed.push(round);
        }
    }
    let after = db::schedule::list(&mut *tx, section_id).await?;
    let shown = |rows: &[db::schedule::Planned]| {
        rows.iter()
            .filter_map(|r| Some(json!({"round": r.number, "starts_at": r.starts_at?})))
            .collect::<Vec<_>>()
    };
    if !changed.is_empty() {
        access::audit(
            &mut tx,
            section.tournament_id,
            Some(actor),
            Change {
                action: "schedule",
                entity: "section",
                entity_id: Some(section_id),
                before: Some(json!({"rounds": shown(&before)})),
                after: Some(json!({"rounds": shown(&after), "changed": changed})),
            },
        )
        .await?;
    }
    tx.commit().await?;
    Ok((view(zone, section.rounds, after), changed))
}
