//! The desk's line-ups of a team section's round (issue #41): `/admin/s/{section_id}/rounds/
//! {n}/lineups` lists every team's roster in board order with a tick for each player who
//! plays; the ticked players, in roster order, are the line-up (board 1 first; a reserve takes
//! the board below the players it replaces). Saved through `service::teams::put_lineup`, the
//! API's path: the same checks, and its refusals shown in the team's form in the visitor's
//! language, nothing changed. Each team says who entered its line-up: the desk, the captain
//! (with the team's key), the default given at pairing, or nobody yet (the default will be
//! given: the strongest available by roster order).

use super::form::{powers, Fields};
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::sections::Section;
use crate::service::teams::{LineupBy, LineupInput, LineupView, RosterMember, TeamView};
use crate::service::users::Actor;
use crate::service::{self, Error};
use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::collections::HashMap;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/s/{section_id}/rounds/{n}/lineups", get(show))
        .route(
            "/admin/s/{section_id}/rounds/{n}/lineups/{team_id}",
            post(save),
        )
}

/// One roster player in a team's form.
pub struct PlayerRow {
    /// The player.
    pub player: RosterMember,
    /// Ticked: plays this round.
    pub plays: bool,
    /// The board the player has in the stored line-up.
    pub board: Option<i16>,
}

/// One team's form.
pub struct TeamForm {
    /// The team.
    pub team: TeamView,
    /// Catalogue key of who entered the line-up (`adm.lineups.by.desk`…).
    pub by_key: String,
    /// The roster with the ticks.
    pub players: Vec<PlayerRow>,
    /// Why the last save of this team was refused.
    pub errors: Vec<String>,
    /// Saved just now.
    pub saved: bool,
}

/// `GET /admin/s/{section_id}/rounds/{n}/lineups`
#[derive(Template)]
#[template(path = "admin/team_lineups.html")]
pub struct LineupsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Round number.
    pub number: i32,
    /// Every round of the section (the round links).
    pub rounds: Vec<i32>,
    /// Boards per match.
    pub boards: u32,
    /// The teams' forms.
    pub teams: Vec<TeamForm>,
    /// The viewer may save line-ups.
    pub can_edit: bool,
}

/// `?saved={team_id}` after a save.
#[derive(Debug, Default, serde::Deserialize)]
pub struct SavedQuery {
    /// The team saved.
    pub saved: Option<Uuid>,
}

/// A refused save: the team, its posted ticks, the messages.
struct Refused {
    team: Uuid,
    ticked: Vec<Uuid>,
    errors: Vec<String>,
}

#[allow(clippy::too_many_arguments)]
async fn render(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    n: i32,
    saved: Option<Uuid>,
    refused: Option<Refused>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        if n < 1 || n > section.rounds {
            return Err(Error::NotFound(crate::i18n::messages::NOT_FOUND_ROUND));
        }
        let list = service::teams::list(&state.db, Some(actor), id).await?;
        let lineups = service::teams::lineups(&state.db, Some(actor), id, n).await?;
        let powers = powers(state, actor, section.tournament_id).await?;
        service::Result::Ok((section, list, lineups, powers))
    }
    .await;
    let (section, list, lineups, powers) = loaded.or_page(&ctx)?;
    let lineups: HashMap<Uuid, LineupView> = lineups.into_iter().map(|l| (l.team_id, l)).collect();
    let boards = list.settings.boards;
    let teams = list
        .teams
        .into_iter()
        .map(|team| {
            let lineup = lineups.get(&team.id);
            let by = lineup.and_then(|l| l.entered_by.clone());
            let stored: HashMap<Uuid, i16> = lineup
                .map(|l| l.boards.iter().map(|b| (b.player_id, b.board)).collect())
                .unwrap_or_default();
            let mine = refused.as_ref().filter(|r| r.team == team.id);
            let players = team
                .roster
                .iter()
                .map(|p| PlayerRow {
                    plays: match (mine, by.is_some()) {
                        (Some(r), _) => r.ticked.contains(&p.player_id),
                        (None, true) => stored.contains_key(&p.player_id),
                        // No line-up yet: the default, the first players by roster order.
                        (None, false) => !p.reserve,
                    },
                    board: stored.get(&p.player_id).copied(),
                    player: p.clone(),
                })
                .collect();
            TeamForm {
                by_key: format!("adm.lineups.by.{}", by.as_deref().unwrap_or("none")),
                players,
                errors: mine.map(|r| r.errors.clone()).unwrap_or_default(),
                saved: saved == Some(team.id),
                team,
            }
        })
        .collect();
    Ok(Page(
        status,
        LineupsPage {
            tr: ctx.tr(),
            number: n,
            rounds: (1..=section.rounds).collect(),
            section,
            boards,
            teams,
            can_edit: powers.arbiter,
            ctx,
        },
    )
    .into_response())
}

/// `GET /admin/s/{section_id}/rounds/{n}/lineups`
pub async fn show(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    Query(query): Query<SavedQuery>,
) -> Result<Response, PageError> {
    render(
        &state,
        &actor,
        ctx,
        id,
        n,
        query.saved,
        None,
        StatusCode::OK,
    )
    .await
}

/// `POST /admin/s/{section_id}/rounds/{n}/lineups/{team_id}`: the ticked players
/// (`play-{player_id}`), in roster order, become the team's line-up of round `n`. Back to
/// the page on success; the page again with the service's refusal in the team's form
/// (422 invalid, 409 too late) otherwise.
pub async fn save(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n, team_id)): PagePath<(Uuid, i32, Uuid)>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let team = service::teams::get(&state.db, Some(&actor), team_id)
        .await
        .or_page(&ctx)?;
    if team.section_id != id {
        return Err(PageError::from_ctx(
            Error::NotFound(crate::i18n::messages::NOT_FOUND_TEAM),
            &ctx,
        ));
    }
    let ticked: Vec<Uuid> = team
        .roster
        .iter()
        .filter(|p| super::form::checkbox(&form, &format!("play-{}", p.player_id)))
        .map(|p| p.player_id)
        .collect();
    let input = LineupInput {
        round: None,
        players: ticked.clone(),
    };
    match service::teams::put_lineup(
        &state.db,
        LineupBy::Desk(&actor),
        Some(id),
        Some(n),
        Some(team_id),
        &input,
    )
    .await
    {
        Ok(_) => Ok(see_other(&format!(
            "/admin/s/{id}/rounds/{n}/lineups?saved={team_id}#team-{team_id}"
        ))),
        Err(err @ (Error::Invalid { .. } | Error::Conflict(_))) => {
            let tr = ctx.tr();
            let status = crate::http::error::status(&err);
            let errors = match &err {
                Error::Invalid { fields, .. } if !fields.is_empty() => {
                    fields.values().flatten().map(|m| tr.msg(m)).collect()
                }
                _ => vec![err.render(ctx.lang)],
            };
            let refused = Refused {
                team: team_id,
                ticked,
                errors,
            };
            render(&state, &actor, ctx, id, n, None, Some(refused), status).await
        }
        Err(err) => Err(PageError::from_ctx(err, &ctx)),
    }
}
