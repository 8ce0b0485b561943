//! The whole event as one JSON file: export and import (SPEC §12; `service::event_file`).

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::service;
use crate::service::event_file::{EventFile, ImportedEvent};
use axum::extract::State;
use axum::http::{header, StatusCode};
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

/// The file as a download named after the tournament's id.
pub fn attachment(id: Uuid, file: EventFile) -> Response {
    (
        [(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"arbiter-event-{id}.json\""),
        )],
        AppJson(file),
    )
        .into_response()
}

/// Creates a new tournament from an event file: new ids everywhere, in one transaction, the
/// caller its chief arbiter; staff named in the file join when an active account of the same
/// name exists here (the answer says who was skipped). A file that does not hold together (a
/// reference to a row it does not have, a value its column cannot take) is a 422 naming the
/// row and column, and nothing is written.
#[utoipa::path(post, path = "/api/v1/tournaments/import", tag = "interchange", security(("bearer" = [])),
    request_body = EventFile,
    responses((status = 201, body = ImportedEvent), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn import_event(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppJson(file): AppJson<EventFile>,
) -> Result<(StatusCode, AppJson<ImportedEvent>), ApiError> {
    let imported = service::event_file::import(&state.db, &actor, file).await?;
    Ok((StatusCode::CREATED, AppJson(imported)))
}
