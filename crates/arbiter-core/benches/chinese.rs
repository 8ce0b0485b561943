//! Chinese Swiss pairing speed (SPEC §15: one round of 1,000 entrants in < 1 s).
//!
//! Builds a 1,000-entrant event by pairing rounds 1–5 with the engine itself and random
//! results (40 % Red wins, 25 % draws, 30 % Black wins, 5 % forfeits), then measures
//! pairing round 6.

use arbiter_core::model::{Entrant, ResultCode, RoundRecord, Scoring, Side, Tournament};
use arbiter_core::pairing::chinese::{pair, ChineseOptions};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

struct Lcg(u64);

impl Lcg {
    fn below(&mut self, m: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % m
    }
}

fn event(n: u32, rounds: u32, seed: u64) -> Tournament {
    let mut rng = Lcg(seed);
    let mut t = Tournament {
        scoring: Scoring::two_one_zero(),
        entrants: (1..=n)
            .map(|i| Entrant {
                start_no: i,
                name: format!("P{i}"),
                ..Entrant::default()
            })
            .collect(),
        ..Tournament::default()
    };
    let options = ChineseOptions::default();
    for round in 1..=rounds {
        let p = pair(&t, &options).expect("the generated event pairs");
        for b in &p.pairing.boards {
            let (red, black) = match rng.below(100) {
                0..=39 => (ResultCode::Win, ResultCode::Loss),
                40..=64 => (ResultCode::Draw, ResultCode::Draw),
                65..=94 => (ResultCode::Loss, ResultCode::Win),
                _ => (ResultCode::ForfeitWin, ResultCode::ForfeitLoss),
            };
            for (id, opp, side, result) in [
                (b.red, b.black, Side::Red, red),
                (b.black, b.red, Side::Black, black),
            ] {
                let e = &mut t.entrants[id as usize - 1];
                e.rounds
                    .resize(round as usize - 1, RoundRecord::bye(ResultCode::ZeroBye));
                e.rounds.push(RoundRecord::game(opp, side, result));
            }
        }
        if let Some(bye) = p.pairing.bye {
            let e = &mut t.entrants[bye as usize - 1];
            e.rounds
                .resize(round as usize - 1, RoundRecord::bye(ResultCode::ZeroBye));
            e.rounds.push(RoundRecord::bye(ResultCode::PairingBye));
        }
    }
    t
}

fn bench(c: &mut Criterion) {
    let options = ChineseOptions::default();
    let mut group = c.benchmark_group("chinese");
    group.sample_size(10);
    for n in [200u32, 1000] {
        let t = event(n, 5, 2026);
        group.bench_function(format!("pair round 6 of {n} entrants"), |b| {
            b.iter(|| black_box(pair(black_box(&t), &options).expect("pairs")))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
