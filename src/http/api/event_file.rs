//! The whole event as one JSON file: export and import (SPEC §12; `service::event_file`).

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::service;
use crate::service::event_file::{EventFile, ImportedEvent, FILE_LIMIT};
use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

/// The whole tournament as an event file (its arbiters and admins: the file holds contact
/// details). Import it into another server with `POST /api/v1/tournaments/import`.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/export.json", tag = "interchange", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = EventFile), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn export_event(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<Response, ApiError> {
    let file = service::event_file::export(&state.db, &actor, id).await?;
    Ok(attachment(id, file))
}

/// The file as a download named after the tournament (its id when it has no usable name).
pub fn attachment(id: Uuid, file: EventFile) -> Response {
    let name = file
        .tables
        .get("tournament")
        .and_then(|rows| rows.first())
        .and_then(|row| row.get("name"))
        .and_then(|name| name.as_str())
        .map_or_else(
            || format!("arbiter-event-{id}"),
            |name| format!("{name}-event"),
        );
    (
        [crate::http::download::attachment(&name, "json")],
        AppJson(file),
    )
        .into_response()
}

/// Creates a new tournament from an event file: new ids everywhere, in one transaction, the
/// caller its chief arbiter. Only admins and accounts that are the chief arbiter of a
/// tournament on this server may import (403 for anyone else, before the file is read). The
/// copy starts as a draft (not on the home page); the file's staff are not made staff here
/// (the answer lists them as `not_linked`: invite them); report codes are drawn anew; the
/// file's audit log is kept as imported history (no account of this server named, written
/// at the import's time, the original time and actor under `imported`). One import at a
/// time per server: a second one meanwhile is answered 429. A file that does not hold
/// together (a reference to a row it does not have, a value its column cannot take, rounds
/// that break the live rules: an entrant twice in a round, a round beyond the section's
/// count, a completed round with a game without result …) is a 422 naming the section,
/// round and board (or row and column), and nothing is written.
#[utoipa::path(post, path = "/api/v1/tournaments/import", tag = "interchange", security(("bearer" = [])),
    request_body = EventFile,
    responses((status = 201, body = ImportedEvent), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn import_event(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    body: Body,
) -> Result<(StatusCode, AppJson<ImportedEvent>), ApiError> {
    service::event_file::may_import(&state.db, &actor).await?;
    // One at a time, taken before the body is read: memory holds one file at most.
    let _slot = state.imports.clone().try_acquire_owned().map_err(|_| {
        ApiError::from(service::Error::too_many_attempts(
            m::EVENT_FILE_IMPORT_BUSY.msg(),
        ))
    })?;
    let bytes = axum::body::to_bytes(body, FILE_LIMIT).await.map_err(|_| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            m::EVENT_FILE_TOO_LARGE.with(&[&(FILE_LIMIT / (1024 * 1024))]),
        )
    })?;
    let file = service::event_file::parse(&bytes).map_err(|e| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            m::API_INVALID_JSON.with(&[&e.to_string()]),
        )
    })?;
    drop(bytes);
    let imported = service::event_file::import(&state.db, &actor, file).await?;
    Ok((StatusCode::CREATED, AppJson(imported)))
}
