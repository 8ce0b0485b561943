//! Issue #40 on the desk's knockout tab: each knockout round's rules (captured pieces, time
//! control, tiebreak games) set by the arbiter, and the set-up sheets of a round's knockout
//! games to print — one page per game (per-game set-ups) or per game number (duplicate
//! set-ups, the same on every match of the round).

use super::form::{require, text, Fields};
use super::knockout::refused;
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::knockout::round_title;
use crate::http::pages::shared::setup::{diagram, Diagram};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::check::Check;
use crate::service::knockout_stages::{parse_lines, StageInput};
use crate::service::sections::Section;
use crate::service::{self, FieldErrors};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/admin/s/{section_id}/knockout/stages/{round}",
            post(set_stage),
        )
        .route(
            "/admin/s/{section_id}/knockout/setups/{round}/print",
            get(print_sheets),
        )
}

/// `POST /admin/s/{section_id}/knockout/stages/{round}`: `capture_rule`, `time_control`,
/// `tiebreaks` (one line each: kind, games, time control), `version`.
pub async fn set_stage(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, round)): PagePath<(Uuid, i32)>,
    AppForm(mut form): AppForm<Fields>,
) -> Result<Response, PageError> {
    form.insert("stage_round".into(), round.to_string());
    let mut check = Check::new();
    let lines = parse_lines(form.get("tiebreaks").map_or("", String::as_str), &mut check);
    let result = match check.finish() {
        Err(err) => Err(err),
        Ok(()) => {
            let input = StageInput {
                capture_rule: text(&form, "capture_rule"),
                time_control: Some(form.get("time_control").cloned().unwrap_or_default()),
                tiebreaks: Some(lines),
                default_tiebreaks: None,
                version: form.get("version").and_then(|v| v.trim().parse().ok()),
            };
            service::knockout_stages::set_stage(&state.db, &actor, id, round, &input)
                .await
                .map(drop)
        }
    };
    Ok(match result {
        Ok(()) => see_other(&format!("/admin/s/{id}/knockout")),
        Err(err) => match refused(&err, ctx.lang) {
            Some((status, fields, message)) => {
                let _ = fields;
                let shown = format!("{}: {message}", ctx.tr().fmt("audit.place.ko_round", round));
                super::knockout::page(
                    &state,
                    &actor,
                    ctx,
                    id,
                    &form,
                    (FieldErrors::new(), Some(shown)),
                    status,
                )
                .await?
            }
            None => return Err(PageError::from_ctx(err, &ctx)),
        },
    })
}

/// One sheet: a game's set-up (per game) or a game number's (duplicate).
pub struct KoSheet {
    /// Where it is played.
    pub place: String,
    /// Red and Black, for a match's own set-up.
    pub players: Option<(String, String)>,
    /// The diagram.
    pub diagram: Option<Diagram>,
    /// The canonical text.
    pub setup: String,
    /// The public commitment.
    pub commitment: String,
}

/// `GET /admin/s/{section_id}/knockout/setups/{round}/print`
#[derive(Template)]
#[template(path = "print/ko_setup.html")]
pub struct KoSheetPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Tournament name.
    pub tournament_name: String,
    /// The section.
    pub section: Section,
    /// The round's heading.
    pub title: String,
    /// Duplicate set-ups (one per game number for every match).
    pub duplicate: bool,
    /// One sheet per page.
    pub sheets: Vec<KoSheet>,
}

/// `GET /admin/s/{section_id}/knockout/setups/{round}/print`: the arbiter's sheets for a
/// knockout round's set-ups not yet public (the games to come).
pub async fn print_sheets(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, round)): PagePath<(Uuid, i32)>,
) -> Result<Response, PageError> {
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        require(&state, &actor, section.tournament_id, Need::Scorer).await?;
        let tournament = service::tournaments::get(&state.db, section.tournament_id).await?;
        let bracket = service::knockout::get(&state.db, Some(&actor), id).await?;
        service::Result::Ok((tournament, section, bracket))
    }
    .await;
    let (tournament, section, bracket) = loaded.or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&tournament.default_language);
    let tr = ctx.tr();
    let rounds = bracket.stages.len() as i32;
    let title = round_title(tr, round, rounds);
    let duplicate = bracket.setup_mode == crate::vocab::KnockoutSetupMode::Duplicate;
    let mut sheets = Vec::new();
    for r in bracket.round_setups.iter().filter(|r| r.round == round) {
        let setup = r.setup.setup.clone().unwrap_or_default();
        sheets.push(KoSheet {
            place: format!(
                "{title} · {} ({})",
                tr.fmt("rec.game_n", r.game),
                tr.t("ko.setups.every_match")
            ),
            players: None,
            diagram: diagram(&setup),
            setup,
            commitment: r.setup.commitment.clone(),
        });
    }
    if !duplicate {
        for m in bracket.matches.iter().filter(|m| m.round == round) {
            let Some(s) = m.next_game.as_ref().and_then(|g| g.setup.as_ref()) else {
                continue;
            };
            let name = |e: Option<Uuid>| {
                [&m.high, &m.low]
                    .into_iter()
                    .flatten()
                    .find(|x| Some(x.entrant_id) == e)
                    .map(|x| x.name.clone())
                    .unwrap_or_default()
            };
            let black = [&m.high, &m.low]
                .into_iter()
                .flatten()
                .map(|x| x.entrant_id)
                .find(|e| Some(*e) != m.next_red);
            let setup = s.setup.clone().unwrap_or_default();
            let place = if m.third_place {
                tr.t("bracket.third").to_string()
            } else {
                format!("{title} · {}", m.slot)
            };
            sheets.push(KoSheet {
                place: format!("{place} · {}", tr.fmt("rec.game_n", m.games.len() + 1)),
                players: Some((name(m.next_red), name(black))),
                diagram: diagram(&setup),
                setup,
                commitment: s.commitment.clone(),
            });
        }
    }
    Ok(Page(
        StatusCode::OK,
        KoSheetPrint {
            tr,
            ctx,
            tournament_name: tournament.name,
            section,
            title,
            duplicate,
            sheets,
        },
    )
    .into_response())
}
