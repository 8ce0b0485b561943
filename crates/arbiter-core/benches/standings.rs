//! Standings of a large event: 10,000 entrants × 11 rounds with a 6-key chain
//! (SPEC §15 target: under 200 ms in release).

use arbiter_core::model::{Entrant, ResultCode, RoundRecord, Scoring, Side, Tournament};
use arbiter_core::standings::{rank, Preset, StandingsOptions, UnplayedMode};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

/// A deterministic Swiss-like event: each round pairs neighbours in the current order
/// (points, then starting number), one pairing-allocated bye when odd, results from an LCG
/// with a few draws, forfeits and absences.
fn big_event(players: u32, rounds: usize) -> Tournament {
    let mut entrants: Vec<Entrant> = (1..=players)
        .map(|n| Entrant {
            start_no: n,
            name: format!("Player {n}"),
            rating: Some(2600 - n % 1600),
            ..Entrant::default()
        })
        .collect();
    let scoring = Scoring::two_one_zero();
    let mut state: u64 = 0x5eed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % 100
    };
    for _ in 0..rounds {
        let mut order: Vec<usize> = (0..entrants.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(entrants[i].points(&scoring)), i));
        if order.len() % 2 == 1 {
            if let Some(last) = order.pop() {
                entrants[last]
                    .rounds
                    .push(RoundRecord::bye(ResultCode::PairingBye));
            }
        }
        for pair in order.chunks(2) {
            let (a, b) = (pair[0], pair[1]);
            let roll = next();
            let (ra, rb) = match roll {
                0..=39 => (ResultCode::Win, ResultCode::Loss),
                40..=74 => (ResultCode::Loss, ResultCode::Win),
                75..=96 => (ResultCode::Draw, ResultCode::Draw),
                97 => (ResultCode::ForfeitWin, ResultCode::ForfeitLoss),
                _ => (ResultCode::ForfeitLoss, ResultCode::ForfeitWin),
            };
            let (sa, sb) = (entrants[a].start_no, entrants[b].start_no);
            entrants[a]
                .rounds
                .push(RoundRecord::game(sb, Side::Red, ra));
            entrants[b]
                .rounds
                .push(RoundRecord::game(sa, Side::Black, rb));
        }
    }
    Tournament {
        name: "bench".into(),
        scoring,
        rounds_total: Some(rounds as u32),
        entrants,
        ..Tournament::default()
    }
}

fn standings(c: &mut Criterion) {
    let t = big_event(10_000, 11);
    let fide = StandingsOptions {
        unplayed: UnplayedMode::Fide2026,
        ..StandingsOptions::preset(Preset::FideSwiss)
    };
    let chinese = StandingsOptions::preset(Preset::Seed002Main);
    let mut group = c.benchmark_group("standings_10000x11");
    group.sample_size(20);
    group.bench_function("fide_swiss (BH/C1 BH SB PS DE WIN)", |b| {
        b.iter(|| rank(black_box(&t), black_box(&fide)))
    });
    group.bench_function("seed002_main (OPP PS WIN FOULS PREV)", |b| {
        b.iter(|| rank(black_box(&t), black_box(&chinese)))
    });
    group.finish();
}

criterion_group!(benches, standings);
criterion_main!(benches);
