//! Serving a live answer shared by every anonymous visitor: the last body while it is fresh
//! enough, one check and render per page and [`super::REFRESH`] while results arrive.

use super::{
    accepts_gzip, gzip_tag, if_none_match, key, not_modified, response, section_version, tag, Body,
    Latest, Lookup, SHARED,
};
use axum::body::Bytes;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse as _, Response};
use std::time::Instant;
use uuid::Uuid;

/// A section's data version read now (and remembered).
pub async fn section_version_now(
    state: &crate::http::AppState,
    section_id: Uuid,
) -> crate::service::Result<Option<i64>> {
    state
        .live
        .reload(section_id, || {
            crate::service::sections::data_version(&state.db, section_id)
        })
        .await
}

/// What a shared live answer is and how it is made ([`serve_shared`]).
pub struct Shared<'a> {
    /// The section whose data it shows.
    pub section_id: Uuid,
    /// Everything else it depends on (path, query, language preferences…).
    pub parts: Vec<Option<&'a str>>,
    /// Whether this visitor must see the current version (they just wrote): they get the
    /// current body, rendering it when the last one is behind.
    pub own: bool,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// `Vary`.
    pub vary: &'static str,
}

/// Serves a live answer shared by every anonymous visitor (stale-while-revalidate): the
/// page's last body while it was checked less than [`super::REFRESH`] ago or another request is
/// checking it; else this request checks the data version and renders again when the body
/// is behind. The first body is rendered once however many ask for it at once (they wait
/// for it). `304` when `If-None-Match` names the tag of the body served. `render` gives the
/// body, or the response to send instead (an error, which is not kept).
pub async fn serve_shared<F, Fut>(
    state: &crate::http::AppState,
    shared: Shared<'_>,
    headers: &HeaderMap,
    render: F,
) -> Response
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Result<Bytes, Response>>,
{
    let Shared {
        section_id,
        parts,
        own,
        content_type,
        vary,
    } = shared;
    let live = &state.live;
    let gzip = accepts_gzip(headers);
    let answer = |latest: &Latest| {
        let sent = if gzip {
            gzip_tag(&latest.tag)
        } else {
            latest.tag.clone()
        };
        let sent = HeaderValue::from_str(&sent).unwrap_or(HeaderValue::from_static("\"\""));
        let cache_control = HeaderValue::from_static(SHARED);
        if if_none_match(headers, &latest.tag) || if_none_match(headers, &gzip_tag(&latest.tag)) {
            not_modified(sent, cache_control)
        } else {
            response(&latest.body, content_type, vary, gzip, sent, cache_control)
        }
    };
    let key = key(section_id, parts.iter().copied());
    let tag_at = |version| tag(section_id, version, parts.iter().copied());
    // Held while this request renders for a visitor who must see the current version.
    let mut _own_turn = None;
    let (version, since, guard) = if own {
        let since = Instant::now();
        match section_version(state, section_id).await {
            Ok(version) => match live.last(&key) {
                Some(last) if last.tag == tag_at(version) => return answer(&last),
                _ => {
                    // One render per page at a time: whoever waited gets the body just kept.
                    _own_turn = Some(live.own_turn(&key).await);
                    match live.last(&key) {
                        Some(last) if last.tag == tag_at(version) => return answer(&last),
                        _ => (version, since, None),
                    }
                }
            },
            Err(err) => {
                tracing::warn!(%err, "live page version unavailable");
                return uncached(render().await, content_type);
            }
        }
    } else {
        match live.lookup(&key).await {
            Lookup::Serve(latest) => return answer(&latest),
            Lookup::Check(latest, since) => match section_version_now(state, section_id).await {
                Ok(version) if tag_at(version) == latest.tag => return answer(&latest),
                Ok(version) => (version, since, None),
                Err(err) => {
                    tracing::warn!(%err, "live page version unavailable");
                    return answer(&latest);
                }
            },
            Lookup::Render(guard) => {
                let since = Instant::now();
                match section_version(state, section_id).await {
                    Ok(version) => (version, since, Some(guard)),
                    Err(err) => {
                        tracing::warn!(%err, "live page version unavailable");
                        drop(guard);
                        return uncached(render().await, content_type);
                    }
                }
            }
        }
    };
    let body = match render().await {
        Ok(bytes) => Body::new(bytes),
        Err(response) => return response,
    };
    let latest = match guard {
        Some(guard) => guard.keep(live, tag_at(version), version, body, since),
        None => live.keep(&key, tag_at(version), version, body, since),
    };
    answer(&latest)
}

/// A body rendered without its version (the database did not say it): sent, not kept.
fn uncached(rendered: Result<Bytes, Response>, content_type: &'static str) -> Response {
    match rendered {
        Ok(bytes) => (
            StatusCode::OK,
            [
                (CONTENT_TYPE, HeaderValue::from_static(content_type)),
                (CACHE_CONTROL, HeaderValue::from_static(super::PRIVATE)),
            ],
            bytes,
        )
            .into_response(),
        Err(response) => response,
    }
}
