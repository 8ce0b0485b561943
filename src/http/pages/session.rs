//! Browser sessions, CSRF tokens and the login rate limiter: the security plumbing of the pages.
//!
//! - The session cookie `arbiter_session` holds the token from `service::users::login(..,
//!   "browser")`; only its hash is stored (table `user_session`).
//! - Every page visit gets an anonymous random cookie `arbiter_csrf` (set by [`page_layer`]).
//! - A form's CSRF token is SHA-256 over the session token when logged in, else over the
//!   anonymous cookie. Both cookies are HttpOnly secrets, so a foreign site can neither read nor
//!   compute the token; binding to the session means a planted `arbiter_csrf` cookie cannot
//!   forge an arbiter's form.

use super::PageError;
use crate::http::AppState;
use crate::i18n::Lang;
use crate::service;
use crate::service::users::Actor;
use axum::extract::{ConnectInfo, FromRequestParts, Request};
use axum::http::header::{
    CONTENT_SECURITY_POLICY, COOKIE, LOCATION, REFERRER_POLICY, SET_COOKIE, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rand_core::RngCore as _;
use sha2::Digest as _;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "arbiter_session";
/// Name of the anonymous CSRF cookie.
pub const CSRF_COOKIE: &str = "arbiter_csrf";
/// Name of the language cookie.
pub const LANG_COOKIE: &str = "lang";
/// Name of the CSRF field in every form.
pub const CSRF_FIELD: &str = "csrf";

/// How long the session cookie lives; matches the server-side session expiry.
const SESSION_MAX_AGE_SECS: u64 = 14 * 24 * 3600;
/// The anonymous cookie and the language choice are kept for a year.
const LONG_MAX_AGE_SECS: u64 = 365 * 24 * 3600;

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
/// database).
pub fn session_token(headers: &HeaderMap) -> Option<&str> {
    cookie(headers, SESSION_COOKIE).filter(|v| is_token(v))
}

/// `Set-Cookie` value for a new session.
pub fn session_cookie(token: &str) -> String {
    format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_MAX_AGE_SECS}"
    )
}

/// `Set-Cookie` value that removes the session cookie.
pub fn clear_session_cookie() -> String {
    format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

/// The anonymous cookie value of this request: the browser's, or the one [`page_layer`] is
/// about to set.
#[derive(Debug, Clone)]
struct AnonId(String);

/// The CSRF token forms of this request must carry (empty when the request has neither a
/// session nor an anonymous cookie, which only happens outside [`page_layer`]).
pub fn csrf_token(parts: &Parts) -> String {
    if let Some(token) = session_token(&parts.headers) {
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
    let chosen = super::query_lang(request.uri().query()).and_then(|tag| Lang::from_tag(&tag));
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if let Some(id) = fresh {
        append_cookie(
            headers,
            &format!(
                "{CSRF_COOKIE}={id}; Path=/; HttpOnly; SameSite=Lax; Max-Age={LONG_MAX_AGE_SECS}"
            ),
        );
    }
    if let Some(lang) = chosen {
        append_cookie(
            headers,
            &format!(
                "{LANG_COOKIE}={}; Path=/; SameSite=Lax; Max-Age={LONG_MAX_AGE_SECS}",
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
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
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
    let actor = match session_token(&parts.headers) {
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
                let lang = super::LangPrefs::from_parts(parts).resolve(Lang::ZhHant);
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

/// The client address for rate limiting: the TCP peer (present when served with connect
/// info), else unspecified so in-process tests share one bucket per username.
pub fn client_ip(parts: &Parts) -> IpAddr {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip())
        .unwrap_or(IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED))
}

/// The client address of a request (see [`client_ip`]).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(client_ip(parts)))
    }
}

/// Counts events (failed logins, registrations) per (client address, name) in a sliding window
/// (SPEC §13: login and registration are rate-limited). In memory, per process: good enough to
/// stop password guessing or form flooding against one server.
#[derive(Debug)]
pub struct RateLimiter {
    max_failures: usize,
    window: Duration,
    failures: Mutex<HashMap<(IpAddr, String), Vec<Instant>>>,
}

impl RateLimiter {
    /// A limiter allowing `max_failures` events per `window`.
    pub fn new(max_failures: usize, window: Duration) -> RateLimiter {
        RateLimiter {
            max_failures,
            window,
            failures: Mutex::new(HashMap::new()),
        }
    }

    /// The limiter of failed logins: 10 per (address, username) per 10 minutes.
    pub fn logins() -> &'static RateLimiter {
        static LIMITER: OnceLock<RateLimiter> = OnceLock::new();
        LIMITER.get_or_init(|| RateLimiter::new(10, Duration::from_secs(600)))
    }

    /// The limiter of public registrations: 20 per (address, tournament) per hour, enough for
    /// a family or a school club registering from one connection.
    pub fn registrations() -> &'static RateLimiter {
        static LIMITER: OnceLock<RateLimiter> = OnceLock::new();
        LIMITER.get_or_init(|| RateLimiter::new(20, Duration::from_secs(3600)))
    }

    fn key(ip: IpAddr, username: &str) -> (IpAddr, String) {
        (ip, username.trim().to_lowercase())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(IpAddr, String), Vec<Instant>>> {
        // A panic while holding the lock leaves plain data behind; keep using it.
        self.failures
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether another attempt is allowed at `now`.
    pub fn allowed(&self, ip: IpAddr, username: &str, now: Instant) -> bool {
        let mut map = self.lock();
        let key = Self::key(ip, username);
        let Some(times) = map.get_mut(&key) else {
            return true;
        };
        times.retain(|t| now.duration_since(*t) < self.window);
        if times.is_empty() {
            map.remove(&key);
            return true;
        }
        times.len() < self.max_failures
    }

    /// Records an event (a failed attempt, a registration) at `now`.
    pub fn record(&self, ip: IpAddr, username: &str, now: Instant) {
        let mut map = self.lock();
        // Forget stale keys now and then so memory stays bounded under a spray of usernames.
        if map.len() > 10_000 {
            map.retain(|_, times| {
                times.retain(|t| now.duration_since(*t) < self.window);
                !times.is_empty()
            });
        }
        map.entry(Self::key(ip, username)).or_default().push(now);
    }

    /// Forgets the events of a key (after a successful login).
    pub fn record_success(&self, ip: IpAddr, username: &str) {
        self.lock().remove(&Self::key(ip, username));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limiter_blocks_after_the_allowed_failures_and_forgets_them_later() {
        let limiter = RateLimiter::new(3, Duration::from_secs(60));
        let ip = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
        let t0 = Instant::now();
        for i in 0..3 {
            assert!(limiter.allowed(ip, "Chief", t0 + Duration::from_secs(i)));
            limiter.record(ip, "Chief", t0 + Duration::from_secs(i));
        }
        assert!(!limiter.allowed(ip, "chief ", t0 + Duration::from_secs(5)));
        // Another user, or another address, is not affected.
        assert!(limiter.allowed(ip, "deputy", t0 + Duration::from_secs(5)));
        assert!(limiter.allowed(
            IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1)),
            "chief",
            t0
        ));
        // The first failure leaves the window after 60 s.
        assert!(limiter.allowed(ip, "chief", t0 + Duration::from_secs(61)));
        limiter.record_success(ip, "chief");
        assert!(limiter.allowed(ip, "chief", t0 + Duration::from_secs(62)));
    }

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
        assert_eq!(session_token(&headers), None, "not a token we issue");
    }
}
