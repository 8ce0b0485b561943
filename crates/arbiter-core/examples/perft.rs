//! Perft timing: `cargo run --release -p arbiter-core --example perft [DEPTH] [FEN]`.
//!
//! Defaults to depth 5 from the Xiangqi start (133,312,995 leaves).

use arbiter_core::game::{perft, Position};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen: Vec<String> = args.collect();
    let pos = if fen.is_empty() {
        Position::xiangqi_start()
    } else {
        match Position::from_fen(&fen.join(" ")) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    };
    let start = Instant::now();
    let nodes = perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {nodes} nodes in {secs:.2} s ({:.1} M nodes/s)",
        nodes as f64 / secs / 1e6
    );
}
