//! Hand-worked examples for the rules the FIDE oracle does not know: the bye's 对手分, fouls,
//! PREV, CUT_EARLY, DE on small groups, and the seed presets. All events use 2/1/0 points.

use super::*;
use crate::model::{Entrant, ResultCode, RoundRecord, Scoring, Side};

/// One round: (red, black, result) with results `1-0`, `0-1`, `=`, `+-`, `-+`, `--`
/// (forfeits) or `?` (not entered yet); then byes as (player, code).
type Round<'a> = (&'a [(u32, u32, &'a str)], &'a [(u32, ResultCode)]);

fn event(players: u32, rounds: &[Round<'_>]) -> Tournament {
    let mut entrants: Vec<Entrant> = (1..=players)
        .map(|n| Entrant {
            start_no: n,
            name: format!("P{n}"),
            ..Entrant::default()
        })
        .collect();
    for (games, byes) in rounds {
        let mut records = vec![RoundRecord::bye(ResultCode::ZeroBye); players as usize];
        for &(red, black, result) in *games {
            let (r, b) = match result {
                "1-0" => (ResultCode::Win, ResultCode::Loss),
                "0-1" => (ResultCode::Loss, ResultCode::Win),
                "=" => (ResultCode::Draw, ResultCode::Draw),
                "+-" => (ResultCode::ForfeitWin, ResultCode::ForfeitLoss),
                "-+" => (ResultCode::ForfeitLoss, ResultCode::ForfeitWin),
                "--" => (ResultCode::ForfeitLoss, ResultCode::ForfeitLoss),
                "?" => (ResultCode::Pending, ResultCode::Pending),
                other => panic!("unknown result {other}"),
            };
            records[red as usize - 1] = RoundRecord::game(black, Side::Red, r);
            records[black as usize - 1] = RoundRecord::game(red, Side::Black, b);
        }
        for &(player, code) in *byes {
            records[player as usize - 1] = RoundRecord::bye(code);
        }
        for (e, r) in entrants.iter_mut().zip(records) {
            e.rounds.push(r);
        }
    }
    Tournament {
        name: "test".into(),
        scoring: Scoring::two_one_zero(),
        entrants,
        ..Tournament::default()
    }
}

fn chain(names: &[&str]) -> StandingsOptions {
    StandingsOptions {
        chain: names.iter().map(|n| n.parse().expect("key")).collect(),
        ..StandingsOptions::default()
    }
}

/// (start_no, rank) in ranking order.
fn order(s: &Standings) -> Vec<(u32, u32)> {
    s.rows.iter().map(|r| (r.start_no, r.rank)).collect()
}

fn value_of(s: &Standings, start_no: u32, key: usize) -> TiebreakValue {
    s.rows
        .iter()
        .find(|r| r.start_no == start_no)
        .expect("row")
        .values[key]
        .clone()
}

/// Five players paired, player 6 absent throughout (0 points): a pairing-allocated bye in
/// every round.
///
/// | | R1 | R2 | R3 | pts |
/// |---|---|---|---|---|
/// | 1 | beat 2 | beat 5 | drew 4 | 5 |
/// | 2 | lost 1 | beat 3 | bye | 4 |
/// | 3 | drew 4 | lost 2 | beat 5 | 3 |
/// | 4 | drew 3 | bye | drew 1 | 4 |
/// | 5 | bye | lost 1 | lost 3 | 2 |
/// | 6 | absent | absent | absent | 0 |
fn bye_event() -> Tournament {
    use ResultCode::PairingBye as U;
    event(
        6,
        &[
            (&[(1, 2, "1-0"), (3, 4, "=")], &[(5, U)]),
            (&[(5, 1, "0-1"), (2, 3, "1-0")], &[(4, U)]),
            (&[(1, 4, "="), (3, 5, "1-0")], &[(2, U)]),
        ],
    )
}

#[test]
fn a_bye_counts_as_an_opponent_with_the_lowest_positive_score() {
    let t = bye_event();
    let mut options = chain(&["OPP"]);
    let s = rank(&t, &options);
    // Lowest score among players with points: player 5's 2 (player 6's 0 does not count).
    // Player 2: 1 (5) + 3 (3) + bye (2) = 10; player 4: 3 (3) + bye (2) + 1 (5) = 10;
    // player 5: bye (2) + 1 (5) + 3 (3) = 10.
    for p in [2, 4, 5] {
        assert_eq!(
            value_of(&s, p, 0),
            TiebreakValue::Points(Points::whole(10)),
            "player {p}"
        );
    }
    // Player 1 had no bye: 2 (4) + 5 (2) + 4 (4) = 10 as well.
    assert_eq!(value_of(&s, 1, 0), TiebreakValue::Points(Points::whole(10)));

    // Lowest of all scores: player 6's 0.
    options.bye_opponent_score = ByeOpponentScore::MinAll;
    let s = rank(&t, &options);
    assert_eq!(value_of(&s, 2, 0), TiebreakValue::Points(Points::whole(8)));
    options.bye_opponent_score = ByeOpponentScore::Zero;
    let s = rank(&t, &options);
    assert_eq!(value_of(&s, 5, 0), TiebreakValue::Points(Points::whole(8)));
    // FIDE's dummy: the player's own score (player 2: 5 + 3 + 4 = 12; player 5: 2 + 5 + 3).
    options.bye_opponent_score = ByeOpponentScore::FideDummy;
    let s = rank(&t, &options);
    assert_eq!(value_of(&s, 2, 0), TiebreakValue::Points(Points::whole(12)));
    assert_eq!(value_of(&s, 5, 0), TiebreakValue::Points(Points::whole(10)));
}

#[test]
fn a_bye_counts_as_a_win() {
    let s = rank(&bye_event(), &chain(&["OPP", "WIN"]));
    // Players 2 and 4 have 4 points and OPP 10; player 2 won a game and had a bye (2 wins),
    // player 4 only had the bye (1 win).
    assert_eq!(order(&s)[1..3], [(2, 2), (4, 3)]);
    assert_eq!(value_of(&s, 2, 1), TiebreakValue::Count(2));
    assert_eq!(value_of(&s, 4, 1), TiebreakValue::Count(1));
}

/// Six players, three rounds, no byes.
///
/// | | R1 | R2 | R3 | S₁ S₂ S₃ |
/// |---|---|---|---|---|
/// | 1 | red, beat 4 | black, drew 6 | red, lost to 2 | 2 3 3 |
/// | 2 | red, drew 5 | black, beat 4 | black, beat 1 | 1 3 5 |
/// | 3 | red, lost to 6 | black, lost to 5 | red, drew 4 | 0 0 1 |
/// | 4 | black, lost to 1 | red, lost to 2 | black, drew 3 | 0 0 1 |
/// | 5 | black, drew 2 | red, beat 3 | black, drew 6 | 1 3 4 |
/// | 6 | black, beat 3 | red, drew 1 | red, drew 5 | 2 3 4 |
///
/// 对手分: 5 → 2 (5) + 3 (1) + 6 (4) = 10; 6 → 3 (1) + 1 (3) + 5 (4) = 8;
/// 3 → 6 (4) + 5 (4) + 4 (1) = 9; 4 → 1 (3) + 2 (5) + 3 (1) = 9.
/// 累进分: 5 → 1 + 3 + 4 = 8; 6 → 2 + 3 + 4 = 9; 3 and 4 → 1.
/// 后走局数: 3 → 1 (R2); 4 → 2 (R1, R3).
fn six_player_event() -> Tournament {
    event(
        6,
        &[
            (&[(1, 4, "1-0"), (2, 5, "="), (3, 6, "0-1")], &[]),
            (&[(6, 1, "="), (4, 2, "0-1"), (5, 3, "1-0")], &[]),
            (&[(1, 2, "0-1"), (6, 5, "="), (3, 4, "=")], &[]),
        ],
    )
}

#[test]
fn cxa2011_opp_ranks_by_opponents_then_wins_fouls_black_games_and_previous_rounds() {
    let t = six_player_event();
    let s = rank(&t, &StandingsOptions::preset(Preset::Cxa2011Opp));
    // 5 and 6 (4 points) split on OPP 10 > 8. 3 and 4 (1 point) tie on OPP 9, WIN 0 and
    // FOULS 0; BPG puts 4 (two games as Black) above 3 (one).
    assert_eq!(order(&s), [(2, 1), (5, 2), (6, 3), (1, 4), (4, 5), (3, 6)]);
    assert_eq!(
        to_tsv(&s).lines().take(2).collect::<Vec<_>>(),
        [
            "rank\tstart_no\tPTS\tOPP\tWIN\tFOULS\tBPG\tPREV",
            "1\t2\t5\t8\t2\t0\t2\t3/1"
        ]
    );
}

#[test]
fn fewer_fouls_rank_higher() {
    let mut t = six_player_event();
    // Player 4 commits a technical foul in round 3: FOULS (before BPG) now puts 3 above 4.
    t.entrants[3].rounds[2].fouls = 1;
    let s = rank(&t, &StandingsOptions::preset(Preset::Cxa2011Opp));
    assert_eq!(order(&s)[4..], [(3, 5), (4, 6)]);
    assert_eq!(value_of(&s, 4, 2), TiebreakValue::Count(1));
    assert_eq!(value_of(&s, 3, 2), TiebreakValue::Count(0));
}

#[test]
fn cxa2011_prog_ranks_by_progressive_score_first() {
    let s = rank(
        &six_player_event(),
        &StandingsOptions::preset(Preset::Cxa2011Prog),
    );
    // 累进分 puts 6 (9) above 5 (8), unlike 对手分. 3 and 4: PS 1, WIN 0, FOULS 0, then BPG.
    assert_eq!(order(&s), [(2, 1), (6, 2), (5, 3), (1, 4), (4, 5), (3, 6)]);
}

#[test]
fn seed002_presets_leave_a_tie_that_nothing_in_their_chain_separates() {
    let t = six_player_event();
    // Main text: OPP, PS, WIN, FOULS, PREV. 3 and 4 are equal on all (S₂ 0 = 0, S₁ 0 = 0)
    // and share rank 5: there is no BPG in these chains.
    let s = rank(&t, &StandingsOptions::preset(Preset::Seed002Main));
    assert_eq!(order(&s), [(2, 1), (5, 2), (6, 3), (1, 4), (3, 5), (4, 5)]);
    let s = rank(&t, &StandingsOptions::preset(Preset::Seed002Supp));
    assert_eq!(order(&s), [(2, 1), (5, 2), (6, 3), (1, 4), (3, 5), (4, 5)]);
}

#[test]
fn seed004_tw_uses_the_direct_encounter_before_fouls() {
    // Taiwan Banqi: OPP, DE, FOULS. 3 and 4 drew their game (round 3), so DE cannot split
    // them; a foul then does.
    let mut t = six_player_event();
    t.entrants[2].rounds[0].fouls = 1;
    let s = rank(&t, &StandingsOptions::preset(Preset::Seed004Tw));
    assert_eq!(order(&s)[4..], [(4, 5), (3, 6)]);
    assert_eq!(value_of(&s, 3, 1), TiebreakValue::Position(0));
    // 5 and 6 (4 points) never reach DE: OPP 10 > 8 already splits them.
    assert_eq!(order(&s)[1..3], [(5, 2), (6, 3)]);
}

#[test]
fn prev_compares_the_score_after_the_previous_rounds_one_by_one() {
    // 1, 2 and 3 end on 4 points (chain PREV only):
    // 1: win, loss, win → S₂ = 2, S₁ = 2; 2: loss, win, win → S₂ = 2, S₁ = 0;
    // 3: win, win, loss → S₂ = 4. So 3, then 1 (S₂ tied, S₁ 2 > 0), then 2.
    // 5 won everything (6 points); 4 and 6 lost everything and stay tied.
    let t = event(
        6,
        &[
            (&[(1, 4, "1-0"), (2, 5, "0-1"), (3, 6, "1-0")], &[]),
            (&[(1, 5, "0-1"), (2, 6, "1-0"), (3, 4, "1-0")], &[]),
            (&[(1, 6, "1-0"), (2, 4, "1-0"), (3, 5, "0-1")], &[]),
        ],
    );
    let s = rank(&t, &chain(&["PREV"]));
    assert_eq!(order(&s), [(5, 1), (3, 2), (1, 3), (2, 4), (4, 5), (6, 5)]);
    assert_eq!(value_of(&s, 1, 0).to_string(), "2/2");
    assert_eq!(value_of(&s, 2, 0).to_string(), "2/0");
}

#[test]
fn prev_readings_b_and_c_are_options() {
    // The event of the test above.
    let t = event(
        6,
        &[
            (&[(1, 4, "1-0"), (2, 5, "0-1"), (3, 6, "1-0")], &[]),
            (&[(1, 5, "0-1"), (2, 6, "1-0"), (3, 4, "1-0")], &[]),
            (&[(1, 6, "1-0"), (2, 4, "1-0"), (3, 5, "0-1")], &[]),
        ],
    );
    // Reading B: ranks after round 2 (3 and 5 share 1st, 1 and 2 share 3rd), then after
    // round 1 (1, 3, 5 share 1st; 2, 4, 6 share 4th).
    let mut options = chain(&["PREV"]);
    options.prev_reading = PrevReading::PreviousStandings;
    let s = rank(&t, &options);
    // Shown as minus the ranks, so that higher is better like every other sequence.
    assert_eq!(value_of(&s, 3, 0).to_string(), "-1/-1");
    assert_eq!(value_of(&s, 1, 0).to_string(), "-3/-1");
    assert_eq!(value_of(&s, 2, 0).to_string(), "-3/-4");
    assert_eq!(order(&s)[1..4], [(3, 2), (1, 3), (2, 4)]);

    // Reading C (对手分逆减): OPP is 6 for all three (each met 5, on 6 points, once).
    // 1 met 5 in round 2: 6 − 0 (R3) = 6, then 6 − 6 = 0. 2 met 5 in round 1: 6, 6.
    // 3 met 5 in round 3: 0, 0. So 2, 1, 3.
    options.prev_reading = PrevReading::OpponentsReverse;
    let s = rank(&t, &options);
    assert_eq!(value_of(&s, 1, 0).to_string(), "6/0");
    assert_eq!(value_of(&s, 2, 0).to_string(), "6/6");
    assert_eq!(value_of(&s, 3, 0).to_string(), "0/0");
    assert_eq!(order(&s)[1..4], [(2, 2), (1, 3), (3, 4)]);
}

#[test]
fn cut_early_prefers_the_player_who_scored_less_in_round_one() {
    // A: W L L W → S = 2 2 2 4, PS 10; B: L W W L → S = 0 2 4 4, PS 10.
    // CUT_EARLY: A 10 − 2 = 8, B 10 − 0 = 10 → B first.
    let t = event(
        4,
        &[
            (&[(1, 3, "1-0"), (2, 4, "0-1")], &[]),
            (&[(1, 3, "0-1"), (2, 4, "1-0")], &[]),
            (&[(1, 4, "0-1"), (2, 3, "1-0")], &[]),
            (&[(1, 4, "1-0"), (2, 3, "0-1")], &[]),
        ],
    );
    let s = rank(&t, &chain(&["PS", "CUT_EARLY"]));
    assert_eq!(value_of(&s, 1, 0), TiebreakValue::Points(Points::whole(10)));
    assert_eq!(value_of(&s, 2, 0), TiebreakValue::Points(Points::whole(10)));
    assert_eq!(value_of(&s, 1, 1).to_string(), "8/6/4");
    assert_eq!(value_of(&s, 2, 1).to_string(), "10/8/4");
    let rank_of = |p| order(&s).iter().find(|(n, _)| *n == p).map(|&(_, r)| r);
    assert!(rank_of(2) < rank_of(1));
}

#[test]
fn direct_encounter_puts_the_winner_of_two_tied_players_first() {
    // 1 and 2 both end on 2 points; 2 beat 1 in round 1, although 1 has the higher OPP.
    let t = event(
        4,
        &[
            (&[(1, 2, "0-1"), (3, 4, "1-0")], &[]),
            (&[(1, 4, "1-0"), (2, 3, "0-1")], &[]),
        ],
    );
    let s = rank(&t, &chain(&["DE", "OPP"]));
    let top: Vec<_> = order(&s).into_iter().filter(|(p, _)| *p <= 2).collect();
    assert_eq!(top, [(2, 2), (1, 3)]);
    assert_eq!(value_of(&s, 2, 0), TiebreakValue::Position(1));
    assert_eq!(value_of(&s, 1, 0), TiebreakValue::Position(2));
}

#[test]
fn direct_encounter_orders_three_players_who_all_met() {
    // 1, 2, 3 end on 3 points; among themselves 1 beat 2, 1 drew 3, 2 beat 3, so within the
    // group 1 has 3, 2 has 2, 3 has 1. Their other games: 1 lost to 4, 2 drew 5, 3 beat 6.
    // 4 and 5 end on 4 and drew each other: DE leaves them tied (0).
    let t = event(
        6,
        &[
            (&[(1, 2, "1-0"), (3, 6, "1-0"), (4, 5, "=")], &[]),
            (&[(1, 3, "="), (2, 5, "="), (4, 6, "=")], &[]),
            (&[(2, 3, "1-0"), (1, 4, "0-1"), (5, 6, "1-0")], &[]),
        ],
    );
    let s = rank(&t, &chain(&["DE"]));
    assert_eq!(order(&s), [(4, 1), (5, 1), (1, 3), (2, 4), (3, 5), (6, 6)]);
    assert_eq!(value_of(&s, 1, 0), TiebreakValue::Position(1));
    assert_eq!(value_of(&s, 3, 0), TiebreakValue::Position(3));
    assert_eq!(value_of(&s, 4, 0), TiebreakValue::Position(0));

    // A cycle (1 beat 2, 2 beat 3, 3 beat 1; each lost the other game) separates nobody.
    let t = event(
        6,
        &[
            (&[(1, 2, "1-0"), (3, 6, "0-1"), (4, 5, "=")], &[]),
            (&[(3, 1, "1-0"), (2, 5, "0-1"), (4, 6, "=")], &[]),
            (&[(2, 3, "1-0"), (1, 4, "0-1"), (5, 6, "=")], &[]),
        ],
    );
    let s = rank(&t, &chain(&["DE"]));
    for p in 1..=3 {
        assert_eq!(value_of(&s, p, 0), TiebreakValue::Position(0), "player {p}");
    }
    assert_eq!(order(&s)[3..], [(1, 4), (2, 4), (3, 4)]);
}

#[test]
fn direct_encounter_in_a_swiss_places_only_who_cannot_be_caught() {
    // 1, 2, 3 end on 4 points. 1 beat 2 and 3 (and lost to 4); 2 and 3 never met.
    // Within the group 1 has 4; 2 and 3 could reach at most 0 + 2 = 2, so 1 is first.
    // 2 and 3 are then looked at alone: no game between them, they stay tied at position 2.
    let t = event(
        6,
        &[
            (&[(1, 2, "1-0"), (3, 5, "1-0"), (4, 6, "0-1")], &[]),
            (&[(1, 3, "1-0"), (2, 6, "1-0"), (4, 5, "0-1")], &[]),
            (&[(1, 4, "0-1"), (2, 5, "1-0"), (3, 6, "1-0")], &[]),
        ],
    );
    let s = rank(&t, &chain(&["DE"]));
    assert_eq!(order(&s)[..3], [(1, 1), (2, 2), (3, 2)]);
    assert_eq!(value_of(&s, 1, 0), TiebreakValue::Position(1));
    assert_eq!(value_of(&s, 2, 0), TiebreakValue::Position(2));
    assert_eq!(value_of(&s, 3, 0), TiebreakValue::Position(2));
    // 4, 5, 6 on 2 points: 6 beat 4 and 5 beat 4, 5 and 6 never met: 5 and 6 could each still
    // reach 4 within the group, so nobody is placed.
    assert_eq!(value_of(&s, 5, 0), TiebreakValue::Position(0));
}

#[test]
fn a_result_not_yet_entered_is_ignored_and_marks_the_standings_provisional() {
    let t = event(
        4,
        &[
            (&[(1, 2, "1-0"), (3, 4, "=")], &[]),
            (&[(1, 3, "?"), (2, 4, "1-0")], &[]),
        ],
    );
    let s = rank(&t, &chain(&["OPP", "PS"]));
    assert!(s.provisional);
    assert_eq!(s.rounds, 2);
    let row = |p: u32| {
        s.rows
            .iter()
            .find(|r| r.start_no == p)
            .expect("row")
            .clone()
    };
    assert!(row(1).provisional && row(3).provisional && !row(2).provisional);
    assert_eq!(row(1).points, Points::whole(2));
    // Player 1's OPP only counts player 2 (2 points); the pending game against 3 is left out.
    assert_eq!(row(1).values[0], TiebreakValue::Points(Points::whole(2)));
}

#[test]
fn ties_share_a_rank_unless_lots_end_the_chain() {
    let t = six_player_event();
    let s = rank(&t, &chain(&["OPP"]));
    // 3 and 4 tie on 1 point and OPP 9.
    assert_eq!(order(&s)[4..], [(3, 5), (4, 5)]);
    let mut options = chain(&["OPP", "LOT"]);
    options.lot_seed = 7;
    let a = rank(&t, &options);
    let ranks: Vec<u32> = a.rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, [1, 2, 3, 4, 5, 6]);
    assert_eq!(rank(&t, &options), a, "the same seed draws the same lots");
}

#[test]
fn sonneborn_berger_prints_exact_decimals() {
    assert_eq!(TiebreakValue::Hundredths(15000).to_string(), "150");
    assert_eq!(TiebreakValue::Hundredths(1325).to_string(), "13.25");
    assert_eq!(TiebreakValue::Hundredths(1350).to_string(), "13.5");
    assert_eq!(TiebreakValue::Points(Points(135)).to_string(), "13.5");
}

#[test]
fn keys_and_presets_read_from_their_names() {
    assert_eq!("BH/C1".parse(), Ok(TiebreakKey::Buchholz(Modifier::Cut(1))));
    assert_eq!("bh_c1".parse(), Ok(TiebreakKey::Buchholz(Modifier::Cut(1))));
    assert_eq!(
        "BH/M1".parse(),
        Ok(TiebreakKey::Buchholz(Modifier::Median(1)))
    );
    assert_eq!(
        "SB/C1".parse(),
        Ok(TiebreakKey::SonnebornBerger(Modifier::Cut(1)))
    );
    assert_eq!("PS/C1".parse(), Ok(TiebreakKey::Progressive(1)));
    assert_eq!("OTHER_OPP".parse(), Ok(TiebreakKey::Opp));
    assert_eq!("CUT_EARLY".parse(), Ok(TiebreakKey::CutEarly));
    assert_eq!("对手分".parse(), Ok(TiebreakKey::Opp));
    assert_eq!(
        "中间分".parse(),
        Ok(TiebreakKey::Buchholz(Modifier::Median(1)))
    );
    assert!(matches!(
        "XYZ".parse::<TiebreakKey>(),
        Err(KeyError::Unknown(_))
    ));
    assert!(matches!(
        "WIN/C1".parse::<TiebreakKey>(),
        Err(KeyError::BadModifier { .. })
    ));
    assert!(matches!(
        "BH/X1".parse::<TiebreakKey>(),
        Err(KeyError::BadModifier { .. })
    ));
    for key in [
        "OPP",
        "BH",
        "BH/C2",
        "BH/M1",
        "SB",
        "SB/C1",
        "PS",
        "PS/C1",
        "WIN",
        "WON",
        "BPG",
        "BWG",
        "DE",
        "FOULS",
        "PREV",
        "CUT_EARLY",
        "RTNG",
        "LOT",
    ] {
        let parsed: TiebreakKey = key.parse().expect(key);
        assert_eq!(parsed.name(), key);
    }
    assert_eq!("seed004_tw".parse(), Ok(Preset::Seed004Tw));
    assert_eq!(
        Preset::FideSwiss
            .chain()
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>(),
        ["BH/C1", "BH", "SB", "PS", "DE", "WIN"]
    );
    let e = "nope".parse::<Preset>().expect_err("unknown");
    assert!(e.to_string().contains("cxa2011_opp"));
}

/// 1 beat 2 (round 1) and drew 3 (round 2); 3 had a half-point bye in round 1 and 2 the
/// pairing-allocated bye in round 2. Points 1: 3, 2: 2, 3: 2.
fn command_file() -> String {
    let t = event(
        3,
        &[
            (&[(1, 2, "1-0")], &[(3, ResultCode::HalfBye)]),
            (&[(3, 1, "=")], &[(2, ResultCode::PairingBye)]),
        ],
    );
    crate::trf::write(&t)
}

#[test]
fn the_command_prints_the_columns_as_given() {
    let trf = command_file();
    let args = CommandArgs {
        tiebreaks: Some("BH_C1,WIN".into()),
        ..CommandArgs::default()
    };
    let out = command(&trf, &args).expect("runs");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("rank\tstart_no\tPTS\tBH_C1\tWIN"));
    // Player 1: opponents 2 (2 points) and 3 (2 points): BH 4, cut 2 → 2; one win.
    assert_eq!(lines.next(), Some("1\t1\t3\t2\t1"));
    let args = CommandArgs {
        preset: Some("cxa2011_opp".into()),
        points: Some("1,0.5,0".into()),
        unplayed: Some("fide2023".into()),
        ..CommandArgs::default()
    };
    let out = command(&trf, &args).expect("runs");
    assert!(out.starts_with("rank\tstart_no\tPTS\tOPP\tWIN\tFOULS\tBPG\tPREV\n1\t1\t1.5\t"));
    assert_eq!(
        command(&trf, &CommandArgs::default()),
        Err(CommandError::Chain)
    );
    let bad_points = CommandArgs {
        tiebreaks: Some("BH".into()),
        points: Some("2,1".into()),
        ..CommandArgs::default()
    };
    assert!(matches!(
        command(&trf, &bad_points),
        Err(CommandError::Points(_))
    ));
}
