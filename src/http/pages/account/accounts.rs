//! Accounts: one's own (`/account`: password, sessions), the admins' user list
//! (`/admin/users`: create, disable, re-enable, delete, password-reset links) and the reset
//! page (`/reset/{token}`). Through `service::users`, as the API.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::account::{role_name, split_error, EmptyForm, Errors};
use crate::http::pages::shared::qr_svg;
use crate::http::session::{self, see_other, CookiePolicy, CurrentUser};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::i18n::Tr;
use crate::service;
use crate::service::users::{NewUser, PasswordChange, SessionView, UserPatch, UserView};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use uuid::Uuid;

/// The account pages' routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/account", get(show_account))
        .route("/account/password", post(change_password))
        .route("/account/sessions/{session_id}/end", post(end_session))
        .route("/account/sessions/end-all", post(end_all_sessions))
        .route("/admin/users", get(show_users).post(create_user))
        .route(
            "/admin/users/{user_id}/{action}",
            get(confirm_change_user).post(change_user),
        )
        .route("/reset/{token}", get(show_reset).post(use_reset))
}

/// One's own account.
#[derive(Template)]
#[template(path = "pages/account.html")]
pub struct AccountPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Live sessions.
    pub sessions: Vec<SessionView>,
    /// The password form's messages.
    pub errors: Errors,
    /// Whether the visitor is an admin (a link to the accounts).
    pub is_admin: bool,
    /// Whether the password was just changed.
    pub changed: bool,
}

async fn account_page(
    state: &AppState,
    ctx: PageCtx,
    actor: &service::users::Actor,
    status: StatusCode,
    errors: Errors,
    changed: bool,
) -> Result<Response, PageError> {
    Ok(
        match service::users::list_sessions(&state.db, actor).await {
            Ok(sessions) => Page(
                status,
                AccountPage {
                    tr: ctx.tr(),
                    ctx,
                    sessions,
                    errors,
                    is_admin: actor.is_admin(),
                    changed,
                },
            )
            .into_response(),
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    )
}

/// `GET /account`
pub async fn show_account(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
) -> Result<Response, PageError> {
    account_page(
        &state,
        ctx,
        &actor,
        StatusCode::OK,
        Errors::default(),
        false,
    )
    .await
}

/// The password form.
#[derive(Debug, Deserialize)]
pub struct PasswordForm {
    /// The password now.
    #[serde(default)]
    pub current_password: String,
    /// The new one.
    #[serde(default)]
    pub new_password: String,
}

/// `POST /account/password`
pub async fn change_password(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    session::ClientIp(ip): session::ClientIp,
    ctx: PageCtx,
    AppForm(form): AppForm<PasswordForm>,
) -> Result<Response, PageError> {
    let change = PasswordChange {
        current_password: form.current_password,
        new_password: form.new_password,
    };
    let how = service::users::SignIn {
        limits: &state.security.limits,
        ip,
        kind: "browser",
    };
    Ok(
        match service::users::change_own_password(&state.db, how, &actor, &change).await {
            Ok(()) => {
                account_page(&state, ctx, &actor, StatusCode::OK, Errors::default(), true).await?
            }
            Err(err) => match split_error(err, ctx.tr(), "new_password") {
                Ok(errors) => {
                    let status = StatusCode::UNPROCESSABLE_ENTITY;
                    account_page(&state, ctx, &actor, status, errors, false).await?
                }
                Err(err) => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    )
}

/// `POST /account/sessions/{id}/end`
pub async fn end_session(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(session_id): PagePath<Uuid>,
    AppForm(EmptyForm {}): AppForm<EmptyForm>,
) -> Result<Response, PageError> {
    Ok(
        match service::users::revoke_session(&state.db, &actor, session_id).await {
            Ok(()) => see_other("/account"),
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    )
}

/// `POST /account/sessions/end-all`: logs out everywhere, this browser too.
pub async fn end_all_sessions(
    State(state): State<AppState>,
    axum::Extension(policy): axum::Extension<CookiePolicy>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    AppForm(EmptyForm {}): AppForm<EmptyForm>,
) -> Result<Response, PageError> {
    Ok(
        match service::users::revoke_all_sessions(&state.db, &actor).await {
            Ok(_) => {
                let mut response = see_other("/login");
                session::append_cookie(
                    response.headers_mut(),
                    &session::clear_session_cookie(policy),
                );
                response
            }
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    )
}

/// The admins' user list.
#[derive(Template)]
#[template(path = "admin/users.html")]
pub struct UsersPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Every account.
    pub users: Vec<UserView>,
    /// A password-reset link made just now: (user name, URL, QR code SVG).
    pub reset_link: Option<(String, String, String)>,
    /// The create form's username.
    pub username: String,
    /// Field messages.
    pub errors: Errors,
}

impl UsersPage {
    /// A role's name in the page's language.
    pub fn role_name(&self, role: impl std::fmt::Display) -> &'static str {
        role_name(self.tr, &role.to_string())
    }
}

async fn users_page(
    state: &AppState,
    ctx: PageCtx,
    actor: &service::users::Actor,
    status: StatusCode,
    username: String,
    errors: Errors,
) -> Result<Response, PageError> {
    users_page_with(state, ctx, actor, status, username, errors, None).await
}

async fn users_page_with(
    state: &AppState,
    ctx: PageCtx,
    actor: &service::users::Actor,
    status: StatusCode,
    username: String,
    errors: Errors,
    reset_link: Option<(String, String, String)>,
) -> Result<Response, PageError> {
    Ok(match service::users::list_users(&state.db, actor).await {
        Ok(users) => Page(
            status,
            UsersPage {
                tr: ctx.tr(),
                ctx,
                users,
                reset_link,
                username,
                errors,
            },
        )
        .into_response(),
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    })
}

/// `GET /admin/users`
pub async fn show_users(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
) -> Result<Response, PageError> {
    users_page(
        &state,
        ctx,
        &actor,
        StatusCode::OK,
        String::new(),
        Errors::default(),
    )
    .await
}

/// The new-user form.
#[derive(Debug, Deserialize)]
pub struct NewUserForm {
    /// Login name.
    #[serde(default)]
    pub username: String,
    /// Password.
    #[serde(default)]
    pub password: String,
    /// `admin` or `user`.
    #[serde(default)]
    pub role: String,
}

/// `POST /admin/users`
pub async fn create_user(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    AppForm(form): AppForm<NewUserForm>,
) -> Result<Response, PageError> {
    let input = NewUser {
        username: form.username.clone(),
        password: form.password,
        role: Some(form.role).filter(|r| !r.is_empty()),
    };
    Ok(
        match service::users::create_user_as(&state.db, &actor, &input).await {
            Ok(_) => see_other("/admin/users"),
            Err(err) => match split_error(err, ctx.tr(), "username") {
                Ok(errors) => {
                    let status = StatusCode::UNPROCESSABLE_ENTITY;
                    users_page(&state, ctx, &actor, status, form.username, errors).await?
                }
                Err(err) => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    )
}

/// `POST /admin/users/{id}/{disable|enable|delete|reset}`; `reset` shows a single-use link
/// (and its QR code) with which the user sets a new password.
pub async fn change_user(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    origin: crate::http::LinkOrigin,
    PagePath((user_id, action)): PagePath<(Uuid, String)>,
    AppForm(EmptyForm {}): AppForm<EmptyForm>,
) -> Result<Response, PageError> {
    if action == "reset" {
        let made = service::users::make_password_reset(&state.db, &actor, user_id)
            .await
            .or_page(&ctx)?;
        let name = service::users::find_password_reset(&state.db, &made.token)
            .await
            .or_page(&ctx)?;
        let url = origin.url(&format!("/reset/{}", made.token));
        let qr = qr_svg(&url);
        let link = Some((name, url, qr));
        let status = StatusCode::CREATED;
        return users_page_with(
            &state,
            ctx,
            &actor,
            status,
            String::new(),
            Errors::default(),
            link,
        )
        .await;
    }
    let result = match action.as_str() {
        "disable" | "enable" => {
            let patch = UserPatch {
                disabled: Some(action == "disable"),
                role: None,
            };
            service::users::update_user(&state.db, &actor, user_id, &patch)
                .await
                .map(|_| ())
        }
        "delete" => service::users::delete_user(&state.db, &actor, user_id).await,
        _ => Err(service::Error::NotFound(m::NOT_FOUND_ACTION)),
    };
    Ok(match result {
        Ok(()) => see_other("/admin/users"),
        Err(err) => match split_error(err, ctx.tr(), "users") {
            Ok(errors) => {
                let status = StatusCode::CONFLICT;
                users_page(&state, ctx, &actor, status, String::new(), errors).await?
            }
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    })
}

/// The page of a password-reset link.
#[derive(Template)]
#[template(path = "pages/reset.html")]
pub struct ResetPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The link's token (the form posts back to it).
    pub token: String,
    /// Whose password.
    pub username: String,
    /// Field messages.
    pub errors: Errors,
}

/// `GET /reset/{token}`
pub async fn show_reset(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(token): PagePath<String>,
) -> Result<Response, PageError> {
    Ok(
        match service::users::find_password_reset(&state.db, &token).await {
            Ok(username) => Page(
                StatusCode::OK,
                ResetPage {
                    tr: ctx.tr(),
                    ctx,
                    token,
                    username,
                    errors: Errors::default(),
                },
            )
            .into_response(),
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    )
}

/// The reset form.
#[derive(Debug, Deserialize)]
pub struct ResetForm {
    /// The new password.
    #[serde(default)]
    pub password: String,
}

/// `POST /reset/{token}`: sets the password, ends the account's sessions, then to the login.
pub async fn use_reset(
    State(state): State<AppState>,
    session::ClientIp(ip): session::ClientIp,
    ctx: PageCtx,
    PagePath(token): PagePath<String>,
    AppForm(form): AppForm<ResetForm>,
) -> Result<Response, PageError> {
    let username = service::users::find_password_reset(&state.db, &token)
        .await
        .or_page(&ctx)?;
    if let Err(err) = service::throttle::link_attempt(&state.db, &state.security.limits, ip).await {
        return Err(PageError::from_ctx(err, &ctx));
    }
    Ok(
        match service::users::use_password_reset(&state.db, &token, &form.password).await {
            Ok(()) => see_other("/login"),
            Err(err) => match split_error(err, ctx.tr(), "password") {
                Ok(errors) => Page(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    ResetPage {
                        tr: ctx.tr(),
                        ctx,
                        token,
                        username,
                        errors,
                    },
                )
                .into_response(),
                Err(err) => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    )
}

/// `GET /admin/users/{uid}/delete`: the confirmation page of deleting an account (issue #15);
/// only its form posts the deletion.
pub async fn confirm_change_user(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((user_id, action)): PagePath<(Uuid, String)>,
) -> Result<Response, PageError> {
    use crate::http::pages::shared::confirm::{ConfirmPage, Crumb};
    if action != "delete" {
        return Err(PageError::from_service(
            service::Error::NotFound(m::NOT_FOUND_ACTION),
            ctx.lang,
        ));
    }
    let users = service::users::list_users(&state.db, &actor)
        .await
        .or_page(&ctx)?;
    let Some(user) = users.iter().find(|u| u.id == user_id) else {
        return Err(PageError::from_service(
            service::Error::NotFound(m::NOT_FOUND_USER),
            ctx.lang,
        ));
    };
    let tr = ctx.tr();
    Ok(Page(
        StatusCode::OK,
        ConfirmPage {
            tr,
            crumbs: vec![
                Crumb {
                    href: "/admin".into(),
                    label: tr.t("nav.dashboard").into(),
                },
                Crumb {
                    href: "/admin/users".into(),
                    label: tr.t("users.title").into(),
                },
            ],
            question: tr.fmt("adm.confirm.delete_user", &user.username),
            lines: vec![tr.t("adm.confirm.delete_user_what").into()],
            action: format!("/admin/users/{user_id}/delete"),
            hidden: Vec::new(),
            force: None,
            confirm: tr.t("users.delete").into(),
            cancel: "/admin/users".into(),
            ctx,
        },
    )
    .into_response())
}
