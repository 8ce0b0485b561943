//! The desk's side of self-report (SPEC §5): the queue of players' reports
//! (`/admin/s/{section_id}/reports`, updating itself while open), accepted with one key or
//! dismissed, and the result slips that carry each board's report code as a QR code
//! (`/admin/s/{section_id}/rounds/{n}/slips`, staff only: a code lets its holder report).

use super::form::{require, text, Fields};
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::qr_svg;
use crate::http::public_url;
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::access::Need;
use crate::service::reports::{display_code, Agreement, QueueItem};
use crate::service::sections::Section;
use crate::service::Error;
use askama::Template;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/s/{section_id}/reports", get(show_queue))
        .route(
            "/admin/boards/{board_id}/reports/accept",
            post(accept_reports),
        )
        .route(
            "/admin/boards/{board_id}/reports/dismiss",
            post(dismiss_reports),
        )
        .route("/admin/s/{section_id}/rounds/{n}/slips", get(print_slips))
}

/// One report as the queue shows it.
pub struct QueueReport {
    /// Catalogue key of the side.
    pub side_key: String,
    /// Catalogue key of the result.
    pub result_key: String,
    /// Red's fouls.
    pub red_fouls: i32,
    /// Black's fouls.
    pub black_fouls: i32,
}

/// One board of the queue.
pub struct QueueRow {
    /// Board id.
    pub board_id: Uuid,
    /// Round.
    pub round: i32,
    /// Board number.
    pub board: i32,
    /// A team match's game (its board of the match), empty otherwise.
    pub game: String,
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// Agreed, disputed or waiting.
    pub state: Agreement,
    /// The reports.
    pub reports: Vec<QueueReport>,
    /// The first agreed board: the one key accepts it.
    pub first: bool,
}

/// The queue page.
#[derive(Template)]
#[template(path = "admin/reports.html")]
pub struct QueuePage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Boards with reports.
    pub rows: Vec<QueueRow>,
    /// Agreed boards waiting for the desk.
    pub agreed: usize,
    /// What the last action did (catalogue key).
    pub notice: Option<String>,
    /// Why the last action was refused.
    pub error: Option<String>,
}

fn rows(items: Vec<QueueItem>) -> Vec<QueueRow> {
    let mut first = true;
    items
        .into_iter()
        .map(|item| {
            let b = item.board;
            let agreed = b.agreement == Agreement::Agreed;
            let row = QueueRow {
                board_id: b.board_id,
                game: b.game.map(|g| g.to_string()).unwrap_or_default(),
                round: b.round,
                board: b.board,
                red: b.red.name,
                black: b.black.name,
                state: b.agreement,
                reports: b
                    .reports
                    .into_iter()
                    .map(|r| QueueReport {
                        side_key: format!("col.{}", r.side),
                        result_key: format!("report.result.{}", r.result),
                        red_fouls: r.red_fouls,
                        black_fouls: r.black_fouls,
                    })
                    .collect(),
                first: first && agreed,
            };
            first &= !agreed;
            row
        })
        .collect()
}

/// `?done=` after an action.
#[derive(Debug, Default, Deserialize)]
pub struct DoneQuery {
    /// `accepted` or `dismissed`.
    pub done: Option<String>,
}

async fn queue_page(
    state: &AppState,
    actor: &service::users::Actor,
    ctx: PageCtx,
    section_id: Uuid,
    notice: Option<String>,
    error: Option<(StatusCode, String)>,
) -> Result<Response, PageError> {
    let section = service::sections::get(&state.db, section_id)
        .await
        .or_page(&ctx)?;
    require(state, actor, section.tournament_id, Need::Scorer)
        .await
        .or_page(&ctx)?;
    let items = service::reports::queue(&state.db, actor, section_id)
        .await
        .or_page(&ctx)?;
    let rows = rows(items);
    let agreed = rows.iter().filter(|r| r.state == Agreement::Agreed).count();
    let (status, error) = match error {
        Some((status, message)) => (status, Some(message)),
        None => (StatusCode::OK, None),
    };
    Ok(Page(
        status,
        QueuePage {
            tr: ctx.tr(),
            section,
            rows,
            agreed,
            notice,
            error,
            ctx,
        },
    )
    .into_response())
}

/// `GET /admin/s/{section_id}/reports`
pub async fn show_queue(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    Query(query): Query<DoneQuery>,
) -> Result<Response, PageError> {
    let notice = query
        .done
        .filter(|d| d == "accepted" || d == "dismissed")
        .map(|d| format!("report.queue.{d}"));
    queue_page(&state, &actor, ctx, id, notice, None).await
}

async fn act(
    state: AppState,
    actor: service::users::Actor,
    ctx: PageCtx,
    board_id: Uuid,
    form: Fields,
    accept: bool,
) -> Result<Response, PageError> {
    let Some(section_id) = text(&form, "section_id").and_then(|s| s.parse::<Uuid>().ok()) else {
        return Err(PageError::from_service(
            Error::invalid("section_id", crate::i18n::messages::CHECK_REQUIRED),
            ctx.lang,
        ));
    };
    let game = text(&form, "game").and_then(|g| g.parse::<i32>().ok());
    let done = if accept {
        service::reports::accept(&state.db, &actor, board_id, game)
            .await
            .map(|_| "accepted")
    } else {
        service::reports::dismiss(&state.db, &actor, board_id, game)
            .await
            .map(|()| "dismissed")
    };
    match done {
        Ok(done) => Ok(see_other(&format!(
            "/admin/s/{section_id}/reports?done={done}"
        ))),
        Err(err @ (Error::Conflict(_) | Error::Invalid { .. })) => {
            let status = crate::http::error::status(&err);
            let message = err.render(ctx.lang);
            queue_page(
                &state,
                &actor,
                ctx,
                section_id,
                None,
                Some((status, message)),
            )
            .await
        }
        Err(err) => Err(PageError::from_ctx(err, &ctx)),
    }
}

/// `POST /admin/boards/{board_id}/reports/accept` (`section_id`): the agreed reports count.
pub async fn accept_reports(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(board_id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    act(state, actor, ctx, board_id, form, true).await
}

/// `POST /admin/boards/{board_id}/reports/dismiss` (`section_id`): the reports count for
/// nothing; the players may report again.
pub async fn dismiss_reports(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(board_id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    act(state, actor, ctx, board_id, form, false).await
}

// ---------------------------------------------------------------- result slips

/// One slip.
pub struct Slip {
    /// Board number.
    pub board: i32,
    /// Red's number and name.
    pub red_no: String,
    /// Red's name.
    pub red: String,
    /// Black's number.
    pub black_no: String,
    /// Black's name.
    pub black: String,
    /// Red's report code as printed.
    pub code: String,
    /// Red's report page's address.
    pub url: String,
    /// Its QR code.
    pub qr: String,
    /// Black's report code as printed (issue 36: each side reports with its own code).
    pub black_code: String,
    /// Black's report page's address.
    pub black_url: String,
    /// Its QR code.
    pub black_qr: String,
}

/// `GET /admin/s/{section_id}/rounds/{n}/slips`: six slips per A4 page.
#[derive(Template)]
#[template(path = "print/report_slips.html")]
pub struct SlipsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Tournament name.
    pub tournament_name: String,
    /// Round number.
    pub number: i32,
    /// The slips.
    pub slips: Vec<Slip>,
    /// Whether the section takes self-reports (the slip says how).
    pub self_report: bool,
}

/// `GET /admin/s/{section_id}/rounds/{n}/slips`
pub async fn print_slips(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let section = service::sections::get(&state.db, id).await.or_page(&ctx)?;
    let tournament = service::tournaments::get(&state.db, section.tournament_id)
        .await
        .or_page(&ctx)?;
    let codes = service::reports::codes(&state.db, &actor, id, n)
        .await
        .or_page(&ctx)?;
    let round = service::rounds::get(&state.db, Some(&actor), id, n)
        .await
        .or_page(&ctx)?;
    let number = |no: Option<i32>| no.map(|n| n.to_string()).unwrap_or_default();
    let slips = round
        .boards
        .iter()
        .filter_map(|b| {
            let black = b.black.as_ref()?;
            let (code, black_code) = codes
                .iter()
                .find(|(board, _, _)| *board == b.number)
                .map(|(_, red, black)| (red.clone(), black.clone()))
                .unwrap_or_default();
            let url = public_url(
                state.security.public_url.as_deref(),
                &headers,
                &format!("/r/{code}"),
            );
            let black_url = public_url(
                state.security.public_url.as_deref(),
                &headers,
                &format!("/r/{black_code}"),
            );
            Some(Slip {
                board: b.number,
                red_no: number(b.red.start_no),
                red: b.red.name.clone(),
                black_no: number(black.start_no),
                black: black.name.clone(),
                code: display_code(&code),
                qr: qr_svg(&url),
                url,
                black_code: display_code(&black_code),
                black_qr: qr_svg(&black_url),
                black_url,
            })
        })
        .collect();
    let self_report = section.self_report != crate::vocab::SelfReport::Off;
    Ok(Page(
        StatusCode::OK,
        SlipsPrint {
            tr: ctx.tr(),
            section,
            tournament_name: tournament.name,
            number: n,
            slips,
            self_report,
            ctx,
        },
    )
    .into_response())
}
