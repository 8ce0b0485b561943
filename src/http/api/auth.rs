//! `POST /api/v1/auth/login` → bearer token; `POST /api/v1/auth/logout`; the extractors that
//! read the caller from `Authorization: Bearer TOKEN`.

use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::AppJson;
use crate::http::session::ClientIp;
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::service;
use crate::service::users::Actor;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Login request.
#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    /// Login name.
    pub username: String,
    /// Password.
    pub password: String,
    /// The device proof a former sign-in of this account answered (`device`), if this client
    /// keeps one: with it, strangers' wrong guesses that lock the account out do not lock out
    /// this client (its own guesses are limited all the same).
    #[serde(default)]
    pub device: Option<String>,
}

/// Login response.
#[derive(Debug, Serialize, ToSchema)]
pub struct LoginResponse {
    /// Send as `Authorization: Bearer TOKEN`.
    pub token: String,
    /// This client's device proof: keep it and send it as `device` at the next sign-in.
    pub device: String,
}

/// Logs in and returns a bearer token.
#[utoipa::path(post, path = "/api/v1/auth/login", tag = "auth", request_body = LoginRequest,
    responses((status = 200, body = LoginResponse), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, description = "Too many attempts for this account or address: locked out for a while, the right password too", body = ErrorBody)))]
pub async fn create_session(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<LoginRequest>,
) -> Result<AppJson<LoginResponse>, ApiError> {
    let how = service::users::SignIn {
        limits: &state.security.limits,
        ip,
        kind: "api",
    };
    let signed = service::users::sign_in_from_device(
        &state.db,
        how,
        &body.username,
        &body.password,
        body.device.as_deref(),
    )
    .await?;
    Ok(AppJson(LoginResponse {
        token: signed.token,
        device: signed.device,
    }))
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

/// Ends the session of the bearer token (401 when it is unknown or already ended).
#[utoipa::path(post, path = "/api/v1/auth/logout", tag = "auth", security(("bearer" = [])),
    responses((status = 204), (status = 401, body = ErrorBody)))]
pub async fn delete_session(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let token = bearer_token(&headers)
        .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, m::API_MISSING_BEARER))?;
    // Like every endpoint that needs a login, an unknown or ended token gets 401.
    if !service::users::logout(&state.db, token).await? {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            m::API_TOKEN_INVALID,
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The logged-in caller; 401 without a valid bearer token.
pub struct ApiUser(pub Actor);

impl FromRequestParts<AppState> for ApiUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = bearer_token(&parts.headers)
            .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, m::API_NEEDS_LOGIN))?;
        match service::users::authenticate(&state.db, token).await? {
            Some(actor) => Ok(ApiUser(actor)),
            None => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                m::API_TOKEN_INVALID,
            )),
        }
    }
}

/// The caller if logged in (public reads show more to arbiters).
pub struct MaybeUser(pub Option<Actor>);

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        match bearer_token(&parts.headers) {
            None => Ok(MaybeUser(None)),
            Some(token) => Ok(MaybeUser(
                service::users::authenticate(&state.db, token).await?,
            )),
        }
    }
}
