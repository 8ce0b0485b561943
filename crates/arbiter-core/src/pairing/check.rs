//! System-neutral checker of a proposed round pairing against the absolute criteria: no
//! rematch, no forbidden pair, colour limits (C.04.1 arts. 6–7), bye rules, everyone present
//! paired exactly once and nobody absent paired. The server uses it to validate manual edits.

use super::{entrants_to_pair, next_round, RoundPairing};
use crate::model::{ResultCode, Side, StartNo, Tournament};
use std::collections::{BTreeMap, BTreeSet};

/// Which rule decides who may receive the pairing-allocated bye.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ByeRule {
    /// C.04.1 from July 2025: nobody who already had a PAB or scored a win's points in one
    /// round without playing.
    #[default]
    Fide2025,
    /// C.04.1 until June 2025: nobody who already had a PAB or a forfeit win.
    Fide2017,
    /// Only "at most one PAB per entrant".
    OnePerEntrant,
}

/// Checker options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// Whether a forfeited game counts as having met (a rematch after a forfeit is then a
    /// violation). FIDE: no.
    pub forfeits_count_as_met: bool,
    /// Enforce C.04.1 colour limits (|white − black| ≤ 2, never three in a row).
    pub colour_limits: bool,
    /// In the last round, excuse colour-limit breaches on boards with a topscorer (more than
    /// 50% of the maximum score), as the Dutch system allows.
    pub last_round_topscorer_exception: bool,
    /// PAB eligibility rule.
    pub bye_rule: ByeRule,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            forfeits_count_as_met: false,
            colour_limits: true,
            last_round_topscorer_exception: true,
            bye_rule: ByeRule::Fide2025,
        }
    }
}

/// One breach of an absolute criterion, with its values (the server words it in each
/// language; `Display` is the English, for the CLI and the tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The two already met.
    Rematch {
        /// First entrant.
        a: StartNo,
        /// Second entrant.
        b: StartNo,
    },
    /// The two must not be paired (tournament restriction).
    ForbiddenPair {
        /// First entrant.
        a: StartNo,
        /// Second entrant.
        b: StartNo,
    },
    /// The entrant would exceed a colour limit.
    ColourLimit {
        /// Entrant.
        entrant: StartNo,
        /// The colour the pairing gives them.
        side: Side,
        /// Which limit.
        breach: ColourBreach,
    },
    /// The bye goes to an entrant who may not receive it.
    IneligibleBye {
        /// Entrant.
        entrant: StartNo,
        /// The result that bars them (scored without playing).
        result: ResultCode,
    },
    /// A bye although the number of entrants is even (`Some`: who gets it), or a missing bye
    /// for an odd number (`None`).
    ByeCount {
        /// The entrant given the needless bye.
        bye: Option<StartNo>,
    },
    /// An entrant to pair appears nowhere.
    Unpaired {
        /// Entrant.
        entrant: StartNo,
    },
    /// An entrant appears more than once (or against themself).
    PairedTwice {
        /// Entrant.
        entrant: StartNo,
        /// Paired against themself (rather than on two boards).
        against_self: bool,
    },
    /// An entrant who is absent, withdrawn or unknown is paired.
    NotToBePaired {
        /// Entrant.
        entrant: StartNo,
        /// Whether the number is an entrant at all (absent or withdrawn) or unknown.
        known: bool,
    },
}

/// Which colour limit a pairing breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourBreach {
    /// |red − black| would exceed 2: the difference reached (signed, red minus black).
    Difference(i64),
    /// The same colour three times in a row.
    ThreeInARow,
}

impl Violation {
    /// The human-readable explanation (English).
    pub fn message(&self) -> String {
        self.to_string()
    }

    /// The entrants involved.
    pub fn entrants(&self) -> Vec<StartNo> {
        match self {
            Violation::Rematch { a, b, .. } | Violation::ForbiddenPair { a, b, .. } => {
                vec![*a, *b]
            }
            Violation::ColourLimit { entrant, .. }
            | Violation::IneligibleBye { entrant, .. }
            | Violation::Unpaired { entrant, .. }
            | Violation::PairedTwice { entrant, .. }
            | Violation::NotToBePaired { entrant, .. } => vec![*entrant],
            Violation::ByeCount { .. } => Vec::new(),
        }
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Violation::Rematch { a, b } => write!(f, "{a} and {b} have already played each other"),
            Violation::ForbiddenPair { a, b } => {
                write!(f, "{a} and {b} must not be paired against each other")
            }
            Violation::ColourLimit {
                entrant,
                side,
                breach,
            } => {
                let name = if *side == Side::Red { "red" } else { "black" };
                match breach {
                    ColourBreach::Difference(diff) => write!(
                        f,
                        "entrant {entrant} would reach a colour difference of {diff:+} by \
                         playing {name}"
                    ),
                    ColourBreach::ThreeInARow => {
                        write!(
                            f,
                            "entrant {entrant} would play {name} three times in a row"
                        )
                    }
                }
            }
            Violation::IneligibleBye { entrant, result } => write!(
                f,
                "entrant {entrant} may not receive the pairing-allocated bye (already scored \
                 '{}' without playing)",
                result.trf_letter()
            ),
            Violation::ByeCount { bye: None } => {
                f.write_str("an odd number of entrants needs a pairing-allocated bye")
            }
            Violation::ByeCount { bye: Some(b) } => write!(
                f,
                "entrant {b} gets a bye although the number of entrants is even"
            ),
            Violation::Unpaired { entrant } => {
                write!(f, "entrant {entrant} is to be paired but appears nowhere")
            }
            Violation::PairedTwice {
                entrant,
                against_self: false,
            } => write!(f, "entrant {entrant} appears more than once in the pairing"),
            Violation::PairedTwice {
                entrant,
                against_self: true,
            } => write!(f, "entrant {entrant} is paired against themself"),
            Violation::NotToBePaired { entrant, known } => {
                let why = if *known {
                    "is absent or withdrawn this round"
                } else {
                    "is not an entrant"
                };
                write!(f, "entrant {entrant} {why} but is paired")
            }
        }
    }
}

/// Every absolute-criterion violation of `pairing` as the pairing of `next_round(t)`.
pub fn check(t: &Tournament, pairing: &RoundPairing, options: &CheckOptions) -> Vec<Violation> {
    let round = next_round(t);
    let completed = round - 1;
    let to_pair: BTreeSet<StartNo> = entrants_to_pair(t, round).into_iter().collect();
    let mut out = Vec::new();
    let mut seen: BTreeMap<StartNo, u32> = BTreeMap::new();
    let mut note = |sn: StartNo, out: &mut Vec<Violation>| {
        let c = seen.entry(sn).or_insert(0);
        *c += 1;
        if *c == 2 {
            out.push(Violation::PairedTwice {
                entrant: sn,
                against_self: false,
            });
        }
        if !to_pair.contains(&sn) {
            out.push(Violation::NotToBePaired {
                entrant: sn,
                known: t.entrant(sn).is_some(),
            });
        }
    };
    for board in &pairing.boards {
        note(board.red, &mut out);
        note(board.black, &mut out);
    }
    if let Some(b) = pairing.bye {
        note(b, &mut out);
    }
    for &sn in &to_pair {
        if !seen.contains_key(&sn) {
            out.push(Violation::Unpaired { entrant: sn });
        }
    }
    match (to_pair.len() % 2 == 1, pairing.bye) {
        (true, None) => out.push(Violation::ByeCount { bye: None }),
        (false, Some(b)) => out.push(Violation::ByeCount { bye: Some(b) }),
        _ => {}
    }
    let scoring = &t.scoring;
    let max_score = i64::from(completed) * scoring.win.tenths().max(scoring.draw.tenths());
    let final_round = t.rounds_total.is_some_and(|n| round >= n);
    let topscorer = |sn: StartNo| {
        t.entrant(sn)
            .is_some_and(|e| e.points_after(scoring, completed).tenths() * 2 > max_score)
    };
    for board in &pairing.boards {
        let (a, b) = (board.red, board.black);
        if a == b {
            out.push(Violation::PairedTwice {
                entrant: a,
                against_self: true,
            });
            continue;
        }
        if let Some(e) = t.entrant(a) {
            let met = e.rounds.iter().take(completed as usize).any(|r| {
                r.opponent == Some(b)
                    && (r.result.is_played()
                        || (options.forfeits_count_as_met && r.result.is_forfeit()))
            });
            if met {
                out.push(Violation::Rematch { a, b });
            }
        }
        let forbidden = t.forbidden.iter().any(|f| {
            f.first_round.is_none_or(|x| x <= round)
                && f.last_round.is_none_or(|y| round <= y)
                && f.entrants.contains(&a)
                && f.entrants.contains(&b)
        });
        if forbidden {
            out.push(Violation::ForbiddenPair { a, b });
        }
        if options.colour_limits {
            let excused = options.last_round_topscorer_exception
                && final_round
                && (topscorer(a) || topscorer(b));
            if !excused {
                for (sn, side) in [(a, Side::Red), (b, Side::Black)] {
                    if let Some(breach) = colour_breach(t, sn, side, completed) {
                        out.push(Violation::ColourLimit {
                            entrant: sn,
                            side,
                            breach,
                        });
                    }
                }
            }
        }
    }
    if let Some(bye) = pairing.bye {
        if let Some(e) = t.entrant(bye) {
            let bar = e.rounds.iter().take(completed as usize).find(|r| {
                let pab = r.result == ResultCode::PairingBye
                    || (r.result == ResultCode::ForfeitWin && r.opponent.is_none());
                match options.bye_rule {
                    ByeRule::OnePerEntrant => pab,
                    ByeRule::Fide2017 => pab || r.result == ResultCode::ForfeitWin,
                    ByeRule::Fide2025 => {
                        pab || (!r.result.is_played() && scoring.points(r.result) >= scoring.win)
                    }
                }
            });
            if let Some(r) = bar {
                out.push(Violation::IneligibleBye {
                    entrant: bye,
                    result: r.result,
                });
            }
        }
    }
    out
}

/// The colour-limit breach if `sn` plays `side` next.
fn colour_breach(t: &Tournament, sn: StartNo, side: Side, completed: u32) -> Option<ColourBreach> {
    let e = t.entrant(sn)?;
    let mut colours: Vec<Side> = e
        .rounds
        .iter()
        .take(completed as usize)
        .filter(|r| r.result.is_played())
        .filter_map(|r| r.colour)
        .collect();
    colours.push(side);
    let whites = colours.iter().filter(|&&c| c == Side::Red).count() as i64;
    let diff = whites - (colours.len() as i64 - whites);
    if diff.abs() > 2 {
        return Some(ColourBreach::Difference(diff));
    }
    let n = colours.len();
    if n >= 3 && colours[n - 3..].iter().all(|&c| c == side) {
        return Some(ColourBreach::ThreeInARow);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Entrant, RoundRecord};
    use crate::pairing::Board;

    fn tournament() -> Tournament {
        let mut t = Tournament {
            rounds_total: Some(5),
            ..Tournament::default()
        };
        for sn in 1..=4 {
            t.entrants.push(Entrant {
                start_no: sn,
                ..Entrant::default()
            });
        }
        let game = |o, c, r| RoundRecord::game(o, c, r);
        t.entrants[0].rounds = vec![game(2, Side::Red, ResultCode::Win)];
        t.entrants[1].rounds = vec![game(1, Side::Black, ResultCode::Loss)];
        t.entrants[2].rounds = vec![game(4, Side::Red, ResultCode::ForfeitWin)];
        t.entrants[3].rounds = vec![game(3, Side::Black, ResultCode::ForfeitLoss)];
        t
    }

    #[test]
    fn a_rematch_is_reported_but_a_forfeit_is_not_a_meeting() {
        let t = tournament();
        let p = RoundPairing {
            boards: vec![Board { red: 2, black: 1 }, Board { red: 4, black: 3 }],
            bye: None,
        };
        let v = check(&t, &p, &CheckOptions::default());
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(matches!(v[0], Violation::Rematch { a: 2, b: 1, .. }));
        let strict = CheckOptions {
            forfeits_count_as_met: true,
            ..CheckOptions::default()
        };
        assert_eq!(check(&t, &p, &strict).len(), 2);
    }

    #[test]
    fn missing_and_duplicate_entrants_are_reported() {
        let t = tournament();
        let p = RoundPairing {
            boards: vec![Board { red: 1, black: 3 }, Board { red: 3, black: 9 }],
            bye: None,
        };
        let v = check(&t, &p, &CheckOptions::default());
        assert!(v
            .iter()
            .any(|x| matches!(x, Violation::PairedTwice { entrant: 3, .. })));
        assert!(v
            .iter()
            .any(|x| matches!(x, Violation::NotToBePaired { entrant: 9, .. })));
        assert!(v
            .iter()
            .any(|x| matches!(x, Violation::Unpaired { entrant: 2, .. })));
        assert!(v
            .iter()
            .any(|x| matches!(x, Violation::Unpaired { entrant: 4, .. })));
    }

    #[test]
    fn a_forfeit_winner_may_not_get_the_bye_and_byes_need_odd_counts() {
        let mut t = tournament();
        t.entrants[3]
            .rounds
            .push(RoundRecord::bye(ResultCode::ZeroBye));
        let p = RoundPairing {
            boards: vec![Board { red: 2, black: 1 }],
            bye: Some(3),
        };
        let v = check(&t, &p, &CheckOptions::default());
        assert!(v
            .iter()
            .any(|x| matches!(x, Violation::IneligibleBye { entrant: 3, .. })));
        assert!(!v.iter().any(|x| matches!(x, Violation::ByeCount { .. })));
    }

    #[test]
    fn three_same_colours_in_a_row_break_the_colour_limit() {
        let mut t = tournament();
        t.entrants[0]
            .rounds
            .push(RoundRecord::game(3, Side::Red, ResultCode::Draw));
        t.entrants[2].rounds[0] = RoundRecord::game(1, Side::Black, ResultCode::Draw);
        t.entrants[2]
            .rounds
            .push(RoundRecord::game(1, Side::Black, ResultCode::Draw));
        t.entrants[1]
            .rounds
            .push(RoundRecord::game(4, Side::Red, ResultCode::Draw));
        t.entrants[3]
            .rounds
            .push(RoundRecord::game(2, Side::Black, ResultCode::Draw));
        let p = RoundPairing {
            boards: vec![Board { red: 1, black: 4 }, Board { red: 2, black: 3 }],
            bye: None,
        };
        let v = check(&t, &p, &CheckOptions::default());
        assert!(v
            .iter()
            .any(|x| matches!(x, Violation::ColourLimit { entrant: 1, .. })));
        assert!(v
            .iter()
            .any(|x| matches!(x, Violation::ColourLimit { entrant: 3, .. })));
    }
}
