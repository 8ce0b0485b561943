//! The dashboard's imports: players from CSV into a section (a preview with the errors per row
//! first, then the import), and a whole section from a TRF file. Pasted as text (the forms stay
//! `application/x-www-form-urlencoded`, like every other form). Through
//! `service::interchange`.

use super::dashboard::{fail, require, text, Fields};
use super::session::{see_other, CurrentUser};
use super::{HtmlPage, PageCtx};
use crate::http::extract::{AppForm, PagePath};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::interchange::CsvImport;
use crate::service::sections::Section;
use crate::service::{self, Error};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

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
}

/// `GET /admin/s/{section_id}/import`
pub async fn show_import(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Response {
    let section = match service::sections::get(&state.db, id).await {
        Ok(s) => s,
        Err(err) => return fail(err, &ctx),
    };
    if let Err(err) = require(&state, &actor, section.tournament_id, Need::Arbiter).await {
        return fail(err, &ctx);
    }
    HtmlPage(
        StatusCode::OK,
        ImportPage {
            tr: ctx.tr(),
            ctx,
            section,
            csv: String::new(),
            report: None,
            row_errors: Vec::new(),
            error: None,
        },
    )
    .into_response()
}

/// `POST /admin/s/{section_id}/import`: a preview (nothing written), or with `apply` the
/// import (which the service refuses while any row has an error).
pub async fn import_csv(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Response {
    let section = match service::sections::get(&state.db, id).await {
        Ok(s) => s,
        Err(err) => return fail(err, &ctx),
    };
    let csv = form.get("csv").cloned().unwrap_or_default();
    let apply = form.get("apply").is_some_and(|v| !v.is_empty());
    let outcome = service::interchange::import_csv(&state.db, &actor, id, &csv, apply).await;
    let (report, error, status) = match outcome {
        Ok(report) if report.applied => {
            return see_other(&format!("/admin/s/{id}?done=entrant#entrants"))
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
            (None, Some(err.to_string()), status)
        }
        Err(err) => return fail(err, &ctx),
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
                        .map(|(f, m)| format!("{f}: {}", m.join(", ")))
                        .collect::<Vec<_>>()
                        .join("; "),
                })
                .collect()
        })
        .unwrap_or_default();
    HtmlPage(
        status,
        ImportPage {
            tr: ctx.tr(),
            ctx,
            section,
            csv,
            report,
            row_errors,
            error,
        },
    )
    .into_response()
}

/// `POST /admin/t/{tournament_id}/import-trf`: a new section from a pasted TRF file.
pub async fn import_trf(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(tid): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Response {
    let trf = form.get("trf").cloned().unwrap_or_default();
    let name = text(&form, "name");
    match service::interchange::import_trf(&state.db, &actor, tid, &trf, name.as_deref()).await {
        Ok(section) => see_other(&format!("/admin/s/{}", section.id)),
        Err(err) => {
            let status = crate::http::error::status(&err);
            if status == StatusCode::CONFLICT || status == StatusCode::UNPROCESSABLE_ENTITY {
                super::dashboard::tournament_refused(&state, &actor, ctx, tid, err).await
            } else {
                fail(err, &ctx)
            }
        }
    }
}
