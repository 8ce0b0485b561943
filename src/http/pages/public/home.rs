//! The home page: every tournament, with an empty-state message.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::TournamentItem;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route("/", get(show_home))
}

/// The home page view.
#[derive(Template)]
#[template(path = "pages/home.html")]
pub struct HomePage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tournaments.
    pub tournaments: Vec<TournamentItem>,
}

/// `GET /`
pub async fn show_home(State(state): State<AppState>, ctx: PageCtx) -> Result<Response, PageError> {
    let tournaments = service::tournaments::public_summaries(&state.db)
        .await
        .or_page(&ctx)?;
    Ok(Page(
        StatusCode::OK,
        HomePage {
            tr: ctx.tr(),
            ctx,
            tournaments: tournaments.into_iter().map(TournamentItem::from).collect(),
        },
    )
    .into_response())
}
