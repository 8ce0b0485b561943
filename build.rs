//! Rebuild when migrations change, so `sqlx::migrate!()` embeds the new files; and name the
//! build by its sources (`ARBITER_BUILD_ID`), so every instance built from the same sources
//! gives a page the same entity tag (several instances share one database, SPEC §14) while a
//! build that may render differently gives new ones.
use std::hash::{Hash as _, Hasher as _};
use std::path::Path;

fn hash_tree(path: &Path, hasher: &mut std::hash::DefaultHasher) {
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    // The same order on every machine: the hash is of the sources, not of the file system.
    paths.sort();
    for path in paths {
        if path.is_dir() {
            hash_tree(&path, hasher);
        } else if let Ok(bytes) = std::fs::read(&path) {
            path.to_string_lossy().replace('\\', "/").hash(hasher);
            bytes.hash(hasher);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=migrations");
    let mut hasher = std::hash::DefaultHasher::new();
    for input in [
        "src",
        "templates",
        "migrations",
        "crates/arbiter-core/src",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={input}");
        let path = Path::new(input);
        if path.is_dir() {
            hash_tree(path, &mut hasher);
        } else if let Ok(bytes) = std::fs::read(path) {
            bytes.hash(&mut hasher);
        }
    }
    println!(
        "cargo:rustc-env=ARBITER_BUILD_ID={}-{:016x}",
        env!("CARGO_PKG_VERSION"),
        hasher.finish()
    );
}
