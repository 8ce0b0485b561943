//! Players' keys (issue 36): `/api/v1/keys/{key}` without an account (the key is the
//! credential: its entrant, this round's board, a report for its own side, self check-in),
//! and the desk's list and re-issue of keys and a section's self check-in settings.

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::session::ClientIp;
use crate::http::AppState;
use crate::service;
use crate::service::keys::{CheckInSettingsView, CheckInState, EntrantKey, KeyView};
use crate::service::reports::{ReportInput, ReportOutcome};
use axum::extract::State;
use uuid::Uuid;

/// What a player's key opens: the entrant, section, this round's board (with the key's side)
/// and check-in. A wrong key is 404 (one message), and counts against the client address's
/// limit (429 beyond it); a right key always answers.
#[utoipa::path(get, path = "/api/v1/keys/{key}", tag = "keys",
    params(("key" = String, Path, description = "The player's key, e.g. ABCD-EFGH-JKMN-PQRS")),
    responses((status = 200, body = KeyView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
pub async fn get_key(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(key): AppPath<String>,
) -> Result<AppJson<KeyView>, ApiError> {
    Ok(AppJson(
        service::keys::lookup(&state.db, &state.security.limits, ip, &key).await?,
    ))
}

/// Reports the result and fouls of the key's own board in the current round, as the key's
/// side (`side` may be left out; another side is refused, 422). 409 when the key has no game
/// to report, the result is in, or the reports disagree (the desk decides).
#[utoipa::path(post, path = "/api/v1/keys/{key}/report", tag = "keys",
    params(("key" = String, Path, description = "The player's key")), request_body = ReportInput,
    responses((status = 200, body = ReportOutcome), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn post_key_report(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(key): AppPath<String>,
    AppJson(input): AppJson<ReportInput>,
) -> Result<AppJson<ReportOutcome>, ApiError> {
    Ok(AppJson(
        service::keys::report(&state.db, &state.security.limits, ip, &key, &input).await?,
    ))
}

/// Checks the key's entrant in, inside the section's self check-in window (409 outside it or
/// when self check-in is off).
#[utoipa::path(post, path = "/api/v1/keys/{key}/check-in", tag = "keys",
    params(("key" = String, Path, description = "The player's key")),
    responses((status = 200, body = CheckInState), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn post_key_check_in(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(key): AppPath<String>,
) -> Result<AppJson<CheckInState>, ApiError> {
    Ok(AppJson(
        service::keys::check_in(&state.db, &state.security.limits, ip, &key, true).await?,
    ))
}

/// Checks the key's entrant out, inside the window (409 outside it).
#[utoipa::path(delete, path = "/api/v1/keys/{key}/check-in", tag = "keys",
    params(("key" = String, Path, description = "The player's key")),
    responses((status = 200, body = CheckInState), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn delete_key_check_in(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(key): AppPath<String>,
) -> Result<AppJson<CheckInState>, ApiError> {
    Ok(AppJson(
        service::keys::check_in(&state.db, &state.security.limits, ip, &key, false).await?,
    ))
}

/// Every entrant's key of a section and its page, for printing or sending (the tournament's
/// arbiters).
#[utoipa::path(get, path = "/api/v1/sections/{id}/keys", tag = "keys", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Vec<EntrantKey>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_keys(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<EntrantKey>>, ApiError> {
    Ok(AppJson(
        service::keys::section_keys(&state.db, &actor, id).await?,
    ))
}

/// Draws a new key for an entrant: the old one stops working at once (the tournament's
/// arbiters; audited without the key).
#[utoipa::path(post, path = "/api/v1/entrants/{id}/key", tag = "keys", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Entrant id")),
    responses((status = 200, body = EntrantKey), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn reissue_key(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<EntrantKey>, ApiError> {
    Ok(AppJson(
        service::keys::reissue(&state.db, &actor, id).await?,
    ))
}

/// A section's self check-in settings: the switch and the window (public).
#[utoipa::path(get, path = "/api/v1/sections/{id}/check-in-settings", tag = "keys",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = CheckInSettingsView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_check_in_settings(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<CheckInSettingsView>, ApiError> {
    Ok(AppJson(
        service::keys::check_in_settings(&state.db, id).await?,
    ))
}

/// Sets a section's self check-in: `self_check_in` and the window `check_in_opens_at`,
/// `check_in_closes_at` (RFC 3339; null for no bound). The tournament's arbiters; audited.
#[utoipa::path(put, path = "/api/v1/sections/{id}/check-in-settings", tag = "keys", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = CheckInSettingsView,
    responses((status = 200, body = CheckInSettingsView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn put_check_in_settings(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<CheckInSettingsView>,
) -> Result<AppJson<CheckInSettingsView>, ApiError> {
    Ok(AppJson(
        service::keys::set_check_in_settings(&state.db, &actor, id, &input).await?,
    ))
}
