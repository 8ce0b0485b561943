//! The public standings of a section, on screen and printed.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::tiebreaks::{heads, TiebreakHead};
use crate::http::pages::shared::{
    format_number, format_value, load_section, nav, SectionNav, View,
};
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

/// One line of the standings.
pub struct StandingLine {
    /// Rank (shared ranks repeat).
    pub rank: u32,
    /// Starting number.
    pub start_no: u32,
    /// Name.
    pub name: String,
    /// Club.
    pub club: String,
    /// Points.
    pub points: String,
    /// Tiebreak values in chain order.
    pub tiebreaks: Vec<String>,
    /// Withdrawn.
    pub withdrawn: bool,
    /// `lot` or `manual` when the arbiter ordered a tie the chain left.
    pub tie_decided_by: Option<String>,
}

/// What the standings page shows.
pub struct StandingsData {
    /// Rounds evaluated.
    pub round: u32,
    /// No result missing.
    pub is_final: bool,
    /// Tiebreak column heads, in chain order.
    pub tiebreaks: Vec<TiebreakHead>,
    /// Lines in ranking order.
    pub lines: Vec<StandingLine>,
}

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

fn standings_data(tr: Tr, view: service::standings::StandingsView) -> StandingsData {
    let keys = view.tiebreaks.clone();
    StandingsData {
        round: view.round,
        is_final: view.is_final,
        lines: view
            .rows
            .into_iter()
            .map(|row| StandingLine {
                tie_decided_by: row.tie_decided_by.clone(),
                rank: row.rank,
                start_no: row.start_no,
                club: row.club.unwrap_or_default(),
                points: format_number(row.points),
                tiebreaks: keys
                    .iter()
                    .map(|k| format_value(row.tiebreaks.get(k)))
                    .collect(),
                withdrawn: row.status == "withdrawn",
                name: row.name,
            })
            .collect(),
        tiebreaks: heads(tr, &keys),
    }
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
    let data = standings_data(ctx.tr(), standings);
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
