//! The arbiter's desk of a section (台面): everything its dashboard page shows, loaded in one
//! call, and what the desk may do now (pair the next round; publish, edit or unpair a round).
//! The rules for those actions live here, next to the services that enforce them, so that a
//! page only shows what the services would accept.

use super::access::{self, Need, Powers};
use super::entrants::{EntrantView, ForbiddenPair, RequestedBye};
use super::registrations::RegistrationView;
use super::rounds::RoundView;
use super::sections::Section;
use super::tournaments::Tournament;
use super::users::Actor;
use super::Result;
use crate::vocab::{RoundStatus, SectionStatus};
use sqlx::PgPool;
use uuid::Uuid;

/// What may be done with one round at the desk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundActions {
    /// Round number.
    pub number: i32,
    /// It can be published (paired, not yet public) by this person.
    pub can_publish: bool,
    /// Its boards can be edited by hand (paired, unpublished, no result yet) by this person.
    pub editable: bool,
    /// It is the last round, the one that can be unpaired.
    pub last: bool,
    /// This person may unpair it (the last round, an arbiter).
    pub can_unpair: bool,
    /// Boards with a game (not the bye).
    pub games: usize,
    /// Games with a result.
    pub results: usize,
}

/// What the desk may do in a section now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actions {
    /// What the person at the desk may do at all (a scorer: results only).
    pub powers: Powers,
    /// Another round can be paired (fewer rounds than planned, section not cancelled) and the
    /// person at the desk may pair it.
    pub can_pair: bool,
    /// Per round, in round order.
    pub rounds: Vec<RoundActions>,
}

/// The actions the desk offers someone with `powers` for `section` with `rounds` paired.
pub fn actions(section: &Section, rounds: &[RoundView], powers: Powers) -> Actions {
    let paired = rounds.last().map_or(0, |r| r.number);
    let count = rounds.len();
    Actions {
        powers,
        can_pair: powers.arbiter
            && paired < section.rounds
            && section.status != SectionStatus::Cancelled,
        rounds: rounds
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let games = r.boards.iter().filter(|b| b.black.is_some()).count();
                let results = r
                    .boards
                    .iter()
                    .filter(|b| b.black.is_some() && b.result.is_some())
                    .count();
                RoundActions {
                    number: r.number,
                    can_publish: powers.arbiter && r.status == RoundStatus::Paired,
                    editable: powers.arbiter && r.status == RoundStatus::Paired && results == 0,
                    last: i + 1 == count,
                    can_unpair: powers.arbiter && i + 1 == count,
                    games,
                    results,
                }
            })
            .collect(),
    }
}

/// A section's desk: the section, its tournament, entrants (with contact data for those who
/// may see it), registrations, rounds, requested byes, forbidden pairs, and the actions.
pub struct Desk {
    /// The tournament.
    pub tournament: Tournament,
    /// The section.
    pub section: Section,
    /// Its entrants.
    pub entrants: Vec<EntrantView>,
    /// Its registrations.
    pub registrations: Vec<RegistrationView>,
    /// Its rounds, in order.
    pub rounds: Vec<RoundView>,
    /// Requested byes not yet used.
    pub byes: Vec<RequestedBye>,
    /// Pairs that must not meet.
    pub forbidden: Vec<ForbiddenPair>,
    /// What the desk may do now.
    pub actions: Actions,
}

/// Loads the desk of a section for `actor` (its staff; scorers may look).
pub async fn get(pool: &PgPool, actor: &Actor, section_id: Uuid) -> Result<Desk> {
    let section = super::sections::get(pool, section_id).await?;
    let mut conn = pool.acquire().await?;
    access::require(&mut conn, actor, section.tournament_id, Need::Scorer).await?;
    let powers = access::powers(&mut conn, actor, section.tournament_id).await?;
    drop(conn);
    let tournament = super::tournaments::get(pool, section.tournament_id).await?;
    let entrants = super::entrants::list(pool, Some(actor), section_id).await?;
    let registrations = super::registrations::list(pool, Some(actor), section_id).await?;
    let rounds = super::rounds::list(pool, section_id).await?;
    let byes = super::entrants::requested_byes(pool, section_id).await?;
    let forbidden = super::entrants::forbidden_pairs(pool, section_id).await?;
    let actions = actions(&section, &rounds, powers);
    Ok(Desk {
        tournament,
        section,
        entrants,
        registrations,
        rounds,
        byes,
        forbidden,
        actions,
    })
}
