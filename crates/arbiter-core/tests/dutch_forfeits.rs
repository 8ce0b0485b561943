//! The Dutch engine and `forfeit_counts_as_met` (SPEC §4): with the setting, a forfeited
//! pairing is never paired again; without it (FIDE, bbpPairings) a forfeit is no meeting.

use arbiter_core::generator::{generate_with, GeneratorConfig};
use arbiter_core::model::{Entrant, ResultCode, RoundRecord, Side, StartNo, Tournament};
use arbiter_core::pairing::check::{check, CheckOptions, Violation};
use arbiter_core::pairing::dutch::{pair, DutchOptions};
use arbiter_core::pairing::{PairingError, RoundPairing};
use std::collections::BTreeSet;

fn options(forfeit_counts_as_met: bool) -> DutchOptions {
    DutchOptions {
        forfeit_counts_as_met,
        ..DutchOptions::default()
    }
}

fn event(players: u32, rounds: u32) -> Tournament {
    Tournament {
        rounds_total: Some(rounds),
        initial_colour: Some(Side::Red),
        entrants: (1..=players)
            .map(|n| Entrant {
                start_no: n,
                name: format!("P{n}"),
                rating: Some(2000 - n),
                ..Entrant::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn game(t: &mut Tournament, red: StartNo, black: StartNo, red_result: ResultCode) {
    let black_result = match red_result {
        ResultCode::Win => ResultCode::Loss,
        ResultCode::Loss => ResultCode::Win,
        ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
        ResultCode::ForfeitLoss => ResultCode::ForfeitWin,
        other => other,
    };
    t.entrants[red as usize - 1]
        .rounds
        .push(RoundRecord::game(black, Side::Red, red_result));
    t.entrants[black as usize - 1]
        .rounds
        .push(RoundRecord::game(red, Side::Black, black_result));
}

fn pairs(p: &RoundPairing) -> BTreeSet<(StartNo, StartNo)> {
    p.boards
        .iter()
        .map(|b| (b.red.min(b.black), b.red.max(b.black)))
        .collect()
}

/// Every pair that met by forfeit so far.
fn forfeited_pairs(t: &Tournament) -> BTreeSet<(StartNo, StartNo)> {
    let mut out = BTreeSet::new();
    for e in &t.entrants {
        for r in &e.rounds {
            if let (Some(o), true) = (r.opponent, r.result.is_forfeit()) {
                out.insert((e.start_no.min(o), e.start_no.max(o)));
            }
        }
    }
    out
}

#[test]
fn two_players_after_a_forfeit_cannot_be_paired_when_it_counts_as_met() {
    let mut t = event(2, 3);
    game(&mut t, 1, 2, ResultCode::ForfeitWin);
    let again = pair(&t, &options(false)).expect("FIDE: a forfeit is no meeting");
    assert_eq!(pairs(&again), BTreeSet::from([(1, 2)]));
    assert!(matches!(
        pair(&t, &options(true)),
        Err(PairingError::NoValidPairing { .. })
    ));
}

#[test]
fn four_players_never_repeat_a_forfeited_pair_when_it_counts_as_met() {
    // Round 1: 1–3 forfeited (1 wins), 2–4 forfeited (2 wins); round 2: 1–2 and 3–4, played.
    // Round 3 without repeating a played game is 1–3 + 2–4 (both forfeited before), which the
    // FIDE reading chooses, or 1–4 + 2–3.
    let mut t = event(4, 3);
    game(&mut t, 1, 3, ResultCode::ForfeitWin);
    game(&mut t, 4, 2, ResultCode::ForfeitLoss);
    let r2 = pair(&t, &options(true)).expect("round 2");
    assert!(pairs(&r2).is_disjoint(&forfeited_pairs(&t)), "{r2:?}");
    let r2_fide = pair(&t, &options(false)).expect("round 2");
    assert_eq!(
        pairs(&r2_fide),
        pairs(&r2),
        "no repeat needed in round 2 either way"
    );
    // The lower number wins each round-2 game.
    for b in &r2.boards {
        let red_result = if b.red < b.black {
            ResultCode::Win
        } else {
            ResultCode::Loss
        };
        game(&mut t, b.red, b.black, red_result);
    }
    let r3 = pair(&t, &options(true)).expect("round 3");
    assert!(pairs(&r3).is_disjoint(&forfeited_pairs(&t)), "{r3:?}");
    let strict = CheckOptions {
        forfeits_count_as_met: true,
        ..CheckOptions::default()
    };
    assert!(!check(&t, &r3, &strict)
        .iter()
        .any(|v| matches!(v, Violation::Rematch { .. })));
    let fide = pair(&t, &options(false)).expect("round 3");
    assert_eq!(pairs(&fide), BTreeSet::from([(1, 3), (2, 4)]));
    assert_eq!(pairs(&r3), BTreeSet::from([(1, 4), (2, 3)]));
}

#[test]
fn a_generated_forty_player_event_never_repeats_a_forfeited_pair() {
    for seed in 1..=5 {
        let config = GeneratorConfig {
            entrants: 40,
            rounds_total: 9,
            seed,
            forfeit_percent: 15,
            ..GeneratorConfig::default()
        };
        let t = generate_with(&config, 8, &options(true)).expect("pairable");
        let forfeited = forfeited_pairs(&t);
        assert!(!forfeited.is_empty(), "seed {seed}: the event has forfeits");
        // Every round: no pair of that round had a forfeit before it.
        for round in 2..=8u32 {
            let mut before = t.clone();
            for e in &mut before.entrants {
                e.rounds.truncate(round as usize - 1);
            }
            let earlier = forfeited_pairs(&before);
            for e in &t.entrants {
                if let Some(o) = e.round(round).and_then(|r| r.opponent) {
                    let key = (e.start_no.min(o), e.start_no.max(o));
                    assert!(
                        !earlier.contains(&key),
                        "seed {seed}: {key:?} meet again in round {round} after a forfeit"
                    );
                }
            }
        }
        // And the round to be paired next as well, which the checker confirms.
        let next = pair(&t, &options(true)).expect("round 9");
        assert!(pairs(&next).is_disjoint(&forfeited), "seed {seed}");
        let strict = CheckOptions {
            forfeits_count_as_met: true,
            ..CheckOptions::default()
        };
        let violations = check(&t, &next, &strict);
        assert!(violations.is_empty(), "seed {seed}: {violations:?}");
    }
}
