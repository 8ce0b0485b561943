//! Fast result entry: `/admin/s/{section_id}/rounds/{n}/results`.
//!
//! Keyboard only: one line such as `3 1` (board 3, Red wins), `7=` (draw), `12 0` (Black wins),
//! `4+` (Black forfeits), `5-` (Red forfeits), optionally followed by the fouls of Red and
//! Black (`3 1 2 0`), then Enter. The server reads the line, so this works without script;
//! `static/js/app.js` only previews the line. Every board also has a plain form (corrections,
//! double forfeits). Each form sends the version of the result it saw: a result changed
//! meanwhile is refused by the service's version check (409) with a clear message.

use super::form::{number, require, text, Fields};
use super::section_forms::{board_rows, choices, BoardRow, ResultChoice};
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::CurrentUser;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::rounds::{ResultInput, RoundView};
use crate::service::sections::Section;
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
use crate::vocab::GameResult;
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
            "/admin/s/{section_id}/rounds/{n}/results",
            get(show_results).post(enter_result),
        )
        .route("/admin/boards/{board_id}/result", post(enter_board_result))
}

/// The result for a key of the quick line.
pub fn result_of_key(key: char) -> Option<GameResult> {
    match key {
        '1' => Some(GameResult::RedWins),
        '=' => Some(GameResult::Draw),
        '0' => Some(GameResult::BlackWins),
        '+' => Some(GameResult::BlackForfeits),
        '-' => Some(GameResult::RedForfeits),
        _ => None,
    }
}

/// A parsed quick line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickLine {
    /// Board number.
    pub board: i32,
    /// The result.
    pub result: GameResult,
    /// Fouls of Red.
    pub red_fouls: Option<i64>,
    /// Fouls of Black.
    pub black_fouls: Option<i64>,
}

/// Reads `BOARD RESULT [RED_FOULS BLACK_FOULS]`: the board's digits, optional spaces, one of
/// `1 = 0 + -`, then optionally two numbers. `1` and `0` need a space after the board number
/// (`31` is board 31); `=`, `+`, `-` do not.
pub fn parse_quick(line: &str) -> Option<QuickLine> {
    let line = line.trim();
    let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
    let board: i32 = digits.parse().ok()?;
    let rest = line[digits.len()..].trim_start();
    let mut chars = rest.chars();
    let result = result_of_key(chars.next()?)?;
    let fouls: Vec<&str> = chars
        .as_str()
        .split(|c: char| c.is_whitespace() || c == '/' || c == ',')
        .filter(|s| !s.is_empty())
        .collect();
    let (red_fouls, black_fouls) = match fouls.as_slice() {
        [] => (None, None),
        [r, b] => (Some(r.parse().ok()?), Some(b.parse().ok()?)),
        _ => return None,
    };
    Some(QuickLine {
        board,
        result,
        red_fouls,
        black_fouls,
    })
}

/// The results page.
#[derive(Template)]
#[template(path = "admin/results.html")]
pub struct ResultsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Round number.
    pub number: i32,
    /// Catalogue key of the round's status.
    pub status_key: String,
    /// Boards.
    pub boards: Vec<BoardRow>,
    /// Results a board form offers.
    pub choices: Vec<ResultChoice>,
    /// What the last entry recorded.
    pub notice: Option<String>,
    /// The foul rule changed the last entry.
    pub conversion: Option<String>,
    /// Why the last entry was refused.
    pub error: Option<String>,
    /// The quick line, kept after an error.
    pub line: String,
    /// Games still without a result.
    pub open: usize,
}

/// What the last entry did.
#[derive(Default)]
struct Outcome {
    notice: Option<String>,
    conversion: Option<String>,
    error: Option<String>,
    line: String,
    saved_board: Option<i32>,
}

async fn load(
    state: &AppState,
    actor: &Actor,
    id: Uuid,
    n: i32,
) -> service::Result<(Section, RoundView)> {
    let section = service::sections::get(&state.db, id).await?;
    require(state, actor, section.tournament_id, Need::Scorer).await?;
    let round = service::rounds::get(&state.db, Some(actor), id, n).await?;
    Ok((section, round))
}

fn render(
    ctx: PageCtx,
    section: Section,
    round: RoundView,
    outcome: Outcome,
    status: StatusCode,
) -> Response {
    let open = round
        .boards
        .iter()
        .filter(|b| b.black.is_some() && b.result.is_none())
        .count();
    let boards = board_rows(round.boards, outcome.saved_board);
    Page(
        status,
        ResultsPage {
            tr: ctx.tr(),
            section,
            number: round.number,
            status_key: format!("round_status.{}", round.status),
            boards,
            choices: choices(),
            notice: outcome.notice,
            conversion: outcome.conversion,
            error: outcome.error,
            line: outcome.line,
            open,
            ctx,
        },
    )
    .into_response()
}

/// `GET /admin/s/{section_id}/rounds/{n}/results`
pub async fn show_results(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Result<Response, PageError> {
    Ok(match load(&state, &actor, id, n).await {
        // A team section's round: its matches with their boards (issue #41).
        Ok((section, round)) if section.entry_type == crate::vocab::EntryType::Team => {
            super::team_results::show(&state, &actor, ctx, section, round).await?
        }
        Ok((section, round)) => render(ctx, section, round, Outcome::default(), StatusCode::OK),
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    })
}

/// What a posted form asks for: board number, result, fouls, version seen.
struct Entry {
    board: i32,
    input: ResultInput,
    version: Option<i32>,
    /// Typed on the quick line (which asks before it replaces a different result).
    from_line: bool,
    /// The line ended with `!`: replace without asking.
    confirmed: bool,
}

/// Reads either the quick line (`line`, with the versions as `v{board}`) or a board form
/// (`board`, `result`, `red_fouls`, `black_fouls`, `version`).
fn read_entry(form: &Fields, tr: Tr) -> Result<Entry, String> {
    if let Some(line) = text(form, "line") {
        let (line, confirmed) = match line.trim_end().strip_suffix('!') {
            Some(rest) => (rest.to_string(), true),
            None => (line, false),
        };
        let quick = parse_quick(&line).ok_or_else(|| tr.t("adm.results.bad_line").to_string())?;
        let version = form
            .get(&format!("v{}", quick.board))
            .and_then(|v| v.trim().parse().ok());
        return Ok(Entry {
            board: quick.board,
            input: ResultInput {
                result: quick.result.to_string(),
                red_fouls: quick.red_fouls,
                black_fouls: quick.black_fouls,
                version: None,
            },
            version,
            from_line: true,
            confirmed,
        });
    }
    let mut errors = FieldErrors::new();
    let board = number(form, "board", tr, &mut errors);
    let red_fouls = number(form, "red_fouls", tr, &mut errors);
    let black_fouls = number(form, "black_fouls", tr, &mut errors);
    let version = number(form, "version", tr, &mut errors);
    let result = text(form, "result");
    match (board, result, errors.is_empty()) {
        (Some(board), Some(result), true) => Ok(Entry {
            board: i32::try_from(board).unwrap_or(-1),
            input: ResultInput {
                result,
                red_fouls,
                black_fouls,
                version: None,
            },
            version: version.and_then(|v| i32::try_from(v).ok()),
            from_line: false,
            confirmed: false,
        }),
        // A board without a result offers none preselected: sent unchosen, it is asked again.
        (Some(_), None, true) => Err(tr.t("adm.results.choose").to_string()),
        _ => Err(tr.t("adm.results.bad_line").to_string()),
    }
}

/// `POST /admin/s/{section_id}/rounds/{n}/results`: records (or corrects) one board's result
/// and shows the page again with what was recorded, the foul-rule conversion if any, or why
/// it was refused (422 unreadable or invalid, 409 stale or a bye, 404 no such board).
pub async fn enter_result(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let (section, round) = load(&state, &actor, id, n).await.or_page(&ctx)?;
    if section.entry_type == crate::vocab::EntryType::Team {
        return super::team_results::enter(&state, &actor, ctx, section, round, form).await;
    }
    let line = form.get("line").cloned().unwrap_or_default();
    let refuse = |ctx, section, round, status, error: String| {
        render(
            ctx,
            section,
            round,
            Outcome {
                error: Some(error),
                line: line.clone(),
                ..Outcome::default()
            },
            status,
        )
    };
    let entry = match read_entry(&form, tr) {
        Ok(entry) => entry,
        Err(message) => {
            return Ok(refuse(
                ctx,
                section,
                round,
                StatusCode::UNPROCESSABLE_ENTITY,
                message,
            ))
        }
    };
    let Some(board) = round.boards.iter().find(|b| b.number == entry.board) else {
        let message = tr.fmt("adm.results.no_board", entry.board);
        return Ok(refuse(ctx, section, round, StatusCode::NOT_FOUND, message));
    };
    let board_id = board.id;
    // A quick line that would replace a different stored result asks first: the line comes
    // back with `!` appended, so a second Enter confirms (or type the `!` at once).
    // An unknown result is left to the service, which says what to send instead.
    if let (Some(stored), false, Ok(entered)) = (
        &board.result,
        entry.confirmed,
        entry.input.result.parse::<GameResult>(),
    ) {
        let red = entry.input.red_fouls.unwrap_or(0);
        let black = entry.input.black_fouls.unwrap_or(0);
        let (would_be, _) = service::rounds::apply_foul_rule(
            entered,
            red,
            black,
            i64::from(section.foul_threshold),
        );
        let same = *stored == would_be && red == board.red_fouls && black == board.black_fouls;
        if entry.from_line && !same {
            let message = tr
                .t("adm.results.replace_confirm")
                .replacen("{}", &entry.board.to_string(), 1)
                .replacen("{}", tr.t(&format!("result.{stored}")), 1)
                .replacen("{}", tr.t(&format!("result.{}", entry.input.result)), 1);
            let line = format!("{}!", line.trim_end());
            return Ok(render(
                ctx,
                section,
                round,
                Outcome {
                    error: Some(message),
                    line,
                    ..Outcome::default()
                },
                StatusCode::CONFLICT,
            ));
        }
    }
    Ok(
        match service::rounds::set_result(&state.db, &actor, board_id, &entry.input, entry.version)
            .await
        {
            Ok(outcome) => {
                let round = service::rounds::get(&state.db, Some(&actor), id, n)
                    .await
                    .or_page(&ctx)?;
                let notice = format!(
                    "{} {}: {}",
                    tr.t("col.board"),
                    entry.board,
                    tr.t(&format!("result.{}", outcome.reported_result))
                );
                let conversion = outcome.converted.then(|| {
                    format!(
                        "{} {}",
                        tr.t("adm.results.converted"),
                        tr.t(&format!("result.{}", outcome.result))
                    )
                });
                render(
                    ctx,
                    section,
                    round,
                    Outcome {
                        notice: Some(notice),
                        conversion,
                        saved_board: Some(entry.board),
                        ..Outcome::default()
                    },
                    StatusCode::OK,
                )
            }
            Err(err) => {
                let status = crate::http::error::status(&err);
                let message = match &err {
                    Error::Conflict(detail) if detail.code().starts_with("stale.") => {
                        format!("{} ({})", tr.t("adm.results.stale"), tr.msg(detail))
                    }
                    Error::Invalid { .. } | Error::Conflict(_) => err.render(ctx.lang),
                    _ => return Err(PageError::from_ctx(err, &ctx)),
                };
                refuse(ctx, section, round, status, message)
            }
        },
    )
}

/// `POST /admin/boards/{board_id}/result`: the desk's per-board form on the section page
/// (`section_id`, `result`, `red_fouls`, `black_fouls`, `version`; an empty version skips the
/// check). Back to the section page; a refusal shows it again with the message (409/422).
pub async fn enter_board_result(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(board_id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let Some(sid) = text(&form, "section_id").and_then(|s| s.parse::<Uuid>().ok()) else {
        return Err(PageError::from_service(
            Error::invalid("section_id", crate::i18n::messages::CHECK_REQUIRED),
            ctx.lang,
        ));
    };
    let mut errors = FieldErrors::new();
    let red_fouls = number(&form, "red_fouls", tr, &mut errors);
    let black_fouls = number(&form, "black_fouls", tr, &mut errors);
    let version = number(&form, "version", tr, &mut errors).and_then(|v| i32::try_from(v).ok());
    // A board without a result offers no preselected one: sending it unchosen is asked again.
    if text(&form, "result").is_none() {
        errors.insert("result".into(), vec![crate::i18n::ui("adm.results.choose")]);
    }
    if !errors.is_empty() {
        let err = Error::Invalid {
            message: crate::i18n::ui("error.form_invalid"),
            fields: errors,
        };
        return Ok(super::section::action_failed(
            &state,
            &actor,
            ctx,
            sid,
            super::tabs::Tab::Rounds,
            err,
        )
        .await
        .into_response());
    }
    let input = ResultInput {
        result: form.get("result").cloned().unwrap_or_default(),
        red_fouls,
        black_fouls,
        version: None,
    };
    Ok(
        match service::rounds::set_result(&state.db, &actor, board_id, &input, version).await {
            Ok(outcome) => {
                let done = if outcome.converted {
                    "converted"
                } else {
                    "result"
                };
                crate::http::session::see_other(&format!("/admin/s/{sid}/rounds?done={done}"))
            }
            Err(Error::Conflict(detail)) if detail.code().starts_with("stale.") => {
                let err = Error::conflict(crate::i18n::Msg::shown(format!(
                    "{} ({})",
                    tr.t("adm.results.stale"),
                    tr.msg(&detail)
                )));
                super::section::action_failed(
                    &state,
                    &actor,
                    ctx,
                    sid,
                    super::tabs::Tab::Rounds,
                    err,
                )
                .await
                .into_response()
            }
            Err(err) => super::section::action_failed(
                &state,
                &actor,
                ctx,
                sid,
                super::tabs::Tab::Rounds,
                err,
            )
            .await
            .into_response(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_lines_read_board_result_and_fouls() {
        let q = |board, result, fouls: Option<(i64, i64)>| {
            Some(QuickLine {
                board,
                result,
                red_fouls: fouls.map(|f| f.0),
                black_fouls: fouls.map(|f| f.1),
            })
        };
        assert_eq!(parse_quick("3 1"), q(3, GameResult::RedWins, None));
        assert_eq!(parse_quick(" 12 0 "), q(12, GameResult::BlackWins, None));
        assert_eq!(parse_quick("7="), q(7, GameResult::Draw, None));
        assert_eq!(parse_quick("4+"), q(4, GameResult::BlackForfeits, None));
        assert_eq!(parse_quick("5 -"), q(5, GameResult::RedForfeits, None));
        assert_eq!(
            parse_quick("3 1 2 0"),
            q(3, GameResult::RedWins, Some((2, 0)))
        );
        assert_eq!(parse_quick("3=1/1"), q(3, GameResult::Draw, Some((1, 1))));
        assert_eq!(parse_quick("31"), None, "board 31 without a result");
        assert_eq!(parse_quick("= 3"), None);
        assert_eq!(parse_quick("3 x"), None);
        assert_eq!(parse_quick("3 1 2"), None, "both fouls or none");
        assert_eq!(parse_quick(""), None);
    }
}
