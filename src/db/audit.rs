//! The append-only audit log.

use serde_json::Value;
use sqlx::PgExecutor;
use uuid::Uuid;

/// One event to append.
pub struct NewAuditEvent<'a> {
    /// The tournament it belongs to.
    pub tournament_id: Option<Uuid>,
    /// Who acted (None for the public, e.g. an online registration).
    pub user_id: Option<Uuid>,
    /// Display name of who acted (`public` for anonymous).
    pub actor: &'a str,
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

/// Appends an event.
pub async fn insert(db: impl PgExecutor<'_>, event: NewAuditEvent<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into audit_event (tournament_id, user_id, actor, action, entity, entity_id, before, after)
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
        event.tournament_id,
        event.user_id,
        event.actor,
        event.action,
        event.entity,
        event.entity_id,
        event.before,
        event.after
    )
    .execute(db)
    .await?;
    Ok(())
}

/// A stored event.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuditRow {
    /// Sequence number.
    pub audit_id: i64,
    /// Who.
    pub actor: String,
    /// Verb.
    pub action: String,
    /// Noun.
    pub entity: String,
    /// Id.
    pub entity_id: Option<Uuid>,
    /// Before.
    pub before: Option<Value>,
    /// After.
    pub after: Option<Value>,
    /// When.
    pub at: chrono::DateTime<chrono::Utc>,
    /// For history imported from an event file: its original time, actor and account there.
    pub imported: Option<Value>,
    /// Where it happened (section, round, board, players), written with the event.
    pub place: Option<Value>,
}

/// A tournament's events, oldest first, after `after_id`, at most `limit`.
pub async fn list(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    after_id: i64,
    limit: i64,
) -> sqlx::Result<Vec<AuditRow>> {
    sqlx::query_as::<_, AuditRow>(
        "select audit_id, actor, action, entity, entity_id, before, after, at, imported, place
         from audit_event where tournament_id = $1 and audit_id > $2 order by audit_id limit $3",
    )
    .bind(tournament_id)
    .bind(after_id)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The data version of a section: the sum of the ids of its tournament's newest committed
/// audit entries (`None` when nothing was recorded, or the section does not exist). Every change goes through a service that audits it in the same transaction, so
/// this number grows whenever a section's pages could change.
pub async fn section_version(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Option<i64>> {
    // The newest entry alone is not enough: audit ids are drawn when a row is written, not
    // when its transaction commits, so a result committed after a later-numbered one would
    // leave the newest id as it was and its change unseen by every cache keyed on it. Nor is
    // how many of the newest entries are visible, once a tournament has more than the window
    // holds: the late entry then pushes the oldest out and the count stays. The sum of the
    // window's ids grows with every commit that enters it (a new entry, or a late one, is
    // above the oldest it pushes out); a transaction would have to stay open across a
    // thousand later entries to slip past it.
    sqlx::query_scalar(
        "select sum(audit_id)::bigint from (
           select a.audit_id from audit_event a
            where a.tournament_id = (select s.tournament_id from section s where s.section_id = $1)
            order by a.audit_id desc limit $2) recent",
    )
    .bind(section_id)
    .bind(RECENT)
    .fetch_one(db)
    .await
}

/// How many of a tournament's newest audit entries [`section_version`] and [`recent`] read.
pub const RECENT: i64 = 1000;

/// One of the newest audit entries: what changed, without the details.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RecentEntry {
    /// Entry id.
    pub audit_id: i64,
    /// What was done.
    pub action: String,
    /// To what kind of thing.
    pub entity: String,
    /// To which.
    pub entity_id: Option<Uuid>,
}

/// The newest [`RECENT`] committed audit entries of a section's tournament, newest first:
/// [`section_version`] is the sum of their ids, and the entries tell what
/// changed since an earlier read (`service::state::kept`).
pub async fn recent(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<RecentEntry>> {
    sqlx::query_as(
        "select a.audit_id, a.action, a.entity, a.entity_id from audit_event a
          where a.tournament_id = (select s.tournament_id from section s where s.section_id = $1)
          order by a.audit_id desc limit $2",
    )
    .bind(section_id)
    .bind(RECENT)
    .fetch_all(db)
    .await
}

/// The data version [`section_version`] gives for the entries [`recent`] read.
pub fn version_of(recent: &[RecentEntry]) -> Option<i64> {
    (!recent.is_empty()).then(|| recent.iter().map(|e| e.audit_id).sum())
}

/// Who did `action` to one thing, and when, oldest first (e.g. the hand edits of a round).
pub async fn actions_on(
    db: impl PgExecutor<'_>,
    entity: &str,
    entity_id: Uuid,
    action: &str,
) -> sqlx::Result<Vec<(String, chrono::DateTime<chrono::Utc>)>> {
    sqlx::query_as::<_, (String, chrono::DateTime<chrono::Utc>)>(
        "select actor, at from audit_event
         where entity = $1 and entity_id = $2 and action = $3 order by audit_id",
    )
    .bind(entity)
    .bind(entity_id)
    .bind(action)
    .fetch_all(db)
    .await
}
