//! Cheap revalidation for the live public pages (SPEC §11: pairings, standings … update without
//! a reload). `static/js/app.js` polls the page it shows with `If-None-Match`; while nothing
//! changed the answer is a bodiless `304` that costs one indexed query and no rendering.
//!
//! The entity tag hashes the data version of the section's tournament (its newest audit entry:
//! every change is audited in its own transaction) with everything else the page depends on:
//! the path and query, the visitor's language preferences, the login and CSRF token shown in
//! the page, and a per-process nonce (a new build or restart may render differently).

use crate::http::page::PageCtx;
use crate::http::AppState;
use axum::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use rand_core::RngCore as _;
use sha2::Digest as _;
use std::future::Future;
use std::sync::OnceLock;
use uuid::Uuid;

/// A random value per server process, mixed into every tag.
fn process_nonce() -> &'static [u8; 16] {
    static NONCE: OnceLock<[u8; 16]> = OnceLock::new();
    NONCE.get_or_init(|| {
        let mut bytes = [0u8; 16];
        rand_core::OsRng.fill_bytes(&mut bytes);
        bytes
    })
}

/// The quoted entity tag of a section page as `ctx`'s visitor sees it.
async fn tag(state: &AppState, section_id: Uuid, ctx: &PageCtx) -> crate::service::Result<String> {
    let version = crate::service::sections::data_version(&state.db, section_id).await?;
    let mut hasher = sha2::Sha256::new();
    // Every part is length-prefixed, so two different lists of parts never hash alike.
    let mut part = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    part(process_nonce());
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

/// Serves a live section page: `304 Not Modified` when the visitor's copy is current, else
/// `render`'s page with its `ETag`. A failed version lookup only costs the shortcut.
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
    // Browsers must ask again every time (the page changes during a round), but may reuse
    // their copy when told it is still current; shared caches keep none (the page carries
    // the visitor's CSRF token).
    let no_cache = HeaderValue::from_static("private, no-cache");
    if let Some(tag) = &tag {
        if matches(headers, tag.to_str().unwrap_or_default()) {
            return (
                StatusCode::NOT_MODIFIED,
                [(ETAG, tag.clone()), (CACHE_CONTROL, no_cache)],
            )
                .into_response();
        }
    }
    let mut response = render(ctx).await.into_response();
    if response.status() == StatusCode::OK {
        if let Some(tag) = tag {
            response.headers_mut().insert(ETAG, tag);
            response.headers_mut().insert(CACHE_CONTROL, no_cache);
        }
    }
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
}
