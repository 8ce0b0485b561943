//! A whole top-8 knockout played through the public API: snake seeding, best-of-3 matches
//! (2–0, decided in game 3, tied → rapid → armageddon), the 3rd-place match and the final
//! ranking, with every match rebuilt from its stored games as the server does.

use arbiter_core::knockout::{
    snake_order, Bracket, GameOutcome, Match, MatchGame, MatchRules, MatchState, NextColours,
};

/// Plays a match with a scripted list of outcomes "for the higher seed": `W` the higher seed
/// wins, `L` it loses, `D` a draw. Lots always give Red to the higher seed.
fn play(higher: u32, lower: u32, script: &str) -> Match {
    let mut m = Match::new(higher, lower, MatchRules::default()).expect("valid match");
    for c in script.chars() {
        let (red, black) = m.next_colours(true).expect("a game is due");
        let higher_is_red = red == higher;
        let outcome = match (c, higher_is_red) {
            ('D', _) => GameOutcome::Draw,
            ('W', true) | ('L', false) => GameOutcome::RedWins,
            _ => GameOutcome::BlackWins,
        };
        m.record_game(MatchGame {
            red,
            black,
            outcome,
        })
        .expect("legal game");
    }
    m
}

#[test]
fn a_top_eight_knockout_from_seeding_to_final_ranking() {
    // Swiss ranking: entrant ids 11..=18 for seeds 1..=8.
    let swiss: Vec<u32> = (11..=18).collect();
    assert_eq!(snake_order(8).expect("valid"), vec![1, 8, 4, 5, 2, 7, 3, 6]);
    let mut bracket = Bracket::new(swiss.clone(), true).expect("valid bracket");

    // Quarter-finals: 11 v 18 won 2-0; 14 v 15 decided in game 3 for 15; 12 v 17 tied after
    // three games, a drawn rapid game, then an armageddon draw won by Black; 13 v 16 2-0.
    let qf = [
        play(11, 18, "WW"),
        play(14, 15, "WLL"),
        play(12, 17, "WLDDD"),
        play(13, 16, "WW"),
    ];
    assert_eq!(qf[0].games.len(), 2);
    assert_eq!(qf[1].result(), Some((15, 14)));
    // Armageddon: the lot gave Red to the higher seed (12), so the draw is a win for 17.
    assert_eq!(qf[2].games.len(), 5);
    assert_eq!(qf[2].result(), Some((17, 12)));
    for (index, m) in qf.iter().enumerate() {
        // The server stores the games and replays them; the replay gives the same state.
        let mut replay = Match::new(m.higher, m.lower, m.rules.clone()).expect("valid");
        for g in &m.games {
            replay.record_game(*g).expect("replays");
        }
        assert_eq!(replay.state(), m.state());
        let (winner, _) = m.result().expect("decided");
        bracket.record_winner(1, index, winner).expect("legal");
    }

    // Semi-finals: 11 v 15 (upper half), 17 v 13 (lower half, 13 is the better seed).
    let semis = bracket.round(2).expect("semis");
    assert_eq!((semis[0].top, semis[0].bottom), (Some(11), Some(15)));
    assert_eq!((semis[1].top, semis[1].bottom), (Some(17), Some(13)));
    let sf1 = play(11, 15, "DWD");
    let sf2 = play(13, 17, "LD");
    // 13 lost game 1 and drew game 2: 1-3 with one game left, still open.
    assert!(matches!(sf2.state(), MatchState::NextGame { .. }));
    let sf2 = play(13, 17, "LDL");
    bracket
        .record_winner(2, 0, sf1.result().expect("decided").0)
        .expect("legal");
    bracket
        .record_winner(2, 1, sf2.result().expect("decided").0)
        .expect("legal");

    // 3rd-place match between the semi-final losers, and the final.
    let third = bracket.third_place().expect("configured");
    assert_eq!((third.top, third.bottom), (Some(15), Some(13)));
    let bronze = play(13, 15, "WD");
    assert!(matches!(
        bronze.state(),
        MatchState::NextGame {
            colours: NextColours::Lot,
            ..
        }
    ));
    let bronze = play(13, 15, "WDD");
    bracket
        .record_third_place(bronze.result().expect("decided").0)
        .expect("legal");
    let final_match = play(11, 17, "WW");
    bracket
        .record_winner(3, 0, final_match.result().expect("decided").0)
        .expect("legal");

    assert_eq!(bracket.champion(), Some(11));
    // 1-2 final, 3-4 bronze match, 5-8 the quarter-final losers in Swiss order.
    assert_eq!(
        bracket.final_ranking(&swiss).expect("finished"),
        vec![11, 17, 13, 15, 12, 14, 16, 18]
    );
}

#[test]
fn a_playoff_between_section_champions_uses_the_same_match_mechanics() {
    let rules = MatchRules::best_of(1);
    let mut m = Match::playoff(501, 902, rules).expect("valid");
    let (red, black) = m.next_colours(false).expect("game 1");
    assert_eq!((red, black), (902, 501));
    m.record_game(MatchGame {
        red,
        black,
        outcome: GameOutcome::Draw,
    })
    .expect("legal");
    // Rapid: colours swapped, 501 Red wins.
    let (red, black) = m.next_colours(true).expect("rapid");
    assert_eq!(red, 501);
    m.record_game(MatchGame {
        red,
        black,
        outcome: GameOutcome::RedWins,
    })
    .expect("legal");
    assert_eq!(m.result(), Some((501, 902)));
}
