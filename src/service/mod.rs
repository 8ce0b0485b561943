//! Use cases shared by the JSON API and the HTML pages. Each opens one transaction, loads
//! state through `db`, applies the rules (often by calling `arbiter_core`), writes and commits.

pub mod access;
pub mod check;
pub mod desk;
pub mod entrants;
pub mod event_file;
pub mod interchange;
pub mod knockout;
pub mod payments;
pub mod players;
pub mod prizes;
pub mod records;
pub mod registrations;
pub mod reports;
pub mod rounds;
pub mod screen;
pub mod sections;
pub mod setups;
pub mod staff;
pub mod standings;
pub mod state;
pub mod throttle;
pub mod ties;
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
    /// Occurs when sign-ins or registrations exceed the limiter's budget (a lockout).
    #[error("{0}")]
    TooManyAttempts(String),
    /// Occurs when the database is unreachable or fails.
    #[error("database error")]
    Db(sqlx::Error),
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

impl From<sqlx::Error> for Error {
    /// Narrows the database's data exceptions, which only the client's values cause (the
    /// queries are parameterised), to `Invalid`: a NUL character in a text (PostgreSQL text
    /// cannot hold one), a date or time beyond PostgreSQL's range, a number beyond its column.
    /// Everything else stays a database error (a 5xx).
    fn from(error: sqlx::Error) -> Error {
        let rule = match &error {
            sqlx::Error::Database(e) => match e.code().as_deref() {
                // 22021 for a text column, 22P05 for a JSON one.
                Some("22021" | "22P05") => Some(("text", "must not contain NUL characters")),
                Some("22008") => Some(("date", "is out of range")),
                Some("22003") => Some(("number", "is out of range")),
                _ => None,
            },
            _ => None,
        };
        if let Some(rule) = rule {
            let (what, why) = rule;
            return Error::Invalid {
                message: format!("a {what} in the request {why}"),
                fields: FieldErrors::new(),
            };
        }
        constraint_error(&error).unwrap_or(Error::Db(error))
    }
}

/// The fallback for a broken constraint that no use case mapped itself: the database is the
/// last guard of the rules, and what it refuses is the request's fault, never a 500. A unique
/// violation is a 409; a check, foreign-key or not-null violation a 422, on the field the
/// constraint names (`section_name_check` → `name`).
fn constraint_error(error: &sqlx::Error) -> Option<Error> {
    let sqlx::Error::Database(e) = error else {
        return None;
    };
    let code = e.code()?;
    let constraint = e.constraint().unwrap_or_default();
    let field = constraint_field(constraint, e.table().unwrap_or_default());
    let (status_conflict, message) = match code.as_ref() {
        "23505" => (true, format!("{field}: this value is already taken")),
        "23514" => (
            false,
            format!("{field}: the value breaks the rule {constraint}"),
        ),
        "23503" if e.message().starts_with("update or delete") => (
            false,
            "this is still referred to by other records; remove those first".to_string(),
        ),
        "23503" => (
            false,
            format!("{field}: refers to something that does not exist"),
        ),
        "23502" => (false, format!("{field}: is required")),
        "23P01" => (true, format!("{field}: this overlaps an existing record")),
        _ => return None,
    };
    tracing::warn!(
        constraint,
        code = code.as_ref(),
        "constraint refused a write"
    );
    Some(if status_conflict {
        Error::Conflict(message)
    } else {
        let mut fields = FieldErrors::new();
        fields.insert(field.clone(), vec![message.clone()]);
        Error::Invalid { message, fields }
    })
}

/// The field a constraint is about: its name without the table prefix and the kind suffix.
fn constraint_field(constraint: &str, table: &str) -> String {
    let name = constraint
        .strip_prefix(table)
        .and_then(|rest| rest.strip_prefix('_'))
        .unwrap_or(constraint);
    let name = ["_check", "_key", "_fkey", "_pkey", "_excl", "_not_null"]
        .iter()
        .find_map(|suffix| name.strip_suffix(suffix))
        .unwrap_or(name);
    if name.is_empty() {
        "request".to_string()
    } else {
        name.to_string()
    }
}

/// Result of a use case.
pub type Result<T, E = Error> = std::result::Result<T, E>;
