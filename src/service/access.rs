//! Authorisation and the audit trail: who may change a tournament, and the record of it.

use super::users::Actor;
use super::{Error, Result};
use crate::db;
use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

/// What an action needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Organising the event: admins and the tournament's arbiters.
    Arbiter,
    /// Entering results: the above, plus the tournament's scorers.
    Scorer,
}

/// Refuses unless `actor` may act on `tournament_id` (admins everywhere; arbiters and scorers
/// where assigned).
pub async fn require(
    conn: &mut PgConnection,
    actor: &Actor,
    tournament_id: Uuid,
    need: Need,
) -> Result<()> {
    if actor.role == "admin" {
        return Ok(());
    }
    let role_fits = match need {
        Need::Arbiter => actor.role == "arbiter",
        Need::Scorer => actor.role == "arbiter" || actor.role == "scorer",
    };
    if role_fits && db::access::is_assigned(&mut *conn, tournament_id, actor.user_id).await? {
        return Ok(());
    }
    Err(Error::Forbidden(
        "you are not an arbiter of this tournament".into(),
    ))
}

/// Whether `actor` may see the tournament's private data (contact details).
pub async fn can_see_private(
    conn: &mut PgConnection,
    actor: Option<&Actor>,
    tournament_id: Uuid,
) -> Result<bool> {
    match actor {
        None => Ok(false),
        Some(actor) => Ok(require(conn, actor, tournament_id, Need::Scorer)
            .await
            .is_ok()),
    }
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
    db::audit::insert(
        conn,
        db::audit::NewAuditEvent {
            tournament_id: Some(tournament_id),
            user_id: actor.map(|a| a.user_id),
            actor: actor.map_or("public", |a| a.username.as_str()),
            action: change.action,
            entity: change.entity,
            entity_id: change.entity_id,
            before: change.before,
            after: change.after,
        },
    )
    .await?;
    Ok(())
}
