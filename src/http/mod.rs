//! HTTP: the JSON API under `/api/v1`, the HTML pages, health checks and static files.
//! Handlers are thin: extract, call one `service` function, render.

pub mod api;
pub mod error;
pub mod extract;
pub mod health;
pub mod pages;

use axum::extract::{MatchedPath, Request};
use axum::Router;
use sqlx::PgPool;
use std::path::PathBuf;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::services::ServeDir;
use tower_http::trace::TraceLayer;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    /// The database pool.
    pub db: PgPool,
}

/// The folder with static files (CSS, JS, fonts), next to the crate.
fn static_dir() -> PathBuf {
    std::env::var_os("ARBITER_STATIC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/static")))
}

/// The whole application as one router: the seam tests drive with `oneshot`.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(health::router())
        .merge(pages::router())
        .merge(api::router())
        .nest_service("/static", ServeDir::new(static_dir()))
        // Browsers ask for it on documents without an icon link (a TRF shown as text).
        .route(
            "/favicon.ico",
            axum::routing::get(|| async {
                axum::response::Redirect::permanent("/static/favicon.svg")
            }),
        )
        .fallback(pages::not_found)
        // A bug that panics in a handler answers a JSON 500 and is logged, instead of
        // dropping the connection without a response.
        .layer(CatchPanicLayer::custom(error::panic_response))
        .layer(
            TraceLayer::new_for_http().make_span_with(|request: &Request| {
                let path = request
                    .extensions()
                    .get::<MatchedPath>()
                    .map(MatchedPath::as_str)
                    .unwrap_or("-");
                tracing::info_span!("http", method = %request.method(), path, uri = %request.uri())
            }),
        )
        .with_state(state)
}
