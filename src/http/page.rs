//! What every HTML page shares: the visitor's language, the layout's context (CSRF token,
//! user, language links) and the HTML response type.

use crate::i18n::{Lang, Tr};
use crate::service::users::Actor;
use askama::Template;
use axum::http::header::COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};

/// Name of the language cookie.
pub const LANG_COOKIE: &str = "lang";

/// The value of cookie `name` in a request, if present.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| {
            let (k, v) = c.trim().split_once('=')?;
            (k == name).then_some(v)
        })
}

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
    /// The preferences as read from a request: `?lang=`, the cookie, `Accept-Language`.
    pub fn new(query: Option<String>, cookie: Option<String>, accept: Option<String>) -> LangPrefs {
        LangPrefs {
            query,
            cookie,
            accept,
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
    pub(in crate::http) prefs: LangPrefs,
    pub(in crate::http) path: String,
    pub(in crate::http) other_query: Vec<String>,
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
    /// the CSRF token and the signed-in user (a live page's entity tag hashes them all; it runs
    /// on every poll, so nothing is copied but the joined query).
    pub fn variant(&self) -> [Option<std::borrow::Cow<'_, str>>; 7] {
        use std::borrow::Cow;
        fn borrowed(s: &Option<String>) -> Option<Cow<'_, str>> {
            s.as_deref().map(Cow::Borrowed)
        }
        [
            Some(Cow::Borrowed(self.path.as_str())),
            Some(Cow::Owned(self.other_query.join("&"))),
            borrowed(&self.prefs.query),
            borrowed(&self.prefs.cookie),
            borrowed(&self.prefs.accept),
            // An anonymous visitor's live page shows no form, so no token: leaving it out
            // lets every anonymous visitor share the page's tag.
            self.user
                .as_ref()
                .map(|_| Cow::Borrowed(self.csrf.as_str())),
            borrowed(&self.user),
        ]
    }

    pub(in crate::http) fn build_links(&mut self) {
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
