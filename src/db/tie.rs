//! The arbiter's decisions for entrants tied after the whole tiebreak chain.

use crate::vocab::TieMethod;
use sqlx::PgExecutor;
use uuid::Uuid;

/// One entrant's place in a decided tie.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TieOrderRow {
    /// Entrant.
    pub entrant_id: Uuid,
    /// The decision (one per tied group).
    pub decision_id: Uuid,
    /// Place inside the group, 1 first.
    pub position: i32,
    /// By lot or by the arbiter's order.
    pub method: TieMethod,
    /// The lot's seed (hex).
    pub seed: Option<String>,
}

/// A section's tie decisions.
pub async fn list(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<TieOrderRow>> {
    sqlx::query_as::<_, TieOrderRow>(
        "select entrant_id, decision_id, position, method, seed from tie_order
         where section_id = $1 order by decision_id, position",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Records a decision for one tied group, replacing earlier ones of its entrants.
pub async fn replace(
    conn: &mut sqlx::PgConnection,
    section_id: Uuid,
    order: &[Uuid],
    method: TieMethod,
    seed: Option<&str>,
) -> sqlx::Result<Uuid> {
    sqlx::query("delete from tie_order where section_id = $1 and entrant_id = any($2)")
        .bind(section_id)
        .bind(order)
        .execute(&mut *conn)
        .await?;
    let decision_id = Uuid::new_v4();
    sqlx::query(
        "insert into tie_order (section_id, entrant_id, decision_id, position, method, seed)
         select $1, e.entrant_id, $2, e.position::int, $3, $4
         from unnest($5::uuid[]) with ordinality as e(entrant_id, position)",
    )
    .bind(section_id)
    .bind(decision_id)
    .bind(method)
    .bind(seed)
    .bind(order)
    .execute(&mut *conn)
    .await?;
    Ok(decision_id)
}
