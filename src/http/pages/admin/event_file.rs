//! The whole event as one JSON file on the dashboard: the download on the tournament's page,
//! and the upload on the new-tournament page that creates a tournament from such a file
//! (through `service::event_file`, as the API does).

use super::tournaments::{tournament_fields, NewTournamentPage};
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{PagePath, UploadForm};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::service::event_file::FILE_LIMIT;
use crate::service::{self, Error};
use axum::extract::FromRequest;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/t/{tournament_id}/export.json", get(export_event))
        .route(
            "/admin/tournaments/import",
            post(import_event).layer(DefaultBodyLimit::max(FILE_LIMIT + 64 * 1024)),
        )
}

/// `GET /admin/t/{tournament_id}/export.json`: the event file, for the tournament's arbiters.
pub async fn export_event(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    match service::event_file::export(&state.db, &actor, id).await {
        Ok(file) => Ok(crate::http::api::event_file::attachment(id, file)),
        Err(err) => Err(PageError::from_ctx(err, &ctx)),
    }
}

/// `POST /admin/tournaments/import`: a new tournament from an uploaded event file; its page
/// on success, else the new-tournament page again with why (422). Who may import is asked
/// and the server's one import slot taken (else a 429 page) before the upload is read.
pub async fn import_event(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    request: axum::extract::Request,
) -> Result<Response, PageError> {
    service::event_file::may_import(&state.db, &actor)
        .await
        .or_page(&ctx)?;
    let Ok(_slot) = state.imports.clone().try_acquire_owned() else {
        return Err(PageError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ctx.lang,
            "error.title",
            m::EVENT_FILE_IMPORT_BUSY.get(ctx.lang),
        ));
    };
    let upload = UploadForm::<FILE_LIMIT>::from_request(request, &state).await?;
    let tr = ctx.tr();
    let bytes = match &upload.file {
        Some(file) => file
            .checked_bytes()
            .map_err(|key| tr.fmt(key, FILE_LIMIT / 1024)),
        None => Err(tr.t("adm.import.nothing").to_string()),
    };
    let outcome: Result<(), String> = match bytes {
        Err(message) => Err(message),
        Ok(bytes) => match service::event_file::parse(bytes) {
            Err(e) => {
                // serde's own words are English: the page says its kind and where.
                let key = match e.classify() {
                    serde_json::error::Category::Eof => "adm.event.json_eof",
                    serde_json::error::Category::Data => "adm.event.json_data",
                    serde_json::error::Category::Syntax | serde_json::error::Category::Io => {
                        "adm.event.json_syntax"
                    }
                };
                let (line, column) = (e.line(), e.column());
                let text = e.to_string();
                // serde names a missing or unknown field between backticks: the name is kept.
                let field = |lead: &str| {
                    let rest = text.strip_prefix(lead)?.strip_prefix('`')?;
                    rest.split_once('`').map(|(name, _)| name.to_string())
                };
                let at = match (field("missing field "), field("unknown field ")) {
                    (Some(name), _) => {
                        tr.fmt_n("adm.event.json_missing_field", &[&name, &line, &column])
                    }
                    (None, Some(name)) => {
                        tr.fmt_n("adm.event.json_unknown_field", &[&name, &line, &column])
                    }
                    (None, None) => tr.fmt_n(key, &[&line, &column]),
                };
                Err(tr.fmt("adm.event.not_event_file", at))
            }
            Ok(file) => match service::event_file::import(&state.db, &actor, file).await {
                Ok(imported) => {
                    return Ok(see_other(&format!(
                        "/admin/t/{}?done=imported",
                        imported.id
                    )))
                }
                Err(err @ (Error::Invalid { .. } | Error::Conflict(_))) => {
                    Err(err.render(ctx.lang))
                }
                Err(err) => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    };
    let import_error = outcome.err();
    Ok(Page(
        StatusCode::UNPROCESSABLE_ENTITY,
        NewTournamentPage {
            tr,
            fields: tournament_fields(&Default::default(), tr),
            form_error: None,
            import_error,
            ctx,
        },
    )
    .into_response())
}
