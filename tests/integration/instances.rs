//! Several instances on one PostgreSQL (issue #17, SPEC §14): two server processes (the real
//! binary), each with its own pool, over one database. A session opened on one is good on the other, wrong passwords
//! on one count on the other, and a result entered on one changes the live pages' entity tag
//! on the other — while, with nothing changed, both give a page the same tag, so a poll that
//! a load balancer sends to either instance costs a 304.

use crate::crash::{url_with_database, Server};
use crate::staff::http;
use crate::support::csrf_of;
use arbiter::service;
use serde_json::{json, Value};
use sqlx::PgPool;

/// Two `arbiter serve` processes over `pool`'s database: each has its own pool, caches and
/// memory, as instances behind a load balancer do.
fn two_instances(pool: &PgPool) -> (Server, Server) {
    let base = std::env::var("DATABASE_URL").unwrap();
    let database = pool.connect_options().get_database().unwrap().to_string();
    let url = url_with_database(&base, &database);
    (Server::start(&url), Server::start(&url))
}

/// The cookies a response sets, as a `Cookie` header.
fn cookies(headers: &[(String, String)]) -> String {
    headers
        .iter()
        .filter(|(k, _)| k == "set-cookie")
        .filter_map(|(_, v)| v.split(';').next())
        .collect::<Vec<_>>()
        .join("; ")
}

fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

async fn api(port: u16, method: &str, path: &str, token: &str, body: Option<Value>) -> Value {
    let auth = format!("Bearer {token}");
    let text = body.map(|b| b.to_string()).unwrap_or_default();
    let (status, _, reply) = http(
        port,
        method,
        path,
        &[
            ("Authorization", auth.as_str()),
            ("Content-Type", "application/json"),
        ],
        &text,
    )
    .await;
    assert!(
        (200..300).contains(&status),
        "{method} {path}: {status} {reply}"
    );
    serde_json::from_str(&reply).unwrap_or(Value::Null)
}

async fn api_login(port: u16, username: &str, password: &str) -> (u16, String) {
    let body = json!({"username": username, "password": password}).to_string();
    let (status, _, reply) = http(
        port,
        "POST",
        "/api/v1/auth/login",
        &[("Content-Type", "application/json")],
        &body,
    )
    .await;
    (status, reply)
}

#[sqlx::test]
async fn two_instances_over_one_database_share_sessions_limits_and_live_pages(pool: PgPool) {
    service::users::create_user(&pool, "chief", "correct horse", "admin")
        .await
        .unwrap();
    service::users::create_user(&pool, "target", "right password", "user")
        .await
        .unwrap();
    let (first, second) = two_instances(&pool);
    let (a, b) = (first.port, second.port);

    // A browser session opened on A is good on B.
    let (_, headers, html) = http(a, "GET", "/login", &[], "").await;
    let visitor = cookies(&headers);
    let form = serde_urlencoded::to_string([
        ("csrf", csrf_of(&html).as_str()),
        ("username", "chief"),
        ("password", "correct horse"),
    ])
    .unwrap();
    let (status, headers, _) = http(
        a,
        "POST",
        "/login",
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Cookie", &visitor),
        ],
        &form,
    )
    .await;
    assert_eq!(status, 303);
    let session = cookies(&headers);
    assert!(!session.is_empty());
    let (status, _, page) = http(b, "GET", "/admin", &[("Cookie", &session)], "").await;
    assert_eq!(status, 200, "the session of A opens B's dashboard");
    assert!(page.contains("chief"));
    let (status, _, _) = http(b, "GET", "/admin", &[], "").await;
    assert_eq!(status, 303, "without it, B sends to the login page");
    // So does a bearer token.
    let (status, token) = api_login(a, "chief", "correct horse").await;
    assert_eq!(status, 200);
    let token = serde_json::from_str::<Value>(&token).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let me = api(b, "GET", "/api/v1/me", &token, None).await;
    assert_eq!(me["user"]["username"], "chief");

    // Ten wrong passwords on A; then the right one is refused on B (and on A) while locked.
    for _ in 0..10 {
        let (status, _) = api_login(a, "target", "wrong").await;
        assert_eq!(status, 401);
    }
    let (status, reply) = api_login(b, "target", "right password").await;
    assert_eq!(status, 429, "B counts A's attempts: {reply}");
    let (status, _) = api_login(a, "target", "right password").await;
    assert_eq!(status, 429);

    // An event on A; its standings polled on B.
    let tid = api(
        a,
        "POST",
        "/api/v1/tournaments",
        &token,
        Some(json!({"name": "Two servers", "game": "xiangqi"})),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let sid = api(
        a,
        "POST",
        &format!("/api/v1/tournaments/{tid}/sections"),
        &token,
        Some(json!({"name": "A", "rounds": 3})),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for i in 1..=4 {
        api(
            a,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            &token,
            Some(json!({"name": format!("P{i}")})),
        )
        .await;
    }
    let round = api(
        a,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        &token,
        None,
    )
    .await;
    api(
        a,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds/1/publish"),
        &token,
        None,
    )
    .await;
    let page = format!("/s/{sid}/standings");
    // One visitor (the same cookie) polling whichever instance the balancer picks.
    let (_, headers, _) = http(b, "GET", &page, &[], "").await;
    let phone = cookies(&headers);
    let (status, headers, _) = http(b, "GET", &page, &[("Cookie", &phone)], "").await;
    assert_eq!(status, 200);
    let tag_b = header(&headers, "etag").unwrap().to_string();
    let (_, headers, _) = http(a, "GET", &page, &[("Cookie", &phone)], "").await;
    assert_eq!(
        header(&headers, "etag"),
        Some(tag_b.as_str()),
        "both instances tag the same page alike"
    );
    let (status, _, _) = http(
        a,
        "GET",
        &page,
        &[("Cookie", &phone), ("If-None-Match", &tag_b)],
        "",
    )
    .await;
    assert_eq!(status, 304, "B's tag is current on A");

    // A result entered on A shows on B.
    let board = round["boards"][0]["id"].as_str().unwrap();
    api(
        a,
        "PUT",
        &format!("/api/v1/boards/{board}/result"),
        &token,
        Some(json!({"result": "red_wins"})),
    )
    .await;
    // B believes the version it read for `VERSION_TTL` (a change made by another instance
    // shows within it); then it answers with the new page.
    let written = std::time::Instant::now();
    let (headers, body) = loop {
        let (status, headers, body) = http(
            b,
            "GET",
            &page,
            &[("Cookie", &phone), ("If-None-Match", &tag_b)],
            "",
        )
        .await;
        if status == 200 {
            break (headers, body);
        }
        assert_eq!(status, 304);
        assert!(
            written.elapsed() < arbiter::http::cache::VERSION_TTL * 3,
            "B never saw the change made on A"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    let tag_after = header(&headers, "etag").unwrap().to_string();
    assert_ne!(tag_after, tag_b);
    let red = round["boards"][0]["red"]["name"]
        .as_str()
        .or_else(|| round["boards"][0]["red_name"].as_str())
        .map(str::to_string);
    if let Some(red) = red {
        assert!(body.contains(&red));
    }
    let standings = api(
        b,
        "GET",
        &format!("/api/v1/sections/{sid}/standings"),
        &token,
        None,
    )
    .await;
    let points: f64 = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_f64().unwrap())
        .sum();
    assert!(points > 0.0, "the result counts on B: {standings}");
    // A serves its last body for at most a refresh interval (issue #38), then the new tag
    // is current on A too.
    let asked = std::time::Instant::now();
    loop {
        let (status, _, _) = http(
            a,
            "GET",
            &page,
            &[("Cookie", &phone), ("If-None-Match", &tag_after)],
            "",
        )
        .await;
        if status == 304 {
            break;
        }
        assert_eq!(status, 200);
        assert!(
            asked.elapsed() < arbiter::http::cache::REFRESH * 2,
            "and the new tag is current on A too"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
