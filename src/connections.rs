//! Serving HTTP connections with limits of their own (issue #35): a client that opens
//! connections and never finishes a request must not use up the process's file descriptors.
//!
//! - A new connection has `--header-timeout` to send the complete headers of its first
//!   request; then it is closed.
//! - A kept-alive connection has `--idle-timeout` between a response and the complete headers
//!   of its next request (hyper's header-read timer, which starts as soon as the connection
//!   waits for a request).
//! - At most `--max-connections-per-address` connections from one peer address (a trusted
//!   proxy's connections count only towards the total) and `--max-connections` in all; a
//!   connection over either cap is closed at once, before anything is read from it.
//!
//! HTTP/1.1 only (the phones of a hall speak it; a TLS proxy in front speaks it to us).

use crate::config::{Cidr, ConnectionArgs};
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify, Semaphore};
use tower::ServiceExt as _;

/// File descriptors kept for what is not a client connection: the database pool, the
/// embedded cluster's pipes, backups, static files, logs.
pub const FD_RESERVE: u64 = 512;

/// The local address of a request's connection (the address its client reached), in the
/// request's extensions.
#[derive(Debug, Clone, Copy)]
pub struct LocalAddr(pub SocketAddr);

/// The connection limits in force.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Time to the complete headers of a connection's first request.
    pub header_timeout: Duration,
    /// Time a kept-alive connection may wait for its next request's headers.
    pub idle_timeout: Duration,
    /// Concurrent connections in all.
    pub max_total: u32,
    /// Concurrent connections from one peer address.
    pub max_per_address: u32,
    /// Peers not capped per address (trusted proxies: every client behind them is one peer).
    pub exempt: Vec<Cidr>,
}

impl Limits {
    /// From the command line; the total's default is what the descriptor limit leaves.
    pub fn from_args(args: &ConnectionArgs, trusted_proxies: &[Cidr]) -> Limits {
        let budget = fd_limit().saturating_sub(FD_RESERVE).max(64);
        let max_total = match args.max_connections {
            Some(n) if n > budget => {
                tracing::warn!(
                    asked = n,
                    allowed = budget,
                    "--max-connections is more than the file-descriptor limit allows; using less"
                );
                budget
            }
            Some(n) => n,
            None => budget,
        };
        let max_total = u32::try_from(max_total).unwrap_or(u32::MAX >> 3);
        Limits {
            header_timeout: Duration::from_secs(args.header_timeout),
            idle_timeout: Duration::from_secs(args.idle_timeout.max(args.header_timeout)),
            max_total,
            max_per_address: u32::try_from(args.max_connections_per_address)
                .unwrap_or(u32::MAX)
                .min(max_total),
            exempt: trusted_proxies.to_vec(),
        }
    }
}

/// The soft limit on open files (what this process may use).
fn fd_limit() -> u64 {
    use nix::sys::resource::{getrlimit, Resource};
    getrlimit(Resource::RLIMIT_NOFILE).map_or(1024, |(soft, _)| soft)
}

/// Raises the soft limit on open files to the hard limit (at most 1,048,576), so the
/// connection cap is not set by a low default; returns the limit now in force.
pub fn raise_fd_limit() -> u64 {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return 1024;
    };
    let wanted = hard.min(1 << 20);
    if wanted > soft {
        if let Err(e) = setrlimit(Resource::RLIMIT_NOFILE, wanted, hard) {
            tracing::warn!(error = %e, "could not raise the open-file limit");
            return soft;
        }
        return wanted;
    }
    soft
}

/// Open connections per peer address.
#[derive(Default)]
struct PerAddress(Mutex<HashMap<IpAddr, u32>>);

/// One connection's place in its address's count, given back on drop.
struct Slot {
    table: Arc<PerAddress>,
    ip: IpAddr,
}

impl PerAddress {
    /// Takes a place for `ip` if it has fewer than `max` connections.
    fn take(table: &Arc<PerAddress>, ip: IpAddr, max: u32) -> Option<Slot> {
        let mut counts = table.0.lock().unwrap_or_else(|p| p.into_inner());
        let count = counts.entry(ip).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(Slot {
            table: table.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.table.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = counts.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

/// Serves `router` on `listener` until `shutdown` completes; then stops accepting, lets each
/// connection finish its request in flight, and returns when all are closed.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let total = Arc::new(Semaphore::new(limits.max_total as usize));
    let per_address = Arc::new(PerAddress::default());
    let (stop, stopping) = watch::channel(false);
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.idle_timeout)
        .keep_alive(true);
    let builder = Arc::new(builder);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
        };
        let Ok(permit) = total.clone().try_acquire_owned() else {
            tracing::debug!(%peer, "connection refused: the total cap is reached");
            continue;
        };
        let ip = peer.ip();
        let slot = if limits.exempt.iter().any(|c| c.contains(ip)) {
            None
        } else {
            match PerAddress::take(&per_address, ip, limits.max_per_address) {
                Some(slot) => Some(slot),
                None => {
                    tracing::debug!(%peer, "connection refused: the address's cap is reached");
                    continue;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let connection = connection(
            stream,
            peer,
            router.clone(),
            builder.clone(),
            limits.header_timeout,
            stopping.clone(),
        );
        tokio::spawn(async move {
            connection.await;
            drop((permit, slot));
        });
    }
    drop(listener);
    let _ = stop.send(true);
    // Every connection holds a permit until it is closed.
    let _ = total.acquire_many(limits.max_total).await;
    Ok(())
}

/// An accept that failed: a connection gone before it was taken is nothing; anything else
/// (out of descriptors) is logged and the loop pauses a moment, as hyper used to.
async fn accept_failed(e: std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::error!("accept error: {e}");
    tokio::time::sleep(Duration::from_millis(200)).await;
}

/// One connection: its first request's headers within `header_timeout`, then requests until
/// the client closes, hyper's idle timer closes it, or the server stops.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    builder: Arc<http1::Builder>,
    header_timeout: Duration,
    mut stopping: watch::Receiver<bool>,
) {
    let local = stream.local_addr().ok().map(LocalAddr);
    let first = Arc::new(Notify::new());
    let seen = first.clone();
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        seen.notify_one();
        // Handlers take the peer address as axum's `ConnectInfo`.
        request.extensions_mut().insert(ConnectInfo(peer));
        if let Some(local) = local {
            request.extensions_mut().insert(local);
        }
        router.clone().oneshot(request)
    });
    let mut conn = std::pin::pin!(builder.serve_connection(TokioIo::new(stream), service));
    tokio::select! {
        _ = conn.as_mut() => return,
        () = first.notified() => {}
        // No complete request in time: dropping the connection closes it.
        () = tokio::time::sleep(header_timeout) => return,
        () = stopped(&mut stopping) => {
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
            return;
        }
    }
    tokio::select! {
        _ = conn.as_mut() => {}
        () = stopped(&mut stopping) => {
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
}

/// Completes when the server stops.
async fn stopped(stopping: &mut watch::Receiver<bool>) {
    let _ = stopping.wait_for(|stop| *stop).await;
}
