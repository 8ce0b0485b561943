//! Every public Dutch fixture: the engine's pairing must equal bbpPairings' (`.expected`, 2025
//! edition) as a set of (white, black) pairs plus the bye; board order is reported
//! separately. `--edition 2017` is compared with `.expected-2017` the same way. Every case runs
//! (all of them take about 3 s since the engine's speed-up); `DUTCH_FIXTURES_MAX_PLAYERS=N`
//! leaves out the cases of more than N players, and `DUTCH_CASE=<part of a name>` runs one case.

mod common;

use arbiter_core::pairing::dutch::{pair, DutchOptions, Edition};
use std::collections::BTreeSet;

fn pairs_and_bye(text: &str) -> (BTreeSet<(u32, u32)>, Option<u32>) {
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    for line in text.lines() {
        let parts: Vec<&str> = line.split_whitespace().collect();
        match parts.as_slice() {
            ["bye", id] => bye = id.parse().ok(),
            [w, b] => {
                pairs.insert((w.parse().expect("id"), b.parse().expect("id")));
            }
            _ => {}
        }
    }
    (pairs, bye)
}

#[test]
fn every_dutch_fixture_pairs_like_the_reference_engine() {
    run_fixtures(Edition::E2025, "expected");
}

#[test]
fn every_dutch_fixture_pairs_like_the_2017_reference_engine_with_edition_2017() {
    run_fixtures(Edition::E2017, "expected-2017");
}

fn run_fixtures(edition: Edition, suffix: &str) {
    let dir = common::fixtures_dir().join("cases");
    // CI always has the shared fixtures: a missing folder is a failure, not a skip.
    let read = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("fixture folder {} is missing: {err}", dir.display()));
    let max_players: usize = std::env::var("DUTCH_FIXTURES_MAX_PLAYERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    let mut cases: Vec<_> = read
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    cases.sort();
    let (mut passed, mut order_ok, mut total) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in &cases {
        let trf = std::fs::read_to_string(case).expect("read trf");
        let t = arbiter_core::trf::parse(&trf).expect("fixture parses");
        if t.entrants.len() > max_players {
            continue;
        }
        if let Ok(only) = std::env::var("DUTCH_CASE") {
            if !case.to_string_lossy().contains(&only) {
                continue;
            }
        }
        total += 1;
        let expected = std::fs::read_to_string(case.with_extension(suffix)).expect("expected");
        let name = case
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .to_string();
        let started = std::time::Instant::now();
        let result = pair(
            &t,
            &DutchOptions {
                edition,
                forfeit_counts_as_met: false,
            },
        );
        if t.entrants.len() > 150 {
            eprintln!("{name}: {:.2} s", started.elapsed().as_secs_f64());
        }
        match result {
            Ok(p) => {
                let got = p.to_text();
                if pairs_and_bye(&got) == pairs_and_bye(&expected) {
                    passed += 1;
                    if got == expected {
                        order_ok += 1;
                    } else {
                        eprintln!("{name}: same pairs, different board order");
                    }
                } else {
                    failures.push(name);
                }
            }
            Err(e) => failures.push(format!("{name} ({e})")),
        }
    }
    eprintln!(
        "Dutch fixtures ({suffix}): {passed}/{total} pass, {order_ok} with identical board order"
    );
    for f in &failures {
        eprintln!("  FAIL {f}");
    }
    assert!(failures.is_empty(), "{} fixture(s) differ", failures.len());
}
