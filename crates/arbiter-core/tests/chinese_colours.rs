//! The Chinese engine's colour choice inside a formed pair, checked over generated histories
//! against a straightforward reading of RULES.md §1.3 (issue #39):
//!
//! - the hard colour rules first ("Step 3. Hard constraints": (b) no 3 same colours in a row,
//!   (c) no |#Red − #Black| > 2; relax (c) before (b)): when one colour assignment breaks
//!   fewer of them, it is the one;
//! - then "Colour in a formed pair", its three steps:
//!   1. the larger xianshu `100·(#Red − #Black) + s` (`s` the signed length of the current
//!      same-colour streak) gets Black;
//!   2. if equal, compare the colour strings from the latest round backwards: at the first
//!      difference, the one who was Red then gets Black;
//!   3. if still identical, option ② (the default): odd round → lower 序号 Red, even round →
//!      higher 序号 Red;
//! - "Forfeits and byes do not count as colour history" ("Unplayed rounds and colour").
//!
//! The histories include players without any played game (late entrants, `Z` rounds),
//! forfeits with a scheduled colour, and every kind of bye. The oracle below reads the raw
//! round records; it shares no code with the engine.

use arbiter_core::model::{Entrant, ResultCode, RoundRecord, Scoring, Side, StartNo, Tournament};
use arbiter_core::pairing::chinese::{pair_round, ChineseOptions, ColourDecision};

/// A small deterministic generator (PCG-style LCG).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, m: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % m
    }

    fn side(&mut self) -> Side {
        if self.below(2) == 0 {
            Side::Red
        } else {
            Side::Black
        }
    }
}

/// Which rule decided, by the oracle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Hard,
    Index,
    Strings,
    RoundParity,
}

/// The colour string of one entrant before `round`: R or B per game played over the board.
fn colour_string(e: &Entrant, round: u32) -> Vec<Side> {
    e.rounds
        .iter()
        .take(round as usize - 1)
        .filter(|r| {
            r.opponent.is_some()
                && !r.result.is_forfeit()
                && !r.result.is_bye()
                && r.result != ResultCode::Pending
        })
        .filter_map(|r| r.colour)
        .collect()
}

fn count(s: &[Side], side: Side) -> i64 {
    s.iter().filter(|&&c| c == side).count() as i64
}

/// Signed length of the current same-colour streak: +k for k Reds, −k for k Blacks.
fn streak(s: &[Side]) -> i64 {
    let Some(&last) = s.last() else { return 0 };
    let k = s.iter().rev().take_while(|&&c| c == last).count() as i64;
    if last == Side::Red {
        k
    } else {
        -k
    }
}

fn xianshu(s: &[Side]) -> i64 {
    100 * (count(s, Side::Red) - count(s, Side::Black)) + streak(s)
}

/// (three-in-a-row breaches, difference breaches) when `s` gets `side`. A player already
/// beyond ±2 (after rounds where (c) was relaxed) cannot end within it whatever the colour;
/// the colour that brings the difference back towards 0 is then no breach, the other one is.
fn breaches(s: &[Side], side: Side) -> (u32, u32) {
    let mut after = s.to_vec();
    after.push(side);
    let n = after.len();
    let three = n >= 3 && after[n - 3..].iter().all(|&c| c == side);
    let before = (count(s, Side::Red) - count(s, Side::Black)).abs();
    let ends = (count(&after, Side::Red) - count(&after, Side::Black)).abs();
    let diff = ends > 2 && ends > before;
    (u32::from(three), u32::from(diff))
}

/// RULES.md's answer: (who gets Red, which step decided).
fn rule(a: StartNo, sa: &[Side], b: StartNo, sb: &[Side], round: u32) -> (StartNo, Step) {
    // Hard constraints: the assignment with fewer breaches of (b), then of (c).
    let add = |x: (u32, u32), y: (u32, u32)| (x.0 + y.0, x.1 + y.1);
    let a_red = add(breaches(sa, Side::Red), breaches(sb, Side::Black));
    let b_red = add(breaches(sb, Side::Red), breaches(sa, Side::Black));
    if a_red != b_red {
        return (if a_red < b_red { a } else { b }, Step::Hard);
    }
    // Step 1: the larger xianshu gets Black.
    let (xa, xb) = (xianshu(sa), xianshu(sb));
    if xa != xb {
        return (if xa > xb { b } else { a }, Step::Index);
    }
    // Step 2: latest round backwards; the one who was Red at the first difference gets Black.
    let mut ra = sa.iter().rev();
    let mut rb = sb.iter().rev();
    while let (Some(&ca), Some(&cb)) = (ra.next(), rb.next()) {
        if ca != cb {
            return (if ca == Side::Red { b } else { a }, Step::Strings);
        }
    }
    // Step 3 ②: odd round → lower 序号 Red, even round → higher 序号 Red.
    let (lo, hi) = (a.min(b), a.max(b));
    (if round % 2 == 1 { lo } else { hi }, Step::RoundParity)
}

/// A non-game round: a forfeit (with its scheduled colour) or a bye of any kind.
fn unplayed(rng: &mut Lcg, opponent: StartNo) -> RoundRecord {
    match rng.below(6) {
        0 => RoundRecord::game(opponent, rng.side(), ResultCode::ForfeitWin),
        1 => RoundRecord::game(opponent, rng.side(), ResultCode::ForfeitLoss),
        2 => RoundRecord::bye(ResultCode::PairingBye),
        3 => RoundRecord::bye(ResultCode::FullBye),
        4 => RoundRecord::bye(ResultCode::HalfBye),
        _ => RoundRecord::bye(ResultCode::ZeroBye),
    }
}

/// `rounds` round records holding the games `games` (in order) among unplayed rounds.
fn history(
    rng: &mut Lcg,
    games: &[Side],
    rounds: usize,
    next_opponent: &mut StartNo,
) -> Vec<RoundRecord> {
    let mut slots = vec![false; rounds];
    let mut placed = 0;
    while placed < games.len() {
        let k = rng.below(rounds as u64) as usize;
        if !slots[k] {
            slots[k] = true;
            placed += 1;
        }
    }
    let mut games = games.iter();
    slots
        .into_iter()
        .map(|played| {
            *next_opponent += 1;
            let opp = *next_opponent;
            if played {
                let colour = *games.next().expect("one game per slot");
                let result = [
                    ResultCode::Win,
                    ResultCode::Draw,
                    ResultCode::Loss,
                    ResultCode::UnratedWin,
                    ResultCode::UnratedDraw,
                    ResultCode::UnratedLoss,
                ][rng.below(6) as usize];
                RoundRecord::game(opp, colour, result)
            } else {
                unplayed(rng, opp)
            }
        })
        .collect()
}

fn random_games(rng: &mut Lcg, max: usize) -> Vec<Side> {
    let n = rng.below(max as u64 + 1) as usize;
    (0..n).map(|_| rng.side()).collect()
}

/// B's games from A's: often alike, so that steps 2 and 3 decide as often as step 1.
fn related_games(rng: &mut Lcg, a: &[Side], max: usize) -> Vec<Side> {
    match rng.below(7) {
        0 => Vec::new(),
        1 => a.to_vec(),
        2 => {
            // The same counts and the same last streak, the games before it in another
            // order: the same xianshu, mostly another string (step 2).
            let run = a
                .iter()
                .rev()
                .take_while(|&&c| Some(&c) == a.last())
                .count();
            let (before, last) = a.split_at(a.len() - run);
            for _ in 0..8 {
                let mut b = before.to_vec();
                for i in (1..b.len()).rev() {
                    let j = rng.below(i as u64 + 1) as usize;
                    b.swap(i, j);
                }
                if b.last().is_none_or(|c| Some(c) != last.first()) {
                    b.extend_from_slice(last);
                    return b;
                }
            }
            a.to_vec()
        }
        3 | 4 => {
            // Another start, the same end.
            let keep = rng.below(a.len() as u64 + 1) as usize;
            let mut b = random_games(rng, max.saturating_sub(keep));
            b.extend_from_slice(&a[a.len() - keep..]);
            b
        }
        _ => random_games(rng, max),
    }
}

fn entrant(start_no: StartNo, rounds: Vec<RoundRecord>) -> Entrant {
    Entrant {
        start_no,
        name: format!("P{start_no}"),
        rounds,
        ..Entrant::default()
    }
}

#[test]
fn the_engine_gives_colours_as_rules_md_says_over_generated_histories() {
    let cases: u64 = std::env::var("CHINESE_COLOUR_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let mut rng = Lcg(0x5eed_c010_0a15);
    let mut decided_by = std::collections::BTreeMap::new();
    let mut without_games = 0;
    for case in 0..cases {
        let round = 2 + rng.below(10) as u32; // rounds 2..=11
        let before = round as usize - 1;
        let games_a = if rng.below(5) == 0 {
            Vec::new()
        } else {
            random_games(&mut rng, before)
        };
        let games_b = related_games(&mut rng, &games_a, before);
        let a = 1 + rng.below(40) as StartNo;
        let b = loop {
            let b = 1 + rng.below(40) as StartNo;
            if b != a {
                break b;
            }
        };
        // Opponents are numbered from 100 up, so A and B never met.
        let mut next = 100;
        let ha = history(&mut rng, &games_a, before, &mut next);
        let hb = history(&mut rng, &games_b, before, &mut next);
        let mut entrants = vec![entrant(a, ha), entrant(b, hb)];
        entrants.sort_by_key(|e| e.start_no);
        let t = Tournament {
            scoring: Scoring::two_one_zero(),
            entrants,
            ..Tournament::default()
        };
        let ea = t.entrant(a).expect("a");
        let eb = t.entrant(b).expect("b");
        let (sa, sb) = (colour_string(ea, round), colour_string(eb, round));
        assert_eq!(
            (sa.as_slice(), sb.as_slice()),
            (games_a.as_slice(), games_b.as_slice())
        );
        if sa.is_empty() || sb.is_empty() {
            without_games += 1;
        }
        let (red, step) = rule(a, &sa, b, &sb, round);
        let paired = pair_round(&t, &ChineseOptions::default(), round, &[a, b])
            .unwrap_or_else(|e| panic!("case {case}: {e}"));
        let board = &paired.pairing.boards[0];
        let expected_black = if red == a { b } else { a };
        assert_eq!(
            (board.red, board.black),
            (red, expected_black),
            "case {case}, round {round}: {a} {sa:?} v {b} {sb:?} (RULES: {step:?})"
        );
        // The report says the same reason.
        let said = paired.report.boards[0].decision;
        let meant = match step {
            Step::Hard => ColourDecision::AbsoluteNeed,
            Step::Index => ColourDecision::Balance,
            Step::Strings => ColourDecision::Alternation,
            Step::RoundParity => ColourDecision::RoundParity,
        };
        assert_eq!(said, meant, "case {case}: {a} {sa:?} v {b} {sb:?}");
        *decided_by.entry(format!("{step:?}")).or_insert(0u64) += 1;
    }
    eprintln!("decided by: {decided_by:?}; {without_games} cases with a player without games");
    // Every step decided a fair share of the cases, and players without games took part.
    for step in ["Hard", "Index", "Strings", "RoundParity"] {
        let n = decided_by.get(step).copied().unwrap_or(0);
        assert!(
            n * 50 >= cases,
            "{step} decided only {n} of {cases}: {decided_by:?}"
        );
    }
    assert!(without_games * 10 >= cases, "{without_games} of {cases}");
}

/// Issue #39's case: Black then Red (index +1) against a late entrant (index 0) in round 3.
#[test]
fn a_player_with_black_then_red_gets_black_against_a_player_without_games() {
    for (first, late) in [(1, 2), (2, 1), (5, 11), (11, 5)] {
        let t = Tournament {
            scoring: Scoring::two_one_zero(),
            entrants: {
                let mut v = vec![
                    entrant(
                        first,
                        vec![
                            RoundRecord::game(30, Side::Black, ResultCode::Win),
                            RoundRecord::game(31, Side::Red, ResultCode::Loss),
                        ],
                    ),
                    entrant(
                        late,
                        vec![
                            RoundRecord::bye(ResultCode::ZeroBye),
                            RoundRecord::bye(ResultCode::ZeroBye),
                        ],
                    ),
                ];
                v.sort_by_key(|e| e.start_no);
                v
            },
            ..Tournament::default()
        };
        let paired = pair_round(&t, &ChineseOptions::default(), 3, &[first, late]).expect("pairs");
        let board = &paired.pairing.boards[0];
        assert_eq!((board.red, board.black), (late, first), "{first} v {late}");
        let report = &paired.report.boards[0];
        assert_eq!(report.decision, ColourDecision::Balance);
        // The report's "due" column agrees: the late entrant is due Red, the other Black.
        assert_eq!((report.red_due, report.black_due), (Side::Red, Side::Black));
        assert!(report.unmet_preferences.is_empty());
    }
}
