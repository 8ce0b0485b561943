//! Runs the Chinese engine on every tournament state of the shared Dutch corpus
//! (../shared/fixtures/dutch/cases/*.trf: 8 to 960 entrants, byes, absences, forfeits).
//! There is no reference Chinese pairing for them; the checks are independent of the engine:
//!
//! - every entrant to pair is on exactly one board or on the bye (only for an odd field);
//! - no rematch (read from the TRF records; forfeits count as met, the default);
//! - when a colour rule is relaxed, the shared matcher (`pairing::matching`) confirms that
//!   no pairing keeps every rule;
//! - small fields pair identically twice.

use arbiter_core::model::{Side, StartNo, Tournament};
use arbiter_core::pairing::chinese::{pair, ChineseOptions};
use arbiter_core::pairing::{entrants_to_pair, matching, next_round};
use arbiter_core::trf;
use std::collections::BTreeSet;
use std::path::Path;

fn met(t: &Tournament, id: StartNo, round: u32) -> BTreeSet<StartNo> {
    t.entrant(id)
        .map(|e| {
            e.rounds
                .iter()
                .take(round as usize - 1)
                .filter(|r| r.result.is_played() || r.result.is_forfeit())
                .filter_map(|r| r.opponent)
                .collect()
        })
        .unwrap_or_default()
}

fn colours(t: &Tournament, id: StartNo, round: u32) -> Vec<Side> {
    t.entrant(id)
        .map(|e| {
            e.rounds
                .iter()
                .take(round as usize - 1)
                .filter(|r| r.result.is_played())
                .filter_map(|r| r.colour)
                .collect()
        })
        .unwrap_or_default()
}

/// May `c` (colour history) take `side` without 3 in a row or |Red − Black| > 2?
fn may_take(c: &[Side], side: Side) -> bool {
    let streak = c.len() >= 2 && c[c.len() - 1] == side && c[c.len() - 2] == side;
    let diff: i32 = c.iter().map(|s| if *s == Side::Red { 1 } else { -1 }).sum();
    let after = diff + if side == Side::Red { 1 } else { -1 };
    !streak && after.abs() <= 2
}

/// Whether some pairing keeps every rule (one bye allowed for an odd field).
fn fully_legal_pairing_exists(t: &Tournament, ids: &[StartNo], round: u32) -> bool {
    let n = ids.len();
    let hist: Vec<Vec<Side>> = ids.iter().map(|&id| colours(t, id, round)).collect();
    let seen: Vec<BTreeSet<StartNo>> = ids.iter().map(|&id| met(t, id, round)).collect();
    let mut edges: Vec<(usize, usize, i64)> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let colour_ok = (may_take(&hist[i], Side::Red) && may_take(&hist[j], Side::Black))
                || (may_take(&hist[i], Side::Black) && may_take(&hist[j], Side::Red));
            if colour_ok && !seen[i].contains(&ids[j]) && !seen[j].contains(&ids[i]) {
                edges.push((i, j, 1));
            }
        }
        if n % 2 == 1 {
            edges.push((i, n, 1));
        }
    }
    let vertices = n + n % 2;
    let mate = matching::max_weight_matching(vertices, &edges, true);
    mate.iter().all(Option::is_some)
}

#[test]
fn every_corpus_state_pairs_completely_without_rematches() {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/fixtures/dutch/cases"
    ));
    assert!(
        dir.is_dir(),
        "the shared Dutch corpus is missing at {} (CI always has it)",
        dir.display()
    );
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("readable folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    let options = ChineseOptions::default();
    let (mut cases, mut relaxed) = (0, 0);
    let mut slowest = (std::time::Duration::ZERO, String::new());
    for path in &files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let text = std::fs::read_to_string(path).expect("readable case");
        let t = trf::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let round = next_round(&t);
        let ids = entrants_to_pair(&t, round);
        let started = std::time::Instant::now();
        let p = pair(&t, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let took = started.elapsed();
        if took > slowest.0 {
            slowest = (took, name.clone());
        }
        let mut seen = BTreeSet::new();
        for b in &p.pairing.boards {
            assert!(seen.insert(b.red) && seen.insert(b.black), "{name}: twice");
            assert!(
                !met(&t, b.red, round).contains(&b.black),
                "{name}: rematch {} - {}",
                b.red,
                b.black
            );
        }
        if let Some(bye) = p.pairing.bye {
            assert!(seen.insert(bye), "{name}: bye also on a board");
        }
        assert_eq!(
            seen,
            ids.iter().copied().collect(),
            "{name}: not everyone paired"
        );
        assert_eq!(p.pairing.bye.is_some(), ids.len() % 2 == 1, "{name}");
        if !p.report.relaxed.is_empty() {
            relaxed += 1;
            assert!(
                !fully_legal_pairing_exists(&t, &ids, round),
                "{name}: relaxed a colour rule although a legal pairing exists"
            );
        }
        if ids.len() <= 200 {
            assert_eq!(
                pair(&t, &options).expect("pairs again"),
                p,
                "{name}: not deterministic"
            );
        }
        cases += 1;
    }
    eprintln!(
        "chinese on the Dutch corpus: {cases} cases, {relaxed} with a relaxed colour rule, slowest {} in {:?}",
        slowest.1, slowest.0
    );
    assert_eq!(cases, files.len());
}
