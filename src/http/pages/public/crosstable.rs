//! The public crosstable of a section, on screen and printed.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::{
    format_number, load_section, nav, nav_of, outcome_points, SectionNav, View,
};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::rounds::RoundView;
use crate::service::sections::ScoringView;
use arbiter_core::model::ResultCode;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::collections::HashMap;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/s/{section_id}/crosstable", get(show_crosstable))
        .route("/s/{section_id}/crosstable/print", get(print_crosstable))
}

// ---------------------------------------------------------------- crosstable

/// One cell of the crosstable: the opponent's line number, the colour, the outcome.
pub struct CrossCell {
    /// The opponent's line number in this table, or empty.
    pub opponent: String,
    /// Catalogue key of the colour (`colour.red_short`…), or empty.
    pub colour_key: &'static str,
    /// The points the game gave in the section's scoring (`2`, `1`, `0` where a win is worth
    /// 2; `1`, `½`, `0` in chess scoring), `+`/`−` for a forfeit, empty while pending.
    pub outcome: String,
    /// Catalogue key of a bye or absence (`absence.pairing`…), or empty.
    pub absence_key: String,
    /// The game's round and board, when there was a game.
    pub game: Option<(i32, i32)>,
    /// The game has a record (its board page is linked on screen).
    pub record: bool,
}

/// One line of the crosstable.
pub struct CrossLine {
    /// Line number (ranking order).
    pub line: usize,
    /// Rank.
    pub rank: u32,
    /// Starting number.
    pub start_no: u32,
    /// Name.
    pub name: String,
    /// One cell per round.
    pub cells: Vec<CrossCell>,
    /// Points.
    pub points: String,
}

/// What the crosstable shows.
pub struct CrossData {
    /// Round numbers (columns).
    pub rounds: Vec<i32>,
    /// Lines in ranking order.
    pub lines: Vec<CrossLine>,
    /// The points of a win, a draw and a loss as the cells write them (`2 / 1 / 0`).
    pub scale: String,
    /// The rounds the ranking evaluates.
    pub round: u32,
    /// No result is missing in them (else the order is provisional).
    pub is_final: bool,
}

/// `GET /s/{section_id}/crosstable`
#[derive(Template)]
#[template(path = "public/crosstable.html")]
pub struct CrosstablePage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// The table.
    pub data: CrossData,
}

/// `GET /s/{section_id}/crosstable/print`
#[derive(Template)]
#[template(path = "print/crosstable.html")]
pub struct CrosstablePrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The table.
    pub data: CrossData,
}

fn crosstable_data(
    standings: &service::standings::StandingsView,
    rounds: &[RoundView],
    scoring: &ScoringView,
) -> CrossData {
    let line_of: HashMap<Uuid, usize> = standings
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| (row.entrant_id, i + 1))
        .collect();
    let opponent_line = |id: Uuid| line_of.get(&id).map(|n| n.to_string()).unwrap_or_default();
    let lines = standings
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let cells = rounds
                .iter()
                .map(|round| {
                    let me = row.entrant_id;
                    for b in &round.boards {
                        // The result mapping is the service's, so pages and standings agree.
                        let (red_code, black_code) = service::state::result_codes(b.result);
                        if b.red.entrant_id == me {
                            return match &b.black {
                                Some(black) => CrossCell {
                                    opponent: opponent_line(black.entrant_id),
                                    colour_key: "colour.red_short",
                                    outcome: outcome_points(red_code, scoring),
                                    absence_key: String::new(),
                                    game: Some((round.number, b.number)),
                                    record: false,
                                },
                                None => CrossCell {
                                    opponent: String::new(),
                                    colour_key: "",
                                    outcome: String::new(),
                                    absence_key: "absence.pairing".to_string(),
                                    game: None,
                                    record: false,
                                },
                            };
                        }
                        if b.black.as_ref().is_some_and(|black| black.entrant_id == me) {
                            return CrossCell {
                                opponent: opponent_line(b.red.entrant_id),
                                colour_key: "colour.black_short",
                                outcome: outcome_points(black_code, scoring),
                                absence_key: String::new(),
                                game: Some((round.number, b.number)),
                                record: false,
                            };
                        }
                    }
                    let kind = round
                        .absences
                        .iter()
                        .find(|a| a.entrant_id == me)
                        .map(|a| a.kind.as_str())
                        .unwrap_or("absent");
                    CrossCell {
                        opponent: String::new(),
                        colour_key: "",
                        outcome: String::new(),
                        absence_key: format!("absence.{kind}"),
                        game: None,
                        record: false,
                    }
                })
                .collect();
            CrossLine {
                line: i + 1,
                rank: row.rank,
                start_no: row.start_no,
                name: row.name.clone(),
                cells,
                points: format_number(row.points),
            }
        })
        .collect();
    CrossData {
        rounds: rounds.iter().map(|r| r.number).collect(),
        lines,
        scale: [ResultCode::Win, ResultCode::Draw, ResultCode::Loss]
            .map(|code| outcome_points(code, scoring))
            .join(" / "),
        round: standings.round,
        is_final: standings.is_final,
    }
}

async fn crosstable(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    view: View,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    if s.entry_type == crate::vocab::EntryType::Team {
        // A team section's crosstable is its teams' (issue #41).
        let rounds = service::rounds::visible_numbers(&state.db, ctx.actor.as_ref(), id)
            .await
            .or_page(&ctx)?;
        let nav = nav_of(&t, &s, rounds, "crosstable", 0, prizes);
        return super::team_crosstable::crosstable_page(&state, ctx, nav, id, view).await;
    }
    let loaded = async {
        let standings = service::standings::compute(&state.db, id).await?;
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((standings, rounds))
    }
    .await;
    let (standings, rounds) = loaded.or_page(&ctx)?;
    let mut data = crosstable_data(&standings, &rounds, &s.scoring);
    let nav = nav(&t, &s, &rounds, "crosstable", 0, prizes);
    let tr = ctx.tr();
    if view == View::Screen {
        let recorded = service::records::recorded_of_section(&state.db, id)
            .await
            .unwrap_or_default();
        for cell in data.lines.iter_mut().flat_map(|l| l.cells.iter_mut()) {
            cell.record = cell.game.is_some_and(|g| recorded.contains(&g));
        }
    }
    Ok(match view {
        View::Screen => Page(StatusCode::OK, CrosstablePage { tr, ctx, nav, data }).into_response(),
        View::Print => Page(StatusCode::OK, CrosstablePrint { tr, ctx, nav, data }).into_response(),
    })
}

/// `GET /s/{section_id}/crosstable`
pub async fn show_crosstable(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    headers: axum::http::HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        crosstable(state, ctx, id, View::Screen)
    })
    .await
}

/// `GET /s/{section_id}/crosstable/print`
pub async fn print_crosstable(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    crosstable(state, ctx, id, View::Print).await
}
