//! Knockout stage (淘汰赛): snake seeding (蛇形编排), bracket progression with an optional
//! 3rd-place match (季/殿军), best-of-N matches with a rapid → armageddon tiebreak chain, the
//! final ranking, and playoffs between section champions (RULES §2, SPEC §7).
//!
//! Everything here is plain data plus pure functions. The server stores the games of each
//! match and the bracket's match winners, and rebuilds the state by replaying them:
//! [`Match::state`] is computed from the recorded games only, and [`Bracket`] derives every
//! later round from the recorded winners.

mod matchplay;
mod seeding;

pub use matchplay::{
    DecideBy, DecidedBy, GameOutcome, GamePhase, LaterOddGames, Match, MatchGame, MatchRules,
    MatchScore, MatchState, NextColours, OpenColours, TiebreakKind, TiebreakStage,
};
pub use seeding::{bracket_size, snake_order, MAX_BRACKET, MIN_BRACKET};

use serde::{Deserialize, Serialize};

/// Who plays in a knockout: the section's starting number, or any id the server maps
/// (e.g. for a playoff between champions of different sections).
pub type EntrantId = u32;

/// Why a knockout operation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnockoutError {
    /// Occurs when a bracket is asked for fewer than 2 or more than 64 entrants, or a snake
    /// order for a size that is not a power of two.
    #[error("a knockout bracket holds 2 to 64 entrants (power of two for the order), not {0}")]
    BadBracketSize(u32),
    /// Occurs when the same entrant is seeded twice.
    #[error("entrant {0} is seeded twice")]
    DuplicateEntrant(EntrantId),
    /// Occurs when a round or match index does not exist or is not ready.
    #[error("no match {index} in round {round}")]
    NoSuchMatch {
        /// 1-based round.
        round: u32,
        /// 0-based match index.
        index: usize,
    },
    /// Occurs when an entrant is named for a match it does not play.
    #[error("entrant {0} does not play in this match")]
    NotInMatch(EntrantId),
    /// Occurs when a game is recorded with colours the rules fix otherwise.
    #[error("the rules fix the other colours for this game")]
    WrongColours,
    /// Occurs when a game or lot is recorded for a match that does not need one.
    #[error("the match needs no game or lot now")]
    MatchOver,
    /// Occurs when match rules are unusable.
    #[error("bad match rules: {0}")]
    BadRules(String),
    /// Occurs when a final ranking is asked for before the bracket is finished.
    #[error("the bracket is not finished")]
    Unfinished,
}

/// One match slot of a bracket round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BracketSlot {
    /// 1-based round (1 = first round, last = final).
    pub round: u32,
    /// 0-based index from the top of the bracket.
    pub index: usize,
    /// Upper entrant (`None`: a bye or not yet known).
    pub top: Option<EntrantId>,
    /// Lower entrant (`None`: a bye or not yet known).
    pub bottom: Option<EntrantId>,
    /// Winner, when decided (a bye's winner is decided at once).
    pub winner: Option<EntrantId>,
}

impl BracketSlot {
    /// Both entrants known and no winner yet: the match is to be played.
    pub fn is_playable(&self) -> bool {
        self.top.is_some() && self.bottom.is_some() && self.winner.is_none()
    }

    /// The loser of a played, decided match.
    pub fn loser(&self) -> Option<EntrantId> {
        let (top, bottom, winner) = (self.top?, self.bottom?, self.winner?);
        Some(if winner == top { bottom } else { top })
    }
}

/// A single-elimination bracket seeded by the snake order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bracket {
    /// Power of two ≥ the number of entrants.
    pub size: u32,
    /// Entrants by seed: `seeds[0]` is seed 1 (the best of the prelim ranking).
    pub seeds: Vec<EntrantId>,
    /// Whether the semi-final losers play for 3rd place.
    pub third_place_match: bool,
    /// Recorded winners: `winners[r][i]` for round `r + 1`, match `i`.
    pub winners: Vec<Vec<Option<EntrantId>>>,
    /// Recorded winner of the 3rd-place match.
    pub third_place_winner: Option<EntrantId>,
}

impl Bracket {
    /// A bracket for `seeds` (best first). Missing seeds up to the next power of two are
    /// byes, which fall to the top seeds.
    pub fn new(seeds: Vec<EntrantId>, third_place_match: bool) -> Result<Bracket, KnockoutError> {
        let size = bracket_size(seeds.len() as u32)?;
        let mut seen = std::collections::BTreeSet::new();
        for &s in &seeds {
            if !seen.insert(s) {
                return Err(KnockoutError::DuplicateEntrant(s));
            }
        }
        let rounds = size.trailing_zeros();
        let winners = (0..rounds)
            .map(|r| vec![None; (size >> (r + 1)) as usize])
            .collect();
        Ok(Bracket {
            size,
            seeds,
            third_place_match: third_place_match && size >= 4,
            winners,
            third_place_winner: None,
        })
    }

    /// Number of rounds (the final is the last).
    pub fn rounds(&self) -> u32 {
        self.size.trailing_zeros()
    }

    /// The slots of round `round` (1-based) as known from the recorded winners.
    pub fn round(&self, round: u32) -> Result<Vec<BracketSlot>, KnockoutError> {
        if round == 0 || round > self.rounds() {
            return Err(KnockoutError::NoSuchMatch { round, index: 0 });
        }
        let entrants: Vec<Option<EntrantId>> = if round == 1 {
            snake_order(self.size)?
                .into_iter()
                .map(|seed| self.seeds.get(seed as usize - 1).copied())
                .collect()
        } else {
            self.round(round - 1)?.iter().map(|s| s.winner).collect()
        };
        let recorded = &self.winners[round as usize - 1];
        Ok(entrants
            .chunks(2)
            .enumerate()
            .map(|(index, pair)| {
                let (top, bottom) = (pair[0], pair[1]);
                let winner = match (top, bottom) {
                    // A bye: the present entrant advances. Only round 1 can have byes,
                    // because byes go to seeds that win them at once.
                    (Some(t), None) if round == 1 => Some(t),
                    (None, Some(b)) if round == 1 => Some(b),
                    (Some(_), Some(_)) => recorded[index],
                    _ => None,
                };
                BracketSlot {
                    round,
                    index,
                    top,
                    bottom,
                    winner,
                }
            })
            .collect())
    }

    /// The 3rd-place match (semi-final losers), if configured; entrants are `None` until the
    /// semi-finals are decided.
    pub fn third_place(&self) -> Option<BracketSlot> {
        if !self.third_place_match {
            return None;
        }
        let semis = self.round(self.rounds() - 1).ok()?;
        let top = semis.first().and_then(BracketSlot::loser);
        let bottom = semis.get(1).and_then(BracketSlot::loser);
        let winner = match (top, bottom) {
            (Some(_), Some(_)) => self.third_place_winner,
            (Some(t), None) if semis.get(1).is_some_and(|s| s.winner.is_some()) => Some(t),
            (None, Some(b)) if semis.first().is_some_and(|s| s.winner.is_some()) => Some(b),
            _ => None,
        };
        Some(BracketSlot {
            round: self.rounds(),
            index: 1,
            top,
            bottom,
            winner,
        })
    }

    /// Every match that can be played now (both entrants known, no winner).
    pub fn playable(&self) -> Vec<BracketSlot> {
        let mut out: Vec<BracketSlot> = (1..=self.rounds())
            .filter_map(|r| self.round(r).ok())
            .flatten()
            .filter(BracketSlot::is_playable)
            .collect();
        out.extend(self.third_place().filter(BracketSlot::is_playable));
        out
    }

    /// Records the winner of match `index` of round `round`. Re-recording the same winner
    /// is allowed; changing a winner whose later matches are decided is not.
    pub fn record_winner(
        &mut self,
        round: u32,
        index: usize,
        winner: EntrantId,
    ) -> Result<(), KnockoutError> {
        let slot = *self
            .round(round)?
            .get(index)
            .ok_or(KnockoutError::NoSuchMatch { round, index })?;
        if slot.top.is_none() || slot.bottom.is_none() {
            return Err(KnockoutError::NoSuchMatch { round, index });
        }
        if slot.top != Some(winner) && slot.bottom != Some(winner) {
            return Err(KnockoutError::NotInMatch(winner));
        }
        if round < self.rounds() {
            let next = self.round(round + 1)?;
            if next[index / 2].winner.is_some() && slot.winner != Some(winner) {
                return Err(KnockoutError::MatchOver);
            }
        }
        self.winners[round as usize - 1][index] = Some(winner);
        Ok(())
    }

    /// Records the winner of the 3rd-place match.
    pub fn record_third_place(&mut self, winner: EntrantId) -> Result<(), KnockoutError> {
        let slot = self
            .third_place()
            .ok_or(KnockoutError::NoSuchMatch { round: 0, index: 1 })?;
        if slot.top != Some(winner) && slot.bottom != Some(winner) {
            return Err(KnockoutError::NotInMatch(winner));
        }
        self.third_place_winner = Some(winner);
        Ok(())
    }

    /// The champion, once the final is decided.
    pub fn champion(&self) -> Option<EntrantId> {
        self.round(self.rounds()).ok()?.first()?.winner
    }

    /// The final ranking 1–N of the bracket's entrants: 1–2 from the final, 3–4 from the
    /// 3rd-place match (without one, the two semi-final losers in `order`), then the losers of
    /// each earlier round (quarter-final losers 5–8, …) in `order`, e.g. the Swiss ranking.
    /// Entrants missing from `order` come after, by seed.
    pub fn final_ranking(&self, order: &[EntrantId]) -> Result<Vec<EntrantId>, KnockoutError> {
        let final_slot = self
            .round(self.rounds())?
            .first()
            .copied()
            .ok_or(KnockoutError::Unfinished)?;
        let champion = final_slot.winner.ok_or(KnockoutError::Unfinished)?;
        let mut ranking = vec![champion];
        ranking.extend(final_slot.loser());
        let by_order = |mut ids: Vec<EntrantId>| {
            let key = |id: &EntrantId| {
                let pos = order.iter().position(|o| o == id).unwrap_or(usize::MAX);
                let seed = self
                    .seeds
                    .iter()
                    .position(|s| s == id)
                    .unwrap_or(usize::MAX);
                (pos, seed)
            };
            ids.sort_by_key(key);
            ids
        };
        for round in (1..self.rounds()).rev() {
            let losers: Vec<EntrantId> = self
                .round(round)?
                .iter()
                .filter_map(BracketSlot::loser)
                .collect();
            if round == self.rounds() - 1 {
                if let Some(third) = self.third_place() {
                    let winner = third.winner.ok_or(KnockoutError::Unfinished)?;
                    ranking.push(winner);
                    ranking.extend(third.loser());
                    continue;
                }
            }
            ranking.extend(by_order(losers));
        }
        Ok(ranking)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decides every playable match for the better seed (lower seed number wins).
    fn favourites_win(b: &mut Bracket) {
        loop {
            let playable = b.playable();
            if playable.is_empty() {
                break;
            }
            for slot in playable {
                let seed_of = |id: EntrantId| b.seeds.iter().position(|&s| s == id);
                let (t, u) = (slot.top.expect("known"), slot.bottom.expect("known"));
                let winner = if seed_of(t) < seed_of(u) { t } else { u };
                if slot.round == b.rounds() && slot.index == 1 {
                    b.record_third_place(winner).expect("legal");
                } else {
                    b.record_winner(slot.round, slot.index, winner)
                        .expect("legal");
                }
            }
        }
    }

    #[test]
    fn the_first_round_of_eight_pairs_one_eight_four_five_two_seven_three_six() {
        let b = Bracket::new((101..=108).collect(), true).expect("valid");
        let r1: Vec<(Option<u32>, Option<u32>)> = b
            .round(1)
            .expect("round 1")
            .iter()
            .map(|s| (s.top, s.bottom))
            .collect();
        assert_eq!(
            r1,
            vec![
                (Some(101), Some(108)),
                (Some(104), Some(105)),
                (Some(102), Some(107)),
                (Some(103), Some(106))
            ]
        );
    }

    #[test]
    fn winners_advance_and_the_favourites_meet_in_the_final() {
        let mut b = Bracket::new((1..=8).collect(), true).expect("valid");
        b.record_winner(1, 1, 5).expect("legal"); // an upset: 5 beats 4
        assert!(b.record_winner(1, 0, 3).is_err());
        favourites_win(&mut b);
        let semis = b.round(2).expect("semis");
        assert_eq!((semis[0].top, semis[0].bottom), (Some(1), Some(5)));
        assert_eq!((semis[1].top, semis[1].bottom), (Some(2), Some(3)));
        assert_eq!(b.champion(), Some(1));
        let third = b.third_place().expect("configured");
        assert_eq!(
            (third.top, third.bottom, third.winner),
            (Some(5), Some(3), Some(3))
        );
        // Quarter-final losers 4, 6, 7, 8 ranked by the caller's (Swiss) order.
        let ranking = b
            .final_ranking(&[1, 2, 3, 4, 5, 6, 8, 7])
            .expect("finished");
        assert_eq!(ranking, vec![1, 2, 3, 5, 4, 6, 8, 7]);
    }

    #[test]
    fn without_a_third_place_match_the_semi_final_losers_follow_the_callers_order() {
        let mut b = Bracket::new((1..=4).collect(), false).expect("valid");
        assert!(b.third_place().is_none());
        assert_eq!(b.final_ranking(&[]), Err(KnockoutError::Unfinished));
        favourites_win(&mut b);
        assert_eq!(
            b.final_ranking(&[4, 3, 2, 1]).expect("done"),
            vec![1, 2, 4, 3]
        );
    }

    #[test]
    fn missing_seeds_are_byes_for_the_top_seeds() {
        let mut b = Bracket::new(vec![10, 20, 30, 40, 50], true).expect("valid");
        assert_eq!(b.size, 8);
        let r1 = b.round(1).expect("round 1");
        assert_eq!(r1[0].winner, Some(10)); // 1 v (8): bye
        assert!(r1[1].is_playable()); // 4 v 5
        assert_eq!(r1[2].winner, Some(20));
        assert_eq!(r1[3].winner, Some(30));
        favourites_win(&mut b);
        assert_eq!(b.champion(), Some(10));
        assert_eq!(
            b.final_ranking(&[10, 20, 30, 40, 50]).expect("done"),
            vec![10, 20, 30, 40, 50]
        );
    }

    #[test]
    fn a_bracket_round_trips_through_serde() {
        let mut b = Bracket::new((1..=16).collect(), true).expect("valid");
        b.record_winner(1, 0, 16).expect("legal");
        let json = serde_json::to_string(&b).expect("serialises");
        assert_eq!(serde_json::from_str::<Bracket>(&json).expect("parses"), b);
    }

    #[test]
    fn duplicate_or_too_many_entrants_are_refused() {
        assert_eq!(
            Bracket::new(vec![1, 2, 2], false),
            Err(KnockoutError::DuplicateEntrant(2))
        );
        assert!(Bracket::new((1..=65).collect(), false).is_err());
        assert!(Bracket::new(vec![1], false).is_err());
    }
}
