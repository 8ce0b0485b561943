//! Use cases shared by the JSON API and the HTML pages. Each opens one transaction, loads
//! state through `db`, applies the rules (often by calling `arbiter_core`), writes and commits.

pub mod absences;
pub mod access;
pub mod calendar;
pub mod check;
pub mod desk;
pub mod entrants;
pub mod event_file;
pub mod interchange;
pub mod keys;
pub mod knockout;
pub mod knockout_stages;
pub mod mail;
pub mod numbering;
pub mod outbox;
pub mod payments;
pub mod players;
pub mod prizes;
pub mod push;
pub mod records;
pub mod registrations;
pub mod reports;
pub mod rounds;
pub mod schedule;
pub mod screen;
pub mod sections;
pub mod setups;
pub mod staff;
pub mod stages;
pub mod standings;
pub mod state;
pub mod team_crosstable;
pub mod team_matches;
pub mod team_ranking;
pub mod team_registrations;
pub mod team_trf;
pub mod teams;
pub mod throttle;
pub mod ties;
pub mod tournaments;
pub mod users;

use crate::i18n::messages::{self as m, Msg};
use std::collections::BTreeMap;

/// Field name → messages, for input that cannot be accepted (JSON or form alike).
pub type FieldErrors = BTreeMap<String, Vec<Msg>>;

/// The application's error: every failure a use case can report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Occurs when the thing asked for does not exist (a `not_found.*` text names it).
    #[error("{}", .0.en)]
    NotFound(m::Text),
    /// Occurs when input breaks a rule; the map says which field and why.
    #[error("{}", message.en())]
    Invalid {
        /// A sentence for the whole request.
        message: Msg,
        /// Messages per field.
        fields: FieldErrors,
    },
    /// Occurs when the request is valid but conflicts with the current state.
    #[error("{}", .0.en())]
    Conflict(Msg),
    /// Occurs when no valid credentials were given.
    #[error("{}", .0.en())]
    Unauthorized(Msg),
    /// Occurs when the caller may not do this.
    #[error("{}", .0.en())]
    Forbidden(Msg),
    /// Occurs when sign-ins or registrations exceed the limiter's budget (a lockout).
    #[error("{}", .0.message.en())]
    TooManyAttempts(Lockout),
    /// Occurs when the database is unreachable or fails.
    #[error("database error")]
    Db(sqlx::Error),
    /// Occurs on an internal failure that is not the client's fault.
    #[error("internal error: {0}")]
    Internal(String),
}

/// A limiter's refusal: what to say and, when the limiter knows, how long its lockout lasts
/// (the API's `Retry-After`).
#[derive(Debug, Clone)]
pub struct Lockout {
    /// What a person is told.
    pub message: Msg,
    /// Seconds until the lockout ends.
    pub retry_after: Option<u64>,
}

impl Error {
    /// An `Invalid` error for one field.
    pub fn invalid(field: &str, message: impl Into<Msg>) -> Error {
        let message = message.into();
        let mut fields = FieldErrors::new();
        fields.insert(field.to_string(), vec![message.clone()]);
        Error::Invalid {
            message: Msg::field(field, message),
            fields,
        }
    }

    /// An `Invalid` error about the whole request (no field).
    pub fn invalid_request(message: impl Into<Msg>) -> Error {
        Error::Invalid {
            message: message.into(),
            fields: FieldErrors::new(),
        }
    }

    /// A `Conflict` error.
    pub fn conflict(message: impl Into<Msg>) -> Error {
        Error::Conflict(message.into())
    }

    /// A `Forbidden` error.
    pub fn forbidden(message: impl Into<Msg>) -> Error {
        Error::Forbidden(message.into())
    }

    /// An `Unauthorized` error.
    pub fn unauthorized(message: impl Into<Msg>) -> Error {
        Error::Unauthorized(message.into())
    }

    /// A `TooManyAttempts` error.
    pub fn too_many_attempts(message: impl Into<Msg>) -> Error {
        Error::TooManyAttempts(Lockout {
            message: message.into(),
            retry_after: None,
        })
    }

    /// A `TooManyAttempts` error whose lockout ends in `seconds`.
    pub fn locked_out(message: impl Into<Msg>, seconds: f64) -> Error {
        Error::TooManyAttempts(Lockout {
            message: message.into(),
            // Whole seconds, rounded up: a client that waits as told is let in.
            retry_after: Some(seconds.max(1.0).ceil() as u64),
        })
    }

    /// Seconds until a lockout ends, when this is one and the limiter knows.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Error::TooManyAttempts(lockout) => lockout.retry_after,
            _ => None,
        }
    }

    /// What a person is told, in `lang` (the generic words for a database or internal
    /// failure are the pages' business; this gives their English).
    pub fn render(&self, lang: crate::i18n::Lang) -> String {
        self.msg()
            .map_or_else(|| self.to_string(), |message| message.render(lang))
    }

    /// What a person is told, for the errors that are the request's (`None` for a database
    /// or internal failure, whose detail is for the log only).
    pub fn msg(&self) -> Option<Msg> {
        match self {
            Error::NotFound(what) => Some(what.msg()),
            Error::Invalid { message, .. } => Some(message.clone()),
            Error::Conflict(message) | Error::Unauthorized(message) | Error::Forbidden(message) => {
                Some(message.clone())
            }
            Error::TooManyAttempts(lockout) => Some(lockout.message.clone()),
            Error::Db(_) | Error::Internal(_) => None,
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
                Some("22021" | "22P05") => Some(m::DB_NUL_IN_TEXT),
                Some("22008") => Some(m::DB_DATE_OUT_OF_RANGE),
                Some("22003") => Some(m::DB_NUMBER_OUT_OF_RANGE),
                _ => None,
            },
            _ => None,
        };
        if let Some(rule) = rule {
            return Error::invalid_request(rule);
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
    let about = |message: Msg| Msg::field(&field, message);
    let (status_conflict, message) = match code.as_ref() {
        "23505" => (true, about(m::DB_VALUE_ALREADY_TAKEN.msg())),
        "23514" => (false, about(m::DB_VALUE_BREAKS_RULE.with(&[&constraint]))),
        "23503" if e.message().starts_with("update or delete") => {
            (false, m::DB_STILL_REFERRED_OTHER_RECORDS.msg())
        }
        "23503" => (false, about(m::DB_REFERS_SOMETHING_DOES_NOT.msg())),
        "23502" => (false, about(m::CHECK_REQUIRED.msg())),
        "23P01" => (true, about(m::DB_OVERLAPS_EXISTING_RECORD.msg())),
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
