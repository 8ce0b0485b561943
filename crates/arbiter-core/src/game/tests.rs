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

/// Published perft figures (chessprogramming.org's Chinese chess perft results, also used by
/// Pikafish's bench positions and several engines' tests).
#[test]
fn perft_of_published_middle_game_positions() {
    let cases: [(&str, [u64; 4]); 4] = [
        (
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            [38, 1_128, 43_929, 1_339_047],
        ),
        (
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            [7, 281, 8_620, 326_201],
        ),
        (
            "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w",
            [58, 1_651, 90_744, 2_605_437],
        ),
        (
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
            [25, 424, 9_850, 202_884],
        ),
    ];
    for (fen, expected) in cases {
        let p = Position::from_fen(fen).expect("published FEN");
        for (depth, &nodes) in (1..).zip(expected.iter()) {
            assert_eq!(perft(&p, depth), nodes, "{fen} depth {depth}");
        }
    }
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN")
}

fn iccs(p: &Position, text: &str) -> Move {
    parse_move(p, text, Notation::Iccs).unwrap_or_else(|e| panic!("{text} in {}: {e}", p.to_fen()))
}

/// Prints `iccs` in Chinese (simplified) and WXF, and reads both back.
fn both(p: &Position, text: &str) -> (String, String) {
    let mv = iccs(p, text);
    let zh = format_move(p, mv, Notation::Chinese, Script::Simplified);
    let wxf = format_move(p, mv, Notation::Wxf, Script::Simplified);
    assert_eq!(parse_move(p, &zh, Notation::Chinese), Ok(mv), "{zh}");
    assert_eq!(parse_move(p, &wxf, Notation::Wxf), Ok(mv), "{wxf}");
    (zh, wxf)
}

#[test]
fn the_six_field_and_short_fen_read_the_same_and_write_six_fields() {
    let short = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
    assert_eq!(short, pos(START));
    assert_eq!(short.to_fen(), START);
    assert_eq!(Position::xiangqi_start(), short);
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7");
    assert_eq!(black.side_to_move(), Side::Black);
    assert!(black.to_fen().ends_with(" b - - 3 7"));
}

#[test]
fn bad_fens_are_refused_with_a_reason() {
    assert!(matches!(
        Position::from_fen("9/9/9 w"),
        Err(FenError::Shape(_))
    ));
    assert_eq!(
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAQABNR w"),
        Err(FenError::Letter('Q'))
    );
    // Generals facing each other on an open file: the side that just moved is in check.
    assert_eq!(
        Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"),
        Err(FenError::OpponentInCheck)
    );
    assert_eq!(
        Position::from_fen("4k4/9/9/9/9/9/9/9/9/K8 w"),
        Err(FenError::Generals)
    );
}

#[test]
fn the_opening_moves_print_in_all_three_notations() {
    let p = Position::xiangqi_start();
    assert_eq!(both(&p, "h2e2"), ("炮二平五".into(), "C2.5".into()));
    assert_eq!(both(&p, "b0c2"), ("马八进七".into(), "H8+7".into()));
    assert_eq!(both(&p, "a0a1"), ("车九进一".into(), "R9+1".into()));
    assert_eq!(both(&p, "g3g4"), ("兵三进一".into(), "P3+1".into()));
    assert_eq!(both(&p, "c0e2"), ("相七进五".into(), "E7+5".into()));
    assert_eq!(both(&p, "f0e1"), ("仕四进五".into(), "A4+5".into()));
    assert_eq!(both(&p, "e0e1"), ("帅五进一".into(), "K5+1".into()));
    let p = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b");
    assert_eq!(both(&p, "h7e7"), ("炮8平5".into(), "C8.5".into()));
    assert_eq!(both(&p, "b9c7"), ("马2进3".into(), "H2+3".into()));
    assert_eq!(both(&p, "a9a8"), ("车1进1".into(), "R1+1".into()));
    assert_eq!(both(&p, "i9i8"), ("车9进1".into(), "R9+1".into()));
    assert_eq!(both(&p, "b7b0"), ("炮2进7".into(), "C2+7".into()));
    assert_eq!(
        format_move(&p, iccs(&p, "b9c7"), Notation::Chinese, Script::Traditional),
        "馬2進3"
    );
    assert_eq!(
        format_move(&p, iccs(&p, "h7e7"), Notation::Chinese, Script::Traditional),
        "砲8平5"
    );
}

#[test]
fn moves_are_read_in_either_script_and_any_digits() {
    let p = Position::xiangqi_start();
    let mv = iccs(&p, "b0c2");
    for text in [
        "马八进七",
        "馬八進七",
        "傌八進七",
        "马8进7",
        "马８进７",
        "H8+7",
        "h8+7",
        "B0-C2",
        "b0c2",
    ] {
        let notation = if text.is_ascii() && text.len() == 4 && text.contains('+') {
            Notation::Wxf
        } else if text.is_ascii() {
            Notation::Iccs
        } else {
            Notation::Chinese
        };
        assert_eq!(parse_move(&p, text, notation), Ok(mv), "{text}");
    }
    assert_eq!(parse_move(&p, "C2=5", Notation::Wxf), Ok(iccs(&p, "h2e2")));
    assert!(matches!(
        parse_move(&p, "炮二进九", Notation::Chinese),
        Err(NotationError::Illegal(_))
    ));
    assert!(matches!(
        parse_move(&p, "hello", Notation::Wxf),
        Err(NotationError::Unreadable(_))
    ));
    assert!(matches!(
        parse_move(&p, "h2h8", Notation::Iccs),
        Err(NotationError::Illegal(_))
    ));
}

#[test]
fn tandem_pieces_use_front_and_rear() {
    // Red cannons on c5 and c2 (file 7).
    let p = pos("4k4/9/9/9/2C6/9/9/2C6/9/3K5 w");
    assert_eq!(both(&p, "c5d5"), ("前炮平六".into(), "C+.6".into()));
    assert_eq!(both(&p, "c2c3"), ("后炮进一".into(), "C-+1".into()));
    assert_eq!(both(&p, "c2c1"), ("后炮退一".into(), "C--1".into()));
    assert_eq!(parse_move(&p, "+C.6", Notation::Wxf), Ok(iccs(&p, "c5d5")));
    assert!(parse_move(&p, "炮七前平六", Notation::Chinese).is_err());
    assert_eq!(
        parse_move(&p, "炮前平六", Notation::Chinese),
        Ok(iccs(&p, "c5d5"))
    );
    assert_eq!(
        parse_move(&p, "後炮進一", Notation::Chinese),
        Ok(iccs(&p, "c2c3"))
    );
    // A plain file is read when only one of the two can make the move…
    assert_eq!(
        parse_move(&p, "炮七进三", Notation::Chinese),
        Ok(iccs(&p, "c5c8"))
    );
    assert_eq!(parse_move(&p, "C7+3", Notation::Wxf), Ok(iccs(&p, "c5c8")));
    // …and refused when both can.
    assert!(matches!(
        parse_move(&p, "C7.6", Notation::Wxf),
        Err(NotationError::Ambiguous { .. })
    ));
    // Black tandem horses on f8 and f6 (Black's file 6): front is the lower rank.
    let p = pos("3k5/5n3/9/5n3/9/9/9/9/9/4K4 b");
    assert_eq!(
        both(&p, "f6g4"),
        ("前马进7".into(), "H+.7".replace('.', "+"))
    );
    assert_eq!(both(&p, "f8e6"), ("后马进5".into(), "H-+5".into()));
    // Advisors on one file count as tandem pieces too.
    let p = pos("5k3/9/9/9/9/9/9/3A5/9/3AK4 w");
    assert_eq!(both(&p, "d2e1").0, "前仕退五");
    assert_eq!(both(&p, "d0e1"), ("后仕进五".into(), "A-+5".into()));
}

#[test]
fn three_and_more_pawns_on_one_file() {
    // Three Red pawns on e5, e6, e7 (file 5): WXF names them by their place from the front,
    // then the file (issue #39), as Chinese names them 前/中/后.
    let p = pos("4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w");
    assert_eq!(both(&p, "e7e8"), ("前兵进一".into(), "15+1".into()));
    assert_eq!(both(&p, "e6d6"), ("中兵平六".into(), "25.6".into()));
    assert_eq!(both(&p, "e5f5"), ("后兵平四".into(), "35.4".into()));
    assert_eq!(parse_move(&p, "25=6", Notation::Wxf), Ok(iccs(&p, "e6d6")));
    assert_eq!(
        parse_move(&p, "中兵五平六", Notation::Chinese),
        Ok(iccs(&p, "e6d6"))
    );
    assert_eq!(
        parse_move(&p, "二兵平六", Notation::Chinese),
        Ok(iccs(&p, "e6d6"))
    );
    // The older WXF table is still read: P+, P5 (the middle keeps its file), P-.
    assert_eq!(parse_move(&p, "P++1", Notation::Wxf), Ok(iccs(&p, "e7e8")));
    assert_eq!(parse_move(&p, "P5.6", Notation::Wxf), Ok(iccs(&p, "e6d6")));
    assert_eq!(parse_move(&p, "P-.4", Notation::Wxf), Ok(iccs(&p, "e5f5")));
    // No fourth soldier on file 5, no soldier numbered on file 4.
    assert!(matches!(
        parse_move(&p, "45.4", Notation::Wxf),
        Err(NotationError::Illegal(_))
    ));
    assert!(matches!(
        parse_move(&p, "14.3", Notation::Wxf),
        Err(NotationError::Illegal(_))
    ));
    // Four: 前, 二, 三, 四 and 15, 25, 35, 45.
    let p = pos("3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w");
    assert_eq!(both(&p, "e8e9"), ("前兵进一".into(), "15+1".into()));
    assert_eq!(both(&p, "e7f7"), ("二兵平四".into(), "25.4".into()));
    assert_eq!(both(&p, "e6d6"), ("三兵平六".into(), "35.6".into()));
    assert_eq!(both(&p, "e5f5"), ("四兵平四".into(), "45.4".into()));
    assert_eq!(
        parse_move(&p, "三兵五平六", Notation::Chinese),
        Ok(iccs(&p, "e6d6"))
    );
    for (old, mv) in [
        ("+++1", "e8e9"),
        ("P+.4", "e7f7"),
        ("P-.6", "e6d6"),
        ("--.4", "e5f5"),
    ] {
        assert_eq!(
            parse_move(&p, old, Notation::Wxf),
            Ok(iccs(&p, mv)),
            "{old}"
        );
    }
    // Five: 15 … 55 (the rearmost, on e4, has no move: it has not crossed the river and the
    // square ahead is taken).
    let p = pos("3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w");
    assert_eq!(both(&p, "e8e9"), ("前兵进一".into(), "15+1".into()));
    assert_eq!(both(&p, "e7d7"), ("二兵平六".into(), "25.6".into()));
    assert_eq!(both(&p, "e6d6"), ("三兵平六".into(), "35.6".into()));
    assert_eq!(both(&p, "e5f5"), ("四兵平四".into(), "45.4".into()));
    assert!(matches!(
        parse_move(&p, "55+1", Notation::Wxf),
        Err(NotationError::Illegal(_))
    ));
    for (old, mv) in [
        ("+++1", "e8e9"),
        ("P+.6", "e7d7"),
        ("P5.6", "e6d6"),
        ("P-.4", "e5f5"),
    ] {
        assert_eq!(
            parse_move(&p, old, Notation::Wxf),
            Ok(iccs(&p, mv)),
            "{old}"
        );
    }
    // Five across the river (c5 … c9, file 7): the rearmost moves too, 「五兵」 / 57.
    let p = pos("2P6/2P1k4/2P6/2P6/2P6/9/9/9/9/3K5 w");
    assert_eq!(both(&p, "c5b5"), ("五兵平八".into(), "57.8".into()));
    assert_eq!(both(&p, "c9d9"), ("前兵平六".into(), "17.6".into()));
    assert_eq!(both(&p, "c7d7"), ("三兵平六".into(), "37.6".into()));
    assert_eq!(parse_move(&p, "57=8", Notation::Wxf), Ok(iccs(&p, "c5b5")));
}

#[test]
fn the_issue_39_soldier_stacks_read_and_write() {
    // 「25=6」: the second soldier from the front on file 5 moves to file 6; 「13=4」: the
    // front soldier on file 3 moves to file 4 (Red: file 5 is e, 6 is d, 3 is g, 4 is f).
    let p = pos("3k5/9/4P1P2/4P1P2/4P1P2/9/9/9/9/5K3 w");
    assert_eq!(parse_move(&p, "25=6", Notation::Wxf), Ok(iccs(&p, "e6d6")));
    assert_eq!(parse_move(&p, "25.6", Notation::Wxf), Ok(iccs(&p, "e6d6")));
    assert_eq!(parse_move(&p, "13=4", Notation::Wxf), Ok(iccs(&p, "g7f7")));
    assert_eq!(both(&p, "e6d6"), ("中兵五平六".into(), "25.6".into()));
    assert_eq!(both(&p, "g7f7"), ("前兵三平四".into(), "13.4".into()));
    assert_eq!(both(&p, "g7g8"), ("前兵三进一".into(), "13+1".into()));
    assert_eq!(both(&p, "g5h5"), ("后兵三平二".into(), "33.2".into()));
    // Black counts files from its own right (a is file 1) and its front is downwards:
    // soldiers on c4, c3, c2 (file 3) and e4, e3, e2, e1 (file 5).
    let p = pos("3k5/9/9/9/9/2p1p4/2p1p4/2p1p4/4p4/5K3 b");
    assert_eq!(both(&p, "c2d2"), ("前卒3平4".into(), "13.4".into()));
    assert_eq!(both(&p, "c4b4"), ("后卒3平2".into(), "33.2".into()));
    assert_eq!(both(&p, "e3d3"), ("三卒5平4".into(), "35.4".into()));
    assert_eq!(both(&p, "e1f1"), ("前卒5平6".into(), "15.6".into()));
    assert_eq!(both(&p, "e4d4"), ("四卒5平4".into(), "45.4".into()));
}

#[test]
fn jieqi_soldier_stacks_count_a_face_down_soldier_and_add_the_reveal() {
    // Red: face-up soldiers e5, e6 and a face-down piece on e3 (a soldier's square, so it
    // moves as a soldier): three on file 5, the face-down one third from the front.
    let p = pos("3k5/9/9/4P4/4P4/9/4X4/9/9/5K3 w");
    let mv = iccs(&p, "e3e4");
    assert_eq!(
        format_move(&p, mv, Notation::Wxf, Script::Simplified),
        "35+1"
    );
    assert_eq!(
        format_move(&p, mv, Notation::Chinese, Script::Simplified),
        "后兵进一"
    );
    // With the piece it turns out to be written at the end, in every notation.
    let revealed = parse_move(&p, "35+1R", Notation::Wxf).expect("reads");
    assert_eq!(
        (revealed.from.name(), revealed.to.name(), revealed.reveal),
        ("e3".into(), "e4".into(), Some(Piece::Chariot))
    );
    assert_eq!(
        format_move(&p, revealed, Notation::Wxf, Script::Simplified),
        "35+1R"
    );
    assert_eq!(
        parse_move(&p, "后兵进一车", Notation::Chinese),
        Ok(revealed)
    );
    assert_eq!(parse_move(&p, "e3e4R", Notation::Iccs), Ok(revealed));
    assert_eq!(both(&p, "e6e7"), ("前兵进一".into(), "15+1".into()));
    assert_eq!(both(&p, "e5d5"), ("中兵平六".into(), "25.6".into()));
}

#[test]
fn pawns_stacked_on_two_files_name_the_file_too() {
    // Red pawns c5 c6 c7 (file 7) and g5 g6 (file 3).
    let p = pos("3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/5K3 w");
    assert_eq!(both(&p, "c6d6"), ("中兵七平六".into(), "27.6".into()));
    assert_eq!(both(&p, "c7c8"), ("前兵七进一".into(), "17+1".into()));
    assert_eq!(both(&p, "g6g7"), ("前兵三进一".into(), "3++1".into()));
    assert_eq!(both(&p, "g5f5"), ("后兵三平四".into(), "3-.4".into()));
    // The older WXF table's 77.6 (the middle of three on file 7) is still read: no seventh
    // soldier on file 7 fits it by number.
    assert_eq!(parse_move(&p, "77.6", Notation::Wxf), Ok(iccs(&p, "c6d6")));
    assert!(matches!(
        parse_move(&p, "前兵进一", Notation::Chinese),
        Err(NotationError::Ambiguous { .. })
    ));
}

fn setup_with(red_at: &[(usize, Piece)]) -> crate::setup::JieqiSetup {
    // Starts from the standard array and swaps pieces so that slot i holds the given piece.
    let mut red = crate::setup::JIEQI_PIECES;
    for &(slot, piece) in red_at {
        let other = red
            .iter()
            .enumerate()
            .position(|(i, &p)| p == piece && !red_at.iter().any(|&(s, _)| s == i))
            .expect("a piece to swap with");
        red.swap(slot, other);
    }
    crate::setup::JieqiSetup {
        red,
        black: crate::setup::JIEQI_PIECES,
    }
}

#[test]
fn seed_001_example_1_a_face_down_horse_revealed_as_a_cannon() {
    // 「马二进三炮」: the face-down piece on h0 (Red's horse square, file 2) goes to g2 as a
    // horse and is a cannon.
    let p = Position::jieqi_start();
    let mv = parse_move(&p, "马二进三炮", Notation::Chinese).expect("reads");
    assert_eq!(
        (mv.from.name(), mv.to.name(), mv.reveal),
        ("h0".into(), "g2".into(), Some(Piece::Cannon))
    );
    assert_eq!(parse_move(&p, "馬二進三炮", Notation::Chinese), Ok(mv));
    assert_eq!(parse_move(&p, "H2+3C", Notation::Wxf), Ok(mv));
    assert_eq!(parse_move(&p, "h0g2C", Notation::Iccs), Ok(mv));
    assert_eq!(
        format_move(&p, mv, Notation::Chinese, Script::Simplified),
        "马二进三炮"
    );
    assert_eq!(
        format_move(&p, mv, Notation::Wxf, Script::Simplified),
        "H2+3C"
    );
    assert_eq!(
        format_move(&p, mv, Notation::Iccs, Script::Simplified),
        "h0g2C"
    );
    // Played from a set-up with a cannon on h0 (slot 6) the suffix is checked…
    let setup = setup_with(&[(6, Piece::Cannon)]);
    let known = Position::jieqi_from_setup(&setup);
    assert_eq!(parse_move(&known, "马二进三炮", Notation::Chinese), Ok(mv));
    assert_eq!(parse_move(&known, "马二进三", Notation::Chinese), Ok(mv));
    // …and a wrong one is refused.
    assert!(matches!(
        parse_move(&known, "马二进三车", Notation::Chinese),
        Err(NotationError::Move(MoveError::WrongReveal { .. }))
    ));
    // Once revealed the piece moves as a cannon: g2 → g9 is no horse move.
    let mut after = known.clone();
    after.play(mv).expect("legal");
    assert_eq!(
        after.piece_at(mv.to),
        Some((Side::Red, Piece::Cannon, false))
    );
    // Without a set-up and without a suffix the record cannot go on.
    let err = Record::replay(Position::jieqi_start(), ["马二进三"], Notation::Chinese);
    assert!(matches!(
        err,
        Err(RecordError {
            ply: 1,
            kind: NotationError::Move(MoveError::MissingReveal(_))
        })
    ));
}

#[test]
fn seed_001_example_2_the_middle_of_three_pawns_on_two_files() {
    // Six Red pawns, three on file 5 (e3 e5 e7) and three on file 9 (a3 a5 a7); the middle
    // one on file 5 advances: 「中兵五进一」 or 「二兵五进一」.
    let p = pos("x3k4/9/P3P4/9/P3P4/9/P3P4/9/9/3K5 w");
    assert_eq!(p.variant(), Variant::Jieqi);
    assert_eq!(both(&p, "e5e6").0, "中兵五进一");
    assert_eq!(
        parse_move(&p, "二兵五进一", Notation::Chinese),
        Ok(iccs(&p, "e5e6"))
    );
    assert_eq!(
        parse_move(&p, "中兵五進一", Notation::Chinese),
        Ok(iccs(&p, "e5e6"))
    );
}

#[test]
fn seed_001_example_3_four_pawns_on_one_file() {
    // Four pawns on the centre file only; the second from the rear advances: 「三兵五进一」,
    // shortened 「三兵进一」.
    let p = pos("x3k4/9/4P4/4P4/9/4P4/4P4/9/9/5K3 w");
    assert_eq!(both(&p, "e4e5").0, "三兵进一");
    assert_eq!(
        parse_move(&p, "三兵五进一", Notation::Chinese),
        Ok(iccs(&p, "e4e5"))
    );
}

#[test]
fn seed_001_example_4_four_chariots_on_two_files() {
    // Face-down chariots on a0 and i0, face-up chariots on a4 and i4: the rear one on file 9
    // (a0) goes to file 8 and is a cannon: 「后车九平八炮」 or 「二车九平八炮」.
    let p = pos("3k5/9/9/9/9/R7R/9/9/9/X3K3X w");
    let mv = parse_move(&p, "后车九平八炮", Notation::Chinese).expect("reads");
    assert_eq!(
        (mv.from.name(), mv.to.name(), mv.reveal),
        ("a0".into(), "b0".into(), Some(Piece::Cannon))
    );
    assert_eq!(parse_move(&p, "二车九平八炮", Notation::Chinese), Ok(mv));
    assert_eq!(parse_move(&p, "後車九平八炮", Notation::Chinese), Ok(mv));
    assert_eq!(
        format_move(&p, mv, Notation::Chinese, Script::Simplified),
        "后车九平八炮"
    );
    assert_eq!(
        format_move(&p, mv, Notation::Chinese, Script::Traditional),
        "後車九平八炮"
    );
    let wxf = format_move(&p, mv, Notation::Wxf, Script::Simplified);
    assert_eq!(wxf, "R-9.8C");
    assert_eq!(parse_move(&p, &wxf, Notation::Wxf), Ok(mv));
}

#[test]
fn jieqi_pieces_move_as_their_square_then_as_themselves() {
    // Red's face-down piece on d0 moves as an advisor (only to e1).
    let p = Position::jieqi_start();
    let from_d0: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from.name() == "d0")
        .map(|m| m.to.name())
        .collect();
    assert_eq!(from_d0, ["e1"]);
    // A revealed advisor leaves the palace; a revealed elephant crosses the river.
    let p = pos("3k5/9/9/9/9/2B6/9/9/4A4/4K4 w");
    assert_eq!(p.variant(), Variant::Xiangqi);
    assert!(!p
        .legal_moves()
        .iter()
        .any(|m| m.from.name() == "c4" && m.to.rank() > 4));
    let p = pos("3k4x/9/9/9/9/2B6/9/9/4A4/4K4 w");
    assert_eq!(p.variant(), Variant::Jieqi);
    let moves: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| format!("{}{}", m.from, m.to))
        .collect();
    assert!(moves.contains(&"c4e6".to_string()) && moves.contains(&"c4a6".to_string()));
    assert!(moves.contains(&"e1d2".to_string()) && moves.contains(&"e1f2".to_string()));
    // In Jieqi a free advisor gives check.
    let p = pos("4k4/3A5/9/9/9/9/9/9/9/3K4X b");
    assert!(p.in_check());
    // A face-down piece must stand on a starting square.
    assert_eq!(
        Position::from_fen("3k5/9/9/9/9/9/9/9/4X4/4K4 w"),
        Err(FenError::HiddenSquare("e1".into()))
    );
}

#[test]
fn xiangqi_rules_hold_in_hand_checked_positions() {
    // Horse leg: a horse on b0 with a piece on b1 cannot jump to a2/c2.
    let p = pos("3k5/9/9/9/9/9/9/9/1P7/1N2K4 w");
    assert!(!p
        .legal_moves()
        .iter()
        .any(|m| m.from.name() == "b0" && m.to.rank() == 2));
    // Elephant eye: c0 with d1 blocked cannot go to e2.
    let p = pos("3k5/9/9/9/9/9/9/9/3P5/2B1K4 w");
    assert!(!p
        .legal_moves()
        .iter()
        .any(|m| m.from.name() == "c0" && m.to.name() == "e2"));
    // Flying general: the general may not step onto the enemy general's open file.
    let p = pos("3k5/9/9/9/9/9/9/9/9/4K4 w");
    assert!(!p.legal_moves().iter().any(|m| m.to.name() == "d0"));
    // A pawn before the river moves only forward; after it, sideways too.
    let p = pos("3k5/9/9/9/4P4/9/2P6/9/9/4K4 w");
    let pawn = |sq: &str| -> usize {
        p.legal_moves()
            .iter()
            .filter(|m| m.from.name() == sq)
            .count()
    };
    assert_eq!((pawn("c3"), pawn("e5")), (1, 3));
    // Cannon screens: capture only over exactly one piece.
    let p = pos("4k4/9/9/4r4/9/4p4/9/9/4C4/3K5 w");
    let c: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from.name() == "e1")
        .map(|m| m.to.name())
        .collect();
    assert!(c.contains(&"e6".to_string()) && !c.contains(&"e4".to_string()));
    // Checkmate: no legal move is a loss.
    let mate = pos("3k1r3/9/9/9/4r4/9/9/9/9/4K4 w");
    assert_eq!(mate.status(), Status::Checkmated);
    let stale = pos("3k1r3/9/9/9/9/9/9/9/r8/4K4 w");
    assert_eq!(stale.status(), Status::Stalemated);
}

mod properties {
    use super::*;
    use proptest::prelude::*;
    use rand_core::SeedableRng;

    /// A random legal game: each choice picks one of the legal moves.
    fn game(start: &Position, choices: &[u16]) -> Vec<Move> {
        let mut pos = start.clone();
        let mut out = Vec::new();
        for &c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[usize::from(c) % moves.len()];
            pos.make(mv);
            out.push(mv);
        }
        out
    }

    fn check_round_trip(start: &Position, moves: &[Move]) -> Result<(), TestCaseError> {
        // Every printed move reads back to the same move in its position.
        let mut pos = start.clone();
        for &mv in moves {
            for notation in [Notation::Iccs, Notation::Chinese, Notation::Wxf] {
                for script in [Script::Simplified, Script::Traditional] {
                    let text = format_move(&pos, mv, notation, script);
                    prop_assert_eq!(
                        parse_move(&pos, &text, notation),
                        Ok(mv),
                        "{} in {}",
                        text,
                        pos.to_fen()
                    );
                }
            }
            pos.make(mv);
        }
        // ICCS → Chinese → WXF → ICCS through whole-record replays.
        let record = Record {
            start: start.clone(),
            moves: moves.to_vec(),
        };
        let iccs = record.format(Notation::Iccs, Script::Simplified);
        let r1 = Record::replay(
            start.clone(),
            iccs.iter().map(String::as_str),
            Notation::Iccs,
        )
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let zh = r1.format(Notation::Chinese, Script::Simplified);
        let r2 = Record::replay(
            start.clone(),
            zh.iter().map(String::as_str),
            Notation::Chinese,
        )
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let wxf = r2.format(Notation::Wxf, Script::Simplified);
        let r3 = Record::replay(start.clone(), wxf.iter().map(String::as_str), Notation::Wxf)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(r3.format(Notation::Iccs, Script::Simplified), iccs);
        prop_assert_eq!(&r3.moves, &record.moves);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_xiangqi_games_survive_every_notation(choices in prop::collection::vec(any::<u16>(), 0..160)) {
            let start = Position::xiangqi_start();
            let moves = game(&start, &choices);
            check_round_trip(&start, &moves)?;
        }

        #[test]
        fn random_jieqi_games_survive_every_notation(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 0..160)) {
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            let crate::setup::Setup::Jieqi(setup) = crate::setup::Setup::generate(crate::setup::Game::Jieqi, &mut rng) else {
                unreachable!("asked for Jieqi")
            };
            let start = Position::jieqi_from_setup(&setup);
            let moves = game(&start, &choices);
            check_round_trip(&start, &moves)?;
            // The reveals are those of the set-up, and a Jieqi start without identities
            // replays the record from its reveal suffixes alone.
            let zh = Record { start: start.clone(), moves: moves.clone() }.format(Notation::Chinese, Script::Simplified);
            let blind = Record::replay(Position::jieqi_start(), zh.iter().map(String::as_str), Notation::Chinese)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(blind.moves, moves);
        }
    }
}

mod banqi_rules {
    use super::banqi::*;
    use crate::model::Side;
    use crate::setup::{BanqiSetup, ColouredPiece, Piece, Setup};

    fn cp(c: char) -> ColouredPiece {
        let piece = Piece::from_letter(c).expect("letter");
        let side = if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        };
        ColouredPiece { side, piece }
    }

    /// A set-up from four rows of eight letters.
    fn setup(rows: &str) -> BanqiSetup {
        let Ok(Setup::Banqi(s)) = Setup::parse_canonical(&format!("banqi:{rows}")) else {
            panic!("bad test set-up {rows}");
        };
        s
    }

    const ROWS: &str = "KAAEECCP/PPPPHHRR/kaaeeccp/pppphhrr";

    #[test]
    fn the_first_flip_gives_its_colour_to_the_flipper() {
        let mut b = Banqi::from_setup(&setup(ROWS));
        assert_eq!(b.turn(), None);
        let mv = b.play_text("c3").expect("flip");
        assert_eq!(
            mv,
            BanqiMove::Flip {
                at: BanqiSquare::parse("c3").expect("sq"),
                piece: Some(cp('a'))
            }
        );
        // Black flipped first, so Red moves next.
        assert_eq!(b.turn(), Some(Side::Red));
        // A flip that contradicts the set-up is refused.
        assert!(matches!(
            b.play_text("a1=k"),
            Err(BanqiError::Reveal { .. })
        ));
        assert_eq!(
            b.play_text("a1=K").map(|m| b.format_move(m)),
            Ok("a1=K".into())
        );
    }

    #[test]
    fn captures_go_by_rank_and_the_cannon_jumps() {
        let mut b = Banqi::from_setup(&setup(ROWS));
        // Black flips a3 (general); Red flips a2 (pawn) next to it: the pawn may take the
        // general, the general may not take the pawn.
        b.play_text("a3").expect("flip");
        b.play_text("a2").expect("flip");
        assert_eq!(b.turn(), Some(Side::Black));
        assert!(matches!(b.play_text("a3xa2"), Err(BanqiError::Illegal(_))));
        b.play_text("b3").expect("black flips an advisor");
        assert!(b
            .legal_moves()
            .contains(&b.parse_move("a2xa3").expect("reads")));
        b.play_text("a2xa3").expect("pawn takes general");
        assert_eq!(
            b.cell(BanqiSquare::parse("a3").expect("sq")),
            Cell::FaceUp(cp('P'))
        );
        // Cannon: f1 (Red cannon) over f2 (face down) onto f3 once f3 is a face-up enemy.
        b.play_text("f3").expect("black flips a cannon on f3");
        b.play_text("f1").expect("red flips its cannon");
        b.play_text("b3-b4x").unwrap_err();
        b.play_text("e3").expect("black flips an elephant");
        assert!(b
            .legal_moves()
            .contains(&b.parse_move("f1xf3").expect("reads")));
        // …but not next door: a cannon captures only by jumping.
        assert!(!b.legal_moves().contains(&BanqiMove::Step {
            from: BanqiSquare::parse("f1").expect("sq"),
            to: BanqiSquare::parse("g1").expect("sq"),
        }));
        assert_eq!(
            b.play_text("f1xf3")
                .map(|m| matches!(m, BanqiMove::Step { .. })),
            Ok(true)
        );
        assert_eq!(
            b.cell(BanqiSquare::parse("f3").expect("sq")),
            Cell::FaceUp(cp('C'))
        );
        assert!(outranks(Piece::Horse, Piece::Cannon) && !outranks(Piece::Horse, Piece::Chariot));
        assert!(outranks(Piece::Advisor, Piece::Advisor));
    }

    #[test]
    fn the_25_move_count_runs_once_all_are_face_up() {
        // Everything flipped, then the two generals wander without captures.
        let mut b = Banqi::from_setup(&setup(ROWS));
        let mut text = String::new();
        // Flip all 32 in order a1…h4 (colours alternate by who flips).
        for i in 0..32u8 {
            let sq = BanqiSquare::new(i % 8, i / 8).expect("sq");
            text.push_str(&sq.name());
            text.push(' ');
        }
        let aid = desk_aid(Some(&setup(ROWS)), &text).expect("flips replay");
        assert!(aid.all_face_up);
        assert_eq!((aid.quiet_plies, aid.count), (0, 0));
        for t in text.split_whitespace() {
            b.play_text(t).expect("flip");
        }
        // No empty square yet: only captures are possible; after a capture there is room.
        assert_eq!(b.status(), BanqiStatus::Ongoing);
        assert!(b.desk_aid().all_face_up);
    }

    #[test]
    fn the_desk_aid_counts_quiet_moves_and_chases() {
        // A Red chariot chases a Black horse along rows 1–3; nothing else is on the board
        // but a Red pawn and a Black pawn far apart (all face up, so the count runs).
        let mut cells = [Cell::Empty; 32];
        let at = |s: &str| BanqiSquare::parse(s).expect("sq");
        cells[usize::from(at("b1").row() * 8 + at("b1").column())] = Cell::FaceUp(cp('R'));
        cells[usize::from(at("d1").row() * 8 + at("d1").column())] = Cell::FaceUp(cp('h'));
        cells[usize::from(at("a4").row() * 8 + at("a4").column())] = Cell::FaceUp(cp('P'));
        cells[usize::from(at("e4").row() * 8 + at("e4").column())] = Cell::FaceUp(cp('p'));
        let mut b = Banqi::with_cells(cells, Side::Red);
        let turns = [
            "b1-c1", "d1-e1", "c1-d1", "e1-f1", "d1-e1", "f1-g1", "e1-f1", "g1-h1", "f1-g1",
            "h1-h2", "g1-g2", "h2-h3",
        ];
        for (i, t) in turns.iter().enumerate() {
            b.play_text(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            let aid = b.desk_aid();
            assert_eq!(aid.quiet_plies as usize, i + 1);
            assert_eq!(aid.chase[0] as usize, i / 2 + 1, "after {t}");
        }
        assert!(b.desk_aid().fouls.is_empty());
        b.play_text("g2-g3").expect("the seventh chase");
        let aid = b.desk_aid();
        assert_eq!((aid.chase, aid.count, aid.quiet_plies), ([7, 0], 7, 13));
        assert_eq!(aid.fouls, vec![(13, Side::Red)]);
        // The horse turning on a pawn is no chase for Red any more; a capture resets the count.
        b.play_text("h3-h4").expect("horse");
        b.play_text("a4-b4")
            .expect("red pawn steps aside, ending the chase");
        assert_eq!(b.desk_aid().chase[0], 0);
        b.play_text("h4-g4").expect("horse");
        b.play_text("b4-c4").expect("pawn");
        b.play_text("g4-f4").expect("horse");
        b.play_text("g3-f3").expect("chariot");
        b.play_text("e4xf4").unwrap_err();
        // Fifty quiet half-moves make a draw.
        let mut c2 = [Cell::Empty; 32];
        c2[0] = Cell::FaceUp(cp('K'));
        c2[31] = Cell::FaceUp(cp('k'));
        let mut d = Banqi::with_cells(c2, Side::Red);
        let shuttle = ["a1-b1", "h4-g4", "b1-a1", "g4-h4"];
        for i in 0..50 {
            assert_eq!(d.status(), BanqiStatus::Ongoing);
            d.play_text(shuttle[i % 4]).expect("shuttle");
        }
        assert_eq!(d.desk_aid().count, 25);
        assert_eq!(d.status(), BanqiStatus::Draw);
    }

    #[test]
    fn a_flip_without_its_piece_needs_a_set_up() {
        let err = desk_aid(None, "a1 b1").expect_err("no identities");
        assert_eq!(err.ply, 1);
        let aid = desk_aid(None, "1. a1=K b1=k").expect("named flips");
        assert_eq!(aid.to_move, Some(Side::Red));
        let err = desk_aid(None, "a1=K b1=K c1=K").expect_err("one Red general only");
        assert_eq!(err.ply, 2);
    }
}

#[test]
fn a_record_converts_between_notations_and_stops_at_the_first_bad_ply() {
    let start = Position::xiangqi_start();
    let text = "1. h2e2 h9g7\n2. h0g2 i9h9 3. i0h0";
    let (lines, err) = record::convert(
        &start,
        text,
        Notation::Iccs,
        Notation::Chinese,
        Script::Simplified,
    );
    assert_eq!(
        lines,
        ["炮二平五", "马8进7", "马二进三", "车9平8", "车一平二"]
    );
    assert_eq!(err, None);
    let (lines, _) = record::convert(
        &start,
        &lines.join(" "),
        Notation::Chinese,
        Notation::Wxf,
        Script::Simplified,
    );
    assert_eq!(lines, ["C2.5", "H8+7", "H2+3", "R9.8", "R1.2"]);
    let (lines, err) = record::convert(
        &start,
        "C2.5 H8+7 C5+4 X9",
        Notation::Wxf,
        Notation::Iccs,
        Script::Simplified,
    );
    assert_eq!(lines, ["h2e2", "h9g7", "e2e6"]);
    let err = err.expect("a bad fourth ply");
    assert_eq!(err.ply, 4);
    assert_eq!(err.to_string(), "ply 4: cannot read \"X9\"");
    let (_, err) = record::convert(
        &start,
        "C2.5 C2.5 C2.5",
        Notation::Wxf,
        Notation::Iccs,
        Script::Simplified,
    );
    assert_eq!(err.map(|e| e.ply), Some(3));
    let (lines, _) = record::convert(
        &start,
        "h2e2",
        Notation::Iccs,
        Notation::Chinese,
        Script::Traditional,
    );
    assert_eq!(lines, ["炮二平五"]);
}

#[test]
fn a_blind_jieqi_record_cannot_reveal_more_pieces_than_the_set_has() {
    let start = Position::jieqi_start();
    let ok = Record::replay(
        start.clone(),
        ["a0a1R", "a9a8P", "i0i1R", "i9i8P"],
        Notation::Iccs,
    );
    assert!(ok.is_ok());
    let err = Record::replay(
        start,
        ["a0a1R", "a9a8P", "i0i1R", "i9i8P", "b0c2R"],
        Notation::Iccs,
    )
    .expect_err("a third Red chariot");
    assert_eq!(err.ply, 5);
    assert!(matches!(
        err.kind,
        NotationError::Move(MoveError::WrongReveal { .. })
    ));
}

#[test]
fn a_mid_game_jieqi_fen_takes_its_identities_from_the_set_up() {
    let setup = setup_with(&[(6, Piece::Cannon)]);
    let mut p = pos("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1");
    assert_eq!(p.hidden_identity(Square::parse("h0").expect("sq")), None);
    p.attach_setup(&setup);
    assert_eq!(
        p.hidden_identity(Square::parse("h0").expect("sq")),
        Some(Piece::Cannon)
    );
    assert_eq!(p, Position::jieqi_from_setup(&setup));
    let mv = parse_move(&p, "h0g2", Notation::Iccs).expect("legal");
    assert_eq!(mv.reveal, Some(Piece::Cannon));
    assert_eq!(
        format_move(&p, mv, Notation::Chinese, Script::Simplified),
        "马二进三炮"
    );
}

#[test]
fn fens_with_huge_gaps_or_junk_fields_are_errors_not_panics() {
    assert!(Position::from_fen("99999999999999999999999999999999/9/9/9/9/9/9/9/9/4K4 w").is_err());
    assert!(Position::from_fen("").is_err());
    assert!(Position::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1"
    )
    .is_err());
    assert!(
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR g")
            .is_err()
    );
}

mod banqi_properties {
    use super::banqi::*;
    use proptest::prelude::*;
    use rand_core::SeedableRng;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Random Banqi games from random set-ups: every printed turn reads back to itself,
        /// the record replays through the desk aid (also blind, from the flips' letters),
        /// and the count never runs while a piece is face down.
        #[test]
        fn random_banqi_games_replay_from_their_record(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 0..300)) {
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            let crate::setup::Setup::Banqi(setup) = crate::setup::Setup::generate(crate::setup::Game::Banqi, &mut rng) else {
                unreachable!("asked for Banqi")
            };
            let mut game = Banqi::from_setup(&setup);
            let mut record = Vec::new();
            for c in choices {
                if game.status() != BanqiStatus::Ongoing {
                    break;
                }
                let moves = game.legal_moves();
                let mv = moves[usize::from(c) % moves.len()];
                let text = game.format_move(mv);
                prop_assert_eq!(game.parse_move(&text).map(|m| match (m, mv) {
                    (BanqiMove::Flip { at, piece: None }, BanqiMove::Flip { at: a2, .. }) => at == a2,
                    (m, mv) => m == mv,
                }), Ok(true));
                let played = game.play(mv).map_err(|e| TestCaseError::fail(e.to_string()))?;
                record.push(game_text(played));
                let aid = game.desk_aid();
                prop_assert!(aid.all_face_up || aid.count == 0);
                prop_assert!(aid.chase.iter().all(|&n| n <= 300));
            }
            let text = record.join(" ");
            let with_setup = desk_aid(Some(&setup), &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let blind = desk_aid(None, &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&with_setup, &game.desk_aid());
            prop_assert_eq!(blind, with_setup);
        }
    }

    /// A played turn as a record token (flips with their piece).
    fn game_text(mv: BanqiMove) -> String {
        match mv {
            BanqiMove::Flip { at, piece: Some(p) } => format!("{}={}", at.name(), p.letter()),
            BanqiMove::Flip { at, piece: None } => at.name(),
            BanqiMove::Step { from, to } => format!("{}-{}", from.name(), to.name()),
        }
    }
}

/// One record, three notations: WXF → ICCS → Chinese → WXF gives the WXF back.
fn convert_round_trip(fen: &str, wxf: &str, iccs_moves: &str, zh: &str) {
    let start = pos(fen);
    let convert = |text: &str, from: Notation, to: Notation| {
        let (lines, error) = record::convert(&start, text, from, to, Script::Simplified);
        assert_eq!(error, None, "{text} ({from:?} → {to:?})");
        lines.join(" ")
    };
    assert_eq!(convert(wxf, Notation::Wxf, Notation::Iccs), iccs_moves);
    assert_eq!(convert(iccs_moves, Notation::Iccs, Notation::Chinese), zh);
    assert_eq!(convert(zh, Notation::Chinese, Notation::Wxf), wxf);
    assert_eq!(convert(iccs_moves, Notation::Iccs, Notation::Wxf), wxf);
}

#[test]
fn record_convert_round_trips_numbered_soldier_stacks() {
    // Xiangqi: Red soldiers c5 c6 c7 (three on file 7), d7, b8 join the file one by one: the
    // stack holds 3, then 4, then 5 soldiers, then 4 and 3 again as they leave it.
    convert_round_trip(
        "4k3n/1P7/2PP5/2P6/2P6/9/9/9/9/3K5 w",
        "17+1 H9+8 P6.7 H8-9 17+1 H9+8 P8.7 H8-9 57.8 H9+8 37.6 H8-9 27.8",
        "c7c8 i9h7 d7c7 h7i9 c8c9 i9h7 b8c8 h7i9 c5b5 i9h7 c7d7 h7i9 c8b8",
        "前兵进一 马9进8 兵六平七 马8退9 前兵进一 马9进8 兵八平七 马8退9 五兵平八 马9进8 \
         三兵平六 马8退9 中兵平八",
    );
    // The issue's own forms, with `=`, are read.
    let start = pos("4k3n/1P7/2PP5/2P6/2P6/9/9/9/9/3K5 w");
    let (lines, error) = record::convert(
        &start,
        "17=8 H9+8",
        Notation::Wxf,
        Notation::Iccs,
        Script::Simplified,
    );
    assert_eq!((lines.join(" "), error), ("c7b7 i9h7".to_string(), None));
    // Jieqi: the same with a face-down piece on c3 (a soldier's square: it moves as a
    // soldier and counts in the stack), so the file holds 4, 5, 6, 5, 4 and 3; the
    // face-down one moves last and turns out to be a chariot (file 8 holds two soldiers
    // by then, so the Chinese names the file too: 后兵七).
    convert_round_trip(
        "4k3n/1P7/2PP5/2P6/2P6/9/2X6/9/9/3K5 w",
        "17+1 H9+8 P6.7 H8-9 17+1 H9+8 P8.7 H8-9 57.8 H9+8 37.6 H8-9 27.8 H9+8 37+1R",
        "c7c8 i9h7 d7c7 h7i9 c8c9 i9h7 b8c8 h7i9 c5b5 i9h7 c7d7 h7i9 c8b8 i9h7 c3c4R",
        "前兵进一 马9进8 兵六平七 马8退9 前兵进一 马9进8 兵八平七 马8退9 五兵平八 马9进8 \
         三兵平六 马8退9 二兵平八 马9进8 后兵七进一车",
    );
}
