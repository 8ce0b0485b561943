//! Shared helpers of the core's tests: the fixture folder, the TRF round-trip normal form.
#![allow(dead_code)]

pub mod trf_mutations;

use arbiter_core::model::Tournament;
use std::path::PathBuf;

/// `../shared/fixtures/dutch` relative to the repository root.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/fixtures/dutch"
    ))
}

/// What a read tournament becomes after one write: a blank points column is filled with the
/// points of the completed rounds; everything else is kept.
pub fn normalized(t: &Tournament) -> Tournament {
    let completed = t.rounds_played();
    let mut n = t.clone();
    for e in &mut n.entrants {
        if e.declared_points.is_none() {
            e.declared_points = Some(e.points_after(&t.scoring, completed));
        }
    }
    n
}
