//! `/api/v1/tournaments/{id}/sections`, `/api/v1/sections/{id}`

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::service;
use crate::service::sections::{Section, SectionInput};
use axum::extract::State;
use axum::http::StatusCode;
use uuid::Uuid;

/// Creates a section in a tournament.
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/sections", tag = "sections", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")), request_body = SectionInput,
    responses((status = 201, body = Section), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_section(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<SectionInput>,
) -> Result<(StatusCode, AppJson<Section>), ApiError> {
    let s = service::sections::create(&state.db, &actor, id, &input).await?;
    Ok((StatusCode::CREATED, AppJson(s)))
}

/// The sections of a tournament.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/sections", tag = "sections",
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = Vec<Section>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_sections(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<Section>>, ApiError> {
    Ok(AppJson(service::sections::list(&state.db, id).await?))
}

/// One section.
#[utoipa::path(get, path = "/api/v1/sections/{id}", tag = "sections",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Section), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_section(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Section>, ApiError> {
    Ok(AppJson(service::sections::get(&state.db, id).await?))
}

/// Changes a section's settings (absent fields stay).
#[utoipa::path(patch, path = "/api/v1/sections/{id}", tag = "sections", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = SectionInput,
    responses((status = 200, body = Section), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_section(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<SectionInput>,
) -> Result<AppJson<Section>, ApiError> {
    Ok(AppJson(
        service::sections::update(&state.db, &actor, id, &input).await?,
    ))
}
