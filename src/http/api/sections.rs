//! `/api/v1/tournaments/{id}/sections`, `/api/v1/sections/{id}`

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::service;
use crate::service::sections::{Section, SectionInput};
use crate::service::ties::{TieGroup, TieInput};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
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
    params(("id" = Uuid, Path, description = "Section id"),
        ("If-Match" = Option<String>, Header, description = "The settings' version last read; a stale one gets 409")),
    request_body = SectionInput,
    responses((status = 200, body = Section), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn update_section(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
    AppJson(input): AppJson<SectionInput>,
) -> Result<Response, ApiError> {
    let expected = super::if_match(&headers)?;
    let section = service::sections::update(&state.db, &actor, id, &input, expected).await?;
    let etag = format!("\"{}\"", section.version);
    Ok(([(header::ETAG, etag)], AppJson(section)).into_response())
}

/// Entrants the whole tiebreak chain leaves tied, with the arbiter's decision where one applies.
#[utoipa::path(get, path = "/api/v1/sections/{id}/ties", tag = "standings",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Vec<TieGroup>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_ties(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<TieGroup>>, ApiError> {
    Ok(AppJson(service::ties::list(&state.db, id).await?))
}

/// Decides the order of one tied group: `lot` (drawn by the server, seed in the audit log and
/// the answer) or `manual` (the order given). Needed where a tie decides something: the
/// knockout cut-off, a section's champion for the grand final, prize places.
#[utoipa::path(post, path = "/api/v1/sections/{id}/ties", tag = "standings", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = TieInput,
    responses((status = 200, body = TieGroup), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn resolve_tie(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<TieInput>,
) -> Result<AppJson<TieGroup>, ApiError> {
    Ok(AppJson(
        service::ties::resolve(&state.db, &actor, id, &input).await?,
    ))
}
