//! The public knockout bracket of a section, on screen and printed.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::{
    game_points, load_section, nav, outcome_symbol, MatchScoreText, SectionNav, View,
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
        .route("/s/{section_id}/bracket", get(show_bracket))
        .route("/s/{section_id}/bracket/print", get(print_bracket))
}

// ---------------------------------------------------------------- bracket

/// One side of a knockout match as shown.
pub struct MatchSideLine {
    /// Seed.
    pub seed: String,
    /// Name (empty until known).
    pub name: String,
    /// Outcome symbol per game, in game order, and whether it is a tiebreak game.
    pub games: Vec<(&'static str, bool)>,
    /// Game points of the regular games (`1½`).
    pub points: String,
    /// Game points of the tiebreak games, empty when none was played.
    pub tiebreak: String,
    /// Won the match.
    pub winner: bool,
    /// The entrant, once known.
    pub entrant_id: Option<Uuid>,
    /// The entrant's starting number (its player page is linked), or empty.
    pub start_no: String,
}

/// One knockout match as shown.
pub struct MatchLine {
    /// Higher seed, then lower seed.
    pub sides: Vec<MatchSideLine>,
    /// The 3rd-place match.
    pub third_place: bool,
    /// What decided it (`decided by rapid games`), empty until decided.
    pub decided: String,
    /// The score on one line, the same as the desk's (`1–1 · tiebreak 1–0`).
    pub score: String,
    /// The match, for links to its games' records.
    pub match_id: Uuid,
    /// Numbers of its games that have a record (each linked to its replay).
    pub records: Vec<i32>,
    /// The game it plays next in words, and that game's set-up commitment once drawn
    /// (issue #40: public before play).
    pub next: Option<(String, Option<String>)>,
}

/// One round of the bracket.
pub struct BracketRound {
    /// Heading: final, semi-finals, quarter-finals, or "round of N".
    pub title: String,
    /// Matches by slot (the 3rd-place match last).
    pub matches: Vec<MatchLine>,
}

/// What the bracket page shows.
pub struct BracketData {
    /// Rounds, first to final; empty when the section has no knockout stage.
    pub rounds: Vec<BracketRound>,
    /// Games per match.
    pub best_of: i32,
    /// The champion's name, once decided.
    pub champion: String,
    /// Each round's rules in words (captured pieces, time control, tiebreak games).
    pub stages: Vec<crate::http::pages::shared::knockout::StageLine>,
    /// Whether the bracket has hidden-piece set-ups (the set-ups page is linked).
    pub has_setups: bool,
    /// A section's bracket (its slips are linked; not the playoff's).
    pub section_links: bool,
}

/// `GET /s/{section_id}/bracket`
#[derive(Template)]
#[template(path = "public/bracket.html")]
pub struct BracketPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// The bracket.
    pub data: BracketData,
}

/// `GET /s/{section_id}/bracket/print`
#[derive(Template)]
#[template(path = "print/bracket.html")]
pub struct BracketPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The bracket.
    pub data: BracketData,
}

use crate::http::pages::shared::knockout::round_title;

fn match_side(
    side: Option<&service::knockout::MatchSide>,
    m: &service::knockout::MatchView,
    (points, tiebreak): (f64, f64),
) -> MatchSideLine {
    let points = game_points(points);
    let tiebreak = if m.score.tiebreak_games > 0 {
        game_points(tiebreak)
    } else {
        String::new()
    };
    let Some(side) = side else {
        return MatchSideLine {
            seed: String::new(),
            name: String::new(),
            games: Vec::new(),
            points,
            tiebreak,
            winner: false,
            entrant_id: None,
            start_no: String::new(),
        };
    };
    let games = m
        .games
        .iter()
        .map(|g| {
            // The service's result mapping, read from this side's colour in each game.
            let (red, black) = service::state::result_codes(g.result);
            let tiebreak = g.kind != crate::vocab::GameKind::Regular;
            if g.red == side.entrant_id {
                (outcome_symbol(red), tiebreak)
            } else {
                (outcome_symbol(black), tiebreak)
            }
        })
        .collect();
    MatchSideLine {
        seed: side.seed.to_string(),
        name: side.name.clone(),
        games,
        points,
        tiebreak,
        winner: m.winner == Some(side.entrant_id),
        entrant_id: Some(side.entrant_id),
        start_no: String::new(),
    }
}

/// The bracket as shown, from the service's view (empty without one).
pub fn bracket_data(tr: Tr, view: Option<service::knockout::BracketView>) -> BracketData {
    let Some(view) = view else {
        return BracketData {
            rounds: Vec::new(),
            best_of: 0,
            champion: String::new(),
            stages: Vec::new(),
            has_setups: false,
            section_links: false,
        };
    };
    let last = view.matches.iter().map(|m| m.round).max().unwrap_or(0);
    let mut rounds: Vec<BracketRound> = Vec::new();
    let mut champion = String::new();
    for m in &view.matches {
        let score = MatchScoreText::of(tr, m);
        let line = MatchLine {
            sides: vec![
                match_side(
                    m.high.as_ref(),
                    m,
                    (m.score.regular_high, m.score.tiebreak_high),
                ),
                match_side(
                    m.low.as_ref(),
                    m,
                    (m.score.regular_low, m.score.tiebreak_low),
                ),
            ],
            third_place: m.third_place,
            score: score.line(),
            decided: score.decided,
            match_id: m.id,
            records: Vec::new(),
            next: crate::http::pages::shared::knockout::next_game(tr, m),
        };
        if view.champion.is_some() && !m.third_place && m.round == last {
            for side in [&m.high, &m.low].into_iter().flatten() {
                if Some(side.entrant_id) == view.champion {
                    champion = side.name.clone();
                }
            }
        }
        let index = usize::try_from(m.round - 1).unwrap_or(0);
        while rounds.len() <= index {
            let number = rounds.len() as i32 + 1;
            rounds.push(BracketRound {
                title: round_title(tr, number, last),
                matches: Vec::new(),
            });
        }
        rounds[index].matches.push(line);
    }
    for round in &mut rounds {
        // The 3rd-place match goes after the final.
        round.matches.sort_by_key(|m| m.third_place);
    }
    let has_setups = view.matches.iter().any(|m| {
        m.games.iter().any(|g| g.setup.is_some())
            || m.next_game.as_ref().is_some_and(|g| g.setup.is_some())
    });
    BracketData {
        stages: crate::http::pages::shared::knockout::stage_lines(tr, &view),
        rounds,
        best_of: view.best_of,
        champion,
        has_setups,
        section_links: true,
    }
}

async fn bracket(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    view: View,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let loaded = async {
        // A section without a knockout stage shows an empty bracket, not an error.
        let bracket = match service::knockout::get(&state.db, None, id).await {
            Ok(b) => Some(b),
            Err(service::Error::NotFound(_)) => None,
            Err(err) => return Err(err),
        };
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        // No actor: only names and numbers are used.
        let entrants = service::entrants::list(&state.db, None, id).await?;
        let recorded = service::records::recorded_match_games(&state.db, id).await?;
        Ok::<_, service::Error>((bracket, rounds, entrants, recorded))
    }
    .await;
    let (bracket, rounds, entrants, recorded) = loaded.or_page(&ctx)?;
    let tr = ctx.tr();
    let mut data = bracket_data(tr, bracket);
    let numbers: std::collections::HashMap<Uuid, i32> = entrants
        .iter()
        .filter_map(|e| Some((e.id, e.start_no?)))
        .collect();
    for m in data.rounds.iter_mut().flat_map(|r| r.matches.iter_mut()) {
        m.records = recorded
            .iter()
            .filter(|(match_id, _)| *match_id == m.match_id)
            .map(|(_, n)| *n)
            .collect();
        m.records.sort_unstable();
    }
    for side in data
        .rounds
        .iter_mut()
        .flat_map(|r| r.matches.iter_mut())
        .flat_map(|m| m.sides.iter_mut())
    {
        if let Some(no) = side.entrant_id.and_then(|e| numbers.get(&e)) {
            side.start_no = no.to_string();
        }
    }
    let nav = nav(&t, &s, &rounds, "bracket", 0, prizes);
    Ok(match view {
        View::Screen => Page(StatusCode::OK, BracketPage { tr, ctx, nav, data }).into_response(),
        View::Print => Page(StatusCode::OK, BracketPrint { tr, ctx, nav, data }).into_response(),
    })
}

/// `GET /s/{section_id}/bracket`
pub async fn show_bracket(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    headers: axum::http::HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        bracket(state, ctx, id, View::Screen)
    })
    .await
}

/// `GET /s/{section_id}/bracket/print`
pub async fn print_bracket(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    bracket(state, ctx, id, View::Print).await
}
