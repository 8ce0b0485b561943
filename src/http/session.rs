//! Browser sessions, CSRF tokens and the client address: the security plumbing of the pages.
//!
//! - The session cookie `arbiter_session` (`__Host-arbiter_session`, `Secure`, when the public
//!   URL is https) holds the token from `service::users::login(..,
//!   "browser")`; only its hash is stored (table `user_session`).
//! - Every page visit gets an anonymous random cookie `arbiter_csrf` (set by [`page_layer`]).
//! - A form's CSRF token is SHA-256 over the session token when logged in, else over the
//!   anonymous cookie. Both cookies are HttpOnly secrets, so a foreign site can neither read nor
//!   compute the token; binding to the session means a planted `arbiter_csrf` cookie cannot
//!   forge an arbiter's form.

use super::error::PageError;
pub use super::page::{cookie, LANG_COOKIE};
use super::page::{query_lang, LangPrefs, Language, PageCtx};
use crate::http::AppState;
use crate::i18n::Lang;
use crate::service;
use crate::service::users::Actor;
use axum::extract::{ConnectInfo, FromRequestParts, Request};
use axum::http::header::{
    CONTENT_SECURITY_POLICY, LOCATION, REFERRER_POLICY, SET_COOKIE, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rand_core::RngCore as _;
use sha2::Digest as _;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "arbiter_session";
/// Name of the session cookie when the public URL is https: the `__Host-` prefix makes the
/// browser accept it only from this host, over https, for the whole site.
pub const SECURE_SESSION_COOKIE: &str = "__Host-arbiter_session";

/// Whether this server's cookies are `Secure` (`--public-url https://…`); put into every
/// request's extensions by `http::app`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CookiePolicy {
    /// `Secure` cookies, and the `__Host-` session cookie.
    pub secure: bool,
}

impl CookiePolicy {
    /// The policy of a request (plain cookies when none was set).
    pub fn of(extensions: &axum::http::Extensions) -> CookiePolicy {
        extensions
            .get::<CookiePolicy>()
            .copied()
            .unwrap_or_default()
    }

    fn session_name(self) -> &'static str {
        if self.secure {
            SECURE_SESSION_COOKIE
        } else {
            SESSION_COOKIE
        }
    }

    fn attributes(self) -> &'static str {
        if self.secure {
            "; Secure"
        } else {
            ""
        }
    }
}
/// Name of the anonymous CSRF cookie.
pub const CSRF_COOKIE: &str = "arbiter_csrf";
/// Name of the CSRF field in every form.
pub const CSRF_FIELD: &str = "csrf";

/// How long the session cookie lives; matches the server-side session expiry.
const SESSION_MAX_AGE_SECS: u64 = 14 * 24 * 3600;
/// The anonymous cookie and the language choice are kept for a year.
const LONG_MAX_AGE_SECS: u64 = 365 * 24 * 3600;

/// A random 256-bit token, hex encoded (used for the anonymous cookie).
fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand_core::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// Tokens we issue are 64 hex digits; anything else in a cookie is ignored, which also keeps
/// odd characters out of header values we echo.
fn is_token(value: &str) -> bool {
    value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The session token in the request's cookies, if it is well formed (not checked against the
/// database). Under a secure policy only the `__Host-` cookie counts, so a cookie planted over
/// plain http cannot log the browser in.
pub fn session_token(headers: &HeaderMap, policy: CookiePolicy) -> Option<&str> {
    cookie(headers, policy.session_name()).filter(|v| is_token(v))
}

/// `Set-Cookie` value for a new session.
pub fn session_cookie(token: &str, policy: CookiePolicy) -> String {
    format!(
        "{}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_MAX_AGE_SECS}{}",
        policy.session_name(),
        policy.attributes()
    )
}

/// Name of the device cookie (OWASP's device cookie: the proof of a former sign-in here).
pub const DEVICE_COOKIE: &str = "arbiter_device";

/// The device proof in the request's cookies, if well formed.
pub fn device_proof(headers: &HeaderMap) -> Option<&str> {
    cookie(headers, DEVICE_COOKIE).filter(|v| is_token(v))
}

/// `Set-Cookie` value for the device proof, kept for a year (sent only to the sign-in form).
pub fn device_cookie(proof: &str, policy: CookiePolicy) -> String {
    format!(
        "{DEVICE_COOKIE}={proof}; Path=/login; HttpOnly; SameSite=Strict; Max-Age={LONG_MAX_AGE_SECS}{}",
        policy.attributes()
    )
}

/// `Set-Cookie` value that removes the session cookie.
pub fn clear_session_cookie(policy: CookiePolicy) -> String {
    format!(
        "{}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{}",
        policy.session_name(),
        policy.attributes()
    )
}

/// The anonymous cookie value of this request: the browser's, or the one [`page_layer`] is
/// about to set.
#[derive(Debug, Clone)]
struct AnonId(String);

/// The CSRF token forms of this request must carry (empty when the request has neither a
/// session nor an anonymous cookie, which only happens outside [`page_layer`]).
pub fn csrf_token(parts: &Parts) -> String {
    if let Some(token) = session_token(&parts.headers, CookiePolicy::of(&parts.extensions)) {
        return derive_csrf("session", token);
    }
    match parts.extensions.get::<AnonId>() {
        Some(AnonId(id)) => derive_csrf("anon", id),
        None => String::new(),
    }
}

fn derive_csrf(kind: &str, secret: &str) -> String {
    let mut hasher = sha2::Sha256::new();
    hasher.update(b"arbiter-csrf-v1:");
    hasher.update(kind.as_bytes());
    hasher.update(b":");
    hasher.update(secret.as_bytes());
    hex::encode(hasher.finalize())
}

/// Checks a submitted CSRF token against the request's cookies, in constant time.
pub fn csrf_matches(parts: &Parts, submitted: &str) -> bool {
    let expected = csrf_token(parts);
    if expected.is_empty() || expected.len() != submitted.len() {
        return false;
    }
    expected
        .bytes()
        .zip(submitted.bytes())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
        == 0
}

/// Middleware for every page route: gives the browser its anonymous CSRF cookie, persists a
/// `?lang=` choice in the `lang` cookie, and adds the security headers of HTML responses.
pub async fn page_layer(mut request: Request, next: Next) -> Response {
    let existing = cookie(request.headers(), CSRF_COOKIE)
        .filter(|v| is_token(v))
        .map(str::to_string);
    let fresh = existing.is_none().then(random_token);
    if let Some(id) = existing.as_ref().or(fresh.as_ref()) {
        request.extensions_mut().insert(AnonId(id.clone()));
    }
    let chosen =
        super::page::query_lang(request.uri().query()).and_then(|tag| Lang::from_tag(&tag));
    let secure = CookiePolicy::of(request.extensions()).attributes();
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    // A page every anonymous visitor shares (`Cache-Control: public`) sets no cookie of its
    // own: a proxy would not keep it otherwise, and it holds no form that needs one.
    let shared = headers
        .get(axum::http::header::CACHE_CONTROL)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("public"));
    if let Some(id) = fresh.filter(|_| !shared) {
        append_cookie(
            headers,
            &format!(
                "{CSRF_COOKIE}={id}; Path=/; HttpOnly; SameSite=Lax; Max-Age={LONG_MAX_AGE_SECS}{secure}"
            ),
        );
    }
    if let Some(lang) = chosen {
        append_cookie(
            headers,
            &format!(
                "{LANG_COOKIE}={}; Path=/; SameSite=Lax; Max-Age={LONG_MAX_AGE_SECS}{secure}",
                lang.tag()
            ),
        );
    }
    // Pages use no inline script or style, so a strict policy costs nothing and turns any
    // injection that slipped past escaping into a blocked (and test-visible) console error.
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; \
             form-action 'self'; frame-ancestors 'none'",
        ),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // A page whose address holds a secret (a player's key) sets its own `no-referrer`.
    headers
        .entry(REFERRER_POLICY)
        .or_insert(HeaderValue::from_static("same-origin"));
    response
}

/// Adds a `Set-Cookie` header (cookie values we build are ASCII, so this cannot fail in
/// practice; a failure drops the cookie rather than the response).
pub fn append_cookie(headers: &mut HeaderMap, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        headers.append(SET_COOKIE, value);
    }
}

/// The logged-in user of this request (`None` without a valid session), looked up once per
/// request and kept in the request's extensions.
pub async fn session_user(
    parts: &mut Parts,
    state: &AppState,
) -> Result<Option<Actor>, service::Error> {
    #[derive(Clone)]
    struct Cached(Option<Actor>);
    if let Some(Cached(actor)) = parts.extensions.get::<Cached>() {
        return Ok(actor.clone());
    }
    let actor = match session_token(&parts.headers, CookiePolicy::of(&parts.extensions)) {
        Some(token) => service::users::authenticate(&state.db, token).await?,
        None => None,
    };
    parts.extensions.insert(Cached(actor.clone()));
    Ok(actor)
}

/// A logged-in user; pages that need one redirect visitors to `/login?next=…` instead.
#[derive(Debug, Clone)]
pub struct CurrentUser(pub Actor);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        match session_user(parts, state).await {
            Ok(Some(actor)) => Ok(CurrentUser(actor)),
            Ok(None) => {
                let next = parts
                    .uri
                    .path_and_query()
                    .map(|pq| pq.as_str())
                    .unwrap_or("/admin");
                let query = serde_urlencoded::to_string([("next", next)]).unwrap_or_default();
                Err(see_other(&format!("/login?{query}")))
            }
            Err(err) => {
                let lang = lang_prefs(parts).resolve(Lang::ZhHant);
                Err(PageError::from_service(err, lang).into_response())
            }
        }
    }
}

/// A `303 See Other` redirect (after a form post, or to the login page).
pub fn see_other(location: &str) -> Response {
    match HeaderValue::from_str(location) {
        Ok(value) => (StatusCode::SEE_OTHER, [(LOCATION, value)]).into_response(),
        Err(_) => (
            StatusCode::SEE_OTHER,
            [(LOCATION, HeaderValue::from_static("/"))],
        )
            .into_response(),
    }
}

/// A `next` target is followed only when it is a path on this site: an absolute path that is
/// not protocol-relative (`//evil.example`) and has no backslash or control character.
pub fn safe_next(next: Option<&str>) -> Option<&str> {
    next.filter(|n| {
        n.starts_with('/')
            && !n.starts_with("//")
            && !n.contains('\\')
            && !n.chars().any(char::is_control)
    })
}

/// The client address of a request for the limiter: the TCP peer (present when served with
/// connect info), or the forwarded client behind a trusted proxy (`Security::client_ip`);
/// unspecified in in-process tests.
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip());
        Ok(ClientIp(state.security.client_ip(peer, &parts.headers)))
    }
}

/// Reads the language preferences of a request.
pub fn lang_prefs(parts: &Parts) -> LangPrefs {
    LangPrefs::new(
        query_lang(parts.uri.query()),
        cookie(&parts.headers, LANG_COOKIE).map(str::to_string),
        parts
            .headers
            .get(axum::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string),
    )
}

impl<S: Send + Sync> FromRequestParts<S> for Language {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Language(lang_prefs(parts).resolve(Lang::ZhHant)))
    }
}

impl FromRequestParts<AppState> for PageCtx {
    type Rejection = PageError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let prefs = lang_prefs(parts);
        let lang = prefs.resolve(Lang::ZhHant);
        let user = session_user(parts, state)
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
            csrf: csrf_token(parts),
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

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::COOKIE;

    #[test]
    fn only_local_paths_are_followed_after_login() {
        assert_eq!(safe_next(Some("/admin?x=1")), Some("/admin?x=1"));
        assert_eq!(safe_next(Some("//evil.example/")), None);
        assert_eq!(safe_next(Some("https://evil.example/")), None);
        assert_eq!(safe_next(Some("/\\evil.example")), None);
        assert_eq!(safe_next(None), None);
    }

    #[test]
    fn cookies_are_found_by_exact_name() {
        let mut headers = HeaderMap::new();
        headers.insert(
            COOKIE,
            HeaderValue::from_static("xlang=en; lang=zh-Hans; arbiter_session=abc"),
        );
        assert_eq!(cookie(&headers, "lang"), Some("zh-Hans"));
        assert_eq!(cookie(&headers, SESSION_COOKIE), Some("abc"));
        assert_eq!(
            session_token(&headers, CookiePolicy::default()),
            None,
            "not a token we issue"
        );
    }
}
