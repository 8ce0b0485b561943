//! Starting numbers (issue #39 item 6; RULES.md "序号": registration order by default, or by
//! rating or lot before round 1; frozen once round 1 is paired). A number is given when an
//! entrant is added (the next free one) and never changes by itself: renumbering is the
//! desk's explicit action before round 1 (`renumber`, audited with every old and new number),
//! because printed lists, key cards and badges carry the numbers. Pairing round 1 uses the
//! numbers as they stand; when the section's round-1 numbering is by rating or by lot and the
//! numbers are not (yet) in that order, pairing is refused with a message that says to
//! renumber, instead of renumbering silently.

use super::access::{self, Change, Need};
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::entrant::EntrantRow;
use crate::db::section::SectionRow;
use crate::i18n::messages as m;
use crate::vocab::RoundOneOrder;
use rand_core::{RngCore, SeedableRng};
use serde::Serialize;
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// One entrant's number before and after a renumbering.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NumberChange {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Name.
    pub name: String,
    /// The number it had.
    pub from: Option<i32>,
    /// The number it has now.
    pub to: i32,
}

/// What a renumbering did (or would do).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Renumbering {
    /// The order used: the section's round-1 numbering.
    pub order: RoundOneOrder,
    /// The seed of a draw by lot (kept in the audit log).
    pub lot_seed: Option<u64>,
    /// Every entrant whose number changes.
    pub changes: Vec<NumberChange>,
}

/// The rating order: highest first, unrated last, registration order among equals.
fn by_rating(e: &EntrantRow) -> (std::cmp::Reverse<i32>, i64) {
    (std::cmp::Reverse(e.rating.unwrap_or(-1)), e.seq)
}

/// The numbering of `entrants` in `order` (1, 2, …), and the lot's seed.
fn numbering(
    entrants: &[EntrantRow],
    order: RoundOneOrder,
    seed: Option<u64>,
) -> (Vec<(Uuid, i32)>, Option<u64>) {
    let mut order_of: Vec<&EntrantRow> = entrants.iter().collect();
    order_of.sort_by_key(|e| e.seq);
    let mut lot_seed = None;
    match order {
        RoundOneOrder::Rating => order_of.sort_by_key(|e| by_rating(e)),
        RoundOneOrder::Lot => {
            let seed = seed.unwrap_or_else(|| rand_core::OsRng.next_u64());
            lot_seed = Some(seed);
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            for i in (1..order_of.len()).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                order_of.swap(i, j);
            }
        }
        RoundOneOrder::Registration => {}
    }
    (
        order_of
            .iter()
            .enumerate()
            .map(|(i, e)| (e.entrant_id, i as i32 + 1))
            .collect(),
        lot_seed,
    )
}

fn changes(entrants: &[EntrantRow], numbers: &[(Uuid, i32)]) -> Vec<NumberChange> {
    let mut changes: Vec<NumberChange> = numbers
        .iter()
        .filter_map(|(id, to)| {
            let e = entrants.iter().find(|e| e.entrant_id == *id)?;
            (e.start_no != Some(*to)).then(|| NumberChange {
                entrant_id: e.entrant_id,
                name: e.name.clone(),
                from: e.start_no,
                to: *to,
            })
        })
        .collect();
    changes.sort_by_key(|c| c.to);
    changes
}

/// What renumbering the section now would change (a draw by lot: a sample draw, for the
/// count only; the real one is drawn when the desk confirms).
pub async fn preview(pool: &PgPool, actor: &Actor, section_id: Uuid) -> Result<Renumbering> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut conn, actor, section.tournament_id, Need::Arbiter).await?;
    if db::round::count(&mut *conn, section_id).await? > 0 {
        return Err(Error::conflict(m::NUMBERS_FIXED.msg()));
    }
    let entrants = db::entrant::list(&mut *conn, section_id).await?;
    let (numbers, _) = numbering(&entrants, section.round1_order, None);
    Ok(Renumbering {
        order: section.round1_order,
        lot_seed: None,
        changes: changes(&entrants, &numbers),
    })
}

/// Renumbers a section's entrants 1, 2, … in its round-1 order (registration, rating or a
/// draw by lot), before round 1 only (409 after); audited with every change and the lot's
/// seed. One transaction under the section's lock.
pub async fn renumber(pool: &PgPool, actor: &Actor, section_id: Uuid) -> Result<Renumbering> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    if db::round::count(&mut *tx, section_id).await? > 0 {
        return Err(Error::conflict(m::NUMBERS_FIXED.msg()));
    }
    let entrants = db::entrant::list(&mut *tx, section_id).await?;
    let (numbers, lot_seed) = numbering(&entrants, section.round1_order, None);
    let changed = changes(&entrants, &numbers);
    if !changed.is_empty() {
        db::entrant::renumber(&mut tx, &numbers).await?;
    }
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "renumber",
            entity: "section",
            entity_id: Some(section_id),
            before: None,
            after: Some(json!({
                "section": section.name, "order": section.round1_order,
                "lot_seed": lot_seed, "changes": changed,
            })),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Renumbering {
        order: section.round1_order,
        lot_seed,
        changes: changed,
    })
}

/// Before round 1 is paired: the numbers must already be in the section's round-1 order when
/// that is by rating or by lot (409 saying to renumber); registration order takes the
/// numbers as they stand (a gap left by a removed entrant stays: the numbers are printed).
pub(crate) async fn check_round_one(conn: &mut PgConnection, section: &SectionRow) -> Result<()> {
    match section.round1_order {
        RoundOneOrder::Registration => Ok(()),
        RoundOneOrder::Rating => {
            let entrants = db::entrant::list(&mut *conn, section.section_id).await?;
            let mut numbered: Vec<&EntrantRow> =
                entrants.iter().filter(|e| e.start_no.is_some()).collect();
            numbered.sort_by_key(|e| e.start_no);
            let in_order = numbered
                .windows(2)
                .all(|w| w[0].rating.unwrap_or(-1) >= w[1].rating.unwrap_or(-1));
            if in_order {
                Ok(())
            } else {
                Err(Error::conflict(m::NUMBERS_NOT_IN_RATING_ORDER.msg()))
            }
        }
        RoundOneOrder::Lot => {
            if db::section_rules::lot_drawn(&mut *conn, section.section_id).await? {
                Ok(())
            } else {
                Err(Error::conflict(m::NUMBERS_NOT_DRAWN.msg()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seq: i64, no: i32, rating: Option<i32>) -> EntrantRow {
        EntrantRow {
            entrant_id: Uuid::from_u128(seq as u128),
            section_id: Uuid::nil(),
            start_no: Some(no),
            name: format!("E{seq}"),
            rating,
            club: None,
            status: crate::vocab::EntrantStatus::Active,
            checked_in: false,
            seq,
            joined_round: 1,
            withdrawn_from_round: None,
            version: 0,
        }
    }

    #[test]
    fn registration_order_closes_gaps_and_rating_order_puts_the_unrated_last() {
        // #3 was removed: registration order numbers 1, 2, 3.
        let entrants = vec![
            row(1, 1, Some(1500)),
            row(2, 2, None),
            row(4, 4, Some(1800)),
        ];
        let (numbers, seed) = numbering(&entrants, RoundOneOrder::Registration, None);
        assert_eq!(seed, None);
        assert_eq!(changes(&entrants, &numbers).len(), 1);
        let (numbers, _) = numbering(&entrants, RoundOneOrder::Rating, None);
        let order: Vec<i64> = numbers
            .iter()
            .map(|(id, _)| entrants.iter().find(|e| e.entrant_id == *id).unwrap().seq)
            .collect();
        assert_eq!(order, vec![4, 1, 2]);
        // A draw by lot is reproducible from its seed.
        let (a, seed) = numbering(&entrants, RoundOneOrder::Lot, Some(7));
        let (b, _) = numbering(&entrants, RoundOneOrder::Lot, seed);
        assert_eq!(a, b);
    }
}
