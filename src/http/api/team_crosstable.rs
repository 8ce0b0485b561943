//! A team section's crosstable as JSON (issue #41), the data of `/s/{id}/crosstable` for a
//! team section.

use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::service;
use crate::service::team_crosstable::TeamCrosstable;
use axum::extract::State;
use uuid::Uuid;

/// A team section's crosstable: one row per team in standing order, one cell per published
/// round (opponent's line, colour on board 1, board points, match points), the totals.
#[utoipa::path(get, path = "/api/v1/sections/{id}/team-crosstable", tag = "standings",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = TeamCrosstable), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn get_team_crosstable(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<TeamCrosstable>, ApiError> {
    Ok(AppJson(
        service::team_crosstable::crosstable(&state.db, id).await?,
    ))
}
