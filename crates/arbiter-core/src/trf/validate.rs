//! Cross-line checks of a TRF file's games: every round block is checked against the block
//! of the opponent it names, so that a file that contradicts itself is rejected at the first
//! contradiction (by line, then column) instead of being read into an impossible history.

use super::{TrfError, TrfErrorKind};
use crate::model::{ResultCode, RoundRecord, StartNo, Tournament};
use std::collections::BTreeMap;

/// Column of round `round`'s opponent field (1-based): 92, 102, 112, …
fn opponent_column(round: u32) -> usize {
    92 + 10 * (round as usize - 1)
}

/// Whether two results can be the two sides of one game: `1`/`0`, `=`/`=`, `0`/`0` (a loss
/// for both, e.g. both reached the foul limit), `W`/`L`, `D`/`D`, `+`/`-`, `-`/`-` (double
/// forfeit), and blank/blank (a game not finished yet).
pub(super) fn results_agree(a: ResultCode, b: ResultCode) -> bool {
    use ResultCode::*;
    matches!(
        (a, b),
        (Win, Loss)
            | (Loss, Win)
            | (Draw, Draw)
            | (Loss, Loss)
            | (UnratedWin, UnratedLoss)
            | (UnratedLoss, UnratedWin)
            | (UnratedDraw, UnratedDraw)
            | (ForfeitWin, ForfeitLoss)
            | (ForfeitLoss, ForfeitWin)
            | (ForfeitLoss, ForfeitLoss)
            | (Pending, Pending)
    )
}

/// Checks every game of `t` against its opponent's record and that each round has at most
/// one pairing-allocated bye (in a team file: one team's players). `lines` gives each player's line number. A contradiction
/// between two lines is reported on the later one (where a reader going down the file first
/// sees it); the first problem in file order wins.
pub(super) fn check_games(
    t: &Tournament,
    lines: &BTreeMap<StartNo, usize>,
) -> Result<(), TrfError> {
    let line_of = |n: StartNo| lines.get(&n).copied().unwrap_or(0);
    let record = |n: StartNo, round: u32| t.entrant(n).and_then(|e| e.round(round)).copied();
    let mut first: Option<TrfError> = None;
    let mut report = |line: usize, column: usize, kind: TrfErrorKind| {
        if first
            .as_ref()
            .is_none_or(|f| (line, column) < (f.line, f.column))
        {
            first = Some(TrfError { line, column, kind });
        }
    };
    let mut pab: BTreeMap<u32, StartNo> = BTreeMap::new();
    // In a team file (`013` / `310` records) the team with the pairing-allocated bye has it
    // on each of its players' lines: several `U` in a round are one bye when one team holds
    // them all.
    let team_of: BTreeMap<StartNo, usize> = super::teams(t)
        .iter()
        .enumerate()
        .flat_map(|(i, team)| team.roster.iter().map(move |&p| (p, i)))
        .collect();
    let same_team = |a: StartNo, b: StartNo| {
        team_of
            .get(&a)
            .is_some_and(|team| team_of.get(&b) == Some(team))
    };
    let mut by_line: Vec<_> = t.entrants.iter().collect();
    by_line.sort_by_key(|e| line_of(e.start_no));
    for e in by_line {
        let me = e.start_no;
        let my_line = line_of(me);
        for (index, mine) in e.rounds.iter().enumerate() {
            let round = index as u32 + 1;
            let base = opponent_column(round);
            let Some(opponent) = mine.opponent else {
                if mine.result == ResultCode::PairingBye {
                    match pab.get(&round) {
                        Some(&other) if same_team(other, me) => {}
                        Some(&other) => report(
                            my_line,
                            base + 7,
                            TrfErrorKind::SecondPairingBye {
                                start_no: me,
                                round,
                                first: other,
                            },
                        ),
                        None => {
                            pab.insert(round, me);
                        }
                    }
                }
                continue;
            };
            let theirs = record(opponent, round);
            let confirmed = theirs.and_then(|r| r.opponent) == Some(me);
            if !confirmed {
                let named = theirs.and_then(|r| r.opponent);
                let kind = match named {
                    Some(other)
                        if record(other, round).and_then(|r| r.opponent) == Some(opponent) =>
                    {
                        TrfErrorKind::PairedTwice {
                            start_no: opponent,
                            round,
                            first: other,
                            second: me,
                        }
                    }
                    _ => TrfErrorKind::OneSidedGame {
                        start_no: me,
                        opponent,
                        round,
                        named,
                    },
                };
                report(my_line, base, kind);
                continue;
            }
            let their_line = line_of(opponent);
            if my_line < their_line {
                // Checked from the later line.
                continue;
            }
            let Some(theirs) = theirs else { continue };
            check_pair(me, mine, opponent, &theirs, round, their_line)
                .into_iter()
                .for_each(|(offset, kind)| report(my_line, base + offset, kind));
        }
    }
    match first {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The colour and result of one side of a game against the other side's: problems as
/// (offset from the opponent column, kind).
fn check_pair(
    me: StartNo,
    mine: &RoundRecord,
    opponent: StartNo,
    theirs: &RoundRecord,
    round: u32,
    their_line: usize,
) -> Vec<(usize, TrfErrorKind)> {
    let mut problems = Vec::new();
    let colours_agree = match (mine.colour, theirs.colour) {
        (Some(a), Some(b)) => a != b,
        (None, None) => true,
        _ => false,
    };
    let letter = |c: Option<crate::model::Side>| c.map_or('-', crate::model::Side::trf_letter);
    if !colours_agree {
        problems.push((
            5,
            TrfErrorKind::ColourMismatch {
                round,
                start_no: me,
                colour: letter(mine.colour),
                opponent,
                opponent_colour: letter(theirs.colour),
                opponent_line: their_line,
            },
        ));
    }
    if !results_agree(mine.result, theirs.result) {
        problems.push((
            7,
            TrfErrorKind::ResultMismatch {
                round,
                start_no: me,
                result: mine.result.trf_letter(),
                opponent,
                opponent_result: theirs.result.trf_letter(),
                opponent_line: their_line,
            },
        ));
    }
    problems
}
