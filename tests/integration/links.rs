//! Secret links never follow an untrusted `Host` (issue #35, item 11): without
//! `--public-url`, password-reset and invitation links take `Host` and `X-Forwarded-Proto`
//! only from a trusted proxy; from anyone else they start with the address the connection
//! reached (or are a path), whatever the request's headers say.

use crate::support::{admin_token, tournament_with_section};
use arbiter::config::Cidr;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use sqlx::PgPool;
use std::net::SocketAddr;

/// A POST with forged `Host` and `X-Forwarded-Proto` from `peer`, over a router whose
/// trusted proxies are `10.0.0.0/8`.
async fn forged_post(pool: &PgPool, token: &str, uri: &str, body: Value, peer: &str) -> Value {
    let mut request = Request::post(uri)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .header("host", "evil.example")
        .header("x-forwarded-proto", "https")
        .body(Body::from(body.to_string()))
        .unwrap();
    let peer: SocketAddr = peer.parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(peer));
    let mut state = crate::support::state(pool);
    let mut security = (*state.security).clone();
    security.trusted_proxies = vec!["10.0.0.0/8".parse::<Cidr>().unwrap()];
    state.security = std::sync::Arc::new(security);
    use tower::ServiceExt as _;
    let response = arbiter::http::app(state).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&bytes)
    );
    serde_json::from_slice(&bytes).unwrap()
}

#[sqlx::test]
async fn reset_and_invitation_links_follow_host_only_from_a_trusted_proxy(pool: PgPool) {
    let token = admin_token(&pool).await;
    let alice = arbiter::service::users::create_user(&pool, "alice", "a long password", "user")
        .await
        .unwrap();
    let (tid, _) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let reset = format!("/api/v1/users/{alice}/password-reset");
    let invite = format!("/api/v1/tournaments/{tid}/invitations");
    let role = json!({"role": "scorer"});
    // From a client that is not a trusted proxy: the forged headers are not followed.
    for (uri, body) in [(&reset, json!({})), (&invite, role.clone())] {
        let made = forged_post(&pool, &token, uri, body, "203.0.113.5:4000").await;
        let url = made["url"].as_str().unwrap();
        assert!(!url.contains("evil"), "{uri}: {url}");
        assert!(!url.starts_with("https://"), "{uri}: {url}");
        assert!(url.contains("/reset/") || url.contains("/invite/"), "{url}");
    }
    // Through a trusted proxy, its Host and scheme are the public's.
    for (uri, body) in [(&reset, json!({})), (&invite, role)] {
        let made = forged_post(&pool, &token, uri, body, "10.1.2.3:4000").await;
        let url = made["url"].as_str().unwrap();
        assert!(url.starts_with("https://evil.example/"), "{uri}: {url}");
    }
}
