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
//!
//! While results arrive, an anonymous visitor's page is served stale-while-revalidate
//! ([`cache::serve_shared`]): at most one render per page, process and [`cache::REFRESH`],
//! however many versions pass, and meanwhile the last body. A signed-in visitor's page (the
//! desk's own) and the next pages of an anonymous visitor who has just written (the
//! [`cache::WROTE_COOKIE`] a write answers them with) show the current version at once.

use crate::http::cache::{self, if_none_match, Shared, PRIVATE};
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

/// Serves a live section page: `304 Not Modified` when the visitor's copy is current, else
/// `render`'s page with its `ETag` (for anonymous visitors, the page's last body, rendered
/// again at most once per [`cache::REFRESH`], gzipped when the visitor accepts it). A failed
/// version lookup only costs the shortcuts.
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
    if ctx.user.is_none() {
        let variant: Vec<Option<String>> = ctx
            .variant()
            .into_iter()
            .map(|v| v.map(std::borrow::Cow::into_owned))
            .collect();
        let shared = Shared {
            section_id,
            parts: variant.iter().map(Option::as_deref).collect(),
            own: state.live.wrote(headers),
            content_type: HTML,
            vary: VARY_ON,
        };
        return cache::serve_shared(state, shared, headers, move || async move {
            let response = render(ctx).await.into_response();
            if response.status() != StatusCode::OK {
                return Err(response);
            }
            axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .map_err(|err| {
                    crate::http::error::PageError::from_service(
                        crate::service::Error::Internal(format!("reading a rendered page: {err}")),
                        crate::i18n::Lang::En,
                    )
                    .into_response()
                })
        })
        .await;
    }
    // A signed-in visitor's page carries their name and token: never shared, always current.
    let tag = match cache::section_version(state, section_id).await {
        Ok(version) => cache::tag(
            section_id,
            version,
            ctx.variant().iter().map(|v| v.as_deref()),
        ),
        Err(err) => {
            tracing::warn!(%err, "live page version unavailable");
            return render(ctx).await.into_response();
        }
    };
    let cache_control = HeaderValue::from_static(PRIVATE);
    let Ok(sent_tag) = HeaderValue::from_str(&tag) else {
        return render(ctx).await.into_response();
    };
    if if_none_match(headers, &tag) {
        return cache::not_modified(sent_tag, cache_control);
    }
    let response = render(ctx).await.into_response();
    if response.status() != StatusCode::OK {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    parts.headers.insert(ETAG, sent_tag);
    parts.headers.insert(CACHE_CONTROL, cache_control);
    Response::from_parts(parts, body)
}
