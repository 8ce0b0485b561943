//! `/api/v1/sections/{id}/rounds…`, `/api/v1/boards/{id}/result`, standings.

use super::auth::{ApiUser, MaybeUser};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppBytes, AppJson, AppPath, AppQuery};
use crate::http::AppState;
use crate::service;
use crate::service::rounds::{ManualOutcome, ManualPairing, ResultInput, ResultOutcome, RoundView};
use crate::service::standings::StandingsView;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

/// Pairs the next round (409 while the previous round has boards without a result).
#[utoipa::path(post, path = "/api/v1/sections/{id}/rounds", tag = "rounds", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 201, body = RoundView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn pair_next_round(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<(StatusCode, AppJson<RoundView>), ApiError> {
    let round = service::rounds::pair_next(&state.db, &actor, id).await?;
    Ok((StatusCode::CREATED, AppJson(round)))
}

/// The rounds of a section; paired but unpublished rounds only for the section's arbiters.
#[utoipa::path(get, path = "/api/v1/sections/{id}/rounds", tag = "rounds",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Vec<RoundView>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_rounds(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<RoundView>>, ApiError> {
    Ok(AppJson(
        service::rounds::list_visible(&state.db, actor.as_ref(), id).await?,
    ))
}

/// One round (the pairing report only for the section's arbiters; a paired but unpublished
/// round is 404 for everyone else).
#[utoipa::path(get, path = "/api/v1/sections/{id}/rounds/{n}", tag = "rounds",
    params(("id" = Uuid, Path, description = "Section id"), ("n" = i32, Path, description = "Round number")),
    responses((status = 200, body = RoundView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_round(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
) -> Result<AppJson<RoundView>, ApiError> {
    Ok(AppJson(
        service::rounds::get(&state.db, actor.as_ref(), id, n).await?,
    ))
}

/// Options of unpairing.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DeleteRoundQuery {
    /// Also delete the results already entered.
    pub force: Option<bool>,
}

/// Unpairs the last round (refused while it has results unless `?force=true`).
#[utoipa::path(delete, path = "/api/v1/sections/{id}/rounds/{n}", tag = "rounds", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id"), ("n" = i32, Path, description = "Round number"), DeleteRoundQuery),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn delete_round(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
    AppQuery(query): AppQuery<DeleteRoundQuery>,
) -> Result<StatusCode, ApiError> {
    service::rounds::delete_last(&state.db, &actor, id, n, query.force.unwrap_or(false)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Publishes a paired round.
#[utoipa::path(post, path = "/api/v1/sections/{id}/rounds/{n}/publish", tag = "rounds", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id"), ("n" = i32, Path, description = "Round number")),
    responses((status = 200, body = RoundView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn publish_round(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
) -> Result<AppJson<RoundView>, ApiError> {
    Ok(AppJson(
        service::rounds::publish(&state.db, &actor, id, n).await?,
    ))
}

/// The round clock's optional body: the round's length.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockInput {
    /// Minutes the round lasts (1–1440): the big screens count down to its end. Without it
    /// the clock only counts up.
    pub minutes: Option<i32>,
}

/// Starts (or restarts) a published round's clock: the big screens count from now, or down to
/// the end of a round given `minutes`. The body is optional.
#[utoipa::path(post, path = "/api/v1/sections/{id}/rounds/{n}/clock", tag = "rounds", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id"), ("n" = i32, Path, description = "Round number")),
    request_body(content = Option<ClockInput>, content_type = "application/json"),
    responses((status = 200, body = crate::service::screen::RoundClock), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn start_clock(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
    AppBytes(body): AppBytes,
) -> Result<AppJson<crate::service::screen::RoundClock>, ApiError> {
    let input = if body.iter().all(u8::is_ascii_whitespace) {
        ClockInput::default()
    } else {
        serde_json::from_slice::<ClockInput>(&body).map_err(|e| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                crate::i18n::messages::API_INVALID_JSON.with(&[&e]),
            )
        })?
    };
    Ok(AppJson(
        service::screen::start_clock(&state.db, &actor, id, n, input.minutes).await?,
    ))
}

/// Records or corrects a board's result; the foul threshold may turn it into a loss. A paired,
/// unpublished round takes no result (409): a result never publishes a round.
#[utoipa::path(put, path = "/api/v1/boards/{id}/result", tag = "rounds", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Board id"),
        ("If-Match" = Option<String>, Header, description = "Version last read; a stale one gets 409")),
    request_body = ResultInput,
    responses((status = 200, body = ResultOutcome), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn put_result(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
    AppJson(input): AppJson<ResultInput>,
) -> Result<Response, ApiError> {
    let expected = super::if_match(&headers)?;
    let outcome = service::rounds::set_result(&state.db, &actor, id, &input, expected).await?;
    let etag = format!("\"{}\"", outcome.version);
    Ok(([(header::ETAG, etag)], AppJson(outcome)).into_response())
}

/// The standings as they are now (provisional while results are missing). Computed once per
/// version of the section's data and shared by every client (a hall of phones polls this):
/// the `ETag` answers `If-None-Match` with `304`, and the body is gzipped when asked for.
#[utoipa::path(get, path = "/api/v1/sections/{id}/standings", tag = "standings",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = StandingsView), (status = 304, description = "The client's copy (If-None-Match) is current"),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_standings(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    use crate::http::cache::{self, Shared};
    let shared = Shared {
        section_id: id,
        parts: vec![Some("GET /api/v1/sections/{id}/standings")],
        // An API client (a desk's program) sees its own results at once.
        own: headers.contains_key(axum::http::header::AUTHORIZATION),
        content_type: "application/json",
        vary: "Accept-Encoding",
    };
    Ok(cache::serve_shared(&state, shared, &headers, || async {
        let view = service::standings::compute(&state.db, id)
            .await
            .map_err(|err| ApiError::from(err).into_response())?;
        serde_json::to_vec(&view).map(Into::into).map_err(|err| {
            ApiError::from(service::Error::Internal(format!(
                "standings as JSON: {err}"
            )))
            .into_response()
        })
    })
    .await)
}

/// Replaces a paired, unpublished round's boards by a manual pairing; the checker's warnings
/// need `"confirm": true`.
#[utoipa::path(put, path = "/api/v1/sections/{id}/rounds/{n}/boards", tag = "rounds", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id"), ("n" = i32, Path, description = "Round number")),
    request_body = ManualPairing,
    responses((status = 200, body = ManualOutcome), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn edit_round(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
    AppJson(input): AppJson<ManualPairing>,
) -> Result<AppJson<ManualOutcome>, ApiError> {
    Ok(AppJson(
        service::rounds::edit(&state.db, &actor, id, n, &input).await?,
    ))
}
