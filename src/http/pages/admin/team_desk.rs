//! The desk's team list of a team section (issue #41): the teams with their rosters, and a
//! form to add a team (name, club, captain, players in board order, one per line).

use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::teams::{RosterInput, TeamInput, TeamView};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route("/admin/s/{section_id}/teams", get(show).post(add))
}

/// `GET /admin/s/{section_id}/teams`
#[derive(Template)]
#[template(path = "admin/teams.html")]
pub struct TeamsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section_id: Uuid,
    /// The teams by starting number.
    pub teams: Vec<TeamView>,
}

/// `GET /admin/s/{section_id}/teams`
pub async fn show(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let list = service::teams::list(&state.db, Some(&actor), id)
        .await
        .or_page(&ctx)?;
    let page = TeamsPage {
        tr: ctx.tr(),
        ctx,
        section_id: id,
        teams: list.teams,
    };
    Ok(Page(StatusCode::OK, page).into_response())
}

/// The add-a-team form.
#[derive(Debug, serde::Deserialize)]
pub struct TeamForm {
    /// Name.
    pub name: String,
    /// Club.
    #[serde(default)]
    pub club: String,
    /// Captain (a name; the player's board when it is one of the players).
    #[serde(default)]
    pub captain: String,
    /// Players in board order, one per line.
    #[serde(default)]
    pub players: String,
}

/// `POST /admin/s/{section_id}/teams`
pub async fn add(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<TeamForm>,
) -> Result<Response, PageError> {
    let names: Vec<String> = form
        .players
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let captain = form.captain.trim();
    let position = names.iter().position(|n| n == captain);
    let input = TeamInput {
        name: Some(form.name.trim().to_string()),
        club: Some(form.club.trim().to_string()).filter(|c| !c.is_empty()),
        captain: (position.is_none() && !captain.is_empty()).then(|| captain.to_string()),
        captain_position: position.map(|p| p as i64 + 1),
        roster: Some(
            names
                .into_iter()
                .map(|name| RosterInput {
                    name: Some(name),
                    ..RosterInput::default()
                })
                .collect(),
        ),
        ..TeamInput::default()
    };
    service::teams::create(&state.db, &actor, id, &input)
        .await
        .or_page(&ctx)?;
    Ok(see_other(&format!("/admin/s/{id}/teams")))
}
