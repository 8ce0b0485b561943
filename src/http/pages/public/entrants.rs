//! The public entrant list of a section, on screen and printed.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::{load_section, nav_of, SectionNav, View};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::vocab::{EntrantStatus, EntryType};
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
        .route("/s/{section_id}/entrants", get(show_entrants))
        .route("/s/{section_id}/entrants/print", get(print_entrants))
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

/// The entrants page; `tab` is the section tab marked current (`entrants`, or `now` when
/// `/s/{id}/now` shows it).
pub(super) async fn entrants(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    view: View,
    tab: &'static str,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let loaded = async {
        // No actor: public pages never show contact data, whoever looks.
        let entrants = service::entrants::list(&state.db, None, id).await?;
        let rounds = service::rounds::visible_numbers(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((entrants, rounds))
    }
    .await;
    let (entrants, rounds) = loaded.or_page(&ctx)?;
    let doubles = s.entry_type == EntryType::Doubles;
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
                withdrawn: e.status == EntrantStatus::Withdrawn,
            })
            .collect(),
        doubles,
    };
    let nav = nav_of(&t, &s, rounds, tab, 0, prizes);
    let tr = ctx.tr();
    Ok(match view {
        View::Screen => Page(StatusCode::OK, EntrantsPage { tr, ctx, nav, data }).into_response(),
        View::Print => Page(StatusCode::OK, EntrantsPrint { tr, ctx, nav, data }).into_response(),
    })
}

/// `GET /s/{section_id}/entrants`
pub async fn show_entrants(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    headers: axum::http::HeaderMap,
) -> Response {
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        entrants(state, ctx, id, View::Screen, "entrants")
    })
    .await
}

/// `GET /s/{section_id}/entrants/print`
pub async fn print_entrants(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    entrants(state, ctx, id, View::Print, "entrants").await
}
