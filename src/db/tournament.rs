//! Tournaments.

use chrono::NaiveDate;
use sqlx::PgExecutor;
use uuid::Uuid;

/// A tournament as listed on the home page.
#[derive(Debug, Clone)]
pub struct TournamentSummary {
    /// Id.
    pub tournament_id: Uuid,
    /// Name.
    pub name: String,
    /// `xiangqi`, `jieqi` or `banqi`.
    pub game: String,
    /// Lifecycle status.
    pub status: String,
    /// First day, if set.
    pub starts_on: Option<NaiveDate>,
    /// Venue, if set.
    pub venue: Option<String>,
}

/// All tournaments that are not drafts or cancelled… and drafts too: the home page shows
/// everything, newest first.
pub async fn list_summaries(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<TournamentSummary>> {
    sqlx::query_as!(
        TournamentSummary,
        "select tournament_id, name, game, status, starts_on, venue
         from tournament order by starts_on desc nulls last, created_at desc"
    )
    .fetch_all(db)
    .await
}
