//! TRF and CSV in and out; the audit log.

use super::auth::{ApiUser, MaybeUser};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppBytes, AppJson, AppPath, AppQuery};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::service;
use crate::service::interchange::{AuditEvent, CsvImport};
use crate::service::sections::Section;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

fn utf8(body: &Bytes) -> Result<&str, ApiError> {
    std::str::from_utf8(body).map_err(|e| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "file",
            m::API_NOT_UTF8.with(&[&e.valid_up_to()]),
        )
    })
}

/// The section as a TRF-16 file (a paired, unpublished round only for the section's arbiters).
#[utoipa::path(get, path = "/api/v1/sections/{id}/export.trf", tag = "interchange",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = String, content_type = "text/plain"), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn export_trf(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<Response, ApiError> {
    let text = service::interchange::export_trf(&state.db, actor.as_ref(), id).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                header::HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
            crate::http::download::attachment(&format!("section-{id}"), "trf"),
        ],
        text,
    )
        .into_response())
}

/// Options of a TRF import.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ImportTrfQuery {
    /// Name of the new section (default: the file's `012` name).
    pub name: Option<String>,
}

/// Creates a section from a TRF file (entrants, rounds, results).
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/import.trf", tag = "interchange", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id"), ImportTrfQuery),
    request_body(content = String, content_type = "text/plain"),
    responses((status = 201, body = Section), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn import_trf(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppQuery(query): AppQuery<ImportTrfQuery>,
    AppBytes(body): AppBytes,
) -> Result<(StatusCode, AppJson<Section>), ApiError> {
    let section = service::interchange::import_trf(
        &state.db,
        &actor,
        id,
        utf8(&body)?,
        query.name.as_deref(),
    )
    .await?;
    Ok((StatusCode::CREATED, AppJson(section)))
}

/// Options of a CSV import.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ImportCsvQuery {
    /// Create the entrants (default: preview the row report only).
    pub apply: Option<bool>,
}

/// The 422 of a CSV import, for the OpenAPI document only: the row report when rows are wrong,
/// the error body when the file itself cannot be read (not UTF-8, no `name` column).
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[expect(
    dead_code,
    reason = "never built: it only documents the two shapes of the 422"
)]
enum CsvImportRejected {
    /// Rows with errors.
    Report(CsvImport),
    /// The file cannot be read.
    Error(ErrorBody),
}

/// Imports players from CSV; every row is checked before anything is written.
#[utoipa::path(post, path = "/api/v1/sections/{id}/import.csv", tag = "interchange", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id"), ImportCsvQuery),
    request_body(content = String, content_type = "text/csv"),
    responses((status = 200, body = CsvImport), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = CsvImportRejected)))]
pub async fn import_csv(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppQuery(query): AppQuery<ImportCsvQuery>,
    AppBytes(body): AppBytes,
) -> Result<(StatusCode, AppJson<CsvImport>), ApiError> {
    let apply = query.apply.unwrap_or(false);
    let report =
        service::interchange::import_csv(&state.db, &actor, id, utf8(&body)?, apply).await?;
    let status = if report.errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    Ok((status, AppJson(report)))
}

/// The standings as CSV, a download with machine column heads (`rank,start_no,name,club,points`
/// and the tiebreaks' keys) and no byte-order mark, for programs; the pages'
/// `/s/{id}/standings.csv` gives heads in the page's language with a BOM, for spreadsheets.
#[utoipa::path(get, path = "/api/v1/sections/{id}/standings.csv", tag = "interchange",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = String, content_type = "text/csv"), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn export_standings_csv(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<Response, ApiError> {
    let text = service::interchange::standings_csv(&state.db, id).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                header::HeaderValue::from_static("text/csv; charset=utf-8"),
            ),
            crate::http::download::attachment(&format!("standings-{id}"), "csv"),
        ],
        text,
    )
        .into_response())
}

/// Paging of the audit log.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Only events after this id.
    pub after: Option<i64>,
    /// At most this many (default 200, at most 1000).
    pub limit: Option<i64>,
}

/// The tournament's append-only audit log (its arbiters only).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/audit", tag = "interchange", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id"), AuditQuery),
    responses((status = 200, body = Vec<AuditEvent>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_audit(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppQuery(query): AppQuery<AuditQuery>,
) -> Result<AppJson<Vec<AuditEvent>>, ApiError> {
    let events = service::interchange::audit_log(
        &state.db,
        &actor,
        id,
        query.after.unwrap_or(0),
        query.limit.unwrap_or(200),
    )
    .await?;
    Ok(AppJson(events))
}
