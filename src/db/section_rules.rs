//! A section's rules for players beside its settings row (issue 36, issue #39 item 9): self
//! check-in and its window, the absence rule, the payment instructions; and the absences the
//! rule counts.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

/// A section's rules for players.
#[derive(Debug, Clone, Default, PartialEq, Eq, FromRow)]
pub struct SectionRules {
    /// Whether entrants may check in with their key.
    pub self_check_in: bool,
    /// The self check-in window's start.
    pub check_in_opens_at: Option<DateTime<Utc>>,
    /// The self check-in window's end.
    pub check_in_closes_at: Option<DateTime<Utc>>,
    /// Absences without notice after which an entrant is withdrawn from pairing.
    pub absent_withdraw_after: Option<i32>,
    /// How to pay the fee (shown on the registration confirmation).
    pub payment_instructions: String,
}

/// A section's rules for players.
pub async fn get(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Option<SectionRules>> {
    sqlx::query_as::<_, SectionRules>(
        "select self_check_in, check_in_opens_at, check_in_closes_at, absent_withdraw_after,
                payment_instructions
         from section where section_id = $1",
    )
    .bind(section_id)
    .fetch_optional(db)
    .await
}

/// Stores a section's rules for players.
pub async fn put(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    rules: &SectionRules,
) -> sqlx::Result<()> {
    sqlx::query(
        "update section set self_check_in = $2, check_in_opens_at = $3, check_in_closes_at = $4,
                absent_withdraw_after = $5, payment_instructions = $6
         where section_id = $1",
    )
    .bind(section_id)
    .bind(rules.self_check_in)
    .bind(rules.check_in_opens_at)
    .bind(rules.check_in_closes_at)
    .bind(rules.absent_withdraw_after)
    .bind(&rules.payment_instructions)
    .execute(db)
    .await?;
    Ok(())
}

/// An entrant's absences without notice: games of the section it lost by forfeit (its own
/// side forfeited, or both did). A bye asked for is notice, and is not a game.
#[derive(Debug, Clone, FromRow)]
pub struct Absences {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// Games forfeited.
    pub absences: i64,
    /// Absences the desk forgave.
    pub excused: i32,
    /// The round from which it is withdrawn, if it is.
    pub withdrawn_from_round: Option<i32>,
}

/// The absences of a section's entrants who have any, by starting number.
pub async fn absences(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<Absences>> {
    sqlx::query_as::<_, Absences>(
        "select e.entrant_id, e.start_no, e.name, e.absences_excused as excused,
                e.withdrawn_from_round, count(*) as absences
         from entrant e
         join board b on e.entrant_id in (b.red_entrant_id, b.black_entrant_id)
         join round r on r.round_id = b.round_id and r.section_id = e.section_id
         join game g on g.board_id = b.board_id
         where e.section_id = $1
           and (g.result = 'double_forfeit'
                or (g.result = 'red_forfeits' and b.red_entrant_id = e.entrant_id)
                or (g.result = 'black_forfeits' and b.black_entrant_id = e.entrant_id))
         group by e.entrant_id
         order by e.start_no nulls last, e.seq",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Forgives an entrant's absences so far (the desk undid a withdrawal for absence).
pub async fn excuse(db: impl PgExecutor<'_>, entrant_id: Uuid, absences: i32) -> sqlx::Result<()> {
    sqlx::query("update entrant set absences_excused = $2 where entrant_id = $1")
        .bind(entrant_id)
        .bind(absences)
        .execute(db)
        .await?;
    Ok(())
}

/// Whether the section's starting numbers were drawn by lot at the desk (an audited
/// renumbering by lot).
pub async fn lot_drawn(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar::<_, bool>(
        "select exists (select 1 from audit_event
                        where entity = 'section' and entity_id = $1 and action = 'renumber'
                          and after ->> 'order' = 'lot')",
    )
    .bind(section_id)
    .fetch_one(db)
    .await
}
