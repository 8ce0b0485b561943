//! TRF reader/writer against the shared fixtures, plus round-trip and no-panic properties.

mod common;
use arbiter_core::model::{
    Acceleration, Entrant, ForbiddenPairs, Points, ResultCode, RoundRecord, Scoring, Side,
    Tournament,
};
use arbiter_core::trf::{parse, write};
use common::normalized;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn fixtures() -> Option<PathBuf> {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/fixtures"
    ));
    if dir.is_dir() {
        Some(dir.to_path_buf())
    } else {
        panic!(
            "the shared fixtures are missing at {} (CI always has them)",
            dir.display()
        )
    }
}

/// Every `.trf` under the fixture folders, sorted.
fn fixture_files() -> Vec<PathBuf> {
    let Some(root) = fixtures() else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for sub in ["tiebreaks", "dutch/cases"] {
        let Ok(entries) = std::fs::read_dir(root.join(sub)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "trf") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("fixture is readable UTF-8")
}

#[test]
fn every_fixture_file_parses_and_survives_write_then_parse() {
    let files = fixture_files();
    for path in &files {
        let text = read(path);
        let t = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!t.entrants.is_empty(), "{}", path.display());
        let again = parse(&write(&t)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(again, t, "{}", path.display());
    }
    eprintln!("{} fixture files parsed and round-tripped", files.len());
}

#[test]
fn the_pairing_fixtures_read_as_their_readme_describes() {
    let Some(root) = fixtures() else { return };
    let t = parse(&read(&root.join("dutch/cases/t01-n0512-r04of09.trf"))).expect("parses");
    assert_eq!(t.entrants.len(), 512);
    assert_eq!(t.rounds_total, Some(9));
    assert_eq!(t.initial_colour, Some(Side::Black));
    assert_eq!(t.scoring, Scoring::one_half_zero());
    assert_eq!(t.rounds_played(), 3);
    let p1 = &t.entrants[0];
    assert_eq!(p1.rating, Some(2292));
    assert_eq!(
        p1.rounds[0],
        RoundRecord::game(257, Side::Black, ResultCode::Win)
    );
    // Points in the file equal the points recomputed from the completed rounds.
    for e in &t.entrants {
        assert_eq!(
            e.declared_points,
            Some(e.points_after(&t.scoring, 3)),
            "player {}",
            e.start_no
        );
    }
}

#[test]
fn the_tiebreak_fixtures_declare_two_one_zero_and_consistent_points() {
    let Some(root) = fixtures() else { return };
    let t = parse(&read(&root.join("tiebreaks/p07_n28_r9.trf"))).expect("parses");
    assert_eq!(t.scoring, Scoring::two_one_zero());
    assert_eq!(t.rounds_total, Some(9));
    for e in &t.entrants {
        assert_eq!(
            e.declared_points,
            Some(e.points(&t.scoring)),
            "player {}",
            e.start_no
        );
    }
}

fn text_field(max: usize) -> impl Strategy<Value = String> {
    // Latin letters, CJK and inner blanks; no blanks at either end (the reader trims them).
    let pattern = format!(
        "([A-Za-z\u{4e00}-\u{4e30}]([A-Za-z ,.\u{4e00}-\u{4e30}]{{0,{}}}[A-Za-z\u{4e00}-\u{4e30}])?)?",
        max - 2
    );
    proptest::string::string_regex(&pattern).expect("valid regex")
}

fn points(range: std::ops::RangeInclusive<i64>) -> impl Strategy<Value = Points> {
    range.prop_map(Points)
}

fn result_code() -> impl Strategy<Value = ResultCode> {
    prop::sample::select(
        "1=0WDL+-UFHZ "
            .chars()
            .filter_map(ResultCode::from_trf_letter)
            .collect::<Vec<_>>(),
    )
}

fn side() -> impl Strategy<Value = Option<Side>> {
    prop::option::of(prop::sample::select(vec![Side::Red, Side::Black]))
}

fn scoring() -> impl Strategy<Value = Scoring> {
    prop::collection::vec(points(-9..=999), 9).prop_map(|v| Scoring {
        win: v[0],
        draw: v[1],
        loss: v[2],
        forfeit_win: v[3],
        forfeit_loss: v[4],
        pairing_bye: v[5],
        full_bye: v[6],
        half_bye: v[7],
        zero_bye: v[8],
    })
}

prop_compose! {
    fn entrant(n: u32)(
        name in text_field(33),
        sex in prop::option::of(prop::sample::select(vec!['m', 'w'])),
        title in "[A-Z]{0,3}",
        rating in prop::option::of(0u32..=9999),
        federation in "[A-Z]{0,3}",
        fide_id in "[0-9]{0,11}",
        birth_date in "([0-9]{4}/[0-9]{2}/[0-9]{2})?",
        declared_points in points(-99..=999),
        declared_rank in prop::option::of(1u32..=9999),
        rounds in prop::collection::vec(
            (prop::option::of(1..=n.max(1)), side(), result_code()),
            0..7,
        ),
    ) -> Entrant {
        Entrant {
            start_no: 0,
            name, sex, title, rating, federation, fide_id, birth_date,
            declared_points: Some(declared_points),
            declared_rank,
            club: None,
            rounds: rounds
                .into_iter()
                .map(|(opponent, colour, result)| RoundRecord { opponent, colour, result, fouls: 0 })
                .collect(),
        }
    }
}

type Parts = (
    String,
    Vec<(&'static str, String)>,
    Option<u32>,
    Option<Side>,
    Scoring,
    Vec<Entrant>,
    Vec<(Option<u32>, Option<u32>, Vec<u32>)>,
    Vec<Vec<Points>>,
    Vec<bool>,
);

fn assemble(n: u32, parts: Parts) -> Tournament {
    let (name, headers, rounds_total, initial_colour, scoring, mut entrants, forbidden, acc, keep) =
        parts;
    for (i, e) in entrants.iter_mut().enumerate() {
        e.start_no = i as u32 + 1;
        // A player is never his own opponent.
        for r in &mut e.rounds {
            if r.opponent == Some(e.start_no) {
                r.opponent = None;
            }
        }
    }
    make_games_consistent(&mut entrants);
    let forbidden = if n == 0 {
        Vec::new()
    } else {
        forbidden
            .into_iter()
            .map(|(first_round, last_round, entrants)| ForbiddenPairs {
                first_round,
                last_round,
                entrants,
            })
            .collect()
    };
    let accelerations = acc
        .into_iter()
        .zip(keep)
        .enumerate()
        .filter(|(_, (_, keep))| *keep)
        .map(|(i, (points, _))| Acceleration {
            start_no: i as u32 + 1,
            points,
        })
        .collect();
    Tournament {
        name,
        headers: headers
            .into_iter()
            .map(|(c, t)| (c.to_string(), t))
            .collect(),
        rounds_total,
        initial_colour,
        scoring,
        entrants,
        forbidden,
        accelerations,
    }
}

/// The other side of a game result.
fn mirror(code: ResultCode) -> ResultCode {
    use ResultCode::*;
    match code {
        Win => Loss,
        Loss => Win,
        UnratedWin => UnratedLoss,
        UnratedLoss => UnratedWin,
        ForfeitWin => ForfeitLoss,
        ForfeitLoss => ForfeitWin,
        other => other,
    }
}

/// Turns random round records into a history a valid file can hold (the reader rejects
/// contradicting lines): each game is told the same way by both players (the first one's
/// record decides), a record whose opponent is taken becomes a bye, byes have no opponent and
/// games no bye code, and a round has at most one pairing-allocated bye.
fn make_games_consistent(entrants: &mut [Entrant]) {
    let rounds = entrants.iter().map(|e| e.rounds.len()).max().unwrap_or(0);
    let n = entrants.len();
    for round in 0..rounds {
        let mut settled = vec![false; n];
        let mut pab = false;
        for a in 0..n {
            let Some(mut mine) = entrants[a].rounds.get(round).copied() else {
                continue;
            };
            if settled[a] {
                continue;
            }
            settled[a] = true;
            let partner = mine
                .opponent
                .and_then(|o| o.checked_sub(1))
                .map(|o| o as usize)
                .filter(|&b| b < n && b != a && !settled[b]);
            match partner {
                Some(b) => {
                    if mine.result.is_bye() {
                        mine.result = ResultCode::Win;
                    }
                    let theirs = RoundRecord {
                        opponent: Some(entrants[a].start_no),
                        colour: mine.colour.map(Side::opposite),
                        result: mirror(mine.result),
                        fouls: 0,
                    };
                    let rounds_b = &mut entrants[b].rounds;
                    if rounds_b.len() <= round {
                        rounds_b.resize(round, RoundRecord::bye(ResultCode::Pending));
                        rounds_b.push(theirs);
                    } else {
                        rounds_b[round] = theirs;
                    }
                    settled[b] = true;
                }
                None => {
                    mine.opponent = None;
                    if mine.result.is_played() {
                        mine.result = ResultCode::ZeroBye;
                    }
                    if mine.result == ResultCode::PairingBye {
                        if pab {
                            mine.result = ResultCode::ZeroBye;
                        }
                        pab = true;
                    }
                }
            }
            entrants[a].rounds[round] = mine;
        }
    }
}

fn tournament() -> impl Strategy<Value = Tournament> {
    (0u32..10).prop_flat_map(|n| {
        let headers = prop::collection::vec(
            (
                prop::sample::select(vec!["022", "042", "092", "102", "192", "202", "###", "032"]),
                text_field(40),
            ),
            0..4,
        );
        let forbidden = prop::collection::vec(
            (
                prop::option::of(1u32..=999),
                prop::option::of(1u32..=999),
                prop::collection::vec(1..=n.max(1), 0..4),
            ),
            0..3,
        );
        let accelerations =
            prop::collection::vec(prop::collection::vec(points(0..=999), 0..5), n as usize);
        (
            text_field(60),
            headers,
            prop::option::of(0u32..30),
            side(),
            scoring(),
            prop::collection::vec(entrant(n), n as usize),
            forbidden,
            accelerations,
            prop::collection::vec(any::<bool>(), n as usize),
        )
            .prop_map(move |parts| assemble(n, parts))
    })
}

fn cases() -> u32 {
    std::env::var("TRF_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn writing_then_parsing_gives_back_the_tournament(t in tournament()) {
        let text = write(&t);
        let back = parse(&text);
        prop_assert_eq!(back, Ok(t), "{}", text);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = parse(&text) {
            prop_assert!(e.line >= 1 && e.column >= 1);
        }
    }

    #[test]
    fn random_trf_shaped_text_never_panics(
        text in "((001|012|142|152|162|XXR|XXC|XXS|XXZ|XXP|XXA|240|250|260|BBW|BBU|###)[ 0-9a-zA-Z=+.\\-\u{4e00}]{0,120}\r?\n){0,8}"
    ) {
        match parse(&text) {
            Ok(t) => {
                // Whatever was read, writing it reads back the same.
                prop_assert_eq!(parse(&write(&t)), Ok(normalized(&t)));
            }
            Err(e) => prop_assert!(e.line >= 1 && e.column >= 1),
        }
    }

    #[test]
    fn mutated_fixture_files_never_panic(
        file in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<char>()), 1..6),
    ) {
        let files = fixture_files();
        if files.is_empty() {
            return Ok(());
        }
        let mut chars: Vec<char> = read(&files[file.index(files.len())]).chars().collect();
        for (at, c) in edits {
            let i = at.index(chars.len());
            chars[i] = c;
        }
        let text: String = chars.into_iter().collect();
        match parse(&text) {
            Ok(t) => prop_assert_eq!(parse(&write(&t)), Ok(normalized(&t))),
            Err(e) => {
                prop_assert!(e.line >= 1 && e.column >= 1);
                let prefix = format!("line {}, column {}: ", e.line, e.column);
                prop_assert!(e.to_string().starts_with(&prefix));
            }
        }
    }
}

#[test]
fn every_fixture_mutated_to_contradict_itself_is_rejected_where_it_breaks() {
    let files = fixture_files();
    let mut count = 0;
    for (i, path) in files.iter().enumerate() {
        let text = read(path);
        let list = common::trf_mutations::mutations(&text, i as u64 + 1);
        let played = parse(&text).map(|t| t.rounds_played()).unwrap_or(0);
        if played == 0 {
            assert!(list.is_empty());
            continue;
        }
        assert!(
            list.len() >= 5,
            "{}: {} mutations",
            path.display(),
            list.len()
        );
        for m in list {
            let err = match parse(&m.text) {
                Ok(_) => panic!("{}: {} was accepted", path.display(), m.name),
                Err(e) => e,
            };
            assert_eq!(
                (err.line, err.column),
                m.at,
                "{}: {}: {err}",
                path.display(),
                m.name
            );
            assert!(err
                .to_string()
                .starts_with(&format!("line {}, column {}: ", m.at.0, m.at.1)));
            count += 1;
        }
    }
    assert!(files.is_empty() || count >= 500, "only {count} mutations");
    eprintln!("{count} mutations rejected at their line and column");
}

#[test]
fn every_fixture_is_a_fixed_point_of_write_after_one_normalisation() {
    // Export → import → export: what one write produces, a read and a second write give back
    // byte for byte.
    for path in fixture_files() {
        let t = parse(&read(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let once = write(&t);
        let twice = write(&parse(&once).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
        assert_eq!(once, twice, "{}", path.display());
    }
}
