use super::*;
use crate::model::{Entrant, RoundRecord};
use crate::standings::TiebreakValue;
use ResultCode::*;
use Side::*;

/// Four teams of two boards (players 1–2, 3–4, 5–6, 7–8), two rounds:
/// R1: A–B 1½–½ (board 2 a forfeit win for A), C–D 1–1.
/// R2: A–C 1–1, B–D 2–0.
fn event() -> (Tournament, Vec<Team>) {
    let games: &[(u32, StartNo, StartNo, ResultCode)] = &[
        (1, 1, 3, Draw),
        (1, 4, 2, ForfeitLoss),
        (1, 5, 7, Win),
        (1, 8, 6, Win),
        (2, 1, 5, Win),
        (2, 6, 2, Win),
        (2, 3, 7, Win),
        (2, 8, 4, Loss),
    ];
    let mut entrants: Vec<Entrant> = (1..=8)
        .map(|n| Entrant {
            start_no: n,
            name: format!("P{n}"),
            rounds: vec![RoundRecord::bye(Pending); 2],
            ..Entrant::default()
        })
        .collect();
    let other = |r: ResultCode| match r {
        Win => Loss,
        Loss => Win,
        ForfeitWin => ForfeitLoss,
        ForfeitLoss => ForfeitWin,
        x => x,
    };
    for &(round, red, black, result) in games {
        let i = round as usize - 1;
        entrants[red as usize - 1].rounds[i] = RoundRecord::game(black, Red, result);
        entrants[black as usize - 1].rounds[i] = RoundRecord::game(red, Black, other(result));
    }
    let t = Tournament {
        entrants,
        ..Tournament::default()
    };
    let teams = ["A", "B", "C", "D"]
        .iter()
        .enumerate()
        .map(|(i, name)| Team {
            name: name.to_string(),
            roster: vec![2 * i as u32 + 1, 2 * i as u32 + 2],
        })
        .collect();
    (t, teams)
}

#[test]
fn matches_are_read_from_the_boards() {
    let (t, teams) = event();
    let r = matches(&t, &teams, &TeamScoring::default()).expect("matches");
    // A in round 1: 1½–½ against B, a win; board 2 a forfeit win.
    assert_eq!(r[0][0].opponent, Some(1));
    assert_eq!(r[0][0].game_points, Points::from_tenths(15));
    assert_eq!(r[0][0].opponent_game_points, Points::from_tenths(5));
    assert_eq!(r[0][0].match_points, Points::whole(2));
    assert_eq!(r[0][0].boards[1].result, ForfeitWin);
    assert_eq!(r[0][0].boards[0].colour, Some(Red));
    assert_eq!(r[0][0].boards[1].colour, Some(Black));
    // C–D 1–1: a drawn match.
    assert_eq!(r[2][0].match_points, Points::whole(1));
    assert_eq!(r[3][0].match_points, Points::whole(1));
    // 3/1/0 match points are configurable.
    let three = TeamScoring {
        match_win: Points::whole(3),
        ..TeamScoring::default()
    };
    let r3 = matches(&t, &teams, &three).expect("matches");
    assert_eq!(r3[1][1].match_points, Points::whole(3));
}

#[test]
fn standings_by_hand() {
    let (t, teams) = event();
    let scoring = TeamScoring::default();
    let r = matches(&t, &teams, &scoring).expect("matches");
    let chain: Vec<TeamKey> = ["GPTS", "BH:MP", "BH:GP", "SB:MP", "EGGSB", "BC", "WON"]
        .iter()
        .map(|k| k.parse().expect("key"))
        .collect();
    let s = standings(&r, &chain, &scoring);
    // MP: A 2+1=3, B 0+2=2, C 1+1=2, D 1+0=1. GP: A 2.5, B 2.5, C 2, D 1.
    // B and C tie on MP 2; B has more game points.
    let order: Vec<&str> = s.rows.iter().map(|r| teams[r.team].name.as_str()).collect();
    assert_eq!(order, ["A", "B", "C", "D"]);
    let a = &s.rows[0];
    assert_eq!(a.match_points, Points::whole(3));
    assert_eq!(a.values[0], TiebreakValue::Points(Points::from_tenths(25)));
    // BH:MP of A: B 2 + C 2 = 4; BH:GP: B 2.5 + C 2 = 4.5.
    assert_eq!(a.values[1], TiebreakValue::Points(Points::whole(4)));
    assert_eq!(a.values[2], TiebreakValue::Points(Points::from_tenths(45)));
    // SB:MP: 2 × B's 2 + 1 × C's 2 = 6; EGGSB: 1.5 × 2.5 + 1 × 2 = 5.75.
    assert_eq!(a.values[3], TiebreakValue::Hundredths(600));
    assert_eq!(a.values[4], TiebreakValue::Hundredths(575));
    // BC: R1 board 1 ½ × 1 + board 2 1 × 2, R2 board 1 1 × 1 + board 2 0 = 3.5.
    assert_eq!(a.values[5], TiebreakValue::Points(Points::from_tenths(35)));
    assert_eq!(a.values[6], TiebreakValue::Count(1));
    assert_eq!(
        s.rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
}

#[test]
fn direct_encounter_separates_teams_that_met() {
    let (t, teams) = event();
    let scoring = TeamScoring::default();
    let r = matches(&t, &teams, &scoring).expect("matches");
    // B and C are tied on MP and never met: DE leaves them tied (0), the next key decides.
    let s = standings(&r, &[TeamKey::De, TeamKey::Gpts], &scoring);
    let b = s.rows.iter().find(|row| row.team == 1).expect("B");
    assert_eq!(b.values[0], TiebreakValue::Position(0));
    assert_eq!(b.rank, 2);
    // With 3/1/0 points B (3) is alone; with DE only, A and … nothing else ties.
    let three = TeamScoring {
        match_win: Points::whole(3),
        ..TeamScoring::default()
    };
    let r3 = matches(&t, &teams, &three).expect("matches");
    let s3 = standings(&r3, &[TeamKey::De], &three);
    // A 4, B 3, C 2, D 1.
    assert_eq!(
        s3.rows.iter().map(|r| r.team).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
}

#[test]
fn a_team_meeting_two_teams_in_a_round_is_an_error() {
    let (t, mut teams) = event();
    // Put players 1 and 5 on one team: in round 1 they meet B's and D's players.
    teams[0].roster = vec![1, 5];
    teams[2].roster = vec![2, 6];
    let err = matches(&t, &teams, &TeamScoring::default()).expect_err("split");
    assert!(matches!(err, TeamError::SplitMatch { round: 1, .. }));
    let (t, mut teams) = event();
    teams[1].roster.push(1);
    assert_eq!(
        matches(&t, &teams, &TeamScoring::default()),
        Err(TeamError::TwoTeams(1))
    );
}

#[test]
fn key_names_round_trip() {
    for key in TeamKey::ALL {
        assert_eq!(key.name().parse::<TeamKey>(), Ok(key));
    }
    assert_eq!("bh/gp".parse::<TeamKey>(), Ok(TeamKey::BhGp));
    assert_eq!("BH".parse::<TeamKey>(), Ok(TeamKey::BhMp));
    assert!("XYZ".parse::<TeamKey>().is_err());
}

#[test]
fn trf_team_records_are_read_and_checked() {
    let head = "012 T\n\
001    1      A                                 1999                             0.0     \n\
001    2      B                                 1999                             0.0     \n\
001    3      C                                 1999                             0.0     \n";
    // Name in columns 5–36, players in 4-digit fields from column 37.
    let team = |name: &str, players: &[u32]| {
        let mut line = format!("013 {name:<32}");
        for p in players {
            line.push_str(&format!("{p:>4} "));
        }
        line.trim_end().to_string() + "\n"
    };
    let ok = format!(
        "{head}{}{}",
        team("Team one", &[1, 2]),
        team("Team two", &[3])
    );
    let t = crate::trf::parse(&ok).expect("parses");
    let teams = crate::trf::teams(&t);
    assert_eq!(teams.len(), 2);
    assert_eq!(teams[0].name, "Team one");
    assert_eq!(teams[0].roster, vec![1, 2]);
    assert_eq!(teams[1].roster, vec![3]);
    // A round trip keeps the records.
    let again = crate::trf::parse(&crate::trf::write(&t)).expect("round trip");
    assert_eq!(crate::trf::teams(&again), teams);

    let unknown = format!("{head}{}", team("Team one", &[1, 9]));
    let err = crate::trf::parse(&unknown).expect_err("unknown player");
    assert_eq!(err.kind, crate::trf::TrfErrorKind::UnknownPlayer(9));
    assert_eq!((err.line, err.column), (5, 45));
    let twice = format!(
        "{head}{}{}",
        team("Team one", &[1, 2]),
        team("Team two", &[2])
    );
    let err = crate::trf::parse(&twice).expect_err("two teams");
    assert_eq!(err.kind, crate::trf::TrfErrorKind::TwoTeams(2));
    assert_eq!(err.line, 6);
}

#[test]
fn a_board_won_across_an_empty_seat_counts_in_its_match() {
    // Round 1 of `event()` again, but B fields no one on board 2: A's player 2 wins it
    // across an empty seat (TRF `0000 w +`), player 4 has no game. A 1½–½, a win still; in
    // round 2 D's board 2 is empty against B: B 1–0 on board 1 and 1 across the seat.
    let (mut t, teams) = event();
    t.entrants[1].rounds[0] = RoundRecord {
        opponent: None,
        colour: Some(Black),
        result: ForfeitWin,
        fouls: 0,
    };
    t.entrants[3].rounds[0] = RoundRecord::bye(ZeroBye);
    t.entrants[3].rounds[1] = RoundRecord {
        opponent: None,
        colour: Some(Black),
        result: ForfeitWin,
        fouls: 0,
    };
    t.entrants[7].rounds[1] = RoundRecord::bye(ZeroBye);
    t.entrants[2].rounds[1] = RoundRecord::game(7, Red, Loss);
    t.entrants[6].rounds[1] = RoundRecord::game(3, Black, Win);
    let r = matches(&t, &teams, &TeamScoring::default()).expect("matches");
    let (a, b) = (&r[0][0], &r[1][0]);
    assert_eq!((a.opponent, b.opponent), (Some(1), Some(0)));
    assert_eq!(a.game_points, Points::from_tenths(15));
    assert_eq!(a.opponent_game_points, Points::from_tenths(5));
    assert_eq!(b.opponent_game_points, Points::from_tenths(15));
    assert_eq!(
        (a.match_points, b.match_points),
        (Points::whole(2), Points::ZERO)
    );
    // Round 2: B lost board 1 but won across the seat, 1–1 with D: a draw each.
    let (b2, d2) = (&r[1][1], &r[3][1]);
    assert_eq!(
        (b2.game_points, d2.game_points),
        (Points::whole(1), Points::whole(1))
    );
    assert_eq!(d2.opponent_game_points, Points::whole(1));
    assert_eq!(
        (b2.match_points, d2.match_points),
        (Points::whole(1), Points::whole(1))
    );
}
