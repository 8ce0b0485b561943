//! Users and their sessions.

use sqlx::PgExecutor;
use uuid::Uuid;

/// A user row.
#[derive(Debug, Clone)]
pub struct UserRow {
    /// Id.
    pub user_id: Uuid,
    /// Login name.
    pub username: String,
    /// argon2id PHC string.
    pub password_hash: String,
    /// `admin`, `arbiter` or `scorer`.
    pub role: String,
}

/// Inserts a user and returns its id.
pub async fn insert_user(
    db: impl PgExecutor<'_>,
    username: &str,
    password_hash: &str,
    role: &str,
) -> sqlx::Result<Uuid> {
    sqlx::query_scalar!(
        "insert into app_user (username, password_hash, role) values ($1, $2, $3) returning user_id",
        username,
        password_hash,
        role
    )
    .fetch_one(db)
    .await
}

/// Finds a user by login name.
pub async fn find_by_username(
    db: impl PgExecutor<'_>,
    username: &str,
) -> sqlx::Result<Option<UserRow>> {
    sqlx::query_as!(
        UserRow,
        "select user_id, username, password_hash, role from app_user where username = $1",
        username
    )
    .fetch_optional(db)
    .await
}

/// Stores a session token's hash for `user_id`, valid for `hours`.
pub async fn insert_session(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
    user_id: Uuid,
    kind: &str,
    hours: i32,
) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into user_session (token_hash, user_id, kind, expires_at)
         values ($1, $2, $3, now() + make_interval(hours => $4))",
        token_hash,
        user_id,
        kind,
        hours
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Deletes every expired session, so the table does not grow with each login forever.
pub async fn delete_expired_sessions(db: impl PgExecutor<'_>) -> sqlx::Result<u64> {
    let done = sqlx::query!("delete from user_session where expires_at <= now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

/// The user owning an unexpired session token hash.
pub async fn find_by_session(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
) -> sqlx::Result<Option<UserRow>> {
    sqlx::query_as!(
        UserRow,
        "select u.user_id, u.username, u.password_hash, u.role
         from user_session s join app_user u using (user_id)
         where s.token_hash = $1 and s.expires_at > now()",
        token_hash
    )
    .fetch_optional(db)
    .await
}

/// Deletes a session (logout).
pub async fn delete_session(db: impl PgExecutor<'_>, token_hash: &[u8]) -> sqlx::Result<bool> {
    let done = sqlx::query!("delete from user_session where token_hash = $1", token_hash)
        .execute(db)
        .await?;
    Ok(done.rows_affected() > 0)
}
