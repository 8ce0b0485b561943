//! `GET/POST /login` and `POST /logout`: browser sessions in an HttpOnly cookie.

use crate::http::error::PageError;
use crate::http::extract::AppForm;
use crate::http::page::{Page, PageCtx};
use crate::http::session::{self, ClientIp, CookiePolicy};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use askama::Template;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/login", get(show_login).post(create_session))
        .route("/logout", post(delete_session))
}

/// Where to go after logging in when no (safe) `next` was given.
const DEFAULT_NEXT: &str = "/admin";

/// The login form.
#[derive(Template)]
#[template(path = "pages/login.html")]
pub struct LoginPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The username typed so far.
    pub username: String,
    /// Where to go after logging in.
    pub next: String,
    /// Message next to the username field.
    pub username_error: Option<String>,
    /// Message next to the password field.
    pub password_error: Option<String>,
}

/// `?next=` of the login page.
#[derive(Debug, Default, Deserialize)]
struct LoginQuery {
    next: Option<String>,
}

/// `GET /login`
pub async fn show_login(ctx: PageCtx, uri: Uri) -> Result<Response, PageError> {
    // Read leniently: a mangled query string just means no `next`.
    let query: LoginQuery =
        serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let next = session::safe_next(query.next.as_deref())
        .unwrap_or(DEFAULT_NEXT)
        .to_string();
    if ctx.user.is_some() {
        return Ok(session::see_other(&next));
    }
    Ok(Page(
        StatusCode::OK,
        LoginPage {
            tr: ctx.tr(),
            ctx,
            username: String::new(),
            next,
            username_error: None,
            password_error: None,
        },
    )
    .into_response())
}

/// The posted login form.
#[derive(Debug, Deserialize)]
pub struct LoginForm {
    /// Login name.
    #[serde(default)]
    pub username: String,
    /// Password.
    #[serde(default)]
    pub password: String,
    /// Where to go afterwards.
    #[serde(default)]
    pub next: String,
}

/// `POST /login`: on success a session cookie and a redirect to `next`; on failure the form
/// again with the message next to the field and the username kept (422, or 429 when rate
/// limited).
pub async fn create_session(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    cookies: axum::Extension<CookiePolicy>,
    headers: HeaderMap,
    ctx: PageCtx,
    AppForm(form): AppForm<LoginForm>,
) -> Result<Response, PageError> {
    let axum::Extension(policy) = cookies;
    let tr = ctx.tr();
    let next = session::safe_next(Some(form.next.as_str()))
        .unwrap_or(DEFAULT_NEXT)
        .to_string();
    let username = form.username.trim().to_string();
    let again =
        |ctx: PageCtx, status, username_error: Option<&str>, password_error: Option<&str>| {
            Page(
                status,
                LoginPage {
                    tr,
                    ctx,
                    username: username.clone(),
                    next: next.clone(),
                    username_error: username_error.map(str::to_string),
                    password_error: password_error.map(str::to_string),
                },
            )
            .into_response()
        };
    if username.is_empty() {
        return Ok(again(
            ctx,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(tr.t("login.username_required")),
            None,
        ));
    }
    let how = service::users::SignIn {
        limits: &state.security.limits,
        ip,
        kind: "browser",
    };
    Ok(
        match service::users::sign_in_from_device(
            &state.db,
            how,
            &username,
            &form.password,
            session::device_proof(&headers),
        )
        .await
        {
            Ok(signed) => {
                let token = signed.token;
                // A previous session in this browser is ended rather than left to expire.
                if let Some(old) = session::session_token(&headers, policy) {
                    if let Err(err) = service::users::logout(&state.db, old).await {
                        tracing::warn!(error = ?err, "could not end the previous session");
                    }
                }
                let mut response = session::see_other(&next);
                session::append_cookie(
                    response.headers_mut(),
                    &session::session_cookie(&token, policy),
                );
                session::append_cookie(
                    response.headers_mut(),
                    &session::device_cookie(&signed.device, policy),
                );
                response
            }
            Err(service::Error::TooManyAttempts(lockout)) => {
                let mut page = again(
                    ctx,
                    StatusCode::TOO_MANY_REQUESTS,
                    None,
                    Some(tr.t("login.too_many")),
                );
                // The page's 429 says when to come back, as the API's does.
                if let Some(seconds) = lockout.retry_after {
                    page.headers_mut().insert(
                        axum::http::header::RETRY_AFTER,
                        axum::http::HeaderValue::from(seconds),
                    );
                }
                page
            }
            Err(service::Error::Unauthorized(_)) => again(
                ctx,
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
                Some(tr.t("login.failed")),
            ),
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    )
}

/// The logout form carries only its CSRF token.
#[derive(Debug, Deserialize)]
pub struct LogoutForm {}

/// `POST /logout`: ends the session and clears the cookie, then back to the home page.
pub async fn delete_session(
    State(state): State<AppState>,
    axum::Extension(policy): axum::Extension<CookiePolicy>,
    headers: HeaderMap,
    ctx: PageCtx,
    AppForm(LogoutForm {}): AppForm<LogoutForm>,
) -> Result<Response, PageError> {
    if let Some(token) = session::session_token(&headers, policy) {
        if let Err(err) = service::users::logout(&state.db, token).await {
            return Err(PageError::from_ctx(err, &ctx));
        }
    }
    let mut response = session::see_other("/");
    session::append_cookie(
        response.headers_mut(),
        &session::clear_session_cookie(policy),
    );
    Ok(response)
}
