//! The player's own page (issue 36): `/k/{key}` shows this round's board, colour and
//! opponent, the reports and a report form for the key's own side, the game's record form,
//! check-in, and the player's rounds and standing. Private to its holder: `Cache-Control:
//! no-store, private`, `Referrer-Policy: no-referrer`, never through `live::serve` (it is not
//! the same for every visitor). A wrong key answers 404 with one message; wrong keys count
//! against the address's report limit, a right key never does.

use super::player::{round_line, RoundLine};
use super::report::{Confirm, ReportLine};
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, ClientIp};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::keys::{display_key, normalise_key, KeyView};
use crate::service::reports::ReportInput;
use crate::service::Error;
use crate::vocab::{GameResult, RecordNotation, Side};
use askama::Template;
use axum::extract::{Query, State};
use axum::http::header::{CACHE_CONTROL, REFERRER_POLICY};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/k/{key}", get(show))
        .route("/k/{key}/report", post(post_report))
        .route("/k/{key}/check-in", post(post_check_in))
        .route("/k/{key}/record", post(post_record))
        .route("/k/{key}/sw.js", get(service_worker))
}

/// The service worker of a player's notifications (issue #37), the same script for every key:
/// served under the key so that its scope (`/k/{key}/`) is the key's own and a tapped
/// notification opens the key's page without the key travelling in the message.
pub async fn service_worker() -> Response {
    let mut response = include_str!("../../../../static/js/push-sw.js").into_response();
    let headers = response.headers_mut();
    headers.insert(
        axum::http::header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

/// `/k/{key}`.
#[derive(Template)]
#[template(path = "public/key.html")]
pub struct KeyPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The key as stored (the forms' addresses).
    pub key: String,
    /// The key as printed.
    pub printed: String,
    /// What the key opens.
    pub view: KeyView,
    /// Catalogue key of the player's colour this round (`col.red`), or empty.
    pub colour_key: String,
    /// `red` or `black`, or empty.
    pub side: String,
    /// The opponent as shown (`3. Name`), or empty.
    pub opponent: String,
    /// Catalogue key of where the reports stand.
    pub state_key: String,
    /// The reports so far.
    pub lines: Vec<ReportLine>,
    /// The opponent's report to confirm, when only the opponent reported.
    pub confirm: Option<Confirm>,
    /// Catalogue key of the result that counts, once recorded.
    pub result_key: Option<String>,
    /// The results offered.
    pub choices: &'static [GameResult],
    /// The player's rounds.
    pub history: Vec<RoundLine>,
    /// Rank and points as shown, once there are standings.
    pub standing: Option<String>,
    /// What the last action did (`in`, `out`, `sent`, `accepted`, `record`).
    pub done: Option<String>,
    /// Why the last action was refused.
    pub error: Option<String>,
    /// The record's notations (the game's).
    pub notations: Vec<RecordNotation>,
    /// The planned start of this round's board, as shown.
    pub board_starts: Option<String>,
    /// The next planned round after the last published one, as a sentence.
    pub next: Option<String>,
    /// The player's own calendar's `webcal:` address, when the section has a schedule.
    pub webcal: Option<String>,
    /// A team key's games of the match, each with where its reports stand (issue #41).
    pub team_lines: Vec<TeamGameLine>,
}

/// A game of a team key's match as the key page shows it: the captain sees every board's
/// state, not only the board just reported.
pub struct TeamGameLine {
    /// The game's board in the match.
    pub game: i32,
    /// Red on that board.
    pub red: String,
    /// Black on that board.
    pub black: String,
    /// Catalogue key of the team's colour on that board.
    pub colour_key: String,
    /// Catalogue key of where the reports stand.
    pub state_key: String,
    /// `none`, `waiting`, `agreed` or `disputed` (the state's class).
    pub agreement: String,
    /// Catalogue key of the result that counts, once recorded.
    pub result_key: Option<String>,
    /// The reports so far.
    pub lines: Vec<ReportLine>,
}

/// The reports of `board` as lines.
fn report_lines(board: &service::reports::ReportBoard) -> Vec<ReportLine> {
    board
        .reports
        .iter()
        .map(|r| ReportLine {
            side_key: format!("col.{}", r.side),
            result_key: format!("result.{}", r.result),
            red_fouls: r.red_fouls,
            black_fouls: r.black_fouls,
        })
        .collect()
}

/// `?done=` after an action.
#[derive(Debug, Default, Deserialize)]
pub struct DoneQuery {
    /// What the last action did.
    pub done: Option<String>,
}

/// The report form as posted.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct KeyReportForm {
    /// The result.
    #[serde(default)]
    pub result: String,
    /// Red's fouls.
    #[serde(default)]
    pub red_fouls: String,
    /// Black's fouls.
    #[serde(default)]
    pub black_fouls: String,
    /// A team key's board of the match (issue #41).
    #[serde(default)]
    pub game: String,
    /// CSRF token (checked by the extractor).
    #[serde(default)]
    pub csrf: String,
}

/// The check-in form: `in` or `out`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct CheckInForm {
    /// `in` or `out`.
    #[serde(default)]
    pub present: String,
    /// CSRF token (checked by the extractor).
    #[serde(default)]
    pub csrf: String,
}

/// The record form.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RecordForm {
    /// The notation.
    #[serde(default)]
    pub notation: String,
    /// The moves.
    #[serde(default)]
    pub text: String,
    /// CSRF token (checked by the extractor).
    #[serde(default)]
    pub csrf: String,
}

/// A response of this page: never cached, never referred.
fn private(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store, private"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

fn refused(err: Error, ctx: &PageCtx) -> Response {
    private(PageError::from_ctx(err, ctx).into_response())
}

async fn page(
    state: &AppState,
    ctx: PageCtx,
    key: &str,
    view: KeyView,
    done: Option<String>,
    error: Option<(StatusCode, String)>,
) -> Response {
    let mine = view.board.as_ref().and_then(|b| b.side);
    let (colour_key, side, opponent) = match (&view.board, mine) {
        (Some(b), Some(side)) => {
            let other = match side {
                Side::Red => &b.black,
                Side::Black => &b.red,
            };
            let opponent = match other.start_no {
                Some(no) => format!("{no}. {}", other.name),
                None => other.name.clone(),
            };
            (format!("col.{side}"), side.as_str().to_string(), opponent)
        }
        _ => (String::new(), String::new(), String::new()),
    };
    let lines = view.board.as_ref().map(report_lines).unwrap_or_default();
    let team_lines = view
        .team_games
        .iter()
        .map(|g| TeamGameLine {
            game: g.game.unwrap_or(0),
            red: g.red.name.clone(),
            black: g.black.name.clone(),
            colour_key: g.side.map(|s| format!("col.{s}")).unwrap_or_default(),
            state_key: super::report::state_key_for(g, g.side),
            agreement: g.agreement.as_str().to_string(),
            result_key: g.result.as_ref().map(|r| format!("result.{r}")),
            lines: report_lines(g),
        })
        .collect();
    let confirm = view
        .board
        .as_ref()
        .and_then(|b| match b.reports.as_slice() {
            [only] if view.can_report && Some(only.side) != mine => Some(Confirm {
                side: side.clone(),
                result: only.result,
                red_fouls: only.red_fouls,
                black_fouls: only.black_fouls,
            }),
            _ => None,
        });
    // The schedule: this board's round's start, the next round's start.
    let schedule = service::schedule::get(&state.db, view.section_id)
        .await
        .ok();
    let board_starts = view
        .board
        .as_ref()
        .and_then(|b| schedule.as_ref()?.shown(b.round));
    let shown_rounds = service::rounds::list_visible(&state.db, None, view.section_id)
        .await
        .map(|rounds| rounds.iter().map(|r| r.number).max().unwrap_or(0))
        .unwrap_or(0);
    let next = super::player::next_planned(schedule.as_ref(), shown_rounds)
        .map(|(n, at)| ctx.tr().fmt_n("round.next_starts", &[&n, &at]));
    // The player's rounds and standing, as the public player page has them.
    let (history, standing) = match view.entrant.start_no {
        Some(no) => {
            let section = service::sections::get(&state.db, view.section_id).await;
            let player = service::players::get(&state.db, None, view.section_id, no).await;
            match (section, player) {
                (Ok(section), Ok(p)) => (
                    p.rounds
                        .iter()
                        .map(|r| {
                            let mut line = round_line(r, &section.scoring);
                            line.starts = schedule
                                .as_ref()
                                .and_then(|s| s.shown(r.number))
                                .unwrap_or_default();
                            line
                        })
                        .collect(),
                    p.rank.zip(p.points).map(|(rank, points)| {
                        ctx.tr().fmt_n(
                            "keypage.standing",
                            &[&rank, &crate::http::pages::shared::format_number(points)],
                        )
                    }),
                ),
                _ => (Vec::new(), None),
            }
        }
        None => (Vec::new(), None),
    };
    let (status, error) = match error {
        Some((status, message)) => (status, Some(message)),
        None => (StatusCode::OK, None),
    };
    let state_key = view
        .board
        .as_ref()
        .map(|b| super::report::state_key_for(b, mine))
        .unwrap_or_default();
    let result_key = view
        .board
        .as_ref()
        .and_then(|b| b.result.as_ref().map(|r| format!("result.{r}")));
    let notations = view
        .board
        .as_ref()
        .map(|b| b.notations.clone())
        .unwrap_or_default();
    private(
        Page(
            status,
            KeyPage {
                tr: ctx.tr(),
                key: key.to_string(),
                printed: display_key(key),
                colour_key,
                side,
                opponent,
                state_key,
                lines,
                confirm,
                result_key,
                choices: GameResult::ENTERED,
                history,
                standing,
                done,
                error,
                notations,
                board_starts,
                next,
                webcal: schedule
                    .as_ref()
                    .filter(|s| !s.planned.is_empty())
                    .map(|_| super::calendar::webcal(state, &format!("/k/{key}/calendar.ics"))),
                team_lines,
                view,
                ctx,
            },
        )
        .into_response(),
    )
}

/// The page of `key` for a visitor from `ip`, with what the last action did or why it was
/// refused.
async fn show_page(
    state: &AppState,
    ctx: PageCtx,
    ip: std::net::IpAddr,
    key: &str,
    done: Option<String>,
    error: Option<(StatusCode, String)>,
) -> Response {
    let view = match service::keys::lookup(&state.db, &state.security.limits, ip, key).await {
        Ok(view) => view,
        Err(err) => return refused(err, &ctx),
    };
    let normal = normalise_key(key).unwrap_or_default();
    page(state, ctx, &normal, view, done, error).await
}

/// `GET /k/{key}`
pub async fn show(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ctx: PageCtx,
    PagePath(key): PagePath<String>,
    Query(query): Query<DoneQuery>,
) -> Response {
    let done = query
        .done
        .filter(|d| ["in", "out", "sent", "accepted", "record"].contains(&d.as_str()));
    show_page(&state, ctx, ip, &key, done, None).await
}

fn number(text: &str) -> Option<i64> {
    let text = text.trim();
    if text.is_empty() {
        Some(0)
    } else {
        text.parse().ok()
    }
}

/// A refusal shown on the page (409, 422), or the error page.
async fn after(
    state: &AppState,
    ctx: PageCtx,
    ip: std::net::IpAddr,
    key: &str,
    err: Error,
) -> Response {
    match &err {
        Error::Invalid { .. } | Error::Conflict(_) => {
            let status = crate::http::error::status(&err);
            let message = match &err {
                Error::Invalid { fields, message } => fields
                    .values()
                    .flatten()
                    .next()
                    .cloned()
                    .unwrap_or_else(|| message.clone())
                    .render(ctx.lang),
                other => other.render(ctx.lang),
            };
            show_page(state, ctx, ip, key, None, Some((status, message))).await
        }
        _ => refused(err, &ctx),
    }
}

/// `POST /k/{key}/report`: the player's report, as the key's side.
pub async fn post_report(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ctx: PageCtx,
    PagePath(key): PagePath<String>,
    AppForm(form): AppForm<KeyReportForm>,
) -> Response {
    let input = ReportInput {
        side: None,
        result: form.result.clone(),
        red_fouls: number(&form.red_fouls),
        black_fouls: number(&form.black_fouls),
        game: form.game.trim().parse().ok(),
    };
    match service::keys::report(&state.db, &state.security.limits, ip, &key, &input).await {
        Ok(outcome) => {
            let done = if outcome.accepted { "accepted" } else { "sent" };
            let normal = normalise_key(&key).unwrap_or_default();
            private(see_other(&format!("/k/{normal}?done={done}")))
        }
        Err(err) => after(&state, ctx, ip, &key, err).await,
    }
}

/// `POST /k/{key}/check-in` (`present=in` or `out`).
pub async fn post_check_in(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ctx: PageCtx,
    PagePath(key): PagePath<String>,
    AppForm(form): AppForm<CheckInForm>,
) -> Response {
    let present = form.present != "out";
    match service::keys::check_in(&state.db, &state.security.limits, ip, &key, present).await {
        Ok(_) => {
            let normal = normalise_key(&key).unwrap_or_default();
            let done = if present { "in" } else { "out" };
            private(see_other(&format!("/k/{normal}?done={done}")))
        }
        Err(err) => after(&state, ctx, ip, &key, err).await,
    }
}

/// `POST /k/{key}/record`: the game's record, once, while the round is played.
pub async fn post_record(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ctx: PageCtx,
    PagePath(key): PagePath<String>,
    AppForm(form): AppForm<RecordForm>,
) -> Response {
    let input = service::records::RecordInput {
        notation: form.notation.clone(),
        text: form.text.clone(),
        version: None,
    };
    match service::keys::record(&state.db, &state.security.limits, ip, &key, &input).await {
        Ok(_) => {
            let normal = normalise_key(&key).unwrap_or_default();
            private(see_other(&format!("/k/{normal}?done=record")))
        }
        Err(err) => after(&state, ctx, ip, &key, err).await,
    }
}
