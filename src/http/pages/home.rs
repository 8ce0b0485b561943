//! The home page: every tournament, with an empty-state message.

use super::{HtmlPage, Language, PageError};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// One row of the list.
pub struct TournamentItem {
    /// Id, for the link.
    pub id: String,
    /// Name.
    pub name: String,
    /// Catalogue key of the game name.
    pub game_key: String,
    /// Catalogue key of the status.
    pub status_key: String,
    /// First day (ISO), or empty.
    pub date: String,
    /// Venue, or empty.
    pub venue: String,
}

/// The home page view.
#[derive(Template)]
#[template(path = "pages/home.html")]
pub struct HomePage {
    /// Translations.
    pub tr: Tr,
    /// The tournaments.
    pub tournaments: Vec<TournamentItem>,
}

/// `GET /`
pub async fn show_home(State(state): State<AppState>, Language(lang): Language) -> Response {
    let tournaments = match service::tournaments::list_summaries(&state.db).await {
        Ok(list) => list,
        Err(err) => return PageError::from_service(err, lang).into_response(),
    };
    let tournaments = tournaments
        .into_iter()
        .map(|t| TournamentItem {
            id: t.tournament_id.to_string(),
            name: t.name,
            game_key: format!("game.{}", t.game),
            status_key: format!("status.{}", t.status),
            date: t.starts_on.map(|d| d.to_string()).unwrap_or_default(),
            venue: t.venue.unwrap_or_default(),
        })
        .collect();
    HtmlPage(
        StatusCode::OK,
        HomePage {
            tr: Tr { lang },
            tournaments,
        },
    )
    .into_response()
}
