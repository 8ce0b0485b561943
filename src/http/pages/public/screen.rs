//! The big screen (issue #16): `/s/{section_id}/screen` and `/t/{tournament_id}/screen` for a
//! projector or TV. No interaction: the page shows one slide — the round's pairings by name
//! (in pages), its latest results, the standings — and moves to the next by itself
//! (`?slide=N`, `static/js/app.js` follows `data-next`). Type scales with the screen's height,
//! so 1080p and 4K show the same slide; the round clock counts from the arbiter's start.

use crate::http::error::{OrPage, PageError};
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::i18n::Tr;
use crate::service;
use crate::service::screen::SectionScreen;
use crate::vocab::RoundStatus;
use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use uuid::Uuid;

mod slide;
mod teams;
use slide::{clock_text, countdown_text};

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/s/{section_id}/screen", get(show_section_screen))
        .route("/t/{tournament_id}/screen", get(show_tournament_screen))
}

/// Names on one pairing slide: two columns of twenty.
pub const NAMES_PER_SLIDE: usize = 40;
/// Rows on the results and standings slides.
const ROWS_PER_SLIDE: usize = 20;
/// Seconds a slide stays.
const SECONDS: u32 = 15;

/// One entrant's line of the pairings by name.
#[derive(Debug, Clone)]
pub struct NameLine {
    /// Name.
    pub name: String,
    /// Starting number.
    pub start_no: String,
    /// Board, empty when not on a board.
    pub board: String,
    /// Catalogue key of the side or the absence.
    pub side_key: String,
    /// The opponent's name.
    pub opponent: String,
}

/// One result line.
#[derive(Debug, Clone)]
pub struct ResultLine {
    /// Board.
    pub board: i32,
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// Catalogue key of the result.
    pub result_key: String,
}

/// One standings line.
#[derive(Debug, Clone)]
pub struct RankLine {
    /// Rank.
    pub rank: u32,
    /// Name.
    pub name: String,
    /// Points as shown.
    pub points: String,
}

/// What a slide shows.
#[derive(Debug, Clone)]
pub enum Body {
    /// The end of the event: champion, runner-up and third place(s).
    Podium(Vec<RankLine>),
    /// Pairings by name.
    Pairings(Vec<NameLine>),
    /// The latest results.
    Results(Vec<ResultLine>),
    /// The standings' top.
    Standings(Vec<RankLine>),
    /// The knockout bracket, round by round (issue #40).
    Bracket(Vec<KoRoundLine>),
    /// The knockout matches in play: their next game and score.
    InPlay(Vec<KoMatchLine>),
    /// A team section's matches with their boards (issue #41).
    Matches(Vec<crate::http::pages::public::team_pages::MatchLine>),
    /// A team section's standings.
    TeamStandings(Vec<teams::TeamRankLine>),
}

/// One knockout match on the screen.
#[derive(Debug, Clone)]
pub struct KoMatchLine {
    /// Higher seed (seed and name), empty until known.
    pub high: String,
    /// Lower seed.
    pub low: String,
    /// The score (`1–1 · tiebreak 1–0`).
    pub score: String,
    /// The game due, in words (in play), or the winner's name (decided).
    pub note: String,
    /// Decided.
    pub decided: bool,
}

/// One knockout round on the screen.
#[derive(Debug, Clone)]
pub struct KoRoundLine {
    /// Its heading.
    pub title: String,
    /// Its matches.
    pub matches: Vec<KoMatchLine>,
}

/// One slide.
#[derive(Debug, Clone)]
pub struct Slide {
    /// Section name.
    pub section_name: String,
    /// Catalogue key of the heading.
    pub heading_key: &'static str,
    /// The round shown (0 for none).
    pub round: i32,
    /// Page of this kind (1-based) and how many.
    pub page: usize,
    /// Pages of this kind.
    pub pages: usize,
    /// The content.
    pub body: Body,
    /// The round clock's start (RFC 3339), when running.
    pub clock: Option<String>,
    /// The clock's reading when rendered (`H:MM:SS`): the time left when the round has a
    /// set length, else the time since the start.
    pub clock_text: String,
    /// The end of the round (RFC 3339) when the arbiter set its length: the clock counts
    /// down to it.
    pub clock_ends: Option<String>,
    /// The countdown to the next round's planned start: round, start (RFC 3339), the time
    /// left when rendered (`H:MM:SS`).
    pub countdown: Option<(i32, String, String)>,
}

/// The pairings by name of the round in play (unsorted), or nothing between rounds.
pub fn name_lines(screen: &SectionScreen) -> Vec<NameLine> {
    let Some(round) = screen
        .round
        .as_ref()
        .filter(|r| r.status == RoundStatus::Published)
    else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    let no = |n: Option<i32>| n.map(|n| n.to_string()).unwrap_or_default();
    for b in &round.boards {
        match &b.black {
            Some(black) => {
                lines.push(NameLine {
                    name: b.red.name.clone(),
                    start_no: no(b.red.start_no),
                    board: b.number.to_string(),
                    side_key: "col.red".into(),
                    opponent: black.name.clone(),
                });
                lines.push(NameLine {
                    name: black.name.clone(),
                    start_no: no(black.start_no),
                    board: b.number.to_string(),
                    side_key: "col.black".into(),
                    opponent: b.red.name.clone(),
                });
            }
            None => lines.push(NameLine {
                name: b.red.name.clone(),
                start_no: no(b.red.start_no),
                board: String::new(),
                side_key: "absence.pairing".into(),
                opponent: String::new(),
            }),
        }
    }
    for a in &round.absences {
        lines.push(NameLine {
            name: a.name.clone(),
            start_no: no(a.start_no),
            board: String::new(),
            side_key: format!("absence.{}", a.kind),
            opponent: String::new(),
        });
    }
    lines
}

/// Every slide of one section, in order; `lines` are its pairings by name, already in the
/// readers' order.
pub fn slides(screen: &SectionScreen, lines: Vec<NameLine>) -> Vec<Slide> {
    slides_sized(
        Tr {
            lang: crate::i18n::Lang::En,
        },
        screen,
        lines,
        false,
    )
}

/// The knockout's slides while it is played: the bracket, then the matches in play.
fn knockout_slides(tr: Tr, screen: &SectionScreen) -> Vec<(&'static str, Body)> {
    use crate::http::pages::shared::knockout::{next_game, round_title};
    use crate::http::pages::shared::MatchScoreText;
    let Some(b) = screen.bracket.as_ref().filter(|b| b.champion.is_none()) else {
        return Vec::new();
    };
    let rounds = b.stages.len() as i32;
    let line = |m: &service::knockout::MatchView| {
        let side = |s: &Option<service::knockout::MatchSide>| {
            s.as_ref()
                .map(|s| format!("({}) {}", s.seed, s.name))
                .unwrap_or_else(|| tr.t("bracket.tbd").to_string())
        };
        let winner = [&m.high, &m.low]
            .into_iter()
            .flatten()
            .find(|s| Some(s.entrant_id) == m.winner)
            .map(|s| s.name.clone());
        KoMatchLine {
            high: side(&m.high),
            low: side(&m.low),
            score: MatchScoreText::of(tr, m).line(),
            note: match winner {
                Some(w) => w,
                None => next_game(tr, m).map(|(g, _)| g).unwrap_or_default(),
            },
            decided: m.winner.is_some(),
        }
    };
    let mut by_round: Vec<KoRoundLine> = Vec::new();
    for m in &b.matches {
        let title = if m.third_place {
            tr.t("bracket.third").to_string()
        } else {
            round_title(tr, m.round, rounds)
        };
        match by_round.iter_mut().find(|r| r.title == title) {
            Some(r) => r.matches.push(line(m)),
            None => by_round.push(KoRoundLine {
                title,
                matches: vec![line(m)],
            }),
        }
    }
    let in_play: Vec<KoMatchLine> = b
        .matches
        .iter()
        .filter(|m| m.winner.is_none() && m.next_game.is_some())
        .map(line)
        .collect();
    let mut out = vec![("screen.bracket", Body::Bracket(by_round))];
    if !in_play.is_empty() {
        out.push(("screen.ko_in_play", Body::InPlay(in_play)));
    }
    out
}

/// [`slides`] for normal type, or for the large type of a hall read from far away (`large`:
/// half the lines on a slide, each twice as tall).
pub fn slides_sized(
    tr: Tr,
    screen: &SectionScreen,
    lines: Vec<NameLine>,
    large: bool,
) -> Vec<Slide> {
    let (names_per_slide, rows_per_slide) = if large {
        (NAMES_PER_SLIDE / 2, ROWS_PER_SLIDE / 2)
    } else {
        (NAMES_PER_SLIDE, ROWS_PER_SLIDE)
    };
    let name = screen.section.name.clone();
    let number = screen.round.as_ref().map_or(0, |r| r.number);
    let in_play = screen
        .round
        .as_ref()
        .is_some_and(|r| r.status == RoundStatus::Published);
    let clock = screen.started_at.filter(|_| in_play);
    let ends = clock.and_then(|t| {
        screen
            .clock_minutes
            .map(|m| t + chrono::Duration::minutes(i64::from(m)))
    });
    let clock_reading = match (clock, ends) {
        (_, Some(end)) => countdown_text(end),
        (Some(start), None) => clock_text(start),
        (None, None) => String::new(),
    };
    let clock = clock.map(|t| t.to_rfc3339());
    let clock_ends = ends.map(|t| t.to_rfc3339());
    let slide = |heading_key, page, pages, body| Slide {
        section_name: name.clone(),
        heading_key,
        round: number,
        page,
        pages,
        body,
        clock: clock.clone(),
        clock_text: clock_reading.clone(),
        clock_ends: clock_ends.clone(),
        countdown: screen
            .next_start
            .map(|(n, at)| (n, at.to_rfc3339(), countdown_text(at))),
    };
    let mut out = Vec::new();
    // During the knockout its bracket and matches in play come first (issue #40).
    for (heading, body) in knockout_slides(tr, screen) {
        let mut ko = slide(heading, 1, 1, body);
        ko.round = 0;
        out.push(ko);
    }
    // At the end of the event the podium comes first (issue #39 item 9).
    if !screen.podium.is_empty() {
        let places = screen
            .podium
            .iter()
            .map(|(place, name)| RankLine {
                rank: *place,
                name: name.clone(),
                points: String::new(),
            })
            .collect();
        let mut podium = slide("screen.podium", 1, 1, Body::Podium(places));
        podium.round = 0;
        out.push(podium);
    }
    if let Some(team) = &screen.team {
        out.extend(teams::slides(screen, team, rows_per_slide, &slide));
        return out;
    }
    if let Some(round) = screen.round.as_ref().filter(|_| in_play) {
        let pages = lines.len().div_ceil(names_per_slide);
        for (i, chunk) in lines.chunks(names_per_slide).enumerate() {
            out.push(slide(
                "screen.pairings",
                i + 1,
                pages,
                Body::Pairings(chunk.to_vec()),
            ));
        }
        let results: Vec<ResultLine> = screen
            .latest
            .iter()
            .filter_map(|n| round.boards.iter().find(|b| b.number == *n))
            .filter_map(|b| {
                Some(ResultLine {
                    board: b.number,
                    red: b.red.name.clone(),
                    black: b.black.as_ref()?.name.clone(),
                    result_key: format!("result.{}", b.result.as_ref()?),
                })
            })
            .take(rows_per_slide)
            .collect();
        if !results.is_empty() {
            out.push(slide("screen.results", 1, 1, Body::Results(results)));
        }
    }
    let ranks: Vec<RankLine> = screen
        .standings
        .rows
        .iter()
        .take(rows_per_slide)
        .map(|r| RankLine {
            rank: r.rank,
            name: r.name.clone(),
            points: crate::http::pages::shared::format_number(r.points),
        })
        .collect();
    // Mid-round the ranking counts the round in play's results so far (and its bye): its
    // heading says so, as every page does (issue #39, item 5).
    let mut standings = slide(
        if screen.standings.is_final {
            "screen.standings"
        } else {
            "screen.standings_provisional"
        },
        1,
        1,
        Body::Standings(ranks),
    );
    standings.round = i32::try_from(screen.standings.round).unwrap_or(number);
    out.push(standings);
    out
}

/// The slides of a section with the names in the order readers of `ctx`'s language expect.
async fn section_slides(
    state: &AppState,
    ctx: &PageCtx,
    screen: &SectionScreen,
    large: bool,
) -> Result<Vec<Slide>, PageError> {
    let lines = name_lines(screen);
    let names: Vec<String> = lines.iter().map(|l| l.name.clone()).collect();
    let order = service::players::name_order(&state.db, ctx.tr().tag(), &names)
        .await
        .or_page(ctx)?;
    let mut slots: Vec<Option<NameLine>> = lines.into_iter().map(Some).collect();
    let sorted = order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect();
    Ok(slides_sized(ctx.tr(), screen, sorted, large))
}

/// The screen page.
#[derive(Template)]
#[template(path = "public/screen.html")]
pub struct ScreenPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Tournament name.
    pub tournament_name: String,
    /// The slide shown.
    pub slide: Slide,
    /// Its index (0-based) and the number of slides.
    pub index: usize,
    /// Slides in all.
    pub count: usize,
    /// The next slide's address.
    pub next: String,
    /// Seconds before it.
    pub seconds: u32,
    /// Large type for a hall (`?large=1`).
    pub large: bool,
}

/// `?slide=N`
#[derive(Debug, Default, Deserialize)]
pub struct SlideQuery {
    /// The slide to show (wraps around).
    pub slide: Option<usize>,
    /// `1`: large type, half the lines on a slide (a hall's TV read from far away).
    pub large: Option<u8>,
}

fn render(
    ctx: PageCtx,
    tournament_name: String,
    mut slides: Vec<Slide>,
    (asked, large): (usize, bool),
    path: &str,
) -> Response {
    if slides.is_empty() {
        return PageError::from_service(service::Error::NotFound(m::NOT_FOUND_SECTION), ctx.lang)
            .into_response();
    }
    let count = slides.len();
    let index = asked % count;
    let slide = slides.swap_remove(index);
    let next = format!(
        "{path}?slide={}{}",
        (index + 1) % count,
        if large { "&large=1" } else { "" }
    );
    Page(
        StatusCode::OK,
        ScreenPage {
            tr: ctx.tr(),
            ctx,
            tournament_name,
            slide,
            index,
            count,
            next,
            seconds: SECONDS,
            large,
        },
    )
    .into_response()
}

/// `GET /s/{section_id}/screen`
pub async fn show_section_screen(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    Query(query): Query<SlideQuery>,
) -> Result<Response, PageError> {
    let screen = service::screen::section(&state.db, id)
        .await
        .or_page(&ctx)?;
    let tournament = service::tournaments::get(&state.db, screen.section.tournament_id)
        .await
        .or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&tournament.default_language);
    let large = query.large == Some(1);
    let slides = section_slides(&state, &ctx, &screen, large).await?;
    Ok(render(
        ctx,
        tournament.name,
        slides,
        (query.slide.unwrap_or(0), large),
        &format!("/s/{id}/screen"),
    ))
}

/// `GET /t/{tournament_id}/screen`: every section's slides, one section after the other.
pub async fn show_tournament_screen(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    Query(query): Query<SlideQuery>,
) -> Result<Response, PageError> {
    let tournament = service::tournaments::get(&state.db, id)
        .await
        .or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&tournament.default_language);
    let large = query.large == Some(1);
    let mut all = Vec::new();
    for section in service::sections::list(&state.db, id).await.or_page(&ctx)? {
        let screen = service::screen::section(&state.db, section.id)
            .await
            .or_page(&ctx)?;
        all.extend(section_slides(&state, &ctx, &screen, large).await?);
    }
    Ok(render(
        ctx,
        tournament.name,
        all,
        (query.slide.unwrap_or(0), large),
        &format!("/t/{id}/screen"),
    ))
}
