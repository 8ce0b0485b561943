//! Use cases shared by the JSON API and the HTML pages. Each opens one transaction, loads
//! state through `db`, applies the rules (often by calling `arbiter_core`), writes and commits.

pub mod access;
pub mod check;
pub mod entrants;
pub mod interchange;
pub mod registrations;
pub mod rounds;
pub mod sections;
pub mod standings;
pub mod state;
pub mod tournaments;
pub mod users;

use std::collections::BTreeMap;

/// Field name → messages, for input that cannot be accepted (JSON or form alike).
pub type FieldErrors = BTreeMap<String, Vec<String>>;

/// The application's error: every failure a use case can report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Occurs when the thing asked for does not exist (the text names it).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// Occurs when input breaks a rule; the map says which field and why.
    #[error("{message}")]
    Invalid {
        /// A sentence for the whole request.
        message: String,
        /// Messages per field.
        fields: FieldErrors,
    },
    /// Occurs when the request is valid but conflicts with the current state.
    #[error("{0}")]
    Conflict(String),
    /// Occurs when no valid credentials were given.
    #[error("{0}")]
    Unauthorized(String),
    /// Occurs when the caller may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// Occurs when the database is unreachable or fails.
    #[error("database error")]
    Db(#[from] sqlx::Error),
    /// Occurs on an internal failure that is not the client's fault.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// An `Invalid` error for one field.
    pub fn invalid(field: &str, message: impl Into<String>) -> Error {
        let message = message.into();
        let mut fields = FieldErrors::new();
        fields.insert(field.to_string(), vec![message.clone()]);
        Error::Invalid {
            message: format!("{field}: {message}"),
            fields,
        }
    }
}

/// Result of a use case.
pub type Result<T, E = Error> = std::result::Result<T, E>;
