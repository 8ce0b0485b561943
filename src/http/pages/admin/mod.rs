//! The arbiter's dashboard below `/admin`: every page needs a sign-in (visitors are sent to
//! `/login`) and the tournament's access (scorers may look; the services refuse them changes);
//! every form goes through `AppForm` (the CSRF check). Handlers read forms, call one service and
//! render: the rules live in `service::*`.

pub mod audit;
pub mod backup;
pub mod byes;
pub mod checkin;
pub mod confirm;
pub mod dashboard;
pub mod desk;
pub mod desk_flash;
pub mod entrant_edit;
pub mod entrants;
pub mod event;
pub mod event_file;
pub mod form;
pub mod imports;
pub mod keys;
pub mod knockout;
pub mod knockout_setups;
pub mod notifications;
pub mod numbering;
pub mod pairing_report;
pub mod playoff;
pub mod playoff_prizes;
pub mod prizes;
pub mod records;
pub mod registrations;
pub mod repair;
pub mod repair_words;
pub mod reports;
pub mod results;
pub mod rounds;
pub mod schedule;
pub mod section;
pub mod section_forms;
pub mod settings;
pub mod settings_rules;
pub mod setups;
pub mod staff;
pub mod stages;
pub mod standings;
pub mod tabs;
pub mod team_desk;
pub mod team_lineups;
pub mod team_results;
pub mod ties;
pub mod tournaments;

use crate::http::AppState;
use axum::Router;

/// The routes of these pages.
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(section::router())
        .merge(standings::router())
        .merge(dashboard::router())
        .merge(tournaments::router())
        .merge(event::router())
        .merge(audit::router())
        .merge(entrants::router())
        .merge(entrant_edit::router())
        .merge(registrations::router())
        .merge(rounds::router())
        .merge(pairing_report::router())
        .merge(results::router())
        .merge(reports::router())
        .merge(keys::router())
        .merge(numbering::router())
        .merge(team_desk::router())
        .merge(team_lineups::router())
        .merge(team_results::router())
        .merge(records::router())
        .merge(knockout::router())
        .merge(knockout_setups::router())
        .merge(ties::router())
        .merge(imports::router())
        .merge(event_file::router())
        .merge(backup::router())
        .merge(setups::router())
        .merge(desk::router())
        .merge(prizes::router())
        .merge(settings::router())
        .merge(schedule::router())
        .merge(stages::router())
        .merge(notifications::router())
        .merge(byes::router())
        .merge(confirm::router())
        .merge(checkin::router())
        .merge(repair::router())
        .merge(playoff::router())
        .merge(playoff_prizes::router())
        .merge(staff::router())
}
