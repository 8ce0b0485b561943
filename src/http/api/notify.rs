//! Telling the players (issue #37): the round schedule.

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::service;
use crate::service::schedule::{ScheduleInput, ScheduleView};
use axum::extract::State;
use uuid::Uuid;

/// A section's round schedule: each round's planned start, in UTC and in the event's time
/// zone (public).
#[utoipa::path(get, path = "/api/v1/sections/{id}/schedule", tag = "schedule",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = ScheduleView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_schedule(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<ScheduleView>, ApiError> {
    Ok(AppJson(service::schedule::get(&state.db, id).await?))
}

/// Sets a section's round schedule: `rounds` lists each planned round with `starts_at`
/// (RFC 3339 with its offset) or `local` (`2026-12-08T09:30` in the event's time zone); the
/// rounds not listed lose their start. A changed start counts up the round's `sequence`.
/// The tournament's arbiters; audited.
#[utoipa::path(put, path = "/api/v1/sections/{id}/schedule", tag = "schedule", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = ScheduleInput,
    responses((status = 200, body = ScheduleView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn put_schedule(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<ScheduleInput>,
) -> Result<AppJson<ScheduleView>, ApiError> {
    let (view, _changed) = service::schedule::set(&state.db, &actor, id, &input).await?;
    Ok(AppJson(view))
}
