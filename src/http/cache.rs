//! The hall of phones (issue #17): a section's live pages are rendered once per data version,
//! however many visitors poll them.
//!
//! - **Versions.** A section's data version (its tournament's newest audit entry) is read from
//!   the database at most once per [`VERSION_TTL`] per process, and forgotten at once after any
//!   write this process answers ([`forget_after_writes`]), so a change made here shows at once
//!   and a change made by another instance within [`VERSION_TTL`].
//! - **Pages.** What an anonymous visitor sees depends only on the page's path and query, the
//!   language preferences and the data version — the entity tag hashes exactly those — so the
//!   rendered body is kept under its tag. When a change makes every phone miss at once, one
//!   request renders and the others wait for its body (the cache's placeholder), instead of
//!   two hundred renders of the same standings.
//!
//! Signed-in visitors are never served from or into the cache: their pages carry their name
//! and CSRF token.

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::header::{
    ACCEPT_ENCODING, AUTHORIZATION, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG,
    IF_NONE_MATCH, SET_COOKIE, VARY,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use quick_cache::sync::Cache;
use quick_cache::Weighter;
use sha2::Digest as _;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use uuid::Uuid;

mod shared;
mod wrote;
pub use shared::{section_version_now, serve_shared, Shared};

/// How long a section's data version read from the database is believed.
pub const VERSION_TTL: Duration = Duration::from_millis(1000);

/// How often an anonymous live page is checked against the data version and rendered again
/// when behind: at most once per page and process in this interval, however many versions
/// pass; meanwhile every visitor gets the last body (stale-while-revalidate), so a page is
/// at most about this old (plus one render) while results arrive.
pub const REFRESH: Duration = Duration::from_millis(1000);
const REFRESH_MS: u64 = REFRESH.as_millis() as u64;

/// Rendered bodies kept, in bytes (a 1,000-entrant standings page is about 325 KB).
const PAGE_BYTES: u64 = 64 * 1024 * 1024;

/// A rendered live page, as rendered and gzipped (phones ask for gzip; compressing once per
/// page version instead of once per request keeps a hall of phones cheap). The gzipped copy
/// is made when first asked for, not as part of the render (about as long as the render of
/// a 1,000-entrant standings page itself).
#[derive(Clone)]
pub struct Body {
    /// The HTML.
    pub identity: Bytes,
    gzip: Arc<std::sync::OnceLock<Bytes>>,
}

impl Body {
    /// Keeps `html`.
    pub fn new(html: Bytes) -> Body {
        Body {
            identity: html,
            gzip: Arc::new(std::sync::OnceLock::new()),
        }
    }

    /// The same, gzipped (empty if compressing failed).
    pub fn gzip(&self) -> &Bytes {
        self.gzip.get_or_init(|| {
            use std::io::Write as _;
            let mut encoder = flate2::write::GzEncoder::new(
                Vec::with_capacity(self.identity.len() / 6),
                Default::default(),
            );
            // Writing into a Vec cannot fail.
            match encoder
                .write_all(&self.identity)
                .and_then(|()| encoder.finish())
            {
                Ok(bytes) => Bytes::from(bytes),
                Err(_) => Bytes::new(),
            }
        })
    }
}

/// A live page's last rendered body for anonymous visitors, under its entity tag.
pub struct Latest {
    /// The entity tag of `body` (it names the data version it was rendered at).
    pub tag: String,
    /// The data version it was rendered at.
    pub version: Option<i64>,
    /// The page.
    pub body: Body,
    /// When (milliseconds since the cache's start) someone may next check whether the body
    /// is still current: the interval's one turn is taken by a compare-and-set.
    next_check: AtomicU64,
}

#[derive(Clone)]
struct LatestWeight;

impl Weighter<String, Arc<Latest>> for LatestWeight {
    fn weight(&self, key: &String, latest: &Arc<Latest>) -> u64 {
        // The gzipped copy, made later, is a fifth of the page or less.
        (key.len() + latest.tag.len() + latest.body.identity.len() * 6 / 5) as u64
    }
}

/// The live pages' caches of one server process.
pub struct LiveCache {
    versions: Mutex<HashMap<Uuid, (Instant, Option<i64>)>>,
    /// Each page's last body, by the page's key (its tag without the data version).
    pages: Cache<String, Arc<Latest>, LatestWeight>,
    started: Instant,
    renders: AtomicU64,
    /// Renders of a visitor who must see the current version, one at a time per page: the
    /// others asking meanwhile wait and get its body.
    own_renders: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Signs the anonymous writer's cookie.
    wrote: wrote::WroteKey,
}

impl Default for LiveCache {
    fn default() -> Self {
        LiveCache {
            versions: Mutex::new(HashMap::new()),
            pages: Cache::with_weighter(512, PAGE_BYTES, LatestWeight),
            // An epoch before anything the cache is told about (a render's start).
            started: Instant::now()
                .checked_sub(Duration::from_secs(3600))
                .unwrap_or_else(Instant::now),
            renders: AtomicU64::new(0),
            own_renders: Mutex::new(HashMap::new()),
            wrote: wrote::WroteKey::default(),
        }
    }
}

/// What an anonymous request for a live page does ([`LiveCache::lookup`]).
pub enum Lookup<'a> {
    /// Serves this body: it is current, or was checked less than [`REFRESH`] ago, or another
    /// request is checking it now (stale-while-revalidate).
    Serve(Arc<Latest>),
    /// This request has the interval's turn: it checks the data version and, when the body
    /// is behind, renders the page again ([`LiveCache::keep`]) while others get this body.
    Check(Arc<Latest>, Instant),
    /// Nothing rendered yet: this request renders; others asking meanwhile wait for its body.
    Render(PageGuard<'a>),
}

impl LiveCache {
    /// The data version of a section: remembered for [`VERSION_TTL`], else `load`ed.
    pub async fn version<F, Fut, E>(&self, section_id: Uuid, load: F) -> Result<Option<i64>, E>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<Option<i64>, E>>,
    {
        if let Some(version) = self.remembered(section_id) {
            return Ok(version);
        }
        self.reload(section_id, load).await
    }

    /// The data version of a section as `load` reads it now (and remembered).
    pub async fn reload<F, Fut, E>(&self, section_id: Uuid, load: F) -> Result<Option<i64>, E>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<Option<i64>, E>>,
    {
        let asked = Instant::now();
        let version = load().await?;
        if let Ok(mut versions) = self.versions.lock() {
            // A map of every section ever polled stays small (sections, not visitors), but a
            // server running for months drops what it no longer serves.
            if versions.len() > 10_000 {
                versions.retain(|_, (at, _)| at.elapsed() < VERSION_TTL);
            }
            // A slower read that started earlier does not replace a later one.
            let later = versions.get(&section_id).is_some_and(|(at, _)| *at > asked);
            if !later {
                versions.insert(section_id, (asked, version));
            }
        }
        Ok(version)
    }

    fn remembered(&self, section_id: Uuid) -> Option<Option<i64>> {
        let versions = self.versions.lock().ok()?;
        let (at, version) = versions.get(&section_id)?;
        (at.elapsed() < VERSION_TTL).then_some(*version)
    }

    /// Forgets every remembered version (after a write: the next poll reads the new one).
    pub fn forget_versions(&self) {
        if let Ok(mut versions) = self.versions.lock() {
            versions.clear();
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// What a request for the page `key` does: serve the last body, check it (one request
    /// per [`REFRESH`]), or render the first one.
    pub async fn lookup(&self, key: &str) -> Lookup<'_> {
        let latest = match self.pages.get(key) {
            Some(latest) => latest,
            None => match self.pages.get_value_or_guard_async(key).await {
                // Rendered by the request this one waited for: current.
                Ok(latest) => return Lookup::Serve(latest),
                Err(guard) => return Lookup::Render(PageGuard(guard)),
            },
        };
        let now = self.now_ms();
        let next = latest.next_check.load(Ordering::Acquire);
        let turn = now >= next
            && latest
                .next_check
                .compare_exchange(next, now + REFRESH_MS, Ordering::AcqRel, Ordering::Acquire)
                .is_ok();
        if turn {
            Lookup::Check(latest, Instant::now())
        } else {
            Lookup::Serve(latest)
        }
    }

    /// The turn to render the page `key` for a visitor who must see the current version:
    /// one such render per page at a time, so a burst of them (or a client claiming to be
    /// one) costs one render per version, not one per request.
    pub async fn own_turn(&self, key: &str) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = match self.own_renders.lock() {
            Ok(mut turns) => {
                if turns.len() > 1_000 {
                    turns.retain(|_, lock| Arc::strong_count(lock) > 1);
                }
                turns.entry(key.to_string()).or_default().clone()
            }
            Err(_) => Arc::new(tokio::sync::Mutex::new(())),
        };
        lock.lock_owned().await
    }

    /// Whether the request carries the anonymous writer's cookie, signed by this process and
    /// fresh ([`WROTE_COOKIE`]).
    pub fn wrote(&self, headers: &HeaderMap) -> bool {
        crate::http::session::cookie(headers, WROTE_COOKIE)
            .is_some_and(|value| self.wrote.verify(value))
    }

    /// The last body of the page `key`, if any (for a visitor who must see the current
    /// version: they compare its tag and render themselves when it is behind).
    pub fn last(&self, key: &str) -> Option<Arc<Latest>> {
        self.pages.get(key)
    }

    /// Keeps a body just rendered (from `since`) at `version` under `tag` as the page's
    /// last, unless a newer one is there already; counts the render. Its next check is
    /// [`REFRESH`] after `since`.
    pub fn keep(
        &self,
        key: &str,
        tag: String,
        version: Option<i64>,
        body: Body,
        since: Instant,
    ) -> Arc<Latest> {
        self.rendered();
        let latest = self.latest(tag, version, body, since);
        let newer = self
            .pages
            .get(key)
            .filter(|kept| kept.version > latest.version);
        match newer {
            Some(kept) => kept,
            None => {
                self.pages.insert(key.to_string(), latest.clone());
                latest
            }
        }
    }

    fn latest(&self, tag: String, version: Option<i64>, body: Body, since: Instant) -> Arc<Latest> {
        let since_ms = self
            .now_ms()
            .saturating_sub(u64::try_from(since.elapsed().as_millis()).unwrap_or(0));
        Arc::new(Latest {
            tag,
            version,
            body,
            next_check: AtomicU64::new(since_ms + REFRESH_MS),
        })
    }

    fn rendered(&self) {
        self.renders.fetch_add(1, Ordering::Relaxed);
        crate::metrics::metrics().live_rendered();
    }

    /// How many live pages this process rendered for anonymous visitors (also counted in
    /// `/metrics` as `arbiter_live_page_renders_total`).
    pub fn renders(&self) -> u64 {
        self.renders.load(Ordering::Relaxed)
    }
}

/// The right to render a page nobody has rendered yet; dropping it without
/// [`PageGuard::keep`] lets the next request try.
pub struct PageGuard<'a>(
    quick_cache::sync::PlaceholderGuard<
        'a,
        String,
        Arc<Latest>,
        LatestWeight,
        quick_cache::DefaultHashBuilder,
        quick_cache::sync::DefaultLifecycle<String, Arc<Latest>>,
    >,
);

impl PageGuard<'_> {
    /// Keeps the body rendered (from `since`) for everyone else asking for the same page.
    pub fn keep(
        self,
        cache: &LiveCache,
        tag: String,
        version: Option<i64>,
        body: Body,
        since: Instant,
    ) -> Arc<Latest> {
        cache.rendered();
        let latest = cache.latest(tag, version, body, since);
        // Someone replaced the placeholder meanwhile: their body is as good as ours.
        let _ = self.0.insert(latest.clone());
        latest
    }
}

/// The build, named by a hash of its sources (`build.rs`), mixed into every tag: a tag a
/// client got from one instance is current on every instance of the same build.
const BUILD_ID: &str = env!("ARBITER_BUILD_ID");

/// `Cache-Control` of what every anonymous visitor shares: a proxy or CDN may serve it for a
/// few seconds and a little longer while it revalidates; browsers ask again soon.
pub const SHARED: &str = "public, max-age=2, s-maxage=5, stale-while-revalidate=30";
/// `Cache-Control` of a signed-in visitor's page (it carries their name and CSRF token).
pub const PRIVATE: &str = "private, no-cache";

/// A section's data version, remembered for [`VERSION_TTL`] by this process.
pub async fn section_version(
    state: &crate::http::AppState,
    section_id: Uuid,
) -> crate::service::Result<Option<i64>> {
    state
        .live
        .version(section_id, || {
            crate::service::sections::data_version(&state.db, section_id)
        })
        .await
}

/// The quoted entity tag of what a section's data at `version` looks like through `parts`
/// (the path, the query, the language preferences… whatever else the answer depends on).
/// Nothing in it belongs to one process: every instance of the same build over the same
/// database gives the same tag.
pub fn tag<'a>(
    section_id: Uuid,
    version: Option<i64>,
    parts: impl IntoIterator<Item = Option<&'a str>>,
) -> String {
    format!(
        "\"{}\"",
        digest(section_id, &version.unwrap_or(-1).to_le_bytes(), parts)
    )
}

/// The key of a page's last body in [`LiveCache`]: what its tag hashes but the data version.
pub fn key<'a>(section_id: Uuid, parts: impl IntoIterator<Item = Option<&'a str>>) -> String {
    digest(section_id, b"any version", parts)
}

fn digest<'a>(
    section_id: Uuid,
    version: &[u8],
    parts: impl IntoIterator<Item = Option<&'a str>>,
) -> String {
    let mut hasher = sha2::Sha256::new();
    // Every part is length-prefixed, so two different lists of parts never hash alike.
    let mut part = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    part(BUILD_ID.as_bytes());
    part(section_id.as_bytes());
    part(version);
    for variant in parts {
        part(variant.unwrap_or("\u{0}").as_bytes());
    }
    hex::encode(&hasher.finalize()[..16])
}

/// Whether `If-None-Match` names `tag` (or is `*`); weak tags compare by their opaque part.
pub fn if_none_match(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == tag)
}

/// The tag of the gzipped representation (RFC 9110 §8.8.3: it has a tag of its own).
pub fn gzip_tag(tag: &str) -> String {
    format!("{}-gz\"", tag.trim_end_matches('"'))
}

/// Whether `Accept-Encoding` takes gzip (not refused with `q=0`).
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// A `200` with a kept body, gzipped when the client takes it.
pub fn response(
    body: &Body,
    content_type: &'static str,
    vary: &'static str,
    gzip: bool,
    tag: HeaderValue,
    cache_control: HeaderValue,
) -> Response {
    let mut response = (
        StatusCode::OK,
        [
            (CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (ETAG, tag),
            (CACHE_CONTROL, cache_control),
            (VARY, HeaderValue::from_static(vary)),
        ],
    )
        .into_response();
    let bytes = if gzip && !body.gzip().is_empty() {
        response
            .headers_mut()
            .insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        body.gzip().clone()
    } else {
        body.identity.clone()
    };
    *response.body_mut() = axum::body::Body::from(bytes);
    response
}

/// A `304 Not Modified` for a client whose copy is current.
pub fn not_modified(tag: HeaderValue, cache_control: HeaderValue) -> Response {
    (
        StatusCode::NOT_MODIFIED,
        [(ETAG, tag), (CACHE_CONTROL, cache_control)],
    )
        .into_response()
}

/// A cookie a write by an anonymous visitor (no session, no bearer token) is answered with,
/// for a few seconds: their next live pages show the current version instead of the hall's
/// last body. It holds its expiry, signed by this process (`cache/wrote.rs`), so it cannot be
/// forged to skip the shared body.
pub const WROTE_COOKIE: &str = "arbiter_wrote";

/// A middleware: after any request that may have written (anything but GET, HEAD and
/// OPTIONS), the remembered versions are forgotten, so this process's own changes show on
/// the next poll of a signed-in visitor (and of the anonymous writer, [`WROTE_COOKIE`]).
pub async fn forget_after_writes(
    State((cache, secure)): State<(Arc<LiveCache>, bool)>,
    request: Request,
    next: Next,
) -> Response {
    let writes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let anonymous = writes
        && !request.headers().contains_key(AUTHORIZATION)
        && crate::http::session::cookie(request.headers(), crate::http::session::SESSION_COOKIE)
            .is_none()
        && crate::http::session::cookie(
            request.headers(),
            crate::http::session::SECURE_SESSION_COOKIE,
        )
        .is_none();
    let mut response = next.run(request).await;
    if writes {
        cache.forget_versions();
    }
    let status = response.status();
    if anonymous && (status.is_success() || status.is_redirection()) {
        let cookie = format!(
            "{WROTE_COOKIE}={}; Path=/; Max-Age={}; HttpOnly; SameSite=Lax{}",
            cache.wrote.value(),
            wrote::WROTE_SECONDS,
            if secure { "; Secure" } else { "" }
        );
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    response
}

#[cfg(test)]
mod tests;
