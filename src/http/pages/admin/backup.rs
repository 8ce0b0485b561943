//! The admins' backup download (issue #39 item 7): the whole database as `arbiter backup FILE`
//! writes it (`pg_dump`'s custom format, restored with `arbiter restore FILE`), streamed to the
//! browser as it is dumped, never held in memory or left on the server's disk.

use crate::http::error::PageError;
use crate::http::extract::AppForm;
use crate::http::page::PageCtx;
use crate::http::pages::shared::account::EmptyForm;
use crate::http::session::CurrentUser;
use crate::http::AppState;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route("/admin/backup", post(download_backup))
}

/// `pg_dump`'s output as a stream of chunks; an error when it ends badly (the download then
/// fails instead of saving a truncated file). Dropping it kills `pg_dump`.
struct Dump {
    child: tokio::process::Child,
    stdout: tokio::process::ChildStdout,
    buffer: Vec<u8>,
}

impl futures_core::Stream for Dump {
    type Item = std::io::Result<Bytes>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let mut buf = ReadBuf::new(&mut this.buffer);
        match Pin::new(&mut this.stdout).poll_read(cx, &mut buf) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Err(e)) => Poll::Ready(Some(Err(e))),
            Poll::Ready(Ok(())) if buf.filled().is_empty() => match this.child.try_wait() {
                Ok(Some(status)) if !status.success() => Poll::Ready(Some(Err(
                    std::io::Error::other(format!("pg_dump failed: {status}")),
                ))),
                _ => Poll::Ready(None),
            },
            Poll::Ready(Ok(())) => Poll::Ready(Some(Ok(Bytes::copy_from_slice(buf.filled())))),
        }
    }
}

/// `POST /admin/backup` (admins only, a form with its CSRF token so no other site can start
/// a dump): the whole database as a download, `arbiter-backup-<UTC time>.dump`.
pub async fn download_backup(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    AppForm(EmptyForm {}): AppForm<EmptyForm>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    if !actor.is_admin() {
        return Err(PageError::new(
            StatusCode::FORBIDDEN,
            ctx.lang,
            "error.forbidden",
            tr.t("adm.backup.admins_only"),
        ));
    }
    let unavailable = |why: String| {
        tracing::error!(error = why, "backup download failed");
        PageError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            ctx.lang,
            "error.title",
            tr.t("adm.backup.failed"),
        )
    };
    let source = state
        .security
        .backup
        .clone()
        .ok_or_else(|| unavailable("no database source".into()))?;
    let command =
        crate::backup::dump_to_stdout(&source).map_err(|e| unavailable(format!("{e:#}")))?;
    let mut child = tokio::process::Command::from(command)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| unavailable(e.to_string()))?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| unavailable("no output".into()))?;
    let dump = Dump {
        child,
        stdout,
        buffer: vec![0; 64 * 1024],
    };
    let name = format!(
        "arbiter-backup-{}",
        chrono::Utc::now().format("%Y%m%dT%H%M%SZ")
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/octet-stream"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            crate::http::download::attachment(&name, "dump"),
        ],
        Body::from_stream(dump),
    )
        .into_response())
}
