//! The revealed hidden-piece set-ups of a round (Jieqi, Banqi), once the round is over.

use super::pairings::load_round;
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::SectionNav;
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
    Router::new().route("/s/{section_id}/setups/{n}", get(show_setups))
}

// ---------------------------------------------------------------- revealed set-ups

/// `GET /s/{section_id}/setups/{n}`: a round's hidden-piece set-ups as the public may see them.
#[derive(Template)]
#[template(path = "public/setups.html")]
pub struct SetupsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Section heading and tabs.
    pub nav: SectionNav,
    /// Round number.
    pub number: i32,
    /// Whether the round is complete and its set-ups revealed.
    pub revealed: bool,
    /// Each set-up with its diagram once revealed.
    pub setups: Vec<(
        service::setups::SetupView,
        Option<crate::http::pages::shared::setup::Diagram>,
    )>,
}

/// `GET /s/{section_id}/setups/{n}`
pub async fn show_setups(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Result<Response, PageError> {
    let (ctx, nav, _) = match load_round(&state, ctx, id, n).await {
        Ok(found) => found,
        Err(response) => return Ok(response),
    };
    // No actor, even for a logged-in arbiter: this page may be on the wall, and the set-up
    // is secret until the round is complete.
    let setups = service::setups::of_round(&state.db, None, id, n)
        .await
        .or_page(&ctx)?;
    let revealed = setups.revealed;
    let setups = setups
        .setups
        .into_iter()
        .map(|view| {
            let diagram = view
                .setup
                .as_deref()
                .and_then(crate::http::pages::shared::setup::diagram);
            (view, diagram)
        })
        .collect();
    Ok(Page(
        StatusCode::OK,
        SetupsPage {
            tr: ctx.tr(),
            ctx,
            nav,
            number: n,
            revealed,
            setups,
        },
    )
    .into_response())
}
