//! Every request has a time limit (`--request-timeout`, `--long-request-timeout`): a frozen
//! database or a client that stops sending holds no request, and so no connection, for ever.

use super::error;
use super::{redacted_uri, Security};
use axum::body::{Body, Bytes};
use axum::extract::Request;
use http_body::{Body as HttpBody, Frame, SizeHint};
use std::future::Future as _;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

/// Whether a request may take the long timeout: pairing a round, importing a file.
fn is_long(request: &Request) -> bool {
    let path = request.uri().path();
    request.method() == axum::http::Method::POST
        && (path.ends_with("/rounds") || path.contains("import"))
}

/// Answers 503 when a request runs past its time: a frozen database holds no request for
/// ever. A read is dropped at its deadline (nothing to undo). A write (any method but `GET`,
/// `HEAD`, `OPTIONS`) runs in a task of its own once started and is never dropped halfway: a
/// statement already sent would run on and could commit after a 503 (a single-statement
/// write has no transaction to roll back). Past its deadline it is waited for, and its own
/// answer is sent: what it did, or the 503 of a statement the database cancelled
/// (`statement_timeout`, on every connection) or of a pool that gave no connection in time
/// (`--acquire-timeout`), both rolled back. So a 503 is always a rollback.
///
/// That wait is bounded because the write's body is bounded too: its body fails at the same
/// deadline ([`DeadlineBody`]), so a client that sends its headers and then its body slowly
/// or never (slowloris on the body) gets a 408 at the deadline; the handler had not started
/// (it reads its body before it writes), so the 408 is a no-op too.
pub(super) async fn deadline(
    axum::extract::State(security): axum::extract::State<Arc<Security>>,
    request: Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let limit = if is_long(&request) {
        security.long_request_timeout
    } else {
        security.request_timeout
    };
    let path = redacted_uri(request.uri());
    let write = !matches!(
        *request.method(),
        axum::http::Method::GET | axum::http::Method::HEAD | axum::http::Method::OPTIONS
    );
    if write {
        let late = Arc::new(AtomicBool::new(false));
        let request = request.map(|body| {
            Body::new(DeadlineBody {
                inner: body,
                sleep: Box::pin(tokio::time::sleep(limit)),
                late: late.clone(),
            })
        });
        let mut task = tokio::spawn(next.run(request));
        let joined = match tokio::time::timeout(limit, &mut task).await {
            Ok(joined) => joined,
            Err(_) => {
                tracing::warn!(
                    path,
                    seconds = limit.as_secs(),
                    "write past its deadline: waiting for its outcome"
                );
                task.await
            }
        };
        if late.load(Ordering::Acquire) {
            tracing::warn!(path, "write's body not received before its deadline");
            return error::body_timed_out();
        }
        return match joined {
            Ok(response) => response,
            Err(join) if join.is_panic() => error::panic_response(join.into_panic()),
            Err(_) => error::timed_out(),
        };
    }
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            tracing::warn!(path, seconds = limit.as_secs(), "request timed out");
            error::timed_out()
        }
    }
}

/// A request body that fails once its deadline has passed, however the bytes trickle in
/// (tower-http's body timeout restarts at every frame, so a byte a second would hold it open).
struct DeadlineBody {
    inner: Body,
    sleep: Pin<Box<tokio::time::Sleep>>,
    /// Set when the deadline cut the body off: the answer is then a 408, whatever the
    /// handler made of the broken body.
    late: Arc<AtomicBool>,
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame);
        }
        if self.sleep.as_mut().poll(cx).is_ready() {
            self.late.store(true, Ordering::Release);
            return Poll::Ready(Some(Err(axum::Error::new(
                "the request body did not arrive before the deadline",
            ))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
