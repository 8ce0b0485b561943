//! Who may write to which tournament: the staff assignments (`tournament_staff`).

use crate::vocab::StaffRole;
use sqlx::PgExecutor;
use uuid::Uuid;

/// The role of `user_id` in `tournament_id` (`chief_arbiter`, `arbiter`, `scorer`), if any.
pub async fn staff_role(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    user_id: Uuid,
) -> sqlx::Result<Option<StaffRole>> {
    sqlx::query_scalar(
        "select role from tournament_staff where tournament_id = $1 and user_id = $2",
    )
    .bind(tournament_id)
    .bind(user_id)
    .fetch_optional(db)
    .await
}

/// Whether `user_id` is the chief arbiter of at least one tournament.
pub async fn is_chief_anywhere(db: impl PgExecutor<'_>, user_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from tournament_staff
                         where user_id = $1 and role = 'chief_arbiter')",
    )
    .bind(user_id)
    .fetch_one(db)
    .await
}

/// Assigns a user to a tournament with `role`, or changes the role of an assignment.
pub async fn assign(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    user_id: Uuid,
    role: StaffRole,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into tournament_staff (tournament_id, user_id, role) values ($1, $2, $3)
         on conflict (tournament_id, user_id) do update set role = excluded.role",
    )
    .bind(tournament_id)
    .bind(user_id)
    .bind(role)
    .execute(db)
    .await?;
    Ok(())
}
