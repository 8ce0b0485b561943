//! Entrants at the desk: added by hand, withdrawn (after the confirmation page of
//! [`super::confirm`]), readmitted, checked in and out.

use super::form::{invalid_fields, ButtonForm, Fields};
use super::section::{action_failed, section_page, SectionExtras};
use super::section_forms::entrant_input;
use super::tabs::Tab;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::PageCtx;
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::service::entrants::StatusChange;
use crate::service::{self, Error};
use crate::vocab::EntryType;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/s/{section_id}/entrants", post(add_entrant))
        .route(
            "/admin/s/{section_id}/entrants/{entrant_id}/{action}",
            post(change_entrant),
        )
}

/// `POST /admin/s/{section_id}/entrants`: an entrant added at the desk.
pub async fn add_entrant(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let doubles = match service::sections::get(&state.db, id).await {
        Ok(s) => s.entry_type == EntryType::Doubles,
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    };
    let (input, mut errors) = entrant_input(&form, tr, doubles);
    let form_error;
    if errors.is_empty() {
        match service::entrants::add(&state.db, &actor, id, &input).await {
            // Back to the form, its first field focused (which brings it into view), for the
            // next walk-in (issue #39 item 6). No fragment: a browser skips autofocus when
            // the address names an element.
            Ok(view) => {
                return Ok(see_other(&format!(
                    "/admin/s/{id}/entrants?added={}",
                    view.id
                )))
            }
            Err(err) => match invalid_fields(&err, tr) {
                Some((message, fields)) => {
                    errors = fields;
                    form_error = Some(message);
                }
                None => {
                    return Ok(action_failed(&state, &actor, ctx, id, Tab::Entrants, err)
                        .await
                        .into_response())
                }
            },
        }
    } else {
        form_error = Some(tr.t("error.form_invalid").to_string());
    }
    let extras = SectionExtras {
        tab: Tab::Entrants,
        form,
        errors,
        form_error,
        ..SectionExtras::default()
    };
    Ok(section_page(
        &state,
        &actor,
        ctx,
        id,
        extras,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await
    .into_response())
}

/// `POST /admin/s/{sid}/entrants/{eid}/{withdraw|readmit|check-in|check-out}`
pub async fn change_entrant(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, entrant_id, action)): PagePath<(Uuid, Uuid, String)>,
    AppForm(form): AppForm<ButtonForm>,
) -> Result<Response, PageError> {
    let change = match action.as_str() {
        "withdraw" => StatusChange::Withdraw,
        "readmit" => StatusChange::Readmit,
        "check-in" => StatusChange::CheckIn,
        "check-out" => StatusChange::CheckOut,
        _ => {
            return Err(PageError::from_service(
                Error::NotFound(m::NOT_FOUND_ACTION),
                ctx.lang,
            ))
        }
    };
    // The entrant must belong to this section (the redirect goes back to it).
    match service::entrants::list(&state.db, Some(&actor), id).await {
        Ok(list) if list.iter().any(|e| e.id == entrant_id) => {}
        Ok(_) => {
            return Err(PageError::from_service(
                Error::NotFound(m::NOT_FOUND_ENTRANT),
                ctx.lang,
            ))
        }
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    }
    Ok(
        match service::entrants::change_status(&state.db, &actor, entrant_id, change).await {
            // A withdrawal's message offers the undo (re-admit); a check-in keeps the search.
            Ok(_) if change == StatusChange::Withdraw => {
                see_other(&format!("/admin/s/{id}/entrants?withdrawn={entrant_id}"))
            }
            Ok(_) => see_other(&format!(
                "/admin/s/{id}/entrants?done=entrant_status{}",
                super::checkin::query_part(form.get("q").map(String::as_str))
            )),
            Err(err) => action_failed(&state, &actor, ctx, id, Tab::Entrants, err)
                .await
                .into_response(),
        },
    )
}
