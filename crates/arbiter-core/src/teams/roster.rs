//! Team sections' rosters and line-ups: the checks and defaults a desk and a captain's form
//! share (issue #41). Board order is the roster order, fixed for the event; a reserve plays
//! below the players it replaces because a line-up keeps roster order.

use crate::model::{Side, StartNo};
use std::collections::BTreeSet;

/// Fewest boards of a team match.
pub const MIN_BOARDS: u32 = 2;
/// Most boards of a team match.
pub const MAX_BOARDS: u32 = 10;

/// What is wrong with a roster or a line-up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RosterProblem {
    /// Occurs when a section's number of boards is outside 2–10.
    #[error("a team match has between {MIN_BOARDS} and {MAX_BOARDS} boards, not {0}")]
    Boards(u32),
    /// Occurs when a roster has fewer players than boards.
    #[error("the roster has {players} players; the section plays {boards} boards")]
    TooFew {
        /// Players on the roster.
        players: usize,
        /// Boards per match.
        boards: u32,
    },
    /// Occurs when a roster has more players than boards plus reserves.
    #[error("the roster has {players} players; at most {most} (boards and reserves)")]
    TooMany {
        /// Players on the roster.
        players: usize,
        /// Boards plus reserves.
        most: usize,
    },
    /// Occurs when a player appears twice on a roster or on two rosters.
    #[error("player {0} is named twice")]
    Twice(StartNo),
    /// Occurs when a line-up names a player who is not on the team's roster.
    #[error("player {0} is not on the roster")]
    NotOnRoster(StartNo),
    /// Occurs when a line-up does not keep roster (board) order.
    #[error("the line-up must keep roster order ({0} is placed above a player listed before)")]
    Order(StartNo),
    /// Occurs when a line-up names more players than boards.
    #[error("the line-up names {players} players for {boards} boards")]
    TooLong {
        /// Players named.
        players: usize,
        /// Boards per match.
        boards: u32,
    },
}

/// Checks a section's number of boards.
pub fn check_boards(boards: u32) -> Result<(), RosterProblem> {
    if (MIN_BOARDS..=MAX_BOARDS).contains(&boards) {
        Ok(())
    } else {
        Err(RosterProblem::Boards(boards))
    }
}

/// Checks every roster of a section: each between `boards` and `boards + reserves` players,
/// nobody named twice (on one roster or on two). Returns the first problem of each team.
pub fn check_rosters(
    rosters: &[&[StartNo]],
    boards: u32,
    reserves: u32,
) -> Vec<(usize, RosterProblem)> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (i, roster) in rosters.iter().enumerate() {
        let most = (boards + reserves) as usize;
        let problem = if roster.len() < boards as usize {
            Some(RosterProblem::TooFew {
                players: roster.len(),
                boards,
            })
        } else if roster.len() > most {
            Some(RosterProblem::TooMany {
                players: roster.len(),
                most,
            })
        } else {
            roster
                .iter()
                .find(|&&p| !seen.insert(p))
                .map(|&p| RosterProblem::Twice(p))
        };
        if let Some(problem) = problem {
            out.push((i, problem));
        }
    }
    out
}

/// Checks a line-up: players of the roster, in roster order, at most `boards` of them (fewer
/// leaves the last boards empty: forfeited).
pub fn check_lineup(
    roster: &[StartNo],
    lineup: &[StartNo],
    boards: u32,
) -> Result<(), RosterProblem> {
    if lineup.len() > boards as usize {
        return Err(RosterProblem::TooLong {
            players: lineup.len(),
            boards,
        });
    }
    let mut last = None;
    let mut seen = BTreeSet::new();
    for &p in lineup {
        if !seen.insert(p) {
            return Err(RosterProblem::Twice(p));
        }
        let at = roster
            .iter()
            .position(|&r| r == p)
            .ok_or(RosterProblem::NotOnRoster(p))?;
        if last.is_some_and(|l| at < l) {
            return Err(RosterProblem::Order(p));
        }
        last = Some(at);
    }
    Ok(())
}

/// The line-up when none was entered before the deadline: the strongest available players,
/// i.e. the first `boards` players of the roster who are `available`, in roster order.
pub fn default_lineup(
    roster: &[StartNo],
    available: impl Fn(StartNo) -> bool,
    boards: u32,
) -> Vec<StartNo> {
    roster
        .iter()
        .copied()
        .filter(|&p| available(p))
        .take(boards as usize)
        .collect()
}

/// The colours of the team that has `board_one` on board 1, board by board: they alternate
/// inside a match (Red on board 1 means Black on board 2, …).
pub fn board_colours(board_one: Side, boards: u32) -> Vec<Side> {
    (0..boards)
        .map(|b| {
            if b % 2 == 0 {
                board_one
            } else {
                board_one.opposite()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_two_to_ten() {
        assert!(check_boards(1).is_err());
        assert!(check_boards(2).is_ok());
        assert!(check_boards(10).is_ok());
        assert_eq!(check_boards(11), Err(RosterProblem::Boards(11)));
    }

    #[test]
    fn rosters_hold_boards_plus_reserves_and_nobody_twice() {
        let a: &[StartNo] = &[1, 2, 3];
        let b: &[StartNo] = &[4, 5];
        let c: &[StartNo] = &[6, 7, 8, 9, 10];
        let d: &[StartNo] = &[11, 3, 12];
        let problems = check_rosters(&[a, b, c, d], 3, 1);
        assert_eq!(
            problems,
            [
                (
                    1,
                    RosterProblem::TooFew {
                        players: 2,
                        boards: 3
                    }
                ),
                (
                    2,
                    RosterProblem::TooMany {
                        players: 5,
                        most: 4
                    }
                ),
                (3, RosterProblem::Twice(3)),
            ]
        );
    }

    #[test]
    fn a_line_up_keeps_roster_order() {
        let roster = [1, 2, 3, 4];
        assert!(check_lineup(&roster, &[1, 3, 4], 3).is_ok());
        // A reserve (4) plays below the players it replaces.
        assert_eq!(
            check_lineup(&roster, &[4, 1, 2], 3),
            Err(RosterProblem::Order(1))
        );
        assert_eq!(
            check_lineup(&roster, &[1, 9], 3),
            Err(RosterProblem::NotOnRoster(9))
        );
        assert_eq!(
            check_lineup(&roster, &[1, 2, 3, 4], 3),
            Err(RosterProblem::TooLong {
                players: 4,
                boards: 3
            })
        );
        assert_eq!(
            check_lineup(&roster, &[1, 1], 3),
            Err(RosterProblem::Twice(1))
        );
    }

    #[test]
    fn the_default_line_up_is_the_strongest_available() {
        let roster = [1, 2, 3, 4];
        assert_eq!(default_lineup(&roster, |_| true, 3), [1, 2, 3]);
        assert_eq!(default_lineup(&roster, |p| p != 2, 3), [1, 3, 4]);
        assert_eq!(default_lineup(&roster, |p| p < 3, 3), [1, 2]);
    }

    #[test]
    fn board_colours_alternate() {
        assert_eq!(
            board_colours(Side::Red, 4),
            [Side::Red, Side::Black, Side::Red, Side::Black]
        );
        assert_eq!(
            board_colours(Side::Black, 3),
            [Side::Black, Side::Red, Side::Black]
        );
    }
}
