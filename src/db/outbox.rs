//! The outbox and the webhooks (issue #37): messages queued in the transaction of the change
//! that causes them, claimed by the delivery workers with `FOR UPDATE SKIP LOCKED` and a lease.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

/// A webhook of a tournament.
#[derive(Debug, Clone, FromRow)]
pub struct Webhook {
    /// Id.
    pub webhook_id: Uuid,
    /// Tournament.
    pub tournament_id: Uuid,
    /// Where events are POSTed.
    pub url: String,
    /// The signing secret.
    pub secret: String,
    /// Whether events are sent to it.
    pub active: bool,
    /// When it was added.
    pub created_at: DateTime<Utc>,
}

/// A tournament's webhooks, oldest first.
pub async fn webhooks(db: impl PgExecutor<'_>, tournament_id: Uuid) -> sqlx::Result<Vec<Webhook>> {
    sqlx::query_as::<_, Webhook>(
        "select webhook_id, tournament_id, url, secret, active, created_at from webhook
         where tournament_id = $1 order by created_at, webhook_id",
    )
    .bind(tournament_id)
    .fetch_all(db)
    .await
}

/// One webhook.
pub async fn webhook(db: impl PgExecutor<'_>, webhook_id: Uuid) -> sqlx::Result<Option<Webhook>> {
    sqlx::query_as::<_, Webhook>(
        "select webhook_id, tournament_id, url, secret, active, created_at from webhook
         where webhook_id = $1",
    )
    .bind(webhook_id)
    .fetch_optional(db)
    .await
}

/// Adds a webhook.
pub async fn add_webhook(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    url: &str,
    secret: &str,
) -> sqlx::Result<Webhook> {
    sqlx::query_as::<_, Webhook>(
        "insert into webhook (tournament_id, url, secret) values ($1, $2, $3)
         returning webhook_id, tournament_id, url, secret, active, created_at",
    )
    .bind(tournament_id)
    .bind(url)
    .bind(secret)
    .fetch_one(db)
    .await
}

/// Removes a webhook (its queued messages stay as history).
pub async fn remove_webhook(db: impl PgExecutor<'_>, webhook_id: Uuid) -> sqlx::Result<bool> {
    Ok(sqlx::query("delete from webhook where webhook_id = $1")
        .bind(webhook_id)
        .execute(db)
        .await?
        .rows_affected()
        > 0)
}

/// Queues `event` for every active webhook of the tournament (one statement; a recipient that
/// has this event's key already gets nothing new). Returns how many rows were queued.
pub async fn queue_webhooks(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    event: &str,
    event_key: &str,
    payload: &Value,
) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "insert into outbox (tournament_id, event, event_key, channel, recipient, payload)
         select $1, $2, $3, 'webhook', webhook_id, $4 from webhook
          where tournament_id = $1 and active
         on conflict on constraint outbox_once do nothing",
    )
    .bind(tournament_id)
    .bind(event)
    .bind(event_key)
    .bind(payload)
    .execute(db)
    .await?
    .rows_affected())
}

/// Queues one message for one recipient (nothing when it has this event's key already).
pub async fn queue_one(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    event: &str,
    event_key: &str,
    channel: &str,
    recipient: Uuid,
    payload: &Value,
) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "insert into outbox (tournament_id, event, event_key, channel, recipient, payload)
         values ($1, $2, $3, $4, $5, $6)
         on conflict on constraint outbox_once do nothing",
    )
    .bind(tournament_id)
    .bind(event)
    .bind(event_key)
    .bind(channel)
    .bind(recipient)
    .bind(payload)
    .execute(db)
    .await?
    .rows_affected())
}

/// A claimed message with what its delivery needs.
#[derive(Debug, Clone, FromRow)]
pub struct Claimed {
    /// Id (also the delivery id receivers deduplicate by).
    pub outbox_id: Uuid,
    /// Event name.
    pub event: String,
    /// Channel.
    pub channel: String,
    /// Recipient (a webhook's id).
    pub recipient: Uuid,
    /// The message (`{}` when it is a shared body's, `body_id`).
    pub payload: Value,
    /// The shared body (`outbox_body`) an event sent to many webhooks refers to; read once by
    /// a worker (`bodies`), not once per message.
    pub body_id: Option<Uuid>,
    /// Attempts including this one.
    pub attempts: i32,
    /// The webhook's URL, when the recipient is a webhook that still exists.
    pub url: Option<String>,
    /// The webhook's secret.
    pub secret: Option<String>,
    /// The push subscription's endpoint, when the recipient is one that still exists.
    pub endpoint: Option<String>,
    /// The browser's P-256 public key (base64url).
    pub p256dh: Option<String>,
    /// The browser's auth secret (base64url).
    pub auth: Option<String>,
    /// The language of the recipient (a push subscription's).
    pub lang: Option<String>,
}

/// Claims up to `limit` due messages for `worker` for `lease_secs` (rows other workers hold
/// are skipped, not waited for).
pub async fn claim(
    db: impl PgExecutor<'_>,
    worker: Uuid,
    limit: i64,
    lease_secs: f64,
) -> sqlx::Result<Vec<Claimed>> {
    sqlx::query_as::<_, Claimed>(
        "with due as (
            select outbox_id from outbox
             where status = 'pending' and next_attempt_at <= now()
               and (locked_until is null or locked_until < now())
             order by next_attempt_at, created_at
             limit $1
             for update skip locked
         ), claimed as (
            update outbox o
               set locked_until = now() + make_interval(secs => $3), claimed_by = $2,
                   attempts = o.attempts + 1
              from due where o.outbox_id = due.outbox_id
            returning o.outbox_id, o.event, o.channel, o.recipient, o.payload, o.body_id,
                      o.attempts
         )
         select c.*, w.url, w.secret, p.endpoint, p.p256dh, p.auth, p.lang from claimed c
           left join webhook w on c.channel = 'webhook' and w.webhook_id = c.recipient
           left join push_subscription p on c.channel = 'push'
                                         and p.subscription_id = c.recipient",
    )
    .bind(limit)
    .bind(worker)
    .bind(lease_secs)
    .fetch_all(db)
    .await
}

/// The shared bodies `ids` as JSON text (one read for a whole claim).
pub async fn bodies(db: impl PgExecutor<'_>, ids: &[Uuid]) -> sqlx::Result<Vec<(Uuid, String)>> {
    sqlx::query_as::<_, (Uuid, String)>(
        "select body_id, payload::text from outbox_body where body_id = any($1)",
    )
    .bind(ids)
    .fetch_all(db)
    .await
}

/// Marks claimed messages sent (only their claimant may), in one statement. Returns how many
/// it did.
pub async fn mark_sent(db: impl PgExecutor<'_>, ids: &[Uuid], worker: Uuid) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "update outbox set status = 'sent', sent_at = now(), locked_until = null, last_error = null
          where outbox_id = any($1) and claimed_by = $2 and status = 'pending'",
    )
    .bind(ids)
    .bind(worker)
    .execute(db)
    .await?
    .rows_affected())
}

/// Failed attempts, in one statement: each retried after its `retry_secs`, or given up
/// (`failed`) when it has none. The three lists go side by side.
pub async fn mark_attempts_failed(
    db: impl PgExecutor<'_>,
    worker: Uuid,
    ids: &[Uuid],
    errors: &[String],
    retry_secs: &[Option<f64>],
) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "update outbox o set last_error = f.error, locked_until = null,
                status = case when f.retry is null then 'failed' else 'pending' end,
                next_attempt_at = case when f.retry is null then o.next_attempt_at
                                       else now() + make_interval(secs => f.retry) end
           from unnest($2::uuid[], $3::text[], $4::float8[]) as f(id, error, retry)
          where o.outbox_id = f.id and o.claimed_by = $1 and o.status = 'pending'",
    )
    .bind(worker)
    .bind(ids)
    .bind(errors)
    .bind(retry_secs)
    .execute(db)
    .await?
    .rows_affected())
}

/// Counts of a tournament's messages by status.
#[derive(Debug, Clone, Default, FromRow)]
pub struct Counts {
    /// Waiting or being retried.
    pub pending: i64,
    /// Delivered.
    pub sent: i64,
    /// Given up.
    pub failed: i64,
}

/// Counts of a tournament's messages by status.
pub async fn counts(db: impl PgExecutor<'_>, tournament_id: Uuid) -> sqlx::Result<Counts> {
    sqlx::query_as::<_, Counts>(
        "select count(*) filter (where status = 'pending') as pending,
                count(*) filter (where status = 'sent') as sent,
                count(*) filter (where status = 'failed') as failed
           from outbox where tournament_id = $1",
    )
    .bind(tournament_id)
    .fetch_one(db)
    .await
}

/// A message that failed (given up, or failing and retried).
#[derive(Debug, Clone, FromRow)]
pub struct Failure {
    /// Id.
    pub outbox_id: Uuid,
    /// Event name.
    pub event: String,
    /// Channel.
    pub channel: String,
    /// Recipient id.
    pub recipient: Uuid,
    /// `failed` (given up) or `pending` (to be retried).
    pub status: String,
    /// Attempts so far.
    pub attempts: i32,
    /// The last error.
    pub last_error: Option<String>,
    /// When the message was queued.
    pub created_at: DateTime<Utc>,
    /// The webhook's URL, or the push service's host, when the recipient still exists.
    pub url: Option<String>,
}

/// A tournament's newest failures (no message bodies).
pub async fn failures(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    limit: i64,
) -> sqlx::Result<Vec<Failure>> {
    sqlx::query_as::<_, Failure>(
        "select o.outbox_id, o.event, o.channel, o.recipient, o.status, o.attempts, o.last_error,
                o.created_at,
                coalesce(w.url, substring(p.endpoint from '^https?://[^/]+')) as url
           from outbox o left join webhook w on o.channel = 'webhook' and w.webhook_id = o.recipient
           left join push_subscription p on o.channel = 'push' and p.subscription_id = o.recipient
          where o.tournament_id = $1 and o.last_error is not null and o.status <> 'sent'
          order by o.created_at desc limit $2",
    )
    .bind(tournament_id)
    .bind(limit)
    .fetch_all(db)
    .await
}
