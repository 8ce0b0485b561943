//! Rule tests: perft figures and hand-checked positions.

use super::*;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn perft_from_the_start_matches_the_published_figures() {
    let pos = Position::from_fen(START).expect("start");
    assert_eq!(perft(&pos, 1), 44);
    assert_eq!(perft(&pos, 2), 1_920);
    assert_eq!(perft(&pos, 3), 79_666);
    assert_eq!(perft(&pos, 4), 3_290_240);
}
