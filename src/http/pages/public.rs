//! Public pages (no login): tournament home, and per section the entrant list, pairings,
//! standings and crosstable, each with a print view (`…/print`, A4). They read the same
//! services as the API and never show contact data (the services are called without an actor).

use super::{HtmlPage, PageCtx, PageError};
use crate::http::extract::PagePath;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::rounds::RoundView;
use crate::service::sections::Section;
use crate::service::tournaments::Tournament;
use arbiter_core::model::ResultCode;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use std::collections::HashMap;
use uuid::Uuid;

/// Shows points and tiebreak numbers without trailing zeros (2, 1.5, 12.25).
pub fn format_number(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A tiebreak value as text: a number, or a sequence (PREV, CUT_EARLY) separated by spaces.
fn format_value(value: Option<&Value>) -> String {
    match value {
        Some(Value::Number(n)) => n.as_f64().map(format_number).unwrap_or_default(),
        Some(Value::Array(list)) => list
            .iter()
            .map(|v| format_value(Some(v)))
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

fn date_range(t: &Tournament) -> String {
    match (t.starts_on, t.ends_on) {
        (Some(a), Some(b)) if a != b => format!("{a} – {b}"),
        (Some(a), _) => a.to_string(),
        (None, Some(b)) => b.to_string(),
        (None, None) => String::new(),
    }
}

// ---------------------------------------------------------------- tournament home

/// One section on the tournament home page.
pub struct SectionItem {
    /// Id, for links.
    pub id: String,
    /// Name.
    pub name: String,
    /// Number of rounds.
    pub rounds: i32,
    /// Catalogue key of the pairing system.
    pub system_key: String,
    /// Catalogue key of the status.
    pub status_key: String,
}

/// `GET /t/{tournament_id}`
#[derive(Template)]
#[template(path = "public/tournament.html")]
pub struct TournamentPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Id, for links.
    pub tournament_id: String,
    /// Name.
    pub name: String,
    /// Catalogue key of the game.
    pub game_key: String,
    /// Catalogue key of the status.
    pub status_key: String,
    /// Dates as text.
    pub dates: String,
    /// Venue.
    pub venue: String,
    /// Organiser.
    pub organiser: String,
    /// Time control.
    pub time_control: String,
    /// The sections.
    pub sections: Vec<SectionItem>,
}

/// `GET /t/{tournament_id}`
pub async fn show_tournament(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Response {
    let loaded = async {
        let t = service::tournaments::get(&state.db, id).await?;
        let sections = service::sections::list(&state.db, id).await?;
        Ok::<_, service::Error>((t, sections))
    }
    .await;
    let (t, sections) = match loaded {
        Ok(found) => found,
        Err(err) => return PageError::from_service(err, ctx.lang).into_response(),
    };
    let ctx = ctx.with_default_tag(&t.default_language);
    HtmlPage(
        StatusCode::OK,
        TournamentPage {
            tr: ctx.tr(),
            ctx,
            dates: date_range(&t),
            tournament_id: t.id.to_string(),
            name: t.name,
            game_key: format!("game.{}", t.game),
            status_key: format!("status.{}", t.status),
            venue: t.venue.unwrap_or_default(),
            organiser: t.organiser.unwrap_or_default(),
            time_control: t.time_control.unwrap_or_default(),
            sections: sections
                .into_iter()
                .map(|s| SectionItem {
                    id: s.id.to_string(),
                    name: s.name,
                    rounds: s.rounds,
                    system_key: format!("system.{}", s.pairing_system),
                    status_key: format!("section_status.{}", s.status),
                })
                .collect(),
        },
    )
    .into_response()
}

// ---------------------------------------------------------------- section pages

/// The heading and tabs shared by the section pages.
pub struct SectionNav {
    /// Tournament id.
    pub tournament_id: String,
    /// Tournament name.
    pub tournament_name: String,
    /// Section id.
    pub section_id: String,
    /// Section name.
    pub section_name: String,
    /// Rounds paired so far.
    pub rounds: Vec<i32>,
    /// The page shown: `entrants`, `pairings`, `standings`, `crosstable`, `bracket`.
    pub tab: &'static str,
    /// The round shown (pairings), else 0.
    pub round: i32,
    /// Rounds planned.
    pub planned_rounds: i32,
    /// The section has a prize table (the prize list is linked).
    pub prizes: bool,
    /// The section's rounds have hidden-piece set-ups (Jieqi, Banqi), linked from each round.
    pub setups: bool,
}

impl SectionNav {
    /// Whether round `n` is the one shown.
    pub fn is_round(&self, n: &i32) -> bool {
        self.tab == "pairings" && self.round == *n
    }
}

/// Loads the tournament and section of a section page (and whether it has prizes) and fixes
/// the page language to the event's default unless the visitor chose one.
async fn load_section(
    state: &AppState,
    ctx: PageCtx,
    section_id: Uuid,
) -> Result<(PageCtx, Tournament, Section, bool), PageError> {
    let lang = ctx.lang;
    let section = service::sections::get(&state.db, section_id)
        .await
        .map_err(|err| PageError::from_service(err, lang))?;
    let tournament = service::tournaments::get(&state.db, section.tournament_id)
        .await
        .map_err(|err| PageError::from_service(err, lang))?;
    let prizes = service::prizes::get(&state.db, section_id)
        .await
        .map_err(|err| PageError::from_service(err, lang))?;
    let ctx = ctx.with_default_tag(&tournament.default_language);
    Ok((ctx, tournament, section, !prizes.prizes.is_empty()))
}

fn nav(
    t: &Tournament,
    s: &Section,
    rounds: &[RoundView],
    tab: &'static str,
    round: i32,
    prizes: bool,
) -> SectionNav {
    SectionNav {
        tournament_id: t.id.to_string(),
        tournament_name: t.name.clone(),
        section_id: s.id.to_string(),
        section_name: s.name.clone(),
        rounds: rounds.iter().map(|r| r.number).collect(),
        tab,
        round,
        planned_rounds: s.rounds,
        prizes,
        setups: s.setup_mode != "none" && crate::service::setups::variant(&t.game).is_some(),
    }
}

/// Screen or print view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Screen,
    Print,
}

// ---------------------------------------------------------------- entrants

/// One line of the public entrant list.
pub struct EntrantLine {
    /// Starting number, or empty before round 1.
    pub start_no: String,
    /// Name (team name for doubles).
    pub name: String,
    /// Team members' names, for doubles.
    pub members: String,
    /// Club.
    pub club: String,
    /// Rating, or empty.
    pub rating: String,
    /// Withdrawn.
    pub withdrawn: bool,
}

/// What the entrant list shows.
pub struct EntrantsData {
    /// The lines, by starting number then registration.
    pub lines: Vec<EntrantLine>,
    /// Doubles section (show members).
    pub doubles: bool,
}

/// `GET /s/{section_id}/entrants`
#[derive(Template)]
#[template(path = "public/entrants.html")]
pub struct EntrantsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// The list.
    pub data: EntrantsData,
}

/// `GET /s/{section_id}/entrants/print`
#[derive(Template)]
#[template(path = "print/entrants.html")]
pub struct EntrantsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The list.
    pub data: EntrantsData,
}

async fn entrants(state: AppState, ctx: PageCtx, id: Uuid, view: View) -> Response {
    let (ctx, t, s, prizes) = match load_section(&state, ctx, id).await {
        Ok(found) => found,
        Err(err) => return err.into_response(),
    };
    let loaded = async {
        // No actor: public pages never show contact data, whoever looks.
        let entrants = service::entrants::list(&state.db, None, id).await?;
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((entrants, rounds))
    }
    .await;
    let (entrants, rounds) = match loaded {
        Ok(found) => found,
        Err(err) => return PageError::from_service(err, ctx.lang).into_response(),
    };
    let doubles = s.entry_type == "doubles";
    let data = EntrantsData {
        lines: entrants
            .into_iter()
            .map(|e| EntrantLine {
                start_no: e.start_no.map(|n| n.to_string()).unwrap_or_default(),
                members: if doubles {
                    e.members
                        .iter()
                        .map(|m| m.name.as_str())
                        .collect::<Vec<_>>()
                        .join(" / ")
                } else {
                    String::new()
                },
                name: e.name,
                club: e.club.unwrap_or_default(),
                rating: e.rating.map(|r| r.to_string()).unwrap_or_default(),
                withdrawn: e.status == "withdrawn",
            })
            .collect(),
        doubles,
    };
    let nav = nav(&t, &s, &rounds, "entrants", 0, prizes);
    let tr = ctx.tr();
    match view {
        View::Screen => {
            HtmlPage(StatusCode::OK, EntrantsPage { tr, ctx, nav, data }).into_response()
        }
        View::Print => {
            HtmlPage(StatusCode::OK, EntrantsPrint { tr, ctx, nav, data }).into_response()
        }
    }
}

/// `GET /s/{section_id}/entrants`
pub async fn show_entrants(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    headers: axum::http::HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        entrants(state, ctx, id, View::Screen)
    })
    .await
}

/// `GET /s/{section_id}/entrants/print`
pub async fn print_entrants(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Response {
    entrants(state, ctx, id, View::Print).await
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

/// The absolute URL of `path` for the public: under `--public-url` when it is set, else on
/// this server as the visitor reached it; the `Host` header is used only when it looks like a
/// host name, so a forged one cannot inject anything.
pub fn public_url(configured: Option<&str>, headers: &axum::http::HeaderMap, path: &str) -> String {
    if let Some(base) = configured {
        return format!("{base}{path}");
    }
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
        });
    let scheme = match headers
        .get("x-forwarded-proto")
        .and_then(|h| h.to_str().ok())
    {
        Some("https") => "https",
        _ => "http",
    };
    match host {
        Some(host) => format!("{scheme}://{host}{path}"),
        None => path.to_string(),
    }
}

/// A QR code of `text` as inline SVG.
pub fn qr_svg(text: &str) -> String {
    match qrcode::QrCode::new(text.as_bytes()) {
        Ok(code) => code
            .render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(120, 120)
            .build()
            // Inline SVG in HTML takes no XML declaration.
            .split_once("<svg")
            .map(|(_, rest)| format!("<svg{rest}"))
            .unwrap_or_default(),
        Err(_) => String::new(),
    }
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
                },
                black: b.black.as_ref().map(|black| SideLine {
                    start_no: no_text(black.start_no),
                    name: black.name.clone(),
                    fouls: b.black_fouls,
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
    }
}

/// The page context, heading and boards of round `number`, shared by the pairing page and
/// every print of a round; an error page when the section or round does not exist.
async fn load_round(
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
        .map_err(|err| PageError::from_service(err, ctx.lang).into_response())?;
    let Some(round) = rounds.iter().find(|r| r.number == number) else {
        return Err(
            PageError::from_service(service::Error::NotFound("round"), ctx.lang).into_response(),
        );
    };
    let data = pairings_data(round);
    let nav = nav(&t, &s, &rounds, "pairings", number, prizes);
    Ok((ctx, nav, data))
}

async fn pairings(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    number: i32,
    view: View,
    headers: &axum::http::HeaderMap,
) -> Response {
    let (ctx, nav, data) = match load_round(&state, ctx, id, number).await {
        Ok(found) => found,
        Err(response) => return response,
    };
    let tr = ctx.tr();
    match view {
        View::Screen => {
            let mut data = data;
            let recorded = service::records::recorded_boards(&state.db, id, number)
                .await
                .unwrap_or_default();
            for b in &mut data.boards {
                b.record = recorded.contains(&b.number);
            }
            let lines = by_name_lines(&data);
            HtmlPage(
                StatusCode::OK,
                PairingsPage {
                    tr,
                    ctx,
                    nav,
                    data,
                    lines,
                },
            )
            .into_response()
        }
        View::Print => {
            let public_url = public_url(
                state.security.public_url.as_deref(),
                headers,
                &format!("/s/{id}/pairings/{number}"),
            );
            let qr_svg = qr_svg(&public_url);
            HtmlPage(
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
    }
}

/// `GET /s/{section_id}/pairings/{n}`
pub async fn show_pairings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    headers: axum::http::HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        pairings(state, ctx, id, n, View::Screen, &headers)
    })
    .await
}

/// `GET /s/{section_id}/pairings/{n}/print`
pub async fn print_pairings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    headers: axum::http::HeaderMap,
) -> Response {
    pairings(state, ctx, id, n, View::Print, &headers).await
}

// ---------------------------------------------------------------- standings

/// One line of the standings.
pub struct StandingLine {
    /// Rank (shared ranks repeat).
    pub rank: u32,
    /// Starting number.
    pub start_no: u32,
    /// Name.
    pub name: String,
    /// Club.
    pub club: String,
    /// Points.
    pub points: String,
    /// Tiebreak values in chain order.
    pub tiebreaks: Vec<String>,
    /// Withdrawn.
    pub withdrawn: bool,
    /// `lot` or `manual` when the arbiter ordered a tie the chain left.
    pub tie_decided_by: Option<String>,
}

/// What the standings page shows.
pub struct StandingsData {
    /// Rounds evaluated.
    pub round: u32,
    /// No result missing.
    pub is_final: bool,
    /// Tiebreak keys (column heads).
    pub tiebreaks: Vec<String>,
    /// Lines in ranking order.
    pub lines: Vec<StandingLine>,
}

/// `GET /s/{section_id}/standings`
#[derive(Template)]
#[template(path = "public/standings.html")]
pub struct StandingsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// The standings.
    pub data: StandingsData,
}

/// `GET /s/{section_id}/standings/print`
#[derive(Template)]
#[template(path = "print/standings.html")]
pub struct StandingsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The standings.
    pub data: StandingsData,
}

fn standings_data(view: service::standings::StandingsView) -> StandingsData {
    let keys = view.tiebreaks.clone();
    StandingsData {
        round: view.round,
        is_final: view.is_final,
        lines: view
            .rows
            .into_iter()
            .map(|row| StandingLine {
                tie_decided_by: row.tie_decided_by.clone(),
                rank: row.rank,
                start_no: row.start_no,
                club: row.club.unwrap_or_default(),
                points: format_number(row.points),
                tiebreaks: keys
                    .iter()
                    .map(|k| format_value(row.tiebreaks.get(k)))
                    .collect(),
                withdrawn: row.status == "withdrawn",
                name: row.name,
            })
            .collect(),
        tiebreaks: keys,
    }
}

async fn standings(state: AppState, ctx: PageCtx, id: Uuid, view: View) -> Response {
    let (ctx, t, s, prizes) = match load_section(&state, ctx, id).await {
        Ok(found) => found,
        Err(err) => return err.into_response(),
    };
    let loaded = async {
        let standings = service::standings::compute(&state.db, id).await?;
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((standings, rounds))
    }
    .await;
    let (standings, rounds) = match loaded {
        Ok(found) => found,
        Err(err) => return PageError::from_service(err, ctx.lang).into_response(),
    };
    let data = standings_data(standings);
    let nav = nav(&t, &s, &rounds, "standings", 0, prizes);
    let tr = ctx.tr();
    match view {
        View::Screen => {
            HtmlPage(StatusCode::OK, StandingsPage { tr, ctx, nav, data }).into_response()
        }
        View::Print => {
            HtmlPage(StatusCode::OK, StandingsPrint { tr, ctx, nav, data }).into_response()
        }
    }
}

/// `GET /s/{section_id}/standings`
pub async fn show_standings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    headers: axum::http::HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        standings(state, ctx, id, View::Screen)
    })
    .await
}

/// `GET /s/{section_id}/standings/print`
pub async fn print_standings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Response {
    standings(state, ctx, id, View::Print).await
}

// ---------------------------------------------------------------- crosstable

/// One cell of the crosstable: the opponent's line number, the colour, the outcome.
pub struct CrossCell {
    /// The opponent's line number in this table, or empty.
    pub opponent: String,
    /// Catalogue key of the colour (`colour.red_short`…), or empty.
    pub colour_key: &'static str,
    /// The outcome symbol (`1`, `½`, `0`, `+`, `−`), empty while pending.
    pub outcome: &'static str,
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

/// The symbol of a result code as printed in crosstables.
fn outcome_symbol(code: ResultCode) -> &'static str {
    match code {
        ResultCode::Win | ResultCode::UnratedWin => "1",
        ResultCode::Draw | ResultCode::UnratedDraw => "½",
        ResultCode::Loss | ResultCode::UnratedLoss => "0",
        ResultCode::ForfeitWin => "+",
        ResultCode::ForfeitLoss => "−",
        _ => "",
    }
}

fn crosstable_data(
    standings: &service::standings::StandingsView,
    rounds: &[RoundView],
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
                        let (red_code, black_code) =
                            service::state::result_codes(b.result.as_deref());
                        if b.red.entrant_id == me {
                            return match &b.black {
                                Some(black) => CrossCell {
                                    opponent: opponent_line(black.entrant_id),
                                    colour_key: "colour.red_short",
                                    outcome: outcome_symbol(red_code),
                                    absence_key: String::new(),
                                    game: Some((round.number, b.number)),
                                    record: false,
                                },
                                None => CrossCell {
                                    opponent: String::new(),
                                    colour_key: "",
                                    outcome: "",
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
                                outcome: outcome_symbol(black_code),
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
                        outcome: "",
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
    }
}

async fn crosstable(state: AppState, ctx: PageCtx, id: Uuid, view: View) -> Response {
    let (ctx, t, s, prizes) = match load_section(&state, ctx, id).await {
        Ok(found) => found,
        Err(err) => return err.into_response(),
    };
    let loaded = async {
        let standings = service::standings::compute(&state.db, id).await?;
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((standings, rounds))
    }
    .await;
    let (standings, rounds) = match loaded {
        Ok(found) => found,
        Err(err) => return PageError::from_service(err, ctx.lang).into_response(),
    };
    let mut data = crosstable_data(&standings, &rounds);
    let nav = nav(&t, &s, &rounds, "crosstable", 0, prizes);
    let tr = ctx.tr();
    match view {
        View::Screen => {
            let recorded = service::records::recorded_of_section(&state.db, id)
                .await
                .unwrap_or_default();
            for cell in data.lines.iter_mut().flat_map(|l| l.cells.iter_mut()) {
                cell.record = cell.game.is_some_and(|g| recorded.contains(&g));
            }
            HtmlPage(StatusCode::OK, CrosstablePage { tr, ctx, nav, data }).into_response()
        }
        View::Print => {
            HtmlPage(StatusCode::OK, CrosstablePrint { tr, ctx, nav, data }).into_response()
        }
    }
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
) -> Response {
    crosstable(state, ctx, id, View::Print).await
}

// ---------------------------------------------------------------- bracket

/// One side of a knockout match as shown.
pub struct MatchSideLine {
    /// Seed.
    pub seed: String,
    /// Name (empty until known).
    pub name: String,
    /// Outcome symbol per game, in game order.
    pub games: Vec<&'static str>,
    /// Game points of the regular games.
    pub points: u32,
    /// Won the match.
    pub winner: bool,
}

/// One knockout match as shown.
pub struct MatchLine {
    /// Higher seed, then lower seed.
    pub sides: Vec<MatchSideLine>,
    /// The 3rd-place match.
    pub third_place: bool,
    /// Catalogue key of how it was decided when not by the regular games, else empty.
    pub decided_key: String,
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

fn round_title(tr: Tr, round: i32, rounds: i32) -> String {
    match rounds - round {
        0 => tr.t("bracket.final").to_string(),
        1 => tr.t("bracket.semi").to_string(),
        2 => tr.t("bracket.quarter").to_string(),
        left => tr.fmt("bracket.round_of", 1u64 << (left + 1).clamp(0, 20)),
    }
}

fn match_side(
    side: Option<&service::knockout::MatchSide>,
    m: &service::knockout::MatchView,
    points: u32,
) -> MatchSideLine {
    let Some(side) = side else {
        return MatchSideLine {
            seed: String::new(),
            name: String::new(),
            games: Vec::new(),
            points,
            winner: false,
        };
    };
    let games = m
        .games
        .iter()
        .map(|g| {
            // The service's result mapping, read from this side's colour in each game.
            let (red, black) = service::state::result_codes(g.result.as_deref());
            if g.red == side.entrant_id {
                outcome_symbol(red)
            } else {
                outcome_symbol(black)
            }
        })
        .collect();
    MatchSideLine {
        seed: side.seed.to_string(),
        name: side.name.clone(),
        games,
        points,
        winner: m.winner == Some(side.entrant_id),
    }
}

fn bracket_data(tr: Tr, view: Option<service::knockout::BracketView>) -> BracketData {
    let Some(view) = view else {
        return BracketData {
            rounds: Vec::new(),
            best_of: 0,
            champion: String::new(),
        };
    };
    let last = view.matches.iter().map(|m| m.round).max().unwrap_or(0);
    let mut rounds: Vec<BracketRound> = Vec::new();
    let mut champion = String::new();
    for m in &view.matches {
        let line = MatchLine {
            sides: vec![
                match_side(m.high.as_ref(), m, m.score.high_points),
                match_side(m.low.as_ref(), m, m.score.low_points),
            ],
            third_place: m.third_place,
            decided_key: m
                .decided_by
                .as_deref()
                .filter(|d| *d != "regular")
                .map(|d| format!("bracket.decided_by.{d}"))
                .unwrap_or_default(),
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
    BracketData {
        rounds,
        best_of: view.best_of,
        champion,
    }
}

async fn bracket(state: AppState, ctx: PageCtx, id: Uuid, view: View) -> Response {
    let (ctx, t, s, prizes) = match load_section(&state, ctx, id).await {
        Ok(found) => found,
        Err(err) => return err.into_response(),
    };
    let loaded = async {
        // A section without a knockout stage shows an empty bracket, not an error.
        let bracket = match service::knockout::get(&state.db, None, id).await {
            Ok(b) => Some(b),
            Err(service::Error::NotFound(_)) => None,
            Err(err) => return Err(err),
        };
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((bracket, rounds))
    }
    .await;
    let (bracket, rounds) = match loaded {
        Ok(found) => found,
        Err(err) => return PageError::from_service(err, ctx.lang).into_response(),
    };
    let tr = ctx.tr();
    let data = bracket_data(tr, bracket);
    let nav = nav(&t, &s, &rounds, "bracket", 0, prizes);
    match view {
        View::Screen => {
            HtmlPage(StatusCode::OK, BracketPage { tr, ctx, nav, data }).into_response()
        }
        View::Print => {
            HtmlPage(StatusCode::OK, BracketPrint { tr, ctx, nav, data }).into_response()
        }
    }
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
) -> Response {
    bracket(state, ctx, id, View::Print).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_show_without_trailing_zeros() {
        assert_eq!(format_number(2.0), "2");
        assert_eq!(format_number(1.5), "1.5");
        assert_eq!(format_number(12.25), "12.25");
        assert_eq!(format_number(0.0), "0");
        assert_eq!(format_value(Some(&serde_json::json!([1.0, 2.5]))), "1 2.5");
    }
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
                });
                lines.push(ByNameLine {
                    name: black.name.clone(),
                    start_no: black.start_no.clone(),
                    board: b.number.to_string(),
                    side_key: "col.black".into(),
                    opponent: label(&b.red),
                });
            }
            None => lines.push(ByNameLine {
                name: b.red.name.clone(),
                start_no: b.red.start_no.clone(),
                board: b.number.to_string(),
                side_key: "absence.pairing".into(),
                opponent: String::new(),
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
    slips: bool,
) -> Response {
    let (ctx, nav, data) = match load_round(&state, ctx, id, number).await {
        Ok(found) => found,
        Err(response) => return response,
    };
    let tr = ctx.tr();
    if slips {
        HtmlPage(StatusCode::OK, SlipsPrint { tr, ctx, nav, data }).into_response()
    } else {
        let lines = by_name_lines(&data);
        HtmlPage(
            StatusCode::OK,
            ByNamePrint {
                tr,
                ctx,
                nav,
                number,
                lines,
            },
        )
        .into_response()
    }
}

/// `GET /s/{section_id}/pairings/{n}/by-name/print`
pub async fn print_pairings_by_name(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Response {
    round_print(state, ctx, id, n, false).await
}

/// `GET /s/{section_id}/slips/{n}/print`
pub async fn print_slips(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Response {
    round_print(state, ctx, id, n, true).await
}

// ---------------------------------------------------------------- prize list

/// One line of the printed prize list: names and awards only, never contact data.
pub struct PrizeLine {
    /// The place (or range of places, before the final ranking) the prize is for, or empty.
    pub place: String,
    /// Catalogue key of the category (`prize.female`…), or empty for a place prize.
    pub category_key: String,
    /// What is awarded.
    pub award: String,
    /// The winner, empty while unknown or when nobody is eligible.
    pub name: String,
    /// The winner's final place, or empty.
    pub final_place: String,
}

/// `GET /s/{section_id}/prizes/print`: the prize list after the final ranking (Swiss and
/// knockout); before it, the prize table without winners.
#[derive(Template)]
#[template(path = "print/prizes.html")]
pub struct PrizesPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The prizes in table order, one line per place.
    pub lines: Vec<PrizeLine>,
    /// The final ranking is known (the winners are shown).
    pub is_final: bool,
}

fn category_key(category: Option<&str>) -> String {
    category.map(|c| format!("prize.{c}")).unwrap_or_default()
}

/// `GET /s/{section_id}/prizes/print`
pub async fn print_prizes(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Response {
    let (ctx, t, s, prizes) = match load_section(&state, ctx, id).await {
        Ok(found) => found,
        Err(err) => return err.into_response(),
    };
    let tr = ctx.tr();
    let loaded = async {
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        // Who wins what is the prize service's rule; until the final ranking is known it
        // refuses (409) and the sheet shows the table alone.
        let lines = match service::prizes::awarded(&state.db, id).await {
            Ok(awards) => Some(
                awards
                    .into_iter()
                    .map(|a| PrizeLine {
                        place: a
                            .place
                            .map(|p| tr.fmt("prize.place", p))
                            .unwrap_or_default(),
                        category_key: category_key(a.category.as_deref()),
                        award: a.award,
                        name: a.name.unwrap_or_default(),
                        final_place: a.final_place.map(|p| p.to_string()).unwrap_or_default(),
                    })
                    .collect::<Vec<_>>(),
            ),
            Err(service::Error::Conflict(_)) => None,
            Err(err) => return Err(err),
        };
        let table = service::prizes::get(&state.db, id).await?;
        Ok::<_, service::Error>((rounds, lines, table))
    }
    .await;
    let (rounds, lines, table) = match loaded {
        Ok(found) => found,
        Err(err) => return PageError::from_service(err, ctx.lang).into_response(),
    };
    let is_final = lines.is_some();
    let lines = lines.unwrap_or_else(|| {
        table
            .prizes
            .into_iter()
            .map(|p| PrizeLine {
                place: match (p.place_from, p.place_to) {
                    (Some(a), Some(b)) if a != b => tr.fmt("prize.place", format!("{a}–{b}")),
                    (Some(a), _) => tr.fmt("prize.place", a),
                    _ => String::new(),
                },
                category_key: category_key(p.category.as_deref()),
                award: p.award,
                name: String::new(),
                final_place: String::new(),
            })
            .collect()
    });
    let nav = nav(&t, &s, &rounds, "prizes", 0, prizes);
    HtmlPage(
        StatusCode::OK,
        PrizesPrint {
            tr,
            ctx,
            nav,
            lines,
            is_final,
        },
    )
    .into_response()
}

// ---------------------------------------------------------------- revealed set-ups

/// `GET /s/{section_id}/setups/{n}`: a round's hidden-piece set-ups as the public may see them.
#[derive(Template)]
#[template(path = "public/setups.html")]
pub struct SetupsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Section heading and tabs.
    pub nav: SectionNav,
    /// Round number.
    pub number: i32,
    /// Whether the round is complete and its set-ups revealed.
    pub revealed: bool,
    /// Each set-up with its diagram once revealed.
    pub setups: Vec<(
        service::setups::SetupView,
        Option<super::setups_admin::Diagram>,
    )>,
}

/// `GET /s/{section_id}/setups/{n}`
pub async fn show_setups(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Response {
    let (ctx, nav, _) = match load_round(&state, ctx, id, n).await {
        Ok(found) => found,
        Err(response) => return response,
    };
    // No actor, even for a logged-in arbiter: this page may be on the wall, and the set-up
    // is secret until the round is complete.
    let setups = match service::setups::of_round(&state.db, None, id, n).await {
        Ok(setups) => setups,
        Err(err) => return PageError::from_service(err, ctx.lang).into_response(),
    };
    let revealed = setups.revealed;
    let setups = setups
        .setups
        .into_iter()
        .map(|view| {
            let diagram = view.setup.as_deref().and_then(super::setups_admin::diagram);
            (view, diagram)
        })
        .collect();
    HtmlPage(
        StatusCode::OK,
        SetupsPage {
            tr: ctx.tr(),
            ctx,
            nav,
            number: n,
            revealed,
            setups,
        },
    )
    .into_response()
}
