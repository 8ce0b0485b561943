//! Tournaments.

use crate::vocab::{Game, TournamentStatus};
use chrono::NaiveDate;
use sqlx::PgExecutor;
use uuid::Uuid;

/// A tournament as listed on the home page.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TournamentSummary {
    /// Id.
    pub tournament_id: Uuid,
    /// Name.
    pub name: String,
    /// The game played.
    pub game: Game,
    /// Lifecycle status.
    pub status: TournamentStatus,
    /// First day, if set.
    pub starts_on: Option<NaiveDate>,
    /// Venue, if set.
    pub venue: Option<String>,
}

/// Every tournament (`all`: the dashboard's list), or the listed ones (the home page's; an
/// imported copy is not listed until its arbiter says so), newest first.
pub async fn list_summaries(
    db: impl PgExecutor<'_>,
    all: bool,
) -> sqlx::Result<Vec<TournamentSummary>> {
    sqlx::query_as::<_, TournamentSummary>(
        "select tournament_id, name, game, status, starts_on, venue
         from tournament where $1 or listed
         order by starts_on desc nulls last, created_at desc",
    )
    .bind(all)
    .fetch_all(db)
    .await
}

/// A full tournament row.
#[derive(Debug, Clone, serde::Serialize, sqlx::FromRow)]
pub struct TournamentRow {
    /// Id.
    pub tournament_id: Uuid,
    /// Name.
    pub name: String,
    /// Game.
    pub game: Game,
    /// Time control text.
    pub time_control: Option<String>,
    /// TRF-26 time-control code.
    pub time_control_code: Option<String>,
    /// Venue.
    pub venue: Option<String>,
    /// First day.
    pub starts_on: Option<NaiveDate>,
    /// Last day.
    pub ends_on: Option<NaiveDate>,
    /// Organiser.
    pub organiser: Option<String>,
    /// Default UI language.
    pub default_language: String,
    /// Waiver text.
    pub waiver_text: Option<String>,
    /// Status.
    pub status: TournamentStatus,
    /// IANA time zone the event's times are entered and shown in.
    pub time_zone: String,
    /// Listed on the home page.
    pub listed: bool,
    /// Created.
    pub created_at: chrono::DateTime<chrono::Utc>,
}

/// Fields of a new or edited tournament.
#[derive(Debug, Clone)]
pub struct TournamentFields {
    /// Name.
    pub name: String,
    /// Game.
    pub game: Game,
    /// Time control text.
    pub time_control: Option<String>,
    /// TRF-26 time-control code.
    pub time_control_code: Option<String>,
    /// Venue.
    pub venue: Option<String>,
    /// First day.
    pub starts_on: Option<NaiveDate>,
    /// Last day.
    pub ends_on: Option<NaiveDate>,
    /// Organiser.
    pub organiser: Option<String>,
    /// Default UI language.
    pub default_language: String,
    /// Waiver text.
    pub waiver_text: Option<String>,
    /// Status.
    pub status: TournamentStatus,
    /// IANA time zone.
    pub time_zone: String,
    /// Listed on the home page.
    pub listed: bool,
}

/// Inserts a tournament.
pub async fn insert(db: impl PgExecutor<'_>, f: &TournamentFields) -> sqlx::Result<TournamentRow> {
    sqlx::query_as::<_, TournamentRow>(
        "insert into tournament (name, game, time_control, time_control_code, venue, starts_on, ends_on,
                                 organiser, default_language, waiver_text, status, time_zone, listed)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         returning tournament_id, name, game, time_control, time_control_code, venue, starts_on, ends_on,
                   organiser, default_language, waiver_text, status, time_zone, listed, created_at",
    )
    .bind(&f.name)
    .bind(f.game)
    .bind(&f.time_control)
    .bind(&f.time_control_code)
    .bind(&f.venue)
    .bind(f.starts_on)
    .bind(f.ends_on)
    .bind(&f.organiser)
    .bind(&f.default_language)
    .bind(&f.waiver_text)
    .bind(f.status)
    .bind(&f.time_zone)
    .bind(f.listed)
    .fetch_one(db)
    .await
}

/// Rewrites a tournament's fields.
pub async fn update(
    db: impl PgExecutor<'_>,
    id: Uuid,
    f: &TournamentFields,
) -> sqlx::Result<TournamentRow> {
    sqlx::query_as::<_, TournamentRow>(
        "update tournament set name = $2, game = $3, time_control = $4, time_control_code = $5, venue = $6,
                starts_on = $7, ends_on = $8, organiser = $9, default_language = $10, waiver_text = $11, status = $12,
                time_zone = $13, listed = $14
         where tournament_id = $1
         returning tournament_id, name, game, time_control, time_control_code, venue, starts_on, ends_on,
                   organiser, default_language, waiver_text, status, time_zone, listed, created_at",
    )
    .bind(id)
    .bind(&f.name)
    .bind(f.game)
    .bind(&f.time_control)
    .bind(&f.time_control_code)
    .bind(&f.venue)
    .bind(f.starts_on)
    .bind(f.ends_on)
    .bind(&f.organiser)
    .bind(&f.default_language)
    .bind(&f.waiver_text)
    .bind(f.status)
    .bind(&f.time_zone)
    .bind(f.listed)
    .fetch_one(db)
    .await
}

/// One tournament.
pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<TournamentRow>> {
    sqlx::query_as::<_, TournamentRow>(
        "select tournament_id, name, game, time_control, time_control_code, venue, starts_on, ends_on,
                organiser, default_language, waiver_text, status, time_zone, listed, created_at
         from tournament where tournament_id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await
}

/// Every tournament, newest first.
pub async fn list(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<TournamentRow>> {
    sqlx::query_as::<_, TournamentRow>(
        "select tournament_id, name, game, time_control, time_control_code, venue, starts_on, ends_on,
                organiser, default_language, waiver_text, status, time_zone, listed, created_at
         from tournament order by created_at desc",
    )
    .fetch_all(db)
    .await
}

/// Moves a tournament's status to `to` if it is one of `from`; the status it had, when moved.
pub async fn move_status(
    db: impl PgExecutor<'_>,
    id: Uuid,
    from: &[TournamentStatus],
    to: TournamentStatus,
) -> sqlx::Result<Option<TournamentStatus>> {
    let from: Vec<&str> = from.iter().map(|s| s.as_str()).collect();
    sqlx::query_scalar::<_, TournamentStatus>(
        "update tournament t set status = $3 from tournament old
         where t.tournament_id = $1 and old.tournament_id = t.tournament_id
           and t.status = any($2) and t.status <> $3
         returning old.status",
    )
    .bind(id)
    .bind(&from)
    .bind(to)
    .fetch_optional(db)
    .await
}

/// The time zone of a section's tournament.
pub async fn time_zone_of_section(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar::<_, String>(
        "select t.time_zone from section s join tournament t using (tournament_id)
         where s.section_id = $1",
    )
    .bind(section_id)
    .fetch_optional(db)
    .await
}

/// Locks a tournament's row against other writers of what it owns as a whole (its grand-final
/// prizes); `false` when there is no such tournament.
pub async fn lock(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<bool> {
    let found = sqlx::query_scalar::<_, i32>(
        "select 1 from tournament where tournament_id = $1 for no key update",
    )
    .bind(id)
    .fetch_optional(db)
    .await?;
    Ok(found.is_some())
}
