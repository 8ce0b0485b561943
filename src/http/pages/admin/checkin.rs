//! Check-in at the desk (issue #15): by number (type it, press Enter) and a selection at once
//! (checkboxes, one button, one transaction). The search box is a plain `GET` of the entrants
//! tab (`/admin/s/{id}/entrants?q=`); both forms carry it back so the desk keeps its view.

use super::form::Fields;
use super::section::{section_page, FormTarget, SectionExtras};
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::PageCtx;
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::i18n::Msg;
use crate::service::users::Actor;
use crate::service::{self, Error};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use uuid::Uuid;

/// The routes of these forms.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/s/{section_id}/check-in", post(check_in_selected))
        .route(
            "/admin/s/{section_id}/check-in/number",
            post(check_in_number),
        )
}

/// `&q=…` for a redirect that keeps the desk's search (empty without one).
pub fn query_part(q: Option<&str>) -> String {
    match q.map(str::trim).filter(|q| !q.is_empty()) {
        Some(q) => format!(
            "&{}",
            serde_urlencoded::to_string([("q", q)]).unwrap_or_default()
        ),
        None => String::new(),
    }
}

/// The section page again with the refusal next to the check-in boxes (409/422), or the
/// error page (403, 404, 5xx).
async fn refused(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    query: String,
    err: Error,
) -> Result<Response, PageError> {
    let status = crate::http::error::status(&err);
    let message = match &err {
        Error::Invalid { fields, .. } if !fields.is_empty() => {
            Msg::list(fields.values().flatten().cloned()).render(ctx.lang)
        }
        Error::Invalid { message, .. } | Error::Conflict(message) => message.render(ctx.lang),
        _ => return Err(PageError::from_ctx(err, &ctx)),
    };
    let extras = SectionExtras {
        tab: super::tabs::Tab::Entrants,
        form_error: Some(message),
        target: FormTarget::CheckIn,
        query,
        ..SectionExtras::default()
    };
    Ok(section_page(state, actor, ctx, id, extras, status)
        .await
        .into_response())
}

/// `POST /admin/s/{sid}/check-in`: the ticked entrants (`entrant[]` as the page's checkboxes
/// send them, or `entrant`, repeated) checked in at once.
pub async fn check_in_selected(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let query = form
        .iter()
        .find(|(k, _)| k == "q")
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_default();
    let mut ids = Vec::new();
    for (key, value) in &form {
        if key == "entrant" || key == "entrant[]" {
            match value.parse::<Uuid>() {
                Ok(entrant) => ids.push(entrant),
                Err(_) => {
                    return Err(PageError::from_service(
                        Error::NotFound(m::NOT_FOUND_ENTRANT),
                        ctx.lang,
                    ))
                }
            }
        }
    }
    match service::entrants::check_in_many(&state.db, &actor, id, &ids).await {
        Ok(n) => Ok(see_other(&format!(
            "/admin/s/{id}/entrants?done=checked_in&n={n}{}#check-in",
            query_part(Some(&query))
        ))),
        Err(err) => refused(&state, &actor, ctx, id, query, err).await,
    }
}

/// `POST /admin/s/{sid}/check-in/number`: the entrant with start number `no`; text that is no
/// number searches instead (the same box finds a name).
pub async fn check_in_number(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let query = form
        .get("q")
        .map(|q| q.trim().to_string())
        .unwrap_or_default();
    let typed = form.get("no").map(|v| v.trim()).unwrap_or("");
    let ascii = service::entrants::half_width_digits(typed);
    let digits = ascii.trim_start_matches('#');
    let Ok(no) = digits.parse::<i32>() else {
        // Not a number: show the entrants it fits (or all, when empty).
        return Ok(see_other(&format!(
            "/admin/s/{id}/entrants?{}#check-in",
            query_part(Some(typed)).trim_start_matches('&')
        )));
    };
    match service::entrants::check_in_number(&state.db, &actor, id, no).await {
        // No fragment: a page whose address names an element skips `autofocus`, and the
        // number box should have the focus for the next player.
        Ok((entrant, changed)) => Ok(see_other(&format!(
            "/admin/s/{id}/entrants?checked={}{}{}",
            entrant.id,
            if changed { "" } else { "&was=in" },
            query_part(Some(&query))
        ))),
        Err(err) => refused(&state, &actor, ctx, id, query, err).await,
    }
}
