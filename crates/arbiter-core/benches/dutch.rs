//! FIDE Dutch pairing speed (issue #3: one round of 1,000 entrants < 5 s, 2,000 < 20 s,
//! 5,000 < 60 s, release build, on the project's 2-core machine).
//!
//! `cargo bench -p arbiter-core --bench dutch` pairs generated tournaments (the crate's
//! `generator`: 25 % draws, 3 % forfeits, 4 % absences, 9 rounds announced) of 100 and 1,000
//! entrants, in round 1 (one big score group) and round 5 (many score groups, colour and
//! float history). Larger fields take seconds to minutes a round, too slow for criterion's
//! repeated sampling: time them with the example instead,
//! `cargo run --release -p arbiter-core --example dutch_timing -- 5000 5` (entrants, rounds;
//! it prints each round's time). Never run from a test path.

use arbiter_core::generator::{generate, GeneratorConfig};
use arbiter_core::pairing::dutch::{pair, DutchOptions};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let options = DutchOptions::default();
    let mut group = c.benchmark_group("dutch");
    group.sample_size(10);
    for entrants in [100u32, 1000] {
        let config = GeneratorConfig {
            entrants,
            rounds_total: 9,
            seed: 2026,
            ..GeneratorConfig::default()
        };
        for round in [1u32, 5] {
            let t = generate(&config, round - 1).expect("the generated event pairs");
            group.bench_function(format!("pair round {round} of {entrants} entrants"), |b| {
                b.iter(|| black_box(pair(black_box(&t), &options).expect("pairs")))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
