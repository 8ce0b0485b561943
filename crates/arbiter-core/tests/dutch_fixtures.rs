//! Every public Dutch fixture: the engine's pairing must equal bbpPairings' (`.expected`, 2025
//! edition) as a set of (white, black) pairs plus the bye; board order is reported
//! separately. By default only cases of up to 150 players run (the three 512–960-player
//! tournaments take about a minute); set `DUTCH_FIXTURES_MAX_PLAYERS=100000` for all, and
//! `DUTCH_EDITION=2017` to compare `--edition 2017` with `.expected-2017`.

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
    let dir = common::fixtures_dir().join("cases");
    let Ok(read) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: fixture folder {} is absent", dir.display());
        return;
    };
    let edition_2017 = std::env::var("DUTCH_EDITION").is_ok_and(|v| v == "2017");
    let (edition, suffix) = if edition_2017 {
        (Edition::E2017, "expected-2017")
    } else {
        (Edition::E2025, "expected")
    };
    let max_players: usize = std::env::var("DUTCH_FIXTURES_MAX_PLAYERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
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
        let t = common::read_trf(&trf);
        if t.entrants.len() > max_players {
            continue;
        }
        total += 1;
        let expected = std::fs::read_to_string(case.with_extension(suffix)).expect("expected");
        let name = case
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .to_string();
        match pair(&t, &DutchOptions { edition }) {
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
