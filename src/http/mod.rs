//! HTTP: the JSON API under `/api/v1`, the HTML pages, health checks and static files.
//! Handlers are thin: extract, call one `service` function, render.

pub mod api;
pub mod cache;
mod deadline;
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
    /// The bearer token that lets a scraper off this machine read `/metrics`.
    pub metrics_token: Option<String>,
    /// How long a request may take before it is answered 503.
    pub request_timeout: std::time::Duration,
    /// The same for pairing a round and importing a file.
    pub long_request_timeout: std::time::Duration,
    /// Where the database is, for the admins' backup download (none: no download).
    pub backup: Option<crate::backup::Source>,
    /// Whether push endpoints may be plain http and private (`--allow-private-endpoints`).
    pub allow_private_endpoints: bool,
    /// Whether e-mail is sent (`--smtp-url`): the registration form offers the opt-in.
    pub email_on: bool,
}

impl Default for Security {
    fn default() -> Security {
        Security {
            limits: Limits::default(),
            trusted_proxies: Vec::new(),
            public_url: None,
            metrics_token: None,
            request_timeout: std::time::Duration::from_secs(10),
            long_request_timeout: std::time::Duration::from_secs(300),
            backup: None,
            allow_private_endpoints: false,
            email_on: false,
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
            metrics_token: args.metrics_token.clone(),
            request_timeout: std::time::Duration::from_secs(args.request_timeout),
            long_request_timeout: std::time::Duration::from_secs(args.long_request_timeout),
            backup: Some(crate::backup::Source {
                database_url: args.database_url.clone(),
                data_dir: args.data_dir.clone(),
            }),
            allow_private_endpoints: args.allow_private_endpoints,
            email_on: args.smtp_url.is_some(),
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

/// Headers of every answer: `X-Content-Type-Options: nosniff` (no answer is read as another
/// type than it says), and `Strict-Transport-Security` when the public address is https.
async fn security_headers(
    axum::extract::State(security): axum::extract::State<Arc<Security>>,
    request: Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{header, HeaderValue};
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if security.secure_cookies() {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
    response
}

/// The paths whose next segment is a secret (a player's key, a board's report code): never
/// logged in full (issue 36).
const SECRET_PREFIXES: &[&str] = &["/k/", "/r/", "/api/v1/keys/", "/api/v1/reports/"];

/// `uri` as the logs may show it: the secret segment of a key's or a report code's path
/// replaced by `{secret}`, and a query naming a key or code left out.
pub fn redacted_uri(uri: &axum::http::Uri) -> String {
    let path = uri.path();
    let mut out = path.to_string();
    for prefix in SECRET_PREFIXES {
        if let Some(rest) = path.strip_prefix(prefix) {
            let tail = rest.find('/').map_or("", |i| &rest[i..]);
            out = format!("{prefix}{{secret}}{tail}");
            break;
        }
    }
    if let Some(query) = uri.query() {
        let lower = query.to_ascii_lowercase();
        if lower.contains("code") || lower.contains("key") {
            out.push_str("?{secret}");
        } else {
            out.push('?');
            out.push_str(query);
        }
    }
    out
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
            (state.live.clone(), state.security.secure_cookies()),
            cache::forget_after_writes,
        ))
        // A bug that panics in a handler answers a JSON 500 and is logged, instead of
        // dropping the connection without a response.
        .layer(CatchPanicLayer::custom(error::panic_response))
        .layer(axum::middleware::from_fn_with_state(
            state.security.clone(),
            deadline::deadline,
        ))
        .layer(axum::Extension(cookies))
        .layer(axum::middleware::from_fn_with_state(
            state.security.clone(),
            security_headers,
        ))
        .layer(
            TraceLayer::new_for_http().make_span_with(|request: &Request| {
                let path = request
                    .extensions()
                    .get::<MatchedPath>()
                    .map(MatchedPath::as_str)
                    .unwrap_or("-");
                let uri = redacted_uri(request.uri());
                tracing::info_span!("http", method = %request.method(), path, uri)
            }),
        )
        .with_state(state)
}

/// The absolute URL of `path` for the public: under `--public-url` when it is set, else on
/// this server as the visitor reached it; the `Host` header is used only when it looks like a
/// host name, so a forged one cannot inject anything.
/// The start (`scheme://host[:port]`) of secret links the server hands out (password resets,
/// invitations), so a forged `Host` or `X-Forwarded-Proto` can never point them elsewhere:
/// `--public-url` when set; else the request's `Host` and `X-Forwarded-Proto` only when it
/// came through a trusted proxy; else the address the client's connection reached (this
/// server's own, never a header); else nothing (the link is a path).
#[derive(Debug, Clone)]
pub struct LinkOrigin(pub String);

impl LinkOrigin {
    /// The link to `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.0)
    }
}

impl axum::extract::FromRequestParts<AppState> for LinkOrigin {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if let Some(base) = state.security.public_url.as_deref() {
            return Ok(LinkOrigin(base.to_string()));
        }
        let peer = parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|axum::extract::ConnectInfo(addr)| addr.ip());
        let proxied = peer.is_some_and(|ip| {
            state
                .security
                .trusted_proxies
                .iter()
                .any(|c| c.contains(ip))
        });
        if proxied {
            return Ok(LinkOrigin(public_url(None, &parts.headers, "")));
        }
        Ok(LinkOrigin(
            parts
                .extensions
                .get::<crate::connections::LocalAddr>()
                .map(|local| format!("http://{}", local.0))
                .unwrap_or_default(),
        ))
    }
}

/// An absolute address of `path` for prints and QR codes: `configured` (`--public-url`), else
/// the request's `Host` (and `X-Forwarded-Proto`) when well formed, else the path. Secret
/// links use [`LinkOrigin`] instead.
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

#[cfg(test)]
mod tests {
    use super::redacted_uri;

    #[test]
    fn secrets_are_not_logged() {
        let uri = |s: &str| s.parse::<axum::http::Uri>().expect("a uri");
        assert_eq!(redacted_uri(&uri("/k/ABCDEFGHJKMNPQRS")), "/k/{secret}");
        assert_eq!(
            redacted_uri(&uri("/api/v1/keys/ABCDEFGHJKMNPQRS/report")),
            "/api/v1/keys/{secret}/report"
        );
        assert_eq!(
            redacted_uri(&uri("/r/A1B2C3D4E5F6?lang=en")),
            "/r/{secret}?lang=en"
        );
        assert_eq!(redacted_uri(&uri("/r?code=A1B2C3D4E5F6")), "/r?{secret}");
        assert_eq!(redacted_uri(&uri("/s/1/now?lang=en")), "/s/1/now?lang=en");
    }
}
