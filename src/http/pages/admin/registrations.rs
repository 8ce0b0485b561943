//! Registrations at the desk: confirm, record a payment, withdraw.

use super::form::{text, Fields};
use super::section::action_failed;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::PageCtx;
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::service::registrations::{PaymentInput, RegistrationAction};
use crate::service::{self, Error};
use axum::extract::State;
use axum::response::IntoResponse;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/admin/s/{section_id}/registrations/{registration_id}/{action}",
        post(act_on_registration),
    )
}

pub async fn act_on_registration(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, registration_id, action)): PagePath<(Uuid, Uuid, String)>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let action = match action.as_str() {
        "confirm" => RegistrationAction::Confirm,
        "withdraw" => RegistrationAction::Withdraw,
        "payment" => RegistrationAction::Payment(PaymentInput {
            state: form.get("state").cloned().unwrap_or_default(),
            method: text(&form, "method"),
            note: text(&form, "note"),
        }),
        _ => return Err(PageError::from_service(Error::NotFound("action"), ctx.lang)),
    };
    match service::registrations::list(&state.db, Some(&actor), id).await {
        Ok(list) if list.iter().any(|r| r.id == registration_id) => {}
        Ok(_) => {
            return Err(PageError::from_service(
                Error::NotFound("registration"),
                ctx.lang,
            ))
        }
        Err(err) => return Err(PageError::from_service(err, ctx.lang)),
    }
    Ok(
        match service::registrations::act(&state.db, &actor, registration_id, action, None).await {
            Ok(_) => see_other(&format!("/admin/s/{id}?done=registration#registrations")),
            Err(err) => action_failed(&state, &actor, ctx, id, err)
                .await
                .into_response(),
        },
    )
}
