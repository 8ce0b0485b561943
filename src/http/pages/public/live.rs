//! Cheap revalidation for the live public pages (SPEC §11: pairings, standings … update without
//! a reload). `static/js/app.js` polls the page it shows with `If-None-Match`; while nothing
//! changed the answer is a bodiless `304` that costs one indexed query and no rendering.
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

use crate::http::page::PageCtx;
use crate::http::AppState;
use axum::body::Bytes;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY};
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

/// Serves a live section page: `304 Not Modified` when the visitor's copy is current, else
/// `render`'s page with its `ETag` (for anonymous visitors, the body rendered once for this
/// tag). A failed version lookup only costs the shortcuts.
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
        Ok(tag) => HeaderValue::from_str(&tag).ok(),
        Err(err) => {
            tracing::warn!(%err, "live page version unavailable");
            None
        }
    };
    let shared = ctx.user.is_none();
    let cache_control = HeaderValue::from_static(if shared { SHARED } else { PRIVATE });
    let Some(tag) = tag else {
        return render(ctx).await.into_response();
    };
    if matches(headers, tag.to_str().unwrap_or_default()) {
        return (
            StatusCode::NOT_MODIFIED,
            [(ETAG, tag), (CACHE_CONTROL, cache_control)],
        )
            .into_response();
    }
    let guard = if shared {
        match state.live.page(tag.to_str().unwrap_or_default()).await {
            Ok(body) => return page_response(body, tag, cache_control),
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
    parts.headers.insert(ETAG, tag);
    parts.headers.insert(CACHE_CONTROL, cache_control);
    if shared {
        parts
            .headers
            .insert(VARY, HeaderValue::from_static(VARY_ON));
    }
    let Some(guard) = guard else {
        return Response::from_parts(parts, body);
    };
    match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => {
            guard.keep(bytes.clone());
            Response::from_parts(parts, axum::body::Body::from(bytes))
        }
        Err(err) => crate::http::error::PageError::from_service(
            crate::service::Error::Internal(format!("reading a rendered page: {err}")),
            crate::i18n::Lang::En,
        )
        .into_response(),
    }
}

/// What a shared page depends on besides its URL: the language preferences.
const VARY_ON: &str = "Accept-Language, Cookie";

fn page_response(body: Bytes, tag: HeaderValue, cache_control: HeaderValue) -> Response {
    (
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
        body,
    )
        .into_response()
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
}
