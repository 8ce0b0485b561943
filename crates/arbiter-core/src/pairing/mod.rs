//! Pairing engines. Every system is a pure function from a [`Tournament`] (the history so far)
//! and the entrants to pair to a [`RoundPairing`]; absolute and quality criteria become edge
//! weights for the generic maximum-weight matching.

pub mod check;
pub mod chinese;
pub mod dutch;
pub mod matching;
pub mod round_robin;

use crate::model::StartNo;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// A pairing system with its options: what [`pair`] runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum System {
    /// The FIDE Dutch system (C.04.3).
    Dutch(dutch::DutchOptions),
    /// The Chinese score-group system (积分编排).
    Chinese(chinese::ChineseOptions),
    /// A round robin by the Berger tables, in its entrants' starting-number order.
    RoundRobin {
        /// Every pair meets twice, colours reversed in the second cycle.
        double: bool,
    },
}

/// What [`pair`] produced: the round, and why (the Chinese system explains its score
/// groups, floaters and colours; the others need no report).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paired {
    /// Boards and the pairing-allocated bye.
    pub pairing: RoundPairing,
    /// The Chinese system's report.
    pub report: Option<chinese::PairingReport>,
}

/// Pairs the next round ([`next_round`]) of `t` with `system`: the one entry point for every
/// system (the CLI, the server and the benchmarks call it).
pub fn pair(t: &crate::model::Tournament, system: &System) -> Result<Paired, PairingError> {
    match system {
        System::Dutch(options) => dutch::pair(t, options).map(|pairing| Paired {
            pairing,
            report: None,
        }),
        System::Chinese(options) => chinese::pair(t, options).map(|p| Paired {
            pairing: p.pairing,
            report: Some(p.report),
        }),
        System::RoundRobin { double } => {
            let ids: Vec<StartNo> = t.entrants.iter().map(|e| e.start_no).collect();
            round_robin::berger_round(&ids, next_round(t), *double).map(|pairing| Paired {
                pairing,
                report: None,
            })
        }
    }
}

/// One board of a paired round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// Red (White in TRF): moves first.
    pub red: StartNo,
    /// Black.
    pub black: StartNo,
}

/// The pairing of one round: boards in board order, and the pairing-allocated bye (轮空).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    /// Boards, board 1 first.
    pub boards: Vec<Board>,
    /// Who gets the pairing-allocated bye, if anyone.
    pub bye: Option<StartNo>,
}

impl RoundPairing {
    /// The pairing in the reference fixtures' text format: one `red black` line per board,
    /// then `bye N` when there is a pairing-allocated bye. LF line ends.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for board in &self.boards {
            let _ = writeln!(out, "{} {}", board.red, board.black);
        }
        if let Some(bye) = self.bye {
            let _ = writeln!(out, "bye {bye}");
        }
        out
    }
}

/// Why a round could not be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// Occurs when no pairing satisfies the absolute criteria (e.g. everyone has met).
    #[error("no legal pairing exists: {reason}")]
    NoValidPairing {
        /// What could not be satisfied.
        reason: String,
    },
    /// Occurs when the tournament state is inconsistent (unknown opponent, asymmetric game…).
    #[error("invalid tournament state: {0}")]
    InvalidState(String),
}

/// The round the next pairing is for: one after the last round that has a game or a
/// pairing-allocated bye.
pub fn next_round(tournament: &crate::model::Tournament) -> u32 {
    tournament.rounds_played() + 1
}

/// The entrants to pair in `round`, ascending: everyone except those whose record for that
/// round already says they are absent or have a bye (`H`, `Z`, `F`, `U`, or a game).
///
/// Absences for the round to be paired come in as bye records in that round's column (TRF
/// `0000 - H`/`Z`/`F`; `XXZ` and `240` lines are read into the same form).
pub fn entrants_to_pair(tournament: &crate::model::Tournament, round: u32) -> Vec<StartNo> {
    tournament
        .entrants
        .iter()
        .filter(|e| match e.round(round) {
            None => true,
            Some(r) => r.opponent.is_none() && r.result == crate::model::ResultCode::Pending,
        })
        .map(|e| e.start_no)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{generate, GeneratorConfig};

    #[test]
    fn the_one_entry_point_runs_each_system_as_its_module_does() {
        let config = GeneratorConfig {
            entrants: 24,
            rounds_total: 7,
            seed: 11,
            ..GeneratorConfig::default()
        };
        let t = generate(&config, 3).expect("history");
        let dutch = dutch::DutchOptions::default();
        let paired = pair(&t, &System::Dutch(dutch)).expect("dutch");
        assert_eq!(paired.pairing, dutch::pair(&t, &dutch).expect("dutch"));
        assert!(paired.report.is_none());

        let chinese = chinese::ChineseOptions::default();
        let paired = pair(&t, &System::Chinese(chinese.clone())).expect("chinese");
        let direct = chinese::pair(&t, &chinese).expect("chinese");
        assert_eq!(paired.pairing, direct.pairing);
        assert_eq!(paired.report, Some(direct.report));

        let small = GeneratorConfig {
            entrants: 10,
            ..config
        };
        let fresh = generate(&small, 0).expect("no rounds");
        let ids: Vec<StartNo> = fresh.entrants.iter().map(|e| e.start_no).collect();
        let paired = pair(&fresh, &System::RoundRobin { double: false }).expect("round robin");
        assert_eq!(
            paired.pairing,
            round_robin::berger_round(&ids, 1, false).expect("berger")
        );
        assert_eq!(paired.pairing.boards.len(), 5);
    }
}
