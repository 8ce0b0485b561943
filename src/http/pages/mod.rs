//! HTML pages (askama templates), by audience and then by feature: `public/` (no sign-in),
//! `admin/` (the arbiter's dashboard), `account/` (signing in, one's account, the user list),
//! and `shared/` (what pages of several features show). Each feature file has its own
//! `router()`; this one merges them inside the cookie and security-header layer.
//!
//! Every page struct has `tr` (UI text) and `ctx` (`http::page::PageCtx`: CSRF token,
//! logged-in user, language links), which `base.html` reads.

pub mod account;
pub mod admin;
pub mod public;
pub mod shared;

use super::AppState;
use axum::{middleware, Router};

/// Routes of the pages, with the cookie and security-header layer.
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(public::router())
        .merge(admin::router())
        .merge(account::router())
        .layer(middleware::from_fn(super::session::page_layer))
}
