//! Issue #40: a knockout played like the Swiss rounds, in public. `/s/{id}/bracket/setups`
//! lists every knockout set-up: its commitment from before the game, and once revealed (the
//! match decided, or with duplicate set-ups the whole round) the set-up and salt, which the
//! browser checks against the commitment (`static/js/app.js`, `verifySetups`).
//! `/s/{id}/bracket/slips/{round}/print` prints a slip for each match of a knockout round
//! with its next game: the players, the stage's rules (time control, captured pieces,
//! tiebreak games) and the game's set-up commitment.

use crate::http::error::{OrPage, PageError};
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::knockout::{next_game, round_title, stage_line, StageLine};
use crate::http::pages::shared::setup::{diagram, Diagram};
use crate::http::pages::shared::{load_section, nav, SectionNav};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::knockout::BracketView;
use crate::service::setups::SetupView;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of these pages.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/s/{section_id}/bracket/setups", get(show_setups))
        .route(
            "/s/{section_id}/bracket/slips/{round}/print",
            get(print_slips),
        )
}

/// One set-up as listed.
pub struct SetupItem {
    /// Where it is played: `Semi-finals · 1 · Game 2`, or for a duplicate `Semi-finals ·
    /// Game 2 (every match)`.
    pub place: String,
    /// Commitment, set-up and salt (the last two once revealed).
    pub view: SetupView,
    /// The diagram, once revealed.
    pub diagram: Option<Diagram>,
}

/// `GET /s/{section_id}/bracket/setups`
#[derive(Template)]
#[template(path = "public/ko_setups.html")]
pub struct KoSetupsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// Every set-up, by round.
    pub items: Vec<SetupItem>,
}

/// The set-ups of a bracket as the public sees them, in play order.
pub fn setup_items(tr: Tr, view: &BracketView) -> Vec<SetupItem> {
    let rounds = view.stages.len() as i32;
    let item = |place: String, s: &SetupView| SetupItem {
        place,
        diagram: s.setup.as_deref().and_then(diagram),
        view: s.clone(),
    };
    let mut items = Vec::new();
    for r in &view.round_setups {
        items.push(item(
            format!(
                "{} · {} ({})",
                round_title(tr, r.round, rounds),
                tr.fmt("rec.game_n", r.game),
                tr.t("ko.setups.every_match")
            ),
            &r.setup,
        ));
    }
    for m in &view.matches {
        let title = if m.third_place {
            tr.t("bracket.third").to_string()
        } else {
            format!("{} · {}", round_title(tr, m.round, rounds), m.slot)
        };
        for g in &m.games {
            if let Some(s) = &g.setup {
                if view.round_setups.is_empty() {
                    items.push(item(
                        format!("{title} · {}", tr.fmt("rec.game_n", g.number)),
                        s,
                    ));
                }
            }
        }
        if let Some(s) = m.next_game.as_ref().and_then(|g| g.setup.as_ref()) {
            if view.round_setups.is_empty() {
                items.push(item(
                    format!("{title} · {}", tr.fmt("rec.game_n", m.games.len() + 1)),
                    s,
                ));
            }
        }
    }
    items
}

/// `GET /s/{section_id}/bracket/setups`: never with the visitor's powers (the page may be on
/// the wall; an arbiter's own set-ups are on the desk).
pub async fn show_setups(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let loaded = async {
        let bracket = service::knockout::get(&state.db, None, id).await?;
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((bracket, rounds))
    }
    .await;
    let (bracket, rounds) = loaded.or_page(&ctx)?;
    let tr = ctx.tr();
    Ok(Page(
        StatusCode::OK,
        KoSetupsPage {
            items: setup_items(tr, &bracket),
            nav: nav(&t, &s, &rounds, "bracket", 0, prizes),
            tr,
            ctx,
        },
    )
    .into_response())
}

/// One match slip.
pub struct MatchSlip {
    /// Match: round title and slot, or the 3rd-place match.
    pub title: String,
    /// The game due, in words.
    pub game: String,
    /// Red's seed and name.
    pub red: String,
    /// Black's seed and name.
    pub black: String,
    /// The set-up's commitment, when the game has one.
    pub commitment: Option<String>,
    /// The score so far (`1–1 · tiebreak 1–0`).
    pub score: String,
}

/// `GET /s/{section_id}/bracket/slips/{round}/print`
#[derive(Template)]
#[template(path = "print/ko_slips.html")]
pub struct KoSlipsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The round's rules in words.
    pub stage: StageLine,
    /// One slip per match with a game due.
    pub slips: Vec<MatchSlip>,
}

/// `GET /s/{section_id}/bracket/slips/{round}/print`: the slips of a knockout round's next
/// games (public: nothing on them is secret).
pub async fn print_slips(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, round)): PagePath<(Uuid, i32)>,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let loaded = async {
        let bracket = service::knockout::get(&state.db, None, id).await?;
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((bracket, rounds))
    }
    .await;
    let (bracket, rounds) = loaded.or_page(&ctx)?;
    let tr = ctx.tr();
    let count = bracket.stages.len() as i32;
    let Some(rules) = bracket.stages.iter().find(|r| r.round == round) else {
        return Err(PageError::from_service(
            service::Error::NotFound(crate::i18n::messages::NOT_FOUND_ROUND),
            ctx.lang,
        ));
    };
    let stage = stage_line(tr, rules, count);
    let side = |id: Option<Uuid>, m: &service::knockout::MatchView| {
        [&m.high, &m.low]
            .into_iter()
            .flatten()
            .find(|s| Some(s.entrant_id) == id)
            .map(|s| format!("({}) {}", s.seed, s.name))
            .unwrap_or_default()
    };
    let slips = bracket
        .matches
        .iter()
        .filter(|m| m.round == round)
        .filter_map(|m| {
            let (game, commitment) = next_game(tr, m)?;
            let red = m.next_red?;
            let black = [&m.high, &m.low]
                .into_iter()
                .flatten()
                .map(|s| s.entrant_id)
                .find(|e| *e != red);
            Some(MatchSlip {
                title: if m.third_place {
                    tr.t("bracket.third").to_string()
                } else {
                    format!("{} · {}", stage.title, m.slot)
                },
                game,
                red: side(Some(red), m),
                black: side(black, m),
                commitment,
                score: crate::http::pages::shared::MatchScoreText::of(tr, m).line(),
            })
        })
        .collect();
    Ok(Page(
        StatusCode::OK,
        KoSlipsPrint {
            nav: nav(&t, &s, &rounds, "bracket", 0, prizes),
            tr,
            ctx,
            stage,
            slips,
        },
    )
    .into_response())
}
