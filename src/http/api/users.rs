//! Accounts: `/api/v1/users` (admins), `/api/v1/me` and its sessions (everyone signed in).

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::session::ClientIp;
use crate::http::AppState;
use crate::service;
use crate::service::users::{Me, NewUser, PasswordChange, SessionView, UserPatch, UserView};
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// Every account (admins only).
#[utoipa::path(get, path = "/api/v1/users", tag = "users", security(("bearer" = [])),
    responses((status = 200, body = Vec<UserView>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list_users(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
) -> Result<AppJson<Vec<UserView>>, ApiError> {
    Ok(AppJson(
        service::users::list_users(&state.db, &actor).await?,
    ))
}

/// Creates an account (admins only). Staff are better onboarded with an invitation link, so
/// nobody types a password for someone else.
#[utoipa::path(post, path = "/api/v1/users", tag = "users", security(("bearer" = [])), request_body = NewUser,
    responses((status = 201, body = UserView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn create_user(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppJson(input): AppJson<NewUser>,
) -> Result<(StatusCode, AppJson<UserView>), ApiError> {
    let user = service::users::create_user_as(&state.db, &actor, &input).await?;
    Ok((StatusCode::CREATED, AppJson(user)))
}

/// Disables, re-enables or changes the role of an account (admins only; the last admin
/// stays). Disabling ends the account's sessions.
#[utoipa::path(patch, path = "/api/v1/users/{id}", tag = "users", security(("bearer" = [])), request_body = UserPatch,
    params(("id" = Uuid, Path, description = "User id")),
    responses((status = 200, body = UserView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn update_user(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(patch): AppJson<UserPatch>,
) -> Result<AppJson<UserView>, ApiError> {
    Ok(AppJson(
        service::users::update_user(&state.db, &actor, id, &patch).await?,
    ))
}

/// Deletes an account nothing refers to (admins only); 409 when it has staffed a tournament
/// or made changes (disable it instead) or is the last admin.
#[utoipa::path(delete, path = "/api/v1/users/{id}", tag = "users", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "User id")),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn delete_user(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<StatusCode, ApiError> {
    service::users::delete_user(&state.db, &actor, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The signed-in account and the tournaments it staffs, with the role in each.
#[utoipa::path(get, path = "/api/v1/me", tag = "users", security(("bearer" = [])),
    responses((status = 200, body = Me), (status = 401, body = ErrorBody)))]
pub async fn get_me(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
) -> Result<AppJson<Me>, ApiError> {
    Ok(AppJson(service::users::me(&state.db, &actor).await?))
}

/// Changes one's own password (the current one is needed); every other session ends.
#[utoipa::path(put, path = "/api/v1/me/password", tag = "users", security(("bearer" = [])), request_body = PasswordChange,
    responses((status = 204), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, description = "Too many guesses of the current password: locked out for a while, the right password too", body = ErrorBody)))]
pub async fn change_password(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    ClientIp(ip): ClientIp,
    AppJson(change): AppJson<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    let how = service::users::SignIn {
        limits: &state.security.limits,
        ip,
        kind: "api",
    };
    service::users::change_own_password(&state.db, how, &actor, &change).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// One's own live sessions (API tokens and browsers).
#[utoipa::path(get, path = "/api/v1/me/sessions", tag = "users", security(("bearer" = [])),
    responses((status = 200, body = Vec<SessionView>), (status = 401, body = ErrorBody)))]
pub async fn list_sessions(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
) -> Result<AppJson<Vec<SessionView>>, ApiError> {
    Ok(AppJson(
        service::users::list_sessions(&state.db, &actor).await?,
    ))
}

/// Logs out everywhere: ends every session of the account, this one too.
#[utoipa::path(delete, path = "/api/v1/me/sessions", tag = "users", security(("bearer" = [])),
    responses((status = 204), (status = 401, body = ErrorBody)))]
pub async fn delete_sessions(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
) -> Result<StatusCode, ApiError> {
    service::users::revoke_all_sessions(&state.db, &actor).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Ends one of one's own sessions.
#[utoipa::path(delete, path = "/api/v1/me/sessions/{id}", tag = "users", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Session id")),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_session(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<StatusCode, ApiError> {
    service::users::revoke_session(&state.db, &actor, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A password-reset link: shown once (only its hash is kept).
#[derive(Debug, Serialize, ToSchema)]
pub struct PasswordResetLink {
    /// The single-use link for the user (under `--public-url` when set).
    pub url: String,
    /// The link's secret, for `POST /api/v1/password-resets/{token}`.
    pub token: String,
    /// The link stops working then.
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// Makes a single-use link (a day) with which the user sets a new password themself (admins
/// only): nobody types or sends a password for someone else.
#[utoipa::path(post, path = "/api/v1/users/{id}/password-reset", tag = "users", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "User id")),
    responses((status = 201, body = PasswordResetLink), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn create_password_reset(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    origin: crate::http::LinkOrigin,
    AppPath(id): AppPath<Uuid>,
) -> Result<(StatusCode, AppJson<PasswordResetLink>), ApiError> {
    let made = service::users::make_password_reset(&state.db, &actor, id).await?;
    let url = origin.url(&format!("/reset/{}", made.token));
    Ok((
        StatusCode::CREATED,
        AppJson(PasswordResetLink {
            url,
            token: made.token,
            expires_at: made.expires_at,
        }),
    ))
}

/// The new password given through a reset link.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NewPassword {
    /// At least 8 characters.
    pub password: String,
}

/// Uses a password-reset link: sets the new password and ends the account's sessions; 404
/// when the link is unknown, used or expired.
#[utoipa::path(post, path = "/api/v1/password-resets/{token}", tag = "users",
    params(("token" = String, Path, description = "The link's secret")), request_body = NewPassword,
    responses((status = 204), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn use_password_reset(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(token): AppPath<String>,
    AppJson(body): AppJson<NewPassword>,
) -> Result<StatusCode, ApiError> {
    // Guessing links costs the same budget as guessing passwords.
    service::throttle::link_attempt(&state.db, &state.security.limits, ip).await?;
    service::users::use_password_reset(&state.db, &token, &body.password).await?;
    Ok(StatusCode::NO_CONTENT)
}
