//! A tournament's staff (SPEC §13): the chief arbiter assigns arbiters and scorers and removes
//! them, directly or through single-use invitation links; an admin names the chief.

use super::access::{self, Change, Need};
use super::users::{self, Actor};
use super::{Error, Result};
use crate::db;
use crate::i18n::messages as m;
use crate::vocab::{StaffRole, UserRole};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

/// One member of a tournament's staff.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StaffMember {
    /// User id.
    pub user_id: Uuid,
    /// Login name.
    pub username: String,
    /// `chief_arbiter`, `arbiter` or `scorer`.
    pub role: StaffRole,
}

impl From<db::staff::StaffRow> for StaffMember {
    fn from(row: db::staff::StaffRow) -> StaffMember {
        StaffMember {
            user_id: row.user_id,
            username: row.username,
            role: row.role,
        }
    }
}

/// An assignment to make: an existing account by name, and its role.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct StaffInput {
    /// Login name of an existing account.
    pub username: String,
    /// `arbiter` or `scorer`; `chief_arbiter` (admins only) makes the person the chief and the
    /// chief before an arbiter.
    pub role: String,
}

async fn tournament_exists(pool: &PgPool, tournament_id: Uuid) -> Result<()> {
    db::tournament::find(pool, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    Ok(())
}

/// The staff of a tournament (its staff and admins may look).
pub async fn list(pool: &PgPool, actor: &Actor, tournament_id: Uuid) -> Result<Vec<StaffMember>> {
    tournament_exists(pool, tournament_id).await?;
    let mut conn = pool.acquire().await?;
    access::require(&mut conn, actor, tournament_id, Need::Scorer).await?;
    Ok(db::staff::list(&mut *conn, tournament_id)
        .await?
        .into_iter()
        .map(StaffMember::from)
        .collect())
}

fn check_role(role: &str, chief_allowed: bool) -> Result<StaffRole> {
    match role.parse::<StaffRole>() {
        Ok(role @ (StaffRole::Arbiter | StaffRole::Scorer)) => Ok(role),
        Ok(StaffRole::ChiefArbiter) if chief_allowed => Ok(StaffRole::ChiefArbiter),
        _ if chief_allowed => Err(Error::invalid(
            "role",
            m::CHECK_ONE_OF.with(&[&"chief_arbiter, arbiter, scorer"]),
        )),
        _ => Err(Error::invalid(
            "role",
            m::CHECK_ONE_OF.with(&[&"arbiter, scorer"]),
        )),
    }
}

/// Assigns an account to the tournament (or changes its role there). The chief arbiter
/// assigns arbiters and scorers; only an admin names a chief arbiter.
pub async fn assign(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    input: &StaffInput,
) -> Result<StaffMember> {
    let role = check_role(&input.role, true)?;
    tournament_exists(pool, tournament_id).await?;
    let mut tx = pool.begin().await?;
    access::require(&mut tx, actor, tournament_id, Need::Chief).await?;
    if role == StaffRole::ChiefArbiter && !actor.is_admin() {
        return Err(Error::forbidden(m::ACCOUNT_ONLY_ADMIN_NAMES_CHIEF.msg()));
    }
    db::staff::lock(&mut *tx, tournament_id).await?;
    let user = db::user::find_by_username(&mut *tx, input.username.trim())
        .await?
        .filter(|u| !u.disabled)
        .ok_or_else(|| Error::invalid("username", m::ACCOUNT_NO_SUCH_ACTIVE_USER.msg()))?;
    let before = db::access::staff_role(&mut *tx, tournament_id, user.user_id).await?;
    if before == Some(StaffRole::ChiefArbiter) && role != StaffRole::ChiefArbiter {
        return Err(Error::conflict(m::ACCOUNT_CHIEF_ARBITER_KEEPS_ROLE.msg()));
    }
    if role == StaffRole::ChiefArbiter {
        db::staff::demote_chiefs(&mut *tx, tournament_id, user.user_id).await?;
    }
    db::access::assign(&mut *tx, tournament_id, user.user_id, role).await?;
    access::audit(
        &mut tx,
        tournament_id,
        Some(actor),
        Change {
            action: "assign",
            entity: "staff",
            entity_id: Some(user.user_id),
            before: before.map(|role| json!({"username": user.username, "role": role})),
            after: Some(json!({"username": user.username, "role": role})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(StaffMember {
        user_id: user.user_id,
        username: user.username,
        role,
    })
}

/// Removes someone from the tournament's staff (the chief arbiter, or an admin; the chief
/// arbiter is replaced by an admin, not removed by themself).
pub async fn remove(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    user_id: Uuid,
) -> Result<()> {
    tournament_exists(pool, tournament_id).await?;
    let mut tx = pool.begin().await?;
    access::require(&mut tx, actor, tournament_id, Need::Chief).await?;
    db::staff::lock(&mut *tx, tournament_id).await?;
    let role = db::access::staff_role(&mut *tx, tournament_id, user_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_STAFF_MEMBER))?;
    if role == StaffRole::ChiefArbiter && !actor.is_admin() {
        return Err(Error::conflict(m::ACCOUNT_CHIEF_ARBITER_KEEPS_ROLE.msg()));
    }
    db::staff::remove(&mut *tx, tournament_id, user_id).await?;
    access::audit(
        &mut tx,
        tournament_id,
        Some(actor),
        Change {
            action: "remove",
            entity: "staff",
            entity_id: Some(user_id),
            before: Some(json!({"role": role})),
            after: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A new invitation link.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct InvitationInput {
    /// `arbiter` or `scorer`.
    pub role: String,
    /// How long the link works, in minutes (default 60, at most 7 days).
    #[serde(default)]
    pub expires_in_minutes: Option<i32>,
}

/// An invitation as its tournament's chief arbiter sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InvitationView {
    /// Id (for withdrawing it).
    pub id: Uuid,
    /// The tournament.
    pub tournament_id: Uuid,
    /// The tournament's name.
    pub tournament_name: String,
    /// `arbiter` or `scorer`.
    pub role: StaffRole,
    /// The link stops working then.
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

impl From<db::staff::InvitationRow> for InvitationView {
    fn from(row: db::staff::InvitationRow) -> InvitationView {
        InvitationView {
            id: row.invitation_id,
            tournament_id: row.tournament_id,
            tournament_name: row.tournament_name,
            role: row.role,
            expires_at: row.expires_at,
        }
    }
}

/// A freshly made invitation and its secret (shown once: only its hash is stored).
#[derive(Debug, Clone)]
pub struct NewInvitation {
    /// The invitation.
    pub view: InvitationView,
    /// The token of the link `/invite/{token}`.
    pub token: String,
}

/// Makes a single-use invitation link for a role in the tournament (its chief arbiter).
pub async fn invite(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    input: &InvitationInput,
) -> Result<NewInvitation> {
    let role = check_role(&input.role, false)?;
    let minutes = input.expires_in_minutes.unwrap_or(60);
    if !(1..=7 * 24 * 60).contains(&minutes) {
        return Err(Error::invalid(
            "expires_in_minutes",
            m::CHECK_BETWEEN.with(&[&1, &(7 * 24 * 60)]),
        ));
    }
    tournament_exists(pool, tournament_id).await?;
    let token = users::random_token();
    let mut tx = pool.begin().await?;
    access::require(&mut tx, actor, tournament_id, Need::Chief).await?;
    let id = db::staff::insert_invitation(
        &mut *tx,
        &users::token_hash(&token),
        tournament_id,
        role,
        actor.user_id,
        minutes,
    )
    .await?;
    access::audit(
        &mut tx,
        tournament_id,
        Some(actor),
        Change {
            action: "invite",
            entity: "staff",
            entity_id: Some(id),
            before: None,
            after: Some(json!({"role": role, "minutes": minutes})),
        },
    )
    .await?;
    let row = db::staff::find_invitation(&mut *tx, &users::token_hash(&token))
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_INVITATION))?;
    tx.commit().await?;
    Ok(NewInvitation {
        view: row.into(),
        token,
    })
}

/// The live invitations of a tournament (its chief arbiter).
pub async fn list_invitations(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
) -> Result<Vec<InvitationView>> {
    tournament_exists(pool, tournament_id).await?;
    let mut conn = pool.acquire().await?;
    access::require(&mut conn, actor, tournament_id, Need::Chief).await?;
    Ok(db::staff::list_invitations(&mut *conn, tournament_id)
        .await?
        .into_iter()
        .map(InvitationView::from)
        .collect())
}

/// Withdraws an unused invitation (its chief arbiter).
pub async fn withdraw_invitation(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    invitation_id: Uuid,
) -> Result<()> {
    tournament_exists(pool, tournament_id).await?;
    let mut tx = pool.begin().await?;
    access::require(&mut tx, actor, tournament_id, Need::Chief).await?;
    if !db::staff::withdraw_invitation(&mut *tx, tournament_id, invitation_id).await? {
        return Err(Error::NotFound(m::NOT_FOUND_INVITATION));
    }
    access::audit(
        &mut tx,
        tournament_id,
        Some(actor),
        Change {
            action: "withdraw",
            entity: "invitation",
            entity_id: Some(invitation_id),
            before: None,
            after: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// What an invitation link offers (shown before it is used); `NotFound` when it is unknown,
/// a conflict that says so when it was used or has expired.
pub async fn find_invitation(pool: &PgPool, token: &str) -> Result<InvitationView> {
    let row = db::staff::find_invitation(pool, &users::token_hash(token)).await?;
    match row {
        Some(row) if !row.used && row.expires_at > chrono::Utc::now() => Ok(row.into()),
        other => Err(dead_invitation(other.as_ref())),
    }
}

/// Why a link cannot be used: unknown (404), used or withdrawn, or expired (409, in words
/// that tell the newcomer to ask for a new one).
fn dead_invitation(row: Option<&db::staff::InvitationRow>) -> Error {
    match row {
        None => Error::NotFound(m::NOT_FOUND_INVITATION),
        Some(row) if row.used => Error::conflict(m::ACCOUNT_INVITATION_USED.msg()),
        Some(_) => Error::conflict(m::ACCOUNT_INVITATION_EXPIRED.msg()),
    }
}

/// The account a newcomer sets up through an invitation.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct Acceptance {
    /// Login name, 1 to 64 characters.
    pub username: String,
    /// Password, at least 8 characters.
    pub password: String,
}

/// Uses an invitation: creates the newcomer's account (or takes the signed-in `actor`) and
/// assigns it the invitation's role, in one transaction; the link cannot be used again.
/// Returns the user id and the tournament id.
pub async fn accept(
    pool: &PgPool,
    token: &str,
    actor: Option<&Actor>,
    account: Option<&Acceptance>,
) -> Result<(Uuid, Uuid)> {
    if let (None, Some(account)) = (actor, account) {
        users::check_username(&account.username)?;
        users::check_new_password("password", &account.password)?;
    }
    let mut tx = pool.begin().await?;
    // Used in one statement first: two people opening one link cannot both join.
    let used = db::staff::use_invitation(&mut *tx, &users::token_hash(token), None).await?;
    let Some((invitation_id, tournament_id, role)) = used else {
        let row = db::staff::find_invitation(&mut *tx, &users::token_hash(token)).await?;
        return Err(dead_invitation(row.as_ref()));
    };
    let (user_id, username) = match (actor, account) {
        (Some(actor), _) => (actor.user_id, actor.username.clone()),
        (None, Some(account)) => {
            let id = users::insert_checked(
                &mut tx,
                &account.username,
                &account.password,
                UserRole::User.as_str(),
            )
            .await?;
            let after = json!({"username": account.username.trim(), "role": UserRole::User});
            users::audit_account(&mut tx, None, "create", id, Some(after)).await?;
            (id, account.username.trim().to_string())
        }
        (None, None) => {
            return Err(Error::invalid("username", m::CHECK_REQUIRED.msg()));
        }
    };
    sqlx::query("update staff_invitation set used_by = $2 where invitation_id = $1")
        .bind(invitation_id)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let before = db::access::staff_role(&mut *tx, tournament_id, user_id).await?;
    // An invitation never lowers a role the person already holds there.
    let keep = matches!(
        (before, role),
        (Some(StaffRole::ChiefArbiter), _) | (Some(StaffRole::Arbiter), StaffRole::Scorer)
    );
    if !keep {
        db::access::assign(&mut *tx, tournament_id, user_id, role).await?;
    }
    let newcomer = Actor {
        user_id,
        username,
        role: UserRole::User,
        session_id: None,
    };
    access::audit(
        &mut tx,
        tournament_id,
        Some(&newcomer),
        Change {
            action: "accept",
            entity: "invitation",
            entity_id: Some(invitation_id),
            before: None,
            after: Some(json!({"username": newcomer.username, "role": role})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok((user_id, tournament_id))
}

/// Opens a session for a user who just joined through an invitation (the newcomer typed the
/// password a moment ago; no second check).
pub async fn open_session(pool: &PgPool, user_id: Uuid, kind: &str) -> Result<String> {
    let token = users::random_token();
    db::user::insert_session(pool, &users::token_hash(&token), user_id, kind, 24 * 14).await?;
    Ok(token)
}
