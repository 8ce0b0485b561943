//! The desk's notifications (issue #37): `/admin/t/{id}/notifications` shows the tournament's
//! webhooks (add, remove, send a test event) and what the outbox sent and what failed (counts,
//! and the failures with their errors; never a message's body). Removing a webhook asks first:
//! the desk's Remove links to the confirmation page, the `GET` of the action's own address,
//! and only its form posts (as the other destructive actions, `admin::confirm`).

use super::form::Fields;
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::confirm::{ConfirmPage, Crumb};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::outbox::{DeliveriesView, WebhookInput, WebhookView};
use crate::service::tournaments::Tournament;
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
            "/admin/t/{tournament_id}/notifications",
            get(show).post(add),
        )
        .route(
            "/admin/t/{tournament_id}/webhooks/{webhook_id}/test",
            post(test),
        )
        .route(
            "/admin/t/{tournament_id}/webhooks/{webhook_id}/remove",
            get(confirm_remove).post(remove),
        )
}

/// `GET /admin/t/{id}/notifications`
#[derive(Template)]
#[template(path = "admin/notifications.html")]
pub struct NotificationsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tournament.
    pub tournament: Tournament,
    /// Its webhooks.
    pub hooks: Vec<WebhookView>,
    /// What was sent and what failed.
    pub deliveries: DeliveriesView,
    /// The URL as entered, after a refusal.
    pub url: String,
    /// Why the last action was refused.
    pub error: Option<String>,
    /// What the last action did (`added`, `test`, `removed`).
    pub done: Option<String>,
}

async fn page(
    state: &AppState,
    actor: &service::users::Actor,
    ctx: PageCtx,
    id: Uuid,
    (url, error, done): (String, Option<String>, Option<String>),
    status: StatusCode,
) -> Result<Response, PageError> {
    let tournament = service::tournaments::get(&state.db, id)
        .await
        .or_page(&ctx)?;
    let hooks = service::outbox::webhooks(&state.db, actor, id)
        .await
        .or_page(&ctx)?;
    let deliveries = service::outbox::deliveries(&state.db, actor, id)
        .await
        .or_page(&ctx)?;
    Ok(Page(
        status,
        NotificationsPage {
            tr: ctx.tr(),
            ctx,
            tournament,
            hooks,
            deliveries,
            url,
            error,
            done,
        },
    )
    .into_response())
}

/// `GET /admin/t/{id}/notifications`
pub async fn show(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let done = uri.query().and_then(|q| {
        ["added", "test", "removed"]
            .into_iter()
            .find(|d| q == format!("done={d}"))
            .map(str::to_string)
    });
    page(
        &state,
        &actor,
        ctx,
        id,
        (String::new(), None, done),
        StatusCode::OK,
    )
    .await
}

/// `POST /admin/t/{id}/notifications`: adds a webhook.
pub async fn add(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let input = WebhookInput {
        url: form.get("url").cloned().unwrap_or_default(),
        secret: form.get("secret").cloned().filter(|s| !s.trim().is_empty()),
    };
    match service::outbox::add_webhook(&state.db, &actor, id, &input).await {
        Ok(_) => Ok(see_other(&format!(
            "/admin/t/{id}/notifications?done=added"
        ))),
        Err(err) => match super::form::invalid_fields(&err, ctx.tr()) {
            Some((message, fields)) => {
                let tr = ctx.tr();
                let details: Vec<String> = fields.values().flatten().map(|m| tr.msg(m)).collect();
                let text = format!("{message} {}", details.join("; "));
                page(
                    &state,
                    &actor,
                    ctx,
                    id,
                    (input.url, Some(text), None),
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
                .await
            }
            None => Err(PageError::from_ctx(err, &ctx)),
        },
    }
}

/// `POST /admin/t/{id}/webhooks/{webhook}/test`: queues a test event.
pub async fn test(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, hook)): PagePath<(Uuid, Uuid)>,
    AppForm(_form): AppForm<Fields>,
) -> Result<Response, PageError> {
    service::outbox::send_test(&state.db, &actor, hook)
        .await
        .or_page(&ctx)?;
    Ok(see_other(&format!("/admin/t/{id}/notifications?done=test")))
}

/// `GET /admin/t/{id}/webhooks/{webhook}/remove`: "Remove the webhook https://…?"
pub async fn confirm_remove(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, hook)): PagePath<(Uuid, Uuid)>,
) -> Result<Page<ConfirmPage>, PageError> {
    let tournament = service::tournaments::get(&state.db, id)
        .await
        .or_page(&ctx)?;
    let hooks = service::outbox::webhooks(&state.db, &actor, id)
        .await
        .or_page(&ctx)?;
    let hook = hooks.into_iter().find(|h| h.id == hook).ok_or_else(|| {
        PageError::from_service(
            service::Error::NotFound(crate::i18n::messages::NOT_FOUND_WEBHOOK),
            ctx.lang,
        )
    })?;
    let tr = ctx.tr();
    let back = format!("/admin/t/{id}/notifications");
    Ok(Page(
        StatusCode::OK,
        ConfirmPage {
            tr,
            crumbs: vec![
                Crumb {
                    href: "/admin".into(),
                    label: tr.t("nav.dashboard").into(),
                },
                Crumb {
                    href: format!("/admin/t/{id}"),
                    label: tournament.name,
                },
                Crumb {
                    href: back.clone(),
                    label: tr.t("adm.notify").into(),
                },
            ],
            question: tr.fmt("adm.confirm.remove_webhook", &hook.url),
            lines: vec![tr.t("adm.confirm.remove_webhook_what").into()],
            action: format!("/admin/t/{id}/webhooks/{}/remove", hook.id),
            hidden: Vec::new(),
            force: None,
            confirm: tr.t("adm.notify.remove").into(),
            cancel: back,
            ctx,
        },
    ))
}

/// `POST /admin/t/{id}/webhooks/{webhook}/remove`: removes a webhook.
pub async fn remove(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, hook)): PagePath<(Uuid, Uuid)>,
    AppForm(_form): AppForm<Fields>,
) -> Result<Response, PageError> {
    service::outbox::remove_webhook(&state.db, &actor, hook)
        .await
        .or_page(&ctx)?;
    Ok(see_other(&format!(
        "/admin/t/{id}/notifications?done=removed"
    )))
}
