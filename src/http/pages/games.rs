//! The public board page (issue #18): `/s/{section_id}/games/{round}/{board}`, a game's record
//! replayed on an SVG board with its move list in the visitor's language and notation.
//!
//! Progressive enhancement: the page shows the whole move list and the position after the
//! last move (or after `?ply=N`, each move being a link) without script; `static/js/records.js`
//! adds step and jump controls that redraw the board from each move's FEN.

use super::public::SectionNav;
use super::{HtmlPage, PageCtx, PageError};
use crate::http::extract::PagePath;
use crate::http::AppState;
use crate::i18n::{Lang, Tr};
use crate::service;
use crate::service::records::{hidden_identities, piece_glyph, PlyView, RecordView};
use arbiter_core::game::Script;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use std::fmt::Write as _;
use uuid::Uuid;

/// The public game routes (merged into the pages' router).
pub fn routes() -> Router<AppState> {
    Router::new().route("/s/{section_id}/games/{round}/{board}", get(show_game))
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
    /// Round.
    pub round: i32,
    /// Board.
    pub board: i32,
    /// Red.
    pub red: String,
    /// Black.
    pub black: String,
    /// Catalogue key of the result, or empty.
    pub result_key: String,
    /// `xiangqi`, `jieqi`, `banqi`.
    pub game: String,
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
    /// Catalogue key of the game's status after the last move, or empty.
    pub status_key: String,
    /// The API's PGN of this game.
    pub pgn_url: String,
}

fn fen_letter(c: char) -> Option<char> {
    let upper = match c.to_ascii_uppercase() {
        'K' => 'K',
        'A' => 'A',
        'B' | 'E' => 'E',
        'N' | 'H' => 'H',
        'R' => 'R',
        'C' => 'C',
        'P' => 'P',
        'X' => 'X',
        _ => return None,
    };
    Some(if c.is_ascii_uppercase() {
        upper
    } else {
        upper.to_ascii_lowercase()
    })
}

/// The pieces of a FEN's board: (file 0–8, rank 0–9, letter; `X`/`x` face down).
pub fn fen_pieces(fen: &str) -> Vec<(u8, u8, char)> {
    let board = fen.split_whitespace().next().unwrap_or("");
    let mut out = Vec::new();
    for (i, row) in board.split('/').enumerate().take(10) {
        let rank = 9 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file = file.saturating_add(d as u8);
            } else if let Some(letter) = fen_letter(c) {
                if file < 9 {
                    out.push((file, rank, letter));
                }
                file = file.saturating_add(1);
            }
        }
    }
    out
}

fn piece_svg(out: &mut String, x: i32, y: i32, letter: char, hidden: Option<char>, r: i32) {
    let red = letter.is_ascii_uppercase();
    let side = if red { "red" } else { "black" };
    if letter.eq_ignore_ascii_case(&'x') {
        let _ = write!(
            out,
            r#"<g class="pc down {side}"><circle cx="{x}" cy="{y}" r="{r}"/>"#
        );
        if let Some(h) = hidden {
            let _ = write!(
                out,
                r#"<text x="{x}" y="{y}" class="hint">{}</text>"#,
                piece_glyph(h)
            );
        }
        out.push_str("</g>");
    } else {
        let _ = write!(
            out,
            r#"<g class="pc {side}"><circle cx="{x}" cy="{y}" r="{r}"/><text x="{x}" y="{y}">{}</text></g>"#,
            piece_glyph(letter)
        );
    }
}

fn hidden_at(hidden: &[(String, char)], square: &str) -> Option<char> {
    hidden.iter().find(|(s, _)| s == square).map(|(_, c)| *c)
}

/// A Xiangqi/Jieqi board as SVG (Red at the bottom), with the pieces of `fen`; face-down
/// pieces show a hint of what they are when `hidden` names their square.
pub fn xiangqi_svg(fen: &str, hidden: &[(String, char)], label: &str) -> String {
    const S: i32 = 40;
    const M: i32 = 30;
    let (w, h) = (8 * S + 2 * M, 9 * S + 2 * M);
    let mut out = format!(
        r#"<svg class="xq-board" viewBox="0 0 {w} {h}" role="img" aria-label="{label}" xmlns="http://www.w3.org/2000/svg"><rect class="bg" x="0" y="0" width="{w}" height="{h}"/><g class="grid">"#
    );
    for i in 0..10 {
        let y = M + i * S;
        let _ = write!(
            out,
            r#"<line x1="{M}" y1="{y}" x2="{}" y2="{y}"/>"#,
            M + 8 * S
        );
    }
    for f in 0..9 {
        let x = M + f * S;
        if f == 0 || f == 8 {
            let _ = write!(
                out,
                r#"<line x1="{x}" y1="{M}" x2="{x}" y2="{}"/>"#,
                M + 9 * S
            );
        } else {
            let _ = write!(
                out,
                r#"<line x1="{x}" y1="{M}" x2="{x}" y2="{}"/>"#,
                M + 4 * S
            );
            let _ = write!(
                out,
                r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#,
                M + 5 * S,
                M + 9 * S
            );
        }
    }
    for top in [0, 7] {
        let (x1, x2, y1, y2) = (M + 3 * S, M + 5 * S, M + top * S, M + (top + 2) * S);
        let _ = write!(
            out,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/><line x1="{x2}" y1="{y1}" x2="{x1}" y2="{y2}"/>"#
        );
    }
    out.push_str("</g><g class=\"coords\">");
    for f in 0..9u8 {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}">{}</text>"#,
            M + i32::from(f) * S,
            h - 6,
            char::from(b'a' + f)
        );
    }
    for r in 0..10 {
        let _ = write!(out, r#"<text x="10" y="{}">{r}</text>"#, M + (9 - r) * S);
    }
    out.push_str("</g><g class=\"pieces\">");
    for (file, rank, letter) in fen_pieces(fen) {
        let square = format!("{}{}", char::from(b'a' + file), rank);
        let x = M + i32::from(file) * S;
        let y = M + (9 - i32::from(rank)) * S;
        piece_svg(&mut out, x, y, letter, hidden_at(hidden, &square), 17);
    }
    out.push_str("</g></svg>");
    out
}

/// A Banqi half board as SVG (row 1 at the bottom), from the rows of
/// [`service::records::banqi_rows`].
pub fn banqi_svg(rows: &str, hidden: &[(String, char)], label: &str) -> String {
    const S: i32 = 44;
    const M: i32 = 24;
    let (w, h) = (8 * S + 2 * M, 4 * S + 2 * M);
    let mut out = format!(
        r#"<svg class="bq-board" viewBox="0 0 {w} {h}" role="img" aria-label="{label}" xmlns="http://www.w3.org/2000/svg"><rect class="bg" x="0" y="0" width="{w}" height="{h}"/><g class="grid">"#
    );
    for i in 0..=4 {
        let y = M + i * S;
        let _ = write!(
            out,
            r#"<line x1="{M}" y1="{y}" x2="{}" y2="{y}"/>"#,
            M + 8 * S
        );
    }
    for i in 0..=8 {
        let x = M + i * S;
        let _ = write!(
            out,
            r#"<line x1="{x}" y1="{M}" x2="{x}" y2="{}"/>"#,
            M + 4 * S
        );
    }
    out.push_str("</g><g class=\"coords\">");
    for c in 0..8u8 {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}">{}</text>"#,
            M + i32::from(c) * S + S / 2,
            h - 6,
            char::from(b'a' + c)
        );
    }
    for r in 0..4 {
        let _ = write!(
            out,
            r#"<text x="10" y="{}">{}</text>"#,
            M + (3 - r) * S + S / 2,
            r + 1
        );
    }
    out.push_str("</g><g class=\"pieces\">");
    for (row, line) in rows.split('/').enumerate().take(4) {
        for (column, c) in line.chars().enumerate().take(8) {
            if c == '.' {
                continue;
            }
            let square = format!("{}{}", char::from(b'a' + column as u8), row + 1);
            let x = M + column as i32 * S + S / 2;
            let y = M + (3 - row as i32) * S + S / 2;
            piece_svg(&mut out, x, y, c, hidden_at(hidden, &square), 19);
        }
    }
    out.push_str("</g></svg>");
    out
}

/// The board of a game in a position.
pub fn board_svg(game: &str, fen: &str, hidden: &[(String, char)], tr: Tr) -> String {
    let label = tr.t("rec.board");
    if game == "banqi" {
        banqi_svg(fen, hidden, label)
    } else {
        xiangqi_svg(fen, hidden, label)
    }
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

/// The Chinese characters for a language.
pub fn script_of(lang: Lang) -> Script {
    match lang {
        Lang::ZhHant => Script::Traditional,
        _ => Script::Simplified,
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

/// The `hidden` attribute text: `a0:R,b0:h,…`.
pub fn hidden_attr(hidden: &[(String, char)]) -> String {
    hidden
        .iter()
        .map(|(s, c)| format!("{s}:{c}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// `GET /s/{section_id}/games/{round}/{board}`
pub async fn show_game(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((section_id, round, board)): PagePath<(Uuid, i32, i32)>,
    uri: Uri,
) -> Response {
    let query: GameQuery =
        serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let fail = |err: service::Error, lang: Lang| PageError::from_service(err, lang).into_response();
    let section = match service::sections::get(&state.db, section_id).await {
        Ok(s) => s,
        Err(err) => return fail(err, ctx.lang),
    };
    let tournament = match service::tournaments::get(&state.db, section.tournament_id).await {
        Ok(t) => t,
        Err(err) => return fail(err, ctx.lang),
    };
    let ctx = ctx.with_default_tag(&tournament.default_language);
    let tr = ctx.tr();
    let rounds =
        match service::rounds::list_visible(&state.db, ctx.actor.as_ref(), section_id).await {
            Ok(r) => r,
            Err(err) => return fail(err, ctx.lang),
        };
    let prizes = service::prizes::get(&state.db, section_id)
        .await
        .map(|p| !p.prizes.is_empty())
        .unwrap_or(false);
    let (_, view, setup) = match service::records::board_page(
        &state.db,
        ctx.actor.as_ref(),
        section_id,
        round,
        board,
        script_of(ctx.lang),
    )
    .await
    {
        Ok(found) => found,
        Err(err) => return fail(err, ctx.lang),
    };
    let nav = SectionNav {
        tournament_id: tournament.id.to_string(),
        tournament_name: tournament.name.clone(),
        section_id: section.id.to_string(),
        section_name: section.name.clone(),
        rounds: rounds.iter().map(|r| r.number).collect(),
        tab: "pairings",
        round,
        planned_rounds: section.rounds,
        prizes,
        setups: section.setup_mode != "none"
            && service::setups::variant(&tournament.game).is_some(),
    };
    let game = view.replay.game.clone();
    let notation = if game == "banqi" {
        "banqi"
    } else {
        chosen_notation(query.notation.as_deref(), ctx.lang)
    };
    let plies = view.replay.plies.len();
    let shown = query
        .ply
        .as_deref()
        .and_then(|p| p.trim().parse::<usize>().ok())
        .map_or(plies, |p| p.min(plies));
    let fen = if shown == 0 {
        view.replay.start_fen.clone()
    } else {
        view.replay.plies[shown - 1].fen.clone()
    };
    let hidden = setup.as_ref().map(hidden_identities).unwrap_or_default();
    let svg = board_svg(&game, &fen, &hidden, tr);
    let notations = if game == "banqi" {
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
    let status_key = match view.replay.status.as_str() {
        "ongoing" => String::new(),
        s => format!("rec.status.{s}"),
    };
    let lines = move_lines(&view, notation, shown);
    HtmlPage(
        StatusCode::OK,
        GamePage {
            tr,
            nav,
            round,
            board,
            red: view.red.clone(),
            black: view.black.clone(),
            result_key: view
                .result
                .as_ref()
                .map(|r| format!("result.{r}"))
                .unwrap_or_default(),
            face_down_note: game != "xiangqi" && setup.is_none(),
            hidden: hidden_attr(&hidden),
            game,
            notation: notation.to_string(),
            notations,
            lines,
            plies,
            shown,
            start_fen: view.replay.start_fen.clone(),
            svg,
            status_key,
            pgn_url: format!("/api/v1/boards/{}/record.pgn", board_id_of(&view)),
            ctx,
        },
    )
    .into_response()
}

fn board_id_of(view: &RecordView) -> String {
    view.board_id.map(|b| b.to_string()).unwrap_or_default()
}
