//! HTTP: the JSON API under `/api/v1`, the HTML pages, health checks and static files.
//! Handlers are thin: extract, call one `service` function, render.

pub mod api;
pub mod cache;
pub mod download;
pub mod error;
pub mod extract;
pub mod health;
pub mod page;
pub mod pages;
pub mod session;

use crate::config::Cidr;
use crate::service::throttle::Limits;
use axum::extract::{MatchedPath, Request};
use axum::http::HeaderMap;
use axum::Router;
use sqlx::PgPool;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::services::ServeDir;
use tower_http::trace::TraceLayer;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    /// The database pool.
    pub db: PgPool,
    /// Sign-in limits, trusted proxies and the public address.
    pub security: Arc<Security>,
    /// The live pages' versions and rendered bodies.
    pub live: Arc<cache::LiveCache>,
    /// Event-file imports: one at a time per server (`service::event_file`), so memory holds
    /// one file at most.
    pub imports: Arc<tokio::sync::Semaphore>,
}

impl AppState {
    /// A state with default security settings (no proxy, no public URL).
    pub fn new(db: PgPool) -> AppState {
        AppState {
            db,
            security: Arc::new(Security::default()),
            live: Arc::new(cache::LiveCache::default()),
            imports: Arc::new(tokio::sync::Semaphore::new(1)),
        }
    }
}

/// The security settings of a server.
#[derive(Debug, Clone)]
pub struct Security {
    /// Sign-in and registration limits.
    pub limits: Limits,
    /// Proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<Cidr>,
    /// The address the public uses (`--public-url`), without a trailing slash.
    pub public_url: Option<String>,
    /// How long a request may take before it is answered 503.
    pub request_timeout: std::time::Duration,
    /// The same for pairing a round and importing a file.
    pub long_request_timeout: std::time::Duration,
    /// Where the database is, for the admins' backup download (none: no download).
    pub backup: Option<crate::backup::Source>,
}

impl Default for Security {
    fn default() -> Security {
        Security {
            limits: Limits::default(),
            trusted_proxies: Vec::new(),
            public_url: None,
            request_timeout: std::time::Duration::from_secs(10),
            long_request_timeout: std::time::Duration::from_secs(300),
            backup: None,
        }
    }
}

impl Security {
    /// From the command line.
    pub fn from_args(args: &crate::config::ServerArgs) -> Security {
        Security {
            limits: Limits::default(),
            trusted_proxies: args.trusted_proxy.clone(),
            public_url: args.public_url.clone(),
            request_timeout: std::time::Duration::from_secs(args.request_timeout),
            long_request_timeout: std::time::Duration::from_secs(args.long_request_timeout),
            backup: Some(crate::backup::Source {
                database_url: args.database_url.clone(),
                data_dir: args.data_dir.clone(),
            }),
        }
    }

    /// Whether cookies are `Secure` (and the session cookie `__Host-` prefixed): the public
    /// address is https.
    pub fn secure_cookies(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|url| url.starts_with("https://"))
    }

    /// The client of a request: the TCP peer, or, when the peer is a trusted proxy, the
    /// right-most address in `X-Forwarded-For` that is not a trusted proxy itself.
    pub fn client_ip(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> IpAddr {
        let unknown = IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED);
        let Some(peer) = peer else {
            return unknown;
        };
        let trusted = |ip: IpAddr| self.trusted_proxies.iter().any(|c| c.contains(ip));
        if !trusted(peer) {
            return peer;
        }
        let forwarded: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|part| part.trim().parse::<IpAddr>().ok())
            .collect();
        forwarded
            .into_iter()
            .rev()
            .find(|ip| !trusted(*ip))
            .unwrap_or(peer)
    }
}

/// The folder with static files (CSS, JS, fonts), next to the crate.
fn static_dir() -> PathBuf {
    std::env::var_os("ARBITER_STATIC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/static")))
}

/// Whether a request may take the long timeout: pairing a round, importing a file.
fn is_long(request: &Request) -> bool {
    let path = request.uri().path();
    request.method() == axum::http::Method::POST
        && (path.ends_with("/rounds") || path.contains("import"))
}

/// Answers 503 when a request runs past its time: a frozen database holds no request for
/// ever. Dropping the handler's future rolls its transaction back.
async fn deadline(
    axum::extract::State(security): axum::extract::State<Arc<Security>>,
    request: Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let limit = if is_long(&request) {
        security.long_request_timeout
    } else {
        security.request_timeout
    };
    let path = request.uri().path().to_string();
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            tracing::warn!(path, seconds = limit.as_secs(), "request timed out");
            error::timed_out()
        }
    }
}

/// The whole application as one router: the seam tests drive with `oneshot`.
pub fn app(state: AppState) -> Router {
    let cookies = session::CookiePolicy {
        secure: state.security.secure_cookies(),
    };
    Router::new()
        .merge(health::router())
        .merge(pages::router())
        .merge(api::router())
        .nest_service("/static", ServeDir::new(static_dir()))
        // Browsers ask for it on documents without an icon link (a TRF shown as text).
        .route(
            "/favicon.ico",
            axum::routing::get(|| async {
                axum::response::Redirect::permanent("/static/favicon.svg")
            }),
        )
        .fallback(error::not_found)
        .layer(axum::middleware::from_fn(health::track))
        .layer(axum::middleware::from_fn_with_state(
            state.live.clone(),
            cache::forget_after_writes,
        ))
        // A bug that panics in a handler answers a JSON 500 and is logged, instead of
        // dropping the connection without a response.
        .layer(CatchPanicLayer::custom(error::panic_response))
        .layer(axum::middleware::from_fn_with_state(
            state.security.clone(),
            deadline,
        ))
        .layer(axum::Extension(cookies))
        .layer(
            TraceLayer::new_for_http().make_span_with(|request: &Request| {
                let path = request
                    .extensions()
                    .get::<MatchedPath>()
                    .map(MatchedPath::as_str)
                    .unwrap_or("-");
                tracing::info_span!("http", method = %request.method(), path, uri = %request.uri())
            }),
        )
        .with_state(state)
}

/// The absolute URL of `path` for the public: under `--public-url` when it is set, else on
/// this server as the visitor reached it; the `Host` header is used only when it looks like a
/// host name, so a forged one cannot inject anything.
pub fn public_url(configured: Option<&str>, headers: &axum::http::HeaderMap, path: &str) -> String {
    if let Some(base) = configured {
        return format!("{base}{path}");
    }
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
        });
    let scheme = match headers
        .get("x-forwarded-proto")
        .and_then(|h| h.to_str().ok())
    {
        Some("https") => "https",
        _ => "http",
    };
    match host {
        Some(host) => format!("{scheme}://{host}{path}"),
        None => path.to_string(),
    }
}
