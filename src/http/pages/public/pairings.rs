//! A round's public pairings on screen and printed (by board, by name) and the result slips.

use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::{format_number, load_section, nav, qr_svg, SectionNav, View};
use crate::http::public_url;
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::i18n::Tr;
use crate::service;
use crate::service::rounds::RoundView;
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
        .route("/s/{section_id}/pairings/{n}", get(show_pairings))
        .route("/s/{section_id}/pairings/{n}/print", get(print_pairings))
        .route(
            "/s/{section_id}/pairings/{n}/by-name/print",
            get(print_pairings_by_name),
        )
        .route("/s/{section_id}/slips/{n}/print", get(print_slips))
}

// ---------------------------------------------------------------- pairings

/// One side of a board as shown.
pub struct SideLine {
    /// Starting number.
    pub start_no: String,
    /// Name.
    pub name: String,
    /// Fouls in this game (0 hides the mark).
    pub fouls: i64,
    /// Points before the round.
    pub points: String,
}

/// One board as shown.
pub struct BoardLine {
    /// Board number.
    pub number: i32,
    /// Red.
    pub red: SideLine,
    /// Black, or `None` for the pairing-allocated bye.
    pub black: Option<SideLine>,
    /// Catalogue key of the result (`result.red_wins`…), empty while pending.
    pub result_key: String,
    /// The game has a record (linked to its board page on screen).
    pub record: bool,
}

/// An entrant not on a board.
pub struct AbsenceLine {
    /// Starting number.
    pub start_no: String,
    /// Name.
    pub name: String,
    /// Catalogue key of the kind (`absence.half`…).
    pub kind_key: String,
}

/// What the pairing page shows.
pub struct PairingsData {
    /// Round number.
    pub number: i32,
    /// Catalogue key of the round status.
    pub status_key: String,
    /// Boards.
    pub boards: Vec<BoardLine>,
    /// Absences.
    pub absences: Vec<AbsenceLine>,
    /// The round's planned start as shown (event time), if planned.
    pub starts: Option<String>,
}

/// `GET /s/{section_id}/pairings/{n}`
#[derive(Template)]
#[template(path = "public/pairings.html")]
pub struct PairingsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// The round.
    pub data: PairingsData,
    /// The same boards by player name, so a player finds their board fast on a phone.
    pub lines: Vec<ByNameLine>,
    /// The section calendar's `webcal:` address (or its path, made `webcal:` by the script).
    pub webcal: String,
}

/// `GET /s/{section_id}/pairings/{n}/print`
#[derive(Template)]
#[template(path = "print/pairings.html")]
pub struct PairingsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The round.
    pub data: PairingsData,
    /// The public page of this round, printed under the QR code.
    pub public_url: String,
    /// An SVG QR code of `public_url` (our own markup: only rectangles, no text).
    pub qr_svg: String,
}

fn no_text(start_no: Option<i32>) -> String {
    start_no.map(|n| n.to_string()).unwrap_or_default()
}

fn pairings_data(round: &RoundView) -> PairingsData {
    PairingsData {
        number: round.number,
        status_key: format!("round_status.{}", round.status),
        boards: round
            .boards
            .iter()
            .map(|b| BoardLine {
                number: b.number,
                red: SideLine {
                    start_no: no_text(b.red.start_no),
                    name: b.red.name.clone(),
                    fouls: b.red_fouls,
                    points: format_number(b.red.points),
                },
                black: b.black.as_ref().map(|black| SideLine {
                    start_no: no_text(black.start_no),
                    name: black.name.clone(),
                    fouls: b.black_fouls,
                    points: format_number(black.points),
                }),
                result_key: b
                    .result
                    .as_ref()
                    .map(|r| format!("result.{r}"))
                    .unwrap_or_default(),
                record: false,
            })
            .collect(),
        absences: round
            .absences
            .iter()
            .map(|a| AbsenceLine {
                start_no: no_text(a.start_no),
                name: a.name.clone(),
                kind_key: format!("absence.{}", a.kind),
            })
            .collect(),
        starts: None,
    }
}

/// The page context, heading and boards of round `number`, shared by the pairing page and
/// every print of a round; an error page when the section or round does not exist.
pub async fn load_round(
    state: &AppState,
    ctx: PageCtx,
    id: Uuid,
    number: i32,
) -> Result<(PageCtx, SectionNav, PairingsData), Response> {
    let (ctx, t, s, prizes) = load_section(state, ctx, id)
        .await
        .map_err(IntoResponse::into_response)?;
    let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id)
        .await
        .map_err(|err| PageError::from_ctx(err, &ctx).into_response())?;
    let Some(round) = rounds.iter().find(|r| r.number == number) else {
        return Err(PageError::from_service(
            service::Error::NotFound(m::NOT_FOUND_ROUND),
            ctx.lang,
        )
        .into_response());
    };
    let mut data = pairings_data(round);
    data.starts = service::schedule::get(&state.db, id)
        .await
        .ok()
        .and_then(|s| s.shown(number));
    let nav = nav(&t, &s, &rounds, "pairings", number, prizes);
    Ok((ctx, nav, data))
}

/// The pairings of round `number`; `tab` is the section tab marked current on screen
/// (`pairings`, or `now` when `/s/{id}/now` shows the round being played).
pub(super) async fn pairings(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    number: i32,
    view: View,
    headers: &axum::http::HeaderMap,
    tab: &'static str,
) -> Result<Response, PageError> {
    let (ctx, mut nav, data) = match load_round(&state, ctx, id, number).await {
        Ok(found) => found,
        Err(response) => return Ok(response),
    };
    nav.tab = tab;
    if nav.team {
        let status = data.status_key;
        return super::team_pages::round_page(&state, ctx, nav, id, number, status, view).await;
    }
    let tr = ctx.tr();
    Ok(match view {
        View::Screen => {
            let mut data = data;
            let recorded = service::records::recorded_boards(&state.db, id, number)
                .await
                .unwrap_or_default();
            for b in &mut data.boards {
                b.record = recorded.contains(&b.number);
            }
            let lines = by_name_sorted(&state, ctx.lang, by_name_lines(&data)).await;
            Page(
                StatusCode::OK,
                PairingsPage {
                    tr,
                    ctx,
                    nav,
                    data,
                    lines,
                    webcal: super::calendar::webcal(&state, &format!("/s/{id}/calendar.ics")),
                },
            )
            .into_response()
        }
        View::Print => {
            let public_url = public_url(
                state.security.public_url.as_deref(),
                headers,
                &format!("/s/{id}/now"),
            );
            let qr_svg = qr_svg(&public_url);
            Page(
                StatusCode::OK,
                PairingsPrint {
                    tr,
                    ctx,
                    nav,
                    data,
                    public_url,
                    qr_svg,
                },
            )
            .into_response()
        }
    })
}

/// `GET /s/{section_id}/pairings/{n}`
pub async fn show_pairings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    headers: axum::http::HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        pairings(state, ctx, id, n, View::Screen, &headers, "pairings")
    })
    .await
}

/// `GET /s/{section_id}/pairings/{n}/print`
pub async fn print_pairings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    headers: axum::http::HeaderMap,
) -> Result<Response, PageError> {
    pairings(state, ctx, id, n, View::Print, &headers, "pairings").await
}

// ---------------------------------------------------------------- by name, result slips

/// One entrant's line of the pairing list by name.
pub struct ByNameLine {
    /// Name.
    pub name: String,
    /// Starting number.
    pub start_no: String,
    /// Board number, empty when not on a board.
    pub board: String,
    /// Catalogue key of the side (`col.red`, `col.black`) or of the absence.
    pub side_key: String,
    /// Opponent's name and number, empty for a bye or an absence.
    pub opponent: String,
    /// Opponent's starting number (for the link), empty for a bye or an absence.
    pub opponent_no: String,
}

/// `GET /s/{section_id}/pairings/{n}/by-name/print`: players find their board fast.
#[derive(Template)]
#[template(path = "print/by_name.html")]
pub struct ByNamePrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// Round number.
    pub number: i32,
    /// Lines sorted by name.
    pub lines: Vec<ByNameLine>,
    /// The section's `/now` page, printed under the QR code.
    pub public_url: String,
    /// An SVG QR code of `public_url`.
    pub qr_svg: String,
}

/// `GET /s/{section_id}/slips/{n}/print`: one result slip per board.
#[derive(Template)]
#[template(path = "print/slips.html")]
pub struct SlipsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The round (boards with a game get a slip).
    pub data: PairingsData,
}

fn by_name_lines(data: &PairingsData) -> Vec<ByNameLine> {
    let label = |s: &SideLine| format!("{} ({})", s.name, s.start_no);
    let mut lines = Vec::new();
    for b in &data.boards {
        match &b.black {
            Some(black) => {
                lines.push(ByNameLine {
                    name: b.red.name.clone(),
                    start_no: b.red.start_no.clone(),
                    board: b.number.to_string(),
                    side_key: "col.red".into(),
                    opponent: label(black),
                    opponent_no: black.start_no.clone(),
                });
                lines.push(ByNameLine {
                    name: black.name.clone(),
                    start_no: black.start_no.clone(),
                    board: b.number.to_string(),
                    side_key: "col.black".into(),
                    opponent: label(&b.red),
                    opponent_no: b.red.start_no.clone(),
                });
            }
            None => lines.push(ByNameLine {
                name: b.red.name.clone(),
                start_no: b.red.start_no.clone(),
                board: b.number.to_string(),
                side_key: "absence.pairing".into(),
                opponent: String::new(),
                opponent_no: String::new(),
            }),
        }
    }
    for a in &data.absences {
        lines.push(ByNameLine {
            name: a.name.clone(),
            start_no: a.start_no.clone(),
            board: String::new(),
            side_key: a.kind_key.clone(),
            opponent: String::new(),
            opponent_no: String::new(),
        });
    }
    // Sorted by name as written (any script), then number, so the list is stable.
    lines.sort_by(|x, y| {
        x.name
            .cmp(&y.name)
            .then_with(|| x.start_no.cmp(&y.start_no))
    });
    lines
}

async fn round_print(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    number: i32,
) -> Result<Response, PageError> {
    let (ctx, nav, data) = match load_round(&state, ctx, id, number).await {
        Ok(found) => found,
        Err(response) => return Ok(response),
    };
    let tr = ctx.tr();
    Ok(Page(StatusCode::OK, SlipsPrint { tr, ctx, nav, data }).into_response())
}

/// The lines by name in the order of the visitor's language (ICU collation in the
/// database); the code-point order when the database cannot tell.
async fn by_name_sorted(
    state: &AppState,
    lang: crate::i18n::Lang,
    lines: Vec<ByNameLine>,
) -> Vec<ByNameLine> {
    let names: Vec<String> = lines.iter().map(|l| l.name.clone()).collect();
    match service::players::name_order(&state.db, lang.tag(), &names).await {
        Ok(order) if order.len() == lines.len() => {
            let mut slots: Vec<Option<ByNameLine>> = lines.into_iter().map(Some).collect();
            order.iter().filter_map(|&i| slots[i].take()).collect()
        }
        _ => lines,
    }
}

/// `GET /s/{section_id}/pairings/{n}/by-name/print`
pub async fn print_pairings_by_name(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    headers: axum::http::HeaderMap,
) -> Result<Response, PageError> {
    let (ctx, nav, data) = match load_round(&state, ctx, id, n).await {
        Ok(found) => found,
        Err(response) => return Ok(response),
    };
    let lines = by_name_sorted(&state, ctx.lang, by_name_lines(&data)).await;
    let public_url = public_url(
        state.security.public_url.as_deref(),
        &headers,
        &format!("/s/{id}/now"),
    );
    let qr_svg = qr_svg(&public_url);
    Ok(Page(
        StatusCode::OK,
        ByNamePrint {
            tr: ctx.tr(),
            ctx,
            nav,
            number: n,
            lines,
            public_url,
            qr_svg,
        },
    )
    .into_response())
}

/// `GET /s/{section_id}/slips/{n}/print`
pub async fn print_slips(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Result<Response, PageError> {
    round_print(state, ctx, id, n).await
}
