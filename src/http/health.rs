//! Liveness and readiness: `/healthz` says whether the database answers, `/readyz` whether
//! this instance can serve traffic (migrations applied, database reachable).

use super::session::ClientIp;
use super::AppState;
use axum::extract::{MatchedPath, Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(show_health))
        .route("/readyz", get(show_readiness))
        .route("/metrics", get(show_metrics))
}

/// `GET /metrics`: the Prometheus text exposition ([`crate::metrics`]); the pool and queue
/// gauges are read now (the queue only when the database answers quickly). Only for a client
/// on this machine (loopback, as found through the trusted proxies: a public client behind
/// the proxy is not one) or one that sends `Authorization: Bearer <--metrics-token>`; anyone
/// else gets 404.
async fn show_metrics(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
) -> Response {
    if !may_scrape(&state.security, client, &headers) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let metrics = crate::metrics::metrics();
    metrics.set_pool(
        state.db.size(),
        state.db.num_idle(),
        state.db.options().get_max_connections(),
    );
    let pending = crate::service::reports::pending_count(&state.db);
    if let Ok(Ok(n)) = tokio::time::timeout(Duration::from_secs(1), pending).await {
        metrics.set_reports_pending(n);
    }
    (
        [(
            CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        metrics.render(),
    )
        .into_response()
}

/// Whether `client` may read `/metrics`: it is on this machine, or it has the metrics token.
fn may_scrape(security: &super::Security, client: IpAddr, headers: &HeaderMap) -> bool {
    let local = match client {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map_or(v6.is_loopback(), |v4| v4.is_loopback()),
        IpAddr::V4(v4) => v4.is_loopback(),
    };
    if local {
        return true;
    }
    let Some(token) = security.metrics_token.as_deref() else {
        return false;
    };
    let given = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    // Compared through digests: the time taken says nothing about the token.
    use sha2::Digest as _;
    sha2::Sha256::digest(given.as_bytes()) == sha2::Sha256::digest(token.as_bytes())
}

/// A middleware: counts every answered request and its time by route template
/// ([`crate::metrics`]).
pub async fn track(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let response = next.run(request).await;
    crate::metrics::metrics().request(
        method.as_str(),
        &route,
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}

async fn database_answers(state: &AppState) -> bool {
    let probe = sqlx::query_scalar::<_, i32>("select 1").fetch_one(&state.db);
    matches!(
        tokio::time::timeout(Duration::from_secs(2), probe).await,
        Ok(Ok(1))
    )
}

/// `GET /healthz` → 200 `{"status":"ok","database":"ok"}`, or 503 with `"database":"down"`.
async fn show_health(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    if database_answers(&state).await {
        (
            StatusCode::OK,
            Json(json!({"status": "ok", "database": "ok"})),
        )
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "degraded", "database": "down"})),
        )
    }
}

/// `GET /readyz` → 200 `{"status":"ready"}` once the database answers, else 503.
async fn show_readiness(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    if database_answers(&state).await {
        (StatusCode::OK, Json(json!({"status": "ready"})))
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "not ready"})),
        )
    }
}
