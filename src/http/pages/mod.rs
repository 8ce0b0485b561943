//! HTML pages (askama templates). Page handlers share the services of the API.
//!
//! Every page struct has `tr` (UI text) and `ctx` ([`PageCtx`]: CSRF token, logged-in user,
//! language links), which `base.html` reads.

pub mod accounts_admin;
pub mod admin;
pub mod auth;
pub mod byes_admin;
pub mod dashboard;
pub mod desk_admin;
pub mod games;
pub mod home;
pub mod imports_admin;
pub mod knockout_admin;
pub mod live;
pub mod playoff_admin;
pub mod prizes_admin;
pub mod public;
pub mod records_admin;
pub mod register;
pub mod repair_admin;
pub mod results;
pub mod sections_admin;
pub mod session;
pub mod setups_admin;
pub mod staff_admin;
pub mod ties_admin;

use super::AppState;
use crate::i18n::{Lang, Tr};
use crate::service::users::Actor;
use askama::Template;
use axum::extract::FromRequestParts;
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{middleware, Router};
use std::convert::Infallible;

/// Routes of the pages, with the cookie and security-header layer.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home::show_home))
        .route("/login", get(auth::show_login).post(auth::create_session))
        .route("/logout", post(auth::delete_session))
        .route("/admin", get(admin::show_dashboard))
        .route("/t/{tournament_id}", get(public::show_tournament))
        .route(
            "/t/{tournament_id}/register",
            get(register::show_register).post(register::create_registration),
        )
        .route("/s/{section_id}/entrants", get(public::show_entrants))
        .route(
            "/s/{section_id}/entrants/print",
            get(public::print_entrants),
        )
        .route("/s/{section_id}/pairings/{n}", get(public::show_pairings))
        .route(
            "/s/{section_id}/pairings/{n}/print",
            get(public::print_pairings),
        )
        .route(
            "/s/{section_id}/pairings/{n}/by-name/print",
            get(public::print_pairings_by_name),
        )
        .route("/s/{section_id}/slips/{n}/print", get(public::print_slips))
        .route("/s/{section_id}/standings", get(public::show_standings))
        .route(
            "/s/{section_id}/standings/print",
            get(public::print_standings),
        )
        .route("/s/{section_id}/crosstable", get(public::show_crosstable))
        .route(
            "/s/{section_id}/crosstable/print",
            get(public::print_crosstable),
        )
        .route("/s/{section_id}/bracket", get(public::show_bracket))
        .route("/s/{section_id}/bracket/print", get(public::print_bracket))
        .route("/s/{section_id}/prizes/print", get(public::print_prizes))
        .route("/s/{section_id}/setups/{n}", get(public::show_setups))
        // The arbiter dashboard below /admin (its own file, to keep merges apart). It took
        // over the desk's routes (`/admin/tournaments…`, `/admin/t/…`, `/admin/s/…`,
        // `/admin/boards/{id}/result`) with the same forms and fields.
        .merge(dashboard::routes())
        .merge(staff_admin::routes())
        .merge(accounts_admin::routes())
        .merge(games::routes())
        .merge(records_admin::routes())
        .layer(middleware::from_fn(session::page_layer))
}

/// The raw `lang` parameter of a query string.
fn query_lang(query: Option<&str>) -> Option<String> {
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
    /// Layout context.
    pub ctx: PageCtx,
    /// Page heading.
    pub title: String,
    /// Explanation.
    pub message: String,
}

/// An error answered as an HTML page.
#[derive(Debug)]
pub struct PageError {
    status: StatusCode,
    lang: Lang,
    title_key: &'static str,
    message: String,
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
        }
    }

    /// From an application error, in the visitor's language.
    pub fn from_service(error: crate::service::Error, lang: Lang) -> PageError {
        let status = super::error::status(&error);
        let message = if status.is_server_error() {
            tracing::error!(error = ?error, "page request failed");
            Tr { lang }.t("error.internal").to_string()
        } else {
            crate::i18n::localise(lang, &error.to_string()).into_owned()
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
        HtmlPage(
            self.status,
            ErrorPage {
                tr,
                ctx: PageCtx::bare(self.lang),
                title: tr.t(self.title_key).to_string(),
                message: self.message,
            },
        )
        .into_response()
    }
}

/// Unknown paths outside the API.
pub async fn not_found(Language(lang): Language) -> Response {
    PageError::new(StatusCode::NOT_FOUND, lang, "error.not_found", "").into_response()
}
