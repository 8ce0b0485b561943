//! Accounts: signing in and out, one's own account and sessions, the admins' user list, password
//! reset links.

pub mod accounts;
pub mod sign_in;

use crate::http::AppState;
use axum::Router;

/// The routes of these pages.
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(sign_in::router())
        .merge(accounts::router())
}
