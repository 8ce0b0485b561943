//! Users and their sessions.

use crate::vocab::UserRole;
use sqlx::PgExecutor;
use uuid::Uuid;

/// A user row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    /// Id.
    pub user_id: Uuid,
    /// Login name.
    pub username: String,
    /// argon2id PHC string.
    pub password_hash: String,
    /// Admin or user.
    pub role: UserRole,
    /// Whether the account is disabled (no sign-in, no sessions).
    pub disabled: bool,
    /// When the account was made.
    pub created_at: chrono::DateTime<chrono::Utc>,
}

const USER_COLUMNS: &str =
    "user_id, username, password_hash, role, disabled_at is not null as disabled, created_at";

/// Inserts a user and returns its id.
pub async fn insert_user(
    db: impl PgExecutor<'_>,
    username: &str,
    password_hash: &str,
    role: UserRole,
) -> sqlx::Result<Uuid> {
    sqlx::query_scalar(
        "insert into app_user (username, password_hash, role) values ($1, $2, $3) returning user_id",
    )
    .bind(username)
    .bind(password_hash)
    .bind(role)
    .fetch_one(db)
    .await
}

/// Finds a user by login name.
pub async fn find_by_username(
    db: impl PgExecutor<'_>,
    username: &str,
) -> sqlx::Result<Option<UserRow>> {
    sqlx::query_as(&format!(
        "select {USER_COLUMNS} from app_user where username = $1"
    ))
    .bind(username)
    .fetch_optional(db)
    .await
}

/// Finds a user by id.
pub async fn find(db: impl PgExecutor<'_>, user_id: Uuid) -> sqlx::Result<Option<UserRow>> {
    sqlx::query_as(&format!(
        "select {USER_COLUMNS} from app_user where user_id = $1"
    ))
    .bind(user_id)
    .fetch_optional(db)
    .await
}

/// Finds a user by id and locks the row (for changes checked against other rows).
pub async fn find_for_update(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
) -> sqlx::Result<Option<UserRow>> {
    sqlx::query_as(&format!(
        "select {USER_COLUMNS} from app_user where user_id = $1 for update"
    ))
    .bind(user_id)
    .fetch_optional(db)
    .await
}

/// Every user, by name.
pub async fn list(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<UserRow>> {
    sqlx::query_as(&format!(
        "select {USER_COLUMNS} from app_user order by username"
    ))
    .fetch_all(db)
    .await
}

/// Locks the admin accounts that are enabled and counts them (the last one must stay).
pub async fn lock_active_admins(db: impl PgExecutor<'_>) -> sqlx::Result<i64> {
    let ids: Vec<Uuid> = sqlx::query_scalar(
        "select user_id from app_user where role = 'admin' and disabled_at is null for update",
    )
    .fetch_all(db)
    .await?;
    Ok(i64::try_from(ids.len()).unwrap_or(i64::MAX))
}

/// Sets or clears the disabled mark.
pub async fn set_disabled(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    disabled: bool,
) -> sqlx::Result<()> {
    sqlx::query(
        "update app_user set disabled_at = case when $2 then coalesce(disabled_at, now()) end
         where user_id = $1",
    )
    .bind(user_id)
    .bind(disabled)
    .execute(db)
    .await?;
    Ok(())
}

/// Sets the password hash.
pub async fn set_password(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    password_hash: &str,
) -> sqlx::Result<()> {
    sqlx::query("update app_user set password_hash = $2 where user_id = $1")
        .bind(user_id)
        .bind(password_hash)
        .execute(db)
        .await?;
    Ok(())
}

/// Whether anything refers to the user (staff assignments, audit events, invitations made).
pub async fn is_referenced(db: impl PgExecutor<'_>, user_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (select 1 from tournament_staff where user_id = $1)
             or exists (select 1 from audit_event where user_id = $1)
             or exists (select 1 from staff_invitation where created_by = $1 or used_by = $1)",
    )
    .bind(user_id)
    .fetch_one(db)
    .await
}

/// Deletes a user (sessions go with it).
pub async fn delete(db: impl PgExecutor<'_>, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("delete from app_user where user_id = $1")
        .bind(user_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Stores a session token's hash for `user_id`, valid for `hours`.
pub async fn insert_session(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
    user_id: Uuid,
    kind: &str,
    hours: i32,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into user_session (token_hash, user_id, kind, expires_at)
         values ($1, $2, $3, now() + make_interval(hours => $4))",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(kind)
    .bind(hours)
    .execute(db)
    .await?;
    Ok(())
}

/// Deletes every expired session, so the table does not grow with each login forever.
pub async fn delete_expired_sessions(db: impl PgExecutor<'_>) -> sqlx::Result<u64> {
    let done = sqlx::query("delete from user_session where expires_at <= now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

/// The enabled user owning an unexpired session token hash.
pub async fn find_by_session(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
) -> sqlx::Result<Option<(UserRow, Uuid)>> {
    #[derive(sqlx::FromRow)]
    struct Found {
        #[sqlx(flatten)]
        user: UserRow,
        session_id: Uuid,
    }
    let found: Option<Found> = sqlx::query_as(
        "select u.user_id, u.username, u.password_hash, u.role, false as disabled, u.created_at,
                s.session_id
         from user_session s join app_user u using (user_id)
         where s.token_hash = $1 and s.expires_at > now() and u.disabled_at is null",
    )
    .bind(token_hash)
    .fetch_optional(db)
    .await?;
    Ok(found.map(|f| (f.user, f.session_id)))
}

/// Deletes a session (logout).
pub async fn delete_session(db: impl PgExecutor<'_>, token_hash: &[u8]) -> sqlx::Result<bool> {
    let done = sqlx::query("delete from user_session where token_hash = $1")
        .bind(token_hash)
        .execute(db)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// A session as its owner sees it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionRow {
    /// Public id.
    pub session_id: Uuid,
    /// `api` or `browser`.
    pub kind: String,
    /// Opened.
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// Ends.
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// A user's live sessions, newest first.
pub async fn list_sessions(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
) -> sqlx::Result<Vec<SessionRow>> {
    sqlx::query_as(
        "select session_id, kind, created_at, expires_at from user_session
         where user_id = $1 and expires_at > now() order by created_at desc",
    )
    .bind(user_id)
    .fetch_all(db)
    .await
}

/// Ends one of a user's sessions; false when the user has no such session.
pub async fn delete_session_by_id(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    session_id: Uuid,
) -> sqlx::Result<bool> {
    let done = sqlx::query("delete from user_session where user_id = $1 and session_id = $2")
        .bind(user_id)
        .bind(session_id)
        .execute(db)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Ends every session of a user, except `keep` when given; returns how many ended.
pub async fn delete_sessions(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    keep: Option<Uuid>,
) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "delete from user_session where user_id = $1 and ($2::uuid is null or session_id <> $2)",
    )
    .bind(user_id)
    .bind(keep)
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}
