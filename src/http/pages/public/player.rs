//! The players' pages (issue #16): one entrant's page, the find-me box's answer, and
//! `/s/{id}/now`, the one address that shows what matters at the moment (the round being
//! played, else the standings, else the entrants).

use crate::http::error::{OrPage, PageError};
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::{
    format_number, format_value, load_section, nav, outcome_points, SectionNav, View,
};
use crate::http::session::see_other;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::players::{Now, PlayerRound, PlayerView, MAX_QUERY};
use arbiter_core::model::Side;
use askama::Template;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of these pages.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/s/{section_id}/p/{start_no}", get(show_player))
        .route("/s/{section_id}/find", get(find))
        .route("/s/{section_id}/now", get(show_now))
}

// ---------------------------------------------------------------- the player page

/// One round of the entrant as shown.
pub struct RoundLine {
    /// Round number.
    pub number: i32,
    /// Board number, or empty.
    pub board: String,
    /// Catalogue key of the colour (`col.red`, `col.black`), or empty.
    pub colour_key: &'static str,
    /// Opponent's starting number (for the link), or empty.
    pub opponent_no: String,
    /// Opponent's name, or empty.
    pub opponent: String,
    /// Catalogue key of a bye or absence (`absence.pairing`…), or empty.
    pub absence_key: String,
    /// The points the game gave in the section's scoring (`2`, `1`, `0`; `+`/`−` for a
    /// forfeit), empty while pending.
    pub outcome: String,
    /// Points after this round.
    pub running: String,
    /// The round is still a draft (staff only).
    pub draft: bool,
    /// The game has a record (its board page is linked).
    pub record: bool,
    /// The round's planned start as shown (event time), or empty.
    pub starts: String,
}

pub(crate) fn round_line(
    r: &PlayerRound,
    scoring: &crate::service::sections::ScoringView,
) -> RoundLine {
    RoundLine {
        number: r.number,
        board: r.board.map(|b| b.to_string()).unwrap_or_default(),
        colour_key: match r.colour {
            Some(Side::Red) => "col.red",
            Some(Side::Black) => "col.black",
            None => "",
        },
        opponent_no: r
            .opponent
            .as_ref()
            .and_then(|o| o.start_no)
            .map(|n| n.to_string())
            .unwrap_or_default(),
        opponent: r
            .opponent
            .as_ref()
            .map(|o| o.name.clone())
            .unwrap_or_default(),
        absence_key: r
            .absence
            .map(|a| format!("absence.{a}"))
            .unwrap_or_default(),
        // In the section's scoring, as the running points beside it (one notation).
        outcome: if r.absence.is_some() && r.absence != Some("pairing") {
            String::new()
        } else {
            outcome_points(r.result, scoring)
        },
        running: format_number(r.running_tenths as f64 / 10.0),
        draft: r.status == crate::vocab::RoundStatus::Paired,
        record: false,
        starts: String::new(),
    }
}

/// One tiebreak of the entrant.
pub struct TiebreakLine {
    /// Its name in the page language, or empty.
    pub name: String,
    /// The key as the standings show it.
    pub key: String,
    /// Its value.
    pub value: String,
}

/// `GET /s/{section_id}/p/{start_no}`
#[derive(Template)]
#[template(path = "public/player.html")]
pub struct PlayerPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// Starting number.
    pub start_no: i32,
    /// Name.
    pub name: String,
    /// Club, or empty.
    pub club: String,
    /// A team's players, joined, or empty.
    pub members: String,
    /// Withdrawn.
    pub withdrawn: bool,
    /// The round being played, if any.
    pub current: Option<RoundLine>,
    /// Every round, oldest first.
    pub rounds: Vec<RoundLine>,
    /// Rank, or empty.
    pub rank: String,
    /// The rank is provisional (a result of the rounds it evaluates is missing).
    pub rank_provisional: bool,
    /// Points, or empty.
    pub points: String,
    /// Tiebreaks in chain order.
    pub tiebreaks: Vec<TiebreakLine>,
    /// The next planned round not yet shown, as a sentence ("Round 3 starts …").
    pub next: Option<String>,
    /// The section calendar's `webcal:` address, when the section has a schedule.
    pub webcal: Option<String>,
}

/// The first planned round after the last one shown: its number and start as shown.
pub(crate) fn next_planned(
    schedule: Option<&service::schedule::ScheduleView>,
    last_shown: i32,
) -> Option<(i32, String)> {
    let p = schedule?.planned.iter().find(|p| p.round > last_shown)?;
    Some((p.round, p.local.replacen('T', " ", 1)))
}

async fn player(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    start_no: i32,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let loaded = async {
        let view = service::players::get(&state.db, ctx.actor.as_ref(), id, start_no).await?;
        let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((view, rounds))
    }
    .await;
    let (view, rounds): (PlayerView, _) = loaded.or_page(&ctx)?;
    let nav = nav(&t, &s, &rounds, "player", 0, prizes);
    let recorded = service::records::recorded_of_section(&state.db, s.id)
        .await
        .unwrap_or_default();
    let schedule = service::schedule::get(&state.db, id).await.ok();
    let last_shown = rounds.iter().map(|r| r.number).max().unwrap_or(0);
    let next = next_planned(schedule.as_ref(), last_shown)
        .map(|(n, at)| ctx.tr().fmt_n("round.next_starts", &[&n, &at]));
    let line = |r: &PlayerRound| {
        let mut line = round_line(r, &s.scoring);
        line.starts = schedule
            .as_ref()
            .and_then(|s| s.shown(r.number))
            .unwrap_or_default();
        line.record = r
            .board
            .is_some_and(|b| r.opponent.is_some() && recorded.contains(&(r.number, b)));
        line
    };
    let page = PlayerPage {
        tr: ctx.tr(),
        nav,
        start_no: view.start_no,
        current: view.current().map(line),
        rounds: view.rounds.iter().map(line).collect(),
        rank: view.rank.map(|r| r.to_string()).unwrap_or_default(),
        rank_provisional: !view.standings_final,
        points: view.points.map(format_number).unwrap_or_default(),
        tiebreaks: view
            .tiebreaks
            .iter()
            .map(|(key, value)| TiebreakLine {
                name: crate::http::pages::shared::tiebreaks::full_name(ctx.tr(), key),
                key: key.clone(),
                value: format_value(Some(value)),
            })
            .collect(),
        club: view.club.clone().unwrap_or_default(),
        members: view.members.join(" / "),
        withdrawn: view.withdrawn,
        name: view.name,
        next,
        webcal: schedule
            .as_ref()
            .filter(|s| !s.planned.is_empty())
            .map(|_| super::calendar::webcal(&state, &format!("/s/{id}/calendar.ics"))),
        ctx,
    };
    Ok(Page(StatusCode::OK, page).into_response())
}

/// `GET /s/{section_id}/p/{start_no}`
pub async fn show_player(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath((id, start_no)): PagePath<(Uuid, i32)>,
    headers: HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        player(state, ctx, id, start_no)
    })
    .await
}

// ---------------------------------------------------------------- find me

/// One entrant found.
pub struct FoundLine {
    /// Starting number.
    pub start_no: i32,
    /// Name.
    pub name: String,
    /// Club, or empty.
    pub club: String,
}

/// `GET /s/{section_id}/find?q=…` when it finds no one, several entrants, or the query is
/// refused.
#[derive(Template)]
#[template(path = "public/find.html")]
pub struct FindPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading, tabs and the find-me box (with the query in it).
    pub nav: SectionNav,
    /// The query was refused (too long): the message is shown instead of results.
    pub too_long: bool,
    /// The entrants found.
    pub found: Vec<FoundLine>,
}

#[derive(serde::Deserialize, Default)]
struct FindQuery {
    q: Option<String>,
}

/// `GET /s/{section_id}/find?q=…`: one match goes straight to the player page (303); none or
/// several give a list with the box again; an overlong query a 422 page.
pub async fn find(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    uri: Uri,
) -> Result<Response, PageError> {
    let query: FindQuery =
        serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let q = query.q.unwrap_or_default();
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id)
        .await
        .or_page(&ctx)?;
    let mut nav = nav(&t, &s, &rounds, "find", 0, prizes);
    let (status, too_long, found) = if q.trim().chars().count() > MAX_QUERY {
        nav.query = q.chars().take(MAX_QUERY).collect();
        (StatusCode::UNPROCESSABLE_ENTITY, true, Vec::new())
    } else {
        let found = service::players::find(&state.db, id, &q)
            .await
            .or_page(&ctx)?;
        if let [one] = found.as_slice() {
            return Ok(see_other(&format!("/s/{id}/p/{}", one.start_no)));
        }
        nav.query = q.trim().to_string();
        (StatusCode::OK, false, found)
    };
    let page = FindPage {
        tr: ctx.tr(),
        ctx,
        nav,
        too_long,
        found: found
            .into_iter()
            .map(|f| FoundLine {
                start_no: f.start_no,
                name: f.name,
                club: f.club.unwrap_or_default(),
            })
            .collect(),
    };
    Ok(Page(status, page).into_response())
}

// ---------------------------------------------------------------- now

async fn now(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    headers: &HeaderMap,
) -> Result<Response, PageError> {
    let rounds = service::rounds::list_visible(&state.db, ctx.actor.as_ref(), id)
        .await
        .or_page(&ctx)?;
    match service::players::now(&rounds) {
        Now::Round(n) => {
            super::pairings::pairings(state, ctx, id, n, View::Screen, headers, "now").await
        }
        Now::Standings => super::standings::standings(state, ctx, id, View::Screen, "now").await,
        Now::Entrants => super::entrants::entrants(state, ctx, id, View::Screen, "now").await,
    }
}

/// `GET /s/{section_id}/now`: the round being played, else the standings, else the entrants.
pub async fn show_now(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    headers: HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        now(state, ctx, id, &headers)
    })
    .await
}
