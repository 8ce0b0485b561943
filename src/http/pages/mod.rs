//! HTML pages (askama templates). Page handlers share the services of the API.

pub mod home;

use super::AppState;
use crate::i18n::{Lang, Tr};
use askama::Template;
use axum::extract::FromRequestParts;
use axum::http::header::{ACCEPT_LANGUAGE, COOKIE};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::convert::Infallible;

/// Routes of the pages.
pub fn router() -> Router<AppState> {
    Router::new().route("/", get(home::show_home))
}

/// The visitor's language: `?lang=`, the `lang` cookie, `Accept-Language`, else zh-Hant.
#[derive(Debug, Clone, Copy)]
pub struct Language(pub Lang);

impl<S: Send + Sync> FromRequestParts<S> for Language {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().and_then(|q| {
            q.split('&')
                .find_map(|pair| pair.strip_prefix("lang="))
                .map(str::to_string)
        });
        let cookie = parts
            .headers
            .get_all(COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .find_map(|c| c.trim().strip_prefix("lang=").map(str::to_string));
        let accept = parts
            .headers
            .get(ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok());
        Ok(Language(Lang::negotiate(
            query.as_deref(),
            cookie.as_deref(),
            accept,
            Lang::ZhHant,
        )))
    }
}

/// Renders an askama template as an HTML response; a render failure becomes a logged 500.
pub struct HtmlPage<T>(pub StatusCode, pub T);

impl<T: Template> IntoResponse for HtmlPage<T> {
    fn into_response(self) -> Response {
        match self.1.render() {
            Ok(html) => (self.0, Html(html)).into_response(),
            Err(err) => {
                tracing::error!(%err, "template rendering failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    Html(
                        "<!doctype html><title>500</title><p>Internal server error</p>".to_string(),
                    ),
                )
                    .into_response()
            }
        }
    }
}

/// The error page.
#[derive(Template)]
#[template(path = "pages/error.html")]
pub struct ErrorPage {
    /// Translations.
    pub tr: Tr,
    /// Page heading.
    pub title: String,
    /// Explanation.
    pub message: String,
}

/// An error answered as an HTML page.
pub struct PageError {
    status: StatusCode,
    lang: Lang,
    message: String,
}

impl PageError {
    /// From an application error, in the visitor's language.
    pub fn from_service(error: crate::service::Error, lang: Lang) -> PageError {
        let status = super::error::status(&error);
        let message = if status.is_server_error() {
            tracing::error!(error = ?error, "page request failed");
            "internal server error".to_string()
        } else {
            error.to_string()
        };
        PageError {
            status,
            lang,
            message,
        }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let tr = Tr { lang: self.lang };
        HtmlPage(
            self.status,
            ErrorPage {
                tr,
                title: tr.t("error.title").to_string(),
                message: self.message,
            },
        )
        .into_response()
    }
}

/// Unknown paths outside the API.
pub async fn not_found(Language(lang): Language) -> Response {
    let tr = Tr { lang };
    HtmlPage(
        StatusCode::NOT_FOUND,
        ErrorPage {
            tr,
            title: tr.t("error.not_found").to_string(),
            message: String::new(),
        },
    )
    .into_response()
}
