//! The JSON API under `/api/v1`: one file per resource.

pub mod auth;

use super::AppState;
use axum::Router;

/// Every API route, relative to `/api/v1`.
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(auth::router())
        .fallback(super::error::api_not_found)
}
