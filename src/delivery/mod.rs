//! The outbox's workers (issue #37): a tokio task started with the server claims due messages
//! (`service::outbox::claim`: `FOR UPDATE SKIP LOCKED` with a lease, so several instances share
//! the queue and each message is claimed by one), delivers them side by side, and settles each
//! (sent; retried after a back-off that doubles from `retry_base`; or failed after
//! `max_attempts`, or at once when retrying cannot help). Only the claimant settles a row; a
//! worker that dies leaves its claims to run out (`lease`), and another worker takes them.
//! A graceful stop finishes the deliveries under way, settles them and claims nothing more.
//! Claims and settlements are batched (one statement for many messages) and connections to an
//! endpoint's host are kept alive and reused (`client`), so one worker keeps up with a round
//! published to a thousand subscribers.
//!
//! Webhooks get the message as JSON (`{"id", "event", "data"}`), signed
//! `X-Arbiter-Signature: sha256=<hex HMAC-SHA256 of the body with the webhook's secret>`,
//! with `X-Arbiter-Event` and `X-Arbiter-Delivery` (the message id, the same on every retry:
//! a receiver that keeps the ids it saw takes each message once even when a worker was killed
//! between the receiver's answer and its own record of it).

pub mod client;
pub mod guard;
pub mod mail;

use crate::service;
use crate::service::outbox::Claimed;
use axum::body::Bytes;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use sqlx::PgPool;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use uuid::Uuid;

/// How a worker runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Whether endpoints may be private addresses (`--allow-private-endpoints`).
    pub allow_private: bool,
    /// Messages claimed at once (delivered side by side).
    pub batch: i64,
    /// How long a claim lasts (longer than a delivery may take).
    pub lease: Duration,
    /// The first retry's delay; each later one doubles, up to an hour.
    pub retry_base: Duration,
    /// Attempts before a message is given up.
    pub max_attempts: i32,
    /// How long an idle worker waits before looking again.
    pub idle: Duration,
    /// How long one delivery may take.
    pub timeout: Duration,
    /// The VAPID contact (`mailto:` or `https:`), the JWT's `sub`, when one is known.
    pub push_subject: Option<String>,
    /// E-mail (`--smtp-url`, `--smtp-from`); none: e-mail is off.
    pub mail: Option<mail::Settings>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            allow_private: false,
            batch: 64,
            lease: Duration::from_secs(60),
            retry_base: Duration::from_secs(10),
            max_attempts: 8,
            idle: Duration::from_millis(500),
            timeout: Duration::from_secs(10),
            push_subject: None,
            mail: None,
        }
    }
}

/// The signature header's value for `body`.
pub fn signature(secret: &str, body: &[u8]) -> String {
    let mut mac = match Hmac::<Sha256>::new_from_slice(secret.as_bytes()) {
        Ok(mac) => mac,
        // HMAC takes keys of any length.
        Err(_) => return String::new(),
    };
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// Starts a worker; it stops when `stop` turns true (after the deliveries under way).
pub fn spawn(
    pool: PgPool,
    config: Config,
    stop: watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(run(pool, config, stop))
}

/// A worker's loop: up to `batch` deliveries run side by side; as soon as half the places are
/// free (or none is busy) the worker claims that many more, so a slow endpoint holds only its
/// own place, never a whole batch. A claim's shared bodies are read once (and kept for the
/// next claims of the same event). Attempts are settled in batches by a settler task: what
/// finished while the previous statement ran goes in the next one.
pub async fn run(pool: PgPool, config: Config, mut stop: watch::Receiver<bool>) {
    let worker = Uuid::new_v4();
    let client = client::Client::new(config.allow_private, config.timeout);
    let mut vapid: Option<service::push::Vapid> = None;
    let mailer = config.mail.as_ref().and_then(|settings| {
        mail::Mailer::new(settings)
            .inspect_err(|err| tracing::error!(%err, "outbox: e-mail is off"))
            .ok()
    });
    let config = Arc::new(config);
    let places = usize::try_from(config.batch.max(1)).unwrap_or(1);
    let mut busy = tokio::task::JoinSet::new();
    let (settle, settled) = mpsc::unbounded_channel();
    let settler = tokio::spawn(settle_loop(pool.clone(), worker, settled));
    let mut bodies: HashMap<Uuid, Arc<str>> = HashMap::new();
    loop {
        if *stop.borrow() {
            break;
        }
        while busy.try_join_next().is_some() {}
        let free = places - busy.len().min(places);
        let mut claimed_any = false;
        if busy.is_empty() || free * 2 >= places {
            let limit = i64::try_from(free).unwrap_or(1);
            match service::outbox::claim(&pool, worker, limit, config.lease).await {
                Ok(batch) if !batch.is_empty() => {
                    claimed_any = true;
                    if vapid.is_none() && batch.iter().any(|m| m.channel == "push") {
                        match service::push::vapid(&pool).await {
                            Ok(key) => vapid = Some(key),
                            Err(err) => tracing::warn!(%err, "outbox: no VAPID key"),
                        }
                    }
                    read_bodies(&pool, &batch, &mut bodies).await;
                    for mut message in batch {
                        let body = message.body_id.and_then(|id| bodies.get(&id).cloned());
                        if let (Some(text), true) = (&body, message.channel != "webhook") {
                            message.payload = serde_json::from_str(text).unwrap_or_default();
                        }
                        let (pool, client, config) = (pool.clone(), client.clone(), config.clone());
                        let (vapid, mailer, settle) =
                            (vapid.clone(), mailer.clone(), settle.clone());
                        busy.spawn(async move {
                            let how = How {
                                client: &client,
                                config: &config,
                                vapid: vapid.as_ref(),
                                mailer: mailer.as_ref(),
                            };
                            let outcome = deliver(&pool, how, message, body).await;
                            let _ = settle.send(outcome);
                        });
                    }
                }
                Ok(_) => {}
                Err(err) => tracing::warn!(%err, "outbox: cannot claim messages"),
            }
        }
        if claimed_any && busy.len() < places {
            continue;
        }
        if busy.is_empty() {
            tokio::select! {
                _ = tokio::time::sleep(config.idle) => {}
                _ = stop.changed() => {}
            }
        } else {
            tokio::select! {
                _ = busy.join_next() => {}
                _ = tokio::time::sleep(config.idle) => {}
                _ = stop.changed() => {}
            }
        }
    }
    // A graceful stop: the deliveries under way finish (bounded by their timeout) and are
    // settled before the worker ends.
    while busy.join_next().await.is_some() {}
    drop(settle);
    let _ = settler.await;
}

/// Reads the claim's shared bodies this worker does not hold yet (one statement). Kept while
/// few: an event's messages are claimed over many rounds of the loop.
async fn read_bodies(pool: &PgPool, batch: &[Claimed], bodies: &mut HashMap<Uuid, Arc<str>>) {
    let mut missing: Vec<Uuid> = batch
        .iter()
        .filter_map(|m| m.body_id)
        .filter(|id| !bodies.contains_key(id))
        .collect();
    if missing.is_empty() {
        return;
    }
    missing.sort_unstable();
    missing.dedup();
    if bodies.len() + missing.len() > 64 {
        bodies.clear();
    }
    match service::outbox::bodies(pool, &missing).await {
        Ok(read) => bodies.extend(read.into_iter().map(|(id, text)| (id, Arc::from(text)))),
        Err(err) => tracing::warn!(%err, "outbox: cannot read message bodies"),
    }
}

/// Settles what the deliveries send it, in batches, until every sender is gone.
async fn settle_loop(
    pool: PgPool,
    worker: Uuid,
    mut settled: mpsc::UnboundedReceiver<service::outbox::Settled>,
) {
    let mut batch = Vec::new();
    while let Some(first) = settled.recv().await {
        batch.push(first);
        while batch.len() < 1000 {
            match settled.try_recv() {
                Ok(more) => batch.push(more),
                Err(_) => break,
            }
        }
        if let Err(err) = service::outbox::settle(&pool, worker, &batch).await {
            tracing::warn!(%err, count = batch.len(), "outbox: cannot settle messages");
        }
        batch.clear();
    }
}

/// Delivers a push message: written in the subscription's language, encrypted for its browser
/// (RFC 8291), signed (RFC 8292), POSTed to its push service (https only, unless private
/// endpoints are allowed). A 404 or 410 removes the subscription.
async fn push(
    pool: &PgPool,
    client: &client::Client,
    config: &Config,
    vapid: Option<&service::push::Vapid>,
    message: &Claimed,
) -> Result<(), client::Failure> {
    let refuse = |text: &str| client::Failure {
        message: text.into(),
        retry: false,
        status: None,
    };
    let (Some(endpoint), Some(p256dh), Some(auth)) =
        (&message.endpoint, &message.p256dh, &message.auth)
    else {
        return Err(refuse("the subscription is gone"));
    };
    let Some(vapid) = vapid else {
        return Err(client::Failure {
            message: "no VAPID key".into(),
            retry: true,
            status: None,
        });
    };
    if !service::push::check_endpoint(endpoint, config.allow_private) {
        return Err(refuse("the push endpoint is not https (refused)"));
    }
    let lang = message
        .lang
        .as_deref()
        .and_then(crate::i18n::Lang::from_tag)
        .unwrap_or(crate::i18n::Lang::ZhHant);
    let Some(text) = service::push::notification(&message.payload, lang) else {
        return Err(refuse("not a message for a player"));
    };
    let Some(sealed) = service::push::encrypt(text, p256dh, auth) else {
        return Err(refuse("the subscription's keys do not encrypt"));
    };
    let Some(authorization) = vapid.authorization(endpoint, config.push_subject.as_deref()) else {
        return Err(refuse("the push endpoint is not a URL"));
    };
    let headers = [
        ("authorization", authorization),
        ("content-encoding", "aes128gcm".to_string()),
        ("ttl", "86400".to_string()),
        ("urgency", "high".to_string()),
    ];
    let sent = client
        .post_as(
            endpoint,
            "application/octet-stream",
            &headers,
            Bytes::from(sealed),
        )
        .await;
    match sent {
        Err(failure) if matches!(failure.status, Some(404 | 410)) => {
            if let Err(err) = service::push::forget(pool, message.recipient).await {
                tracing::warn!(%err, "outbox: cannot remove a gone subscription");
            }
            Err(client::Failure {
                message: format!("{}: the subscription is gone (removed)", failure.message),
                retry: false,
                status: failure.status,
            })
        }
        other => other.map(|_| ()),
    }
}

/// The delay before attempt `attempts + 1`.
pub fn back_off(config: &Config, attempts: i32) -> Duration {
    let factor = 2u32.saturating_pow(u32::try_from(attempts.max(1) - 1).unwrap_or(0).min(20));
    config
        .retry_base
        .saturating_mul(factor)
        .min(Duration::from_secs(3600))
}

/// What a delivery goes through.
#[derive(Clone, Copy)]
struct How<'a> {
    client: &'a client::Client,
    config: &'a Config,
    vapid: Option<&'a service::push::Vapid>,
    mailer: Option<&'a mail::Mailer>,
}

/// The webhook message: `{"id", "event", "data"}` with `data` the event's JSON text as stored.
fn webhook_body(message: &Claimed, data: &str) -> Bytes {
    let event = serde_json::to_string(&message.event).unwrap_or_else(|_| "\"\"".into());
    let mut body = String::with_capacity(data.len() + event.len() + 64);
    body.push_str("{\"id\":\"");
    body.push_str(&message.outbox_id.to_string());
    body.push_str("\",\"event\":");
    body.push_str(&event);
    body.push_str(",\"data\":");
    body.push_str(data);
    body.push('}');
    Bytes::from(body)
}

/// One attempt at a message (`body`: its shared body's text, when it has one); how it ended.
async fn deliver(
    pool: &PgPool,
    how: How<'_>,
    message: Claimed,
    body: Option<Arc<str>>,
) -> service::outbox::Settled {
    let How {
        client,
        config,
        vapid,
        mailer,
    } = how;
    let outcome = match (&message.url, &message.secret) {
        _ if message.channel == "push" => push(pool, client, config, vapid, &message).await,
        _ if message.channel == "email" => match mailer {
            Some(mailer) => mailer.send(pool, &message).await,
            None => Err(client::Failure {
                message: "e-mail is off (no --smtp-url)".into(),
                retry: false,
                status: None,
            }),
        },
        _ if message.body_id.is_some() && body.is_none() => Err(client::Failure {
            message: "the message's body cannot be read".into(),
            retry: true,
            status: None,
        }),
        (Some(url), Some(secret)) if message.channel == "webhook" => {
            let own;
            let data: &str = match &body {
                Some(text) => text,
                None => {
                    own = serde_json::to_string(&message.payload).unwrap_or_default();
                    &own
                }
            };
            let body = webhook_body(&message, data);
            let headers = [
                ("x-arbiter-signature", signature(secret, &body)),
                ("x-arbiter-event", message.event.clone()),
                ("x-arbiter-delivery", message.outbox_id.to_string()),
            ];
            client.post(url, &headers, body).await.map(|_| ())
        }
        _ => Err(client::Failure {
            message: "the recipient is gone".into(),
            retry: false,
            status: None,
        }),
    };
    match outcome {
        Ok(()) => service::outbox::Settled::Sent(message.outbox_id),
        Err(failure) => {
            let retry = (failure.retry && message.attempts < config.max_attempts)
                .then(|| back_off(config, message.attempts));
            if retry.is_none() {
                tracing::warn!(id = %message.outbox_id, error = %failure.message, "outbox: message failed");
            }
            service::outbox::Settled::Failed {
                id: message.outbox_id,
                error: failure.message,
                retry,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_is_hmac_sha256_of_the_body() {
        // RFC 4231 test case 2.
        assert_eq!(
            signature("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn back_off_doubles_up_to_an_hour() {
        let config = Config::default();
        assert_eq!(back_off(&config, 1), Duration::from_secs(10));
        assert_eq!(back_off(&config, 3), Duration::from_secs(40));
        assert_eq!(back_off(&config, 30), Duration::from_secs(3600));
    }
}
