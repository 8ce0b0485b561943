//! Web push (issue #37): the server's VAPID key pair and the players' subscriptions.

use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

/// The VAPID key pair (base64url).
#[derive(Debug, Clone, FromRow)]
pub struct VapidKey {
    /// The private scalar.
    pub private_key: String,
    /// The public point (uncompressed).
    pub public_key: String,
}

/// The key pair, when one was made.
pub async fn vapid_key(db: impl PgExecutor<'_>) -> sqlx::Result<Option<VapidKey>> {
    sqlx::query_as::<_, VapidKey>("select private_key, public_key from vapid_key where id")
        .fetch_optional(db)
        .await
}

/// Stores a key pair unless one is there (two first starts at once keep the first).
pub async fn insert_vapid_key(
    db: impl PgExecutor<'_>,
    private_key: &str,
    public_key: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into vapid_key (id, private_key, public_key) values (true, $1, $2)
         on conflict (id) do nothing",
    )
    .bind(private_key)
    .bind(public_key)
    .execute(db)
    .await?;
    Ok(())
}

/// A subscription.
#[derive(Debug, Clone, FromRow)]
pub struct Subscription {
    /// Id.
    pub subscription_id: Uuid,
    /// The entrant.
    pub entrant_id: Uuid,
    /// The push service's endpoint.
    pub endpoint: String,
    /// The language of its notifications.
    pub lang: String,
}

/// Adds (or renews the keys of) an entrant's subscription.
pub async fn upsert(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
    endpoint: &str,
    p256dh: &str,
    auth: &str,
    lang: &str,
) -> sqlx::Result<Subscription> {
    sqlx::query_as::<_, Subscription>(
        "insert into push_subscription (entrant_id, endpoint, p256dh, auth, lang)
         values ($1, $2, $3, $4, $5)
         on conflict on constraint push_subscription_once
         do update set p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang
         returning subscription_id, entrant_id, endpoint, lang",
    )
    .bind(entrant_id)
    .bind(endpoint)
    .bind(p256dh)
    .bind(auth)
    .bind(lang)
    .fetch_one(db)
    .await
}

/// Removes an entrant's subscription to `endpoint`; whether there was one.
pub async fn remove(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
    endpoint: &str,
) -> sqlx::Result<bool> {
    Ok(
        sqlx::query("delete from push_subscription where entrant_id = $1 and endpoint = $2")
            .bind(entrant_id)
            .bind(endpoint)
            .execute(db)
            .await?
            .rows_affected()
            > 0,
    )
}

/// Removes a subscription the push service says is gone.
pub async fn remove_by_id(db: impl PgExecutor<'_>, subscription_id: Uuid) -> sqlx::Result<bool> {
    Ok(
        sqlx::query("delete from push_subscription where subscription_id = $1")
            .bind(subscription_id)
            .execute(db)
            .await?
            .rows_affected()
            > 0,
    )
}

/// How many subscriptions an entrant has.
pub async fn count_for(db: impl PgExecutor<'_>, entrant_id: Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar("select count(*) from push_subscription where entrant_id = $1")
        .bind(entrant_id)
        .fetch_one(db)
        .await
}
