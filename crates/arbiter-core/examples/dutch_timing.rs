//! Times Dutch pairings of generated tournaments: `cargo run --release --example dutch_timing
//! -- 1000 5` pairs rounds 1..=5 of a 1,000-entrant event and prints each round's time.
//!
//! Measured on the shared 2-core machine (29 Nov 2026, load average 6–9, so wall times are
//! roughly twice the CPU times): 1,000 entrants, 5 rounds: 4.9 s CPU in total (about 1 s a
//! round; wall 0.6–3.0 s); 2,000 entrants, 5 rounds: 35.8 s CPU in total (7–11 s a round for
//! rounds 2–5; wall 13–29 s; 417 MB resident); 3,000 entrants, round 1: 1.9 s CPU;
//! 4,000, round 1: 13.8 s wall; 5,000, round 1: 153 s wall (niced), over the 60 s target.

use arbiter_core::generator::GeneratorConfig;
use arbiter_core::model::{ResultCode, RoundRecord, Side};
use arbiter_core::pairing::dutch::{pair, DutchOptions};
use std::time::Instant;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let entrants = args.first().copied().unwrap_or(1000) as u32;
    let rounds = args.get(1).copied().unwrap_or(5) as u32;
    let config = GeneratorConfig {
        entrants,
        rounds_total: 9,
        seed: 7,
        ..GeneratorConfig::default()
    };
    // Build round by round so that each pairing is timed.
    let mut t = arbiter_core::generator::generate(&config, 0).expect("round 0");
    let mut rng = arbiter_core::generator::SplitMix64::new(99);
    for round in 1..=rounds {
        let start = Instant::now();
        let p = pair(&t, &DutchOptions::default()).expect("pairable");
        println!(
            "{entrants} entrants, round {round}: {:.3} s ({} boards)",
            start.elapsed().as_secs_f64(),
            p.boards.len()
        );

        for b in &p.boards {
            let r = rng.below(100);
            let (x, y) = if r < 40 {
                (ResultCode::Win, ResultCode::Loss)
            } else if r < 70 {
                (ResultCode::Loss, ResultCode::Win)
            } else {
                (ResultCode::Draw, ResultCode::Draw)
            };
            t.entrants[b.red as usize - 1]
                .rounds
                .push(RoundRecord::game(b.black, Side::Red, x));
            t.entrants[b.black as usize - 1]
                .rounds
                .push(RoundRecord::game(b.red, Side::Black, y));
        }
        if let Some(bye) = p.bye {
            t.entrants[bye as usize - 1]
                .rounds
                .push(RoundRecord::bye(ResultCode::PairingBye));
        }
        // Absences drawn by the generator for round 1 are in the records already; later
        // rounds have none, which keeps the timing comparable.
    }
}
