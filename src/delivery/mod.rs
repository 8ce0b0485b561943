//! The outbox's workers (issue #37): a tokio task started with the server claims due messages
//! (`service::outbox::claim`: `FOR UPDATE SKIP LOCKED` with a lease, so several instances share
//! the queue and each message is claimed by one), delivers them side by side, and settles each
//! (sent; retried after a back-off that doubles from `retry_base`; or failed after
//! `max_attempts`, or at once when retrying cannot help). Only the claimant settles a row; a
//! worker that dies leaves its claims to run out (`lease`), and another worker takes them.
//! A graceful stop finishes the deliveries under way and claims nothing more.
//!
//! Webhooks get the message as JSON (`{"id", "event", "data"}`), signed
//! `X-Arbiter-Signature: sha256=<hex HMAC-SHA256 of the body with the webhook's secret>`,
//! with `X-Arbiter-Event` and `X-Arbiter-Delivery` (the message id, the same on every retry:
//! a receiver that keeps the ids it saw takes each message once even when a worker was killed
//! between the receiver's answer and its own record of it).

pub mod client;
pub mod guard;

use crate::service;
use crate::service::outbox::Claimed;
use axum::body::Bytes;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use sqlx::PgPool;
use std::time::Duration;
use tokio::sync::watch;
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

/// A worker's loop.
pub async fn run(pool: PgPool, config: Config, mut stop: watch::Receiver<bool>) {
    let worker = Uuid::new_v4();
    let client = client::Client::new(config.allow_private, config.timeout);
    loop {
        if *stop.borrow() {
            break;
        }
        match service::outbox::claim(&pool, worker, config.batch, config.lease).await {
            Ok(batch) if !batch.is_empty() => {
                let mut set = tokio::task::JoinSet::new();
                for message in batch {
                    let (pool, client, config) = (pool.clone(), client.clone(), config.clone());
                    set.spawn(async move {
                        deliver(&pool, &client, &config, worker, message).await;
                    });
                }
                while set.join_next().await.is_some() {}
                continue;
            }
            Ok(_) => {}
            Err(err) => tracing::warn!(%err, "outbox: cannot claim messages"),
        }
        tokio::select! {
            _ = tokio::time::sleep(config.idle) => {}
            _ = stop.changed() => {}
        }
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

async fn deliver(
    pool: &PgPool,
    client: &client::Client,
    config: &Config,
    worker: Uuid,
    message: Claimed,
) {
    let outcome = match (&message.url, &message.secret) {
        (Some(url), Some(secret)) if message.channel == "webhook" => {
            let body = serde_json::json!({
                "id": message.outbox_id,
                "event": message.event,
                "data": message.payload,
            });
            let body = Bytes::from(serde_json::to_vec(&body).unwrap_or_default());
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
    let settled = match outcome {
        Ok(()) => service::outbox::sent(pool, message.outbox_id, worker).await,
        Err(failure) => {
            let retry = (failure.retry && message.attempts < config.max_attempts)
                .then(|| back_off(config, message.attempts));
            if retry.is_none() {
                tracing::warn!(id = %message.outbox_id, error = %failure.message, "outbox: message failed");
            }
            service::outbox::attempt_failed(
                pool,
                message.outbox_id,
                worker,
                &failure.message,
                retry,
            )
            .await
        }
    };
    if let Err(err) = settled {
        tracing::warn!(%err, id = %message.outbox_id, "outbox: cannot settle a message");
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
