//! Shared helpers for the Dutch tests: a minimal reader for the fixtures' TRF subset (until
//! the full TRF module lands in main) and the fixture folder location.
#![allow(dead_code)]

use arbiter_core::model::{Entrant, ResultCode, RoundRecord, Side, Tournament};
use std::path::PathBuf;

/// `../shared/fixtures/dutch` relative to the repository root.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/fixtures/dutch"
    ))
}

/// Reads the fixtures' TRF subset: `001` lines, `XXR`, `XXC`.
pub fn read_trf(text: &str) -> Tournament {
    let mut t = Tournament::default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("XXR ") {
            t.rounds_total = rest.trim().parse().ok();
        } else if let Some(rest) = line.strip_prefix("XXC ") {
            t.initial_colour = match rest.trim() {
                "white1" => Some(Side::Red),
                "black1" => Some(Side::Black),
                _ => None,
            };
        } else if line.starts_with("001") {
            let col = |a: usize, b: usize| line.get(a - 1..b.min(line.len())).unwrap_or("");
            let start_no = col(5, 8).trim().parse().expect("start number");
            let mut e = Entrant {
                start_no,
                name: col(15, 47).trim().to_string(),
                rating: col(49, 52).trim().parse().ok(),
                ..Entrant::default()
            };
            let mut r = 0;
            loop {
                let at = 92 + 10 * r;
                if line.len() < at + 7 {
                    break;
                }
                let block = &line[at - 1..at + 7];
                let opp: u32 = block[0..4].trim().parse().unwrap_or(0);
                let colour = match &block[5..6] {
                    "w" => Some(Side::Red),
                    "b" => Some(Side::Black),
                    _ => None,
                };
                let result =
                    ResultCode::from_trf_letter(block.as_bytes()[7] as char).expect("result code");
                e.rounds.push(RoundRecord {
                    opponent: (opp != 0).then_some(opp),
                    colour: if opp != 0 { colour } else { None },
                    result,
                    fouls: 0,
                });
                r += 1;
            }
            t.entrants.push(e);
        }
    }
    t.entrants.sort_by_key(|e| e.start_no);
    t
}
