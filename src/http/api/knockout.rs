//! Knockout stage, playoff, final ranking, prizes, set-ups.

use super::auth::{ApiUser, MaybeUser};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::service;
use crate::service::knockout::{
    BracketView, KnockoutInput, MatchGameInput, MatchView, PlayoffInput, Ranking,
};
use crate::service::knockout_stages::{StageInput, StageRules};
use crate::service::prizes::{Award, PlayoffAward, PlayoffPrizeTable, PrizeTable};
use crate::service::setups::RoundSetups;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

/// Seeds the top of the final Swiss standings into a snake-seeded bracket (409 before the
/// Swiss stage is complete).
#[utoipa::path(post, path = "/api/v1/sections/{id}/knockout", tag = "knockout", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = KnockoutInput,
    responses((status = 201, body = BracketView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn create_knockout(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<KnockoutInput>,
) -> Result<(StatusCode, AppJson<BracketView>), ApiError> {
    let b = service::knockout::create(&state.db, &actor, id, &input).await?;
    Ok((StatusCode::CREATED, AppJson(b)))
}

/// The bracket with every game, match scores and winners.
#[utoipa::path(get, path = "/api/v1/sections/{id}/knockout", tag = "knockout",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = BracketView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_knockout(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<BracketView>, ApiError> {
    Ok(AppJson(
        service::knockout::get(&state.db, actor.as_ref(), id).await?,
    ))
}

/// Sets the rules of knockout round `round` (issue #40): captured hidden pieces, time
/// control, tiebreak games. Fields left out keep their value.
#[utoipa::path(put, path = "/api/v1/sections/{id}/knockout/stages/{round}", tag = "knockout", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id"), ("round" = i32, Path, description = "Knockout round (1 = first)")),
    request_body = StageInput,
    responses((status = 200, body = StageRules), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn put_stage(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, round)): AppPath<(Uuid, i32)>,
    AppJson(input): AppJson<StageInput>,
) -> Result<AppJson<StageRules>, ApiError> {
    Ok(AppJson(
        service::knockout_stages::set_stage(&state.db, &actor, id, round, &input).await?,
    ))
}

/// The rules of every knockout round (public).
#[utoipa::path(get, path = "/api/v1/sections/{id}/knockout/stages", tag = "knockout",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = [StageRules]), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_stages(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<StageRules>>, ApiError> {
    Ok(AppJson(
        service::knockout::get(&state.db, None, id).await?.stages,
    ))
}

/// Records the next game of a match (Red is the match's `next_red`).
#[utoipa::path(post, path = "/api/v1/matches/{id}/games", tag = "knockout", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Match id"),
        ("If-Match" = Option<String>, Header, description = "The match's version last read (games recorded); a stale one gets 409")),
    request_body = MatchGameInput,
    responses((status = 200, body = MatchView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn record_match_game(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
    AppJson(input): AppJson<MatchGameInput>,
) -> Result<Response, ApiError> {
    let expected = super::if_match(&headers)?;
    let out = service::knockout::record_game(&state.db, &actor, id, &input, expected).await?;
    let etag = format!("\"{}\"", out.version);
    Ok(([(header::ETAG, etag)], AppJson(out)).into_response())
}

/// The final ranking 1–N (knockout places, then the Swiss order).
#[utoipa::path(get, path = "/api/v1/sections/{id}/ranking", tag = "knockout",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Ranking), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_ranking(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Ranking>, ApiError> {
    Ok(AppJson(
        service::knockout::final_ranking(&state.db, id).await?,
    ))
}

/// Creates the grand final between section champions.
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/playoff", tag = "knockout", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")), request_body = PlayoffInput,
    responses((status = 201, body = BracketView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn create_playoff(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<PlayoffInput>,
) -> Result<(StatusCode, AppJson<BracketView>), ApiError> {
    let b = service::knockout::create_playoff(&state.db, &actor, id, &input).await?;
    Ok((StatusCode::CREATED, AppJson(b)))
}

/// The playoff between section champions.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/playoff", tag = "knockout",
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = BracketView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_playoff(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<BracketView>, ApiError> {
    Ok(AppJson(
        service::knockout::get_playoff(&state.db, actor.as_ref(), id).await?,
    ))
}

/// Replaces the prize table.
#[utoipa::path(put, path = "/api/v1/sections/{id}/prizes", tag = "prizes", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = PrizeTable,
    responses((status = 200, body = PrizeTable), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn put_prizes(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<PrizeTable>,
) -> Result<AppJson<PrizeTable>, ApiError> {
    Ok(AppJson(
        service::prizes::set(&state.db, &actor, id, &input).await?,
    ))
}

/// The prize table.
#[utoipa::path(get, path = "/api/v1/sections/{id}/prizes", tag = "prizes",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = PrizeTable), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_prizes(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<PrizeTable>, ApiError> {
    Ok(AppJson(service::prizes::get(&state.db, id).await?))
}

/// Who wins which prize (after the final ranking; one prize per person, the larger one).
#[utoipa::path(get, path = "/api/v1/sections/{id}/prizes/awarded", tag = "prizes",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Vec<Award>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn get_awards(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<Award>>, ApiError> {
    Ok(AppJson(service::prizes::awarded(&state.db, id).await?))
}

/// Replaces the grand final's prize table (places of the playoff between section champions,
/// awarded on top of the sections' prizes; it may be set before the playoff exists).
#[utoipa::path(put, path = "/api/v1/tournaments/{id}/playoff/prizes", tag = "prizes", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")), request_body = PlayoffPrizeTable,
    responses((status = 200, body = PlayoffPrizeTable), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn put_playoff_prizes(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<PlayoffPrizeTable>,
) -> Result<AppJson<PlayoffPrizeTable>, ApiError> {
    Ok(AppJson(
        service::prizes::set_playoff(&state.db, &actor, id, &input).await?,
    ))
}

/// The grand final's prize table.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/playoff/prizes", tag = "prizes",
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = PlayoffPrizeTable), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_playoff_prizes(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<PlayoffPrizeTable>, ApiError> {
    Ok(AppJson(service::prizes::get_playoff(&state.db, id).await?))
}

/// Who wins the grand final's prizes (409 until every playoff match is decided).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/playoff/prizes/awarded", tag = "prizes",
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = Vec<PlayoffAward>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn get_playoff_awards(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<PlayoffAward>>, ApiError> {
    Ok(AppJson(
        service::prizes::playoff_awarded(&state.db, id).await?,
    ))
}

/// The round's hidden-piece set-up: the commitment for everyone; set-up and salt for arbiters
/// at once and for everyone once the round is complete.
#[utoipa::path(get, path = "/api/v1/sections/{id}/rounds/{n}/setup", tag = "setups",
    params(("id" = Uuid, Path, description = "Section id"), ("n" = i32, Path, description = "Round number")),
    responses((status = 200, body = RoundSetups), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_round_setup(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
) -> Result<AppJson<RoundSetups>, ApiError> {
    Ok(AppJson(
        service::setups::of_round(&state.db, actor.as_ref(), id, n).await?,
    ))
}
