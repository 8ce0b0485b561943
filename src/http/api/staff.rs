//! A tournament's staff and invitations: `/api/v1/tournaments/{id}/staff`,
//! `/api/v1/tournaments/{id}/invitations`, `/api/v1/invitations/{token}`.

use super::auth::{ApiUser, MaybeUser};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath};
use crate::http::AppState;
use crate::service;
use crate::service::staff::{Acceptance, InvitationInput, InvitationView, StaffInput, StaffMember};
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

/// The staff of a tournament (its staff and admins).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/staff", tag = "staff", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = Vec<StaffMember>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_staff(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<StaffMember>>, ApiError> {
    Ok(AppJson(service::staff::list(&state.db, &actor, id).await?))
}

/// Assigns an existing account as arbiter or scorer (the chief arbiter), or names the chief
/// arbiter (admins).
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/staff", tag = "staff", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")), request_body = StaffInput,
    responses((status = 200, body = StaffMember), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn assign_staff(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<StaffInput>,
) -> Result<AppJson<StaffMember>, ApiError> {
    Ok(AppJson(
        service::staff::assign(&state.db, &actor, id, &input).await?,
    ))
}

/// Removes someone from the staff (the chief arbiter; the chief is replaced by an admin).
#[utoipa::path(delete, path = "/api/v1/tournaments/{id}/staff/{user_id}", tag = "staff", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id"), ("user_id" = Uuid, Path, description = "User id")),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn remove_staff(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, user_id)): AppPath<(Uuid, Uuid)>,
) -> Result<StatusCode, ApiError> {
    service::staff::remove(&state.db, &actor, id, user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A new invitation: the link is shown once (only its hash is kept).
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedInvitation {
    /// The invitation.
    #[serde(flatten)]
    pub invitation: InvitationView,
    /// The single-use link to open on the newcomer's phone (under `--public-url` when set).
    pub url: String,
    /// The link's secret, for `POST /api/v1/invitations/{token}`.
    pub token: String,
}

/// Makes a single-use invitation link for the role of arbiter or scorer (the chief arbiter).
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/invitations", tag = "staff", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")), request_body = InvitationInput,
    responses((status = 201, body = CreatedInvitation), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_invitation(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    origin: crate::http::LinkOrigin,
    AppPath(id): AppPath<Uuid>,
    AppJson(input): AppJson<InvitationInput>,
) -> Result<(StatusCode, AppJson<CreatedInvitation>), ApiError> {
    let made = service::staff::invite(&state.db, &actor, id, &input).await?;
    let url = origin.url(&format!("/invite/{}", made.token));
    Ok((
        StatusCode::CREATED,
        AppJson(CreatedInvitation {
            invitation: made.view,
            url,
            token: made.token,
        }),
    ))
}

/// The live invitations of a tournament (the chief arbiter).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/invitations", tag = "staff", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id")),
    responses((status = 200, body = Vec<InvitationView>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_invitations(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath(id): AppPath<Uuid>,
) -> Result<AppJson<Vec<InvitationView>>, ApiError> {
    Ok(AppJson(
        service::staff::list_invitations(&state.db, &actor, id).await?,
    ))
}

/// Withdraws an unused invitation (the chief arbiter).
#[utoipa::path(delete, path = "/api/v1/tournaments/{id}/invitations/{invitation_id}", tag = "staff", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "Tournament id"), ("invitation_id" = Uuid, Path, description = "Invitation id")),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn withdraw_invitation(
    State(state): State<AppState>,
    ApiUser(actor): ApiUser,
    AppPath((id, invitation_id)): AppPath<(Uuid, Uuid)>,
) -> Result<StatusCode, ApiError> {
    service::staff::withdraw_invitation(&state.db, &actor, id, invitation_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// What an invitation link offers (tournament and role); 404 when unknown, used or expired.
#[utoipa::path(get, path = "/api/v1/invitations/{token}", tag = "staff",
    params(("token" = String, Path, description = "The link's secret")),
    responses((status = 200, body = InvitationView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn get_invitation(
    State(state): State<AppState>,
    AppPath(token): AppPath<String>,
) -> Result<AppJson<InvitationView>, ApiError> {
    Ok(AppJson(
        service::staff::find_invitation(&state.db, &token).await?,
    ))
}

/// The account made or joined through an invitation, signed in.
#[derive(Debug, Serialize, ToSchema)]
pub struct Accepted {
    /// The user.
    pub user_id: Uuid,
    /// The tournament joined.
    pub tournament_id: Uuid,
    /// A bearer token of the new account (absent when a signed-in user accepted).
    pub token: Option<String>,
}

/// Uses an invitation: without a bearer token a new account is made with the given username
/// and password and signed in; with one the signed-in account joins (the body's fields are
/// then ignored). Single use.
#[utoipa::path(post, path = "/api/v1/invitations/{token}", tag = "staff",
    params(("token" = String, Path, description = "The link's secret")), request_body = Acceptance,
    responses((status = 201, body = Accepted), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn accept_invitation(
    State(state): State<AppState>,
    MaybeUser(actor): MaybeUser,
    crate::http::session::ClientIp(ip): crate::http::session::ClientIp,
    AppPath(token): AppPath<String>,
    AppJson(account): AppJson<Acceptance>,
) -> Result<(StatusCode, AppJson<Accepted>), ApiError> {
    let account = (actor.is_none()).then_some(account);
    if actor.is_none() {
        // Guessing links costs the same budget as guessing passwords.
        service::throttle::link_attempt(&state.db, &state.security.limits, ip).await?;
    }
    let (user_id, tournament_id) =
        service::staff::accept(&state.db, &token, actor.as_ref(), account.as_ref()).await?;
    let token = match actor {
        Some(_) => None,
        None => Some(service::staff::open_session(&state.db, user_id, "api").await?),
    };
    Ok((
        StatusCode::CREATED,
        AppJson(Accepted {
            user_id,
            tournament_id,
            token,
        }),
    ))
}
