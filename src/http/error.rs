//! Errors to responses, in one place: `status` maps every `service::Error` to a status code;
//! `ApiError` renders JSON `{"message", "errors"}`, `PageError` an HTML page.

use super::page::{Language, Page, PageCtx};
use crate::i18n::messages::{self as m, Msg};
use crate::i18n::{Lang, Tr};
use crate::service::{Error, FieldErrors};
use askama::Template;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use std::collections::BTreeMap;

/// The one mapping from application errors to HTTP status codes.
pub fn status(error: &Error) -> StatusCode {
    match error {
        Error::NotFound(_) => StatusCode::NOT_FOUND,
        Error::Invalid { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        Error::Conflict(_) => StatusCode::CONFLICT,
        Error::Unauthorized(_) => StatusCode::UNAUTHORIZED,
        Error::Forbidden(_) => StatusCode::FORBIDDEN,
        Error::TooManyAttempts(_) => StatusCode::TOO_MANY_REQUESTS,
        Error::Db(db) if unavailable(db) => StatusCode::SERVICE_UNAVAILABLE,
        Error::Db(_) | Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// Whether a database error means the database is out of reach for now (no connection in
/// time, a connection lost, a statement over `statement_timeout`, the server shutting down)
/// rather than a fault of ours: 503, try again.
fn unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) => true,
        sqlx::Error::Database(e) => matches!(
            e.code().as_deref(),
            // query_canceled (statement_timeout), admin_shutdown, crash_shutdown,
            // cannot_connect_now.
            Some("57014" | "57P01" | "57P02" | "57P03")
        ),
        _ => false,
    }
}

/// The answer to a request that ran past its time (`--request-timeout`): 503, as JSON.
pub fn timed_out() -> Response {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, m::API_TIMED_OUT).into_response()
}

/// The answer to a write whose body did not arrive before its deadline: 408, as JSON. Nothing
/// was done (a handler reads its body before it writes).
pub fn body_timed_out() -> Response {
    ApiError::new(StatusCode::REQUEST_TIMEOUT, m::API_BODY_TIMED_OUT).into_response()
}

/// The JSON error body.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong, for a person (English).
    pub message: String,
    /// The stable code of `message` (its catalogue key, e.g. `check.required`); `several`
    /// when it sums up several field errors.
    pub code: String,
    /// Per-field messages (empty when the error is not about a field).
    #[schema(value_type = Object)]
    pub errors: BTreeMap<String, Vec<String>>,
    /// The codes of `errors`, field by field in the same order.
    #[schema(value_type = Object)]
    pub field_codes: BTreeMap<String, Vec<String>>,
}

impl ErrorBody {
    fn new(message: &Msg, fields: &FieldErrors) -> ErrorBody {
        let each = |f: fn(&Msg) -> String| {
            fields
                .iter()
                .map(|(field, messages)| (field.clone(), messages.iter().map(f).collect()))
                .collect()
        };
        ErrorBody {
            message: message.en(),
            code: message.code().to_string(),
            errors: each(Msg::en),
            field_codes: each(|m| m.code().to_string()),
        }
    }
}

/// An error answered as JSON.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    body: ErrorBody,
    /// `Retry-After` (seconds) of a lockout.
    retry_after: Option<u64>,
}

impl ApiError {
    /// An error with a status and a message, no field errors.
    pub fn new(status: StatusCode, message: impl Into<Msg>) -> ApiError {
        ApiError {
            status,
            body: ErrorBody::new(&message.into(), &FieldErrors::new()),
            retry_after: None,
        }
    }

    /// A 400 about one field.
    pub fn field(status: StatusCode, field: &str, message: impl Into<Msg>) -> ApiError {
        let message = message.into();
        let mut errors = FieldErrors::new();
        errors.insert(field.to_string(), vec![message.clone()]);
        ApiError {
            status,
            body: ErrorBody::new(&message, &errors),
            retry_after: None,
        }
    }
}

impl From<Error> for ApiError {
    fn from(error: Error) -> ApiError {
        let status = status(&error);
        if status.is_server_error() {
            // Internals go to the log, never to the client.
            tracing::error!(error = ?error, "request failed");
            let message = if status == StatusCode::SERVICE_UNAVAILABLE {
                m::API_BUSY
            } else {
                m::API_INTERNAL
            };
            return ApiError::new(status, message);
        }
        let message = error.msg().unwrap_or_else(|| m::API_INTERNAL.msg());
        let body = match &error {
            Error::Invalid { fields, .. } => ErrorBody::new(&message, fields),
            _ => ErrorBody::new(&message, &FieldErrors::new()),
        };
        ApiError {
            status,
            body,
            retry_after: error.retry_after(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// A known API path asked with a method it does not take (axum adds the `Allow` header).
pub async fn api_method_not_allowed() -> ApiError {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, m::API_METHOD_NOT_ALLOWED)
}

/// Unknown paths under `/api/v1`.
pub async fn api_not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, m::API_NO_ENDPOINT)
}

/// The answer to a request whose handler panicked: a logged, generic JSON 500.
pub fn panic_response(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let detail = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    tracing::error!(panic = detail, "handler panicked");
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, m::API_INTERNAL).into_response()
}

/// The error page.
#[derive(Template)]
#[template(path = "pages/error.html")]
pub struct ErrorPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Page heading.
    pub title: String,
    /// Explanation.
    pub message: String,
    /// On a 403: who is signed in ("You are signed in as …"), else empty.
    pub signed_in_as: String,
}

/// An error answered as an HTML page.
#[derive(Debug)]
pub struct PageError {
    status: StatusCode,
    lang: Lang,
    title_key: &'static str,
    message: String,
    /// Who is signed in (name and CSRF token for the sign-out form): the error page shows
    /// them as every page does, and a 403 says whose role falls short.
    signed_in: Option<(String, String)>,
}

impl PageError {
    /// An error page with a status, a heading (catalogue key) and a message (already in the
    /// visitor's language, or technical detail).
    pub fn new(
        status: StatusCode,
        lang: Lang,
        title_key: &'static str,
        message: impl Into<String>,
    ) -> PageError {
        PageError {
            status,
            lang,
            title_key,
            message: message.into(),
            signed_in: None,
        }
    }

    /// From an application error, for the visitor of `ctx` (their language, and who is
    /// signed in).
    pub fn from_ctx(error: Error, ctx: &PageCtx) -> PageError {
        PageError::from_service(error, ctx.lang).signed_in(ctx)
    }

    /// The same error, shown to the visitor of `ctx` as signed in.
    pub fn signed_in(mut self, ctx: &PageCtx) -> PageError {
        self.signed_in = ctx.user.clone().map(|user| (user, ctx.csrf.clone()));
        self
    }

    /// From an application error, in the visitor's language.
    pub fn from_service(error: Error, lang: Lang) -> PageError {
        let status = status(&error);
        let message = if status.is_server_error() {
            tracing::error!(error = ?error, "page request failed");
            Tr { lang }.t("error.internal").to_string()
        } else {
            error
                .msg()
                .map_or_else(|| error.to_string(), |message| message.render(lang))
        };
        let title_key = if status == StatusCode::NOT_FOUND {
            "error.not_found"
        } else {
            "error.title"
        };
        PageError::new(status, lang, title_key, message)
    }

    /// The status code.
    pub fn status(&self) -> StatusCode {
        self.status
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let tr = Tr { lang: self.lang };
        let mut ctx = PageCtx::bare(self.lang);
        let mut signed_in_as = String::new();
        if let Some((user, csrf)) = self.signed_in {
            if self.status == StatusCode::FORBIDDEN {
                signed_in_as = tr.fmt("error.signed_in_as", &user);
            }
            ctx.user = Some(user);
            ctx.csrf = csrf;
        }
        Page(
            self.status,
            ErrorPage {
                tr,
                ctx,
                title: tr.t(self.title_key).to_string(),
                message: self.message,
                signed_in_as,
            },
        )
        .into_response()
    }
}

/// Unknown paths outside the API.
pub async fn not_found(Language(lang): Language) -> Response {
    PageError::new(StatusCode::NOT_FOUND, lang, "error.not_found", "").into_response()
}

/// A service result on a page: its error becomes the error page, in the page's language.
pub trait OrPage<T> {
    /// The value, or the error page for the error.
    fn or_page(self, ctx: &PageCtx) -> Result<T, PageError>;
}

impl<T> OrPage<T> for crate::service::Result<T> {
    fn or_page(self, ctx: &PageCtx) -> Result<T, PageError> {
        self.map_err(|err| PageError::from_ctx(err, ctx))
    }
}
