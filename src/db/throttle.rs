//! The shared sign-in and registration limiter (table `sign_in_throttle`, function
//! `sign_in_hit`).

use sqlx::PgExecutor;

/// Counts one attempt for `key` in one statement; returns the seconds left of its lockout, or
/// `None` when the attempt may go ahead.
pub async fn hit(
    db: impl PgExecutor<'_>,
    key: &str,
    limit: i32,
    window_secs: f64,
    lockout_secs: f64,
    max_lockout_secs: f64,
) -> sqlx::Result<Option<f64>> {
    sqlx::query_scalar::<_, Option<f64>>(
        "select extract(epoch from sign_in_hit($1, $2, make_interval(secs => $3),
                make_interval(secs => $4), make_interval(secs => $5)) - now())::float8",
    )
    .bind(key)
    .bind(limit)
    .bind(window_secs)
    .bind(lockout_secs)
    .bind(max_lockout_secs)
    .fetch_one(db)
    .await
}

/// Forgets a key (an account after a successful sign-in: its lockouts start over).
pub async fn forget(db: impl PgExecutor<'_>, key: &str) -> sqlx::Result<()> {
    sqlx::query("delete from sign_in_throttle where key = $1")
        .bind(key)
        .execute(db)
        .await?;
    Ok(())
}

/// Takes back one attempt of a key (a successful sign-in from an address is not a guess).
pub async fn take_back(db: impl PgExecutor<'_>, key: &str) -> sqlx::Result<()> {
    sqlx::query("update sign_in_throttle set hits = greatest(hits - 1, 0) where key = $1")
        .bind(key)
        .execute(db)
        .await?;
    Ok(())
}

/// The account a device proof (by its hash) was given to, marking it used now.
pub async fn device_owner(
    db: impl PgExecutor<'_>,
    hash: &[u8],
) -> sqlx::Result<Option<uuid::Uuid>> {
    sqlx::query_scalar::<_, uuid::Uuid>(
        "update device_proof set used_at = now() where hash = $1 returning user_id",
    )
    .bind(hash)
    .fetch_optional(db)
    .await
}

/// Stores a new device proof of `user_id` and drops the proofs unused for a year.
pub async fn insert_device(
    db: impl PgExecutor<'_>,
    hash: &[u8],
    user_id: uuid::Uuid,
) -> sqlx::Result<()> {
    sqlx::query(
        "with old as (delete from device_proof where used_at < now() - interval '365 days')
         insert into device_proof (hash, user_id) values ($1, $2) on conflict do nothing",
    )
    .bind(hash)
    .bind(user_id)
    .execute(db)
    .await?;
    Ok(())
}
