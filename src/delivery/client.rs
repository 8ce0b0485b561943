//! The delivery client (issue #37): one POST per message over HTTP/1.1, to a public address
//! only (`guard`, unless `--allow-private-endpoints`), TLS by rustls with the web's roots,
//! redirects never followed (a 3xx is a failure), the whole delivery within a deadline and the
//! answer read up to a cap.

use super::guard;
use axum::body::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::Request;
use hyper_util::rt::TokioIo;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

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
        let mut stream = None;
        let mut last = String::new();
        for addr in self.addresses(&host, port).await? {
            match tokio::net::TcpStream::connect(addr).await {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = format!("cannot connect to {addr}: {e}"),
            }
        }
        let stream = stream.ok_or_else(|| Failure::retry(last))?;
        let _ = stream.set_nodelay(true);
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
        let request = request
            .body(Full::new(body))
            .map_err(|e| Failure::refuse(format!("bad request: {e}")))?;
        let status = if https {
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
            send(TokioIo::new(tls), request).await?
        } else {
            send(TokioIo::new(stream), request).await?
        };
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

async fn send<T>(io: T, request: Request<Full<Bytes>>) -> Result<u16, Failure>
where
    T: hyper::rt::Read + hyper::rt::Write + Send + Unpin + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| Failure::retry(format!("HTTP: {e}")))?;
    let driver = tokio::spawn(connection);
    let response = sender.send_request(request).await;
    let result = match response {
        Ok(response) => {
            let status = response.status().as_u16();
            // Read a capped answer, then close.
            let _ = Limited::new(response.into_body(), MAX_ANSWER)
                .collect()
                .await;
            Ok(status)
        }
        Err(e) => Err(Failure::retry(format!("HTTP: {e}"))),
    };
    driver.abort();
    result
}
