//! The public pages: no sign-in; what they show is what the services give a visitor (no
//! contact data, no unpublished round, no unrevealed set-up).

pub mod bracket;
pub mod calendar;
pub mod crosstable;
pub mod entrants;
pub mod games;
pub mod home;
pub mod key;
pub mod ko_setups;
pub mod live;
pub mod pairings;
pub mod player;
pub mod playoff;
pub mod prizes;
pub mod register;
pub mod registered;
pub mod report;
pub mod screen;
pub mod setups;
pub mod standings;
pub mod team_crosstable;
pub mod team_pages;
pub mod team_ranking;
pub mod team_register;
pub mod tournament;
pub mod unsubscribe;

use crate::http::AppState;
use axum::Router;

/// The routes of these pages.
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(home::router())
        .merge(tournament::router())
        .merge(register::router())
        .merge(team_register::router())
        .merge(report::router())
        .merge(key::router())
        .merge(calendar::router())
        .merge(unsubscribe::router())
        .merge(screen::router())
        .merge(entrants::router())
        .merge(pairings::router())
        .merge(player::router())
        .merge(games::router())
        .merge(standings::router())
        .merge(team_ranking::router())
        .merge(team_pages::router())
        .merge(crosstable::router())
        .merge(bracket::router())
        .merge(ko_setups::router())
        .merge(playoff::router())
        .merge(prizes::router())
        .merge(setups::router())
}
