//! The absence rule (issue 36): an entrant absent without notice — a game lost by forfeit, its
//! own side's or both; a bye asked for beforehand is notice — from N rounds of a section whose
//! rule says N is withdrawn from pairing when the next round is paired (from that round on,
//! audited as `withdraw_absent`, named in the round's pairing report). The desk sees who was
//! withdrawn, and who will be at the next pairing, on the rounds tab; re-admission undoes it
//! and forgives the absences so far (`entrant.absences_excused`), so the rule counts only
//! later ones.

use super::access::{self, Change};
use super::users::Actor;
use super::Result;
use crate::db;
use crate::db::section::SectionRow;
use crate::vocab::EntrantStatus;
use serde::Serialize;
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// An entrant the rule touches.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AbsentEntrant {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// Absences without notice counted by the rule (after those forgiven).
    pub absences: i64,
    /// The round it is withdrawn from (none: not yet).
    pub withdrawn_from_round: Option<i32>,
}

/// What the desk sees of the rule.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct AbsenceList {
    /// The rule: absences that withdraw (none: the section has no such rule).
    pub rule: Option<i32>,
    /// Withdrawn by the rule (re-admission undoes it).
    pub withdrawn: Vec<AbsentEntrant>,
    /// Still active and at the limit: withdrawn when the next round is paired.
    pub due: Vec<AbsentEntrant>,
}

/// The entrants of a section at the rule's limit, withdrawn or not.
async fn at_limit(
    conn: &mut PgConnection,
    section_id: Uuid,
) -> Result<(Option<i32>, Vec<(AbsentEntrant, bool)>)> {
    let rule = db::section_rules::get(&mut *conn, section_id)
        .await?
        .and_then(|r| r.absent_withdraw_after);
    let Some(n) = rule else {
        return Ok((None, Vec::new()));
    };
    let entrants = db::entrant::list(&mut *conn, section_id).await?;
    let rows = db::section_rules::absences(&mut *conn, section_id).await?;
    let hits = rows
        .into_iter()
        .filter(|a| a.absences - i64::from(a.excused) >= i64::from(n))
        .filter_map(|a| {
            let active = entrants
                .iter()
                .find(|e| e.entrant_id == a.entrant_id)?
                .status
                == EntrantStatus::Active;
            Some((
                AbsentEntrant {
                    entrant_id: a.entrant_id,
                    start_no: a.start_no,
                    name: a.name,
                    absences: a.absences - i64::from(a.excused),
                    withdrawn_from_round: a.withdrawn_from_round,
                },
                active,
            ))
        })
        .collect();
    Ok((Some(n), hits))
}

/// What the desk sees of the rule in a section.
pub async fn of_section(pool: &PgPool, section_id: Uuid) -> Result<AbsenceList> {
    let mut conn = pool.acquire().await?;
    let (rule, hits) = at_limit(&mut conn, section_id).await?;
    let mut list = AbsenceList {
        rule,
        ..AbsenceList::default()
    };
    for (entrant, active) in hits {
        if active {
            list.due.push(entrant);
        } else {
            list.withdrawn.push(entrant);
        }
    }
    Ok(list)
}

/// Applies the rule before round `round` is paired (the caller holds the section's lock and
/// its transaction): every active entrant at the limit is withdrawn from `round` on, each
/// audited. Returns them.
pub(crate) async fn withdraw_before_pairing(
    conn: &mut PgConnection,
    actor: &Actor,
    section: &SectionRow,
    round: i32,
) -> Result<Vec<AbsentEntrant>> {
    let (rule, hits) = at_limit(conn, section.section_id).await?;
    let Some(n) = rule else {
        return Ok(Vec::new());
    };
    let mut withdrawn = Vec::new();
    for (mut entrant, active) in hits {
        if !active {
            continue;
        }
        db::entrant::set_status(
            &mut *conn,
            entrant.entrant_id,
            EntrantStatus::Withdrawn,
            Some(round),
        )
        .await?;
        entrant.withdrawn_from_round = Some(round);
        access::audit(
            conn,
            section.tournament_id,
            Some(actor),
            Change {
                action: "withdraw_absent",
                entity: "entrant",
                entity_id: Some(entrant.entrant_id),
                before: Some(json!({"status": "active"})),
                after: Some(json!({
                    "status": "withdrawn", "from_round": round, "absences": entrant.absences,
                    "rule": n, "start_no": entrant.start_no, "name": entrant.name,
                    "section": section.name,
                })),
            },
        )
        .await?;
        withdrawn.push(entrant);
    }
    Ok(withdrawn)
}

/// Forgives an entrant's absences so far (its re-admission; the caller's transaction).
pub(crate) async fn forgive(
    conn: &mut PgConnection,
    section_id: Uuid,
    entrant_id: Uuid,
) -> Result<()> {
    let rows = db::section_rules::absences(&mut *conn, section_id).await?;
    if let Some(a) = rows.iter().find(|a| a.entrant_id == entrant_id) {
        let n = i32::try_from(a.absences).unwrap_or(i32::MAX);
        if n > a.excused {
            db::section_rules::excuse(&mut *conn, entrant_id, n).await?;
        }
    }
    Ok(())
}
