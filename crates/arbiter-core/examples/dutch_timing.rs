//! Times Dutch pairings of generated tournaments: `cargo run --release --example dutch_timing
//! -- 1000 5` pairs rounds 1..=5 of a 1,000-entrant event and prints each round's time.
//!
//! With `--generated` after the numbers, the history comes from the crate's generator
//! (absences, forfeits and byes in every round, as in the criterion bench) and only the last
//! round is timed. `--save FILE` writes that history as JSON, `--load FILE` reads it instead
//! of generating it (for timing two builds on one 10,000-entrant history).
//!
//! Each line gives the round's wall time and this process's CPU time (from `/proc`; the
//! machine is shared, so wall times on a busy day can be two or three times the CPU time).
//!
//! Measured on the shared 2-core machine, release build, 29 Nov 2026 (issue #3 targets:
//! 1,000 < 5 s, 2,000 < 20 s, 5,000 < 60 s a round), CPU time of rounds 1 / 3 / 5 (wall
//! equal within 0.1 s at that moment), peak resident memory of the whole run:
//! - 100 entrants: under 0.01 s a round; 4 MB.
//! - 1,000 entrants: 0.15 / 0.43 / 0.43 s; 92 MB.
//! - 2,000 entrants: 0.60 / 1.82 / 2.82 s; 380 MB.
//! - 5,000 entrants: 4.6 / 12.0 / 15.1 s; all 9 rounds 4.6–19.0 s (the slowest is round 7);
//!   3.2 GB (the dense weight matrix: 5,000² weights of up to 12 × 64 bits).
//! - `--generated`, round 5: 1,000 entrants 0.5 s, 2,000 entrants 3.0 s, 5,000 entrants
//!   15.6 s (2.6 GB).
//!
//! After the sparse matching (issue #19; 1 Dec 2026, a heavily loaded machine, CPU time of the
//! round, peak memory of the whole process): `--generated` rounds 2 / 5 / 9 took 0.27 / 0.24 /
//! 0.33 s at 1,000 entrants (23 MB), 1.13 / 1.43 / 1.77 s at 2,000 (74 MB) and 18.1 / 17.1 /
//! 17.8 s at 5,000 (482 MB, reached while generating round 1's single 5,000-player bracket).
//!
//! After the lazy first-round engine (issue #19; 1 Dec 2026, load average 3 to 9): round 1
//! took 0.05 / 0.14 / 1.04 / 3.6 s at 1,000 / 2,000 / 5,000 / 10,000 entrants (6 / 7 / 15 /
//! 21 MB); rounds 2 / 5 / 9 took 0.31 / 0.26 / 0.33 s at 1,000 (20 MB), 1.18 / 1.72 / 1.91 s
//! at 2,000 (56 MB), 13.6 / 17.9 / 15.3 s at 5,000 (272 MB); rounds 2 / 5 at 10,000 took
//! 109 / 77.5 s (1.03 GB). Figures and the targets not met are in the README.
//!
//! After the weight ids copied into the sparse matcher's adjacency lists and the class-pair
//! weights (issue #19; 2 Dec 2026, load average 4 to 6): rounds 2 / 5 / 9 took 0.18 / 0.17 /
//! 0.21 s at 1,000 (21 MB), 0.62 / 1.01 / 1.14 s at 2,000 (62 MB), 5.16 / 8.80 / 8.33 s at
//! 5,000 (318 MB); rounds 2 / 5 at 10,000 took 39.0 / 41.1 s (1.24 GB).
//!
//! After the row-by-row bracket setup, the deferred copies and the solver's cheaper blossom
//! scans and dual updates (issue #19; 2 Dec 2026, load average 6 to 9): rounds 2 / 5 / 9
//! took 0.26 / 0.28 / 0.27 s at 1,000 (23 MB), 5.77 / 8.45 / 7.84 s at 5,000 (360 MB;
//! main 9.15 s for round 2 side by side); rounds 2 / 5 / 9 at 10,000 took 48.0 / 39.2 /
//! 47.5 s (1.36 GB). Figures and the targets not met are in the README.
//!
//! After the certification's chains of blossoms found on demand and the exact slacks cached
//! per weight key (issue #19; 3 Dec 2026, a noisy machine, side by side with the build
//! before on saved histories): 5,000 entrants' rounds 5 / 9 1.2 / 1.3 times faster, 10,000
//! entrants' rounds 2 / 9 1.2 / 1.55 times (30.3 s instead of 47 s for round 9). README.
//!
//! Before the per-stage tight matching and the solve skipping of stage 4 (same machine,
//! same day): 2,000 entrants about 10 s CPU for rounds 2 and 3; 5,000 entrants 53 s CPU for
//! round 2 alone (one bracket's first solve took 45 s), 10–16 s for round 1. An older note
//! here gave 153 s for round 1 at 5,000, measured under memory pressure.

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
    if std::env::args().any(|a| a == "--generated") {
        // The generator's own history (absences, forfeits and byes in every round): only
        // the last round is timed.
        // `--save FILE` keeps the generated history (JSON) and `--load FILE` reads it back
        // instead of generating it: a 10,000-entrant history takes minutes to generate,
        // and two builds timed on the same file pair the very same round.
        let flag = |name: &str| {
            let args: Vec<String> = std::env::args().collect();
            args.iter()
                .position(|a| a == name)
                .and_then(|i| args.get(i + 1).cloned())
        };
        let t: arbiter_core::model::Tournament = match flag("--load") {
            Some(path) => {
                let text = std::fs::read_to_string(&path).expect("readable history");
                serde_json::from_str(&text).expect("a saved history")
            }
            None => arbiter_core::generator::generate(&config, rounds - 1).expect("history"),
        };
        if let Some(path) = flag("--save") {
            let text = serde_json::to_string(&t).expect("serialisable");
            std::fs::write(&path, text).expect("writable history");
        }
        let start = Instant::now();
        let cpu_start = cpu_seconds();
        let p = pair(&t, &DutchOptions::default()).expect("pairable");
        let cpu = match (cpu_start, cpu_seconds()) {
            (Some(a), Some(b)) => format!(", CPU {:.2} s", b - a),
            _ => String::new(),
        };
        // A digest of the pairing (FNV-1a of its text), to compare two builds' results.
        let digest = p.to_text().bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        println!(
            "{entrants} entrants (generated history), round {rounds}: wall {:.3} s{cpu} ({} boards, digest {digest:016x})",
            start.elapsed().as_secs_f64(),
            p.boards.len()
        );
        return;
    }
    // Build round by round so that each pairing is timed.
    let mut t = arbiter_core::generator::generate(&config, 0).expect("round 0");
    let mut rng = arbiter_core::generator::SplitMix64::new(99);
    for round in 1..=rounds {
        let start = Instant::now();
        let cpu_start = cpu_seconds();
        let p = pair(&t, &DutchOptions::default()).expect("pairable");
        let wall = start.elapsed().as_secs_f64();
        let cpu = match (cpu_start, cpu_seconds()) {
            (Some(a), Some(b)) => format!(", CPU {:.2} s", b - a),
            _ => String::new(),
        };
        println!(
            "{entrants} entrants, round {round}: wall {wall:.3} s{cpu} ({} boards)",
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

/// User plus system CPU time of this process so far, from `/proc/self/stat` (Linux; in
/// clock ticks of 1/100 s), so that a busy shared machine does not inflate the figures.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may contain spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
