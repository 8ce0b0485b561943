//! Shared helpers for the Dutch tests: the fixture folder location.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/fixtures/dutch` relative to the repository root.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/fixtures/dutch"
    ))
}
