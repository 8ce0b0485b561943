//! Self-report (SPEC §5): a player reports a game with the board's code from the result slip
//! (`/api/v1/reports/{code}`, no account); the desk's queue and its accept and dismiss.

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath, AppQuery};
use crate::http::session::ClientIp;
use crate::http::AppState;
use crate::service;
use crate::service::reports::{QueueItem, ReportBoard, ReportInput, ReportOutcome};
use crate::service::rounds::ResultOutcome;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

/// Which game of a board the desk acts on.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GameQuery {
    /// A team match's game: its board of the match (1 = top board; issue #41). Absent for a
    /// board's only game.
    pub game: Option<i32>,
}

/// The game a report code opens, with the reports so far (no account: the code is the key).
/// Wrong codes count against the client address's limit (429 beyond it).
#[utoipa::path(get, path = "/api/v1/reports/{code}", tag = "reports",
    params(("code" = String, Path, description = "The board's report code, e.g. A1B2-C3D4-E5F6")),
    responses((status = 200, body = ReportBoard), (status = 400, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
pub async fn get_report(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(code): AppPath<String>,
) -> Result<AppJson<ReportBoard>, ApiError> {
    let board = service::reports::lookup(&state.db, &state.security.limits, ip, &code).await?;
    Ok(AppJson(board))
}

/// Reports a game's result and fouls as one of its players (`side`); reporting again
/// replaces that side's report. Nothing counts until the desk accepts it, or until both
/// sides agree in a section that accepts on agreement (`accepted`).
#[utoipa::path(post, path = "/api/v1/reports/{code}", tag = "reports",
    params(("code" = String, Path, description = "The board's report code")), request_body = ReportInput,
    responses((status = 200, body = ReportOutcome), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn post_report(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(code): AppPath<String>,
    AppJson(input): AppJson<ReportInput>,
) -> Result<AppJson<ReportOutcome>, ApiError> {
    let outcome =
        service::reports::submit(&state.db, &state.security.limits, ip, &code, &input).await?;
    Ok(AppJson(outcome))
}

/// Sends the game's record as one of its players (the notations of `PUT /boards/{id}/record`),
/// checked move by move, once the round is published and while the game has no record yet
/// (409 otherwise: the desk corrects a stored record). A Jieqi or Banqi game's record is taken
/// only once the round is complete and its set-up revealed: before, every upload gets the same
/// 409, whatever it holds.
#[utoipa::path(post, path = "/api/v1/reports/{code}/record", tag = "reports",
    params(("code" = String, Path, description = "The board's report code")),
    request_body = crate::service::records::RecordInput,
    responses((status = 200, body = crate::service::records::RecordSaved), (status = 400, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn post_record(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(code): AppPath<String>,
    AppJson(input): AppJson<crate::service::records::RecordInput>,
) -> Result<AppJson<crate::service::records::RecordSaved>, ApiError> {
    let saved =
        service::reports::submit_record(&state.db, &state.security.limits, ip, &code, &input)
            .await?;
    Ok(AppJson(saved))
}

/// The desk's queue: every board of the section with reports not yet settled, agreed ones
/// first, then disputes, then those waiting for the opponent (scorers and arbiters).
#[utoipa::path(get, path = "/api/v1/sections/{id}/reports", tag = "reports", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Vec<QueueItem>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_reports(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<QueueItem>>, ApiError> {
    Ok(AppJson(
        service::reports::queue(&state.db, &actor, id).await?,
    ))
}

/// Accepts a board's agreed reports as its result (the foul rule applies as at the desk);
/// a dispute or a single report is refused (409).
#[utoipa::path(post, path = "/api/v1/boards/{id}/reports/accept", tag = "reports", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Board id"), GameQuery),
    responses((status = 200, body = ResultOutcome), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn accept_reports(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppQuery(query): AppQuery<GameQuery>,
) -> Result<AppJson<ResultOutcome>, ApiError> {
    Ok(AppJson(
        service::reports::accept(&state.db, &actor, id, query.game).await?,
    ))
}

/// Dismisses a board's open reports: kept on record, counting for nothing; the players may
/// report again.
#[utoipa::path(post, path = "/api/v1/boards/{id}/reports/dismiss", tag = "reports", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Board id"), GameQuery),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn dismiss_reports(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppQuery(query): AppQuery<GameQuery>,
) -> Result<StatusCode, ApiError> {
    service::reports::dismiss(&state.db, &actor, id, query.game).await?;
    Ok(StatusCode::NO_CONTENT)
}
