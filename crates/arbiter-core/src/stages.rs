//! Stages that overlap (issue #40): a knockout seeded from the standings after round `r` while
//! the rest of the section plays on in the Swiss (the Asian Xiangqi Federation's format), and a
//! final between the top two after round `n − 1` played as their round-`n` game (the World
//! Xiangqi Federation's format). This module decides who qualifies, who the pairing engines
//! leave out, the final's colours and the final places; the service stores and shows them.

use crate::model::{ResultCode, RoundRecord, Side, StartNo, Tournament};

/// Who leaves the Swiss at a cut: the first `count` of a ranking, unless the cut splits a tie.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cut<Id> {
    /// The qualifiers, in ranking order (their seeds).
    Qualified(Vec<Id>),
    /// The last place above the cut and the first below share a rank: these entrants are tied
    /// across it, and the arbiter must order them first.
    Tied(Vec<Id>),
    /// Fewer entrants than places.
    TooFew(usize),
}

/// The first `count` entrants of `order` (entrant, rank; best first, ranks shared by ties
/// the tiebreak chain leaves).
pub fn qualifiers<Id: Copy + Eq>(order: &[(Id, u32)], count: usize) -> Cut<Id> {
    if order.len() < count || count == 0 {
        return Cut::TooFew(order.len());
    }
    if let (Some(last), Some(next)) = (order.get(count - 1), order.get(count)) {
        if last.1 == next.1 {
            return Cut::Tied(
                order
                    .iter()
                    .filter(|(_, rank)| *rank == last.1)
                    .map(|(id, _)| *id)
                    .collect(),
            );
        }
    }
    Cut::Qualified(order.iter().take(count).map(|(id, _)| *id).collect())
}

/// Leaves `out` out of the pairing of `round`: the engines pair only entrants without a record
/// in the round's column (`pairing::entrants_to_pair`), so each of them gets one there — in
/// this input only. Nothing of it is stored: the service writes no bye and no absence for them,
/// and the engines read only earlier rounds as history, so an entrant left out is neither paired,
/// nor given the pairing-allocated bye, nor counted as absent.
pub fn leave_out(t: &mut Tournament, round: u32, out: &[StartNo]) {
    let Some(before) = round.checked_sub(1) else {
        return;
    };
    for e in t.entrants.iter_mut().filter(|e| out.contains(&e.start_no)) {
        if e.rounds.len() as u32 == before {
            e.rounds.push(RoundRecord::bye(ResultCode::ZeroBye));
        }
    }
}

/// What the last round's final is, from the standings after round `n − 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FinalPlan<Id> {
    /// The leader (`high`) and the runner-up (`low`) play the final on board 1.
    Final {
        /// First after round `n − 1`.
        high: Id,
        /// Second after round `n − 1`.
        low: Id,
    },
    /// The top two have met already: they are not paired again, no final is formed, and the
    /// round is paired normally by the engine (places by the Swiss standings).
    AlreadyMet {
        /// First after round `n − 1`.
        high: Id,
        /// Second after round `n − 1`.
        low: Id,
    },
    /// Second and third place share a rank: the arbiter orders them first.
    Tied(Vec<Id>),
    /// Fewer than two entrants can play.
    TooFew,
}

/// The final of the last round: the first two of `order`, unless they met (`met`) or the cut
/// below them splits a tie.
pub fn final_pair<Id: Copy + Eq>(
    order: &[(Id, u32)],
    met: impl Fn(Id, Id) -> bool,
) -> FinalPlan<Id> {
    match qualifiers(order, 2) {
        Cut::TooFew(_) => FinalPlan::TooFew,
        Cut::Tied(ids) => FinalPlan::Tied(ids),
        Cut::Qualified(two) => {
            let (high, low) = (two[0], two[1]);
            if met(high, low) {
                FinalPlan::AlreadyMet { high, low }
            } else {
                FinalPlan::Final { high, low }
            }
        }
    }
}

/// How the final's colours are chosen (a section setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalColours {
    /// Drawn by lot.
    Lot,
    /// The leader after round `n − 1` takes Red.
    HigherSeed,
    /// The Swiss colour rules: the one who played Black more often takes Red; equal, the one
    /// who had Black in the latest round where their colours differed; the same history, the
    /// leader takes the colour he is due (the other of his last; Red without a game).
    Swiss,
}

/// Whether the leader (`high`) plays Red in the final. `high` and `low` are the colours each
/// played, round by round (`None`: no game that round); `lot` is a coin the service drew,
/// used only by [`FinalColours::Lot`].
pub fn leader_red(
    rule: FinalColours,
    high: &[Option<Side>],
    low: &[Option<Side>],
    lot: bool,
) -> bool {
    match rule {
        FinalColours::Lot => lot,
        FinalColours::HigherSeed => true,
        FinalColours::Swiss => {
            let balance = |c: &[Option<Side>]| {
                c.iter()
                    .map(|s| match s {
                        Some(Side::Red) => 1i32,
                        Some(Side::Black) => -1,
                        None => 0,
                    })
                    .sum::<i32>()
            };
            let (h, l) = (balance(high), balance(low));
            if h != l {
                return h < l;
            }
            let played = |c: &[Option<Side>]| c.iter().flatten().copied().collect::<Vec<Side>>();
            let (hp, lp) = (played(high), played(low));
            for (a, b) in hp.iter().rev().zip(lp.iter().rev()) {
                if a != b {
                    return *a == Side::Black;
                }
            }
            hp.last().is_none_or(|last| *last == Side::Black)
        }
    }
}

/// Who won the final, from Red's result code (`None`: a draw, both lost, or no result).
pub fn final_winner<Id: Copy>(red: Id, black: Id, red_result: ResultCode) -> Option<Id> {
    match red_result {
        ResultCode::Win | ResultCode::UnratedWin | ResultCode::ForfeitWin => Some(red),
        ResultCode::Loss | ResultCode::UnratedLoss | ResultCode::ForfeitLoss => Some(black),
        _ => None,
    }
}

/// The order of the two finalists: the winner first; without a winner (a draw, both lost),
/// as the Swiss standings after the last round have them.
pub fn finalists_order<Id: Copy + Eq>(
    pair: (Id, Id),
    winner: Option<Id>,
    swiss: &[(Id, u32)],
) -> Vec<Id> {
    match winner {
        Some(w) if w == pair.0 => vec![pair.0, pair.1],
        Some(w) if w == pair.1 => vec![pair.1, pair.0],
        _ => {
            let pos = |id: Id| {
                swiss
                    .iter()
                    .position(|(s, _)| *s == id)
                    .unwrap_or(usize::MAX)
            };
            let mut two = vec![pair.0, pair.1];
            two.sort_by_key(|id| pos(*id));
            two
        }
    }
}

/// One final place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place<Id> {
    /// Place (1-based), one per entrant.
    pub place: u32,
    /// The place as shown: shared by entrants the Swiss leaves tied, else `place`.
    pub rank: u32,
    /// Entrant.
    pub id: Id,
    /// Placed by the stage that decides the top places (knockout or final), not by the Swiss.
    pub decided: bool,
}

/// The final places: `decided` first, one place each, in their order (the knockout's ranking,
/// or the final's winner and loser); then everyone else in the Swiss order (`swiss`: entrant and
/// rank, best first), entrants tied there sharing the place of the first of them.
pub fn places<Id: Copy + Eq>(decided: &[Id], swiss: &[(Id, u32)]) -> Vec<Place<Id>> {
    let mut out: Vec<Place<Id>> = Vec::with_capacity(swiss.len().max(decided.len()));
    for id in decided {
        let place = out.len() as u32 + 1;
        out.push(Place {
            place,
            rank: place,
            id: *id,
            decided: true,
        });
    }
    let mut last: Option<(u32, u32)> = None;
    for (id, swiss_rank) in swiss.iter().filter(|(id, _)| !decided.contains(id)) {
        let place = out.len() as u32 + 1;
        let rank = match last {
            Some((r, shown)) if r == *swiss_rank => shown,
            _ => place,
        };
        last = Some((*swiss_rank, rank));
        out.push(Place {
            place,
            rank,
            id: *id,
            decided: false,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Entrant;

    fn ranked(ids: &[u32]) -> Vec<(u32, u32)> {
        ids.iter()
            .enumerate()
            .map(|(i, id)| (*id, i as u32 + 1))
            .collect()
    }

    #[test]
    fn the_top_of_the_ranking_qualifies_unless_the_cut_splits_a_tie() {
        assert_eq!(
            qualifiers(&ranked(&[7, 3, 9, 1, 5]), 4),
            Cut::Qualified(vec![7, 3, 9, 1])
        );
        let tied = vec![(7, 1), (3, 2), (9, 3), (1, 4), (5, 4), (2, 6)];
        assert_eq!(qualifiers(&tied, 4), Cut::Tied(vec![1, 5]));
        // A tie above the cut does not matter.
        let above = vec![(7, 1), (3, 1), (9, 3), (1, 4), (5, 5)];
        assert_eq!(qualifiers(&above, 4), Cut::Qualified(vec![7, 3, 9, 1]));
        assert_eq!(qualifiers(&ranked(&[1, 2, 3]), 4), Cut::TooFew(3));
        assert_eq!(
            qualifiers(&ranked(&[1, 2, 3, 4]), 4),
            Cut::Qualified(vec![1, 2, 3, 4])
        );
    }

    #[test]
    fn entrants_left_out_are_not_to_pair_and_the_others_are() {
        let mut t = Tournament {
            entrants: (1..=6)
                .map(|n| Entrant {
                    start_no: n,
                    ..Entrant::default()
                })
                .collect(),
            ..Tournament::default()
        };
        leave_out(&mut t, 1, &[2, 5]);
        assert_eq!(crate::pairing::entrants_to_pair(&t, 1), vec![1, 3, 4, 6]);
        // Already absent for the round: nothing is added.
        leave_out(&mut t, 1, &[2]);
        assert_eq!(t.entrants[1].rounds.len(), 1);
    }

    #[test]
    fn the_top_two_play_the_final_unless_they_met_or_the_cut_is_tied() {
        let order = ranked(&[4, 8, 1, 2]);
        assert_eq!(
            final_pair(&order, |_, _| false),
            FinalPlan::Final { high: 4, low: 8 }
        );
        assert_eq!(
            final_pair(&order, |a, b| (a, b) == (4, 8)),
            FinalPlan::AlreadyMet { high: 4, low: 8 }
        );
        let tied = vec![(4, 1), (8, 2), (1, 2), (2, 4)];
        assert_eq!(final_pair(&tied, |_, _| false), FinalPlan::Tied(vec![8, 1]));
        assert_eq!(final_pair(&ranked(&[4]), |_, _| false), FinalPlan::TooFew);
    }

    #[test]
    fn the_finals_colours_follow_the_rule() {
        use Side::{Black as B, Red as R};
        assert!(leader_red(FinalColours::Lot, &[], &[], true));
        assert!(!leader_red(FinalColours::Lot, &[], &[], false));
        assert!(leader_red(
            FinalColours::HigherSeed,
            &[Some(R)],
            &[Some(B)],
            false
        ));
        // More Black games: Red.
        assert!(leader_red(
            FinalColours::Swiss,
            &[Some(B), Some(B), Some(R)],
            &[Some(R), Some(R), Some(B)],
            false
        ));
        assert!(!leader_red(
            FinalColours::Swiss,
            &[Some(R), Some(R), Some(B)],
            &[Some(B), None, Some(B)],
            false
        ));
        // Balanced alike: the latest round where they differ; Black then is Red now.
        assert!(leader_red(
            FinalColours::Swiss,
            &[Some(R), Some(B)],
            &[Some(B), Some(R)],
            false
        ));
        assert!(!leader_red(
            FinalColours::Swiss,
            &[Some(B), Some(R)],
            &[Some(R), Some(B)],
            false
        ));
        // The same history: the leader gets the other of his last colour.
        assert!(!leader_red(
            FinalColours::Swiss,
            &[Some(B), Some(R)],
            &[Some(B), Some(R)],
            false
        ));
        assert!(leader_red(
            FinalColours::Swiss,
            &[Some(R), Some(B)],
            &[Some(R), Some(B)],
            false
        ));
        assert!(leader_red(FinalColours::Swiss, &[], &[], false));
    }

    #[test]
    fn the_final_decides_the_first_two_places_and_the_swiss_the_rest() {
        // Swiss after the last round: 8 overtook the loser of the final on points.
        let swiss = vec![(4, 1), (8, 2), (2, 2), (1, 4), (3, 5), (5, 5), (6, 7)];
        assert_eq!(final_winner(4, 2, ResultCode::Loss), Some(2));
        let order = finalists_order((4, 2), Some(2), &swiss);
        assert_eq!(order, vec![2, 4]);
        let p = places(&order, &swiss);
        let got: Vec<(u32, u32, u32, bool)> = p
            .iter()
            .map(|p| (p.place, p.rank, p.id, p.decided))
            .collect();
        assert_eq!(
            got,
            vec![
                (1, 1, 2, true),
                (2, 2, 4, true),
                (3, 3, 8, false),
                (4, 4, 1, false),
                (5, 5, 3, false),
                (6, 5, 5, false),
                (7, 7, 6, false)
            ]
        );
        // A drawn final: the Swiss order of the two.
        assert_eq!(final_winner(4, 2, ResultCode::Draw), None::<u32>);
        assert_eq!(finalists_order((2, 4), None, &swiss), vec![4, 2]);
    }

    #[test]
    fn knockout_places_come_first_in_the_brackets_order() {
        // AXF: top four after round 5 seeded 1–4; the knockout's ranking without a 3rd-place
        // match puts the semi-final losers by their seed (the standing after round 5).
        let mut b = crate::knockout::Bracket::new(vec![11, 12, 13, 14], false).expect("bracket");
        b.record_winner(1, 0, 14).expect("semi 1");
        b.record_winner(1, 1, 12).expect("semi 2");
        b.record_winner(2, 0, 12).expect("final");
        let knockout = b.final_ranking(&[11, 12, 13, 14]).expect("ranking");
        assert_eq!(knockout, vec![12, 14, 11, 13]);
        let swiss = vec![
            (20, 1),
            (11, 2),
            (21, 3),
            (12, 4),
            (13, 5),
            (22, 5),
            (14, 7),
        ];
        let p = places(&knockout, &swiss);
        let ids: Vec<u32> = p.iter().map(|p| p.id).collect();
        assert_eq!(ids, vec![12, 14, 11, 13, 20, 21, 22]);
        assert_eq!(p[6].rank, 7);
        assert!(p[..4].iter().all(|p| p.decided) && !p[4].decided);
    }
}
