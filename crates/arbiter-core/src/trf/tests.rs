use super::*;
use crate::model::{Points, ResultCode, RoundRecord, Scoring, Side};

const SMALL: &str = "012 Small event\n\
142 3\n\
162  W 2.0    D 1.0\n\
001    1 m    Zhang, San                             CHN                         5.0    1     3 w 1     2 b =  0000 - U\n\
001    2 m    Li, Si                                 CHN                         3.0    2     4 b +     1 w =     3 b 0\n\
001    3      Wang, Wu                                                           0.0          1 b 0  0000 - H     2 w 1\n\
001    4      Zhao, Liu                                                          0.0          2 w -\n";

#[test]
fn a_small_file_reads_into_the_model() {
    let t = parse_ok(SMALL);
    assert_eq!(t.name, "Small event");
    assert_eq!(t.rounds_total, Some(3));
    assert_eq!(t.scoring, Scoring::two_one_zero());
    assert_eq!(t.entrants.len(), 4);
    let p1 = &t.entrants[0];
    assert_eq!(p1.name, "Zhang, San");
    assert_eq!(p1.sex, Some('m'));
    assert_eq!(p1.federation, "CHN");
    assert_eq!(p1.declared_points, Some(Points(50)));
    assert_eq!(p1.declared_rank, Some(1));
    assert_eq!(
        p1.rounds,
        vec![
            RoundRecord::game(3, Side::Red, ResultCode::Win),
            RoundRecord::game(2, Side::Black, ResultCode::Draw),
            RoundRecord::bye(ResultCode::PairingBye),
        ]
    );
    assert_eq!(
        t.entrants[2].rounds[1],
        RoundRecord::bye(ResultCode::HalfBye)
    );
    assert_eq!(
        t.entrants[3].rounds,
        vec![RoundRecord::game(2, Side::Red, ResultCode::ForfeitLoss)]
    );
}

#[test]
fn crlf_and_a_byte_order_mark_read_like_lf() {
    let crlf = format!("\u{feff}{}", SMALL.replace('\n', "\r\n"));
    assert_eq!(parse_ok(&crlf), parse_ok(SMALL));
}

#[test]
fn result_letters_are_case_insensitive() {
    let lower = SMALL
        .replace("0000 - U", "0000 - u")
        .replace("0000 - H", "0000 - h");
    assert_eq!(parse_ok(&lower), parse_ok(SMALL));
}

#[test]
fn a_cjk_name_keeps_the_fixed_columns_when_counted_in_characters() {
    let mut t = parse_ok(SMALL);
    t.entrants[0].name = "张三丰".into();
    t.entrants[1].name = "歐陽·娜娜 Ouyang Nana".into();
    let text = write(&t);
    let line = text
        .lines()
        .find(|l| l.starts_with("001    1"))
        .expect("player 1");
    // Column 92 (character 91) is where round 1 starts, whatever the bytes are.
    let round1: String = line.chars().skip(91).take(8).collect();
    assert_eq!(round1, "   3 w 1");
    assert_eq!(parse_ok(&text), t);
}

#[test]
fn errors_carry_line_and_column() {
    let bad = SMALL.replace("  3 w 1     2 b =", "  3 x 1     2 b =");
    let e = parse(&bad).expect_err("bad colour");
    assert_eq!((e.line, e.column), (4, 97));
    assert_eq!(e.kind, TrfErrorKind::InvalidColour('x'));
    assert_eq!(
        e.to_string(),
        "line 4, column 97: invalid colour 'x' (expected w, b, - or blank)"
    );

    let bad = SMALL.replace("     2 b =  0000 - U", "     2 b ?  0000 - U");
    let e = parse(&bad).expect_err("bad result");
    assert_eq!(
        (e.line, e.column, e.kind),
        (4, 109, TrfErrorKind::InvalidResult('?'))
    );

    let bad = SMALL.replace("  4 b +", "  9 b +");
    let e = parse(&bad).expect_err("unknown opponent");
    assert_eq!(
        (e.line, e.column, e.kind),
        (5, 92, TrfErrorKind::UnknownPlayer(9))
    );

    let bad = SMALL.replace("001    4", "001    3");
    let e = parse(&bad).expect_err("duplicate");
    assert_eq!((e.line, e.kind), (7, TrfErrorKind::DuplicateStartNo(3)));
}

#[test]
fn absences_from_xxz_and_240_become_bye_records_of_that_round() {
    let text = format!("{SMALL}XXZ 4\n240 H 004 0003\n");
    let t = parse_ok(&text);
    // Round 4 is the round to be paired (3 rounds have games).
    assert_eq!(t.entrants[3].rounds.len(), 4);
    assert_eq!(
        t.entrants[3].rounds[1],
        RoundRecord::bye(ResultCode::Pending)
    );
    assert_eq!(
        t.entrants[3].rounds[3],
        RoundRecord::bye(ResultCode::ZeroBye)
    );
    assert_eq!(
        t.entrants[2].rounds[3],
        RoundRecord::bye(ResultCode::HalfBye)
    );
    assert_eq!(crate::pairing::entrants_to_pair(&t, 4), vec![1, 2]);
    assert_eq!(parse_ok(&write(&t)), t);

    let clash = format!("{SMALL}240 Z 001 0001\n");
    let e = parse(&clash).expect_err("player 1 played round 1");
    assert_eq!(
        e.kind,
        TrfErrorKind::ByeConflict {
            start_no: 1,
            round: 1
        }
    );
}

#[test]
fn scoring_comes_from_162_xxs_or_bb_lines() {
    let base = SMALL.replace("162  W 2.0    D 1.0\n", "");
    let t = parse_ok(&base);
    assert_eq!(t.scoring, Scoring::one_half_zero());

    // JaVaFo: W does not cover the PAB.
    let t = parse_ok(&format!("XXS W=2 D=1\n{base}"));
    assert_eq!(t.scoring.win, Points(20));
    assert_eq!(t.scoring.half_bye, Points(10));
    assert_eq!(t.scoring.pairing_bye, Points(10));
    let t = parse_ok(&format!("XXS W=2 D=1 PAB=2\n{base}"));
    assert_eq!(t.scoring, Scoring::two_one_zero());

    let t = parse_ok(&format!("BBW 3.0\nBBD 1.0\n{base}"));
    assert_eq!(
        t.scoring,
        Scoring::from_win_draw_loss(Points(30), Points(10), Points(0))
    );

    let t = parse_ok(&format!(
        "162  W 3.0    D 1.0    L 0.0    A 0.0    P 1.0\n{base}"
    ));
    assert_eq!(t.scoring.pairing_bye, Points(10));
    assert_eq!(t.scoring.forfeit_win, Points(30));

    let e = parse(&format!("XXS WD=1 BD=2\n{base}")).expect_err("colour-dependent");
    assert_eq!(e.kind, TrfErrorKind::ColourDependentScoring);
}

#[test]
fn forbidden_pairs_and_accelerations_read_from_both_syntaxes() {
    let text = format!("{SMALL}XXP 1 2\n260   2   3    3    4\n250      1.0   1   2    1    2\nXXA    3  0.0  2.0\n");
    let t = parse_ok(&text);
    assert_eq!(t.forbidden.len(), 2);
    assert_eq!(t.forbidden[0].entrants, vec![1, 2]);
    assert_eq!(t.forbidden[1].first_round, Some(2));
    assert_eq!(t.forbidden[1].last_round, Some(3));
    assert_eq!(t.forbidden[1].entrants, vec![3, 4]);
    assert_eq!(t.accelerations.len(), 3);
    assert_eq!(t.accelerations[0].start_no, 1);
    assert_eq!(t.accelerations[0].points, vec![Points(10), Points(10)]);
    assert_eq!(t.accelerations[2].points, vec![Points(0), Points(20)]);
    assert_eq!(parse_ok(&write(&t)), t);
}

#[test]
fn unknown_lines_and_comments_survive_a_round_trip() {
    let text = format!("### made by hand\n{SMALL}092 Individual: Swiss-System\n192 CUSTOM_SWISS\nXXC rank black1\n");
    let t = parse_ok(&text);
    assert_eq!(t.initial_colour, Some(Side::Black));
    assert!(t.headers.contains(&("###".into(), "made by hand".into())));
    assert!(t.headers.contains(&("XXC".into(), "rank".into())));
    assert_eq!(parse_ok(&write(&t)), t);
}

#[test]
fn a_missing_points_column_is_written_from_the_completed_rounds() {
    let mut t = parse_ok(&format!("{SMALL}XXZ 3\n"));
    for e in &mut t.entrants {
        e.declared_points = None;
    }
    let back = parse_ok(&write(&t));
    let points: Vec<_> = back.entrants.iter().map(|e| e.declared_points).collect();
    // Player 3's half-point bye in round 2 counts; the Z announced for round 4 does not matter.
    assert_eq!(
        points,
        vec![
            Some(Points(50)),
            Some(Points(30)),
            Some(Points(30)),
            Some(Points(0))
        ]
    );
}

/// A file with players 1 and 2 (lines 3 and 4) and one round each.
fn two_players(one: RoundRecord, two: RoundRecord) -> String {
    let player = |start_no, name: &str, r: RoundRecord| crate::model::Entrant {
        start_no,
        name: name.into(),
        rounds: vec![r],
        ..Default::default()
    };
    write(&Tournament {
        entrants: vec![player(1, "A", one), player(2, "B", two)],
        ..Default::default()
    })
}

fn error_of(text: &str) -> TrfError {
    match parse(text) {
        Ok(_) => panic!("should be rejected:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn two_players_who_both_have_white_are_rejected_at_the_second_colour() {
    use ResultCode::*;
    let text = two_players(
        RoundRecord::game(2, Side::Red, Win),
        RoundRecord::game(1, Side::Red, Loss),
    );
    let e = error_of(&text);
    assert_eq!((e.line, e.column), (4, 97), "{e}");
    assert_eq!(
        e.to_string(),
        "line 4, column 97: round 1: player 2 has colour w against 1, whose line 3 has w; \
         one must be w and the other b"
    );
}

#[test]
fn two_players_who_both_have_black_are_rejected() {
    use ResultCode::*;
    let e = error_of(&two_players(
        RoundRecord::game(2, Side::Black, Win),
        RoundRecord::game(1, Side::Black, Loss),
    ));
    assert_eq!((e.line, e.column), (4, 97), "{e}");
    assert!(matches!(e.kind, TrfErrorKind::ColourMismatch { .. }));
}

#[test]
fn two_winners_of_one_game_are_rejected_at_the_second_result() {
    use ResultCode::*;
    let e = error_of(&two_players(
        RoundRecord::game(2, Side::Red, Win),
        RoundRecord::game(1, Side::Black, Win),
    ));
    assert_eq!((e.line, e.column), (4, 99), "{e}");
    assert!(e.to_string().contains("contradict"), "{e}");
}

#[test]
fn every_legal_pair_of_results_is_accepted_and_others_are_not() {
    let codes: Vec<ResultCode> = "1=0WDL+- "
        .chars()
        .filter_map(ResultCode::from_trf_letter)
        .collect();
    let legal = [
        "10", "01", "==", "00", "WL", "LW", "DD", "+-", "-+", "--", "  ",
    ];
    for &a in &codes {
        for &b in &codes {
            let text = two_players(
                RoundRecord::game(2, Side::Red, a),
                RoundRecord::game(1, Side::Black, b),
            );
            let pair: String = [a.trf_letter(), b.trf_letter()].iter().collect();
            match parse(&text) {
                Ok(_) => assert!(legal.contains(&pair.as_str()), "{pair:?} accepted"),
                Err(e) => {
                    assert!(!legal.contains(&pair.as_str()), "{pair:?}: {e}");
                    assert_eq!((e.line, e.column), (4, 99), "{pair:?}: {e}");
                }
            }
        }
    }
}

#[test]
fn a_game_named_by_one_line_only_is_rejected() {
    use ResultCode::*;
    let e = error_of(&two_players(
        RoundRecord::game(2, Side::Red, Win),
        RoundRecord::bye(ZeroBye),
    ));
    assert_eq!((e.line, e.column), (3, 92), "{e}");
    assert_eq!(
        e.to_string(),
        "line 3, column 92: player 1 meets 2 in round 1, but 2's line has no game in that round"
    );
}

#[test]
fn a_player_in_two_games_of_one_round_is_rejected() {
    // 3 says he played 1, but 1 and 2 played each other.
    let text = format!(
        "{}{}",
        two_players(
            RoundRecord::game(2, Side::Red, ResultCode::Win),
            RoundRecord::game(1, Side::Black, ResultCode::Loss),
        ),
        "001    3      C                                                                 0.0          1 w 1\n"
    );
    let e = error_of(&text);
    assert_eq!((e.line, e.column), (5, 92), "{e}");
    assert_eq!(
        e.to_string(),
        "line 5, column 92: player 1 plays twice in round 1: against 2 and against 3"
    );
}

#[test]
fn byes_have_no_opponent_and_games_need_one() {
    use ResultCode::*;
    let e = error_of(&two_players(
        RoundRecord::game(2, Side::Red, PairingBye),
        RoundRecord::game(1, Side::Black, Loss),
    ));
    assert_eq!((e.line, e.column), (3, 99), "{e}");
    assert!(matches!(e.kind, TrfErrorKind::ByeWithOpponent('U')));
    let e = error_of(&two_players(
        RoundRecord::bye(Win),
        RoundRecord::bye(ZeroBye),
    ));
    assert_eq!((e.line, e.column), (3, 99), "{e}");
    assert!(matches!(e.kind, TrfErrorKind::GameWithoutOpponent('1')));
    // `+` and `-` without an opponent are TRF-16's forfeit byes; blank is an absence.
    for code in [ForfeitWin, ForfeitLoss, Pending, HalfBye, FullBye, ZeroBye] {
        parse_ok(&two_players(
            RoundRecord::bye(code),
            RoundRecord::bye(ZeroBye),
        ));
    }
}

#[test]
fn a_round_has_at_most_one_pairing_allocated_bye() {
    let e = error_of(&two_players(
        RoundRecord::bye(ResultCode::PairingBye),
        RoundRecord::bye(ResultCode::PairingBye),
    ));
    assert_eq!((e.line, e.column), (4, 99), "{e}");
    assert!(matches!(e.kind, TrfErrorKind::SecondPairingBye { .. }));
}

#[test]
fn arbiter_setting_lines_are_read_checked_and_written_back() {
    let settings = SectionSettings {
        pairing_system: Some("chinese".into()),
        tiebreaks: Some(vec!["OPP".into(), "BH/C1".into(), "PS".into()]),
        unplayed: Some("cxa".into()),
        foul_threshold: Some(3),
        forfeit_counts_as_met: Some(true),
    };
    let mut t = parse_ok(SMALL);
    t.headers.extend(settings.headers());
    let text = write(&t);
    assert!(
        text.contains("### arbiter pairing_system=chinese\n### arbiter tiebreaks=OPP,BH/C1,PS\n"),
        "{text}"
    );
    let back = parse_ok(&text);
    assert_eq!(back, t);
    assert_eq!(SectionSettings::of(&back), settings);
    // Other comment lines are not arbiter's and stay untouched.
    assert_eq!(
        SectionSettings::of(&parse_ok("### a comment\n### arbitrary=1\n")),
        SectionSettings::default()
    );

    for (line, column, message) in [
        (
            "### arbiter pairing_system=burstein",
            28,
            "pairing_system must be one of chinese, dutch, round_robin",
        ),
        ("### arbiter colour=red", 13, "unknown key \"colour\""),
        ("### arbiter foul_threshold=0", 28, "foul_threshold must be"),
        ("### arbiter tiebreaks=OPP,XYZ", 23, "tiebreaks:"),
        (
            "### arbiter forfeit_counts_as_met",
            13,
            "expected KEY=VALUE",
        ),
        (
            "### arbiter   unplayed=fide",
            24,
            "unknown unplayed-round mode",
        ),
    ] {
        let e = match parse(&format!("012 x\n{line}\n")) {
            Ok(_) => panic!("{line} accepted"),
            Err(e) => e,
        };
        assert_eq!((e.line, e.column), (2, column), "{line}: {e}");
        assert!(e.to_string().contains(message), "{line}: {e}");
    }
}
