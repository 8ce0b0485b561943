//! Telling the players (issue #37): the round schedule, the webhooks and the deliveries.

use super::auth::ApiUser;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::page::Language;
use crate::http::session::ClientIp;
use crate::http::AppState;
use crate::service;
use crate::service::outbox::{DeliveriesView, WebhookInput, WebhookView};
use crate::service::push::{PushKey, PushSubscribed, PushSubscriptionInput, PushUnsubscribe};
use crate::service::schedule::{ScheduleInput, ScheduleView};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use uuid::Uuid;

/// The server's VAPID public key (RFC 8292), base64url: the `applicationServerKey` a browser
/// subscribes with (public). Made on the server's first start.
#[utoipa::path(get, path = "/api/v1/push/key", tag = "push",
    responses((status = 200, body = PushKey)))]
pub async fn get_push_key(State(state): State<AppState>) -> Result<AppJson<PushKey>, ApiError> {
    Ok(AppJson(service::push::public_key(&state.db).await?))
}

/// Subscribes a browser to the key's player's notifications: the body is the browser's
/// `PushSubscription` JSON (`endpoint`, `keys.p256dh`, `keys.auth`; other members are
/// ignored) and may name the notifications' `lang`. When a round is published, each
/// subscription gets one notification (round, board, colour, opponent, start), encrypted for
/// the browser (RFC 8291) and signed with the server's VAPID key. The endpoint must be https.
/// Subscribing again with the same endpoint renews its keys. A wrong key is 404 (and counts
/// against the address's limit, 429 beyond it).
#[utoipa::path(post, path = "/api/v1/keys/{key}/push", tag = "push",
    params(("key" = String, Path, description = "The player's key")), request_body = PushSubscriptionInput,
    responses((status = 201, body = PushSubscribed), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn post_key_push(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Language(lang): Language,
    headers: HeaderMap,
    AppPath(key): AppPath<String>,
    AppJson(input): AppJson<PushSubscriptionInput>,
) -> Result<(StatusCode, AppJson<PushSubscribed>), ApiError> {
    // The request's language counts only when it asked for one; else the event's.
    let asked = headers.contains_key(axum::http::header::ACCEPT_LANGUAGE)
        || headers.contains_key(axum::http::header::COOKIE);
    let subscribed = service::push::subscribe(
        &state.db,
        &state.security.limits,
        ip,
        &key,
        &input,
        asked.then_some(lang),
        state.security.allow_private_endpoints,
    )
    .await?;
    Ok((StatusCode::CREATED, AppJson(subscribed)))
}

/// Ends a browser's subscription: the body names its `endpoint` (the whole `PushSubscription`
/// JSON also does). 404 when this key has no subscription with it.
#[utoipa::path(delete, path = "/api/v1/keys/{key}/push", tag = "push",
    params(("key" = String, Path, description = "The player's key")), request_body = PushUnsubscribe,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn delete_key_push(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppPath(key): AppPath<String>,
    AppJson(input): AppJson<PushUnsubscribe>,
) -> Result<StatusCode, ApiError> {
    service::push::unsubscribe(&state.db, &state.security.limits, ip, &key, &input.endpoint)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A section's round schedule: each round's planned start, in UTC and in the event's time
/// zone (public).
#[utoipa::path(get, path = "/api/v1/sections/{id}/schedule", tag = "schedule",
    params(("id" = Uuid, Path, description = "Section id")),
    responses((status = 200, body = ScheduleView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_schedule(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<ScheduleView>, ApiError> {
    Ok(AppJson(service::schedule::get(&state.db, id).await?))
}

/// Sets a section's round schedule: `rounds` lists each planned round with `starts_at`
/// (RFC 3339 with its offset) or `local` (`2026-12-08T09:30` in the event's time zone); the
/// rounds not listed lose their start. A changed start counts up the round's `sequence`.
/// The tournament's arbiters; audited.
#[utoipa::path(put, path = "/api/v1/sections/{id}/schedule", tag = "schedule", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Section id")), request_body = ScheduleInput,
    responses((status = 200, body = ScheduleView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn put_schedule(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<ScheduleInput>,
) -> Result<AppJson<ScheduleView>, ApiError> {
    let (view, _changed) = service::schedule::set(&state.db, &actor, id, &input).await?;
    Ok(AppJson(view))
}

/// A tournament's webhooks (its arbiters).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/webhooks", tag = "webhooks", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = [WebhookView]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_webhooks(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<WebhookView>>, ApiError> {
    Ok(AppJson(
        service::outbox::webhooks(&state.db, &actor, id).await?,
    ))
}

/// Adds a webhook: every event of the tournament (`round.published`, `result.accepted`,
/// `result.corrected`, `schedule.changed`, `check_in.opened`, `test`) is POSTed to `url` as
/// `{"id", "event", "data"}`, signed `X-Arbiter-Signature: sha256=<hex HMAC-SHA256 of the
/// body with the secret>`, retried with back-off. A secret is made when none is given. The
/// tournament's arbiters; audited.
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/webhooks", tag = "webhooks", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")), request_body = WebhookInput,
    responses((status = 201, body = WebhookView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn add_webhook(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<WebhookInput>,
) -> Result<(StatusCode, AppJson<WebhookView>), ApiError> {
    Ok((
        StatusCode::CREATED,
        AppJson(service::outbox::add_webhook(&state.db, &actor, id, &input).await?),
    ))
}

/// Removes a webhook (the tournament's arbiters; audited).
#[utoipa::path(delete, path = "/api/v1/webhooks/{id}", tag = "webhooks", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Webhook id")),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn remove_webhook(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<StatusCode, ApiError> {
    service::outbox::remove_webhook(&state.db, &actor, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Queues a test event for a webhook; the answer is its message id.
#[utoipa::path(post, path = "/api/v1/webhooks/{id}/test", tag = "webhooks", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Webhook id")),
    responses((status = 202, body = TestQueued), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn test_webhook(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<(StatusCode, AppJson<TestQueued>), ApiError> {
    let queued = service::outbox::send_test(&state.db, &actor, id).await?;
    Ok((StatusCode::ACCEPTED, AppJson(TestQueued { queued })))
}

/// A queued test event.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct TestQueued {
    /// Its event key's id.
    pub queued: Uuid,
}

/// What was sent and what failed: counts by status and the newest failures (no message
/// bodies). The tournament's arbiters.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/deliveries", tag = "webhooks", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = DeliveriesView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_deliveries(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<DeliveriesView>, ApiError> {
    Ok(AppJson(
        service::outbox::deliveries(&state.db, &actor, id).await?,
    ))
}
