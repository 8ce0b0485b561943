//! Round robin (循环赛) by the Berger tables of FIDE C.05 Annex 1.
//!
//! For an even number `n` of entrants (an odd field adds a dummy `n + 1`, whose opponent has
//! the bye), round 1 is `1–n, 2–(n−1), …, n/2–(n/2+1)` with the first-named player Red.
//! Each following round adds `n/2` to every number except `n` (counting modulo `n − 1` within
//! `1..=n−1`) and swaps the colours of the board that holds `n`. This reproduces the
//! published tables, e.g. for 6: round 2 is `6–4, 5–3, 1–2`, round 3 `2–6, 3–1, 4–5`.
//! A double round robin repeats the cycle with colours reversed.

use super::{Board, PairingError, RoundPairing};
use crate::model::StartNo;

/// Smallest field.
pub const MIN_ENTRANTS: u32 = 3;
/// Largest field the tables are published for (the construction itself works beyond).
pub const MAX_ENTRANTS: u32 = 20;

/// The Berger schedule for entrants `1..=entrants`: one [`RoundPairing`] per round (the
/// dummy's opponent gets the bye). `double` adds the second cycle with colours reversed.
pub fn berger_schedule(entrants: u32, double: bool) -> Result<Vec<RoundPairing>, PairingError> {
    if !(MIN_ENTRANTS..=MAX_ENTRANTS).contains(&entrants) {
        return Err(PairingError::InvalidState(format!(
            "a Berger round robin takes {MIN_ENTRANTS} to {MAX_ENTRANTS} entrants, not {entrants}"
        )));
    }
    let n = entrants + entrants % 2;
    let half = n / 2;
    let dummy = (n != entrants).then_some(n);
    // Round 1 as (red, black) pairs.
    let mut pairs: Vec<(StartNo, StartNo)> = (1..=half).map(|k| (k, n + 1 - k)).collect();
    let mut rounds = Vec::with_capacity(n as usize - 1);
    for round in 1..n {
        if round > 1 {
            let shift = |x: StartNo| {
                if x == n {
                    n
                } else {
                    (x - 1 + half) % (n - 1) + 1
                }
            };
            pairs = pairs
                .iter()
                .map(|&(r, b)| {
                    let (r, b) = (shift(r), shift(b));
                    if r == n || b == n {
                        (b, r)
                    } else {
                        (r, b)
                    }
                })
                .collect();
        }
        rounds.push(to_round(&pairs, dummy));
    }
    if double {
        let second: Vec<RoundPairing> = rounds
            .iter()
            .map(|r| RoundPairing {
                boards: r
                    .boards
                    .iter()
                    .map(|b| Board {
                        red: b.black,
                        black: b.red,
                    })
                    .collect(),
                bye: r.bye,
            })
            .collect();
        rounds.extend(second);
    }
    Ok(rounds)
}

fn to_round(pairs: &[(StartNo, StartNo)], dummy: Option<StartNo>) -> RoundPairing {
    let mut out = RoundPairing::default();
    for &(red, black) in pairs {
        match dummy {
            Some(d) if red == d => out.bye = Some(black),
            Some(d) if black == d => out.bye = Some(red),
            _ => out.boards.push(Board { red, black }),
        }
    }
    out
}

/// Whether `rounds` planned rounds for `entrants` ask for a double round robin: one cycle
/// has n−1 rounds (n even) or n rounds (n odd, with a bye each round); more rounds than
/// that play the cycle again with colours reversed.
pub fn is_double(entrants: usize, rounds: usize) -> bool {
    let single = if entrants % 2 == 0 {
        entrants.saturating_sub(1)
    } else {
        entrants
    };
    rounds > single
}

/// Round `round` (1-based) of the schedule for entrants mapped by position: `entrants[i]`
/// plays the role of table number `i + 1` (starting numbers need not be dense).
pub fn berger_round(
    entrants: &[StartNo],
    round: u32,
    double: bool,
) -> Result<RoundPairing, PairingError> {
    let schedule = berger_schedule(entrants.len() as u32, double)?;
    let r = schedule
        .get((round as usize).wrapping_sub(1))
        .ok_or_else(|| PairingError::InvalidState(format!("the schedule has no round {round}")))?;
    let map = |x: StartNo| entrants[x as usize - 1];
    Ok(RoundPairing {
        boards: r
            .boards
            .iter()
            .map(|b| Board {
                red: map(b.red),
                black: map(b.black),
            })
            .collect(),
        bye: r.bye.map(map),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn boards(r: &RoundPairing) -> Vec<(u32, u32)> {
        r.boards.iter().map(|b| (b.red, b.black)).collect()
    }

    #[test]
    fn more_rounds_than_one_cycle_ask_for_a_double_round_robin() {
        assert!(!is_double(8, 7));
        assert!(is_double(8, 8));
        assert!(is_double(8, 14));
        assert!(!is_double(7, 7));
        assert!(is_double(7, 8));
        assert!(!is_double(0, 0));
    }

    #[test]
    fn six_entrants_follow_the_published_berger_table() {
        let s = berger_schedule(6, false).expect("valid");
        assert_eq!(boards(&s[0]), vec![(1, 6), (2, 5), (3, 4)]);
        assert_eq!(boards(&s[1]), vec![(6, 4), (5, 3), (1, 2)]);
        assert_eq!(boards(&s[2]), vec![(2, 6), (3, 1), (4, 5)]);
        assert_eq!(boards(&s[3]), vec![(6, 5), (1, 4), (2, 3)]);
        assert_eq!(boards(&s[4]), vec![(3, 6), (4, 2), (5, 1)]);
    }

    #[test]
    fn four_and_eight_entrants_follow_the_published_tables() {
        let s = berger_schedule(4, false).expect("valid");
        assert_eq!(boards(&s[0]), vec![(1, 4), (2, 3)]);
        assert_eq!(boards(&s[1]), vec![(4, 3), (1, 2)]);
        assert_eq!(boards(&s[2]), vec![(2, 4), (3, 1)]);
        let s = berger_schedule(8, false).expect("valid");
        assert_eq!(boards(&s[1]), vec![(8, 5), (6, 4), (7, 3), (1, 2)]);
        assert_eq!(boards(&s[6]), vec![(4, 8), (5, 3), (6, 2), (7, 1)]);
    }

    #[test]
    fn everyone_meets_everyone_once_with_balanced_colours_for_three_to_twenty() {
        for n in MIN_ENTRANTS..=MAX_ENTRANTS {
            let s = berger_schedule(n, false).expect("valid");
            let even = n + n % 2;
            assert_eq!(s.len() as u32, even - 1);
            let mut met = BTreeSet::new();
            let mut reds = vec![0i32; n as usize + 1];
            let mut byes = vec![0; n as usize + 1];
            for r in &s {
                let mut seen = BTreeSet::new();
                for b in &r.boards {
                    assert!(met.insert((b.red.min(b.black), b.red.max(b.black))));
                    assert!(seen.insert(b.red) && seen.insert(b.black));
                    reds[b.red as usize] += 1;
                }
                if let Some(bye) = r.bye {
                    assert!(seen.insert(bye));
                    byes[bye as usize] += 1;
                }
                assert_eq!(seen.len() as u32, n);
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2);
            let games = n as i32 - 1;
            for p in 1..=n as usize {
                // Every player has Red in about half of their games.
                assert!((2 * reds[p] - games).abs() <= 1, "n={n} p={p}");
                assert_eq!(byes[p], n % 2);
            }
        }
    }

    #[test]
    fn an_odd_field_gives_the_dummys_opponent_the_bye_and_double_swaps_colours() {
        let s = berger_schedule(5, true).expect("valid");
        assert_eq!(s.len(), 10);
        assert_eq!(boards(&s[0]), vec![(2, 5), (3, 4)]);
        assert_eq!(s[0].bye, Some(1));
        assert_eq!(boards(&s[5]), vec![(5, 2), (4, 3)]);
        assert!(berger_schedule(2, false).is_err());
        assert!(berger_schedule(21, false).is_err());
        let r = berger_round(&[10, 20, 30, 40], 2, false).expect("valid");
        assert_eq!(boards(&r), vec![(40, 30), (10, 20)]);
    }
}
