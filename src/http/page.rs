//! What every HTML page shares: the visitor's language, the layout's context (CSRF token,
//! user, language links) and the HTML response type.

use super::error::PageError;
use super::session;
use super::AppState;
use crate::i18n::{Lang, Tr};
use crate::service::users::Actor;
use askama::Template;
use axum::extract::FromRequestParts;
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use std::convert::Infallible;

/// The raw `lang` parameter of a query string.
pub fn query_lang(query: Option<&str>) -> Option<String> {
    query?
        .split('&')
        .find_map(|pair| pair.strip_prefix("lang="))
        .map(str::to_string)
}

/// What a visitor asked for: `?lang=`, the `lang` cookie, `Accept-Language`. Resolved against
/// a default (the event's language on event pages, zh-Hant elsewhere).
#[derive(Debug, Clone, Default)]
pub struct LangPrefs {
    query: Option<String>,
    cookie: Option<String>,
    accept: Option<String>,
}

impl LangPrefs {
    /// Reads the preferences of a request.
    pub fn from_parts(parts: &Parts) -> LangPrefs {
        LangPrefs {
            query: query_lang(parts.uri.query()),
            cookie: session::cookie(&parts.headers, session::LANG_COOKIE).map(str::to_string),
            accept: parts
                .headers
                .get(ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string),
        }
    }

    /// The language to show, given the default of the page (or event).
    pub fn resolve(&self, default: Lang) -> Lang {
        Lang::negotiate(
            self.query.as_deref(),
            self.cookie.as_deref(),
            self.accept.as_deref(),
            default,
        )
    }
}

/// The visitor's language: `?lang=`, the `lang` cookie, `Accept-Language`, else zh-Hant.
#[derive(Debug, Clone, Copy)]
pub struct Language(pub Lang);

impl<S: Send + Sync> FromRequestParts<S> for Language {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Language(LangPrefs::from_parts(parts).resolve(Lang::ZhHant)))
    }
}

/// One entry of the language switch.
#[derive(Debug, Clone)]
pub struct LangLink {
    /// BCP 47 tag, for the `lang` and `hreflang` attributes.
    pub tag: &'static str,
    /// Short native label (繁體, 简体, EN): shown in its own language, so not in the catalogue.
    pub label: &'static str,
    /// This page with `lang=` set to the tag (other query parameters kept).
    pub href: String,
    /// Whether this is the language shown.
    pub current: bool,
}

fn short_label(lang: Lang) -> &'static str {
    match lang {
        Lang::ZhHant => "繁體",
        Lang::ZhHans => "简体",
        Lang::En => "EN",
    }
}

/// The layout's context: language, CSRF token for forms, who is logged in, the language links.
#[derive(Debug, Clone)]
pub struct PageCtx {
    /// The language shown.
    pub lang: Lang,
    /// Value for the hidden `csrf` field of every form.
    pub csrf: String,
    /// The logged-in user's name, if any.
    pub user: Option<String>,
    /// The logged-in user, if any (what they may see is the services' decision).
    pub actor: Option<Actor>,
    /// The language switch.
    pub lang_links: Vec<LangLink>,
    prefs: LangPrefs,
    path: String,
    other_query: Vec<String>,
}

impl PageCtx {
    /// A context with no request behind it (error pages): no user, no CSRF token.
    pub fn bare(lang: Lang) -> PageCtx {
        let mut ctx = PageCtx {
            lang,
            csrf: String::new(),
            user: None,
            actor: None,
            lang_links: Vec::new(),
            prefs: LangPrefs::default(),
            path: String::new(),
            other_query: Vec::new(),
        };
        ctx.build_links();
        ctx
    }

    /// The UI text of the chosen language.
    pub fn tr(&self) -> Tr {
        Tr { lang: self.lang }
    }

    /// Re-chooses the language with `default` as the fallback (the event's default language on
    /// event pages); the visitor's explicit choice still wins.
    pub fn with_default(mut self, default: Lang) -> PageCtx {
        self.lang = self.prefs.resolve(default);
        self.build_links();
        self
    }

    /// Like [`PageCtx::with_default`], from a stored tag such as `tournament.default_language`.
    pub fn with_default_tag(self, tag: &str) -> PageCtx {
        let default = Lang::from_tag(tag).unwrap_or(Lang::ZhHant);
        self.with_default(default)
    }

    /// What a page depends on besides its data: the path and query, the language preferences,
    /// the CSRF token and the signed-in user (a live page's entity tag hashes them all).
    pub fn variant(&self) -> Vec<Option<String>> {
        vec![
            Some(self.path.clone()),
            Some(self.other_query.join("&")),
            self.prefs.query.clone(),
            self.prefs.cookie.clone(),
            self.prefs.accept.clone(),
            Some(self.csrf.clone()),
            self.user.clone(),
        ]
    }

    fn build_links(&mut self) {
        self.lang_links = Lang::ALL
            .iter()
            .map(|&lang| {
                let mut query = self.other_query.clone();
                query.push(format!("lang={}", lang.tag()));
                LangLink {
                    tag: lang.tag(),
                    label: short_label(lang),
                    href: format!("{}?{}", self.path, query.join("&")),
                    current: lang == self.lang,
                }
            })
            .collect();
    }
}

impl FromRequestParts<AppState> for PageCtx {
    type Rejection = PageError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let prefs = LangPrefs::from_parts(parts);
        let lang = prefs.resolve(Lang::ZhHant);
        let user = session::session_user(parts, state)
            .await
            .map_err(|err| PageError::from_service(err, lang))?;
        let other_query = parts
            .uri
            .query()
            .unwrap_or("")
            .split('&')
            .filter(|pair| !pair.is_empty() && !pair.starts_with("lang="))
            .map(str::to_string)
            .collect();
        let mut ctx = PageCtx {
            lang,
            csrf: session::csrf_token(parts),
            user: user.as_ref().map(|actor| actor.username.clone()),
            actor: user,
            lang_links: Vec::new(),
            prefs,
            path: parts.uri.path().to_string(),
            other_query,
        };
        ctx.build_links();
        Ok(ctx)
    }
}

/// A service result on a page: its error becomes the error page, in the page's language.
pub trait OrPage<T> {
    /// The value, or the error page for the error.
    fn or_page(self, ctx: &PageCtx) -> Result<T, PageError>;
}

impl<T> OrPage<T> for crate::service::Result<T> {
    fn or_page(self, ctx: &PageCtx) -> Result<T, PageError> {
        self.map_err(|err| PageError::from_service(err, ctx.lang))
    }
}

/// Renders an askama template as an HTML response; a render failure becomes a logged 500.
pub struct Page<T>(pub StatusCode, pub T);

impl<T> Page<T> {
    /// A 200 page.
    pub fn ok(body: T) -> Page<T> {
        Page(StatusCode::OK, body)
    }
}

impl<T: Template> IntoResponse for Page<T> {
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
