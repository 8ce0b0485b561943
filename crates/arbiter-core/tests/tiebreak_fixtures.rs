//! Reproduces every value of the FIDE TieBreakServer fixtures in ../shared/fixtures/tiebreaks:
//! `NAME.tsv` (C.07 2023/2024, `fide2023`), `NAME.fide2026.tsv` (`fide2026`) and `NAME.de.tsv`
//! (chain PTS, DE), rank columns included. Values are compared as decimal numbers.

use arbiter_core::model::Tournament;
use arbiter_core::standings::{rank, StandingsOptions, TiebreakKey, TiebreakValue, UnplayedMode};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn folder() -> Option<PathBuf> {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/fixtures/tiebreaks"
    ));
    if dir.is_dir() {
        Some(dir.to_path_buf())
    } else {
        panic!(
            "the tie-break fixtures are missing at {} (CI always has them)",
            dir.display()
        )
    }
}

fn names(dir: &Path) -> Vec<String> {
    let index = std::fs::read_to_string(dir.join("index.tsv")).expect("index.tsv");
    index
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
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
        TiebreakValue::Scores(_) => panic!("no sequence keys in the fixtures"),
    }
}

fn keys(names: &[&str]) -> Vec<TiebreakKey> {
    names.iter().map(|n| n.parse().expect("key")).collect()
}

/// start_no -> (column -> hundredths) for every column the standings produce.
fn computed(
    t: &Tournament,
    chain: &[&str],
    columns: &[&str],
    mode: UnplayedMode,
) -> BTreeMap<u32, BTreeMap<String, i64>> {
    let options = StandingsOptions {
        chain: keys(chain),
        unplayed: mode,
        ..StandingsOptions::default()
    };
    let s = rank(t, &options);
    let mut out = BTreeMap::new();
    for row in &s.rows {
        let mut m = BTreeMap::new();
        m.insert("PTS".to_string(), row.points.tenths() * 10);
        m.insert("rank".to_string(), i64::from(row.rank) * 100);
        for (col, v) in columns.iter().zip(&row.values) {
            m.insert(col.to_string(), value_hundredths(v));
        }
        out.insert(row.start_no, m);
    }
    out
}

/// Compares one expected TSV with the computed values; returns (values checked, mismatches).
fn check(
    path: &Path,
    values: &BTreeMap<u32, BTreeMap<String, i64>>,
    ranks: &BTreeMap<u32, BTreeMap<String, i64>>,
    failures: &mut Vec<String>,
) -> usize {
    let text = std::fs::read_to_string(path).expect("expected file");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let mut checked = 0;
    for line in lines.filter(|l| !l.is_empty()) {
        let cells: Vec<&str> = line.split('\t').collect();
        let start_no: u32 = cells[0].parse().expect("start_no");
        for (col, cell) in header.iter().zip(&cells).skip(1) {
            let source = if *col == "rank" { ranks } else { values };
            let got = source[&start_no][&col.replace('_', "/")];
            checked += 1;
            if got != hundredths(cell) {
                failures.push(format!(
                    "{} player {start_no} {col}: expected {cell}, got {}",
                    path.file_name()
                        .map(|f| f.to_string_lossy())
                        .unwrap_or_default(),
                    got as f64 / 100.0
                ));
            }
        }
    }
    checked
}

#[test]
fn every_tiebreak_fixture_value_is_reproduced() {
    let Some(dir) = folder() else { return };
    let columns = [
        "BH", "BH/C1", "BH/M1", "SB", "PS", "WIN", "WON", "BPG", "BWG",
    ];
    let mut failures = Vec::new();
    let mut checked = 0;
    let names = names(&dir);
    for name in &names {
        let text = std::fs::read_to_string(dir.join(format!("{name}.trf"))).expect("trf");
        let t = arbiter_core::trf::parse(&text).expect("fixture parses");
        for (suffix, mode) in [
            ("tsv", UnplayedMode::Fide2023),
            ("fide2026.tsv", UnplayedMode::Fide2026),
        ] {
            let values = computed(&t, &columns, &columns, mode);
            let ranks = computed(&t, &["BH", "PS", "WIN"], &[], mode);
            checked += check(
                &dir.join(format!("{name}.{suffix}")),
                &values,
                &ranks,
                &mut failures,
            );
        }
        let de = computed(&t, &["DE"], &["DE"], UnplayedMode::Fide2023);
        checked += check(&dir.join(format!("{name}.de.tsv")), &de, &de, &mut failures);
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
        failures[..failures.len().min(30)].join("\n")
    );
}

#[test]
fn the_command_reproduces_the_readme_worked_example() {
    let Some(dir) = folder() else { return };
    let text = std::fs::read_to_string(dir.join("p07_n28_r9.trf")).expect("trf");
    let run = |mode: &str| {
        let args = arbiter_core::standings::CommandArgs {
            tiebreaks: Some("BH,BH/C1,BH/M1,SB,PS,WIN,WON,BPG,BWG".into()),
            unplayed: Some(mode.into()),
            ..Default::default()
        };
        arbiter_core::standings::command(&text, &args).expect("runs")
    };
    let row = |out: &str, start_no: &str| {
        out.lines()
            .find(|l| l.split('\t').nth(1) == Some(start_no))
            .map(|l| l.split('\t').skip(2).collect::<Vec<_>>().join(" "))
            .expect("row")
    };
    // Player 3: a forfeit win in round 1; README "Worked examples".
    let out = run("fide2023");
    assert!(out.starts_with("rank\tstart_no\tPTS\tBH\tBH/C1\tBH/M1\tSB\tPS\tWIN\tWON\tBPG\tBWG\n"));
    assert_eq!(row(&out, "3"), "14 100 91 77 150 74 7 6 4 2");
    // Player 4: his forfeit loss is a VUR, so C1 cuts its dummy (12), not his lowest opponent.
    assert!(row(&out, "4").starts_with("12 94 82 69 "));
    let out = run("fide2026");
    assert!(row(&out, "3").starts_with("14 98 89 76 146 "));
}
