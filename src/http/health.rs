//! Liveness and readiness: `/healthz` says whether the database answers, `/readyz` whether
//! this instance can serve traffic (migrations applied, database reachable).

use super::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use std::time::Duration;

/// Routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(show_health))
        .route("/readyz", get(show_readiness))
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
