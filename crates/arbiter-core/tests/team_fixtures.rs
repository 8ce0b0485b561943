//! Reproduces every value and rank of the FIDE TieBreakServer team fixtures in
//! ../shared/fixtures/teams: `NAME.tsv` (`MPTS GPTS BH:MP BH:GP SB:MP EGGSB DE BC`, ranked by
//! the columns in order) and `NAME.chain.tsv` (`MPTS GPTS DE BH:MP`). The teams come from the
//! files' `013` records; values are compared as decimal numbers.

use arbiter_core::standings::TiebreakValue;
use arbiter_core::teams::{matches, standings, TeamKey, TeamScoring};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn folder() -> PathBuf {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/fixtures/teams"
    ));
    assert!(
        dir.is_dir(),
        "the team fixtures are missing at {} (CI always has them)",
        dir.display()
    );
    dir.to_path_buf()
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("fixture folder")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".trf"))
                .map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// A decimal as hundredths (`136.00` → 13600, `18.0` → 1800, `7` → 700).
fn hundredths(text: &str) -> i64 {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let mut frac = frac.to_string();
    while frac.len() < 2 {
        frac.push('0');
    }
    assert!(frac[2..].chars().all(|c| c == '0'), "{text}");
    let sign = if int.starts_with('-') { -1 } else { 1 };
    let int: i64 = int.trim_start_matches('-').parse().expect("integer part");
    sign * (int * 100 + frac[..2].parse::<i64>().expect("fraction"))
}

fn value_hundredths(v: &TiebreakValue) -> i64 {
    match v {
        TiebreakValue::Points(p) => p.tenths() * 10,
        TiebreakValue::Hundredths(h) => *h,
        TiebreakValue::Count(n) => n * 100,
        TiebreakValue::Position(n) => i64::from(*n) * 100,
        TiebreakValue::Scores(_) => panic!("no sequence keys for teams"),
    }
}

/// Team number (1-based, `013` order) -> column -> hundredths, with `Rank`.
fn computed(text: &str, columns: &[&str]) -> BTreeMap<usize, BTreeMap<String, i64>> {
    let t = arbiter_core::trf::parse(text).expect("fixture parses");
    let teams = arbiter_core::trf::teams(&t);
    assert!(!teams.is_empty(), "the fixture has 013 records");
    let scoring = TeamScoring::default();
    let rounds = matches(&t, &teams, &scoring).expect("team matches");
    let chain: Vec<TeamKey> = columns
        .iter()
        .map(|c| c.parse().expect("team key"))
        .collect();
    let s = standings(&rounds, &chain, &scoring);
    let mut out = BTreeMap::new();
    for row in &s.rows {
        let mut m = BTreeMap::new();
        m.insert("Rank".to_string(), i64::from(row.rank) * 100);
        for (col, v) in columns.iter().zip(&row.values) {
            m.insert(col.to_string(), value_hundredths(v));
        }
        out.insert(row.team + 1, m);
    }
    out
}

fn check(
    path: &Path,
    values: &BTreeMap<usize, BTreeMap<String, i64>>,
    failures: &mut Vec<String>,
) -> usize {
    let text = std::fs::read_to_string(path).expect("expected file");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    assert_eq!(header[0], "StartNo");
    let mut checked = 0;
    let mut rows = 0;
    for line in lines.filter(|l| !l.is_empty()) {
        rows += 1;
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells.len(), header.len(), "{line}");
        let team: usize = cells[0].parse().expect("StartNo");
        for (col, cell) in header.iter().zip(&cells).skip(1) {
            let got = values[&team][*col];
            checked += 1;
            if got != hundredths(cell) {
                failures.push(format!(
                    "{} team {team} {col}: expected {cell}, got {}",
                    path.file_name()
                        .map(|f| f.to_string_lossy())
                        .unwrap_or_default(),
                    got as f64 / 100.0
                ));
            }
        }
    }
    assert_eq!(rows, values.len(), "{}: one row per team", path.display());
    checked
}

#[test]
fn every_team_fixture_value_and_rank_is_reproduced() {
    let dir = folder();
    let names = names(&dir);
    assert_eq!(names.len(), 16, "sixteen team tournaments");
    let mut failures = Vec::new();
    let mut checked = 0;
    for name in &names {
        let text = std::fs::read_to_string(dir.join(format!("{name}.trf"))).expect("trf");
        let all = computed(
            &text,
            &[
                "MPTS", "GPTS", "BH:MP", "BH:GP", "SB:MP", "EGGSB", "DE", "BC",
            ],
        );
        checked += check(&dir.join(format!("{name}.tsv")), &all, &mut failures);
        let chain = computed(&text, &["MPTS", "GPTS", "DE", "BH:MP"]);
        checked += check(
            &dir.join(format!("{name}.chain.tsv")),
            &chain,
            &mut failures,
        );
    }
    eprintln!(
        "{} tournaments, {checked} values checked, {} mismatches",
        names.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}
