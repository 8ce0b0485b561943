//! Hand-worked golden cases; the reasoning is in each test's comment.

use super::*;
use crate::model::{Entrant, ForbiddenPairs, ResultCode, RoundRecord, Scoring};

fn event(n: u32) -> Tournament {
    Tournament {
        scoring: Scoring::two_one_zero(),
        entrants: (1..=n)
            .map(|i| Entrant {
                start_no: i,
                name: format!("P{i}"),
                ..Entrant::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn set(t: &mut Tournament, round: u32, id: StartNo, record: RoundRecord) {
    let e = &mut t.entrants[id as usize - 1];
    while e.rounds.len() < round as usize {
        e.rounds.push(RoundRecord::bye(ResultCode::ZeroBye));
    }
    e.rounds[round as usize - 1] = record;
}

/// A game of `round`; `result` from Red's side.
fn game(t: &mut Tournament, round: u32, red: StartNo, black: StartNo, result: ResultCode) {
    let mirror = match result {
        ResultCode::Win => ResultCode::Loss,
        ResultCode::Loss => ResultCode::Win,
        ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
        ResultCode::ForfeitLoss => ResultCode::ForfeitWin,
        other => other,
    };
    set(t, round, red, RoundRecord::game(black, Side::Red, result));
    set(t, round, black, RoundRecord::game(red, Side::Black, mirror));
}

fn text(t: &Tournament) -> String {
    pair(t, &ChineseOptions::default())
        .expect("a pairing exists")
        .pairing
        .to_text()
}

#[test]
fn round_one_with_eight_pairs_the_halves_with_alternating_colours() {
    // 拦腰: board k is k v k+4; odd boards give Red to the lower number, even boards to the
    // higher one.
    assert_eq!(text(&event(8)), "1 5\n6 2\n3 7\n8 4\n");
}

#[test]
fn round_one_with_seven_gives_the_bye_to_the_highest_number() {
    // 7 takes the bye; the other six split 1-3 / 4-6.
    assert_eq!(text(&event(7)), "1 4\n5 2\n3 6\nbye 7\n");
}

#[test]
fn round_one_first_board_colour_can_be_black() {
    let mut t = event(4);
    t.initial_colour = Some(Side::Black);
    assert_eq!(text(&t), "3 1\n2 4\n");
    let opts = ChineseOptions {
        first_board_colour: Some(Side::Red),
        ..ChineseOptions::default()
    };
    let p = pair(&t, &opts).expect("pairs");
    assert_eq!(p.pairing.to_text(), "1 3\n4 2\n");
}

#[test]
fn round_one_avoids_a_forbidden_half_split_pair_with_the_nearest_alternative() {
    // 1 and 5 may not meet. The nearest pairings to 拦腰 move two partners by one place
    // (e.g. 1-6 and 2-5): distance 2; every other pair keeps k v k+4.
    let mut t = event(8);
    t.forbidden.push(ForbiddenPairs {
        first_round: None,
        last_round: None,
        entrants: vec![1, 5],
    });
    let p = pair(&t, &ChineseOptions::default()).expect("pairs");
    assert_eq!(p.report.quality.position_distance, 2);
    assert!(p
        .pairing
        .boards
        .iter()
        .all(|b| (b.red.min(b.black), b.red.max(b.black)) != (1, 5)));
    assert_eq!(p.pairing.boards.len(), 4);
}

/// Round 1 of eight: 1 beats 5, 6 beats 2, 3 draws 7, 8 beats 4 (Red won every decisive game).
fn eight_after_round_one() -> Tournament {
    let mut t = event(8);
    game(&mut t, 1, 1, 5, ResultCode::Win);
    game(&mut t, 1, 6, 2, ResultCode::Win);
    game(&mut t, 1, 3, 7, ResultCode::Draw);
    game(&mut t, 1, 8, 4, ResultCode::Win);
    t
}

#[test]
fn a_floater_and_a_rematch_that_forces_another_float() {
    // Scores: 2 points {1, 6, 8} (all had Red: due Black), 1 point {3 (due Black), 7 (due
    // Red)}, 0 points {2, 4, 5} (due Red).
    // - Three on 2 points: one floats (odd group). Then the 1-point group holds the floater
    //   plus 3 and 7, who already met: the floater must take one of them and the other floats
    //   on to 0 points. Both boundaries are crossed once, whatever we do.
    // - Colours: floater v 7 is a cross-row pair, and 3 (due Black) v a 0-pointer (due Red)
    //   too; the other way round would make two more same-row pairs.
    // - Standings order: the floater is the last of its group (8), who meets the first
    //   suitable player of the next (7); 3 meets the first of the 0 group (2); 1-6 and 4-5
    //   are adjacent.
    // Colours: 1-6 identical histories, even round → higher number (6) Red; 7 has fewer Reds
    // than 8; 2 fewer than 3; 4-5 identical → 5 Red. Boards by scores 2-2, 2-1, 1-0, 0-0.
    let t = eight_after_round_one();
    let p = pair(&t, &ChineseOptions::default()).expect("pairs");
    assert_eq!(p.pairing.to_text(), "6 1\n7 8\n2 3\n5 4\n");
    let floaters: Vec<StartNo> = p.report.floaters.iter().map(|f| f.start_no).collect();
    assert_eq!(floaters, vec![8, 3]);
    assert_eq!(p.report.quality.crossings, vec![1, 1]);
    assert!(p.report.relaxed.is_empty());
    assert!(p.report.to_text().contains("Floater 8 (2) meets 7 (1)"));
}

#[test]
fn three_in_a_row_is_avoided_even_at_the_cost_of_floating_everyone() {
    // After two rounds 1, 2 and 3 have 4 points and two Reds each; 4, 5 and 6 have 0 and two
    // Blacks. Any pair inside a group would give someone a third colour in a row, so the
    // legal pairing takes every top player down: 1-6, 2-4, 3-5 (the only unplayed cross
    // pairs), the 0-pointers with Red.
    let mut t = event(6);
    game(&mut t, 1, 1, 4, ResultCode::Win);
    game(&mut t, 1, 2, 5, ResultCode::Win);
    game(&mut t, 1, 3, 6, ResultCode::Win);
    game(&mut t, 2, 1, 5, ResultCode::Win);
    game(&mut t, 2, 2, 6, ResultCode::Win);
    game(&mut t, 2, 3, 4, ResultCode::Win);
    let p = pair(&t, &ChineseOptions::default()).expect("pairs");
    assert_eq!(p.pairing.to_text(), "6 1\n4 2\n5 3\n");
    assert_eq!(p.report.quality.violations, 0);
    assert_eq!(p.report.quality.crossings, vec![3]);
}

#[test]
fn a_colour_rule_is_relaxed_only_when_no_pairing_keeps_it() {
    // Four players, everyone has met everyone but 1-2 and 3-4; 1 and 2 both had Red twice,
    // 3 and 4 Black twice. The only pairing breaks the streak rule on both boards; the
    // report says so.
    let mut t = event(4);
    game(&mut t, 1, 1, 3, ResultCode::Win);
    game(&mut t, 1, 2, 4, ResultCode::Win);
    game(&mut t, 2, 1, 4, ResultCode::Win);
    game(&mut t, 2, 2, 3, ResultCode::Win);
    let p = pair(&t, &ChineseOptions::default()).expect("pairs");
    assert_eq!(p.report.relaxed.len(), 2);
    assert!(p.report.relaxed.iter().all(|r| r.rule == "three_in_a_row"));
    assert_eq!(p.pairing.boards.len(), 2);
}

#[test]
fn the_difference_rule_gives_way_before_the_streak_rule() {
    // 1: R B R R? No: 1 has R, R, B, R → diff +2, last colour R (streak 1). 2 has B, R, R →
    // diff +1, streak 2 Reds. They must meet (everyone else met). Giving 1 Red breaks the
    // difference rule (diff 3); giving 2 Red breaks the streak rule. Difference first: 1 Red.
    let mut t = event(2);
    set(
        &mut t,
        1,
        1,
        RoundRecord::game(9, Side::Red, ResultCode::Win),
    );
    set(
        &mut t,
        2,
        1,
        RoundRecord::game(9, Side::Red, ResultCode::Win),
    );
    set(
        &mut t,
        3,
        1,
        RoundRecord::game(9, Side::Black, ResultCode::Win),
    );
    set(
        &mut t,
        4,
        1,
        RoundRecord::game(9, Side::Red, ResultCode::Win),
    );
    set(
        &mut t,
        1,
        2,
        RoundRecord::game(9, Side::Black, ResultCode::Win),
    );
    set(
        &mut t,
        2,
        2,
        RoundRecord::game(9, Side::Red, ResultCode::Win),
    );
    set(
        &mut t,
        3,
        2,
        RoundRecord::game(9, Side::Red, ResultCode::Win),
    );
    set(&mut t, 4, 2, RoundRecord::bye(ResultCode::PairingBye));
    let p = pair_round(&t, &ChineseOptions::default(), 5, &[1, 2]).expect("pairs");
    assert_eq!(p.pairing.to_text(), "1 2\n");
    assert_eq!(p.report.relaxed[0].rule, "difference");
}

#[test]
fn the_bye_skips_a_candidate_whose_absence_leaves_no_legal_pairing() {
    // Round 1: 1 beats 2, 3 had the bye. Bye order: 2 (no bye, 0 points), 1 (no bye),
    // 3 (had one). 1-3 is forbidden, so giving 2 the bye leaves no legal board: 1 gets it
    // and 2-3 play, 2 Red (3 has no colour history, 2 had Black).
    let mut t = event(3);
    game(&mut t, 1, 1, 2, ResultCode::Win);
    set(&mut t, 1, 3, RoundRecord::bye(ResultCode::PairingBye));
    t.forbidden.push(ForbiddenPairs {
        first_round: None,
        last_round: None,
        entrants: vec![1, 3],
    });
    let p = pair(&t, &ChineseOptions::default()).expect("pairs");
    assert_eq!(p.pairing.to_text(), "2 3\nbye 1\n");
    assert_eq!(p.report.quality.bye_rank, 1);
}

#[test]
fn the_bye_goes_to_the_lowest_score_without_one_and_boards_follow_scores() {
    // Round 1 of five: 1 beats 4 (1 Red), 5 draws 2 (5 Red), 3 the bye.
    // Scores: 3 and 1 on 2 points, 2 and 5 on 1, 4 on 0. Bye: 4 (lowest, none yet).
    // 2 points: 1 (due Black) v 3 (no history: due Red) — cross-row; 1 Black.
    // 1 point: 5 (due Black) v 2 (due Red)? They met: both float... no: they are the only
    // pair left, so 5 and 2 must each meet someone else. The top group pairs 1-3 and the
    // 1-point group cannot pair: no legal pairing keeps 1-3 together, so two cross pairs:
    // one 2-pointer v one 1-pointer twice. Best: floaters last of their group (3 is after 1
    // in 序号 order, so 1 stays... both float anyway); cross-row pairs: 1 (due Black) v 2
    // (due Red), 3 (due Red) v 5 (due Black).
    let mut t = event(5);
    game(&mut t, 1, 1, 4, ResultCode::Win);
    game(&mut t, 1, 5, 2, ResultCode::Draw);
    set(&mut t, 1, 3, RoundRecord::bye(ResultCode::PairingBye));
    let p = pair(&t, &ChineseOptions::default()).expect("pairs");
    assert_eq!(p.pairing.bye, Some(4));
    // 1 has more Reds than 2 → 2 Red; 5 more Reds than 3 → 3 Red. Boards: lower 序号 first.
    assert_eq!(p.pairing.to_text(), "2 1\n3 5\nbye 4\n");
    assert_eq!(p.report.quality.crossings, vec![2, 0]);
}

#[test]
fn forfeits_count_as_met_unless_configured_otherwise() {
    // 1 won against 2 by forfeit in round 1. Counting the forfeit as met leaves no pairing;
    // without it they meet, and since forfeits leave no colour history the even round gives
    // Red to the higher number.
    let mut t = event(2);
    game(&mut t, 1, 1, 2, ResultCode::ForfeitWin);
    assert!(matches!(
        pair(&t, &ChineseOptions::default()),
        Err(PairingError::NoValidPairing { .. })
    ));
    let lenient = ChineseOptions {
        forfeit_counts_as_met: false,
        ..ChineseOptions::default()
    };
    assert_eq!(
        pair(&t, &lenient).expect("pairs").pairing.to_text(),
        "2 1\n"
    );
}

#[test]
fn same_club_players_are_kept_apart_when_configured() {
    let mut t = event(4);
    t.entrants[0].club = Some("Harbin".into());
    t.entrants[2].club = Some("Harbin".into());
    let opts = ChineseOptions {
        avoid_same_club: true,
        ..ChineseOptions::default()
    };
    let p = pair(&t, &opts).expect("pairs");
    assert!(p
        .pairing
        .boards
        .iter()
        .all(|b| (b.red.min(b.black), b.red.max(b.black)) != (1, 3)));
    // Without the option round 1 is plain 拦腰: 1-3 and 4-2.
    assert_eq!(text(&t), "1 3\n4 2\n");
}

#[test]
fn banqi_names_the_sides_by_who_moves_first() {
    let opts = ChineseOptions {
        moves_first_naming: true,
        ..ChineseOptions::default()
    };
    let p = pair(&eight_after_round_one(), &opts).expect("pairs");
    assert_eq!(p.report.side_names[0], "moves first");
    assert!(p.report.to_text().contains("due moves first"));
    let json = serde_json::to_string(&p).expect("serialises");
    let back: ChinesePairing = serde_json::from_str(&json).expect("parses");
    assert_eq!(back, p);
}

#[test]
fn no_pairing_at_all_is_an_error() {
    let mut t = event(2);
    game(&mut t, 1, 1, 2, ResultCode::Win);
    assert!(matches!(
        pair(&t, &ChineseOptions::default()),
        Err(PairingError::NoValidPairing { .. })
    ));
}

#[test]
fn an_empty_field_pairs_nothing_and_a_single_entrant_gets_the_bye() {
    assert_eq!(text(&event(0)), "");
    assert_eq!(text(&event(1)), "bye 1\n");
    let mut t = event(3);
    game(&mut t, 1, 1, 2, ResultCode::Win);
    set(&mut t, 1, 3, RoundRecord::bye(ResultCode::PairingBye));
    // Round 2: 2 and 3 absent (half-point byes requested): 1 alone gets the bye.
    set(&mut t, 2, 2, RoundRecord::bye(ResultCode::HalfBye));
    set(&mut t, 2, 3, RoundRecord::bye(ResultCode::HalfBye));
    assert_eq!(text(&t), "bye 1\n");
}
