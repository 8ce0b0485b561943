//! Tournaments: listing (more use cases arrive with the API).

use super::Result;
use crate::db;
use sqlx::PgPool;

/// Every tournament for the home page, newest first.
pub async fn list(pool: &PgPool) -> Result<Vec<db::tournament::TournamentSummary>> {
    Ok(db::tournament::list_summaries(pool).await?)
}
