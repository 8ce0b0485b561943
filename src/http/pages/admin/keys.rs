//! Players' key cards (issue 36): one A4 sheet of cards per section
//! (`/admin/s/{section_id}/keys/print`: name, starting number, the QR code of the player's own
//! page `/k/{key}`, the key in groups), one entrant's card on demand, and the re-issue of an
//! entrant's key (the old one stops working). The tournament's arbiters only.

use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::qr_svg;
use crate::http::public_url;
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::keys::EntrantKey;
use crate::service::sections::Section;
use askama::Template;
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, REFERRER_POLICY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/s/{section_id}/keys/print", get(print_section))
        .route(
            "/admin/s/{section_id}/entrants/{entrant_id}/key/print",
            get(print_one),
        )
        .route(
            "/admin/s/{section_id}/entrants/{entrant_id}/key",
            post(reissue),
        )
}

/// One card.
pub struct Card {
    /// Starting number, or empty.
    pub start_no: String,
    /// Name.
    pub name: String,
    /// The key in groups of four.
    pub key: String,
    /// The player's page.
    pub url: String,
    /// Its QR code.
    pub qr: String,
}

/// The cards of a section, or of one entrant.
#[derive(Template)]
#[template(path = "print/key_cards.html")]
pub struct CardsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Tournament name.
    pub tournament_name: String,
    /// The cards.
    pub cards: Vec<Card>,
}

fn card(state: &AppState, headers: &HeaderMap, k: &EntrantKey) -> Card {
    let url = public_url(state.security.public_url.as_deref(), headers, &k.path);
    Card {
        start_no: k.start_no.map(|n| n.to_string()).unwrap_or_default(),
        name: k.name.clone(),
        key: k.display.clone(),
        qr: qr_svg(&url),
        url,
    }
}

async fn render(
    state: &AppState,
    ctx: PageCtx,
    section_id: Uuid,
    keys: Vec<EntrantKey>,
    headers: &HeaderMap,
) -> Result<Response, PageError> {
    let section = service::sections::get(&state.db, section_id)
        .await
        .or_page(&ctx)?;
    let tournament = service::tournaments::get(&state.db, section.tournament_id)
        .await
        .or_page(&ctx)?;
    let cards = keys.iter().map(|k| card(state, headers, k)).collect();
    let mut response = Page(
        StatusCode::OK,
        CardsPrint {
            tr: ctx.tr(),
            section,
            tournament_name: tournament.name,
            cards,
            ctx,
        },
    )
    .into_response();
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store, private"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    Ok(response)
}

/// `GET /admin/s/{section_id}/keys/print`: every entrant's card.
pub async fn print_section(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(section_id): PagePath<Uuid>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let keys = service::keys::section_keys(&state.db, &actor, section_id)
        .await
        .or_page(&ctx)?;
    render(&state, ctx, section_id, keys, &headers).await
}

/// `GET /admin/s/{section_id}/entrants/{entrant_id}/key/print`: one entrant's card.
pub async fn print_one(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((section_id, entrant_id)): PagePath<(Uuid, Uuid)>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let key = service::keys::entrant_key(&state.db, &actor, entrant_id)
        .await
        .or_page(&ctx)?;
    render(&state, ctx, section_id, vec![key], &headers).await
}

/// `POST /admin/s/{section_id}/entrants/{entrant_id}/key`: a new key; its card next.
pub async fn reissue(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((section_id, entrant_id)): PagePath<(Uuid, Uuid)>,
    AppForm(_form): AppForm<super::form::Fields>,
) -> Result<Response, PageError> {
    service::keys::reissue(&state.db, &actor, entrant_id)
        .await
        .or_page(&ctx)?;
    Ok(see_other(&format!(
        "/admin/s/{section_id}/entrants/{entrant_id}/key/print"
    )))
}
