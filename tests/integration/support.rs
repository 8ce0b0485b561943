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
    pub headers: axum::http::HeaderMap,
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
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    Reply {
        status,
        content_type,
        headers,
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
