//! Tournaments (events): create, read, edit.

use super::access::{self, Change, Need};
use super::check::Check;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::tournament::{TournamentFields, TournamentRow};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use utoipa::ToSchema;

/// One tournament of the public list (a row of `db::tournament`).
pub use crate::db::tournament::TournamentSummary;
use uuid::Uuid;

/// Every tournament for the home page, newest first.
pub async fn list_summaries(pool: &PgPool) -> Result<Vec<db::tournament::TournamentSummary>> {
    Ok(db::tournament::list_summaries(pool).await?)
}

/// A tournament as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Tournament {
    /// Id.
    pub id: Uuid,
    /// Name.
    pub name: String,
    /// `xiangqi`, `jieqi` or `banqi`.
    pub game: String,
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
    /// `draft`, `registration`, `running`, `finished` or `cancelled`.
    pub status: String,
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
}

const GAMES: &[&str] = &["xiangqi", "jieqi", "banqi"];
const LANGUAGES: &[&str] = &["zh-Hant", "zh-Hans", "en"];
const STATUSES: &[&str] = &["draft", "registration", "running", "finished", "cancelled"];

fn merge(
    base: TournamentFields,
    input: &TournamentInput,
    creating: bool,
) -> Result<TournamentFields> {
    let mut check = Check::new();
    let name = match (&input.name, creating) {
        (Some(name), _) => check.required_text("name", name, 200),
        (None, true) => {
            check.error("name", "is required");
            String::new()
        }
        (None, false) => base.name,
    };
    let game = match (&input.game, creating) {
        (Some(game), _) => check.one_of("game", game, GAMES),
        (None, true) => {
            check.error("game", "is required (xiangqi, jieqi or banqi)");
            String::new()
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
            check.error(
                "time_control_code",
                "must be a TRF-26 code such as 600+3 or 5400+30",
            );
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
        Some(status) => check.one_of("status", status, STATUSES),
        None => base.status,
    };
    let starts_on = input.starts_on.or(base.starts_on);
    let ends_on = input.ends_on.or(base.ends_on);
    if let (Some(start), Some(end)) = (starts_on, ends_on) {
        if end < start {
            check.error("ends_on", "must not be before starts_on");
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
    })
}

/// Creates a tournament; whoever creates one is its chief arbiter.
pub async fn create(pool: &PgPool, actor: &Actor, input: &TournamentInput) -> Result<Tournament> {
    let base = TournamentFields {
        name: String::new(),
        game: String::new(),
        time_control: None,
        time_control_code: None,
        venue: None,
        starts_on: None,
        ends_on: None,
        organiser: None,
        default_language: "zh-Hant".into(),
        waiver_text: None,
        status: "draft".into(),
    };
    let fields = merge(base, input, true)?;
    let mut tx = pool.begin().await?;
    let row = db::tournament::insert(&mut *tx, &fields).await?;
    db::access::assign(&mut *tx, row.tournament_id, actor.user_id, "chief_arbiter").await?;
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
        .ok_or(Error::NotFound("tournament"))
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
        .ok_or(Error::NotFound("tournament"))?;
    access::require(&mut tx, actor, id, Need::Arbiter).await?;
    let base = TournamentFields {
        name: before.name.clone(),
        game: before.game.clone(),
        time_control: before.time_control.clone(),
        time_control_code: before.time_control_code.clone(),
        venue: before.venue.clone(),
        starts_on: before.starts_on,
        ends_on: before.ends_on,
        organiser: before.organiser.clone(),
        default_language: before.default_language.clone(),
        waiver_text: before.waiver_text.clone(),
        status: before.status.clone(),
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
