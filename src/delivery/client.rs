//! The delivery client (issue #37): one POST per message over HTTP/1.1, to a public address
//! only (`guard`, unless `--allow-private-endpoints`), TLS by rustls with the web's roots,
//! redirects never followed (a 3xx is a failure), the whole delivery within a deadline and the
//! answer read up to a cap. Connections are kept alive and pooled per origin (a burst of
//! messages to one push service or webhook host reuses them, no TCP and TLS handshake per
//! message); the guard is checked on the peer address of every connection each time it is
//! used, whether new or pooled.

use super::guard;
use axum::body::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::client::conn::http1::SendRequest;
use hyper::Request;
use hyper_util::rt::TokioIo;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

/// The largest answer read from an endpoint (the rest is dropped with the connection).
pub const MAX_ANSWER: usize = 16 * 1024;
/// The largest message sent.
pub const MAX_BODY: usize = 256 * 1024;

/// Why a delivery failed.
#[derive(Debug, Clone)]
pub struct Failure {
    /// What happened, for the desk.
    pub message: String,
    /// Whether another attempt may succeed.
    pub retry: bool,
    /// The endpoint's status, when it answered.
    pub status: Option<u16>,
}

impl Failure {
    fn retry(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            retry: true,
            status: None,
        }
    }

    fn refuse(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            retry: false,
            status: None,
        }
    }
}

/// A delivery client.
#[derive(Clone)]
pub struct Client {
    allow_private: bool,
    timeout: Duration,
    tls: tokio_rustls::TlsConnector,
}

impl Client {
    /// A client; `allow_private` lets it reach private addresses (tests, local setups).
    pub fn new(allow_private: bool, timeout: Duration) -> Client {
        let mut roots = rustls::RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        #[allow(deprecated)]
        let provider = rustls::crypto::ring::default_provider();
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(provider))
            .with_safe_default_protocol_versions()
            .map(|b| b.with_root_certificates(roots).with_no_client_auth());
        let config = match config {
            Ok(config) => config,
            // The ring provider supports the default versions; kept as a fallback.
            Err(_) => rustls::ClientConfig::builder()
                .with_root_certificates(rustls::RootCertStore::empty())
                .with_no_client_auth(),
        };
        Client {
            allow_private,
            timeout,
            tls: tokio_rustls::TlsConnector::from(Arc::new(config)),
        }
    }

    /// POSTs JSON `body` to `url` with `headers`; the endpoint's status when it is 2xx.
    pub async fn post(
        &self,
        url: &str,
        headers: &[(&'static str, String)],
        body: Bytes,
    ) -> Result<u16, Failure> {
        self.post_as(url, "application/json", headers, body).await
    }

    /// POSTs `body` of `content_type` to `url` with `headers`; the endpoint's status when it
    /// is 2xx.
    pub async fn post_as(
        &self,
        url: &str,
        content_type: &'static str,
        headers: &[(&'static str, String)],
        body: Bytes,
    ) -> Result<u16, Failure> {
        if body.len() > MAX_BODY {
            return Err(Failure::refuse("message too large"));
        }
        let within = self.post_within(url, content_type, headers, body);
        match tokio::time::timeout(self.timeout, within).await {
            Ok(result) => result,
            Err(_) => Err(Failure::retry(format!(
                "no answer within {} s",
                self.timeout.as_secs()
            ))),
        }
    }

    async fn addresses(&self, host: &str, port: u16) -> Result<Vec<SocketAddr>, Failure> {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let all: Vec<SocketAddr> = match bare.parse::<IpAddr>() {
            Ok(ip) => vec![SocketAddr::new(ip, port)],
            Err(_) => tokio::net::lookup_host((bare, port))
                .await
                .map_err(|e| Failure::retry(format!("cannot resolve {bare}: {e}")))?
                .collect(),
        };
        let allowed: Vec<SocketAddr> = all
            .iter()
            .copied()
            .filter(|a| self.allow_private || guard::is_public(a.ip()))
            .collect();
        if allowed.is_empty() {
            return Err(Failure::refuse(if all.is_empty() {
                format!("{bare} has no address")
            } else {
                format!("{bare} is not a public address (refused)")
            }));
        }
        Ok(allowed)
    }

    /// Whether a connection to `peer` may carry a delivery (checked when it is made and each
    /// time a pooled one is taken again).
    fn permits(&self, peer: SocketAddr) -> bool {
        self.allow_private || guard::is_public(peer.ip())
    }

    /// An idle pooled connection to `key`'s origin whose peer this client may reach.
    fn pooled(&self, key: &Key) -> Option<Idle> {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let idle = pool.get_mut(key)?;
        // Newest first: the most recently used connection is the likeliest to be open.
        while let Some(conn) = idle.pop() {
            if conn.since.elapsed() < POOL_IDLE
                && !conn.sender.is_closed()
                && self.permits(conn.peer)
            {
                return Some(conn);
            }
            // A connection this client may not use stays in nobody's pool: dropped.
        }
        None
    }

    /// A new connection to `key`'s origin: its name resolved, every address checked, TLS
    /// when https.
    async fn connect(&self, key: &Key) -> Result<Idle, Failure> {
        let (https, host, port) = key;
        let mut stream = None;
        let mut last = String::new();
        for addr in self.addresses(host, *port).await? {
            match tokio::net::TcpStream::connect(addr).await {
                Ok(s) => {
                    stream = Some((s, addr));
                    break;
                }
                Err(e) => last = format!("cannot connect to {addr}: {e}"),
            }
        }
        let (stream, peer) = stream.ok_or_else(|| Failure::retry(last))?;
        let _ = stream.set_nodelay(true);
        let sender = if *https {
            let name = rustls::pki_types::ServerName::try_from(
                host.trim_start_matches('[')
                    .trim_end_matches(']')
                    .to_string(),
            )
            .map_err(|_| Failure::refuse("bad host name"))?;
            let tls = self
                .tls
                .connect(name, stream)
                .await
                .map_err(|e| Failure::retry(format!("TLS: {e}")))?;
            handshake(TokioIo::new(tls)).await?
        } else {
            handshake(TokioIo::new(stream)).await?
        };
        Ok(Idle {
            sender,
            peer,
            since: Instant::now(),
        })
    }

    async fn post_within(
        &self,
        url: &str,
        content_type: &'static str,
        headers: &[(&'static str, String)],
        body: Bytes,
    ) -> Result<u16, Failure> {
        let uri = crate::service::outbox::check_url(url).map_err(Failure::refuse)?;
        let https = uri.scheme_str() == Some("https");
        let host = uri.host().unwrap_or_default().to_string();
        let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
        let key: Key = (https, host, port);
        let authority = uri
            .authority()
            .map(|a| a.as_str().to_string())
            .unwrap_or_default();
        let path = uri
            .path_and_query()
            .map(|p| p.as_str().to_string())
            .unwrap_or_else(|| "/".into());
        let mut request = Request::post(path)
            .header(hyper::header::HOST, authority)
            .header(hyper::header::CONTENT_TYPE, content_type)
            .header(hyper::header::USER_AGENT, "arbiter-webhooks/1");
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let mut request = request
            .body(Full::new(body))
            .map_err(|e| Failure::refuse(format!("bad request: {e}")))?;
        // A pooled connection first; when it turns out closed before the request went out
        // (the request comes back unsent), a new one. A request that may have reached the
        // endpoint is never sent twice here: that is a failed attempt, retried by the outbox.
        let (mut conn, response) = loop {
            let (mut conn, reused) = match self.pooled(&key) {
                Some(conn) => (conn, true),
                None => (self.connect(&key).await?, false),
            };
            match conn.sender.try_send_request(request).await {
                Ok(response) => break (conn, response),
                Err(mut err) => match err.take_message() {
                    Some(unsent) if reused => request = unsent,
                    _ => return Err(Failure::retry(format!("HTTP: {}", err.into_error()))),
                },
            }
        };
        let status = response.status().as_u16();
        // Read a capped answer; a connection whose answer was read whole goes back to the pool.
        let whole = Limited::new(response.into_body(), MAX_ANSWER)
            .collect()
            .await
            .is_ok();
        if whole && !conn.sender.is_closed() {
            conn.since = Instant::now();
            put_back(key, conn);
        }
        match status {
            200..=299 => Ok(status),
            300..=399 => Err(Failure {
                message: format!("answered {status} (redirects are not followed)"),
                retry: false,
                status: Some(status),
            }),
            _ => Err(Failure {
                message: format!("answered {status}"),
                retry: true,
                status: Some(status),
            }),
        }
    }
}

/// A pool's key: the origin (https, host, port).
type Key = (bool, String, u16);

/// An open connection and the address it is connected to.
struct Idle {
    sender: SendRequest<Full<Bytes>>,
    peer: SocketAddr,
    since: Instant,
}

/// How long a connection stays pooled unused (below common servers' keep-alive timeouts, so
/// the endpoint seldom closes one just as it is taken).
pub const POOL_IDLE: Duration = Duration::from_secs(4);
/// Idle connections kept per origin.
pub const POOL_PER_ORIGIN: usize = 64;

/// The process's idle connections, by origin. Shared by every client of the process whatever
/// its policy: a client takes a pooled connection only when its own guard admits the peer
/// address the connection was made to.
static POOL: LazyLock<Mutex<HashMap<Key, Vec<Idle>>>> = LazyLock::new(Default::default);

fn put_back(key: Key, conn: Idle) {
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    // Connections idle too long are dropped (closed) as others come back.
    pool.retain(|_, idle| {
        idle.retain(|c| c.since.elapsed() < POOL_IDLE && !c.sender.is_closed());
        !idle.is_empty()
    });
    let idle = pool.entry(key).or_default();
    if idle.len() < POOL_PER_ORIGIN {
        idle.push(conn);
    }
}

async fn handshake<T>(io: T) -> Result<SendRequest<Full<Bytes>>, Failure>
where
    T: hyper::rt::Read + hyper::rt::Write + Send + Unpin + 'static,
{
    let (sender, connection) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| Failure::retry(format!("HTTP: {e}")))?;
    // The connection runs until its sender is dropped (or the endpoint closes it).
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(sender)
}
