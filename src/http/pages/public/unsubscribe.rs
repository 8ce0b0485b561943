//! The one-click unsubscribe of e-mail (issue #37): `/unsubscribe/{token}`, the link in every
//! message and in its `List-Unsubscribe` header. `GET` shows whose e-mail stops, with one
//! button; `POST` (the button, or a mail program's RFC 8058 one-click
//! `List-Unsubscribe=One-Click`) stops it. The token is the credential (no sign-in, no CSRF
//! token: it is in no page another site could read); private like `/k/{key}`.

use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use askama::Template;
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, REFERRER_POLICY};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route("/unsubscribe/{token}", get(show).post(stop))
}

/// `/unsubscribe/{token}`.
#[derive(Template)]
#[template(path = "public/unsubscribe.html")]
pub struct UnsubscribePage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The token (the form's address).
    pub token: String,
    /// The registrant's name.
    pub name: String,
    /// The tournament.
    pub tournament: String,
    /// Whether e-mail still goes out (else: done).
    pub subscribed: bool,
}

fn private(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store, private"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

fn render(ctx: PageCtx, token: String, who: service::mail::Unsubscribing) -> Response {
    private(
        Page(
            StatusCode::OK,
            UnsubscribePage {
                tr: ctx.tr(),
                ctx,
                token,
                name: who.name,
                tournament: who.tournament,
                subscribed: who.subscribed,
            },
        )
        .into_response(),
    )
}

/// `GET /unsubscribe/{token}`
pub async fn show(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(token): PagePath<String>,
) -> Response {
    match service::mail::unsubscribing(&state.db, &token).await {
        Ok(who) => render(ctx, token, who),
        Err(err) => private(PageError::from_ctx(err, &ctx).into_response()),
    }
}

/// `POST /unsubscribe/{token}`
pub async fn stop(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(token): PagePath<String>,
) -> Response {
    match service::mail::unsubscribe(&state.db, &token).await {
        Ok(who) => render(ctx, token, who),
        Err(err) => private(PageError::from_ctx(err, &ctx).into_response()),
    }
}
