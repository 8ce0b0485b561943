//! `/api/v1/tournaments`

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::service;
use crate::service::tournaments::{Tournament, TournamentInput};
use axum::extract::State;
use axum::http::StatusCode;
use uuid::Uuid;

/// Creates a tournament (the creator becomes its arbiter).
#[utoipa::path(post, path = "/api/v1/tournaments", tag = "tournaments", security(("bearer" = [])),
    request_body = TournamentInput,
    responses((status = 201, body = Tournament), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn create_tournament(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppJson(input): AppJson<TournamentInput>,
) -> Result<(StatusCode, AppJson<Tournament>), ApiError> {
    let t = service::tournaments::create(&state.db, &actor, &input).await?;
    Ok((StatusCode::CREATED, AppJson(t)))
}

/// Lists every tournament.
#[utoipa::path(get, path = "/api/v1/tournaments", tag = "tournaments",
    responses((status = 200, body = Vec<Tournament>)))]
pub async fn list_tournaments(
    State(state): State<AppState>,
) -> Result<AppJson<Vec<Tournament>>, ApiError> {
    Ok(AppJson(service::tournaments::list(&state.db).await?))
}

/// One tournament.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}", tag = "tournaments",
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = Tournament), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_tournament(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Tournament>, ApiError> {
    Ok(AppJson(service::tournaments::get(&state.db, id).await?))
}

/// Changes a tournament (absent fields stay).
#[utoipa::path(patch, path = "/api/v1/tournaments/{id}", tag = "tournaments", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")), request_body = TournamentInput,
    responses((status = 200, body = Tournament), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_tournament(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<TournamentInput>,
) -> Result<AppJson<Tournament>, ApiError> {
    Ok(AppJson(
        service::tournaments::update(&state.db, &actor, id, &input).await?,
    ))
}
