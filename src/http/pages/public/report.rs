//! Self-report from a phone (SPEC §5): `/r` takes a code typed from the result slip,
//! `/r/{code}` (the slip's QR code) shows the game and takes one player's report, or the
//! opponent's confirmation in one tap. No account; wrong codes are rate-limited; nothing
//! counts until the desk accepts it. Works without JavaScript.

use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, ClientIp};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::i18n::Msg;
use crate::i18n::Tr;
use crate::service;
use crate::service::reports::{display_code, normalise_code, ReportBoard, ReportInput};
use crate::service::{Error, FieldErrors};
use crate::vocab::{GameResult, RecordNotation, Side};
use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/r", get(show_code_form))
        .route("/r/{code}", get(show_report).post(post_report))
        .route("/r/{code}/record", axum::routing::post(post_record))
}

/// `/r`: the box for a code typed from the slip.
#[derive(Template)]
#[template(path = "public/report_code.html")]
pub struct CodePage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The code as typed.
    pub code: String,
    /// Why it opened nothing.
    pub error: Option<String>,
}

/// A report as the page shows it.
pub struct ReportLine {
    /// Catalogue key of the side that reported.
    pub side_key: String,
    /// Catalogue key of the result.
    pub result_key: String,
    /// Red's fouls.
    pub red_fouls: i32,
    /// Black's fouls.
    pub black_fouls: i32,
}

/// The opponent's report, offered for confirmation in one tap.
pub struct Confirm {
    /// The confirming side (`red`, `black`).
    pub side: String,
    /// The result.
    pub result: GameResult,
    /// Red's fouls.
    pub red_fouls: i32,
    /// Black's fouls.
    pub black_fouls: i32,
}

/// `/r/{code}`: the game and the form.
#[derive(Template)]
#[template(path = "public/report.html")]
pub struct ReportPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The code as printed.
    pub code: String,
    /// The board.
    pub board: ReportBoard,
    /// Catalogue key of where the reports stand.
    pub state_key: String,
    /// The reports so far.
    pub lines: Vec<ReportLine>,
    /// The opponent's report to confirm, when exactly one side reported.
    pub confirm: Option<Confirm>,
    /// Catalogue key of the result that counts, once recorded.
    pub result_key: Option<String>,
    /// The results offered.
    pub choices: &'static [GameResult],
    /// What was posted (kept after an error).
    pub form: ReportForm,
    /// A message for the whole form.
    pub error: Option<String>,
    /// Field errors.
    pub errors: FieldErrors,
    /// What the last report did (`sent`, `accepted`, `record`).
    pub done: Option<String>,
    /// The record form as posted, and why it was refused.
    pub record: RecordForm,
    /// Why the record was refused.
    pub record_error: Option<String>,
    /// The side this page reports for (the code's or the key's): `red` or `black`.
    pub side: String,
    /// Its catalogue key (`col.red`).
    pub side_key: String,
    /// That side's name.
    pub side_name: String,
    /// Where the forms post (`/r/{code}`, `/k/{key}`).
    pub action: String,
}

/// The record form as posted.
#[derive(Debug, Clone, Deserialize)]
pub struct RecordForm {
    /// `chinese`, `iccs` or `wxf`.
    #[serde(default = "chinese")]
    pub notation: String,
    /// The moves.
    #[serde(default)]
    pub text: String,
    /// CSRF token (checked by the extractor).
    #[serde(default)]
    pub csrf: String,
}

fn chinese() -> String {
    RecordNotation::Chinese.to_string()
}

impl Default for RecordForm {
    fn default() -> RecordForm {
        RecordForm {
            notation: chinese(),
            text: String::new(),
            csrf: String::new(),
        }
    }
}

impl ReportPage {
    /// The first error of a field.
    pub fn field_error(&self, field: &str) -> Option<&Msg> {
        self.errors.get(field).and_then(|e| e.first())
    }
}

/// The form as posted; every field is text, as browsers send it.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ReportForm {
    /// `red` or `black`.
    #[serde(default)]
    pub side: String,
    /// The result.
    #[serde(default)]
    pub result: String,
    /// Red's fouls.
    #[serde(default)]
    pub red_fouls: String,
    /// Black's fouls.
    #[serde(default)]
    pub black_fouls: String,
    /// CSRF token (checked by the extractor).
    #[serde(default)]
    pub csrf: String,
}

/// `?code=` of the code box, `?done=` after a report.
#[derive(Debug, Default, Deserialize)]
pub struct CodeQuery {
    /// A typed code.
    pub code: Option<String>,
    /// What the last report did.
    pub done: Option<String>,
}

fn code_page(ctx: PageCtx, code: String, error: Option<String>, status: StatusCode) -> Response {
    Page(
        status,
        CodePage {
            tr: ctx.tr(),
            ctx,
            code,
            error,
        },
    )
    .into_response()
}

/// `GET /r`: the code box; `?code=` goes to the code's page.
pub async fn show_code_form(ctx: PageCtx, Query(query): Query<CodeQuery>) -> Response {
    match query
        .code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        None => code_page(ctx, String::new(), None, StatusCode::OK),
        Some(typed) => match normalise_code(typed) {
            Some(code) => see_other(&format!("/r/{code}")),
            None => {
                let message = service::reports::UNKNOWN_CODE.get(ctx.lang);
                let typed: String = typed.chars().take(40).collect();
                code_page(
                    ctx,
                    typed,
                    Some(message.into()),
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
            }
        },
    }
}

#[allow(clippy::too_many_arguments)]
fn render(
    ctx: PageCtx,
    code: &str,
    board: ReportBoard,
    form: ReportForm,
    error: Option<String>,
    errors: FieldErrors,
    done: Option<String>,
    status: StatusCode,
    record: (RecordForm, Option<String>),
) -> Response {
    let lines = board
        .reports
        .iter()
        .map(|r| ReportLine {
            side_key: format!("col.{}", r.side),
            result_key: format!("result.{}", r.result),
            red_fouls: r.red_fouls,
            black_fouls: r.black_fouls,
        })
        .collect();
    let mine = board.side.unwrap_or(Side::Red);
    let confirm = match board.reports.as_slice() {
        [only] if board.open && only.side != mine => Some(Confirm {
            side: match only.side {
                Side::Red => Side::Black,
                Side::Black => Side::Red,
            }
            .as_str()
            .into(),
            result: only.result,
            red_fouls: only.red_fouls,
            black_fouls: only.black_fouls,
        }),
        _ => None,
    };
    let side_name = match mine {
        Side::Red => board.red.name.clone(),
        Side::Black => board.black.name.clone(),
    };
    let action = match normalise_code(code) {
        Some(code) => format!("/r/{code}"),
        None => "/r".into(),
    };
    Page(
        status,
        ReportPage {
            side: mine.as_str().into(),
            side_key: format!("col.{mine}"),
            side_name,
            action,
            tr: ctx.tr(),
            state_key: state_key_for(&board, board.side),
            result_key: board.result.as_ref().map(|r| format!("result.{r}")),
            code: printed(code),
            lines,
            confirm,
            board,
            choices: GameResult::ENTERED,
            form,
            error,
            errors,
            done,
            record: record.0,
            record_error: record.1,
            ctx,
        },
    )
    .into_response()
}

/// Shows a refused lookup: a bad code on the code box (422), a lockout as the error page.
fn refused(ctx: PageCtx, code: &str, err: Error) -> Result<Response, PageError> {
    match err {
        Error::Invalid { .. } => {
            let typed: String = code.chars().take(40).collect();
            let message = service::reports::UNKNOWN_CODE.get(ctx.lang);
            Ok(code_page(
                ctx,
                typed,
                Some(message.into()),
                StatusCode::UNPROCESSABLE_ENTITY,
            ))
        }
        err => Err(PageError::from_ctx(err, &ctx)),
    }
}

/// `GET /r/{code}`
pub async fn show_report(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ctx: PageCtx,
    PagePath(code): PagePath<String>,
    Query(query): Query<CodeQuery>,
) -> Result<Response, PageError> {
    let board = match service::reports::lookup(&state.db, &state.security.limits, ip, &code).await {
        Ok(board) => board,
        Err(err) => return refused(ctx, &code, err),
    };
    let done = query
        .done
        .filter(|d| d == "sent" || d == "accepted" || d == "record");
    Ok(render(
        ctx,
        &code,
        board,
        ReportForm::default(),
        None,
        FieldErrors::new(),
        done,
        StatusCode::OK,
        (RecordForm::default(), None),
    ))
}

fn number(text: &str, field: &str, _tr: Tr, errors: &mut FieldErrors) -> Option<i64> {
    let text = text.trim();
    if text.is_empty() {
        return Some(0);
    }
    match text.parse::<i64>() {
        Ok(n) => Some(n),
        Err(_) => {
            errors
                .entry(field.to_string())
                .or_default()
                .push(crate::i18n::ui("register.not_a_number"));
            None
        }
    }
}

/// `POST /r/{code}`: one player's report (or the opponent's confirmation). Back to the page
/// with what it did; a refusal shows the page again with the message (409, 422).
pub async fn post_report(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ctx: PageCtx,
    PagePath(code): PagePath<String>,
    AppForm(form): AppForm<ReportForm>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let mut errors = FieldErrors::new();
    let red_fouls = number(&form.red_fouls, "red_fouls", tr, &mut errors);
    let black_fouls = number(&form.black_fouls, "black_fouls", tr, &mut errors);
    let input = ReportInput {
        side: Some(form.side.clone()).filter(|s| !s.is_empty()),
        result: form.result.clone(),
        red_fouls,
        black_fouls,
        game: None,
    };
    let outcome = if errors.is_empty() {
        service::reports::submit(&state.db, &state.security.limits, ip, &code, &input).await
    } else {
        Err(Error::Invalid {
            message: crate::i18n::ui("error.form_invalid"),
            fields: errors,
        })
    };
    let Some(normal) = normalise_code(&code) else {
        return refused(
            ctx,
            &code,
            Error::invalid("code", service::reports::UNKNOWN_CODE),
        );
    };
    match outcome {
        Ok(outcome) => {
            let done = if outcome.accepted { "accepted" } else { "sent" };
            Ok(see_other(&format!("/r/{normal}?done={done}")))
        }
        Err(err @ (Error::Invalid { .. } | Error::Conflict(_))) => {
            // The board again (a refused code answers as on the page's first view).
            let board = match service::reports::lookup(&state.db, &state.security.limits, ip, &code)
                .await
            {
                Ok(board) => board,
                Err(lookup) => return refused(ctx, &code, lookup),
            };
            let (status, message, fields) = match err {
                Error::Invalid { message, fields } => {
                    (StatusCode::UNPROCESSABLE_ENTITY, message, fields)
                }
                other => (
                    StatusCode::CONFLICT,
                    other.msg().unwrap_or_else(|| m::API_INTERNAL.msg()),
                    FieldErrors::new(),
                ),
            };
            let message = message.render(ctx.lang);
            Ok(render(
                ctx,
                &code,
                board,
                form,
                Some(message),
                fields,
                None,
                status,
                (RecordForm::default(), None),
            ))
        }
        Err(err) => Err(PageError::from_ctx(err, &ctx)),
    }
}

/// The code of a page as printed.
pub fn printed(code: &str) -> String {
    normalise_code(code)
        .map(|c| display_code(&c))
        .unwrap_or_default()
}

/// `POST /r/{code}/record`: a player sends the game's record; refused next to the field with
/// the half-move at fault (422), or when the game has one already (409).
pub async fn post_record(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ctx: PageCtx,
    PagePath(code): PagePath<String>,
    AppForm(form): AppForm<RecordForm>,
) -> Result<Response, PageError> {
    let input = service::records::RecordInput {
        notation: form.notation.clone(),
        text: form.text.clone(),
        version: None,
    };
    let saved =
        service::reports::submit_record(&state.db, &state.security.limits, ip, &code, &input).await;
    let Some(normal) = normalise_code(&code) else {
        return refused(
            ctx,
            &code,
            Error::invalid("code", service::reports::UNKNOWN_CODE),
        );
    };
    match saved {
        Ok(_) => Ok(see_other(&format!("/r/{normal}?done=record"))),
        Err(err @ (Error::Invalid { .. } | Error::Conflict(_))) => {
            let board = match service::reports::lookup(&state.db, &state.security.limits, ip, &code)
                .await
            {
                Ok(board) => board,
                Err(lookup) => return refused(ctx, &code, lookup),
            };
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
            // The page again with the record form as posted and the reason beside it.
            Ok(render(
                ctx,
                &code,
                board,
                ReportForm::default(),
                None,
                FieldErrors::new(),
                None,
                status,
                (form, Some(message)),
            ))
        }
        Err(err) => Err(PageError::from_ctx(err, &ctx)),
    }
}

/// Where the reports stand, said to the player who looks: "waiting for the opponent" only to
/// the one who reported; the other is asked to confirm.
pub fn state_key_for(board: &service::reports::ReportBoard, viewer: Option<Side>) -> String {
    let state = board.agreement.as_str();
    let reported_by_other = viewer
        .is_some_and(|me| !board.reports.is_empty() && board.reports.iter().all(|r| r.side != me));
    if state == "waiting" && reported_by_other {
        "report.state.waiting_you".into()
    } else {
        format!("report.state.{state}")
    }
}
