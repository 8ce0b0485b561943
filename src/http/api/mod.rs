//! The JSON API under `/api/v1`, one file per resource, documented by an OpenAPI 3 document
//! generated from the handlers' annotations (`GET /api/v1/openapi.json`).

pub mod auth;
pub mod entrants;
pub mod interchange;
pub mod registrations;
pub mod rounds;
pub mod sections;
pub mod tournaments;

use super::error::ErrorBody;
use super::AppState;
use axum::routing::{any, get};
use axum::{Json, Router};
use std::sync::Arc;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
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

/// The API routes and their OpenAPI document.
pub fn routes() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
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
        .routes(routes!(entrants::create_entrant, entrants::list_entrants))
        .routes(routes!(entrants::withdraw_entrant))
        .routes(routes!(entrants::readmit_entrant))
        .routes(routes!(
            entrants::check_in_entrant,
            entrants::check_out_entrant
        ))
        .routes(routes!(entrants::request_bye))
        .routes(routes!(
            entrants::create_forbidden_pair,
            entrants::delete_forbidden_pair
        ))
        .routes(routes!(rounds::pair_next_round, rounds::list_rounds))
        .routes(routes!(rounds::get_round, rounds::delete_round))
        .routes(routes!(rounds::publish_round))
        .routes(routes!(rounds::put_result))
        .routes(routes!(rounds::get_standings))
        .routes(routes!(
            registrations::create_registration,
            registrations::list_registrations
        ))
        .routes(routes!(registrations::confirm_registration))
        .routes(routes!(registrations::record_payment))
        .routes(routes!(registrations::withdraw_registration))
        .routes(routes!(registrations::cancel_section))
        .routes(routes!(registrations::split_section))
        .routes(routes!(interchange::export_trf))
        .routes(routes!(interchange::import_trf))
        .routes(routes!(interchange::import_csv))
        .routes(routes!(interchange::export_standings_csv))
        .routes(routes!(interchange::get_audit))
        .split_for_parts()
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
}
