//! Staff on the dashboard (issue #13): a tournament's staff and invitation links
//! (`/admin/t/{id}/staff`), the invitation page a newcomer opens on a phone (`/invite/{token}`);
//! accounts (one's own and the admins' user list) are in `accounts_admin`. Through
//! `service::staff`, as the API.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::account::{role_name, split_error, EmptyForm, Errors};
use crate::http::pages::shared::qr_svg;
use crate::http::session::{self, see_other, CookiePolicy, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::staff::{Acceptance, InvitationInput, InvitationView, StaffInput, StaffMember};
use crate::service::{self};
use crate::vocab::StaffRole;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use uuid::Uuid;

/// The routes of these pages.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/admin/t/{tournament_id}/staff",
            get(show_staff).post(assign_staff),
        )
        .route(
            "/admin/t/{tournament_id}/staff/{user_id}/remove",
            post(remove_staff),
        )
        .route(
            "/admin/t/{tournament_id}/invitations",
            post(create_invitation),
        )
        .route(
            "/admin/t/{tournament_id}/invitations/{invitation_id}/withdraw",
            post(withdraw_invitation),
        )
        .route(
            "/invite/{token}",
            get(show_invitation).post(accept_invitation),
        )
}

/// A tournament's staff page.
#[derive(Template)]
#[template(path = "admin/staff.html")]
pub struct StaffPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Tournament id.
    pub tournament_id: Uuid,
    /// Tournament name.
    pub tournament_name: String,
    /// The event's time zone (an invitation's expiry is shown in it).
    pub zone: chrono_tz::Tz,
    /// The staff.
    pub staff: Vec<StaffMember>,
    /// Live invitations (empty unless the visitor is the chief arbiter or an admin).
    pub invitations: Vec<InvitationView>,
    /// Whether the visitor manages the staff.
    pub manages: bool,
    /// A link made just now: (URL, QR code SVG, role).
    pub new_link: Option<(String, String, StaffRole)>,
    /// Whether the visitor is an admin (who alone names a chief arbiter).
    pub is_admin: bool,
    /// The assign form's values.
    pub username: String,
    /// Field messages.
    pub errors: Errors,
}

impl StaffPage {
    /// A moment in the event's time zone, named ("2026-12-07 09:30 America/Toronto").
    pub fn local(&self, at: &chrono::DateTime<chrono::Utc>) -> String {
        format!(
            "{} {}",
            at.with_timezone(&self.zone).format("%Y-%m-%d %H:%M"),
            self.zone.name()
        )
    }

    /// A role's name in the page's language.
    pub fn role_name(&self, role: impl std::fmt::Display) -> &'static str {
        role_name(self.tr, &role.to_string())
    }
}

/// What the staff page shows besides the stored state: the assign form's values, messages, a
/// link made just now.
#[derive(Default)]
struct Shown {
    username: String,
    errors: Errors,
    new_link: Option<(String, String, StaffRole)>,
}

async fn staff_page(
    state: &AppState,
    ctx: PageCtx,
    actor: &service::users::Actor,
    tournament_id: Uuid,
    status: StatusCode,
    shown: Shown,
) -> Result<Response, PageError> {
    let Shown {
        username,
        errors,
        new_link,
    } = shown;
    let tournament = service::tournaments::get(&state.db, tournament_id)
        .await
        .or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&tournament.default_language);
    let staff = service::staff::list(&state.db, actor, tournament_id)
        .await
        .or_page(&ctx)?;
    let (invitations, manages) =
        match service::staff::list_invitations(&state.db, actor, tournament_id).await {
            Ok(list) => (list, true),
            Err(service::Error::Forbidden(_)) => (Vec::new(), false),
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        };
    Ok(Page(
        status,
        StaffPage {
            tr: ctx.tr(),
            ctx,
            tournament_id,
            zone: tournament.zone(),
            tournament_name: tournament.name,
            staff,
            invitations,
            manages,
            new_link,
            is_admin: actor.is_admin(),
            username,
            errors,
        },
    )
    .into_response())
}

/// `GET /admin/t/{id}/staff`
pub async fn show_staff(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    staff_page(&state, ctx, &actor, id, StatusCode::OK, Shown::default()).await
}

/// The assign form.
#[derive(Debug, Deserialize)]
pub struct AssignForm {
    /// Login name.
    #[serde(default)]
    pub username: String,
    /// Role.
    #[serde(default)]
    pub role: String,
}

/// `POST /admin/t/{id}/staff`
pub async fn assign_staff(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<AssignForm>,
) -> Result<Response, PageError> {
    let input = StaffInput {
        username: form.username.clone(),
        role: form.role.clone(),
    };
    Ok(
        match service::staff::assign(&state.db, &actor, id, &input).await {
            Ok(_) => see_other(&format!("/admin/t/{id}/staff")),
            Err(err) => match split_error(err, ctx.tr(), "username") {
                Ok(errors) => {
                    let status = StatusCode::UNPROCESSABLE_ENTITY;
                    staff_page(
                        &state,
                        ctx,
                        &actor,
                        id,
                        status,
                        Shown {
                            username: form.username,
                            errors,
                            new_link: None,
                        },
                    )
                    .await?
                }
                Err(err) => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    )
}

/// `POST /admin/t/{id}/staff/{user_id}/remove`
pub async fn remove_staff(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, user_id)): PagePath<(Uuid, Uuid)>,
    AppForm(EmptyForm {}): AppForm<EmptyForm>,
) -> Result<Response, PageError> {
    Ok(
        match service::staff::remove(&state.db, &actor, id, user_id).await {
            Ok(()) => see_other(&format!("/admin/t/{id}/staff")),
            Err(err) => match split_error(err, ctx.tr(), "staff") {
                Ok(errors) => {
                    let status = StatusCode::CONFLICT;
                    staff_page(
                        &state,
                        ctx,
                        &actor,
                        id,
                        status,
                        Shown {
                            errors,
                            ..Shown::default()
                        },
                    )
                    .await?
                }
                Err(err) => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    )
}

/// The invitation form.
#[derive(Debug, Deserialize)]
pub struct InviteForm {
    /// `arbiter` or `scorer`.
    #[serde(default)]
    pub role: String,
    /// Minutes the link works.
    #[serde(default)]
    pub minutes: String,
}

/// `POST /admin/t/{id}/invitations`: shows the new link once, with its QR code.
pub async fn create_invitation(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    origin: crate::http::LinkOrigin,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<InviteForm>,
) -> Result<Response, PageError> {
    let minutes = match form.minutes.trim() {
        "" => None,
        text => match text.parse::<i32>() {
            Ok(n) => Some(n),
            Err(_) => {
                let errors = Errors::one(
                    "minutes",
                    ctx.tr()
                        .msg(&crate::i18n::messages::CHECK_MUST_WHOLE_NUMBER.msg()),
                );
                let status = StatusCode::UNPROCESSABLE_ENTITY;
                return staff_page(
                    &state,
                    ctx,
                    &actor,
                    id,
                    status,
                    Shown {
                        errors,
                        ..Shown::default()
                    },
                )
                .await;
            }
        },
    };
    let input = InvitationInput {
        role: form.role.clone(),
        expires_in_minutes: minutes,
    };
    Ok(
        match service::staff::invite(&state.db, &actor, id, &input).await {
            Ok(made) => {
                let url = origin.url(&format!("/invite/{}", made.token));
                let qr = qr_svg(&url);
                let link = Some((url, qr, made.view.role));
                staff_page(
                    &state,
                    ctx,
                    &actor,
                    id,
                    StatusCode::CREATED,
                    Shown {
                        new_link: link,
                        ..Shown::default()
                    },
                )
                .await?
            }
            Err(err) => {
                let err = match err {
                    service::Error::Invalid {
                        mut fields,
                        message,
                    } => {
                        if let Some(m) = fields.remove("expires_in_minutes") {
                            fields.insert("minutes".into(), m);
                        }
                        service::Error::Invalid { fields, message }
                    }
                    other => other,
                };
                match split_error(err, ctx.tr(), "role") {
                    Ok(errors) => {
                        let status = StatusCode::UNPROCESSABLE_ENTITY;
                        staff_page(
                            &state,
                            ctx,
                            &actor,
                            id,
                            status,
                            Shown {
                                errors,
                                ..Shown::default()
                            },
                        )
                        .await?
                    }
                    Err(err) => return Err(PageError::from_ctx(err, &ctx)),
                }
            }
        },
    )
}

/// `POST /admin/t/{id}/invitations/{invitation_id}/withdraw`
pub async fn withdraw_invitation(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, invitation_id)): PagePath<(Uuid, Uuid)>,
    AppForm(EmptyForm {}): AppForm<EmptyForm>,
) -> Result<Response, PageError> {
    Ok(
        match service::staff::withdraw_invitation(&state.db, &actor, id, invitation_id).await {
            Ok(()) => see_other(&format!("/admin/t/{id}/staff")),
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    )
}

/// The page a newcomer opens from an invitation link.
#[derive(Template)]
#[template(path = "pages/invite.html")]
pub struct InvitePage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The link's token (the form posts back to it).
    pub token: String,
    /// What it offers.
    pub invitation: InvitationView,
    /// The username typed so far.
    pub username: String,
    /// Field messages.
    pub errors: Errors,
}

impl InvitePage {
    /// A role's name in the page's language.
    pub fn role_name(&self, role: impl std::fmt::Display) -> &'static str {
        role_name(self.tr, &role.to_string())
    }
}

/// `GET /invite/{token}`
pub async fn show_invitation(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(token): PagePath<String>,
) -> Result<Response, PageError> {
    Ok(
        match service::staff::find_invitation(&state.db, &token).await {
            Ok(invitation) => Page(
                StatusCode::OK,
                InvitePage {
                    tr: ctx.tr(),
                    ctx,
                    token,
                    invitation,
                    username: String::new(),
                    errors: Errors::default(),
                },
            )
            .into_response(),
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    )
}

/// The invitation form: a username and a password (ignored when signed in).
#[derive(Debug, Deserialize)]
pub struct AcceptForm {
    /// Login name.
    #[serde(default)]
    pub username: String,
    /// Password.
    #[serde(default)]
    pub password: String,
}

/// `POST /invite/{token}`: makes the account (or takes the signed-in one), joins the
/// tournament, signs in and goes to the tournament's dashboard.
pub async fn accept_invitation(
    State(state): State<AppState>,
    axum::Extension(policy): axum::Extension<CookiePolicy>,
    session::ClientIp(ip): session::ClientIp,
    ctx: PageCtx,
    PagePath(token): PagePath<String>,
    AppForm(form): AppForm<AcceptForm>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let invitation = service::staff::find_invitation(&state.db, &token)
        .await
        .or_page(&ctx)?;
    let actor = ctx.actor.clone();
    if actor.is_none() {
        if let Err(err) =
            service::throttle::link_attempt(&state.db, &state.security.limits, ip).await
        {
            return Err(PageError::from_ctx(err, &ctx));
        }
    }
    let account = Acceptance {
        username: form.username.clone(),
        password: form.password,
    };
    Ok(
        match service::staff::accept(&state.db, &token, actor.as_ref(), Some(&account)).await {
            Ok((user_id, tournament_id)) => {
                let mut response = see_other(&format!("/admin/t/{tournament_id}"));
                if actor.is_none() {
                    match service::staff::open_session(&state.db, user_id, "browser").await {
                        Ok(session) => session::append_cookie(
                            response.headers_mut(),
                            &session::session_cookie(&session, policy),
                        ),
                        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
                    }
                }
                response
            }
            Err(err) => match split_error(err, tr, "username") {
                Ok(errors) => Page(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    InvitePage {
                        tr,
                        ctx,
                        token,
                        invitation,
                        username: form.username,
                        errors,
                    },
                )
                .into_response(),
                Err(err) => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    )
}
