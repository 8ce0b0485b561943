//! The round schedule (issue #37): planned starts per round of a section.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

/// One round's planned start.
#[derive(Debug, Clone, FromRow)]
pub struct Planned {
    /// Round number.
    pub number: i32,
    /// The planned start (none: removed).
    pub starts_at: Option<DateTime<Utc>>,
    /// How many times the start changed.
    pub sequence: i32,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

/// A section's schedule rows in round order, removed starts included.
pub async fn list(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<Planned>> {
    sqlx::query_as::<_, Planned>(
        "select number, starts_at, sequence, updated_at from round_schedule
         where section_id = $1 order by number",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Sets round `number`'s planned start; the sequence counts up when the start changes.
/// Returns whether it changed.
pub async fn put(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    number: i32,
    starts_at: Option<DateTime<Utc>>,
) -> sqlx::Result<bool> {
    let changed = sqlx::query(
        "insert into round_schedule (section_id, number, starts_at) values ($1, $2, $3)
         on conflict (section_id, number) do update
            set starts_at = excluded.starts_at, sequence = round_schedule.sequence + 1,
                updated_at = now()
          where round_schedule.starts_at is distinct from excluded.starts_at",
    )
    .bind(section_id)
    .bind(number)
    .bind(starts_at)
    .execute(db)
    .await?
    .rows_affected();
    Ok(changed > 0)
}
