//! Registrations, cancellation, random split.

use super::auth::{ApiUser, MaybeUser};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::session::ClientIp;
use crate::http::AppState;
use crate::service;
use crate::service::payments::{RefundInput, VoidInput};
use crate::service::registrations::{
    Cancellation, DeskList, PaymentInput, RegistrationAction, RegistrationInput, RegistrationView,
    SplitInput, SplitOutcome,
};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use uuid::Uuid;

/// Registers for a section (public; the answer says `pending`, `confirmed` or `waitlisted`).
/// Anonymous registrations are rate-limited per address and section (429 with
/// `Retry-After`); the tournament's arbiters, signed in, are not counted.
#[utoipa::path(post, path = "/api/v1/sections/{id}/registrations", tag = "registrations",
    params(("id" = Uuid, Path, description = "Section id")), request_body = RegistrationInput,
    responses((status = 201, body = RegistrationView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn create_registration(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    ClientIp(ip): ClientIp,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<RegistrationInput>,
) -> Result<(StatusCode, AppJson<RegistrationView>), ApiError> {
    // The same limiter as the page's: per address and section, shared by every instance;
    // the tournament's arbiters (the desk entering walk-ins) are not counted.
    service::registrations::registration_attempt(
        &state.db,
        &state.security.limits,
        actor.as_ref(),
        ip,
        id,
    )
    .await?;
    let r =
        service::registrations::register(&state.db, id, &input, state.security.email_on).await?;
    Ok((StatusCode::CREATED, AppJson(r)))
}

/// A section's registrations (contact and payment data for its arbiters only).
#[utoipa::path(get, path = "/api/v1/sections/{id}/registrations", tag = "registrations",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Vec<RegistrationView>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_registrations(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<RegistrationView>>, ApiError> {
    Ok(AppJson(
        service::registrations::list(&state.db, actor.as_ref(), id).await?,
    ))
}

/// Confirms a registration (a place must be free).
#[utoipa::path(post, path = "/api/v1/registrations/{id}/confirm", tag = "registrations", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Registration id"),
        ("If-Match" = Option<String>, Header, description = "The registration's version last read; a stale one gets 409")),
    responses((status = 200, body = RegistrationView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn confirm_registration(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
) -> Result<AppJson<RegistrationView>, ApiError> {
    let expected = super::if_match(&headers)?;
    Ok(AppJson(
        service::registrations::act(&state.db, &actor, id, RegistrationAction::Confirm, expected)
            .await?,
    ))
}

/// Records a payment state (paying confirms a pending registration when a place is free).
#[utoipa::path(post, path = "/api/v1/registrations/{id}/payment", tag = "registrations", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Registration id"),
        ("If-Match" = Option<String>, Header, description = "The registration's version last read; a stale one gets 409")), request_body = PaymentInput,
    responses((status = 200, body = RegistrationView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn record_payment(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
    AppJson(input): AppJson<PaymentInput>,
) -> Result<AppJson<RegistrationView>, ApiError> {
    let expected = super::if_match(&headers)?;
    Ok(AppJson(
        service::registrations::act(
            &state.db,
            &actor,
            id,
            RegistrationAction::Payment(input),
            expected,
        )
        .await?,
    ))
}

/// Withdraws a registration: frees the place, promotes the waitlist, marks a paid fee refund due.
#[utoipa::path(post, path = "/api/v1/registrations/{id}/withdraw", tag = "registrations", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Registration id"),
        ("If-Match" = Option<String>, Header, description = "The registration's version last read; a stale one gets 409")),
    responses((status = 200, body = RegistrationView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn withdraw_registration(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
) -> Result<AppJson<RegistrationView>, ApiError> {
    let expected = super::if_match(&headers)?;
    Ok(AppJson(
        service::registrations::act(
            &state.db,
            &actor,
            id,
            RegistrationAction::Withdraw,
            expected,
        )
        .await?,
    ))
}

/// Pays money back to a registration (at most what it holds; default all of it), recorded
/// in the ledger with its method.
#[utoipa::path(post, path = "/api/v1/registrations/{id}/refund", tag = "registrations", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Registration id"),
        ("If-Match" = Option<String>, Header, description = "The registration's version last read; a stale one gets 409")), request_body = RefundInput,
    responses((status = 200, body = RegistrationView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn refund_registration(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    headers: HeaderMap,
    AppJson(input): AppJson<RefundInput>,
) -> Result<AppJson<RegistrationView>, ApiError> {
    let expected = super::if_match(&headers)?;
    Ok(AppJson(
        service::payments::refund(&state.db, &actor, id, &input, expected).await?,
    ))
}

/// Voids a payment or refund recorded by mistake: kept (with its reason), no longer counted;
/// the registration's payment state follows. Answers the registration.
#[utoipa::path(post, path = "/api/v1/payments/{id}/void", tag = "registrations", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Payment id")), request_body = VoidInput,
    responses((status = 200, body = RegistrationView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn void_payment(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<VoidInput>,
) -> Result<AppJson<RegistrationView>, ApiError> {
    Ok(AppJson(
        service::payments::void(&state.db, &actor, id, &input).await?,
    ))
}

/// The desk list: every section's registrations (desk entries included) with their fees,
/// payments and refunds, and the totals per section and overall (paid, due, refunds; per fee
/// tier and per method). The tournament's staff only.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/desk", tag = "registrations", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = DeskList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_desk(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<DeskList>, ApiError> {
    Ok(AppJson(
        service::registrations::desk(&state.db, &actor, id, None).await?,
    ))
}

/// Cancels a section below its minimum: every registration cancelled, refunds listed.
#[utoipa::path(post, path = "/api/v1/sections/{id}/cancel", tag = "registrations", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = Cancellation), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn cancel_section(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Cancellation>, ApiError> {
    Ok(AppJson(
        service::registrations::cancel_section(&state.db, &actor, id).await?,
    ))
}

/// Splits a section's entrants into new sections at random (seeded) or by rating snake;
/// previews unless `apply` is true.
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/split", tag = "registrations", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")), request_body = SplitInput,
    responses((status = 200, body = SplitOutcome), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn split_section(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<SplitInput>,
) -> Result<AppJson<SplitOutcome>, ApiError> {
    Ok(AppJson(
        service::registrations::split(&state.db, &actor, id, &input).await?,
    ))
}
