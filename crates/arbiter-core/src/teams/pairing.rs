//! Pairing teams (issue #41): a team section is paired by the individual engines on a model
//! whose entrants are the teams — match points as points, a match's result as the game's,
//! the team's board-1 colour as its colour — so Chinese Swiss (积分编排), the FIDE Dutch
//! engine and round robins pair teams with the same rules (no rematches, byes, forbidden
//! pairs) as players. A match's boards then alternate colours ([`super::roster::board_colours`]).

use super::{Team, TeamRound, TeamScoring};
use crate::model::{Entrant, ResultCode, RoundRecord, Scoring, Side, StartNo, Tournament};
use crate::pairing::{self, Board, PairingError, RoundPairing, System};

/// The teams as entrants (team `i` is starting number `i + 1`), their rounds as games on
/// match points: won, drawn or lost on game points, a match with every board forfeited a
/// forfeit, a match with a board still open pending, no match a zero-point absence.
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
        return RoundRecord::bye(ResultCode::ZeroBye);
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
/// team) by team index, and the team with the bye.
pub fn pair_teams(
    teams: &[Team],
    rounds: &[Vec<TeamRound>],
    scoring: &TeamScoring,
    system: &System,
) -> Result<RoundPairing, PairingError> {
    let t = as_tournament(teams, rounds, scoring);
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
    use std::collections::BTreeSet;

    /// Plays `rounds` rounds of `n` teams of `boards` boards (rosters 1..=boards per team)
    /// under `system`, results from a fixed rule (the lower starting number wins, every
    /// seventh board drawn), and checks no rematch and alternating board colours.
    fn play(n: usize, boards: u32, rounds: u32, system: &System) -> Tournament {
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
        for round in 1..=rounds {
            let history = matches(&players, &teams, &scoring).expect("matches");
            let pairing = pair_teams(&teams, &history, &scoring, system).expect("pairs");
            assert_eq!(pairing.boards.len(), n / 2, "round {round}");
            for m in &pairing.boards {
                let (a, b) = (m.red as usize - 1, m.black as usize - 1);
                assert!(
                    met.insert((a.min(b), a.max(b))),
                    "rematch {a}–{b} in round {round}"
                );
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
                    for (no, opp, colour, res) in [
                        (board.red, board.black, Side::Red, result.0),
                        (board.black, board.red, Side::Black, result.1),
                    ] {
                        let e = &mut players.entrants[no as usize - 1];
                        e.rounds
                            .resize(round as usize - 1, RoundRecord::bye(ResultCode::ZeroBye));
                        e.rounds.push(RoundRecord::game(opp, colour, res));
                    }
                }
            }
        }
        as_tournament(
            &teams,
            &matches(&players, &teams, &scoring).expect("matches"),
            &scoring,
        )
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
