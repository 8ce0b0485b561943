//! Tournaments (events): create, read, edit.

use super::access::{self, Change, Need};
use super::check::Check;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::tournament::{TournamentFields, TournamentRow};
use crate::i18n::messages as m;
use crate::vocab::{Game, StaffRole, TournamentStatus};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use utoipa::ToSchema;

/// One tournament of the public list (a row of `db::tournament`).
pub use crate::db::tournament::TournamentSummary;
use uuid::Uuid;

/// Every tournament for the dashboard, newest first.
pub async fn list_summaries(pool: &PgPool) -> Result<Vec<db::tournament::TournamentSummary>> {
    Ok(db::tournament::list_summaries(pool, true).await?)
}

/// The tournaments the home page lists, newest first: drafts too (clubs announce an event
/// before it opens), but not an imported copy until its arbiter lists it (issue #39 item 9).
pub async fn public_summaries(pool: &PgPool) -> Result<Vec<db::tournament::TournamentSummary>> {
    Ok(db::tournament::list_summaries(pool, false).await?)
}

/// A tournament as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Tournament {
    /// Id.
    pub id: Uuid,
    /// Name.
    pub name: String,
    /// `xiangqi`, `jieqi` or `banqi`.
    pub game: Game,
    /// Time control as text (e.g. `10′+3″`).
    pub time_control: Option<String>,
    /// TRF-26 time-control code (e.g. `600+3`).
    pub time_control_code: Option<String>,
    /// Venue.
    pub venue: Option<String>,
    /// First day.
    pub starts_on: Option<NaiveDate>,
    /// Last day.
    pub ends_on: Option<NaiveDate>,
    /// Organiser.
    pub organiser: Option<String>,
    /// Default UI language: `zh-Hant`, `zh-Hans` or `en`.
    pub default_language: String,
    /// Waiver text players accept when registering.
    pub waiver_text: Option<String>,
    /// `draft`, `registration`, `running`, `finished` or `cancelled`. It follows the event:
    /// opening registration moves a draft to `registration`, the first pairing to `running`,
    /// the last round of the last section to `finished` (a correction that reopens it back to
    /// `running`); the arbiter may set any status.
    pub status: TournamentStatus,
    /// IANA time zone (e.g. `Asia/Hong_Kong`) the event's times are entered and shown in;
    /// the API's times are UTC.
    pub time_zone: String,
    /// Whether the home page lists the event: from the start, except a copy imported from an
    /// event file (listed when its arbiter says so). Its pages are reachable either way.
    pub listed: bool,
}

impl Tournament {
    /// The event's time zone (UTC when the stored name is unknown to this build).
    pub fn zone(&self) -> chrono_tz::Tz {
        self.time_zone.parse().unwrap_or(chrono_tz::UTC)
    }
}

impl From<TournamentRow> for Tournament {
    fn from(r: TournamentRow) -> Tournament {
        Tournament {
            id: r.tournament_id,
            name: r.name,
            game: r.game,
            time_control: r.time_control,
            time_control_code: r.time_control_code,
            venue: r.venue,
            starts_on: r.starts_on,
            ends_on: r.ends_on,
            organiser: r.organiser,
            default_language: r.default_language,
            waiver_text: r.waiver_text,
            status: r.status,
            time_zone: r.time_zone,
            listed: r.listed,
        }
    }
}

/// Fields to create a tournament, or to change (absent fields stay as they are).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentInput {
    /// Name (required on create).
    pub name: Option<String>,
    /// `xiangqi`, `jieqi` or `banqi` (required on create).
    pub game: Option<String>,
    /// Time control as text.
    pub time_control: Option<String>,
    /// TRF-26 time-control code such as `600+3`.
    pub time_control_code: Option<String>,
    /// Venue.
    pub venue: Option<String>,
    /// First day (YYYY-MM-DD).
    pub starts_on: Option<NaiveDate>,
    /// Last day (YYYY-MM-DD).
    pub ends_on: Option<NaiveDate>,
    /// Organiser.
    pub organiser: Option<String>,
    /// `zh-Hant`, `zh-Hans` or `en`.
    pub default_language: Option<String>,
    /// Waiver text.
    pub waiver_text: Option<String>,
    /// `draft`, `registration`, `running`, `finished` or `cancelled`.
    pub status: Option<String>,
    /// IANA time zone such as `Asia/Hong_Kong` or `America/Toronto` (`UTC` when not given).
    pub time_zone: Option<String>,
    /// Whether the home page lists the event (`true` when not given on create).
    pub listed: Option<bool>,
}

const LANGUAGES: &[&str] = &["zh-Hant", "zh-Hans", "en"];

fn merge(
    base: TournamentFields,
    input: &TournamentInput,
    creating: bool,
) -> Result<TournamentFields> {
    let mut check = Check::new();
    let name = match (&input.name, creating) {
        (Some(name), _) => check.required_text("name", name, 200),
        (None, true) => {
            check.error("name", m::CHECK_REQUIRED.msg());
            String::new()
        }
        (None, false) => base.name,
    };
    let game = match (&input.game, creating) {
        (Some(game), _) => check.word("game", game, Game::ALL, base.game),
        (None, true) => {
            check.error("game", m::CHECK_REQUIRED_XIANGQI_JIEQI_BANQI.msg());
            base.game
        }
        (None, false) => base.game,
    };
    let keep = |value: &Option<String>,
                old: Option<String>,
                check: &mut Check,
                field: &str,
                max: usize| match value {
        Some(v) => check.optional_text(field, Some(v), max),
        None => old,
    };
    let time_control = keep(
        &input.time_control,
        base.time_control,
        &mut check,
        "time_control",
        100,
    );
    let time_control_code = keep(
        &input.time_control_code,
        base.time_control_code,
        &mut check,
        "time_control_code",
        60,
    );
    if let Some(code) = &time_control_code {
        if !code
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '+' | '/' | ':' | '-' | 'W' | 'B'))
        {
            check.error("time_control_code", m::CHECK_MUST_TRF_26_CODE.msg());
        }
    }
    let venue = keep(&input.venue, base.venue, &mut check, "venue", 200);
    let organiser = keep(
        &input.organiser,
        base.organiser,
        &mut check,
        "organiser",
        200,
    );
    // The waiver is a multi-line text (paragraphs of rules).
    let waiver_text = match &input.waiver_text {
        Some(v) => check.optional_note("waiver_text", Some(v), 10_000),
        None => base.waiver_text,
    };
    let default_language = match &input.default_language {
        Some(lang) => check.one_of("default_language", lang, LANGUAGES),
        None => base.default_language,
    };
    let status = match &input.status {
        Some(status) => check.word("status", status, TournamentStatus::ALL, base.status),
        None => base.status,
    };
    let time_zone = match &input.time_zone {
        Some(zone) => match zone.trim().parse::<chrono_tz::Tz>() {
            Ok(tz) => tz.name().to_string(),
            Err(_) => {
                check.error("time_zone", m::CHECK_MUST_IANA_TIME_ZONE.msg());
                base.time_zone
            }
        },
        None => base.time_zone,
    };
    let starts_on = input.starts_on.or(base.starts_on);
    let ends_on = input.ends_on.or(base.ends_on);
    if let (Some(start), Some(end)) = (starts_on, ends_on) {
        if end < start {
            check.error("ends_on", m::CHECK_MUST_NOT_BEFORE_STARTS.msg());
        }
    }
    check.finish()?;
    Ok(TournamentFields {
        name,
        game,
        time_control,
        time_control_code,
        venue,
        starts_on,
        ends_on,
        organiser,
        default_language,
        waiver_text,
        status,
        time_zone,
        listed: input.listed.unwrap_or(base.listed),
    })
}

/// Creates a tournament; whoever creates one is its chief arbiter.
pub async fn create(pool: &PgPool, actor: &Actor, input: &TournamentInput) -> Result<Tournament> {
    let base = TournamentFields {
        name: String::new(),
        // A placeholder: creating requires the game (`merge`).
        game: Game::Xiangqi,
        time_control: None,
        time_control_code: None,
        venue: None,
        starts_on: None,
        ends_on: None,
        organiser: None,
        default_language: "zh-Hant".into(),
        waiver_text: None,
        status: TournamentStatus::Draft,
        time_zone: "UTC".into(),
        listed: true,
    };
    let fields = merge(base, input, true)?;
    let mut tx = pool.begin().await?;
    let row = db::tournament::insert(&mut *tx, &fields).await?;
    db::access::assign(
        &mut *tx,
        row.tournament_id,
        actor.user_id,
        StaffRole::ChiefArbiter,
    )
    .await?;
    let tournament = Tournament::from(row);
    access::audit(
        &mut tx,
        tournament.id,
        Some(actor),
        Change {
            action: "create",
            entity: "tournament",
            entity_id: Some(tournament.id),
            before: None,
            after: serde_json::to_value(&tournament).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(tournament)
}

/// One tournament.
pub async fn get(pool: &PgPool, id: Uuid) -> Result<Tournament> {
    db::tournament::find(pool, id)
        .await?
        .map(Tournament::from)
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))
}

/// Every tournament, newest first.
pub async fn list(pool: &PgPool) -> Result<Vec<Tournament>> {
    Ok(db::tournament::list(pool)
        .await?
        .into_iter()
        .map(Tournament::from)
        .collect())
}

/// Changes a tournament's fields.
pub async fn update(
    pool: &PgPool,
    actor: &Actor,
    id: Uuid,
    input: &TournamentInput,
) -> Result<Tournament> {
    let mut tx = pool.begin().await?;
    let before = db::tournament::find(&mut *tx, id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    access::require(&mut tx, actor, id, Need::Arbiter).await?;
    let base = TournamentFields {
        name: before.name.clone(),
        game: before.game,
        time_control: before.time_control.clone(),
        time_control_code: before.time_control_code.clone(),
        venue: before.venue.clone(),
        starts_on: before.starts_on,
        ends_on: before.ends_on,
        organiser: before.organiser.clone(),
        default_language: before.default_language.clone(),
        waiver_text: before.waiver_text.clone(),
        status: before.status,
        time_zone: before.time_zone.clone(),
        listed: before.listed,
    };
    let fields = merge(base, input, false)?;
    let after = Tournament::from(db::tournament::update(&mut *tx, id, &fields).await?);
    access::audit(
        &mut tx,
        id,
        Some(actor),
        Change {
            action: "update",
            entity: "tournament",
            entity_id: Some(id),
            before: serde_json::to_value(Tournament::from(before)).ok(),
            after: serde_json::to_value(&after).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(after)
}

/// The time zone of a section's event (one query: the settings page reads it on every load).
pub async fn zone_of_section(pool: &PgPool, section_id: Uuid) -> Result<chrono_tz::Tz> {
    let zone = db::tournament::time_zone_of_section(pool, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    Ok(zone.parse().unwrap_or(chrono_tz::UTC))
}

/// Why a status moved by itself, for the audit log.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Progress {
    /// A section's first round was paired.
    Paired,
    /// A section's last round was completed, or reopened by a correction.
    Settled,
}

/// Moves the event's and the section's statuses with the event (issue #15): the first pairing
/// makes both `running`; a section whose last round is completed is `finished`, and the event
/// once every section is finished or cancelled; a correction that reopens a last round moves
/// them back to `running`. A cancelled section or event stays as the arbiter set it. Runs in
/// the caller's transaction; every move is audited.
pub(crate) async fn follow_progress(
    conn: &mut sqlx::PgConnection,
    actor: Option<&Actor>,
    section_id: Uuid,
    why: Progress,
) -> Result<()> {
    use crate::vocab::{RoundStatus, SectionStatus};
    let Some(section) = db::section::find(&mut *conn, section_id).await? else {
        return Ok(());
    };
    let rounds = db::round::list(&mut *conn, section_id).await?;
    let played_out = rounds.len() >= usize::try_from(section.rounds).unwrap_or(usize::MAX)
        && rounds
            .last()
            .is_some_and(|r| r.status == RoundStatus::Completed);
    let section_due = match section.status {
        SectionStatus::Cancelled => SectionStatus::Cancelled,
        _ if played_out => SectionStatus::Finished,
        _ if rounds.is_empty() => SectionStatus::Open,
        _ => SectionStatus::Running,
    };
    let tournament_id = section.tournament_id;
    let reason = match why {
        Progress::Paired => "paired",
        Progress::Settled => "settled",
    };
    if section_due != section.status {
        db::section::set_status(&mut *conn, section_id, section_due).await?;
        access::audit(
            &mut *conn,
            tournament_id,
            actor,
            Change {
                action: "status",
                entity: "section",
                entity_id: Some(section_id),
                before: Some(serde_json::json!({"status": section.status})),
                after: Some(serde_json::json!({"status": section_due, "why": reason})),
            },
        )
        .await?;
    }
    let statuses = db::section::statuses(&mut *conn, tournament_id).await?;
    let all_finished = statuses
        .iter()
        .all(|s| matches!(s, SectionStatus::Finished | SectionStatus::Cancelled))
        && statuses.contains(&SectionStatus::Finished);
    let moved = if all_finished {
        db::tournament::move_status(
            &mut *conn,
            tournament_id,
            &[TournamentStatus::Running],
            TournamentStatus::Finished,
        )
        .await?
    } else if section_due == SectionStatus::Running {
        db::tournament::move_status(
            &mut *conn,
            tournament_id,
            &[
                TournamentStatus::Draft,
                TournamentStatus::Registration,
                TournamentStatus::Finished,
            ],
            TournamentStatus::Running,
        )
        .await?
    } else if section_due == SectionStatus::Open {
        // A section unpaired back to nothing: the event is not over.
        db::tournament::move_status(
            &mut *conn,
            tournament_id,
            &[TournamentStatus::Finished],
            TournamentStatus::Running,
        )
        .await?
    } else {
        None
    };
    if let Some(before) = moved {
        let after = if all_finished {
            TournamentStatus::Finished
        } else {
            TournamentStatus::Running
        };
        access::audit(
            &mut *conn,
            tournament_id,
            actor,
            Change {
                action: "status",
                entity: "tournament",
                entity_id: Some(tournament_id),
                before: Some(serde_json::json!({"status": before})),
                after: Some(serde_json::json!({"status": after, "why": reason})),
            },
        )
        .await?;
    }
    Ok(())
}
