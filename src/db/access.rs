//! Who may write to which tournament.

use sqlx::PgExecutor;
use uuid::Uuid;

/// Whether `user_id` is assigned to `tournament_id`.
pub async fn is_assigned(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    user_id: Uuid,
) -> sqlx::Result<bool> {
    let found = sqlx::query_scalar!(
        "select exists (select 1 from tournament_arbiter where tournament_id = $1 and user_id = $2) as \"found!\"",
        tournament_id,
        user_id
    )
    .fetch_one(db)
    .await?;
    Ok(found)
}

/// Assigns a user to a tournament (idempotent).
pub async fn assign(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    user_id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into tournament_arbiter (tournament_id, user_id) values ($1, $2) on conflict do nothing",
        tournament_id,
        user_id
    )
    .execute(db)
    .await?;
    Ok(())
}
