//! The public board page (issue #18): `/s/{section_id}/games/{round}/{board}`, a game's record
//! replayed on an SVG board with its move list in the visitor's language and notation.
//!
//! Progressive enhancement: the page shows the whole move list and the position after the
//! last move (or after `?ply=N`, each move being a link) without script; `static/js/records.js`
//! adds step and jump controls that redraw the board from each move's FEN.

use crate::http::error::{OrPage, PageError};
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::board::{board_svg, hidden_attr, script_of};
use crate::http::pages::shared::{load_section, nav, SectionNav};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::i18n::{Lang, Tr};
use crate::service;
use crate::service::records::{hidden_identities, PlyView, RecordView};
use crate::vocab::Game;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/s/{section_id}/games/{round}/{board}", get(show_game))
        .route(
            "/s/{section_id}/bracket/{match_id}/games/{n}",
            get(show_match_game),
        )
}

/// `?notation=` and `?ply=`.
#[derive(Debug, Default, Deserialize)]
pub struct GameQuery {
    /// `chinese`, `wxf` or `iccs`.
    pub notation: Option<String>,
    /// The half-move whose position the board shows (no script); default the last.
    pub ply: Option<String>,
}

/// One half-move in the list.
pub struct PlyCell {
    /// Half-move number.
    pub ply: usize,
    /// In the chosen notation.
    pub text: String,
    /// The position after it.
    pub fen: String,
    /// The one the board shows.
    pub current: bool,
}

/// A move number with Red's and Black's half-moves.
pub struct MoveLine {
    /// Move number.
    pub number: usize,
    /// Red's half-move (absent when the record starts with Black to move).
    pub red: Option<PlyCell>,
    /// Black's half-move.
    pub black: Option<PlyCell>,
}

/// A notation choice.
pub struct NotationLink {
    /// `chinese`, `wxf`, `iccs`.
    pub value: &'static str,
    /// Catalogue key of its name.
    pub key: String,
    /// Chosen.
    pub current: bool,
}

/// `GET /s/{section_id}/games/{round}/{board}`
#[derive(Template)]
#[template(path = "public/game.html")]
pub struct GamePage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// The page's heading: round and board, or knockout round and game.
    pub heading: String,
    /// Where "back" goes (the pairings of the round, or the bracket).
    pub back_url: String,
    /// Catalogue key of the back link.
    pub back_key: &'static str,
    /// Red.
    pub red: String,
    /// Black.
    pub black: String,
    /// Red's starting number (the player page is linked), or empty.
    pub red_no: String,
    /// Black's starting number, or empty.
    pub black_no: String,
    /// Catalogue key of the result, or empty.
    pub result_key: String,
    /// `xiangqi`, `jieqi`, `banqi`.
    pub game: Game,
    /// The notation shown.
    pub notation: String,
    /// Notation choices (none for Banqi).
    pub notations: Vec<NotationLink>,
    /// The moves.
    pub lines: Vec<MoveLine>,
    /// Half-moves in all.
    pub plies: usize,
    /// The half-move the board shows (0: the start).
    pub shown: usize,
    /// The start position.
    pub start_fen: String,
    /// The board (inline SVG of our own markup).
    pub svg: String,
    /// `square:letter,…` of the face-down pieces once the set-up is public, else empty.
    pub hidden: String,
    /// A Jieqi/Banqi game whose set-up is not public yet.
    pub face_down_note: bool,
    /// Its moves are kept back until the set-up is public.
    pub moves_withheld: bool,
    /// Catalogue key of the game's status after the last move, or empty.
    pub status_key: String,
    /// The API's PGN of this game.
    pub pgn_url: String,
}

/// The notation a visitor sees: `?notation=` when valid, else Chinese for Chinese readers
/// and WXF for English ones.
pub fn chosen_notation(asked: Option<&str>, lang: Lang) -> &'static str {
    match asked {
        Some("chinese") => "chinese",
        Some("wxf") => "wxf",
        Some("iccs") => "iccs",
        _ if lang == Lang::En => "wxf",
        _ => "chinese",
    }
}

fn ply_text(p: &PlyView, notation: &str) -> String {
    match notation {
        "chinese" => p.chinese.clone(),
        "wxf" => p.wxf.clone(),
        _ => p.iccs.clone(),
    }
}

/// The move lines of a replay in a notation; `shown` marks the current half-move.
pub fn move_lines(view: &RecordView, notation: &str, shown: usize) -> Vec<MoveLine> {
    let black_first = view.replay.start_fen.split_whitespace().nth(1) == Some("b");
    let mut lines: Vec<MoveLine> = Vec::new();
    for p in &view.replay.plies {
        let cell = PlyCell {
            ply: p.ply,
            text: ply_text(p, notation),
            fen: p.fen.clone(),
            current: p.ply == shown,
        };
        let red_move = (p.ply % 2 == 1) != black_first;
        if red_move {
            lines.push(MoveLine {
                number: lines.len() + 1,
                red: Some(cell),
                black: None,
            });
        } else {
            match lines.last_mut() {
                Some(line) if line.black.is_none() => line.black = Some(cell),
                _ => lines.push(MoveLine {
                    number: lines.len() + 1,
                    red: None,
                    black: Some(cell),
                }),
            }
        }
    }
    lines
}

/// `GET /s/{section_id}/games/{round}/{board}`
pub async fn show_game(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((section_id, round, board)): PagePath<(Uuid, i32, i32)>,
    uri: Uri,
) -> Result<Response, PageError> {
    let (ctx, tournament, section, prizes) = load_section(&state, ctx, section_id).await?;
    let tr = ctx.tr();
    let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), section_id)
        .await
        .or_page(&ctx)?;
    let (_, view, setup) = service::records::board_page(
        &state.db,
        ctx.actor.as_ref(),
        section_id,
        round,
        board,
        script_of(ctx.lang),
    )
    .await
    .or_page(&ctx)?;
    let nav = nav(&tournament, &section, &rounds, "pairings", round, prizes);
    let on_board = rounds
        .iter()
        .find(|r| r.number == round)
        .and_then(|r| r.boards.iter().find(|b| b.number == board));
    let number_text = |n: Option<i32>| n.map(|n| n.to_string()).unwrap_or_default();
    let shown = Shown {
        heading: format!(
            "{} · {}",
            tr.fmt("round.n", round),
            tr.fmt("rec.board_title", board)
        ),
        back_url: format!("/s/{section_id}/pairings/{round}"),
        back_key: "rec.back_to_pairings",
        red_no: number_text(on_board.and_then(|b| b.red.start_no)),
        black_no: number_text(on_board.and_then(|b| b.black.as_ref()?.start_no)),
        pgn_url: format!("/api/v1/boards/{}/record.pgn", board_id_of(&view)),
    };
    Ok(render(ctx, nav, shown, &view, setup.as_ref(), &uri))
}

/// `GET /s/{section_id}/bracket/{match_id}/games/{n}`: a knockout game's record.
pub async fn show_match_game(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((section_id, match_id, number)): PagePath<(Uuid, Uuid, i32)>,
    uri: Uri,
) -> Result<Response, PageError> {
    let (ctx, tournament, section, prizes) = load_section(&state, ctx, section_id).await?;
    let tr = ctx.tr();
    let (game, view, setup) = service::records::match_game_page(
        &state.db,
        ctx.actor.as_ref(),
        match_id,
        number,
        script_of(ctx.lang),
    )
    .await
    .or_page(&ctx)?;
    if game.section_id != Some(section_id) {
        return Err(PageError::from_service(
            service::Error::NotFound(m::NOT_FOUND_GAME),
            ctx.lang,
        ));
    }
    let nav = nav(&tournament, &section, &[], "bracket", 0, prizes);
    let shown = Shown {
        heading: format!(
            "{} · {}",
            tr.t("section.bracket"),
            tr.fmt("rec.game_n", game.game_number)
        ),
        back_url: format!("/s/{section_id}/bracket"),
        back_key: "rec.back_to_bracket",
        red_no: String::new(),
        black_no: String::new(),
        pgn_url: format!("/api/v1/matches/{match_id}/games/{number}/record.pgn"),
    };
    Ok(render(ctx, nav, shown, &view, setup.as_ref(), &uri))
}

/// What differs between a board's page and a knockout game's.
struct Shown {
    heading: String,
    back_url: String,
    back_key: &'static str,
    red_no: String,
    black_no: String,
    pgn_url: String,
}

fn render(
    ctx: PageCtx,
    nav: SectionNav,
    shown: Shown,
    view: &RecordView,
    setup: Option<&arbiter_core::setup::Setup>,
    uri: &Uri,
) -> Response {
    let query: GameQuery =
        serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let tr = ctx.tr();
    let game = view.replay.game;
    let notation = if game == Game::Banqi {
        "banqi"
    } else {
        chosen_notation(query.notation.as_deref(), ctx.lang)
    };
    let plies = view.replay.plies.len();
    let at = query
        .ply
        .as_deref()
        .and_then(|p| p.trim().parse::<usize>().ok())
        .map_or(plies, |p| p.min(plies));
    let fen = if at == 0 {
        view.replay.start_fen.clone()
    } else {
        view.replay.plies[at - 1].fen.clone()
    };
    let hidden = setup.map(hidden_identities).unwrap_or_default();
    let svg = board_svg(game, &fen, &hidden, tr);
    let notations = if game == Game::Banqi {
        Vec::new()
    } else {
        ["chinese", "wxf", "iccs"]
            .into_iter()
            .map(|value| NotationLink {
                value,
                key: format!("rec.notation.{value}"),
                current: value == notation,
            })
            .collect()
    };
    let status_key = match view.replay.status {
        crate::vocab::ReplayStatus::Ongoing => String::new(),
        s => format!("rec.status.{s}"),
    };
    let lines = move_lines(view, notation, at);
    Page(
        StatusCode::OK,
        GamePage {
            tr,
            nav,
            heading: shown.heading,
            back_url: shown.back_url,
            back_key: shown.back_key,
            red: view.red.clone(),
            black: view.black.clone(),
            red_no: shown.red_no,
            black_no: shown.black_no,
            result_key: view
                .result
                .as_ref()
                .map(|r| format!("result.{r}"))
                .unwrap_or_default(),
            face_down_note: game != Game::Xiangqi && setup.is_none(),
            moves_withheld: view.moves_withheld,
            hidden: hidden_attr(&hidden),
            game,
            notation: notation.to_string(),
            notations,
            lines,
            plies,
            shown: at,
            start_fen: view.replay.start_fen.clone(),
            svg,
            status_key,
            pgn_url: shown.pgn_url,
            ctx,
        },
    )
    .into_response()
}

fn board_id_of(view: &RecordView) -> String {
    view.board_id.map(|b| b.to_string()).unwrap_or_default()
}
