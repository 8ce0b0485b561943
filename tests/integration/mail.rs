//! E-mail (issue #37) through a real SMTP server started here (Python's aiosmtpd,
//! `smtp_sink.py`): registrants who opt in get a confirmation with their key link and each
//! published round's pairing, plain text + HTML in their language, with `List-Unsubscribe`;
//! publishing delivers exactly one message per opted-in player; a worker stopped in the middle
//! leaves the rest, which two workers then deliver each once; one-click unsubscribe stops the
//! next round's message; a refusing server is retried and then reported; addresses never
//! reach other players.

use crate::support::{admin_token, call, expect, publish, state, tournament_with_section, Reply};
use arbiter::delivery::mail::Settings;
use arbiter::delivery::{self, Config};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt as _;
use serde_json::{json, Value};
use sqlx::PgPool;
use std::collections::{HashMap, HashSet};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncBufReadExt as _;
use tokio::sync::watch;
use tower::ServiceExt as _;

/// The SMTP server: its port, the file of what it accepted, the process (killed on drop).
struct Smtp {
    port: u16,
    file: std::path::PathBuf,
    _dir: tempfile::TempDir,
    _child: tokio::process::Child,
}

impl Smtp {
    async fn start() -> Smtp {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mail.jsonl");
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/integration/smtp_sink.py"
        );
        let mut child = tokio::process::Command::new("python3")
            .arg(script)
            .arg(port.to_string())
            .arg(&file)
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("python3 (with aiosmtpd: pip install 'aiosmtpd>=1.4,<2')");
        let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let ready = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
            .await
            .expect("the SMTP server starts")
            .unwrap();
        assert_eq!(ready.as_deref(), Some("ready"), "aiosmtpd installed?");
        Smtp {
            port,
            file,
            _dir: dir,
            _child: child,
        }
    }

    fn messages(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.file)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    fn config(&self) -> Config {
        Config {
            allow_private: true,
            batch: 2,
            lease: Duration::from_secs(30),
            retry_base: Duration::from_millis(100),
            max_attempts: 3,
            idle: Duration::from_millis(20),
            timeout: Duration::from_secs(5),
            push_subject: None,
            mail: Some(Settings {
                url: format!("smtp://127.0.0.1:{}?tls=none", self.port),
                from: "Arbiter Desk <desk@arbiter.example>".into(),
                links: "https://chess.example.org".into(),
            }),
        }
    }
}

/// A request to a server started with `--smtp-url` (the form offers the opt-in).
async fn call_mail(pool: &PgPool, method: &str, uri: &str, body: Option<(&str, String)>) -> Reply {
    let mut s = state(pool);
    let mut security = (*s.security).clone();
    security.email_on = true;
    s.security = Arc::new(security);
    let builder = Request::builder().method(method).uri(uri);
    let request = match body {
        Some((content_type, body)) => builder
            .header("content-type", content_type)
            .body(Body::from(body)),
        None => builder.body(Body::empty()),
    }
    .unwrap();
    let response = arbiter::http::app(s).oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        content_type: String::new(),
        headers,
        text: String::from_utf8_lossy(&bytes).to_string(),
    }
}

async fn register(
    pool: &PgPool,
    sid: &str,
    (name, email, opt_in, lang): (&str, &str, bool, &str),
    rating: i64,
) -> Value {
    let body = json!({
        "name": name, "email": email, "email_notifications": opt_in, "lang": lang,
        "rating": rating
    });
    expect(
        &call_mail(
            pool,
            "POST",
            &format!("/api/v1/sections/{sid}/registrations"),
            Some(("application/json", body.to_string())),
        )
        .await,
        StatusCode::CREATED,
    )
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

#[sqlx::test]
async fn each_opted_in_player_gets_one_message_per_event_across_a_restart_and_two_workers(
    pool: PgPool,
) {
    let smtp = Smtp::start().await;
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3})).await;
    // Four opt in (English, Simplified Chinese), one does not, one opts in without an address
    // (refused: the form says what to fix).
    let players: [(&str, &str, bool, &str); 5] = [
        ("Ann", "ann@players.example", true, "en"),
        ("Ben", "ben@players.example", true, "en"),
        ("陈静", "chen@players.example", true, "zh-Hans"),
        ("Dora", "dora@players.example", true, "en"),
        ("Eve", "eve@players.example", false, "en"),
    ];
    // Eve, rated lowest, has round 1's bye.
    for (i, player) in players.iter().enumerate() {
        let r = register(&pool, &sid, *player, 2100 - 10 * i as i64).await;
        assert_eq!(r["status"], "confirmed");
        assert!(r.get("email").is_none(), "no address in the public answer");
    }
    let refused = call_mail(
        &pool,
        "POST",
        &format!("/api/v1/sections/{sid}/registrations"),
        Some((
            "application/json",
            json!({"name": "Fay", "email_notifications": true}).to_string(),
        )),
    )
    .await;
    let body = expect(&refused, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        body.to_string().contains("check.email_for_notifications"),
        "{body}"
    );

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
    publish(&pool, &token, &sid, 1).await;
    let queued: i64 = sqlx::query_scalar("select count(*) from outbox where channel = 'email'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(queued, 8, "4 confirmations and 4 pairings");
    let in_rows: i64 = sqlx::query_scalar(
        "select count(*) from outbox where payload::text like '%players.example%'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        in_rows, 0,
        "addresses are read at delivery, never stored in a message"
    );

    // A worker stopped in the middle (a restart) …
    let (stop, stops) = watch::channel(false);
    let first = delivery::spawn(pool.clone(), smtp.config(), stops);
    for _ in 0..400 {
        if !smtp.messages().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    stop.send(true).unwrap();
    first.await.unwrap();
    let after_first = smtp.messages().len();
    assert!(
        (1..8).contains(&after_first),
        "stopped in the middle: {after_first}"
    );
    // … and two instances deliver the rest.
    let (stop, stops) = watch::channel(false);
    let a = delivery::spawn(pool.clone(), smtp.config(), stops.clone());
    let b = delivery::spawn(pool.clone(), smtp.config(), stops);
    let d = drained(&pool, &token, &tid).await;
    stop.send(true).unwrap();
    a.await.unwrap();
    b.await.unwrap();
    assert_eq!(d["sent"], 8, "{d}");

    let messages = smtp.messages();
    assert_eq!(messages.len(), 8, "each message once: {messages:#?}");
    let ids: HashSet<&str> = messages
        .iter()
        .map(|m| m["message_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 8);
    let mut per: HashMap<String, Vec<&Value>> = HashMap::new();
    for m in &messages {
        assert_eq!(
            m["rcpt_tos"].as_array().unwrap().len(),
            1,
            "one recipient per message"
        );
        per.entry(m["rcpt_tos"][0].as_str().unwrap().to_string())
            .or_default()
            .push(m);
    }
    assert!(
        !per.contains_key("eve@players.example"),
        "Eve did not opt in"
    );
    // The boards: name → (board, side, opponent's name).
    let mut expected = HashMap::new();
    for b in round["boards"].as_array().unwrap() {
        let red = b["red"]["name"].as_str().unwrap().to_string();
        let board = b["number"].as_i64().unwrap();
        if let Some(black) = b["black"]["name"].as_str() {
            expected.insert(red.clone(), (board, "red", black.to_string()));
            expected.insert(black.to_string(), (board, "black", red));
        }
    }
    for (name, email, _, lang) in &players[..4] {
        let mine = &per[*email];
        assert_eq!(mine.len(), 2, "{email}: a confirmation and a pairing");
        let confirmation = mine
            .iter()
            .find(|m| {
                m["subject"].as_str().unwrap().contains(if *lang == "en" {
                    "registration"
                } else {
                    "报名"
                })
            })
            .unwrap_or_else(|| panic!("{email}: {mine:#?}"));
        let text = confirmation["text"].as_str().unwrap();
        assert!(
            text.contains("https://chess.example.org/k/"),
            "key link: {text}"
        );
        let pairing = mine
            .iter()
            .find(|m| !std::ptr::eq(**m, *confirmation))
            .unwrap();
        let text = pairing["text"].as_str().unwrap();
        let html = pairing["html"].as_str().unwrap();
        let (board, side, opponent) = &expected[*name];
        if *lang == "en" {
            let colour = if *side == "red" { "Red" } else { "Black" };
            assert!(
                text.contains(&format!("Board {board}: you play {colour} against "))
                    && text.contains(opponent.as_str()),
                "{text}"
            );
            assert_eq!(pairing["subject"], "Open · round 1");
        } else {
            let colour = if *side == "red" { "红方" } else { "黑方" };
            assert!(
                text.contains(&format!("第 {board} 台：你执{colour}")),
                "{text}"
            );
            assert_eq!(pairing["subject"], "Open · 第 1 轮");
        }
        assert!(html.contains(opponent.as_str()) || html.contains(&opponent.replace('&', "&amp;")));
        assert_eq!(pairing["content_type"], "multipart/alternative");
        assert_eq!(
            pairing["list_unsubscribe_post"],
            "List-Unsubscribe=One-Click"
        );
        let unsubscribe = pairing["list_unsubscribe"].as_str().unwrap();
        assert!(unsubscribe.starts_with("<https://chess.example.org/unsubscribe/"));
        assert!(text.contains(unsubscribe.trim_matches(['<', '>'])));
        // No other player's address anywhere.
        for (_, other, ..) in &players {
            if other != email {
                assert!(!text.contains(other) && !html.contains(other));
            }
        }
    }

    // Ann unsubscribes in one click (RFC 8058's POST); round 2 mails the others only.
    let ann = per["ann@players.example"][0]["list_unsubscribe"]
        .as_str()
        .unwrap()
        .trim_matches(['<', '>'])
        .trim_start_matches("https://chess.example.org")
        .to_string();
    let page = call_mail(&pool, "GET", &ann, None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("id=\"unsubscribe\""));
    let done = call_mail(
        &pool,
        "POST",
        &ann,
        Some((
            "application/x-www-form-urlencoded",
            "List-Unsubscribe=One-Click".into(),
        )),
    )
    .await;
    assert_eq!(done.status, StatusCode::OK);
    assert!(done.text.contains("id=\"unsubscribed\""), "{}", done.text);
    assert_eq!(
        call_mail(&pool, "GET", "/unsubscribe/0123abcd", None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    for b in round["boards"].as_array().unwrap() {
        if b["black"].is_object() {
            expect(
                &call(
                    &pool,
                    "PUT",
                    &format!("/api/v1/boards/{}/result", b["id"].as_str().unwrap()),
                    Some(&token),
                    Some(json!({"result": "draw"})),
                )
                .await,
                StatusCode::OK,
            );
        }
    }
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
    publish(&pool, &token, &sid, 2).await;
    let round_two: Vec<String> = sqlx::query_scalar(
        "select p.email from outbox o join registration r on r.registration_id = o.recipient
           join player p using (player_id)
          where o.channel = 'email' and o.event = 'round.published' and o.payload->>'round' = '2'
          order by 1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(
        round_two,
        [
            "ben@players.example",
            "chen@players.example",
            "dora@players.example"
        ]
    );
}

#[sqlx::test]
async fn a_refusing_mail_server_is_retried_then_reported(pool: PgPool) {
    let smtp = Smtp::start().await;
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    register(&pool, &sid, ("Busy", "busy@busy.example", true, "en"), 2000).await;
    register(&pool, &sid, ("Gone", "gone@gone.example", true, "en"), 1900).await;
    register(
        &pool,
        &sid,
        ("Fine", "fine@players.example", true, "en"),
        1800,
    )
    .await;
    let (stop, stops) = watch::channel(false);
    let worker = delivery::spawn(pool.clone(), smtp.config(), stops);
    let d = drained(&pool, &token, &tid).await;
    stop.send(true).unwrap();
    worker.await.unwrap();
    assert_eq!(
        (d["sent"].as_i64(), d["failed"].as_i64()),
        (Some(1), Some(2)),
        "{d}"
    );
    let failures = d["failures"].as_array().unwrap();
    let busy = failures
        .iter()
        .find(|f| f["error"].as_str().unwrap().contains("451"))
        .unwrap();
    assert_eq!(
        (busy["attempts"].as_i64(), busy["channel"].as_str()),
        (Some(3), Some("email"))
    );
    let gone = failures
        .iter()
        .find(|f| f["error"].as_str().unwrap().contains("550"))
        .unwrap();
    assert_eq!(gone["attempts"], 1, "a permanent refusal is not retried");
    assert!(
        !d.to_string().contains("busy.example") && !d.to_string().contains("gone.example"),
        "the desk sees states, not addresses"
    );
    assert_eq!(smtp.messages().len(), 1);
}

#[sqlx::test]
async fn without_smtp_the_form_says_email_is_off(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let off = crate::support::get(&pool, &format!("/t/{tid}/register")).await;
    assert!(off.text.contains("id=\"email-off\""));
    assert!(!off.text.contains("email_notifications"));
    let on = call_mail(&pool, "GET", &format!("/t/{tid}/register"), None).await;
    assert!(on.text.contains("name=\"email_notifications\""));
    // Without e-mail an opt-in is ignored: nothing is queued.
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/registrations"),
            None,
            Some(
                json!({"name": "Gil", "email": "gil@players.example", "email_notifications": true}),
            ),
        )
        .await,
        StatusCode::CREATED,
    );
    let queued: i64 = sqlx::query_scalar("select count(*) from outbox where channel = 'email'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(queued, 0);
}
