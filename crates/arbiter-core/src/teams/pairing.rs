//! Pairing teams (issue #41): a team section is paired by the individual engines on a model
//! whose entrants are the teams — match points as points, a match's result as the game's,
//! the team's board-1 colour as its colour — so Chinese Swiss (积分编排), the FIDE Dutch
//! engine and round robins pair teams with the same rules (no rematches, byes, forbidden
//! pairs) as players. A match's boards then alternate colours ([`super::roster::board_colours`]).

use super::{Team, TeamRound, TeamScoring};
use crate::model::{
    Entrant, ForbiddenPairs, ResultCode, RoundRecord, Scoring, Side, StartNo, Tournament,
};
use crate::pairing::{self, Board, PairingError, RoundPairing, System};

/// The teams as entrants (team `i` is starting number `i + 1`), their rounds as games on
/// match points: won, drawn or lost on game points, a match with every board forfeited a
/// forfeit, a match with a board still open pending, no match the team's bye (`U`, `F`, `H`:
/// [`TeamRound::bye`]) or else a zero-point absence.
pub fn as_tournament(
    teams: &[Team],
    rounds: &[Vec<TeamRound>],
    scoring: &TeamScoring,
) -> Tournament {
    let entrants = teams
        .iter()
        .enumerate()
        .map(|(i, team)| Entrant {
            start_no: i as StartNo + 1,
            name: team.name.clone(),
            rounds: rounds
                .get(i)
                .map(|list| list.iter().map(record).collect())
                .unwrap_or_default(),
            ..Entrant::default()
        })
        .collect();
    Tournament {
        scoring: Scoring::from_win_draw_loss(
            scoring.match_win,
            scoring.match_draw,
            scoring.match_loss,
        ),
        entrants,
        ..Tournament::default()
    }
}

fn record(r: &TeamRound) -> RoundRecord {
    let Some(opponent) = r.opponent else {
        return RoundRecord::bye(r.bye.unwrap_or(ResultCode::ZeroBye));
    };
    let colour = r.boards.first().and_then(|b| b.colour).unwrap_or(Side::Red);
    let result = if r.pending {
        ResultCode::Pending
    } else {
        match (r.game_points.cmp(&r.opponent_game_points), r.is_forfeited()) {
            (std::cmp::Ordering::Greater, true) => ResultCode::ForfeitWin,
            (_, true) => ResultCode::ForfeitLoss,
            (std::cmp::Ordering::Greater, false) => ResultCode::Win,
            (std::cmp::Ordering::Equal, false) => ResultCode::Draw,
            (std::cmp::Ordering::Less, false) => ResultCode::Loss,
        }
    };
    RoundRecord::game(opponent as StartNo + 1, colour, result)
}

/// Pairs the next round of a team section: matches as (team with Red on board 1, other
/// team) by team number (index + 1), and the team with the bye.
pub fn pair_teams(
    teams: &[Team],
    rounds: &[Vec<TeamRound>],
    scoring: &TeamScoring,
    system: &System,
) -> Result<RoundPairing, PairingError> {
    pair_teams_with(teams, rounds, scoring, system, &TeamPairingRules::default())
}

/// What a team round is paired under besides the history: the same rules as for
/// individuals, on teams.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeamPairingRules {
    /// Teams that must not meet, by team number (index + 1), in the rounds given.
    pub forbidden: Vec<ForbiddenPairs>,
    /// Teams left out of the round to pair (index, and their bye: `Z` absent, `H` or `F` a
    /// requested bye).
    pub absent: Vec<(usize, ResultCode)>,
    /// Announced number of rounds (the Dutch engine's last-round rules; a double round
    /// robin's length).
    pub rounds_total: Option<u32>,
}

/// [`pair_teams`] with forbidden pairs, absent teams and the number of rounds.
pub fn pair_teams_with(
    teams: &[Team],
    rounds: &[Vec<TeamRound>],
    scoring: &TeamScoring,
    system: &System,
    rules: &TeamPairingRules,
) -> Result<RoundPairing, PairingError> {
    let mut t = as_tournament(teams, rounds, scoring);
    t.forbidden = rules.forbidden.clone();
    t.rounds_total = rules.rounds_total;
    let played = t.rounds_played() as usize;
    for &(team, code) in &rules.absent {
        if let Some(e) = t.entrants.get_mut(team) {
            e.rounds
                .resize(played, RoundRecord::bye(ResultCode::ZeroBye));
            e.rounds.push(RoundRecord::bye(code));
        }
    }
    let paired = pairing::pair(&t, system)?;
    Ok(paired.pairing)
}

/// The boards of a match between line-ups `red_team` (Red on board 1) and `black_team`:
/// colours alternate board by board. A board where one side has no player is left out (the
/// caller records it as a forfeit).
pub fn match_boards(red_team: &[StartNo], black_team: &[StartNo]) -> Vec<Board> {
    red_team
        .iter()
        .zip(black_team)
        .enumerate()
        .map(|(b, (&home, &away))| {
            if b % 2 == 0 {
                Board {
                    red: home,
                    black: away,
                }
            } else {
                Board {
                    red: away,
                    black: home,
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::chinese::ChineseOptions;
    use crate::pairing::dutch::DutchOptions;
    use crate::teams::matches;
    use std::collections::{BTreeMap, BTreeSet};

    /// A played team section: the teams' model after the last round, and each round's
    /// pairing.
    struct Played {
        teams: Tournament,
        rounds: Vec<RoundPairing>,
    }

    /// Plays `rounds` rounds of `n` teams of `boards` boards (rosters of `boards` players)
    /// under `system` and `rules`, results from a fixed rule (the lower starting number wins,
    /// every seventh board drawn), the bye team's players given `U`. Checks no rematch (but
    /// in a double round robin), no second bye, and alternating board colours.
    fn play_with(
        n: usize,
        boards: u32,
        rounds: u32,
        system: &System,
        rules: &TeamPairingRules,
    ) -> Played {
        let teams: Vec<Team> = (0..n)
            .map(|i| Team {
                name: format!("T{}", i + 1),
                roster: (1..=boards).map(|b| i as u32 * boards + b).collect(),
            })
            .collect();
        let mut players = Tournament {
            entrants: (1..=n as u32 * boards)
                .map(|no| Entrant {
                    start_no: no,
                    name: format!("P{no}"),
                    ..Entrant::default()
                })
                .collect(),
            ..Tournament::default()
        };
        let scoring = TeamScoring::default();
        let mut met = BTreeSet::new();
        let mut byes = BTreeSet::new();
        let mut paired = Vec::new();
        let push = |players: &mut Tournament, no: StartNo, round: u32, rec: RoundRecord| {
            let e = &mut players.entrants[no as usize - 1];
            e.rounds
                .resize(round as usize - 1, RoundRecord::bye(ResultCode::ZeroBye));
            e.rounds.push(rec);
        };
        for round in 1..=rounds {
            let history = matches(&players, &teams, &scoring).expect("matches");
            let pairing =
                pair_teams_with(&teams, &history, &scoring, system, rules).expect("pairs");
            let absent = rules.absent.len();
            assert_eq!(pairing.boards.len(), (n - absent) / 2, "round {round}");
            if let Some(bye) = pairing.bye {
                assert!(
                    byes.insert(bye),
                    "team {bye} has a second bye in round {round}"
                );
                for &p in &teams[bye as usize - 1].roster {
                    push(
                        &mut players,
                        p,
                        round,
                        RoundRecord::bye(ResultCode::PairingBye),
                    );
                }
            }
            for m in &pairing.boards {
                let (a, b) = (m.red as usize - 1, m.black as usize - 1);
                let first_meeting = met.insert((a.min(b), a.max(b)));
                let double = matches!(system, System::RoundRobin { double: true });
                assert!(first_meeting || double, "rematch {a}–{b} in round {round}");
                let boards_of = match_boards(&teams[a].roster, &teams[b].roster);
                for (k, board) in boards_of.iter().enumerate() {
                    // Team a has Red on odd boards (1, 3, …) and Black on even ones.
                    assert_eq!(teams[a].roster.contains(&board.red), k % 2 == 0);
                    let result = if (board.red + round) % 7 == 0 {
                        (ResultCode::Draw, ResultCode::Draw)
                    } else if board.red < board.black {
                        (ResultCode::Win, ResultCode::Loss)
                    } else {
                        (ResultCode::Loss, ResultCode::Win)
                    };
                    push(
                        &mut players,
                        board.red,
                        round,
                        RoundRecord::game(board.black, Side::Red, result.0),
                    );
                    push(
                        &mut players,
                        board.black,
                        round,
                        RoundRecord::game(board.red, Side::Black, result.1),
                    );
                }
            }
            paired.push(pairing);
        }
        Played {
            teams: as_tournament(
                &teams,
                &matches(&players, &teams, &scoring).expect("matches"),
                &scoring,
            ),
            rounds: paired,
        }
    }

    fn play(n: usize, boards: u32, rounds: u32, system: &System) -> Tournament {
        play_with(n, boards, rounds, system, &TeamPairingRules::default()).teams
    }

    #[test]
    fn sixteen_teams_seven_rounds_chinese_swiss_without_rematches() {
        let t = play(16, 3, 7, &System::Chinese(ChineseOptions::default()));
        assert!(t.entrants.iter().all(|e| e.rounds.len() == 7));
        // Match points add up: 8 matches a round, 2 points each.
        let total: i64 = t
            .entrants
            .iter()
            .map(|e| e.points(&t.scoring).tenths())
            .sum();
        assert_eq!(total, 7 * 8 * 20);
    }

    #[test]
    fn teams_pair_by_the_dutch_engine_and_a_double_round_robin() {
        play(12, 4, 6, &System::Dutch(DutchOptions::default()));
        // A round robin (Berger tables): 8 teams, 7 rounds, everyone meets everyone once.
        play(8, 2, 7, &System::RoundRobin { double: false });
    }

    #[test]
    fn an_odd_number_of_teams_gives_one_team_the_bye_each_round_never_twice() {
        for system in [
            System::Chinese(ChineseOptions::default()),
            System::Dutch(DutchOptions::default()),
        ] {
            let played = play_with(9, 3, 7, &system, &TeamPairingRules::default());
            // Seven byes, seven different teams (play_with checks), each recorded as the
            // team's pairing-allocated bye worth a won match: 4 matches × 2 + 2 a round.
            assert!(played.rounds.iter().all(|r| r.bye.is_some()));
            let t = &played.teams;
            let byes = t
                .entrants
                .iter()
                .flat_map(|e| &e.rounds)
                .filter(|r| r.result == ResultCode::PairingBye)
                .count();
            assert_eq!(byes, 7);
            let total: i64 = t
                .entrants
                .iter()
                .map(|e| e.points(&t.scoring).tenths())
                .sum();
            assert_eq!(total, 7 * (4 * 20 + 20));
        }
    }

    #[test]
    fn a_team_bye_scores_a_won_match_and_its_players_bye_points() {
        let teams = vec![
            Team {
                name: "A".into(),
                roster: vec![1, 2],
            },
            Team {
                name: "B".into(),
                roster: vec![3, 4],
            },
        ];
        let mut players = Tournament {
            entrants: (1..=4)
                .map(|no| Entrant {
                    start_no: no,
                    ..Entrant::default()
                })
                .collect(),
            ..Tournament::default()
        };
        players.entrants[0].rounds = vec![RoundRecord::bye(ResultCode::PairingBye)];
        players.entrants[1].rounds = vec![RoundRecord::bye(ResultCode::PairingBye)];
        players.entrants[2].rounds = vec![RoundRecord::bye(ResultCode::HalfBye)];
        players.entrants[3].rounds = vec![RoundRecord::bye(ResultCode::HalfBye)];
        let scoring = TeamScoring::default();
        let rounds = matches(&players, &teams, &scoring).expect("matches");
        assert_eq!(rounds[0][0].bye, Some(ResultCode::PairingBye));
        assert_eq!(rounds[0][0].match_points, crate::model::Points::whole(2));
        assert_eq!(rounds[0][0].game_points, crate::model::Points::whole(2));
        assert_eq!(rounds[1][0].bye, Some(ResultCode::HalfBye));
        assert_eq!(rounds[1][0].match_points, crate::model::Points::whole(1));
        let t = as_tournament(&teams, &rounds, &scoring);
        assert_eq!(t.entrants[0].rounds[0].result, ResultCode::PairingBye);
        assert_eq!(t.entrants[1].rounds[0].result, ResultCode::HalfBye);
    }

    #[test]
    fn forbidden_teams_never_meet_and_absent_teams_are_not_paired() {
        for system in [
            System::Chinese(ChineseOptions::default()),
            System::Dutch(DutchOptions::default()),
        ] {
            let rules = TeamPairingRules {
                // Teams 1 and 2 (one club's two teams) never meet, nor 3, 4 and 5.
                forbidden: vec![
                    ForbiddenPairs {
                        entrants: vec![1, 2],
                        ..ForbiddenPairs::default()
                    },
                    ForbiddenPairs {
                        entrants: vec![3, 4, 5],
                        ..ForbiddenPairs::default()
                    },
                ],
                ..TeamPairingRules::default()
            };
            let played = play_with(10, 2, 5, &system, &rules);
            for (r, round) in played.rounds.iter().enumerate() {
                for m in &round.boards {
                    let pair = (m.red.min(m.black), m.red.max(m.black));
                    assert!(
                        ![(1, 2), (3, 4), (3, 5), (4, 5)].contains(&pair),
                        "forbidden pair {pair:?} in round {}",
                        r + 1
                    );
                }
            }
        }
        // A team announced absent for the round is left out; the others are paired.
        let rules = TeamPairingRules {
            absent: vec![(3, ResultCode::ZeroBye)],
            ..TeamPairingRules::default()
        };
        let played = play_with(9, 2, 1, &System::Chinese(ChineseOptions::default()), &rules);
        let round = &played.rounds[0];
        assert_eq!(round.bye, None);
        assert!(round.boards.iter().all(|m| m.red != 4 && m.black != 4));
    }

    #[test]
    fn a_double_round_robin_of_teams_swaps_board_colours_in_the_second_cycle() {
        let rules = TeamPairingRules {
            rounds_total: Some(10),
            ..TeamPairingRules::default()
        };
        let n = 6usize;
        let played = play_with(n, 4, 10, &System::RoundRobin { double: true }, &rules);
        // Who had Red on board 1, per pair of teams, in meeting order.
        let mut red_on_board_one: BTreeMap<(StartNo, StartNo), Vec<StartNo>> = BTreeMap::new();
        for round in &played.rounds {
            for m in &round.boards {
                red_on_board_one
                    .entry((m.red.min(m.black), m.red.max(m.black)))
                    .or_default()
                    .push(m.red);
            }
        }
        assert_eq!(red_on_board_one.len(), n * (n - 1) / 2);
        for (pair, reds) in &red_on_board_one {
            assert_eq!(reds.len(), 2, "{pair:?} meet once per cycle");
            assert_ne!(reds[0], reds[1], "{pair:?}: the second cycle swaps board 1");
        }
        // Every board swaps with it: board k's colours follow board 1's (play_with checked
        // the alternation in each match), so a team Red on board 1 in the first cycle is
        // Black on board 1 and Red on board 2 in the second.
        let first: Vec<_> = played.rounds[..5].iter().flat_map(|r| &r.boards).collect();
        let second: Vec<_> = played.rounds[5..].iter().flat_map(|r| &r.boards).collect();
        for m in first {
            assert!(second.iter().any(|s| (s.red, s.black) == (m.black, m.red)));
        }
    }

    #[test]
    fn five_hundred_teams_pair_quickly() {
        let teams: Vec<Team> = (0..500)
            .map(|i| Team {
                name: format!("T{i}"),
                roster: vec![i * 2 + 1, i * 2 + 2],
            })
            .collect();
        let rounds = vec![Vec::new(); 500];
        let start = std::time::Instant::now();
        let p = pair_teams(
            &teams,
            &rounds,
            &TeamScoring::default(),
            &System::Chinese(ChineseOptions::default()),
        )
        .expect("pairs");
        assert_eq!(p.boards.len(), 250);
        eprintln!("500 teams, round 1: {:?}", start.elapsed());
    }
}
