//! Registrations at the desk: confirm, record a payment (amount and method), pay back,
//! void a ledger entry, withdraw.

use super::form::{text, Fields};
use super::section::action_failed;
use super::tabs::Tab;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::PageCtx;
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::service::payments::{RefundInput, VoidInput};
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
    Router::new()
        .route(
            "/admin/s/{section_id}/registrations/{registration_id}/{action}",
            post(act_on_registration),
        )
        .route(
            "/admin/s/{section_id}/payments/{payment_id}/void",
            post(void_payment),
        )
}

/// An amount field: `None` when empty; a field error when it is not a whole number.
fn amount(form: &Fields, name: &str) -> Result<Option<i64>, Error> {
    match text(form, name) {
        None => Ok(None),
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| Error::invalid(name, m::CHECK_MUST_WHOLE_NUMBER.msg())),
    }
}

pub async fn act_on_registration(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, registration_id, action)): PagePath<(Uuid, Uuid, String)>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let parsed = match action.as_str() {
        "confirm" => Ok(Some(RegistrationAction::Confirm)),
        "withdraw" => Ok(Some(RegistrationAction::Withdraw)),
        "payment" => amount(&form, "amount").map(|amount| {
            Some(RegistrationAction::Payment(PaymentInput {
                state: form.get("state").cloned().unwrap_or_default(),
                amount,
                method: text(&form, "method"),
                note: text(&form, "note"),
            }))
        }),
        // A refund is the ledger's own entry, not an action of `act`.
        "refund" => Ok(None),
        _ => {
            return Err(PageError::from_service(
                Error::NotFound(m::NOT_FOUND_ACTION),
                ctx.lang,
            ))
        }
    };
    match service::registrations::list(&state.db, Some(&actor), id).await {
        Ok(list) if list.iter().any(|r| r.id == registration_id) => {}
        Ok(_) => {
            return Err(PageError::from_service(
                Error::NotFound(m::NOT_FOUND_REGISTRATION),
                ctx.lang,
            ))
        }
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    }
    let outcome = match parsed {
        Err(err) => Err(err),
        Ok(Some(action)) => {
            service::registrations::act(&state.db, &actor, registration_id, action, None)
                .await
                .map(|_| ())
        }
        Ok(None) => match amount(&form, "amount") {
            Err(err) => Err(err),
            Ok(amount) => {
                let input = RefundInput {
                    amount,
                    method: text(&form, "method"),
                    note: text(&form, "note"),
                };
                service::payments::refund(&state.db, &actor, registration_id, &input, None)
                    .await
                    .map(|_| ())
            }
        },
    };
    Ok(match outcome {
        Ok(()) => see_other(&format!("/admin/s/{id}/registrations?done=registration")),
        Err(err) => action_failed(&state, &actor, ctx, id, Tab::Registrations, err)
            .await
            .into_response(),
    })
}

/// `POST /admin/s/{sid}/payments/{pid}/void`: a payment or refund recorded by mistake.
pub async fn void_payment(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, payment_id)): PagePath<(Uuid, Uuid)>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    match service::payments::section_of(&state.db, payment_id).await {
        Ok(section) if section == id => {}
        Ok(_) => {
            return Err(PageError::from_service(
                Error::NotFound(m::NOT_FOUND_PAYMENT),
                ctx.lang,
            ))
        }
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    }
    let input = VoidInput {
        reason: text(&form, "reason"),
    };
    Ok(
        match service::payments::void(&state.db, &actor, payment_id, &input).await {
            Ok(_) => see_other(&format!("/admin/s/{id}/registrations?done=registration")),
            Err(err) => action_failed(&state, &actor, ctx, id, Tab::Registrations, err)
                .await
                .into_response(),
        },
    )
}
