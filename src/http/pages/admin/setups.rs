//! The arbiter's view of a round's hidden-piece set-ups (Jieqi/Banqi): the commitment that
//! everyone sees, and for the arbiters the set-up itself as a diagram, its canonical text and
//! salt (`service::setups::of_round` decides what is revealed).

use super::form::require;
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::setup::{diagram, Diagram};
use crate::http::session::CurrentUser;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::access::Need;
use crate::service::sections::Section;
use crate::service::setups::RoundSetups;
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
        .route("/admin/s/{section_id}/rounds/{n}/setup", get(show_setup))
        .route(
            "/admin/s/{section_id}/rounds/{n}/setup/print",
            get(print_setup),
        )
}

/// `GET /admin/s/{section_id}/rounds/{n}/setup`
#[derive(Template)]
#[template(path = "admin/setup.html")]
pub struct SetupPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Round number.
    pub number: i32,
    /// The set-ups.
    pub setups: RoundSetups,
    /// Each set-up's board diagram, drawn as the print and the public page draw it (the
    /// API's text diagram has an English legend).
    pub diagrams: Vec<Option<Diagram>>,
}

/// `GET /admin/s/{section_id}/rounds/{n}/setup`
pub async fn show_setup(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Result<Response, PageError> {
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        require(&state, &actor, section.tournament_id, Need::Scorer).await?;
        let setups = service::setups::of_round(&state.db, Some(&actor), id, n).await?;
        service::Result::Ok((section, setups))
    }
    .await;
    Ok(match loaded {
        Ok((section, setups)) => Page(
            StatusCode::OK,
            SetupPage {
                tr: ctx.tr(),
                ctx,
                section,
                number: n,
                diagrams: setups
                    .setups
                    .iter()
                    .map(|view| {
                        view.setup
                            .as_deref()
                            .and_then(crate::http::pages::shared::setup::diagram)
                    })
                    .collect(),
                setups,
            },
        )
        .into_response(),
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    })
}

/// One sheet: the one set-up of a duplicate round, or one board's.
pub struct SetupSheet {
    /// Board number (per-board mode).
    pub board: Option<i32>,
    /// Red and Black of that board, when it has a game.
    pub players: Option<(String, String)>,
    /// The diagram.
    pub diagram: Option<Diagram>,
    /// The canonical set-up text.
    pub setup: String,
    /// The commitment published before the round.
    pub commitment: String,
}

/// `GET /admin/s/{section_id}/rounds/{n}/setup/print`
#[derive(Template)]
#[template(path = "print/setup.html")]
pub struct SetupPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Tournament name.
    pub tournament_name: String,
    /// The section.
    pub section: Section,
    /// Round number.
    pub number: i32,
    /// `duplicate` or `per_board`.
    pub mode: String,
    /// One sheet per set-up (a page each).
    pub sheets: Vec<SetupSheet>,
}

/// `GET /admin/s/{section_id}/rounds/{n}/setup/print`: the arbiter's A4 set-up sheet, one
/// page per set-up with its board diagram and commitment.
pub async fn print_setup(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Result<Response, PageError> {
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        require(&state, &actor, section.tournament_id, Need::Scorer).await?;
        let tournament = service::tournaments::get(&state.db, section.tournament_id).await?;
        let setups = service::setups::of_round(&state.db, Some(&actor), id, n).await?;
        let round = service::rounds::get(&state.db, Some(&actor), id, n).await?;
        service::Result::Ok((tournament, section, setups, round))
    }
    .await;
    let (tournament, section, setups, round) = loaded.or_page(&ctx)?;
    let mut sheets: Vec<SetupSheet> = setups
        .setups
        .into_iter()
        .map(|s| {
            // The service shows arbiters the set-up at once; the sheet is theirs only.
            let setup = s.setup.unwrap_or_default();
            let players = s.board.and_then(|number| {
                let b = round.boards.iter().find(|b| b.number == number)?;
                let black = b.black.as_ref()?;
                Some((b.red.name.clone(), black.name.clone()))
            });
            SetupSheet {
                board: s.board,
                players,
                diagram: diagram(&setup),
                setup,
                commitment: s.commitment,
            }
        })
        .collect();
    // In board order, as the arbiter walks the hall.
    sheets.sort_by_key(|s| s.board);
    let ctx = ctx.with_default_tag(&tournament.default_language);
    Ok(Page(
        StatusCode::OK,
        SetupPrint {
            tr: ctx.tr(),
            ctx,
            tournament_name: tournament.name,
            section,
            number: n,
            mode: setups.mode,
            sheets,
        },
    )
    .into_response())
}
