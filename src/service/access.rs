//! Authorisation and the audit trail: who may change a tournament, and the record of it.

use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::i18n::messages as m;
use crate::vocab::StaffRole;
use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

/// What an action needs. A person's role in a tournament belongs to the assignment
/// (`tournament_staff.role`), not the account; admins may do everything everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Managing the tournament's staff: its chief arbiter.
    Chief,
    /// Organising the event: the chief arbiter and the arbiters.
    Arbiter,
    /// Entering results and knockout games: the above, plus the scorers.
    Scorer,
}

impl Need {
    fn allows(self, role: StaffRole) -> bool {
        match self {
            Need::Chief => role == StaffRole::ChiefArbiter,
            Need::Arbiter => matches!(role, StaffRole::ChiefArbiter | StaffRole::Arbiter),
            Need::Scorer => matches!(
                role,
                StaffRole::ChiefArbiter | StaffRole::Arbiter | StaffRole::Scorer
            ),
        }
    }
}

/// Refuses unless `actor` may act on `tournament_id` (admins everywhere; staff by the role of
/// their assignment).
pub async fn require(
    conn: &mut PgConnection,
    actor: &Actor,
    tournament_id: Uuid,
    need: Need,
) -> Result<()> {
    if actor.is_admin() {
        return Ok(());
    }
    let role = db::access::staff_role(&mut *conn, tournament_id, actor.user_id).await?;
    match role {
        Some(role) if need.allows(role) => Ok(()),
        Some(_) if need == Need::Chief => Err(Error::forbidden(
            m::ACCOUNT_ONLY_CHIEF_ARBITER_TOURNAMENT.msg(),
        )),
        Some(_) => Err(Error::forbidden(
            m::ACCOUNT_SCORERS_TOURNAMENT_MAY_ONLY.msg(),
        )),
        None => Err(Error::forbidden(m::ACCOUNT_YOU_ARE_NOT_ARBITER.msg())),
    }
}

/// Refuses unless `actor` may import an event file (a whole tournament from another server):
/// admins, and accounts that are the chief arbiter of at least one tournament here (the
/// organisers). An account with no role (a scorer's or arbiter's only, or none at all) may
/// not: an import is the heaviest request the server takes and brings a whole event's data.
pub async fn require_importer(conn: &mut PgConnection, actor: &Actor) -> Result<()> {
    if actor.is_admin() || db::access::is_chief_anywhere(&mut *conn, actor.user_id).await? {
        return Ok(());
    }
    Err(Error::forbidden(m::EVENT_FILE_IMPORT_WHO.msg()))
}

/// [`require`] before anything of the request is read: a caller who may not act gets 403
/// whatever their input (not a 422 that tells them about it).
pub async fn require_first(
    pool: &sqlx::PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    need: Need,
) -> Result<()> {
    let mut conn = pool.acquire().await?;
    require(&mut conn, actor, tournament_id, need).await
}

/// [`require_first`] for a section's tournament (`NotFound` without the section).
pub async fn require_first_in_section(
    pool: &sqlx::PgPool,
    actor: &Actor,
    section_id: Uuid,
    need: Need,
) -> Result<()> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    require(&mut conn, actor, section.tournament_id, need).await
}

/// Whether `actor` may see the tournament's private data (contact details): its chief arbiter
/// and arbiters, and admins; not its scorers (SPEC §13).
pub async fn can_see_private(
    conn: &mut PgConnection,
    actor: Option<&Actor>,
    tournament_id: Uuid,
) -> Result<bool> {
    match actor {
        None => Ok(false),
        Some(actor) => Ok(require(conn, actor, tournament_id, Need::Arbiter)
            .await
            .is_ok()),
    }
}

/// What a person may do in one tournament, so that a page shows each role only the forms its
/// services would accept (a scorer sees result entry, not pairing, settings or payments).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Powers {
    /// Organising the event ([`Need::Arbiter`]).
    pub arbiter: bool,
    /// Managing its staff ([`Need::Chief`]).
    pub chief: bool,
}

impl Powers {
    /// The powers of a role (admins: every power).
    pub fn of(role: Option<StaffRole>, admin: bool) -> Powers {
        let has = |need: Need| admin || role.is_some_and(|role| need.allows(role));
        Powers {
            arbiter: has(Need::Arbiter),
            chief: has(Need::Chief),
        }
    }
}

/// The powers `actor` holds in `tournament_id`.
pub async fn powers(conn: &mut PgConnection, actor: &Actor, tournament_id: Uuid) -> Result<Powers> {
    if actor.is_admin() {
        return Ok(Powers::of(None, true));
    }
    let role = db::access::staff_role(&mut *conn, tournament_id, actor.user_id).await?;
    Ok(Powers::of(role, false))
}

/// The role `actor` holds in `tournament_id` (`admin` for admins), if any.
pub async fn role_in(
    conn: &mut PgConnection,
    actor: &Actor,
    tournament_id: Uuid,
) -> Result<Option<String>> {
    if actor.is_admin() {
        return Ok(Some("admin".into()));
    }
    let role = db::access::staff_role(&mut *conn, tournament_id, actor.user_id).await?;
    Ok(role.map(|role| role.as_str().to_string()))
}

/// One change for the audit log.
pub struct Change<'a> {
    /// Verb, e.g. `create`, `pair`, `result`.
    pub action: &'a str,
    /// Noun, e.g. `section`, `round`, `game`.
    pub entity: &'a str,
    /// Id of the thing changed.
    pub entity_id: Option<Uuid>,
    /// State before (None when created).
    pub before: Option<Value>,
    /// State after (None when deleted).
    pub after: Option<Value>,
}

/// Appends an audit event in the caller's transaction.
pub async fn audit(
    conn: &mut PgConnection,
    tournament_id: Uuid,
    actor: Option<&Actor>,
    change: Change<'_>,
) -> Result<()> {
    db::audit::insert(conn, audit_event(tournament_id, actor, change)).await?;
    Ok(())
}

/// The audit event of a change, for a statement that writes it together with the change
/// itself (the results' hot path: one round trip).
pub fn audit_event<'a>(
    tournament_id: Uuid,
    actor: Option<&'a Actor>,
    change: Change<'a>,
) -> db::audit::NewAuditEvent<'a> {
    db::audit::NewAuditEvent {
        tournament_id: Some(tournament_id),
        user_id: actor.map(|a| a.user_id),
        actor: actor.map_or("public", |a| a.username.as_str()),
        action: change.action,
        entity: change.entity,
        entity_id: change.entity_id,
        before: change.before,
        after: change.after,
    }
}
