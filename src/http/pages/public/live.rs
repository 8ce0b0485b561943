//! Cheap revalidation for the live public pages (SPEC §11: pairings, standings … update without
//! a reload). `static/js/app.js` polls the page it shows with `If-None-Match`; while nothing
//! changed the answer is a bodiless `304` that costs no rendering, and at most one indexed
//! query a second per section and process (the version is remembered, [`crate::http::cache`]).
//!
//! The entity tag hashes the data version of the section's tournament (its newest audit entry:
//! every change is audited in its own transaction) with everything else the page depends on:
//! the path and query, the visitor's language preferences, the login and CSRF token shown in
//! signed-in pages, and the build's id (a new build may render differently). Nothing in it
//! belongs to one process: every instance over the same database, built from the same
//! sources, gives the same tag, so a poll may reach any of them (SPEC §14).
//! An anonymous visitor's page carries nothing of its own (no form, no token), so every such
//! visitor shares one tag per page version, proxies may keep it for a few seconds, and the
//! rendered body is kept under its tag ([`crate::http::cache`]).

use crate::http::cache::Body;
use crate::http::page::PageCtx;
use crate::http::AppState;
use axum::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::Digest as _;
use std::future::Future;
use uuid::Uuid;

/// The build, named by a hash of its sources (`build.rs`), mixed into every tag: a tag a page
/// got from one instance is current on every instance of the same build.
const BUILD_ID: &str = env!("ARBITER_BUILD_ID");

/// The quoted entity tag of a section page as `ctx`'s visitor sees it.
async fn tag(state: &AppState, section_id: Uuid, ctx: &PageCtx) -> crate::service::Result<String> {
    let version = state
        .live
        .version(section_id, || {
            crate::service::sections::data_version(&state.db, section_id)
        })
        .await?;
    let mut hasher = sha2::Sha256::new();
    // Every part is length-prefixed, so two different lists of parts never hash alike.
    let mut part = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    part(BUILD_ID.as_bytes());
    part(section_id.as_bytes());
    part(&version.unwrap_or(-1).to_le_bytes());
    for variant in ctx.variant() {
        part(variant.as_deref().unwrap_or("\u{0}").as_bytes());
    }
    Ok(format!("\"{}\"", hex::encode(&hasher.finalize()[..16])))
}

/// Whether `If-None-Match` names `tag` (or is `*`); weak tags compare by their opaque part.
fn matches(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == tag)
}

/// `Cache-Control` of a page every anonymous visitor shares: a proxy or CDN may serve it for
/// a few seconds and a little longer while it revalidates; browsers ask again soon.
const SHARED: &str = "public, max-age=2, s-maxage=5, stale-while-revalidate=30";
/// `Cache-Control` of a signed-in visitor's page (it carries their name and CSRF token).
const PRIVATE: &str = "private, no-cache";
/// What a shared page depends on besides its URL.
const VARY_ON: &str = "Accept-Encoding, Accept-Language, Cookie";

/// Serves a live section page: `304 Not Modified` when the visitor's copy is current, else
/// `render`'s page with its `ETag` (for anonymous visitors, the body rendered once for this
/// tag, gzipped when the visitor accepts it). A failed version lookup only costs the
/// shortcuts.
pub async fn serve<F, Fut>(
    state: &AppState,
    section_id: Uuid,
    ctx: PageCtx,
    headers: &HeaderMap,
    render: F,
) -> Response
where
    F: FnOnce(PageCtx) -> Fut,
    Fut: Future<Output = Result<Response, crate::http::error::PageError>>,
{
    let tag = match tag(state, section_id, &ctx).await {
        Ok(tag) => tag,
        Err(err) => {
            tracing::warn!(%err, "live page version unavailable");
            return render(ctx).await.into_response();
        }
    };
    let shared = ctx.user.is_none();
    let cache_control = HeaderValue::from_static(if shared { SHARED } else { PRIVATE });
    let gzip = shared && accepts_gzip(headers);
    // The gzipped representation has a tag of its own (RFC 9110 §8.8.3); either answers a poll.
    let sent_tag = if gzip { gzip_tag(&tag) } else { tag.clone() };
    let Ok(sent_tag) = HeaderValue::from_str(&sent_tag) else {
        return render(ctx).await.into_response();
    };
    if matches(headers, &tag) || matches(headers, &gzip_tag(&tag)) {
        return (
            StatusCode::NOT_MODIFIED,
            [(ETAG, sent_tag), (CACHE_CONTROL, cache_control)],
        )
            .into_response();
    }
    let guard = if shared {
        match state.live.page(&tag).await {
            Ok(body) => return page_response(&body, gzip, sent_tag, cache_control),
            Err(guard) => Some(guard),
        }
    } else {
        None
    };
    let response = render(ctx).await.into_response();
    if response.status() != StatusCode::OK {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Some(guard) = guard else {
        parts.headers.insert(ETAG, sent_tag);
        parts.headers.insert(CACHE_CONTROL, cache_control);
        return Response::from_parts(parts, body);
    };
    match axum::body::to_bytes(body, usize::MAX).await {
        Ok(html) => {
            let body = Body::new(html);
            guard.keep(body.clone());
            page_response(&body, gzip, sent_tag, cache_control)
        }
        Err(err) => crate::http::error::PageError::from_service(
            crate::service::Error::Internal(format!("reading a rendered page: {err}")),
            crate::i18n::Lang::En,
        )
        .into_response(),
    }
}

/// The tag of the gzipped representation.
fn gzip_tag(tag: &str) -> String {
    format!("{}-gz\"", tag.trim_end_matches('"'))
}

/// Whether `Accept-Encoding` takes gzip (not refused with `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
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

fn page_response(
    body: &Body,
    gzip: bool,
    tag: HeaderValue,
    cache_control: HeaderValue,
) -> Response {
    let mut response = (
        StatusCode::OK,
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (ETAG, tag),
            (CACHE_CONTROL, cache_control),
            (VARY, HeaderValue::from_static(VARY_ON)),
        ],
    )
        .into_response();
    let bytes = if gzip && !body.gzip.is_empty() {
        response
            .headers_mut()
            .insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        body.gzip.clone()
    } else {
        body.identity.clone()
    };
    *response.body_mut() = axum::body::Body::from(bytes);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_accepts_lists_weak_tags_and_star() {
        let mut headers = HeaderMap::new();
        assert!(!matches(&headers, "\"abc\""));
        headers.insert(IF_NONE_MATCH, HeaderValue::from_static("\"x\", W/\"abc\""));
        assert!(matches(&headers, "\"abc\""));
        assert!(!matches(&headers, "\"ab\""));
        headers.insert(IF_NONE_MATCH, HeaderValue::from_static("*"));
        assert!(matches(&headers, "\"anything\""));
    }

    #[test]
    fn gzip_is_taken_unless_refused() {
        let with = |value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(ACCEPT_ENCODING, HeaderValue::from_static(value));
            accepts_gzip(&headers)
        };
        assert!(with("gzip, deflate, br"));
        assert!(with("br;q=1.0, GZIP;q=0.5"));
        assert!(with("*"));
        assert!(!with("gzip;q=0"));
        assert!(!with("br"));
        assert!(!accepts_gzip(&HeaderMap::new()));
        assert_eq!(gzip_tag("\"abc\""), "\"abc-gz\"");
    }
}
