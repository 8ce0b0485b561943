//! `/api/v1/sections/{id}/stages`: stages that overlap (issue #40).

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::service;
use crate::service::stages::{StagesInput, StagesView};
use axum::extract::State;
use uuid::Uuid;

/// How a section's stages overlap, and where they stand: the knockout's entrants left out of
/// the Swiss (AXF), the last round's final (WXF).
#[utoipa::path(get, path = "/api/v1/sections/{id}/stages", tag = "knockout",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = StagesView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_stages(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<StagesView>, ApiError> {
    Ok(AppJson(service::stages::get(&state.db, id).await?))
}

/// Sets how a section's stages overlap: `swiss`, `knockout_after_round` (with `after_round`
/// and `qualifiers`) or `final_last_round` (with `final_colours`). The tournament's arbiters;
/// audited; 409 once a round the change affects is paired.
#[utoipa::path(put, path = "/api/v1/sections/{id}/stages", tag = "knockout", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = StagesInput,
    responses((status = 200, body = StagesView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn put_stages(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<StagesInput>,
) -> Result<AppJson<StagesView>, ApiError> {
    Ok(AppJson(
        service::stages::set(&state.db, &actor, id, &input).await?,
    ))
}
