//! The arbiter dashboard under `/admin` (login required).

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::TournamentItem;
use crate::http::session::CurrentUser;
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
    Router::new().route("/admin", get(show_dashboard))
}

/// The dashboard view.
#[derive(Template)]
#[template(path = "admin/dashboard.html")]
pub struct DashboardPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Who is logged in.
    pub username: String,
    /// Catalogue key of the user's role.
    pub role_key: String,
    /// Every tournament.
    pub tournaments: Vec<TournamentItem>,
}

/// `GET /admin`
pub async fn show_dashboard(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
) -> Result<Response, PageError> {
    let tournaments = service::tournaments::list_summaries(&state.db)
        .await
        .or_page(&ctx)?;
    Ok(Page(
        StatusCode::OK,
        DashboardPage {
            tr: ctx.tr(),
            ctx,
            username: actor.username,
            role_key: format!("role.{}", actor.role),
            tournaments: tournaments.into_iter().map(TournamentItem::from).collect(),
        },
    )
    .into_response())
}
