//! Team competitions (团体赛): teams of players who play matches of several boards.
//!
//! - A [`Team`] is a name and a roster in board order (starting numbers of its players).
//! - [`matches`] reads the team matches out of the players' own round records (the form TRF-16
//!   carries them in: `001` lines plus one `013` line per team): in each round a team's
//!   players who have an opponent form its line-up, on boards 1, 2, … in roster order, and
//!   their opponents must all belong to one other team.
//! - A match is won by more game points (局分, per board 1 / ½ / 0 by default, a forfeit win
//!   counting as a win); the winner gets the match points of a win (2 / 1 / 0 by default,
//!   [`TeamScoring`]).
//! - [`standings`] ranks teams by match points, then a chain of FIDE C.07 team tie-breaks
//!   ([`TeamKey`]: `MPTS GPTS BH:MP BH:GP SB:MP SB:GP EGGSB DE BC WON`), reproducing the FIDE
//!   TEC reference calculator (TieBreakServer) on the fixtures of `shared/fixtures/teams`.
//! - [`boards`] ranks each board's players for board prizes (percentage with a minimum
//!   number of games, then games, points, performance rating).
//! - [`individual`] ranks the teams (clubs, provinces, nations) of an **individual** section
//!   from their members' results: the WXF rule (sum of the two best places) and the Chinese
//!   rule (total of the N best members' points).

pub mod boards;
pub mod individual;
mod keys;
pub mod pairing;
mod rank;
pub mod roster;

pub use keys::{TeamKey, UnknownTeamKey};
pub use rank::{standings, TeamRow, TeamStandings};

use crate::model::{Points, ResultCode, Scoring, Side, StartNo, Tournament};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A team: its name and its roster in board order (board order is fixed for the event).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    /// Name of the team.
    pub name: String,
    /// Starting numbers of its players in board order (reserves last).
    pub roster: Vec<StartNo>,
}

/// Points of a team event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamScoring {
    /// Match points of a won match (default 2).
    pub match_win: Points,
    /// Match points of a drawn match (default 1).
    pub match_draw: Points,
    /// Match points of a lost match (default 0).
    pub match_loss: Points,
    /// Game points per board (default 1 / ½ / 0, a forfeit win 1).
    pub game: Scoring,
}

impl Default for TeamScoring {
    fn default() -> Self {
        TeamScoring {
            match_win: Points::whole(2),
            match_draw: Points::whole(1),
            match_loss: Points::ZERO,
            game: Scoring::one_half_zero(),
        }
    }
}

impl TeamScoring {
    /// Match points for a match with these game points for and against.
    pub fn match_points(&self, scored: Points, conceded: Points) -> Points {
        match scored.cmp(&conceded) {
            std::cmp::Ordering::Greater => self.match_win,
            std::cmp::Ordering::Equal => self.match_draw,
            std::cmp::Ordering::Less => self.match_loss,
        }
    }
}

/// One board of a match, seen from one team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardGame {
    /// Board number, 1-based.
    pub board: u32,
    /// This team's player.
    pub player: StartNo,
    /// The other team's player.
    pub opponent: StartNo,
    /// This team's player's colour.
    pub colour: Option<Side>,
    /// This team's player's result.
    pub result: ResultCode,
}

/// What a round was for one team.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRound {
    /// The other team (index into the team list), `None` when the team had no match.
    pub opponent: Option<usize>,
    /// The boards, in board order.
    pub boards: Vec<BoardGame>,
    /// Game points this team scored.
    pub game_points: Points,
    /// Game points the other team scored.
    pub opponent_game_points: Points,
    /// Match points this team earned.
    pub match_points: Points,
    /// Some board of the match has no result yet.
    pub pending: bool,
    /// When the team had no match: the bye its players were given (`U` pairing-allocated,
    /// `F` full-point, `H` half-point; the first such record in roster order), `None` for
    /// no bye (an absence, worth nothing).
    #[serde(default)]
    pub bye: Option<ResultCode>,
}

impl TeamRound {
    /// Every board of the match was forfeited (no game played over the board).
    pub fn is_forfeited(&self) -> bool {
        !self.boards.is_empty() && self.boards.iter().all(|b| !b.result.is_played())
    }
}

/// Why the team matches cannot be read from the players' records.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TeamError {
    /// Occurs when a roster names a player who is not in the tournament.
    #[error("team {team}: no player with starting number {player}")]
    UnknownPlayer {
        /// Team name.
        team: String,
        /// The starting number.
        player: StartNo,
    },
    /// Occurs when a player is on two rosters.
    #[error("player {0} is on two teams")]
    TwoTeams(StartNo),
    /// Occurs when a player with a game in some round is on no roster.
    #[error("player {0} plays but is on no team")]
    NoTeam(StartNo),
    /// Occurs when a team's players meet players of several teams in one round.
    #[error("round {round}: team {team} meets more than one team")]
    SplitMatch {
        /// Round, 1-based.
        round: u32,
        /// Team name.
        team: String,
    },
}

/// The rounds of every team (outer index: team, inner: round − 1), read from the players'
/// records. A team's line-up in a round is its players with an opponent in that round, on
/// boards in roster order.
pub fn matches(
    t: &Tournament,
    teams: &[Team],
    scoring: &TeamScoring,
) -> Result<Vec<Vec<TeamRound>>, TeamError> {
    let mut team_of: BTreeMap<StartNo, usize> = BTreeMap::new();
    for (i, team) in teams.iter().enumerate() {
        for &p in &team.roster {
            if t.entrant(p).is_none() {
                return Err(TeamError::UnknownPlayer {
                    team: team.name.clone(),
                    player: p,
                });
            }
            if team_of.insert(p, i).is_some() {
                return Err(TeamError::TwoTeams(p));
            }
        }
    }
    let rounds = t.rounds_played() as usize;
    let mut out = vec![vec![TeamRound::default(); rounds]; teams.len()];
    for e in &t.entrants {
        if e.rounds.iter().any(|r| r.opponent.is_some()) && !team_of.contains_key(&e.start_no) {
            return Err(TeamError::NoTeam(e.start_no));
        }
    }
    // Game points won across an empty seat (a board the other team left without a player:
    // TRF `0000 w +`), per team and round: they count in the match when it has one.
    let mut seatless = vec![vec![Points::ZERO; rounds]; teams.len()];
    for (i, team) in teams.iter().enumerate() {
        for (r, round) in out[i].iter_mut().enumerate() {
            let round_no = r as u32 + 1;
            for &p in &team.roster {
                let Some(rec) = t.entrant(p).and_then(|e| e.round(round_no)) else {
                    continue;
                };
                let Some(opp) = rec.opponent else {
                    if rec.result == ResultCode::ForfeitWin {
                        seatless[i][r] += scoring.game.points(rec.result);
                    }
                    continue;
                };
                let Some(&other) = team_of.get(&opp) else {
                    return Err(TeamError::NoTeam(opp));
                };
                if round.opponent.is_some_and(|o| o != other) {
                    return Err(TeamError::SplitMatch {
                        round: round_no,
                        team: team.name.clone(),
                    });
                }
                round.opponent = Some(other);
                round.pending |= rec.result == ResultCode::Pending;
                round.game_points += scoring.game.points(rec.result);
                if let Some(o) = t.entrant(opp).and_then(|e| e.round(round_no)) {
                    round.opponent_game_points += scoring.game.points(o.result);
                }
                round.boards.push(BoardGame {
                    board: round.boards.len() as u32 + 1,
                    player: p,
                    opponent: opp,
                    colour: rec.colour,
                    result: rec.result,
                });
            }
            if round.opponent.is_some() {
                round.game_points += seatless[i][r];
            } else {
                seatless[i][r] = Points::ZERO;
                team_bye(t, team, round_no, scoring, round);
            }
        }
    }
    for team_rounds in &mut out {
        for (r, round) in team_rounds.iter_mut().enumerate() {
            let Some(other) = round.opponent else {
                continue;
            };
            round.opponent_game_points += seatless[other][r];
            if !round.pending {
                round.match_points =
                    scoring.match_points(round.game_points, round.opponent_game_points);
            }
        }
    }
    Ok(out)
}

/// A round without a match: the team's bye, read from its players' bye records. The team
/// scores its players' bye points as game points, and the match points of a win for a
/// pairing-allocated or full-point bye, of a draw for a half-point bye.
fn team_bye(
    t: &Tournament,
    team: &Team,
    round_no: u32,
    scoring: &TeamScoring,
    round: &mut TeamRound,
) {
    let byes: Vec<ResultCode> = team
        .roster
        .iter()
        .filter_map(|&p| t.entrant(p).and_then(|e| e.round(round_no)))
        .map(|r| r.result)
        .filter(|r| {
            matches!(
                r,
                ResultCode::PairingBye | ResultCode::FullBye | ResultCode::HalfBye
            )
        })
        .collect();
    let Some(&first) = byes.first() else { return };
    round.bye = Some(first);
    round.game_points = byes.iter().map(|&r| scoring.game.points(r)).sum();
    round.match_points = match first {
        ResultCode::HalfBye => scoring.match_draw,
        _ => scoring.match_win,
    };
}

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;
