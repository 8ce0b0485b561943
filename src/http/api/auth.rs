//! `POST /api/v1/auth/login` → bearer token; `POST /api/v1/auth/logout`.

use crate::http::error::ApiError;
use crate::http::extract::AppJson;
use crate::http::AppState;
use crate::service;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;
use serde::{Deserialize, Serialize};

/// Routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/auth/login", post(create_session))
        .route("/auth/logout", post(delete_session))
}

/// Login request.
#[derive(Debug, Deserialize)]
pub struct LoginRequest {
    /// Login name.
    pub username: String,
    /// Password.
    pub password: String,
}

/// Login response.
#[derive(Debug, Serialize)]
pub struct LoginResponse {
    /// Send as `Authorization: Bearer TOKEN`.
    pub token: String,
}

async fn create_session(
    State(state): State<AppState>,
    AppJson(body): AppJson<LoginRequest>,
) -> Result<AppJson<LoginResponse>, ApiError> {
    let token = service::users::login(&state.db, &body.username, &body.password, "api").await?;
    Ok(AppJson(LoginResponse { token }))
}

/// The bearer token of a request, if any.
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

async fn delete_session(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let token = bearer_token(&headers).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing Authorization: Bearer token",
        )
    })?;
    service::users::logout(&state.db, token).await?;
    Ok(StatusCode::NO_CONTENT)
}
