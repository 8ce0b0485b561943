//! The public pages of a team section (issue #41): a round's matches with their boards (the
//! pairings tab of a team section), the team standings (its standings tab), the board
//! rankings for board prizes, and the printed match slips (one slip per match, every board).

use crate::http::error::{OrPage, PageError};
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::{format_number, load_section, nav_of, SectionNav, View};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::team_matches::{BoardRanking, MatchView, TeamStandingsView};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of these pages.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/s/{section_id}/board-rankings", get(show_board_rankings))
        .route(
            "/s/{section_id}/match-slips/{n}/print",
            get(print_match_slips),
        )
}

// ---------------------------------------------------------------- matches

/// One board of a match, seen from the team with Red on board 1 (the left team).
#[derive(Debug, Clone)]
pub struct GameLine {
    /// Board of the match (1 = top board).
    pub number: i32,
    /// The left team's player (empty: an empty seat).
    pub left: String,
    /// Catalogue key of the left player's colour (`col.red`, `col.black`).
    pub left_colour: &'static str,
    /// The right team's player.
    pub right: String,
    /// Catalogue key of the result (`result.red_wins`…, by colour), empty while pending.
    pub result_key: String,
    /// The left player's report code as printed (match slips for the staff; else empty).
    pub left_code: String,
    /// The right player's report code.
    pub right_code: String,
    /// The left player's report address as a QR code (SVG), with the codes.
    pub left_qr: String,
    /// The right player's.
    pub right_qr: String,
}

/// One match as shown.
#[derive(Debug, Clone)]
pub struct MatchLine {
    /// Match number in the round.
    pub number: i32,
    /// Starting number of the team with Red on board 1.
    pub left_no: String,
    /// Its name.
    pub left: String,
    /// The other team's starting number.
    pub right_no: String,
    /// Its name; `None` for a bye.
    pub right: Option<String>,
    /// Board points, `2½ : 1½`, empty while no board has a result.
    pub score: String,
    /// Match points `2 : 0` once every board has its result, else empty.
    pub match_points: String,
    /// The boards.
    pub games: Vec<GameLine>,
}

fn no_text(n: Option<i32>) -> String {
    n.map(|n| n.to_string()).unwrap_or_default()
}

/// The matches of a round as shown.
pub fn match_lines(matches: &[MatchView]) -> Vec<MatchLine> {
    matches
        .iter()
        .map(|m| {
            let games: Vec<GameLine> = m
                .games
                .iter()
                .map(|g| {
                    let left_red = g.red_team_id == m.red.id;
                    let name = |p: &Option<service::team_matches::GamePlayer>| {
                        p.as_ref().map(|p| p.name.clone()).unwrap_or_default()
                    };
                    let (left, right) = if left_red {
                        (name(&g.red), name(&g.black))
                    } else {
                        (name(&g.black), name(&g.red))
                    };
                    GameLine {
                        number: g.number,
                        left,
                        left_colour: if left_red { "col.red" } else { "col.black" },
                        right,
                        result_key: g
                            .result
                            .as_ref()
                            .map(|r| format!("result.{r}"))
                            .unwrap_or_default(),
                        left_code: String::new(),
                        right_code: String::new(),
                        left_qr: String::new(),
                        right_qr: String::new(),
                    }
                })
                .collect();
            let any = games.iter().any(|g| !g.result_key.is_empty());
            let black = m.black.as_ref();
            let score = match black {
                Some(b) if any => format!(
                    "{} : {}",
                    format_number(m.red.board_points),
                    format_number(b.board_points)
                ),
                None => format_number(m.red.board_points),
                _ => String::new(),
            };
            let match_points = match (m.red.match_points, black.and_then(|b| b.match_points)) {
                (Some(r), Some(b)) => format!("{} : {}", format_number(r), format_number(b)),
                (Some(r), None) if black.is_none() => format_number(r),
                _ => String::new(),
            };
            MatchLine {
                number: m.number,
                left_no: no_text(m.red.start_no),
                left: m.red.name.clone(),
                right_no: black.map(|b| no_text(b.start_no)).unwrap_or_default(),
                right: black.map(|b| b.name.clone()),
                score,
                match_points,
                games,
            }
        })
        .collect()
}

/// `GET /s/{section_id}/pairings/{n}` of a team section.
#[derive(Template)]
#[template(path = "public/team_pairings.html")]
pub struct TeamPairingsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// Round number.
    pub number: i32,
    /// Catalogue key of the round status.
    pub status_key: String,
    /// The matches.
    pub matches: Vec<MatchLine>,
}

/// `GET /s/{section_id}/pairings/{n}/print` of a team section.
#[derive(Template)]
#[template(path = "print/team_pairings.html")]
pub struct TeamPairingsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// Round number.
    pub number: i32,
    /// Catalogue key of the round status.
    pub status_key: String,
    /// The matches.
    pub matches: Vec<MatchLine>,
}

/// `GET /s/{section_id}/match-slips/{n}/print`: one slip per match, every board on it.
#[derive(Template)]
#[template(path = "print/match_slips.html")]
pub struct MatchSlipsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// Round number.
    pub number: i32,
    /// The matches (byes get no slip).
    pub matches: Vec<MatchLine>,
    /// Each board's side-bound report codes are on the slips (the staff's print of a
    /// section that takes self-reports).
    pub codes: bool,
    /// The report page's address before the code (`https://…/r/`).
    pub report_base: String,
}

/// The pairings of round `number` of a team section (its matches), on screen or printed.
pub async fn round_page(
    state: &AppState,
    ctx: PageCtx,
    nav: SectionNav,
    id: Uuid,
    number: i32,
    status_key: String,
    view: View,
) -> Result<Response, PageError> {
    let matches = service::team_matches::round_matches(&state.db, ctx.actor.as_ref(), id, number)
        .await
        .or_page(&ctx)?;
    let tr = ctx.tr();
    let matches = match_lines(&matches);
    Ok(match view {
        View::Screen => Page(
            StatusCode::OK,
            TeamPairingsPage {
                tr,
                ctx,
                nav,
                number,
                status_key,
                matches,
            },
        )
        .into_response(),
        View::Print => Page(
            StatusCode::OK,
            TeamPairingsPrint {
                tr,
                ctx,
                nav,
                number,
                status_key,
                matches,
            },
        )
        .into_response(),
    })
}

/// `GET /s/{section_id}/match-slips/{n}/print`
pub async fn print_match_slips(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let rounds = service::rounds::visible_numbers(&state.db, ctx.actor.as_ref(), id)
        .await
        .or_page(&ctx)?;
    let nav = nav_of(&t, &s, rounds, "pairings", n, prizes);
    let matches = service::team_matches::round_matches(&state.db, ctx.actor.as_ref(), id, n)
        .await
        .or_page(&ctx)?;
    let codes = service::reports::team_codes(&state.db, ctx.actor.as_ref(), id, n)
        .await
        .or_page(&ctx)?;
    let mut lines = match_lines(&matches);
    for line in &mut lines {
        for g in &mut line.games {
            let Some(c) = codes
                .iter()
                .flatten()
                .find(|c| c.match_no == line.number && c.board == g.number)
            else {
                continue;
            };
            // Each side's code printed and as a QR code of its report page (a phone opens
            // the board as that side), as on the individual boards' report slips.
            let side = |code: &str| {
                let url = crate::http::public_url(
                    state.security.public_url.as_deref(),
                    &headers,
                    &format!("/r/{code}"),
                );
                (
                    service::reports::display_code(code),
                    crate::http::pages::shared::qr_svg(&url),
                )
            };
            let (red, black) = (side(&c.red), side(&c.black));
            let (left, right) = if g.left_colour == "col.red" {
                (red, black)
            } else {
                (black, red)
            };
            (g.left_code, g.left_qr) = left;
            (g.right_code, g.right_qr) = right;
        }
    }
    let tr = ctx.tr();
    let page = MatchSlipsPrint {
        tr,
        ctx,
        nav,
        number: n,
        matches: lines,
        codes: codes.is_some(),
        report_base: crate::http::public_url(state.security.public_url.as_deref(), &headers, "/r/"),
    };
    let mut response = Page(StatusCode::OK, page).into_response();
    if codes.is_some() {
        // The codes let their holders report: kept by no cache, sent to no other site.
        let h = response.headers_mut();
        h.insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("no-store"),
        );
        h.insert(
            axum::http::header::REFERRER_POLICY,
            axum::http::HeaderValue::from_static("no-referrer"),
        );
    }
    Ok(response)
}

// ---------------------------------------------------------------- standings

/// A column of the team chain.
pub struct KeyHead {
    /// FIDE's name (`BH:MP`).
    pub short: String,
    /// What it is, in the visitor's language.
    pub title: String,
}

/// The heads of the team chain's columns.
pub fn key_heads(tr: Tr, keys: &[String]) -> Vec<KeyHead> {
    keys.iter()
        .map(|k| {
            let slug = k.to_lowercase().replace(':', "_");
            let key = format!("team_tb.{slug}");
            let title = tr.t(&key);
            // A short name in the visitor's language (FIDE's code in English).
            let short = tr.t(&format!("team_tb_short.{slug}"));
            KeyHead {
                short: if short == "?" {
                    k.clone()
                } else {
                    short.to_string()
                },
                title: if title == key {
                    tr.t("tiebreak.help").to_string()
                } else {
                    title.to_string()
                },
            }
        })
        .collect()
}

/// One team's line.
pub struct TeamLine {
    /// Rank.
    pub rank: u32,
    /// Starting number.
    pub start_no: String,
    /// Name.
    pub name: String,
    /// Club.
    pub club: String,
    /// Match points.
    pub match_points: String,
    /// Board points.
    pub board_points: String,
    /// The chain's values.
    pub values: Vec<String>,
}

/// `GET /s/{section_id}/standings` of a team section.
#[derive(Template)]
#[template(path = "public/team_standings.html")]
pub struct TeamStandingsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// The chain's heads.
    pub heads: Vec<KeyHead>,
    /// Teams in ranking order.
    pub lines: Vec<TeamLine>,
    /// Rounds with every result in.
    pub rounds_completed: i32,
}

/// `GET /s/{section_id}/standings/print` of a team section.
#[derive(Template)]
#[template(path = "print/team_standings.html")]
pub struct TeamStandingsPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The chain's heads.
    pub heads: Vec<KeyHead>,
    /// Teams in ranking order.
    pub lines: Vec<TeamLine>,
    /// Rounds with every result in.
    pub rounds_completed: i32,
}

fn team_lines(view: &TeamStandingsView) -> Vec<TeamLine> {
    view.rows
        .iter()
        .map(|r| TeamLine {
            rank: r.rank,
            start_no: no_text(r.start_no),
            name: r.name.clone(),
            club: r.club.clone().unwrap_or_default(),
            match_points: format_number(r.match_points),
            board_points: format_number(r.board_points),
            values: r.tiebreaks.iter().map(|v| format_number(*v)).collect(),
        })
        .collect()
}

/// The standings page of a team section.
pub async fn standings_page(
    state: &AppState,
    ctx: PageCtx,
    nav: SectionNav,
    id: Uuid,
    view: View,
) -> Result<Response, PageError> {
    let standings = service::team_matches::standings(&state.db, id)
        .await
        .or_page(&ctx)?;
    let tr = ctx.tr();
    let heads = key_heads(tr, &standings.keys);
    let lines = team_lines(&standings);
    let rounds_completed = standings.rounds_completed;
    Ok(match view {
        View::Screen => Page(
            StatusCode::OK,
            TeamStandingsPage {
                tr,
                ctx,
                nav,
                heads,
                lines,
                rounds_completed,
            },
        )
        .into_response(),
        View::Print => Page(
            StatusCode::OK,
            TeamStandingsPrint {
                tr,
                ctx,
                nav,
                heads,
                lines,
                rounds_completed,
            },
        )
        .into_response(),
    })
}

// ---------------------------------------------------------------- board rankings

/// `GET /s/{section_id}/board-rankings`
#[derive(Template)]
#[template(path = "public/board_rankings.html")]
pub struct BoardRankingsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// Fewest games to qualify.
    pub min_games: u32,
    /// One ranking per board.
    pub boards: Vec<BoardRanking>,
}

impl BoardRankingsPage {
    /// A number as shown.
    pub fn num(&self, value: &f64) -> String {
        format_number(*value)
    }
}

async fn board_rankings(state: AppState, ctx: PageCtx, id: Uuid) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let loaded = async {
        let rankings = service::team_matches::board_rankings(&state.db, id, None).await?;
        let rounds = service::rounds::visible_numbers(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((rankings, rounds))
    }
    .await;
    let (rankings, rounds) = loaded.or_page(&ctx)?;
    let nav = nav_of(&t, &s, rounds, "board_rankings", 0, prizes);
    let page = BoardRankingsPage {
        tr: ctx.tr(),
        ctx,
        nav,
        min_games: rankings.min_games,
        boards: rankings.boards,
    };
    Ok(Page(StatusCode::OK, page).into_response())
}

/// `GET /s/{section_id}/board-rankings` (live, as the standings).
pub async fn show_board_rankings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    headers: axum::http::HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        board_rankings(state, ctx, id)
    })
    .await
}
