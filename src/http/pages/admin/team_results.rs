//! The desk's result entry for a team section's round (issue #41): the round's page
//! `/admin/s/{section_id}/rounds/{n}/results` shows, in a team section, each match expanding
//! to its boards, a result form per board (result, fouls of Red and Black, the version seen),
//! a whole-match forfeit, and the quick line per board of a match: `MATCH.BOARD RESULT
//! [RED_FOULS BLACK_FOULS]` (`3.2 1`: match 3, board 2, Red wins; `3.2=`, `3.2 0`, `3.2+`,
//! `3.2-`, `3.2 1 2 0`), the individual line's keys after a match number and a dot. Every
//! write goes through `service::team_matches` (the one way in, `rounds::record_result`: the
//! version compare-and-set, the foul rule, the audit; a forfeit in one transaction).

use super::form::{number, text, Fields};
use super::results::parse_quick;
use super::section_forms::{choices, ResultChoice};
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::CurrentUser;
use crate::http::AppState;
use crate::i18n::{Msg, Tr};
use crate::service::access::Need;
use crate::service::rounds::{ResultInput, RoundView};
use crate::service::sections::Section;
use crate::service::team_matches::{ForfeitInput, MatchGame, MatchView};
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
use crate::vocab::GameResult;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use uuid::Uuid;

/// The routes of this page (the round's page itself is `results::router`'s, which hands a
/// team section to this file).
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/admin/s/{section_id}/rounds/{n}/matches/{m}/forfeit",
        post(forfeit),
    )
}

/// A parsed team quick line: match number, then the individual line of the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamLine {
    /// Match number in the round.
    pub game_match: i32,
    /// The board's line (its `board` is the board of the match).
    pub board: super::results::QuickLine,
}

/// Reads `MATCH.BOARD RESULT [RED_FOULS BLACK_FOULS]`: the match's digits, a dot, then the
/// individual line (`parse_quick`) with the board of the match.
pub fn parse_team_quick(line: &str) -> Option<TeamLine> {
    let line = line.trim();
    let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
    let game_match: i32 = digits.parse().ok()?;
    let rest = line[digits.len()..].strip_prefix('.')?;
    if !rest.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some(TeamLine {
        game_match,
        board: parse_quick(rest)?,
    })
}

/// One board of a match as the page shows it.
pub struct GameRow {
    /// The game.
    pub game: MatchGame,
    /// Catalogue key of the result, or empty.
    pub result_key: String,
    /// Board of the last entry (highlighted).
    pub just_saved: bool,
}

/// One match as the page shows it.
pub struct MatchRow {
    /// The match.
    pub m: MatchView,
    /// Its boards.
    pub games: Vec<GameRow>,
    /// Shown expanded: a board without a result, or the last entry's match.
    pub open: bool,
    /// The versions of its games, board 1 first (`3,0,1`), for the whole-match forfeit.
    pub versions: String,
    /// The match's outcome in words: who won it, or drawn (empty while boards are open).
    pub outcome: String,
}

/// The desk's round page of a team section.
#[derive(Template)]
#[template(path = "admin/team_results.html")]
pub struct TeamResultsPage {
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
    /// The matches.
    pub matches: Vec<MatchRow>,
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
pub struct Outcome {
    notice: Option<String>,
    conversion: Option<String>,
    error: Option<String>,
    line: String,
    saved: Option<(i32, i32)>,
}

/// Renders the page with the round's matches as they are now.
async fn render(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    section: Section,
    round: &RoundView,
    outcome: Outcome,
    status: StatusCode,
) -> Result<Response, PageError> {
    let matches =
        service::team_matches::round_matches(&state.db, Some(actor), section.id, round.number)
            .await
            .or_page(&ctx)?;
    Ok(page(ctx, section, round, matches, outcome, status))
}

/// Who won a match, in words (empty without a result).
fn outcome_words(tr: Tr, m: &MatchView) -> String {
    let Some(result) = m.result else {
        return String::new();
    };
    let black = m.black.as_ref().map_or("", |b| b.name.as_str());
    match result.winner() {
        Some(crate::vocab::Side::Red) => tr.fmt("adm.team_results.won_by", &m.red.name),
        Some(crate::vocab::Side::Black) => tr.fmt("adm.team_results.won_by", black),
        None if result.is_forfeit() => tr.t("adm.team_results.forfeited_both").to_string(),
        None => tr.t("adm.team_results.drawn").to_string(),
    }
}

fn page(
    ctx: PageCtx,
    section: Section,
    round: &RoundView,
    matches: Vec<MatchView>,
    outcome: Outcome,
    status: StatusCode,
) -> Response {
    let open = matches
        .iter()
        .flat_map(|m| &m.games)
        .filter(|g| g.result.is_none())
        .count();
    let tr = ctx.tr();
    let matches = matches
        .into_iter()
        .map(|m| {
            let number = m.number;
            let games: Vec<GameRow> = m
                .games
                .iter()
                .map(|g| GameRow {
                    result_key: g.result.map(|r| format!("result.{r}")).unwrap_or_default(),
                    just_saved: outcome.saved == Some((number, g.number)),
                    game: g.clone(),
                })
                .collect();
            MatchRow {
                open: games
                    .iter()
                    .any(|g| g.game.result.is_none() || g.just_saved)
                    && m.black.is_some(),
                versions: games
                    .iter()
                    .map(|g| g.game.version.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                outcome: outcome_words(tr, &m),
                games,
                m,
            }
        })
        .collect();
    Page(
        status,
        TeamResultsPage {
            tr: ctx.tr(),
            section,
            number: round.number,
            status_key: format!("round_status.{}", round.status),
            matches,
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

/// `GET /admin/s/{section_id}/rounds/{n}/results` of a team section.
pub async fn show(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    section: Section,
    round: RoundView,
) -> Result<Response, PageError> {
    render(
        state,
        actor,
        ctx,
        section,
        &round,
        Outcome::default(),
        StatusCode::OK,
    )
    .await
}

/// What a posted form asks for.
struct Entry {
    game_match: i32,
    board: i32,
    input: ResultInput,
    version: Option<i32>,
    from_line: bool,
    confirmed: bool,
}

/// Reads the quick line (`line`, the versions as `v{match}.{board}`) or a board form
/// (`match`, `board`, `result`, `red_fouls`, `black_fouls`, `version`).
fn read_entry(form: &Fields, tr: Tr) -> Result<Entry, String> {
    if let Some(line) = text(form, "line") {
        let (line, confirmed) = match line.trim_end().strip_suffix('!') {
            Some(rest) => (rest.to_string(), true),
            None => (line, false),
        };
        let quick =
            parse_team_quick(&line).ok_or_else(|| tr.t("adm.team_results.bad_line").to_string())?;
        let version = form
            .get(&format!("v{}.{}", quick.game_match, quick.board.board))
            .and_then(|v| v.trim().parse().ok());
        return Ok(Entry {
            game_match: quick.game_match,
            board: quick.board.board,
            input: ResultInput {
                result: quick.board.result.to_string(),
                red_fouls: quick.board.red_fouls,
                black_fouls: quick.board.black_fouls,
                version: None,
            },
            version,
            from_line: true,
            confirmed,
        });
    }
    let mut errors = FieldErrors::new();
    let game_match = number(form, "match", tr, &mut errors);
    let board = number(form, "board", tr, &mut errors);
    let red_fouls = number(form, "red_fouls", tr, &mut errors);
    let black_fouls = number(form, "black_fouls", tr, &mut errors);
    let version = number(form, "version", tr, &mut errors);
    match (game_match, board, text(form, "result"), errors.is_empty()) {
        (Some(m), Some(board), Some(result), true) => Ok(Entry {
            game_match: i32::try_from(m).unwrap_or(-1),
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
        (Some(_), Some(_), None, true) => Err(tr.t("adm.results.choose").to_string()),
        _ => Err(tr.t("adm.team_results.bad_line").to_string()),
    }
}

/// The words of a stale version: what the individual page says.
fn stale(tr: Tr, detail: &Msg) -> String {
    format!("{} ({})", tr.t("adm.results.stale"), tr.msg(detail))
}

/// `POST /admin/s/{section_id}/rounds/{n}/results` of a team section: one board of a match
/// (form or quick line); the page again with what was recorded or why it was refused (422
/// unreadable or invalid, 409 stale, 404 no such match or board).
pub async fn enter(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    section: Section,
    round: RoundView,
    form: Fields,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let line = form.get("line").cloned().unwrap_or_default();
    let refused = |status, error: String, line: String| {
        (
            status,
            Outcome {
                error: Some(error),
                line,
                ..Outcome::default()
            },
        )
    };
    let matches =
        service::team_matches::round_matches(&state.db, Some(actor), section.id, round.number)
            .await
            .or_page(&ctx)?;
    let entry = match read_entry(&form, tr) {
        Ok(entry) => entry,
        Err(message) => {
            let (status, outcome) = refused(StatusCode::UNPROCESSABLE_ENTITY, message, line);
            return Ok(page(ctx, section, &round, matches, outcome, status));
        }
    };
    let Some(m) = matches.iter().find(|m| m.number == entry.game_match) else {
        let message = tr.fmt("adm.team_results.no_match", entry.game_match);
        let (status, outcome) = refused(StatusCode::NOT_FOUND, message, line);
        return Ok(page(ctx, section, &round, matches, outcome, status));
    };
    let Some(game) = m.games.iter().find(|g| g.number == entry.board) else {
        let message = tr.fmt2("adm.team_results.no_board", entry.game_match, entry.board);
        let (status, outcome) = refused(StatusCode::NOT_FOUND, message, line);
        return Ok(page(ctx, section, &round, matches, outcome, status));
    };
    let board_id = m.id;
    // A quick line that would replace a different stored result asks first (as the
    // individual line does): it comes back with `!`, and a second Enter confirms.
    if let (Some(stored), true, false, Ok(entered)) = (
        game.result,
        entry.from_line,
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
        if !(stored == would_be && red == game.red_fouls && black == game.black_fouls) {
            let message = tr
                .t("adm.team_results.replace_confirm")
                .replacen("{}", &entry.game_match.to_string(), 1)
                .replacen("{}", &entry.board.to_string(), 1)
                .replacen("{}", tr.t(&format!("result.{stored}")), 1)
                .replacen("{}", tr.t(&format!("result.{}", entry.input.result)), 1);
            let (status, outcome) = refused(
                StatusCode::CONFLICT,
                message,
                format!("{}!", line.trim_end()),
            );
            return Ok(page(ctx, section, &round, matches, outcome, status));
        }
    }
    let (status, outcome) = match service::team_matches::set_game_result(
        &state.db,
        actor,
        board_id,
        entry.board,
        &entry.input,
        entry.version,
    )
    .await
    {
        Ok(outcome) => {
            let notice = format!(
                "{}, {}: {}",
                tr.fmt("team_page.match_n", entry.game_match),
                tr.fmt("team_page.board_n", entry.board),
                tr.t(&format!("result.{}", outcome.reported_result))
            );
            let conversion = outcome.converted.then(|| {
                format!(
                    "{} {}",
                    tr.t("adm.results.converted"),
                    tr.t(&format!("result.{}", outcome.result))
                )
            });
            (
                StatusCode::OK,
                Outcome {
                    notice: Some(notice),
                    conversion,
                    saved: Some((entry.game_match, entry.board)),
                    ..Outcome::default()
                },
            )
        }
        Err(err) => {
            let status = crate::http::error::status(&err);
            let message = match &err {
                Error::Conflict(detail) if detail.code().starts_with("stale.") => stale(tr, detail),
                Error::Invalid { .. } | Error::Conflict(_) => err.render(ctx.lang),
                _ => return Err(PageError::from_ctx(err, &ctx)),
            };
            refused(status, message, line)
        }
    };
    render(state, actor, ctx, section, &round, outcome, status).await
}

/// `POST /admin/s/{section_id}/rounds/{n}/matches/{m}/forfeit`: every board of match `m`
/// forfeited by `forfeits` (`red`: the team with Red on board 1, `black`, `both`), with the
/// games' `versions` as seen (a game changed meanwhile refuses it all: 409). The round's page
/// again with what was done or why not.
pub async fn forfeit(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n, m)): PagePath<(Uuid, i32, i32)>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        super::form::require(&state, &actor, section.tournament_id, Need::Scorer).await?;
        let round = service::rounds::get(&state.db, Some(&actor), id, n).await?;
        let matches = service::team_matches::round_matches(&state.db, Some(&actor), id, n).await?;
        service::Result::Ok((section, round, matches))
    }
    .await;
    let (section, round, matches) = loaded.or_page(&ctx)?;
    let Some(found) = matches.iter().find(|x| x.number == m) else {
        return Err(PageError::from_ctx(
            Error::NotFound(crate::i18n::messages::NOT_FOUND_BOARD),
            &ctx,
        ));
    };
    let versions = text(&form, "versions").map(|v| {
        v.split(',')
            .filter_map(|x| x.trim().parse::<i32>().ok())
            .collect::<Vec<_>>()
    });
    let Some(forfeits) = text(&form, "forfeits") else {
        let outcome = Outcome {
            error: Some(format!(
                "{}: {}",
                tr.fmt("team_page.match_n", m),
                tr.t("adm.team_results.forfeit_choose")
            )),
            ..Outcome::default()
        };
        return Ok(page(
            ctx,
            section,
            &round,
            matches,
            outcome,
            StatusCode::UNPROCESSABLE_ENTITY,
        ));
    };
    let input = ForfeitInput {
        forfeits: forfeits.clone(),
        versions,
    };
    let (status, outcome) =
        match service::team_matches::forfeit_match(&state.db, &actor, found.id, &input).await {
            Ok(_) => (
                StatusCode::OK,
                Outcome {
                    notice: Some(format!(
                        "{}: {}",
                        tr.fmt("team_page.match_n", m),
                        match forfeits.as_str() {
                            "red" => tr.fmt("adm.team_results.forfeited", &found.red.name),
                            "black" => tr.fmt(
                                "adm.team_results.forfeited",
                                found.black.as_ref().map_or("", |b| b.name.as_str()),
                            ),
                            _ => tr.t("adm.team_results.forfeited_both").to_string(),
                        }
                    )),
                    ..Outcome::default()
                },
            ),
            Err(err) => {
                let status = crate::http::error::status(&err);
                let message = match &err {
                    Error::Conflict(detail) if detail.code().starts_with("stale.") => {
                        stale(tr, detail)
                    }
                    Error::Invalid { .. } | Error::Conflict(_) => err.render(ctx.lang),
                    _ => return Err(PageError::from_ctx(err, &ctx)),
                };
                (
                    status,
                    Outcome {
                        error: Some(format!("{}: {message}", tr.fmt("team_page.match_n", m))),
                        ..Outcome::default()
                    },
                )
            }
        };
    render(&state, &actor, ctx, section, &round, outcome, status).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn team_lines_read_match_board_result_and_fouls() {
        let t = |m, board, result, fouls: Option<(i64, i64)>| {
            Some(TeamLine {
                game_match: m,
                board: super::super::results::QuickLine {
                    board,
                    result,
                    red_fouls: fouls.map(|f| f.0),
                    black_fouls: fouls.map(|f| f.1),
                },
            })
        };
        assert_eq!(
            parse_team_quick("3.2 1"),
            t(3, 2, GameResult::RedWins, None)
        );
        assert_eq!(
            parse_team_quick(" 12.4 0 "),
            t(12, 4, GameResult::BlackWins, None)
        );
        assert_eq!(parse_team_quick("1.1="), t(1, 1, GameResult::Draw, None));
        assert_eq!(
            parse_team_quick("2.3+"),
            t(2, 3, GameResult::BlackForfeits, None)
        );
        assert_eq!(
            parse_team_quick("2.3 -"),
            t(2, 3, GameResult::RedForfeits, None)
        );
        assert_eq!(
            parse_team_quick("3.2 1 2 0"),
            t(3, 2, GameResult::RedWins, Some((2, 0)))
        );
        assert_eq!(
            parse_team_quick("3 1"),
            None,
            "the board of the match is needed"
        );
        assert_eq!(parse_team_quick("3.21"), None, "board 21 without a result");
        assert_eq!(parse_team_quick("3. 2 1"), None);
        assert_eq!(parse_team_quick(".2 1"), None);
        assert_eq!(parse_team_quick("3.2"), None);
        assert_eq!(parse_team_quick(""), None);
    }
}
