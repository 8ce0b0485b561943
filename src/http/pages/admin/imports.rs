//! The dashboard's imports: players from CSV into a section (a preview with the errors per row
//! first, then the import), and a whole section from a TRF file. The file is uploaded
//! (`multipart/form-data`, at most [`UPLOAD_LIMIT`] bytes, UTF-8 text) or its text pasted.
//! After a CSV preview the file's text is in the paste box, so "Import" applies exactly what
//! was previewed. Through `service::interchange`.

use super::form::{require, text, Fields};
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{PagePath, UploadForm, UPLOAD_LIMIT};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Msg;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::interchange::CsvImport;
use crate::service::sections::Section;
use crate::service::{self, Error};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/admin/s/{section_id}/import",
            get(show_import).post(import_csv),
        )
        .route("/admin/s/{section_id}/export.trf", get(export_trf))
        .route("/admin/t/{tournament_id}/import-trf", post(import_trf))
}

/// One row's errors, as a line.
pub struct RowError {
    /// CSV line number.
    pub line: usize,
    /// "field: message; …".
    pub message: String,
}

/// `GET /admin/s/{section_id}/import`
#[derive(Template)]
#[template(path = "admin/import.html")]
pub struct ImportPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// The CSV as pasted.
    pub csv: String,
    /// The preview or result.
    pub report: Option<CsvImport>,
    /// Its row errors.
    pub row_errors: Vec<RowError>,
    /// Why it was refused as a whole.
    pub error: Option<String>,
    /// What is wrong with the uploaded file (or that neither a file nor text came).
    pub file_error: Option<String>,
}

/// The text to import: the uploaded file's, else the pasted one. `Err` is the message for the
/// file field.
pub fn upload_text(form: &UploadForm, pasted: &str, tr: Tr) -> Result<String, String> {
    match &form.file {
        Some(file) => file.text().map_err(|key| tr.fmt(key, UPLOAD_LIMIT / 1024)),
        None if pasted.trim().is_empty() => Err(tr.t("adm.import.nothing").to_string()),
        None => Ok(pasted.to_string()),
    }
}

/// `GET /admin/s/{section_id}/import`
pub async fn show_import(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let section = service::sections::get(&state.db, id).await.or_page(&ctx)?;
    require(&state, &actor, section.tournament_id, Need::Arbiter)
        .await
        .or_page(&ctx)?;
    Ok(Page(
        StatusCode::OK,
        ImportPage {
            tr: ctx.tr(),
            ctx,
            section,
            csv: String::new(),
            report: None,
            row_errors: Vec::new(),
            error: None,
            file_error: None,
        },
    )
    .into_response())
}

/// `POST /admin/s/{section_id}/import`: a preview (nothing written), or with `apply` the
/// import (which the service refuses while any row has an error).
pub async fn import_csv(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    upload: UploadForm,
) -> Result<Response, PageError> {
    let section = service::sections::get(&state.db, id).await.or_page(&ctx)?;
    require(&state, &actor, section.tournament_id, Need::Arbiter)
        .await
        .or_page(&ctx)?;
    let form = &upload.fields;
    let pasted = form.get("csv").cloned().unwrap_or_default();
    let csv = match upload_text(&upload, &pasted, ctx.tr()) {
        Ok(csv) => csv,
        Err(message) => {
            return Ok(Page(
                StatusCode::UNPROCESSABLE_ENTITY,
                ImportPage {
                    tr: ctx.tr(),
                    ctx,
                    section,
                    csv: pasted,
                    report: None,
                    row_errors: Vec::new(),
                    error: None,
                    file_error: Some(message),
                },
            )
            .into_response())
        }
    };
    // A file is previewed first even when "Import" was pressed with it: the page then holds
    // its text, and the next "Import" applies what was seen.
    let apply = upload.file.is_none() && form.get("apply").is_some_and(|v| !v.is_empty());
    let outcome = service::interchange::import_csv(&state.db, &actor, id, &csv, apply).await;
    let (report, error, status) = match outcome {
        Ok(report) if report.applied => {
            return Ok(see_other(&format!("/admin/s/{id}/entrants?done=entrant")))
        }
        Ok(report) => {
            let status = if report.errors.is_empty() {
                StatusCode::OK
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            (Some(report), None, status)
        }
        Err(err @ (Error::Invalid { .. } | Error::Conflict(_))) => {
            let status = crate::http::error::status(&err);
            (None, Some(err.render(ctx.lang)), status)
        }
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    };
    let row_errors = report
        .as_ref()
        .map(|r| {
            r.errors
                .iter()
                .map(|e| RowError {
                    line: e.line,
                    message: e
                        .errors
                        .iter()
                        .map(|(f, m)| {
                            let each: Vec<String> = m.iter().map(|m| m.render(ctx.lang)).collect();
                            format!("{f}: {}", each.join(", "))
                        })
                        .collect::<Vec<_>>()
                        .join("; "),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Page(
        status,
        ImportPage {
            tr: ctx.tr(),
            ctx,
            section,
            csv,
            report,
            row_errors,
            error,
            file_error: None,
        },
    )
    .into_response())
}

/// `POST /admin/t/{tournament_id}/import-trf`: a new section from a pasted TRF file.
pub async fn import_trf(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    headers: axum::http::HeaderMap,
    PagePath(tid): PagePath<Uuid>,
    upload: UploadForm,
) -> Result<Response, PageError> {
    if let Err(err) =
        service::access::require_first(&state.db, &actor, tid, service::access::Need::Arbiter).await
    {
        return Err(PageError::from_ctx(err, &ctx));
    }
    let form: &Fields = &upload.fields;
    let pasted = form.get("trf").cloned().unwrap_or_default();
    let trf = match upload_text(&upload, &pasted, ctx.tr()) {
        Ok(trf) => trf,
        Err(message) => {
            let err = Error::Invalid {
                message: Msg::shown(message),
                fields: crate::service::FieldErrors::new(),
            };
            return super::tournaments::tournament_refused(&state, &actor, ctx, &headers, tid, err)
                .await;
        }
    };
    let name = text(form, "name");
    Ok(
        match service::interchange::import_trf(&state.db, &actor, tid, &trf, name.as_deref()).await
        {
            Ok(section) => see_other(&format!("/admin/s/{}", section.id)),
            Err(err) => {
                let status = crate::http::error::status(&err);
                if status == StatusCode::CONFLICT || status == StatusCode::UNPROCESSABLE_ENTITY {
                    super::tournaments::tournament_refused(&state, &actor, ctx, &headers, tid, err)
                        .await?
                } else {
                    return Err(PageError::from_ctx(err, &ctx));
                }
            }
        },
    )
}

/// `GET /admin/s/{section_id}/export.trf`: the section's TRF file as its arbiters see it, a
/// paired round not yet published included (the API's export, behind a bearer token, cannot
/// tell a dashboard session from a visitor).
pub async fn export_trf(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let exported = async {
        let section = service::sections::get(&state.db, id).await?;
        require(&state, &actor, section.tournament_id, Need::Scorer).await?;
        let tournament = service::tournaments::get(&state.db, section.tournament_id).await?;
        let text = service::interchange::export_trf(&state.db, Some(&actor), id).await?;
        service::Result::Ok((format!("{}-{}", tournament.name, section.name), text))
    }
    .await;
    Ok(match exported {
        // A download (the browser would show it as text), named after the event.
        Ok((name, text)) => (
            [
                (
                    axum::http::header::CONTENT_TYPE,
                    axum::http::HeaderValue::from_static("text/plain; charset=utf-8"),
                ),
                crate::http::download::attachment(&name, "trf"),
            ],
            text,
        )
            .into_response(),
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    })
}
