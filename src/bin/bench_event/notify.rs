//! `bench_event notify` (issue #37): the outbox's figures against a real server process.
//! The server runs with `--allow-private-endpoints` and its own delivery worker (default
//! settings); this process is the receiving end (a webhook receiver that checks every
//! signature, and a push service that decrypts every notification with the subscriber's
//! private key). Two tournaments of 1,000 entrants each: one with 1,000 webhooks, one with a
//! push subscription per player. For each, round 1 is paired and then published, timed: the
//! publication's request (its one transaction queues the 1,000 messages), and the delivery,
//! from the publication's answer to the 1,000th message received (and settled as sent).

use super::{json, section_with};
use anyhow::{bail, Context as _};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Entrants per section, and so messages per publication.
const ENTRANTS: usize = 1000;
/// Every webhook's secret.
const SECRET: &str = "bench-webhook-secret-0123456789";

/// What the receiving end saw.
#[derive(Default)]
struct Seen {
    /// Distinct paths that received a good message (a signed webhook, a push that decrypts).
    good: HashSet<String>,
    /// Good messages, duplicates included.
    count: usize,
    /// Messages that did not check (bad signature, did not decrypt).
    bad: usize,
    first: Option<Instant>,
    last: Option<Instant>,
}

#[derive(Clone)]
struct Receiving {
    seen: Arc<Mutex<Seen>>,
    browser: Arc<p256::SecretKey>,
    auth: [u8; 16],
}

impl Receiving {
    fn note(&self, path: String, good: bool) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        seen.first.get_or_insert(now);
        seen.last = Some(now);
        if good {
            seen.count += 1;
            seen.good.insert(path);
        } else {
            seen.bad += 1;
        }
    }
}

async fn webhook(
    State(r): State<Receiving>,
    Path(path): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let signature = headers
        .get("x-arbiter-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    r.note(
        path,
        signature == arbiter::delivery::signature(SECRET, &body),
    );
    StatusCode::OK
}

async fn push(State(r): State<Receiving>, Path(path): Path<String>, body: Bytes) -> StatusCode {
    let auth = web_push_native::Auth::clone_from_slice(&r.auth);
    let opened = web_push_native::decrypt(body.to_vec(), &r.browser, &auth)
        .ok()
        .and_then(|plain| serde_json::from_slice::<serde_json::Value>(&plain).ok())
        .is_some_and(|notice| notice["round"] == 1 && notice.get("board").is_some());
    r.note(path, opened);
    StatusCode::CREATED
}

/// A tournament with one section of `ENTRANTS` entrants: (tournament, section).
fn event(port: u16, token: &str, name: &str) -> anyhow::Result<(String, String)> {
    let t = json(
        port,
        "POST",
        "/api/v1/tournaments",
        token,
        &format!(r#"{{"name":"{name}","game":"xiangqi"}}"#),
    )?;
    let tid = t["id"].as_str().context("tournament id")?.to_string();
    let csv: String = std::iter::once("name,rating,club\n".to_string())
        .chain((1..=ENTRANTS).map(|i| format!("Player {i},{},Club {}\n", 1000 + i, i % 40)))
        .collect();
    let section = section_with(port, token, &tid, "Open", 3, "dutch", &csv)?;
    Ok((tid, section))
}

/// Pairs and publishes round 1, then waits for the receiving end: prints the figures.
fn figures(
    port: u16,
    token: &str,
    what: &str,
    (tid, section): (&str, &str),
    r: &Receiving,
    runtime: &tokio::runtime::Runtime,
    pool: &sqlx::PgPool,
) -> anyhow::Result<()> {
    json(
        port,
        "POST",
        &format!("/api/v1/sections/{section}/rounds"),
        token,
        "",
    )?;
    *r.seen.lock().unwrap_or_else(|e| e.into_inner()) = Seen::default();
    let clock = Instant::now();
    json(
        port,
        "POST",
        &format!("/api/v1/sections/{section}/rounds/1/publish"),
        token,
        "",
    )?;
    let publication = clock.elapsed();
    let delivered_from = Instant::now();
    // Every message is there as soon as the publication answers (its transaction queued them).
    let queued: i64 = runtime.block_on(
        sqlx::query_scalar("select count(*) from outbox where tournament_id = $1::uuid")
            .bind(tid)
            .fetch_one(pool),
    )?;
    loop {
        let seen = r.seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.count + seen.bad >= ENTRANTS {
            break;
        }
        drop(seen);
        if delivered_from.elapsed() > Duration::from_secs(300) {
            bail!("{what}: not delivered within 300 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let delivery = delivered_from.elapsed();
    // And settled: the desk's counts say sent.
    let sent = loop {
        let sent: i64 = runtime.block_on(
            sqlx::query_scalar(
                "select count(*) from outbox where tournament_id = $1::uuid and status = 'sent'",
            )
            .bind(tid)
            .fetch_one(pool),
        )?;
        if sent >= queued || delivered_from.elapsed() > Duration::from_secs(300) {
            break sent;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let settled = delivered_from.elapsed();
    let seen = r.seen.lock().unwrap_or_else(|e| e.into_inner());
    let span = match (seen.first, seen.last) {
        (Some(first), Some(last)) => last - first,
        _ => Duration::ZERO,
    };
    println!(
        "{what}: publication (queues {queued} in its transaction) {:.0} ms; \
         delivered {} (distinct {}, bad {}) in {:.2} s = {:.0} messages/s \
         (first to last received: {:.0}/s); all {sent} settled sent after {:.2} s",
        publication.as_secs_f64() * 1000.0,
        seen.count,
        seen.good.len(),
        seen.bad,
        delivery.as_secs_f64(),
        ENTRANTS as f64 / delivery.as_secs_f64(),
        ENTRANTS as f64 / span.as_secs_f64().max(1e-3),
        settled.as_secs_f64(),
    );
    if seen.bad > 0 || seen.good.len() != ENTRANTS || sent != queued {
        bail!("{what}: not every message arrived once, checked and settled");
    }
    Ok(())
}

/// The benchmark (see the module's comment); `url` is the server's database.
pub fn run(
    port: u16,
    token: &str,
    url: &str,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<()> {
    let browser = p256::SecretKey::random(&mut rand_core::OsRng);
    let r = Receiving {
        seen: Arc::default(),
        browser: Arc::new(browser),
        auth: [7; 16],
    };
    let app = Router::new()
        .route("/hook/{path}", post(webhook))
        .route("/push/{path}", post(push))
        .with_state(r.clone());
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))?;
    let base = format!("http://127.0.0.1:{}", listener.local_addr()?.port());
    runtime.spawn(async move { axum::serve(listener, app).await });
    let pool = runtime.block_on(sqlx::PgPool::connect(url))?;

    // 1,000 webhooks of one tournament (written directly: the setup is not what is measured).
    let hooks = event(port, token, "Notify Webhooks")?;
    runtime.block_on(
        sqlx::query(
            "insert into webhook (tournament_id, url, secret)
             select $1::uuid, $2 || '/hook/n' || g, $3 from generate_series(1, $4) g",
        )
        .bind(&hooks.0)
        .bind(&base)
        .bind(SECRET)
        .bind(ENTRANTS as i32)
        .execute(&pool),
    )?;
    figures(
        port,
        token,
        "webhooks",
        (&hooks.0, &hooks.1),
        &r,
        runtime,
        &pool,
    )?;

    // A push subscription per player of another tournament.
    let pushes = event(port, token, "Notify Push")?;
    let public = r.browser.public_key().to_encoded_point(false);
    runtime.block_on(
        sqlx::query(
            "insert into push_subscription (entrant_id, endpoint, p256dh, auth, lang)
             select entrant_id, $2 || '/push/n' || start_no, $3, $4, 'en' from entrant
              where section_id = $1::uuid",
        )
        .bind(&pushes.1)
        .bind(&base)
        .bind(URL_SAFE_NO_PAD.encode(public.as_bytes()))
        .bind(URL_SAFE_NO_PAD.encode(r.auth))
        .execute(&pool),
    )?;
    figures(
        port,
        token,
        "web push",
        (&pushes.0, &pushes.1),
        &r,
        runtime,
        &pool,
    )?;
    runtime.block_on(pool.close());
    Ok(())
}
