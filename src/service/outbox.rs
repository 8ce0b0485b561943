//! The outbox and the webhooks (issue #37). Messages are queued by the database in the
//! transaction of the change that causes them (triggers of migration
//! `20261208300100_outbox_webhooks.sql`: round published, result accepted or corrected, a
//! round's start set or changed, self check-in opened), at most once per recipient and event
//! (`outbox_once`); the workers (`crate::delivery`) claim and settle them through this module.
//! The tournament's arbiters manage its webhooks, send a test event and see what was sent and
//! what failed (counts, and the failures with their errors, never the message bodies).

use super::access::{self, Change, Need};
use super::check::Check;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::i18n::messages as m;
use chrono::{DateTime, Utc};
use rand_core::RngCore as _;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgPool;
use std::time::Duration;
use utoipa::ToSchema;
use uuid::Uuid;

pub use db::outbox::Claimed;

/// Checks an endpoint's URL: http(s), a host, no credentials in it. (Its address is checked
/// at each connect, `crate::delivery::guard`.)
pub fn check_url(url: &str) -> std::result::Result<hyper::Uri, &'static str> {
    let uri: hyper::Uri = url.trim().parse().map_err(|_| "not a URL")?;
    match uri.scheme_str() {
        Some("http") | Some("https") => {}
        _ => return Err("not http(s)"),
    }
    let authority = uri.authority().ok_or("no host")?;
    if authority.as_str().contains('@') || authority.host().is_empty() {
        return Err("no host, or credentials in the URL");
    }
    Ok(uri)
}

/// Claims due messages for `worker` (the workers only).
pub async fn claim(
    pool: &PgPool,
    worker: Uuid,
    limit: i64,
    lease: Duration,
) -> Result<Vec<Claimed>> {
    Ok(db::outbox::claim(pool, worker, limit, lease.as_secs_f64()).await?)
}

/// How a claimed message's attempt ended.
#[derive(Debug, Clone)]
pub enum Settled {
    /// Delivered.
    Sent(Uuid),
    /// Failed: retried after the delay, or given up when there is none.
    Failed {
        /// The message.
        id: Uuid,
        /// What happened, for the desk.
        error: String,
        /// When to try again.
        retry: Option<Duration>,
    },
}

/// Settles a worker's attempts (only the claimant settles a row): the sent ones in one
/// statement, the failed ones in another.
pub async fn settle(pool: &PgPool, worker: Uuid, settled: &[Settled]) -> Result<()> {
    let sent: Vec<Uuid> = settled
        .iter()
        .filter_map(|s| match s {
            Settled::Sent(id) => Some(*id),
            Settled::Failed { .. } => None,
        })
        .collect();
    let (mut ids, mut errors, mut retries) = (Vec::new(), Vec::new(), Vec::new());
    for s in settled {
        if let Settled::Failed { id, error, retry } = s {
            ids.push(*id);
            errors.push(error.chars().take(500).collect::<String>());
            retries.push(retry.map(|d| d.as_secs_f64()));
        }
    }
    if !sent.is_empty() {
        db::outbox::mark_sent(pool, &sent, worker).await?;
    }
    if !ids.is_empty() {
        db::outbox::mark_attempts_failed(pool, worker, &ids, &errors, &retries).await?;
    }
    Ok(())
}

/// The shared bodies `ids` as JSON text.
pub async fn bodies(pool: &PgPool, ids: &[Uuid]) -> Result<Vec<(Uuid, String)>> {
    Ok(db::outbox::bodies(pool, ids).await?)
}

/// A webhook as the desk and the API show it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WebhookView {
    /// Id.
    pub id: Uuid,
    /// Where events are POSTed.
    pub url: String,
    /// The signing secret (`X-Arbiter-Signature: sha256=<hex HMAC-SHA256 of the body>`).
    pub secret: String,
    /// Whether events are sent to it.
    pub active: bool,
    /// When it was added.
    pub created_at: DateTime<Utc>,
}

impl From<db::outbox::Webhook> for WebhookView {
    fn from(w: db::outbox::Webhook) -> WebhookView {
        WebhookView {
            id: w.webhook_id,
            url: w.url,
            secret: w.secret,
            active: w.active,
            created_at: w.created_at,
        }
    }
}

/// A new webhook: its URL, and a secret (one is made when none is given).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookInput {
    /// `https://…` (or `http://…`).
    pub url: String,
    /// At least 16 characters; made when absent.
    #[serde(default)]
    pub secret: Option<String>,
}

/// A tournament's webhooks (its arbiters).
pub async fn webhooks(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
) -> Result<Vec<WebhookView>> {
    let mut conn = pool.acquire().await?;
    access::require(&mut conn, actor, tournament_id, Need::Arbiter).await?;
    Ok(db::outbox::webhooks(&mut *conn, tournament_id)
        .await?
        .into_iter()
        .map(WebhookView::from)
        .collect())
}

fn new_secret() -> String {
    let mut bytes = [0u8; 24];
    rand_core::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// Adds a webhook (the tournament's arbiters; audited, without the secret).
pub async fn add_webhook(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    input: &WebhookInput,
) -> Result<WebhookView> {
    let mut tx = pool.begin().await?;
    access::require(&mut tx, actor, tournament_id, Need::Arbiter).await?;
    let mut check = Check::new();
    let url = input.url.trim().to_string();
    if url.len() > 2000 || check_url(&url).is_err() {
        check.error("url", m::CHECK_WEBHOOK_URL.msg());
    }
    let secret = match input.secret.as_deref().map(str::trim) {
        None | Some("") => new_secret(),
        Some(s) if (16..=200).contains(&s.len()) && s.chars().all(|c| c.is_ascii_graphic()) => {
            s.to_string()
        }
        Some(_) => {
            check.error("secret", m::CHECK_WEBHOOK_SECRET.msg());
            String::new()
        }
    };
    check.finish()?;
    let hook = db::outbox::add_webhook(&mut *tx, tournament_id, &url, &secret).await?;
    access::audit(
        &mut tx,
        tournament_id,
        Some(actor),
        Change {
            action: "add",
            entity: "webhook",
            entity_id: Some(hook.webhook_id),
            before: None,
            after: Some(json!({"url": hook.url})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(hook.into())
}

async fn hook_for(
    tx: &mut sqlx::PgConnection,
    actor: &Actor,
    webhook_id: Uuid,
) -> Result<db::outbox::Webhook> {
    let hook = db::outbox::webhook(&mut *tx, webhook_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_WEBHOOK))?;
    access::require(&mut *tx, actor, hook.tournament_id, Need::Arbiter).await?;
    Ok(hook)
}

/// Removes a webhook (the tournament's arbiters; audited).
pub async fn remove_webhook(pool: &PgPool, actor: &Actor, webhook_id: Uuid) -> Result<()> {
    let mut tx = pool.begin().await?;
    let hook = hook_for(&mut tx, actor, webhook_id).await?;
    db::outbox::remove_webhook(&mut *tx, webhook_id).await?;
    access::audit(
        &mut tx,
        hook.tournament_id,
        Some(actor),
        Change {
            action: "remove",
            entity: "webhook",
            entity_id: Some(webhook_id),
            before: Some(json!({"url": hook.url})),
            after: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Queues a test event for one webhook (the desk's button); returns the message id.
pub async fn send_test(pool: &PgPool, actor: &Actor, webhook_id: Uuid) -> Result<Uuid> {
    let mut tx = pool.begin().await?;
    let hook = hook_for(&mut tx, actor, webhook_id).await?;
    let id = Uuid::new_v4();
    db::outbox::queue_one(
        &mut *tx,
        hook.tournament_id,
        "test",
        &format!("test:{id}"),
        "webhook",
        webhook_id,
        &json!({"tournament_id": hook.tournament_id, "test": true}),
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// What the desk sees of the deliveries.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeliveriesView {
    /// Waiting or being retried.
    pub pending: i64,
    /// Delivered.
    pub sent: i64,
    /// Given up.
    pub failed: i64,
    /// The newest failures (given up, or failing and to be retried).
    pub failures: Vec<FailureView>,
}

/// A failed message, without its body.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FailureView {
    /// Message id.
    pub id: Uuid,
    /// Event (`round.published`…).
    pub event: String,
    /// `webhook`.
    pub channel: String,
    /// The webhook's URL.
    pub url: Option<String>,
    /// `failed` (given up) or `pending` (to be retried).
    pub status: String,
    /// Attempts so far.
    pub attempts: i32,
    /// The last error.
    pub error: String,
    /// When it was queued.
    pub created_at: DateTime<Utc>,
}

/// A tournament's deliveries (its arbiters).
pub async fn deliveries(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
) -> Result<DeliveriesView> {
    let mut conn = pool.acquire().await?;
    access::require(&mut conn, actor, tournament_id, Need::Arbiter).await?;
    let counts = db::outbox::counts(&mut *conn, tournament_id).await?;
    let failures = db::outbox::failures(&mut *conn, tournament_id, 50)
        .await?
        .into_iter()
        .map(|f| FailureView {
            id: f.outbox_id,
            event: f.event,
            channel: f.channel,
            url: f.url,
            status: f.status,
            attempts: f.attempts,
            error: f.last_error.unwrap_or_default(),
            created_at: f.created_at,
        })
        .collect();
    Ok(DeliveriesView {
        pending: counts.pending,
        sent: counts.sent,
        failed: counts.failed,
        failures,
    })
}
