//! The desk's standings tab (`/admin/s/{section_id}/standings`, issue #15): the standings as
//! the public page shows them, with what the desk does from there (ties, prints, exports).

use super::form::require;
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::standings::{standings_data, StandingsData};
use crate::http::session::CurrentUser;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::access::Need;
use crate::service::sections::Section;
use crate::service::tournaments::Tournament;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route("/admin/s/{section_id}/standings", get(show_standings))
}

/// `GET /admin/s/{section_id}/standings`
#[derive(Template)]
#[template(path = "admin/standings.html")]
pub struct StandingsTab {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tournament.
    pub tournament: Tournament,
    /// The section.
    pub section: Section,
    /// The standings.
    pub data: StandingsData,
    /// Tied groups the chain leaves and the arbiter has not decided yet.
    pub ties: usize,
}

/// `GET /admin/s/{section_id}/standings`: scorers may look, as at the rest of the desk.
pub async fn show_standings(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Page<StandingsTab>, PageError> {
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        require(&state, &actor, section.tournament_id, Need::Scorer).await?;
        let tournament = service::tournaments::get(&state.db, section.tournament_id).await?;
        let standings = service::standings::compute(&state.db, id).await?;
        let ties = service::ties::list(&state.db, id).await?;
        let undecided = ties.iter().filter(|g| g.decision.is_none()).count();
        service::Result::Ok((tournament, section, standings, undecided))
    }
    .await;
    let (tournament, section, standings, ties) = loaded.or_page(&ctx)?;
    let tr = ctx.tr();
    Ok(Page(
        StatusCode::OK,
        StandingsTab {
            tr,
            ctx,
            tournament,
            data: standings_data(tr, id, standings),
            section,
            ties,
        },
    ))
}
