//! Ties that matter (并列): entrants still equal after the whole tiebreak chain.
//!
//! The chain ranks them together (1, 2, 2, 4). That is right for a standings table, but some
//! actions need one order: the knockout cut-off, a section's champion for the grand final, and
//! prize places with different awards. Taking "the first row" would decide by storage order,
//! which nobody chose. Instead those actions answer 409 naming the tied entrants until the
//! arbiter decides: a drawing of lots by the server (CSPRNG seed, kept in the audit log, so
//! the draw can be replayed) or an explicit order. A decision covers exactly one tied group
//! and applies while the same entrants are still tied with each other and nobody else.

use super::access::{self, Change, Need};
use super::sections;
use super::state::{self, SectionState};
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::section::SectionRow;
use crate::db::tie::TieOrderRow;
use crate::i18n::messages::{self as m, Msg};
use crate::vocab::TieMethod;
use arbiter_core::standings::{self, Standings as StandingsTable};
use rand_core::{RngCore as _, SeedableRng as _};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// An entrant's place after the arbiter's decisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// Index of the row in the chain's order.
    pub index: usize,
    /// Entrant.
    pub entrant_id: Uuid,
    /// Rank: shared while still tied, distinct once decided.
    pub rank: u32,
    /// `lot` or `manual` when a decision ordered this entrant's group.
    pub decided_by: Option<TieMethod>,
}

/// Applies the decisions to rows in the chain's order (`(entrant, rank)`, tied rows sharing
/// their rank). A decision applies to a tied group when it was made for exactly that group.
pub fn apply(rows: &[(Uuid, u32)], decisions: &[TieOrderRow]) -> Vec<Placed> {
    let mut out = Vec::with_capacity(rows.len());
    let mut start = 0;
    while start < rows.len() {
        let rank = rows[start].1;
        let end = start + rows[start..].iter().take_while(|r| r.1 == rank).count();
        let group: Vec<usize> = (start..end).collect();
        let found: Vec<Option<&TieOrderRow>> = group
            .iter()
            .map(|&i| decisions.iter().find(|d| d.entrant_id == rows[i].0))
            .collect();
        let decision = match found.first() {
            Some(Some(first)) if group.len() > 1 => {
                let same = found
                    .iter()
                    .all(|d| d.is_some_and(|d| d.decision_id == first.decision_id));
                let size = decisions
                    .iter()
                    .filter(|d| d.decision_id == first.decision_id)
                    .count();
                (same && size == group.len()).then_some(first.method)
            }
            _ => None,
        };
        match decision {
            Some(method) => {
                let mut ordered: Vec<(i32, usize)> = group
                    .iter()
                    .zip(&found)
                    .map(|(&i, d)| (d.map_or(i32::MAX, |d| d.position), i))
                    .collect();
                ordered.sort();
                for (k, (_, i)) in ordered.into_iter().enumerate() {
                    out.push(Placed {
                        index: i,
                        entrant_id: rows[i].0,
                        rank: rank + k as u32,
                        decided_by: Some(method),
                    });
                }
            }
            None => out.extend(group.into_iter().map(|i| Placed {
                index: i,
                entrant_id: rows[i].0,
                rank,
                decided_by: None,
            })),
        }
        start = end;
    }
    out
}

/// A section's standings as the core ranks them, with the arbiter's tie decisions applied.
pub struct Decided {
    /// What the standings were computed from.
    pub state: SectionState,
    /// The chain's table.
    pub table: StandingsTable,
    /// The final order (indexes into `table.rows`).
    pub order: Vec<Placed>,
}

/// Loads a section and ranks it with the decisions applied.
pub async fn standings(conn: &mut PgConnection, section: SectionRow) -> Result<Decided> {
    let started = std::time::Instant::now();
    let state = state::load(conn, section, false).await?;
    tracing::debug!(
        load_us = started.elapsed().as_micros() as u64,
        "section loaded"
    );
    decide(conn, state).await
}

/// Ranks a loaded section with the decisions applied.
pub async fn decide(conn: &mut PgConnection, state: SectionState) -> Result<Decided> {
    let options = sections::standings_options(&state.section);
    let section_id = state.section.section_id;
    let started = std::time::Instant::now();
    let table = standings::rank(&state.tournament, &options);
    let ranked = started.elapsed();
    let decisions = db::tie::list(&mut *conn, section_id).await?;
    // Where a fresh computation's time goes (issue #38: `RUST_LOG=arbiter::service::ties=debug`).
    tracing::debug!(
        entrants = state.entrants.len(),
        rank_us = ranked.as_micros() as u64,
        decisions_us = (started.elapsed() - ranked).as_micros() as u64,
        "standings ranked"
    );
    let rows: Vec<(Uuid, u32)> = table
        .rows
        .iter()
        .map(|r| {
            let id = state
                .entrant_by_no(r.start_no)
                .map_or(Uuid::nil(), |e| e.entrant_id);
            (id, r.rank)
        })
        .collect();
    let order = apply(&rows, &decisions);
    Ok(Decided {
        state,
        table,
        order,
    })
}

impl Decided {
    /// The name of an entrant.
    pub fn name(&self, entrant_id: Uuid) -> String {
        self.state
            .entrants
            .iter()
            .find(|e| e.entrant_id == entrant_id)
            .map(|e| e.name.clone())
            .unwrap_or_default()
    }

    /// The still-tied group around position `at` (0-based in the final order), when it has
    /// more than one entrant.
    pub fn tie_at(&self, at: usize) -> Option<Vec<Uuid>> {
        let rank = self.order.get(at)?.rank;
        let group: Vec<Uuid> = self
            .order
            .iter()
            .filter(|p| p.rank == rank)
            .map(|p| p.entrant_id)
            .collect();
        (group.len() > 1).then_some(group)
    }

    /// The 409 for an action that needs an order inside a tie.
    pub fn refuse(&self, what: Msg, tied: &[Uuid]) -> Error {
        tied_error(
            what,
            &tied.iter().map(|id| self.name(*id)).collect::<Vec<_>>(),
        )
    }
}

/// The 409 for an action that needs an order inside a tie the chain leaves.
pub fn tied_error(what: Msg, names: &[String]) -> Error {
    Error::conflict(
        m::TIE_FALLS_INSIDE_TIE_TIEBREAK
            .msg()
            .and(what)
            .and_value(names.join(", ")),
    )
}

/// A decision as shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DecisionView {
    /// `lot` or `manual`.
    pub method: TieMethod,
    /// The lot's seed (hex), to replay the draw.
    pub seed: Option<String>,
}

/// One entrant of a tied group.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TiedEntrant {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: u32,
    /// Name.
    pub name: String,
}

/// Entrants the whole chain leaves tied.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TieGroup {
    /// The rank they share.
    pub rank: u32,
    /// In the decided order when decided, else in the chain's order.
    pub entrants: Vec<TiedEntrant>,
    /// The arbiter's decision, when one applies.
    pub decision: Option<DecisionView>,
}

fn groups(decided: &Decided, decisions: &[TieOrderRow]) -> Vec<TieGroup> {
    let mut out: Vec<TieGroup> = Vec::new();
    let mut i = 0;
    let rows = &decided.table.rows;
    while i < rows.len() {
        let rank = rows[i].rank;
        let end = i + rows[i..].iter().take_while(|r| r.rank == rank).count();
        if end - i > 1 {
            let members: Vec<usize> = (i..end).collect();
            let placed: Vec<&Placed> = decided
                .order
                .iter()
                .filter(|p| members.contains(&p.index))
                .collect();
            let decision = placed.first().and_then(|p| p.decided_by).map(|m| {
                let seed = decisions
                    .iter()
                    .find(|d| d.entrant_id == placed[0].entrant_id)
                    .and_then(|d| d.seed.clone());
                DecisionView { method: m, seed }
            });
            out.push(TieGroup {
                rank,
                entrants: placed
                    .iter()
                    .map(|p| TiedEntrant {
                        entrant_id: p.entrant_id,
                        start_no: rows[p.index].start_no,
                        name: decided.name(p.entrant_id),
                    })
                    .collect(),
                decision,
            });
        }
        i = end;
    }
    out
}

/// The tied groups of a section's standings (public: the standings show them anyway).
pub async fn list(pool: &PgPool, section_id: Uuid) -> Result<Vec<TieGroup>> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let decided = standings(&mut conn, section).await?;
    let decisions = db::tie::list(&mut *conn, section_id).await?;
    Ok(groups(&decided, &decisions))
}

/// How to break a tie.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TieInput {
    /// `lot` (the server draws, with a seed from the operating system's CSPRNG) or `manual`.
    pub method: String,
    /// The tied entrants: for `lot` in any order, for `manual` best first. They must be one
    /// whole group the chain leaves tied.
    pub entrants: Vec<Uuid>,
}

/// A permutation of `items` from a 32-byte seed (Fisher–Yates over ChaCha20): anyone with the
/// seed and the entrants sorted by starting number can replay the draw.
pub fn draw(items: &[Uuid], seed: [u8; 32]) -> Vec<Uuid> {
    let mut rng = rand_chacha::ChaCha20Rng::from_seed(seed);
    let mut out = items.to_vec();
    for i in (1..out.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out
}

/// Decides the order of one tied group, by lot or by the arbiter's order. Audited (with the
/// lot's seed).
pub async fn resolve(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    input: &TieInput,
) -> Result<TieGroup> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let mut check = super::check::Check::new();
    let method = check.word("method", &input.method, TieMethod::ALL, TieMethod::Lot);
    if input.entrants.len() < 2 {
        check.error("entrants", m::TIE_NAME_LEAST_TWO_TIED.msg());
    }
    check.finish()?;
    let decided = standings(&mut tx, section.clone()).await?;
    let rows = &decided.table.rows;
    let id_of = |i: usize| {
        decided
            .order
            .iter()
            .find(|p| p.index == i)
            .map(|p| p.entrant_id)
    };
    // The group is taken from the chain's own ranks, before any decision.
    let first = input.entrants[0];
    let Some(at) = (0..rows.len()).find(|&i| id_of(i) == Some(first)) else {
        return Err(Error::invalid(
            "entrants",
            m::FORM_NOT_ENTRANT_SECTION.msg(),
        ));
    };
    let rank = rows[at].rank;
    let mut group: Vec<(u32, Uuid)> = (0..rows.len())
        .filter(|&i| rows[i].rank == rank)
        .filter_map(|i| id_of(i).map(|id| (rows[i].start_no, id)))
        .collect();
    group.sort();
    let mut given = input.entrants.clone();
    given.sort();
    given.dedup();
    let mut expected: Vec<Uuid> = group.iter().map(|g| g.1).collect();
    expected.sort();
    if group.len() < 2 || given.len() != input.entrants.len() || given != expected {
        let names: Vec<String> = group.iter().map(|g| decided.name(g.1)).collect();
        return Err(Error::invalid(
            "entrants",
            m::TIE_MUST_EXACTLY_ONE_GROUP.with(&[&rank, &names.join(", ")]),
        ));
    }
    let by_number: Vec<Uuid> = group.iter().map(|g| g.1).collect();
    let (order, seed) = if method == TieMethod::Lot {
        let mut seed = [0u8; 32];
        rand_core::OsRng.fill_bytes(&mut seed);
        (draw(&by_number, seed), Some(hex::encode(seed)))
    } else {
        (input.entrants.clone(), None)
    };
    db::tie::replace(&mut tx, section_id, &order, method, seed.as_deref()).await?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "resolve_tie",
            entity: "section",
            entity_id: Some(section_id),
            before: None,
            after: Some(json!({
                "rank": rank, "method": method, "seed": seed,
                "drawn_from": by_number, "order": order,
                "names": order.iter().map(|id| decided.name(*id)).collect::<Vec<_>>(),
            })),
        },
    )
    .await?;
    let decided = standings(&mut tx, section).await?;
    let decisions = db::tie::list(&mut *tx, section_id).await?;
    tx.commit().await?;
    groups(&decided, &decisions)
        .into_iter()
        .find(|g| g.rank == rank)
        .ok_or(Error::Internal("the decided group is gone".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    fn decision(entrant: u128, decision: u128, position: i32) -> TieOrderRow {
        TieOrderRow {
            entrant_id: id(entrant),
            decision_id: id(decision),
            position,
            method: TieMethod::Manual,
            seed: None,
        }
    }

    #[test]
    fn a_decision_orders_exactly_its_group() {
        let rows = [(id(1), 1), (id(2), 1), (id(3), 3), (id(4), 3), (id(5), 3)];
        let none = apply(&rows, &[]);
        assert_eq!(
            none.iter().map(|p| p.rank).collect::<Vec<_>>(),
            [1, 1, 3, 3, 3]
        );
        let decided = apply(&rows, &[decision(1, 9, 2), decision(2, 9, 1)]);
        assert_eq!(
            decided
                .iter()
                .map(|p| (p.entrant_id, p.rank))
                .collect::<Vec<_>>(),
            [(id(2), 1), (id(1), 2), (id(3), 3), (id(4), 3), (id(5), 3)]
        );
        // A decision for two of a group of three does not apply.
        let partial = apply(&rows, &[decision(3, 8, 1), decision(4, 8, 2)]);
        assert!(partial[2..]
            .iter()
            .all(|p| p.rank == 3 && p.decided_by.is_none()));
        // Nor one made for a larger group that has since split.
        let stale = apply(
            &[(id(1), 1), (id(2), 2)],
            &[decision(1, 7, 1), decision(2, 7, 2)],
        );
        assert!(stale.iter().all(|p| p.decided_by.is_none()));
    }

    #[test]
    fn the_draw_is_a_permutation_replayable_from_its_seed() {
        let items: Vec<Uuid> = (1..=9).map(id).collect();
        let a = draw(&items, [7; 32]);
        assert_eq!(a, draw(&items, [7; 32]));
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, items);
        assert_ne!(a, draw(&items, [8; 32]));
    }
}
