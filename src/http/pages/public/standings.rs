//! The public standings of a section, on screen and printed.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::standings::{standings_data, StandingsData};
use crate::http::pages::shared::{load_section, nav_of, SectionNav, View};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
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
        .route("/s/{section_id}/standings", get(show_standings))
        .route("/s/{section_id}/standings/print", get(print_standings))
        .route("/s/{section_id}/standings.csv", get(standings_csv))
}

/// `GET /s/{section_id}/standings.csv[?headers=machine]`: the standings for a spreadsheet, a
/// download named after the event: UTF-8 with a byte-order mark (Excel on Windows reads a
/// file without one in the system's code page), column heads in the page's language
/// (`?headers=machine`: the API's `rank,start_no,…` and the tiebreaks' keys).
pub async fn standings_csv(
    State(state): State<AppState>,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let machine = uri
        .query()
        .is_some_and(|q| q.split('&').any(|p| p == "headers=machine"));
    let localised = move |heads: &[String]| -> Vec<String> {
        let fixed = service::interchange::STANDINGS_CSV_HEADS.len();
        let mut out: Vec<String> = [
            "col.rank",
            "col.start_no",
            "col.name",
            "col.club",
            "col.points",
        ]
        .iter()
        .map(|key| tr.t(key).to_string())
        .collect();
        let keys = heads.get(fixed..).unwrap_or_default();
        out.extend(
            crate::http::pages::shared::tiebreaks::heads(tr, keys)
                .into_iter()
                .map(|h| h.name),
        );
        out
    };
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        let tournament = service::tournaments::get(&state.db, section.tournament_id).await?;
        let text = if machine {
            service::interchange::standings_csv_with(&state.db, id, &|h| h.to_vec(), true).await?
        } else {
            service::interchange::standings_csv_with(&state.db, id, &localised, true).await?
        };
        service::Result::Ok((
            format!(
                "{}-{}-{}",
                tournament.name,
                section.name,
                tr.t("section.standings")
            ),
            text,
        ))
    }
    .await;
    let (name, text) = loaded.or_page(&ctx)?;
    Ok((
        [
            (
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("text/csv; charset=utf-8"),
            ),
            crate::http::download::attachment(&name, "csv"),
        ],
        text,
    )
        .into_response())
}

// ---------------------------------------------------------------- standings

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

/// The standings page; `tab` is the section tab marked current (`standings`, or `now` when
/// `/s/{id}/now` shows it).
pub(super) async fn standings(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    view: View,
    tab: &'static str,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    if s.entry_type == crate::vocab::EntryType::Team {
        let rounds = service::rounds::visible_numbers(&state.db, ctx.actor.as_ref(), id)
            .await
            .or_page(&ctx)?;
        let nav = nav_of(&t, &s, rounds, tab, 0, prizes);
        return super::team_pages::standings_page(&state, ctx, nav, id, view).await;
    }
    let loaded = async {
        let standings = service::standings::compute(&state.db, id).await?;
        let rounds = service::rounds::visible_numbers(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((standings, rounds))
    }
    .await;
    let (standings, rounds) = loaded.or_page(&ctx)?;
    let data = standings_data(ctx.tr(), id, standings);
    let nav = nav_of(&t, &s, rounds, tab, 0, prizes);
    let tr = ctx.tr();
    Ok(match view {
        View::Screen => Page(StatusCode::OK, StandingsPage { tr, ctx, nav, data }).into_response(),
        View::Print => Page(StatusCode::OK, StandingsPrint { tr, ctx, nav, data }).into_response(),
    })
}

/// `GET /s/{section_id}/standings`
pub async fn show_standings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    headers: axum::http::HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        standings(state, ctx, id, View::Screen, "standings")
    })
    .await
}

/// `GET /s/{section_id}/standings/print`
pub async fn print_standings(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    standings(state, ctx, id, View::Print, "standings").await
}
