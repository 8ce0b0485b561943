//! Team sections (issue #41): `/api/v1/sections/{id}/teams`, `/api/v1/teams/{id}`, line-ups
//! (by the desk, and by the captain with the team's key), a match's games and their results,
//! a whole match forfeited, and the team standings.

use super::auth::{ApiUser, MaybeUser};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath, AppQuery};
use crate::http::session::ClientIp;
use crate::http::AppState;
use crate::service;
use crate::service::rounds::{ResultInput, ResultOutcome};
use crate::service::team_matches::{BoardRankings, ForfeitInput, MatchView, TeamStandingsView};
use crate::service::teams::{LineupBy, LineupInput, LineupView, TeamInput, TeamList, TeamView};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

/// Adds a team to a team section at the desk: name, club, captain and roster in board order
/// (boards, then reserves). Roster entries are new players or players of the tournament by
/// id; a player on another team of the section is refused (422, by field).
#[utoipa::path(post, path = "/api/v1/sections/{id}/teams", tag = "teams", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = TeamInput,
    responses((status = 201, body = TeamView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn create_team(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<TeamInput>,
) -> Result<(StatusCode, AppJson<TeamView>), ApiError> {
    let team = service::teams::create(&state.db, &actor, id, &input).await?;
    Ok((StatusCode::CREATED, AppJson(team)))
}

/// A team section's settings and teams with their rosters (contact data only for its
/// arbiters).
#[utoipa::path(get, path = "/api/v1/sections/{id}/teams", tag = "teams",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = TeamList), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn list_teams(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<TeamList>, ApiError> {
    Ok(AppJson(
        service::teams::list(&state.db, actor.as_ref(), id).await?,
    ))
}

/// One team with its roster.
#[utoipa::path(get, path = "/api/v1/teams/{id}", tag = "teams",
    params(("id" = Uuid, Path, description = "Team id")),
    responses((status = 200, body = TeamView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn get_team(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<TeamView>, ApiError> {
    Ok(AppJson(
        service::teams::get(&state.db, actor.as_ref(), id).await?,
    ))
}

/// Changes a team: name, club, rating, captain, roster (replaced whole; players who have
/// played keep their places). `If-Match` with the version last read.
#[utoipa::path(put, path = "/api/v1/teams/{id}", tag = "teams", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Team id"),
        ("If-Match" = Option<String>, Header, description = "The team's version last read; a stale one gets 409")),
    request_body = TeamInput,
    responses((status = 200, body = TeamView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn update_team(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
    AppJson(input): AppJson<TeamInput>,
) -> Result<AppJson<TeamView>, ApiError> {
    let expected = super::if_match(&headers)?;
    Ok(AppJson(
        service::teams::update(&state.db, &actor, id, &input, expected).await?,
    ))
}

/// Deletes a team that has not played (one that has is withdrawn instead: 409).
#[utoipa::path(delete, path = "/api/v1/teams/{id}", tag = "teams", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Team id")),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn delete_team(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<StatusCode, ApiError> {
    service::teams::delete(&state.db, &actor, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Every team's line-up of a round (`entered_by`: `desk`, `captain` or `default`); public
/// once the round is published.
#[utoipa::path(get, path = "/api/v1/sections/{id}/rounds/{n}/lineups", tag = "teams",
    params(("id" = Uuid, Path, description = "Section id"), ("n" = i32, Path, description = "Round number")),
    responses((status = 200, body = Vec<LineupView>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn list_lineups(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
) -> Result<AppJson<Vec<LineupView>>, ApiError> {
    Ok(AppJson(
        service::teams::lineups(&state.db, actor.as_ref(), id, n).await?,
    ))
}

/// Sets a team's line-up for a round at the desk: players of the roster in roster order,
/// at most one per board (fewer leaves the last boards empty: forfeited). Allowed until a
/// result of the team's match is entered (409 after).
#[utoipa::path(put, path = "/api/v1/sections/{id}/rounds/{n}/lineups/{team}", tag = "teams", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id"), ("n" = i32, Path, description = "Round number"),
        ("team" = Uuid, Path, description = "Team id")),
    request_body = LineupInput,
    responses((status = 200, body = LineupView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn put_lineup(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, n, team)): AppPath<(Uuid, i32, Uuid)>,
    AppJson(input): AppJson<LineupInput>,
) -> Result<AppJson<LineupView>, ApiError> {
    Ok(AppJson(
        service::teams::put_lineup(
            &state.db,
            LineupBy::Desk(&actor),
            Some(id),
            Some(n),
            Some(team),
            &input,
        )
        .await?,
    ))
}

/// Sets the key's team's line-up for `round` as its captain: the deadline is the round's
/// publication (409 after); before pairing or while the round is a draft.
#[utoipa::path(put, path = "/api/v1/keys/{key}/lineup", tag = "keys",
    params(("key" = String, Path, description = "The team's key")), request_body = LineupInput,
    responses((status = 200, body = LineupView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn put_key_lineup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(key): AppPath<String>,
    AppJson(input): AppJson<LineupInput>,
) -> Result<AppJson<LineupView>, ApiError> {
    Ok(AppJson(
        service::teams::put_lineup(
            &state.db,
            LineupBy::Captain(ip, &state.security.limits, &key),
            None,
            None,
            None,
            &input,
        )
        .await?,
    ))
}

/// The matches of a team section's round with their games (players, results, versions).
#[utoipa::path(get, path = "/api/v1/sections/{id}/rounds/{n}/matches", tag = "teams",
    params(("id" = Uuid, Path, description = "Section id"), ("n" = i32, Path, description = "Round number")),
    responses((status = 200, body = Vec<MatchView>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn list_matches(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
) -> Result<AppJson<Vec<MatchView>>, ApiError> {
    Ok(AppJson(
        service::team_matches::round_matches(&state.db, actor.as_ref(), id, n).await?,
    ))
}

/// One team match (a board of the round) with its games.
#[utoipa::path(get, path = "/api/v1/boards/{id}/games", tag = "teams",
    params(("id" = Uuid, Path, description = "The match's board id")),
    responses((status = 200, body = MatchView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn get_match(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<MatchView>, ApiError> {
    Ok(AppJson(
        service::team_matches::get_match(&state.db, actor.as_ref(), id).await?,
    ))
}

/// Records or corrects the result of board `n` of a team match (the same rules as a
/// board's result: the foul rule, `If-Match`, a paired round takes none).
#[utoipa::path(put, path = "/api/v1/boards/{id}/games/{n}/result", tag = "teams", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The match's board id"), ("n" = i32, Path, description = "Board of the match"),
        ("If-Match" = Option<String>, Header, description = "Version last read; a stale one gets 409")),
    request_body = ResultInput,
    responses((status = 200, body = ResultOutcome), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn put_game_result(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
    headers: HeaderMap,
    AppJson(input): AppJson<ResultInput>,
) -> Result<Response, ApiError> {
    let expected = super::if_match(&headers)?;
    let outcome =
        service::team_matches::set_game_result(&state.db, &actor, id, n, &input, expected).await?;
    let etag = format!("\"{}\"", outcome.version);
    Ok(([(header::ETAG, etag)], AppJson(outcome)).into_response())
}

/// Forfeits every board of a team match for one team (`red`: the team with Red on board 1,
/// `black`) or both.
#[utoipa::path(post, path = "/api/v1/boards/{id}/forfeit", tag = "teams", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The match's board id")), request_body = ForfeitInput,
    responses((status = 200, body = MatchView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn forfeit_match(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<ForfeitInput>,
) -> Result<AppJson<MatchView>, ApiError> {
    Ok(AppJson(
        service::team_matches::forfeit_match(&state.db, &actor, id, &input).await?,
    ))
}

/// A team section's standings: match points, then the section's team chain (FIDE C.07:
/// `GPTS`, `DE`, `BH:MP`, `BH:GP`, `SB:MP`, `SB:GP`, `EGGSB`, `BC`, `WON`); published rounds only.
#[utoipa::path(get, path = "/api/v1/sections/{id}/team-standings", tag = "standings",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = TeamStandingsView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn get_team_standings(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<TeamStandingsView>, ApiError> {
    Ok(AppJson(
        service::team_matches::standings(&state.db, id).await?,
    ))
}

/// Who qualifies for a board ranking.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BoardRankingQuery {
    /// Fewest games played over the board (default: two thirds of the rounds paired,
    /// rounded up).
    pub min_games: Option<u32>,
}

/// Individual board rankings of a team section, for board prizes: each board's players by
/// percentage (then points, games, wins) among those with the minimum number of games.
#[utoipa::path(get, path = "/api/v1/sections/{id}/board-rankings", tag = "standings",
    params(("id" = Uuid, Path, description = "Section id"), BoardRankingQuery),
    responses((status = 200, body = BoardRankings), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn get_board_rankings(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
    AppQuery(query): AppQuery<BoardRankingQuery>,
) -> Result<AppJson<BoardRankings>, ApiError> {
    Ok(AppJson(
        service::team_matches::board_rankings(&state.db, id, query.min_games).await?,
    ))
}
