//! Web push (issue #37): players' browsers subscribe through their keys; publishing a round
//! queues one message per subscription in the publication's transaction; two workers deliver
//! each once to a push receiver started here, which checks the VAPID signature and DECRYPTS
//! the payload with the subscriber's private key (RFC 8291) to read board, colour and opponent
//! in the subscriber's language; a 410 removes the subscription; a failing endpoint is retried
//! and then reported to the desk; http endpoints are refused without the flag.

use crate::support::{call, expect, publish, state, Event, Reply};
use arbiter::delivery::{self, Config};
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Request, StatusCode};
use axum::routing::post;
use axum::Router;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use http_body_util::BodyExt as _;
use p256::ecdsa::signature::Verifier as _;
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use serde_json::{json, Value};
use sqlx::PgPool;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tower::ServiceExt as _;

/// One push the receiver got.
#[derive(Debug, Clone)]
struct Pushed {
    path: String,
    authorization: String,
    encoding: String,
    body: Bytes,
}

#[derive(Clone, Default)]
struct PushService {
    hits: Arc<Mutex<Vec<Pushed>>>,
    /// Per path: the status answered (201 when none).
    answers: Arc<Mutex<HashMap<String, u16>>>,
}

async fn receive(
    State(r): State<PushService>,
    Path(path): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    r.hits.lock().unwrap().push(Pushed {
        path: path.clone(),
        authorization: header("authorization"),
        encoding: header("content-encoding"),
        body,
    });
    let status = r.answers.lock().unwrap().get(&path).copied().unwrap_or(201);
    StatusCode::from_u16(status).unwrap()
}

/// A push service on a free local port: (its base URL, its state).
async fn push_service() -> (String, PushService) {
    let r = PushService::default();
    let app = Router::new()
        .route("/push/{path}", post(receive))
        .with_state(r.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://127.0.0.1:{port}/push"), r)
}

/// A browser's side of a subscription: its private key and auth secret.
struct Browser {
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    fn new(n: u8) -> Browser {
        Browser {
            secret: p256::SecretKey::random(&mut rand_core::OsRng),
            auth: [n; 16],
        }
    }

    /// The `PushSubscription` JSON a browser gives.
    fn subscription(&self, endpoint: &str) -> Value {
        let public = self.secret.public_key().to_encoded_point(false);
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(public.as_bytes()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            }
        })
    }

    fn open(&self, body: &[u8]) -> Value {
        let plain = web_push_native::decrypt(
            body.to_vec(),
            &self.secret,
            &web_push_native::Auth::clone_from_slice(&self.auth),
        )
        .expect("decrypts with the subscriber's key");
        serde_json::from_slice(&plain).unwrap()
    }
}

/// A request to a server started with `--allow-private-endpoints` (the push service here is
/// on 127.0.0.1 over http).
async fn call_open(pool: &PgPool, method: &str, uri: &str, body: Value, lang: &str) -> Reply {
    let mut s = state(pool);
    let mut security = (*s.security).clone();
    security.allow_private_endpoints = true;
    s.security = Arc::new(security);
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .header("accept-language", lang)
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = arbiter::http::app(s).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        content_type: String::new(),
        headers: Default::default(),
        text: String::from_utf8_lossy(&bytes).to_string(),
    }
}

fn config() -> Config {
    Config {
        allow_private: true,
        batch: 8,
        lease: Duration::from_secs(30),
        retry_base: Duration::from_millis(100),
        max_attempts: 3,
        idle: Duration::from_millis(20),
        timeout: Duration::from_secs(5),
        push_subject: Some("mailto:desk@example.org".into()),
        mail: None,
    }
}

async fn deliveries(pool: &PgPool, token: &str, tid: &str) -> Value {
    expect(
        &call(
            pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/deliveries"),
            Some(token),
            None,
        )
        .await,
        StatusCode::OK,
    )
}

async fn drained(pool: &PgPool, token: &str, tid: &str) -> Value {
    for _ in 0..1200 {
        let d = deliveries(pool, token, tid).await;
        if d["pending"] == 0 {
            return d;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("still pending: {}", deliveries(pool, token, tid).await);
}

/// The section's keys by starting number.
async fn keys(pool: &PgPool, token: &str, sid: &str) -> HashMap<i64, String> {
    let list = expect(
        &call(
            pool,
            "GET",
            &format!("/api/v1/sections/{sid}/keys"),
            Some(token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    list.as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["start_no"].as_i64().unwrap(),
                k["key"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[sqlx::test]
async fn publication_pushes_each_subscriber_their_board_encrypted_once(pool: PgPool) {
    let made = Event::new(&pool)
        .section(json!({"rounds": 3}))
        .entrants(6)
        .await;
    let (token, tid, sid) = (
        made.client.token.clone(),
        made.tournament.0.clone(),
        made.sections[0].0.clone(),
    );
    let keys = keys(&pool, &token, &sid).await;
    let (base, service) = push_service().await;
    service.answers.lock().unwrap().insert("gone".into(), 410);

    // The server's public key: made once, the same on every call.
    let key = expect(
        &call(&pool, "GET", "/api/v1/push/key", None, None).await,
        StatusCode::OK,
    );
    let public = key["public_key"].as_str().unwrap().to_string();
    assert_eq!(URL_SAFE_NO_PAD.decode(&public).unwrap().len(), 65);
    let again = expect(
        &call(&pool, "GET", "/api/v1/push/key", None, None).await,
        StatusCode::OK,
    );
    assert_eq!(again["public_key"], public.as_str());

    // Player 1 on two browsers (English, and zh-Hant from the body), player 2 on one, player 3
    // on a browser whose push service has forgotten it (410); the others not at all.
    let browsers: Vec<(i64, &str, Option<&str>, Browser)> = vec![
        (1, "p1-en", None, Browser::new(1)),
        (1, "p1-hant", Some("zh-Hant"), Browser::new(2)),
        (2, "p2", None, Browser::new(3)),
        (3, "gone", None, Browser::new(4)),
    ];
    for (no, path, lang, browser) in &browsers {
        let mut body = browser.subscription(&format!("{base}/{path}"));
        if let Some(lang) = lang {
            body["lang"] = json!(lang);
        }
        let reply = call_open(
            &pool,
            "POST",
            &format!("/api/v1/keys/{}/push", keys[no]),
            body,
            "en",
        )
        .await;
        let saved = expect(&reply, StatusCode::CREATED);
        assert_eq!(saved["lang"], lang.unwrap_or("en"));
    }
    // Subscribing again renews, never doubles.
    let reply = call_open(
        &pool,
        "POST",
        &format!("/api/v1/keys/{}/push", keys[&2]),
        browsers[2].3.subscription(&format!("{base}/p2")),
        "en",
    )
    .await;
    assert_eq!(expect(&reply, StatusCode::CREATED)["subscriptions"], 1);

    let round = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    let queued = |pool: PgPool| async move {
        sqlx::query_scalar::<_, i64>("select count(*) from outbox where channel = 'push'")
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    assert_eq!(queued(pool.clone()).await, 0, "a draft is not announced");
    publish(&pool, &token, &sid, 1).await;
    publish(&pool, &token, &sid, 1).await;
    assert_eq!(queued(pool.clone()).await, 4, "one per subscription, once");

    // Two workers at once.
    let (stop, stops) = watch::channel(false);
    let first = delivery::spawn(pool.clone(), config(), stops.clone());
    let second = delivery::spawn(pool.clone(), config(), stops);
    let d = drained(&pool, &token, &tid).await;
    stop.send(true).unwrap();
    first.await.unwrap();
    second.await.unwrap();
    assert_eq!(
        (d["sent"].as_i64(), d["failed"].as_i64()),
        (Some(3), Some(1)),
        "{d}"
    );

    let hits = service.hits.lock().unwrap().clone();
    assert_eq!(hits.len(), 4, "each message once: {hits:?}");
    // The boards as the round has them: (start number) → (board, side, opponent's number).
    let mut expected = HashMap::new();
    for b in round["boards"].as_array().unwrap() {
        let red = b["red"]["start_no"].as_i64().unwrap();
        let black = b["black"]["start_no"].as_i64();
        let board = b["number"].as_i64().unwrap();
        if let Some(black) = black {
            expected.insert(red, (board, "red", black));
            expected.insert(black, (board, "black", red));
        }
    }
    for hit in &hits {
        assert_eq!(hit.encoding, "aes128gcm");
        // VAPID (RFC 8292): a JWT for this origin signed by the server's key.
        let rest = hit.authorization.strip_prefix("vapid t=").unwrap();
        let (token_part, k) = rest.split_once(", k=").unwrap();
        assert_eq!(k, public);
        let (input, signature) = token_part.rsplit_once('.').unwrap();
        let claims: Value = serde_json::from_slice(
            &URL_SAFE_NO_PAD
                .decode(input.split('.').nth(1).unwrap())
                .unwrap(),
        )
        .unwrap();
        assert_eq!(claims["aud"], base.trim_end_matches("/push"));
        assert_eq!(claims["sub"], "mailto:desk@example.org");
        let verifying =
            p256::ecdsa::VerifyingKey::from_sec1_bytes(&URL_SAFE_NO_PAD.decode(k).unwrap())
                .unwrap();
        let signature =
            p256::ecdsa::Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap())
                .unwrap();
        verifying.verify(input.as_bytes(), &signature).unwrap();

        let (no, _, lang, browser) = browsers.iter().find(|b| b.1 == hit.path).unwrap();
        let message = browser.open(&hit.body);
        let (board, side, opponent) = expected[no];
        assert_eq!(message["round"], 1);
        assert_eq!(message["board"], board, "{message}");
        assert_eq!(message["side"], side, "{message}");
        assert_eq!(message["opponent"]["start_no"], opponent, "{message}");
        let body = message["body"].as_str().unwrap();
        match lang {
            Some("zh-Hant") => {
                assert!(body.contains(&format!("第 {board} 台")), "{body}");
                assert!(
                    body.contains(if side == "red" { "紅方" } else { "黑方" }),
                    "{body}"
                );
                assert_eq!(message["title"], "Open · 第 1 輪");
            }
            _ => {
                assert!(
                    body.starts_with(&format!("Board {board}: you play ")),
                    "{body}"
                );
                assert_eq!(message["title"], "Open · round 1");
            }
        }
        assert!(
            message.get("email").is_none() && !message.to_string().contains(&keys[no]),
            "nothing beyond the player's own page"
        );
    }

    // The 410 removed its subscription (and with it where it was); the desk sees the error.
    let left: Vec<String> = sqlx::query_scalar("select endpoint from push_subscription")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(left.len(), 3);
    assert!(left.iter().all(|e| !e.ends_with("/gone")));
    let failure = &d["failures"][0];
    assert_eq!(failure["channel"], "push");
    assert!(failure["url"].is_null(), "{failure}");
    assert!(
        failure["error"].as_str().unwrap().contains("410"),
        "{failure}"
    );
    assert!(
        failure["error"].as_str().unwrap().contains("gone"),
        "{failure}"
    );

    // Unsubscribing: DELETE with the endpoint; a second time is 404.
    for status in [StatusCode::NO_CONTENT, StatusCode::NOT_FOUND] {
        let reply = call(
            &pool,
            "DELETE",
            &format!("/api/v1/keys/{}/push", keys[&2]),
            None,
            Some(json!({"endpoint": format!("{base}/p2")})),
        )
        .await;
        assert_eq!(reply.status, status, "{}", reply.text);
    }
}

#[sqlx::test]
async fn a_failing_push_service_is_retried_then_reported(pool: PgPool) {
    let made = Event::new(&pool)
        .section(json!({"rounds": 3}))
        .entrants(2)
        .await;
    let (token, tid, sid) = (
        made.client.token.clone(),
        made.tournament.0.clone(),
        made.sections[0].0.clone(),
    );
    let keys = keys(&pool, &token, &sid).await;
    let (base, service) = push_service().await;
    service.answers.lock().unwrap().insert("down".into(), 503);
    let browser = Browser::new(9);
    expect(
        &call_open(
            &pool,
            "POST",
            &format!("/api/v1/keys/{}/push", keys[&1]),
            browser.subscription(&format!("{base}/down")),
            "en",
        )
        .await,
        StatusCode::CREATED,
    );
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    publish(&pool, &token, &sid, 1).await;
    let (stop, stops) = watch::channel(false);
    let worker = delivery::spawn(pool.clone(), config(), stops);
    let d = drained(&pool, &token, &tid).await;
    stop.send(true).unwrap();
    worker.await.unwrap();
    assert_eq!(
        (d["sent"].as_i64(), d["failed"].as_i64()),
        (Some(0), Some(1))
    );
    assert_eq!(service.hits.lock().unwrap().len(), 3, "three attempts");
    let failure = &d["failures"][0];
    assert_eq!(
        (failure["status"].as_str(), failure["attempts"].as_i64()),
        (Some("failed"), Some(3))
    );
    assert_eq!(failure["error"], "answered 503");
    // The desk sees the push service's host, not the endpoint (a capability).
    assert_eq!(failure["url"], base.trim_end_matches("/push"));
    // A 503 is not a gone subscription: it stays.
    let left: i64 = sqlx::query_scalar("select count(*) from push_subscription")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(left, 1);
}

#[sqlx::test]
async fn subscriptions_are_checked(pool: PgPool) {
    let made = Event::new(&pool).entrants(2).await;
    let (token, sid) = (made.client.token.clone(), made.sections[0].0.clone());
    let keys = keys(&pool, &token, &sid).await;
    let browser = Browser::new(5);
    let uri = format!("/api/v1/keys/{}/push", keys[&1]);
    // Without the flag: https only.
    let reply = call(
        &pool,
        "POST",
        &uri,
        None,
        Some(browser.subscription("http://push.example.org/x")),
    )
    .await;
    let body = expect(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body.to_string().contains("check.push_endpoint"), "{body}");
    // Keys that are not a browser's.
    let mut bad = browser.subscription("https://push.example.org/x");
    bad["keys"]["p256dh"] = json!("AAAA");
    bad["keys"]["auth"] = json!("short");
    let body = expect(
        &call(&pool, "POST", &uri, None, Some(bad)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(body.to_string().contains("keys.p256dh"), "{body}");
    assert!(body.to_string().contains("keys.auth"), "{body}");
    // A wrong key opens nothing.
    let reply = call(
        &pool,
        "POST",
        "/api/v1/keys/0000000000000000/push",
        None,
        Some(browser.subscription("https://push.example.org/x")),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    // An https endpoint is taken; the event's language when the request names none.
    let saved = expect(
        &call(
            &pool,
            "POST",
            &uri,
            None,
            Some(browser.subscription("https://push.example.org/x")),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(saved["lang"], "zh-Hant");
    // The service worker is served under the key.
    let sw = crate::support::get(&pool, &format!("/k/{}/sw.js", keys[&1])).await;
    assert_eq!(sw.status, StatusCode::OK);
    assert!(sw.content_type.starts_with("text/javascript"));
    assert!(sw.text.contains("showNotification"));
}

/// Benchmark (issue #37; `cargo test --release --test integration -- --ignored bench_push`):
/// a 1,000-entrant section with one push subscription per player queues its 1,000 notices in
/// the publication's own transaction, and one worker encrypts, signs and delivers them to a
/// local push service. Prints the figures; asserts only that each arrives once.
#[sqlx::test]
#[ignore = "benchmark"]
async fn bench_push_publication_queues_at_once_and_the_worker_keeps_up(pool: PgPool) {
    let made = Event::new(&pool)
        .section(json!({"rounds": 3, "pairing_system": "dutch"}))
        .entrants(1000)
        .await;
    let (token, tid, sid) = (
        made.client.token.clone(),
        made.tournament.0.clone(),
        made.sections[0].0.clone(),
    );
    let (base, service) = push_service().await;
    let browser = Browser::new(1);
    let subscription = browser.subscription("x");
    sqlx::query(
        "insert into push_subscription (entrant_id, endpoint, p256dh, auth, lang)
         select entrant_id, $2 || '/n' || start_no, $3, $4, 'en' from entrant
          where section_id = $1::uuid",
    )
    .bind(&sid)
    .bind(&base)
    .bind(subscription["keys"]["p256dh"].as_str().unwrap())
    .bind(subscription["keys"]["auth"].as_str().unwrap())
    .execute(&pool)
    .await
    .unwrap();
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    let started = std::time::Instant::now();
    publish(&pool, &token, &sid, 1).await;
    let publishing = started.elapsed();
    let queued: i64 = sqlx::query_scalar("select count(*) from outbox where channel = 'push'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(queued, 1000);
    let started = std::time::Instant::now();
    let (stop, stops) = watch::channel(false);
    let bench = Config {
        batch: 64,
        ..config()
    };
    let worker = delivery::spawn(pool.clone(), bench, stops);
    let d = drained(&pool, &token, &tid).await;
    let rate = 1000.0 / started.elapsed().as_secs_f64();
    stop.send(true).unwrap();
    worker.await.unwrap();
    assert_eq!(d["sent"], 1000);
    assert_eq!(service.hits.lock().unwrap().len(), 1000);
    println!(
        "publication with 1000 push subscriptions queued: {:.0} ms; delivery: {rate:.0} messages/s",
        publishing.as_secs_f64() * 1000.0
    );
}

/// Players are told when the schedule slips: a round's planned start that changes queues a
/// push to each subscription of the section's players (in the change's transaction, once per
/// change), saying the round and its new start in the event's zone and the player's language;
/// the first planning of a start is no news.
#[sqlx::test]
async fn a_slipped_round_start_is_pushed_to_the_players(pool: PgPool) {
    let made = Event::new(&pool)
        .section(json!({"rounds": 3}))
        .entrants(4)
        .await;
    let (token, tid, sid) = (
        made.client.token.clone(),
        made.tournament.0.clone(),
        made.sections[0].0.clone(),
    );
    expect(
        &call(
            &pool,
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            Some(&token),
            Some(json!({"time_zone": "Asia/Taipei"})),
        )
        .await,
        StatusCode::OK,
    );
    let keys = keys(&pool, &token, &sid).await;
    let (base, service) = push_service().await;
    let browsers = [(1, "en", Browser::new(1)), (2, "zh-Hant", Browser::new(2))];
    for (no, lang, browser) in &browsers {
        let mut body = browser.subscription(&format!("{base}/p{no}"));
        body["lang"] = json!(lang);
        let uri = format!("/api/v1/keys/{}/push", keys[no]);
        expect(
            &call_open(&pool, "POST", &uri, body, "en").await,
            StatusCode::CREATED,
        );
    }
    let schedule = |local: &str| json!({"rounds": [{"round": 1, "local": "2026-12-08T09:00"}, {"round": 2, "local": local}]});
    let put = |body: Value| {
        let pool = pool.clone();
        let (token, sid) = (token.clone(), sid.clone());
        async move {
            expect(
                &call(
                    &pool,
                    "PUT",
                    &format!("/api/v1/sections/{sid}/schedule"),
                    Some(&token),
                    Some(body),
                )
                .await,
                StatusCode::OK,
            );
        }
    };
    // First planned: no push. Then round 2 slips from 14:00 to 15:30, saved twice.
    put(schedule("2026-12-08T14:00")).await;
    let queued = |pool: PgPool| async move {
        sqlx::query_scalar::<_, i64>("select count(*) from outbox where channel = 'push'")
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    assert_eq!(queued(pool.clone()).await, 0);
    put(schedule("2026-12-08T15:30")).await;
    put(schedule("2026-12-08T15:30")).await;
    assert_eq!(
        queued(pool.clone()).await,
        2,
        "one per subscription and change"
    );
    let (stop, stops) = watch::channel(false);
    let worker = delivery::spawn(pool.clone(), config(), stops);
    let d = drained(&pool, &token, &tid).await;
    stop.send(true).unwrap();
    worker.await.unwrap();
    assert_eq!(d["sent"], 2, "{d}");
    let hits = service.hits.lock().unwrap().clone();
    assert_eq!(hits.len(), 2);
    for (no, lang, browser) in &browsers {
        let hit = hits.iter().find(|h| h.path == format!("p{no}")).unwrap();
        let notice = browser.open(&hit.body);
        assert_eq!(notice["kind"], "schedule", "{notice}");
        assert_eq!(notice["round"], 2);
        assert_eq!(notice["lang"], *lang);
        let text = notice["body"].as_str().unwrap();
        let want = if *lang == "en" {
            "Round 2 now starts at 2026-12-08 15:30."
        } else {
            "第 2 輪改於 2026-12-08 15:30 開始。"
        };
        assert_eq!(text, want, "{notice}");
        assert!(notice.get("board").is_none_or(Value::is_null), "{notice}");
    }
}
