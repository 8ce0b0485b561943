//! Players' keys (issue 36): one secret key per entrant, in its own table (`entrant_key`), and
//! what a key opens: its entrant, section and self check-in.

use crate::vocab::{EntrantStatus, SelfReport};
use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

/// The entrant a key opens, with what its page and its rules need.
#[derive(Debug, Clone, FromRow)]
pub struct KeyEntrant {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// Active or withdrawn.
    pub status: EntrantStatus,
    /// Present at the venue.
    pub checked_in: bool,
    /// Checked in with the key (not at the desk).
    pub checked_in_by_self: bool,
    /// Section.
    pub section_id: Uuid,
    /// Section name.
    pub section_name: String,
    /// Whether entrants may check in with their key.
    pub self_check_in: bool,
    /// The self check-in window.
    pub check_in_opens_at: Option<DateTime<Utc>>,
    /// The self check-in window's end.
    pub check_in_closes_at: Option<DateTime<Utc>>,
    /// What the section does with agreeing reports.
    pub self_report: SelfReport,
    /// Tournament.
    pub tournament_id: Uuid,
    /// Tournament name.
    pub tournament_name: String,
    /// The event's time zone.
    pub time_zone: String,
    /// The event's language.
    pub default_language: String,
}

const ENTRANT: &str = "select e.entrant_id, e.start_no, e.name, e.status, e.checked_in,
        e.checked_in_by_self, s.section_id, s.name as section_name, s.self_check_in,
        s.check_in_opens_at, s.check_in_closes_at, s.self_report, t.tournament_id,
        t.name as tournament_name, t.time_zone, t.default_language
     from entrant_key k join entrant e using (entrant_id) join section s using (section_id)
          join tournament t using (tournament_id)";

/// The entrant whose key is `key` (normalised).
pub async fn entrant_by_key(
    db: impl PgExecutor<'_>,
    key: &str,
) -> sqlx::Result<Option<KeyEntrant>> {
    sqlx::query_as::<_, KeyEntrant>(&format!("{ENTRANT} where k.key = $1"))
        .bind(key)
        .fetch_optional(db)
        .await
}

/// The entrant of `key`, its section row locked (check-in runs one at a time per section).
pub async fn entrant_by_key_for_update(
    db: impl PgExecutor<'_>,
    key: &str,
) -> sqlx::Result<Option<KeyEntrant>> {
    sqlx::query_as::<_, KeyEntrant>(&format!("{ENTRANT} where k.key = $1 for update of e"))
        .bind(key)
        .fetch_optional(db)
        .await
}

/// Draws a new key for an entrant (the old one stops working); returns it.
pub async fn reissue(db: impl PgExecutor<'_>, entrant_id: Uuid) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar::<_, String>(
        "insert into entrant_key (entrant_id) values ($1)
         on conflict (entrant_id) do update set key = new_entrant_key(), issued_at = now()
         returning key",
    )
    .bind(entrant_id)
    .fetch_optional(db)
    .await
}

/// An entrant's key.
pub async fn key_of(db: impl PgExecutor<'_>, entrant_id: Uuid) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar::<_, String>("select key from entrant_key where entrant_id = $1")
        .bind(entrant_id)
        .fetch_optional(db)
        .await
}

/// One entrant's key in a section's list.
#[derive(Debug, Clone, FromRow)]
pub struct SectionKey {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// The key.
    pub key: String,
}

/// Every entrant's key of a section, by starting number.
pub async fn section_keys(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<SectionKey>> {
    sqlx::query_as::<_, SectionKey>(
        "select e.entrant_id, e.start_no, e.name, k.key
         from entrant e join entrant_key k using (entrant_id)
         where e.section_id = $1 order by e.start_no nulls last, e.seq",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Checks an entrant in or out by its own key (`by_self`), or records that the desk did.
pub async fn set_checked_in(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
    checked_in: bool,
    by_self: bool,
) -> sqlx::Result<()> {
    sqlx::query(
        "update entrant set checked_in = $2, checked_in_by_self = $3
         where entrant_id = $1",
    )
    .bind(entrant_id)
    .bind(checked_in)
    .bind(by_self)
    .execute(db)
    .await?;
    Ok(())
}

/// The entrants of a section who checked themselves in.
pub async fn checked_in_by_self(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar::<_, Uuid>(
        "select entrant_id from entrant
         where section_id = $1 and checked_in and checked_in_by_self",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// A section's self check-in settings.
#[derive(Debug, Clone, FromRow)]
pub struct CheckInSettings {
    /// Whether entrants may check in with their key.
    pub self_check_in: bool,
    /// The window's start.
    pub check_in_opens_at: Option<DateTime<Utc>>,
    /// The window's end.
    pub check_in_closes_at: Option<DateTime<Utc>>,
}

/// A section's self check-in settings.
pub async fn check_in_settings(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Option<CheckInSettings>> {
    sqlx::query_as::<_, CheckInSettings>(
        "select self_check_in, check_in_opens_at, check_in_closes_at from section
         where section_id = $1",
    )
    .bind(section_id)
    .fetch_optional(db)
    .await
}

/// Stores a section's self check-in settings.
pub async fn put_check_in_settings(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    settings: &CheckInSettings,
) -> sqlx::Result<()> {
    sqlx::query(
        "update section set self_check_in = $2, check_in_opens_at = $3, check_in_closes_at = $4
         where section_id = $1",
    )
    .bind(section_id)
    .bind(settings.self_check_in)
    .bind(settings.check_in_opens_at)
    .bind(settings.check_in_closes_at)
    .execute(db)
    .await?;
    Ok(())
}
