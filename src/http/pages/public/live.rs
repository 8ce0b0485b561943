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

use crate::http::cache::{self, accepts_gzip, gzip_tag, if_none_match, Body, PRIVATE, SHARED};
use crate::http::page::PageCtx;
use crate::http::AppState;
use axum::http::header::{CACHE_CONTROL, ETAG};

use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::future::Future;
use uuid::Uuid;

/// What a shared page depends on besides its URL.
const VARY_ON: &str = "Accept-Encoding, Accept-Language, Cookie";
const HTML: &str = "text/html; charset=utf-8";

/// The quoted entity tag of a section page as `ctx`'s visitor sees it.
async fn tag(state: &AppState, section_id: Uuid, ctx: &PageCtx) -> crate::service::Result<String> {
    let version = cache::section_version(state, section_id).await?;
    Ok(cache::tag(
        section_id,
        version,
        ctx.variant().iter().map(|v| v.as_deref()),
    ))
}

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
    if if_none_match(headers, &tag) || if_none_match(headers, &gzip_tag(&tag)) {
        return cache::not_modified(sent_tag, cache_control);
    }
    let guard = if shared {
        match state.live.page(&tag).await {
            Ok(body) => {
                return cache::response(&body, HTML, VARY_ON, gzip, sent_tag, cache_control)
            }
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
            cache::response(&body, HTML, VARY_ON, gzip, sent_tag, cache_control)
        }
        Err(err) => crate::http::error::PageError::from_service(
            crate::service::Error::Internal(format!("reading a rendered page: {err}")),
            crate::i18n::Lang::En,
        )
        .into_response(),
    }
}
