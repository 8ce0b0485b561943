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
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use quick_cache::sync::Cache;
use quick_cache::Weighter;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use uuid::Uuid;

/// How long a section's data version read from the database is believed.
pub const VERSION_TTL: Duration = Duration::from_millis(1000);

/// Rendered bodies kept, in bytes (a 1,000-entrant standings page is about 325 KB).
const PAGE_BYTES: u64 = 64 * 1024 * 1024;

/// A rendered live page, as rendered and gzipped (phones ask for gzip; compressing once per
/// page version instead of once per request keeps a hall of phones cheap).
#[derive(Clone)]
pub struct Body {
    /// The HTML.
    pub identity: Bytes,
    /// The same, gzipped.
    pub gzip: Bytes,
}

impl Body {
    /// Keeps `html` and its gzipped copy.
    pub fn new(html: Bytes) -> Body {
        use std::io::Write as _;
        let mut encoder =
            flate2::write::GzEncoder::new(Vec::with_capacity(html.len() / 6), Default::default());
        // Writing into a Vec cannot fail.
        let gzip = match encoder.write_all(&html).and_then(|()| encoder.finish()) {
            Ok(bytes) => Bytes::from(bytes),
            Err(_) => Bytes::new(),
        };
        Body {
            identity: html,
            gzip,
        }
    }
}

#[derive(Clone)]
struct BodyWeight;

impl Weighter<String, Body> for BodyWeight {
    fn weight(&self, key: &String, body: &Body) -> u64 {
        (key.len() + body.identity.len() + body.gzip.len()) as u64
    }
}

/// The live pages' caches of one server process.
pub struct LiveCache {
    versions: Mutex<HashMap<Uuid, (Instant, Option<i64>)>>,
    pages: Cache<String, Body, BodyWeight>,
}

impl Default for LiveCache {
    fn default() -> Self {
        LiveCache {
            versions: Mutex::new(HashMap::new()),
            pages: Cache::with_weighter(512, PAGE_BYTES, BodyWeight),
        }
    }
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
        let asked = Instant::now();
        let version = load().await?;
        if let Ok(mut versions) = self.versions.lock() {
            // A map of every section ever polled stays small (sections, not visitors), but a
            // server running for months drops what it no longer serves.
            if versions.len() > 10_000 {
                versions.retain(|_, (at, _)| at.elapsed() < VERSION_TTL);
            }
            versions.insert(section_id, (asked, version));
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

    /// The body rendered under `tag`, or the right to render it: while one request holds
    /// the guard, others asking for the same tag wait for its body.
    pub async fn page(&self, tag: &str) -> Result<Body, PageGuard<'_>> {
        self.pages
            .get_value_or_guard_async(tag)
            .await
            .map_err(PageGuard)
    }
}

/// The right to render a page nobody has rendered yet; dropping it without
/// [`PageGuard::keep`] lets the next request try.
pub struct PageGuard<'a>(
    quick_cache::sync::PlaceholderGuard<
        'a,
        String,
        Body,
        BodyWeight,
        quick_cache::DefaultHashBuilder,
        quick_cache::sync::DefaultLifecycle<String, Body>,
    >,
);

impl PageGuard<'_> {
    /// Keeps the rendered body for everyone else asking for the same tag.
    pub fn keep(self, body: Body) {
        // Someone replaced the placeholder meanwhile: their body is as good as ours.
        let _ = self.0.insert(body);
    }
}

/// A middleware: after any request that may have written (anything but GET, HEAD and
/// OPTIONS), the remembered versions are forgotten, so this process's own changes show on
/// the next poll.
pub async fn forget_after_writes(
    State(cache): State<Arc<LiveCache>>,
    request: Request,
    next: Next,
) -> Response {
    let writes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let response = next.run(request).await;
    if writes {
        cache.forget_versions();
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_version_is_read_once_until_forgotten() {
        let cache = LiveCache::default();
        let section = Uuid::new_v4();
        let mut reads = 0;
        for _ in 0..3 {
            let v = cache
                .version(section, || {
                    reads += 1;
                    async { Ok::<_, ()>(Some(7)) }
                })
                .await;
            assert_eq!(v, Ok(Some(7)));
        }
        assert_eq!(reads, 1);
        cache.forget_versions();
        let v = cache
            .version(section, || async { Ok::<_, ()>(Some(8)) })
            .await;
        assert_eq!(v, Ok(Some(8)));
    }

    #[tokio::test]
    async fn one_render_serves_every_waiter() {
        let cache = Arc::new(LiveCache::default());
        let guard = match cache.page("\"t\"").await {
            Err(guard) => guard,
            Ok(_) => panic!("nothing rendered yet"),
        };
        let waiter = {
            let cache = cache.clone();
            tokio::spawn(async move { cache.page("\"t\"").await.ok() })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        guard.keep(Body::new(Bytes::from_static(b"<p>page</p>")));
        let got = waiter.await.unwrap().expect("the body rendered once");
        assert_eq!(&got.identity[..], b"<p>page</p>");
        let mut html = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&got.gzip[..]), &mut html)
            .unwrap();
        assert_eq!(html, "<p>page</p>");
        assert!(cache.page("\"t\"").await.is_ok());
    }
}
