//! The JSON API under `/api/v1`, one file per resource, documented by an OpenAPI 3 document
//! generated from the handlers' annotations (`GET /api/v1/openapi.json`).

pub mod auth;
pub mod entrants;
pub mod event_file;
pub mod interchange;
pub mod keys;
pub mod knockout;
pub mod notify;
pub mod records;
pub mod registrations;
pub mod reports;
pub mod rounds;
pub mod sections;
pub mod staff;
pub mod stages;
pub mod team_crosstable;
pub mod team_sections;
pub mod teams;
pub mod tournaments;
pub mod users;

use super::error::{ApiError, ErrorBody};
use super::AppState;
use crate::i18n::messages as m;
use axum::http::{header, HeaderMap, StatusCode};
use axum::routing::{any, get};
use axum::{Json, Router};
use std::sync::Arc;
use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(OpenApi)]
#[openapi(
    info(title = "arbiter API", version = "1", description = "Swiss-system tournaments for Xiangqi, Jieqi and Banqi."),
    components(schemas(ErrorBody)),
    modifiers(&BearerAuth)
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// Documents the answers every request body can get before its handler runs: 400 (malformed
/// JSON), 413 (over the body limit), 415 (a JSON body without `Content-Type:
/// application/json`). They come from the extractors, not the handlers, so they are added here
/// once instead of in each handler's annotation, where one would be forgotten.
struct BodyRejections;

impl Modify for BodyRejections {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let error = |description: &str| {
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("ErrorBody")))
                        .build(),
                )
                .build()
        };
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ];
            for operation in operations.into_iter().flatten() {
                let Operation {
                    request_body: Some(body),
                    responses,
                    ..
                } = operation
                else {
                    continue;
                };
                let json = body.content.contains_key("application/json");
                let mut add = |status: &str, description: &str| {
                    responses
                        .responses
                        .entry(status.to_string())
                        .or_insert_with(|| error(description).into());
                };
                add("400", "The body cannot be read");
                add("413", "The body is too large");
                if json {
                    add("415", "The body is not sent as application/json");
                }
            }
        }
    }
}

/// The API routes and their OpenAPI document.
pub fn routes() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    let (router, doc) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(auth::create_session))
        .routes(routes!(auth::delete_session))
        .routes(routes!(
            tournaments::create_tournament,
            tournaments::list_tournaments
        ))
        .routes(routes!(
            tournaments::get_tournament,
            tournaments::update_tournament
        ))
        .routes(routes!(sections::create_section, sections::list_sections))
        .routes(routes!(sections::get_section, sections::update_section))
        .routes(routes!(sections::list_ties, sections::resolve_tie))
        .routes(routes!(entrants::create_entrant, entrants::list_entrants))
        .routes(routes!(entrants::edit_entrant))
        .routes(routes!(entrants::check_in_entrants))
        .routes(routes!(entrants::withdraw_entrant))
        .routes(routes!(entrants::readmit_entrant))
        .routes(routes!(
            entrants::check_in_entrant,
            entrants::check_out_entrant
        ))
        .routes(routes!(entrants::request_bye))
        .routes(routes!(entrants::list_byes))
        .routes(routes!(entrants::cancel_bye))
        .routes(routes!(
            entrants::create_forbidden_pair,
            entrants::delete_forbidden_pair,
            entrants::list_forbidden_pairs
        ))
        .routes(routes!(rounds::pair_next_round, rounds::list_rounds))
        .routes(routes!(rounds::get_round, rounds::delete_round))
        .routes(routes!(rounds::publish_round))
        .routes(routes!(rounds::start_clock))
        .routes(routes!(rounds::edit_round))
        .routes(routes!(rounds::put_result))
        .routes(routes!(rounds::get_standings))
        .routes(routes!(teams::get_team_ranking))
        .routes(routes!(
            registrations::create_registration,
            registrations::list_registrations
        ))
        .routes(routes!(registrations::confirm_registration))
        .routes(routes!(registrations::record_payment))
        .routes(routes!(registrations::withdraw_registration))
        .routes(routes!(registrations::refund_registration))
        .routes(routes!(registrations::void_payment))
        .routes(routes!(registrations::get_desk))
        .routes(routes!(registrations::cancel_section))
        .routes(routes!(registrations::split_section))
        .routes(routes!(interchange::export_trf))
        .routes(routes!(interchange::import_trf))
        .routes(routes!(interchange::import_csv))
        .routes(routes!(interchange::export_standings_csv))
        .routes(routes!(interchange::get_audit))
        .routes(routes!(knockout::create_knockout, knockout::get_knockout))
        .routes(routes!(knockout::record_match_game))
        .routes(routes!(knockout::get_stages))
        .routes(routes!(knockout::put_stage))
        .routes(routes!(knockout::get_ranking))
        .routes(routes!(stages::get_stages, stages::put_stages))
        .routes(routes!(knockout::create_playoff, knockout::get_playoff))
        .routes(routes!(knockout::put_prizes, knockout::get_prizes))
        .routes(routes!(
            knockout::put_playoff_prizes,
            knockout::get_playoff_prizes
        ))
        .routes(routes!(knockout::get_playoff_awards))
        .routes(routes!(knockout::get_awards))
        .routes(routes!(knockout::get_round_setup))
        .merge(staff_routes())
        .merge(records_routes())
        .merge(reports_routes())
        .merge(keys_routes())
        .merge(notify_routes())
        .merge(event_file_routes())
        .merge(team_routes())
        .split_for_parts();
    let mut doc = doc;
    BodyRejections.modify(&mut doc);
    (router, doc)
}

/// Accounts, sessions, a tournament's staff and invitations (issue #13).
fn staff_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(users::list_users, users::create_user))
        .routes(routes!(users::update_user, users::delete_user))
        .routes(routes!(users::create_password_reset))
        .routes(routes!(users::use_password_reset))
        .routes(routes!(users::get_me))
        .routes(routes!(users::change_password))
        .routes(routes!(users::list_sessions, users::delete_sessions))
        .routes(routes!(users::delete_session))
        .routes(routes!(staff::list_staff, staff::assign_staff))
        .routes(routes!(staff::remove_staff))
        .routes(routes!(staff::create_invitation, staff::list_invitations))
        .routes(routes!(staff::withdraw_invitation))
        .routes(routes!(staff::get_invitation, staff::accept_invitation))
}

/// Game records (issue #18).
fn records_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(
            records::get_board_record,
            records::put_board_record,
            records::delete_board_record
        ))
        .routes(routes!(records::check_board_record))
        .routes(routes!(records::board_record_pgn))
        .routes(routes!(records::board_moves_text))
        .routes(routes!(records::round_records_pgn))
        .routes(routes!(
            records::get_match_game_record,
            records::put_match_game_record,
            records::delete_match_game_record
        ))
        .routes(routes!(records::check_match_game_record))
        .routes(routes!(records::match_game_record_pgn))
}

/// The whole event as one file; an import may be far larger than other bodies.
fn event_file_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(event_file::export_event))
        .routes(routes!(event_file::import_event))
        .layer(axum::extract::DefaultBodyLimit::max(
            crate::service::event_file::FILE_LIMIT,
        ))
}

/// Self-report (issue #16).
fn reports_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(reports::get_report, reports::post_report))
        .routes(routes!(reports::post_record))
        .routes(routes!(reports::list_reports))
        .routes(routes!(reports::accept_reports))
        .routes(routes!(reports::dismiss_reports))
}

/// Players' keys (issue 36).
fn keys_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(keys::get_key))
        .routes(routes!(keys::post_key_report))
        .routes(routes!(keys::post_key_check_in, keys::delete_key_check_in))
        .routes(routes!(keys::list_keys))
        .routes(routes!(keys::reissue_key))
        .routes(routes!(
            keys::get_check_in_settings,
            keys::put_check_in_settings
        ))
}

/// Team sections (issue #41).
fn team_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(
            team_sections::create_team,
            team_sections::list_teams
        ))
        .routes(routes!(
            team_sections::get_team,
            team_sections::update_team,
            team_sections::delete_team
        ))
        .routes(routes!(team_sections::list_lineups))
        .routes(routes!(team_sections::put_lineup))
        .routes(routes!(team_sections::put_key_lineup))
        .routes(routes!(team_sections::list_matches))
        .routes(routes!(team_sections::get_match))
        .routes(routes!(team_sections::put_game_result))
        .routes(routes!(team_sections::forfeit_match))
        .routes(routes!(team_sections::get_team_standings))
        .routes(routes!(team_sections::get_board_rankings))
        .routes(routes!(team_crosstable::get_team_crosstable))
}

/// Telling the players (issue #37).
fn notify_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(notify::get_schedule, notify::put_schedule))
        .routes(routes!(notify::list_webhooks, notify::add_webhook))
        .routes(routes!(notify::remove_webhook))
        .routes(routes!(notify::test_webhook))
        .routes(routes!(notify::get_deliveries))
        .routes(routes!(notify::get_push_key))
        .routes(routes!(notify::post_key_push, notify::delete_key_push))
}

/// Every API route, with `/api/v1/openapi.json` and a JSON 404 for unknown API paths.
pub fn router() -> Router<AppState> {
    let (router, doc) = routes();
    let doc = Arc::new(doc);
    router
        .route(
            "/api/v1/openapi.json",
            get(move || async move { Json(doc.as_ref().clone()) }),
        )
        .route("/api/v1", any(super::error::api_not_found))
        .route("/api/v1/{*rest}", any(super::error::api_not_found))
        // Set last: it applies to the routes registered before it (axum keeps the Allow header).
        .method_not_allowed_fallback(super::error::api_method_not_allowed)
}

/// The version in an `If-Match` header (`"3"`, `3` or `W/"3"`).
pub(crate) fn if_match(headers: &HeaderMap) -> Result<Option<i32>, ApiError> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or("").trim();
    let text = text.trim_start_matches("W/").trim_matches('"');
    if text == "*" {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|_| ApiError::field(StatusCode::BAD_REQUEST, "If-Match", m::API_IF_MATCH))
}

#[cfg(test)]
mod tests {
    use utoipa::openapi::path::ParameterIn;

    /// A parameter declared "in path" must be a `{name}` of its route, and every `{name}` of a
    /// route must be declared: otherwise clients (and schemathesis) build wrong URLs.
    #[test]
    fn path_parameters_match_the_route_templates() {
        let (_, doc) = super::routes();
        let mut checked = 0;
        for (path, item) in &doc.paths.paths {
            let names: Vec<&str> = path
                .split('/')
                .filter_map(|seg| seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
                .collect();
            let operations = [&item.get, &item.put, &item.post, &item.delete, &item.patch];
            for operation in operations.into_iter().flatten() {
                let declared: Vec<String> = operation
                    .parameters
                    .iter()
                    .flatten()
                    .filter(|p| matches!(p.parameter_in, ParameterIn::Path))
                    .map(|p| p.name.clone())
                    .collect();
                for name in &declared {
                    assert!(
                        names.contains(&name.as_str()),
                        "{path}: {name} is declared as a path parameter"
                    );
                }
                for name in &names {
                    assert!(
                        declared.iter().any(|d| d == name),
                        "{path}: {{{name}}} is not declared"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 40, "only {checked} operations checked");
    }
}
