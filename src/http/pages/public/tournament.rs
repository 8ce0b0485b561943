//! `GET /t/{id}`: the tournament's public home page.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::date_range;
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
    Router::new().route("/t/{tournament_id}", get(show_tournament))
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
    /// Rounds are being played: the section's link opens on its `/now` page.
    pub running: bool,
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
    /// The grand final between section champions exists (linked).
    pub playoff: bool,
    /// The registration form's QR code (inline SVG) while registration is open.
    pub register_qr: Option<String>,
}

/// `GET /t/{tournament_id}`
pub async fn show_tournament(
    State(state): State<AppState>,
    ctx: PageCtx,
    headers: axum::http::HeaderMap,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let loaded = async {
        let t = service::tournaments::get(&state.db, id).await?;
        let sections = service::sections::list(&state.db, id).await?;
        let playoff = service::knockout::has_playoff(&state.db, id).await?;
        Ok::<_, service::Error>((t, sections, playoff))
    }
    .await;
    let (t, sections, playoff) = loaded.or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&t.default_language);
    // A phone at the poster opens the form (the address as the server is reached).
    let register_qr = (t.status == crate::vocab::TournamentStatus::Registration).then(|| {
        crate::http::pages::shared::qr_svg(&crate::http::public_url(
            state.security.public_url.as_deref(),
            &headers,
            &format!("/t/{id}/register"),
        ))
    });
    Ok(Page(
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
                    running: s.status == crate::vocab::SectionStatus::Running,
                })
                .collect(),
            playoff,
            register_qr,
        },
    )
    .into_response())
}
