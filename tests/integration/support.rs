//! Helpers: drive the router in process and read JSON back.

use arbiter::http::{app, AppState};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt as _;
use serde_json::Value;
use sqlx::PgPool;
use tower::ServiceExt as _;

/// A response, read whole.
pub struct Reply {
    pub status: StatusCode,
    pub content_type: String,
    pub text: String,
}

impl Reply {
    /// The body as JSON (panics with the body text when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
}

/// Sends one request to a fresh router over `pool`.
pub async fn send(pool: &PgPool, request: Request<Body>) -> Reply {
    let response = app(AppState { db: pool.clone() })
        .oneshot(request)
        .await
        .expect("router is infallible");
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    Reply {
        status,
        content_type,
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// `GET uri`.
pub async fn get(pool: &PgPool, uri: &str) -> Reply {
    send(
        pool,
        Request::get(uri).body(Body::empty()).expect("request"),
    )
    .await
}

/// `POST uri` with a raw body and a content type.
pub async fn post_raw(pool: &PgPool, uri: &str, content_type: &str, body: &str) -> Reply {
    let request = Request::post(uri)
        .header("content-type", content_type)
        .body(Body::from(body.to_string()))
        .expect("request");
    send(pool, request).await
}

/// `POST uri` with a JSON body.
pub async fn post_json(pool: &PgPool, uri: &str, body: &Value) -> Reply {
    post_raw(pool, uri, "application/json", &body.to_string()).await
}

/// A request with an optional bearer token and JSON body.
pub async fn call(
    pool: &PgPool,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let mut builder = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        builder = builder.header("authorization", format!("Bearer {token}"));
    }
    let request = match body {
        Some(body) => builder
            .header("content-type", "application/json")
            .body(Body::from(body.to_string())),
        None => builder.body(Body::empty()),
    }
    .expect("request");
    send(pool, request).await
}

/// Creates a user with `role` and returns a bearer token for it.
pub async fn token_for(pool: &PgPool, username: &str, role: &str) -> String {
    arbiter::service::users::create_user(pool, username, "a long password", role)
        .await
        .expect("user");
    arbiter::service::users::login(pool, username, "a long password", "api")
        .await
        .expect("login")
}

/// An admin's token.
pub async fn admin_token(pool: &PgPool) -> String {
    token_for(pool, "chief", "admin").await
}

/// Asserts the status and returns the JSON body.
#[track_caller]
pub fn expect(reply: &Reply, status: StatusCode) -> Value {
    assert_eq!(
        reply.status, status,
        "unexpected status; body: {}",
        reply.text
    );
    reply.json()
}

/// Creates a tournament and a section with `settings` (merged over name and rounds), returns
/// (tournament id, section id).
pub async fn tournament_with_section(
    pool: &PgPool,
    token: &str,
    game: &str,
    settings: Value,
) -> (String, String) {
    let t = expect(
        &call(
            pool,
            "POST",
            "/api/v1/tournaments",
            Some(token),
            Some(serde_json::json!({"name": "Open", "game": game})),
        )
        .await,
        StatusCode::CREATED,
    );
    let tid = t["id"].as_str().unwrap().to_string();
    let mut body = serde_json::json!({"name": "A", "rounds": 5});
    if let (Some(body), Some(settings)) = (body.as_object_mut(), settings.as_object()) {
        for (k, v) in settings {
            body.insert(k.clone(), v.clone());
        }
    }
    let s = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(token),
            Some(body),
        )
        .await,
        StatusCode::CREATED,
    );
    (tid, s["id"].as_str().unwrap().to_string())
}

/// Adds `n` individual entrants named P1…Pn with descending ratings; returns their ids.
pub async fn add_entrants(pool: &PgPool, token: &str, section: &str, n: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for i in 1..=n {
        let body = serde_json::json!({"name": format!("P{i}"), "rating": 2000 - i as i64, "email": format!("p{i}@example.org")});
        let e = expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/sections/{section}/entrants"),
                Some(token),
                Some(body),
            )
            .await,
            StatusCode::CREATED,
        );
        ids.push(e["id"].as_str().unwrap().to_string());
    }
    ids
}
