//! Game records (issue #18): `/api/v1/boards/{id}/record…` for a Swiss board's game,
//! `/api/v1/matches/{id}/games/{n}/record…` for a knockout game, and a round's PGN.

use super::auth::{ApiUser, MaybeUser};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath, AppQuery};
use crate::http::AppState;
use crate::service;
use crate::service::records::{GameKey, MoveFormat, RecordInput, RecordSaved, RecordView, Replay};
use arbiter_core::game::Script;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

/// How to write the moves of an export.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `iccs` (default), `chinese` or `wxf` (Banqi records keep their own notation).
    pub format: Option<MoveFormat>,
}

fn text(body: String) -> Response {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response()
}

fn saved(outcome: RecordSaved) -> Response {
    let etag = format!("\"{}\"", outcome.version);
    ([(header::ETAG, etag)], AppJson(outcome)).into_response()
}

/// A board's game record with every half-move (ICCS, Chinese, WXF, FEN after it); a paired,
/// unpublished round's only for the tournament's staff.
#[utoipa::path(get, path = "/api/v1/boards/{id}/record", tag = "records",
    params(("id" = Uuid, Path, description = "Board id")),
    responses((status = 200, body = RecordView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_board_record(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<Response, ApiError> {
    let view = service::records::get(
        &state.db,
        actor.as_ref(),
        GameKey::Board(id),
        Script::Simplified,
    )
    .await?;
    let etag = format!("\"{}\"", view.version);
    Ok(([(header::ETAG, etag)], AppJson(view)).into_response())
}

/// Enters or replaces a board's game record, checked move by move (Jieqi and Banqi against
/// the round's set-up); a record with a bad half-move is refused (422) naming it.
#[utoipa::path(put, path = "/api/v1/boards/{id}/record", tag = "records", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Board id"),
        ("If-Match" = Option<String>, Header, description = "Version last read (0 before the first record); a stale one gets 409")),
    request_body = RecordInput,
    responses((status = 200, body = RecordSaved), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn put_board_record(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
    AppJson(input): AppJson<RecordInput>,
) -> Result<Response, ApiError> {
    let expected = super::if_match(&headers)?;
    let outcome =
        service::records::save(&state.db, &actor, GameKey::Board(id), &input, expected).await?;
    Ok(saved(outcome))
}

/// Checks a record for a board's game without storing it: every half-move read, or the first
/// problem with its half-move (`error`), and the position after each.
#[utoipa::path(post, path = "/api/v1/boards/{id}/record/check", tag = "records", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Board id")),
    request_body = RecordInput,
    responses((status = 200, body = Replay), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn check_board_record(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<RecordInput>,
) -> Result<AppJson<Replay>, ApiError> {
    Ok(AppJson(
        service::records::check(
            &state.db,
            &actor,
            GameKey::Board(id),
            &input,
            Script::Simplified,
        )
        .await?,
    ))
}

/// A board's game as PGN (xqbase's Xiangqi PGN; `[Variant "Jieqi"]` with its start FEN for
/// Jieqi; `[Game "Banqi"]` for Banqi).
#[utoipa::path(get, path = "/api/v1/boards/{id}/record.pgn", tag = "records",
    params(("id" = Uuid, Path, description = "Board id"), ExportQuery),
    responses((status = 200, body = String, content_type = "text/plain"), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn board_record_pgn(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
    AppQuery(query): AppQuery<ExportQuery>,
) -> Result<Response, ApiError> {
    let format = query.format.unwrap_or(MoveFormat::Iccs);
    let body =
        service::records::export_pgn(&state.db, actor.as_ref(), GameKey::Board(id), format).await?;
    Ok(text(body))
}

/// A board's game as a numbered move list (`1. 炮二平五 马8进7`).
#[utoipa::path(get, path = "/api/v1/boards/{id}/moves.txt", tag = "records",
    params(("id" = Uuid, Path, description = "Board id"), ExportQuery),
    responses((status = 200, body = String, content_type = "text/plain"), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn board_moves_text(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
    AppQuery(query): AppQuery<ExportQuery>,
) -> Result<Response, ApiError> {
    let format = query.format.unwrap_or(MoveFormat::Iccs);
    let body = service::records::export_moves(
        &state.db,
        actor.as_ref(),
        GameKey::Board(id),
        format,
        Script::Simplified,
    )
    .await?;
    Ok(text(body))
}

/// Every recorded game of a round as one PGN file (404 while none has a record).
#[utoipa::path(get, path = "/api/v1/sections/{id}/rounds/{n}/records.pgn", tag = "records",
    params(("id" = Uuid, Path, description = "Section id"), ("n" = i32, Path, description = "Round number"), ExportQuery),
    responses((status = 200, body = String, content_type = "text/plain"), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn round_records_pgn(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
    AppQuery(query): AppQuery<ExportQuery>,
) -> Result<Response, ApiError> {
    let format = query.format.unwrap_or(MoveFormat::Iccs);
    let body = service::records::export_round_pgn(&state.db, actor.as_ref(), id, n, format).await?;
    Ok(text(body))
}

/// A knockout game's record.
#[utoipa::path(get, path = "/api/v1/matches/{id}/games/{n}/record", tag = "records",
    params(("id" = Uuid, Path, description = "Match id"), ("n" = i32, Path, description = "Game number within the match")),
    responses((status = 200, body = RecordView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_match_game_record(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
) -> Result<Response, ApiError> {
    let view = service::records::get(
        &state.db,
        actor.as_ref(),
        GameKey::MatchGame(id, n),
        Script::Simplified,
    )
    .await?;
    let etag = format!("\"{}\"", view.version);
    Ok(([(header::ETAG, etag)], AppJson(view)).into_response())
}

/// Enters or replaces a knockout game's record (the game must be recorded first).
#[utoipa::path(put, path = "/api/v1/matches/{id}/games/{n}/record", tag = "records", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Match id"), ("n" = i32, Path, description = "Game number within the match"),
        ("If-Match" = Option<String>, Header, description = "Version last read (0 before the first record); a stale one gets 409")),
    request_body = RecordInput,
    responses((status = 200, body = RecordSaved), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn put_match_game_record(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
    headers: HeaderMap,
    AppJson(input): AppJson<RecordInput>,
) -> Result<Response, ApiError> {
    let expected = super::if_match(&headers)?;
    let outcome = service::records::save(
        &state.db,
        &actor,
        GameKey::MatchGame(id, n),
        &input,
        expected,
    )
    .await?;
    Ok(saved(outcome))
}

/// Checks a record for a knockout game without storing it.
#[utoipa::path(post, path = "/api/v1/matches/{id}/games/{n}/record/check", tag = "records", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Match id"), ("n" = i32, Path, description = "Game number within the match")),
    request_body = RecordInput,
    responses((status = 200, body = Replay), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn check_match_game_record(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
    AppJson(input): AppJson<RecordInput>,
) -> Result<AppJson<Replay>, ApiError> {
    Ok(AppJson(
        service::records::check(
            &state.db,
            &actor,
            GameKey::MatchGame(id, n),
            &input,
            Script::Simplified,
        )
        .await?,
    ))
}

/// A knockout game as PGN.
#[utoipa::path(get, path = "/api/v1/matches/{id}/games/{n}/record.pgn", tag = "records",
    params(("id" = Uuid, Path, description = "Match id"), ("n" = i32, Path, description = "Game number within the match"), ExportQuery),
    responses((status = 200, body = String, content_type = "text/plain"), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn match_game_record_pgn(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
    AppQuery(query): AppQuery<ExportQuery>,
) -> Result<Response, ApiError> {
    let format = query.format.unwrap_or(MoveFormat::Iccs);
    let body =
        service::records::export_pgn(&state.db, actor.as_ref(), GameKey::MatchGame(id, n), format)
            .await?;
    Ok(text(body))
}

/// Deletes a board's game record (audited with what it held).
#[utoipa::path(delete, path = "/api/v1/boards/{id}/record", tag = "records", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Board id"),
        ("If-Match" = Option<String>, Header, description = "Version last read; a stale one gets 409")),
    responses((status = 204, description = "Deleted"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn delete_board_record(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let expected = super::if_match(&headers)?;
    service::records::delete(&state.db, &actor, GameKey::Board(id), expected).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Deletes a knockout game's record (audited with what it held).
#[utoipa::path(delete, path = "/api/v1/matches/{id}/games/{n}/record", tag = "records", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Match id"), ("n" = i32, Path, description = "Game number within the match"),
        ("If-Match" = Option<String>, Header, description = "Version last read; a stale one gets 409")),
    responses((status = 204, description = "Deleted"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn delete_match_game_record(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, n)): AppPath<(Uuid, i32)>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let expected = super::if_match(&headers)?;
    service::records::delete(&state.db, &actor, GameKey::MatchGame(id, n), expected).await?;
    Ok(StatusCode::NO_CONTENT)
}
