//! `/api/v1/sections/{id}/entrants`, `/api/v1/entrants/{id}/…`, forbidden pairs.

use super::auth::{ApiUser, MaybeUser};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::service;
use crate::service::entrants::{
    ByeRequest, CheckInMany, CheckedIn, EntrantInput, EntrantPatch, EntrantView, ForbiddenPair,
    ForbiddenPairInput, RequestedBye, StatusChange,
};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use uuid::Uuid;

/// Adds an entrant at the desk (also after round 1: a late entry joins from the next round).
#[utoipa::path(post, path = "/api/v1/sections/{id}/entrants", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = EntrantInput,
    responses((status = 201, body = EntrantView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn create_entrant(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<EntrantInput>,
) -> Result<(StatusCode, AppJson<EntrantView>), ApiError> {
    let e = service::entrants::add(&state.db, &actor, id, &input).await?;
    Ok((StatusCode::CREATED, AppJson(e)))
}

/// Corrects an entrant's details: name, club, rating, gender, contact, member flag, a team's
/// players (audited). Absent fields stay; `If-Match` with the version last read.
#[utoipa::path(patch, path = "/api/v1/entrants/{id}", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Entrant id"),
        ("If-Match" = Option<String>, Header, description = "The entrant's version last read; a stale one gets 409")),
    request_body = EntrantPatch,
    responses((status = 200, body = EntrantView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn edit_entrant(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
    AppJson(patch): AppJson<EntrantPatch>,
) -> Result<AppJson<EntrantView>, ApiError> {
    let expected = super::if_match(&headers)?;
    Ok(AppJson(
        service::entrants::edit(&state.db, &actor, id, &patch, expected).await?,
    ))
}

/// A section's entrants (contact data only for its arbiters).
#[utoipa::path(get, path = "/api/v1/sections/{id}/entrants", tag = "entrants",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Vec<EntrantView>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_entrants(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<EntrantView>>, ApiError> {
    Ok(AppJson(
        service::entrants::list(&state.db, actor.as_ref(), id).await?,
    ))
}

async fn change(
    state: &AppState,
    actor: &service::users::Actor,
    id: Uuid,
    change: StatusChange,
) -> Result<AppJson<EntrantView>, ApiError> {
    Ok(AppJson(
        service::entrants::change_status(&state.db, actor, id, change).await?,
    ))
}

/// Withdraws an entrant from the next round on (earlier results stay).
#[utoipa::path(post, path = "/api/v1/entrants/{id}/withdraw", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Entrant id")),
    responses((status = 200, body = EntrantView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn withdraw_entrant(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<EntrantView>, ApiError> {
    change(&state, &actor, id, StatusChange::Withdraw).await
}

/// Re-admits a withdrawn entrant from the next round on.
#[utoipa::path(post, path = "/api/v1/entrants/{id}/readmit", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Entrant id")),
    responses((status = 200, body = EntrantView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn readmit_entrant(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<EntrantView>, ApiError> {
    change(&state, &actor, id, StatusChange::Readmit).await
}

/// Marks an entrant present.
#[utoipa::path(post, path = "/api/v1/entrants/{id}/check-in", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Entrant id")),
    responses((status = 200, body = EntrantView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn check_in_entrant(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<EntrantView>, ApiError> {
    change(&state, &actor, id, StatusChange::CheckIn).await
}

/// Marks several entrants of a section present at once (the desk's bulk check-in), in one
/// transaction: an unknown entrant or one of another section (404), or a withdrawn one (409),
/// and nobody is marked.
#[utoipa::path(post, path = "/api/v1/sections/{id}/check-in", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = CheckInMany,
    responses((status = 200, body = CheckedIn), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn check_in_entrants(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<CheckInMany>,
) -> Result<AppJson<CheckedIn>, ApiError> {
    let checked_in =
        service::entrants::check_in_many(&state.db, &actor, id, &input.entrants).await?;
    Ok(AppJson(CheckedIn { checked_in }))
}

/// Marks an entrant absent again.
#[utoipa::path(delete, path = "/api/v1/entrants/{id}/check-in", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Entrant id")),
    responses((status = 200, body = EntrantView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn check_out_entrant(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<EntrantView>, ApiError> {
    change(&state, &actor, id, StatusChange::CheckOut).await
}

/// Requests a half-, zero- or full-point bye for a round not yet paired.
#[utoipa::path(post, path = "/api/v1/entrants/{id}/byes", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Entrant id")), request_body = ByeRequest,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn request_bye(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<ByeRequest>,
) -> Result<StatusCode, ApiError> {
    service::entrants::request_bye(&state.db, &actor, id, &input).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Forbids two entrants to meet.
#[utoipa::path(post, path = "/api/v1/sections/{id}/forbidden-pairs", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = ForbiddenPairInput,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_forbidden_pair(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<ForbiddenPairInput>,
) -> Result<StatusCode, ApiError> {
    service::entrants::set_forbidden_pair(&state.db, &actor, id, &input, true).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Allows two entrants to meet again.
#[utoipa::path(delete, path = "/api/v1/sections/{id}/forbidden-pairs", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = ForbiddenPairInput,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn delete_forbidden_pair(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<ForbiddenPairInput>,
) -> Result<StatusCode, ApiError> {
    service::entrants::set_forbidden_pair(&state.db, &actor, id, &input, false).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The requested byes of a section.
#[utoipa::path(get, path = "/api/v1/sections/{id}/byes", tag = "entrants",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Vec<RequestedBye>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_byes(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<RequestedBye>>, ApiError> {
    Ok(AppJson(
        service::entrants::requested_byes(&state.db, id).await?,
    ))
}

/// Cancels a requested bye of a round not yet paired.
#[utoipa::path(delete, path = "/api/v1/entrants/{id}/byes/{round}", tag = "entrants", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Entrant id"), ("round" = i32, Path, description = "Round number")),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn cancel_bye(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, round)): AppPath<(Uuid, i32)>,
) -> Result<StatusCode, ApiError> {
    service::entrants::cancel_bye(&state.db, &actor, id, round).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The forbidden pairs of a section.
#[utoipa::path(get, path = "/api/v1/sections/{id}/forbidden-pairs", tag = "entrants",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Vec<ForbiddenPair>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_forbidden_pairs(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<ForbiddenPair>>, ApiError> {
    Ok(AppJson(
        service::entrants::forbidden_pairs(&state.db, id).await?,
    ))
}
