//! The public standings of a section, on screen and printed.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::standings::{standings_data, StandingsData};
use crate::http::pages::shared::{load_section, nav, SectionNav, View};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/s/{section_id}/standings", get(show_standings))
        .route("/s/{section_id}/standings/print", get(print_standings))
}

// ---------------------------------------------------------------- standings

/// `GET /s/{section_id}/standings`
#[derive(Template)]
#[template(path = "public/standings.html")]
pub struct StandingsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// The standings.
    pub data: StandingsData,
}

/// `GET /s/{section_id}/standings/print`
#[derive(Template)]
#[template(path = "print/standings.html")]
pub struct StandingsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The standings.
    pub data: StandingsData,
}

/// The standings page; `tab` is the section tab marked current (`standings`, or `now` when
/// `/s/{id}/now` shows it).
pub(super) async fn standings(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    view: View,
    tab: &'static str,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let loaded = async {
        let standings = service::standings::compute(&state.db, id).await?;
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((standings, rounds))
    }
    .await;
    let (standings, rounds) = loaded.or_page(&ctx)?;
    let data = standings_data(ctx.tr(), id, standings);
    let nav = nav(&t, &s, &rounds, tab, 0, prizes);
    let tr = ctx.tr();
    Ok(match view {
        View::Screen => Page(StatusCode::OK, StandingsPage { tr, ctx, nav, data }).into_response(),
        View::Print => Page(StatusCode::OK, StandingsPrint { tr, ctx, nav, data }).into_response(),
    })
}

/// `GET /s/{section_id}/standings`
pub async fn show_standings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    headers: axum::http::HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        standings(state, ctx, id, View::Screen, "standings")
    })
    .await
}

/// `GET /s/{section_id}/standings/print`
pub async fn print_standings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    standings(state, ctx, id, View::Print, "standings").await
}
