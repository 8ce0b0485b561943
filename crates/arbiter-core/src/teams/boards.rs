//! Individual board rankings of a team event, for board prizes (issue #41): per board, the
//! players ranked by their score on that board, as Swiss-Manager and chess-results rank
//! board prizes (a percentage with a minimum number of games, then the performance rating).
//!
//! - **Games.** Only games played over the board count; a forfeit (won or lost) is neither a
//!   game nor points here (a board prize is for chess played — the caller leaves forfeits out,
//!   [`BoardResult::played`] `false` is skipped).
//! - **Chain.** Percentage (points ÷ games × the points of a win) highest first; then more
//!   games (the same percentage over more games is the better result); then more points;
//!   then the higher performance rating when ratings are known (a player without one is
//!   below every player with one); players still equal share the rank.
//! - **Minimum.** A player with fewer games than `min_games` on the board is not ranked; he
//!   is listed apart ([`BoardRanking::below_minimum`]).
//! - **A player on two boards** ([`BoardAssignment`]): by default each board on its own (his
//!   games on board 2 count for board 2, those on board 3 for board 3, each against the
//!   minimum); or, as some regulations ask, all his games on the one board where he played
//!   most (ties: the higher board, the lower number).
//! - **Performance rating** (FIDE B.02 8.1): the average rating of the rated opponents, plus
//!   `dp` of the percentage scored against them (the FIDE conversion table, `p` rounded to two
//!   decimals); `None` when no opponent had a rating.

use crate::model::{Points, StartNo};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// One game on one board, seen from one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardResult {
    /// The player.
    pub player: StartNo,
    /// The board it was played on, 1-based.
    pub board: u32,
    /// The player's points from the game (1 / ½ / 0 by default).
    pub points: Points,
    /// Played over the board (`false`: a forfeit, which does not count).
    pub played: bool,
    /// The opponent's rating, when known.
    pub opponent_rating: Option<u32>,
}

/// Where a player who played on several boards is ranked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardAssignment {
    /// On every board he played, with that board's games.
    #[default]
    PerBoard,
    /// On the board where he played most games (ties: the higher board), with all his games.
    MostPlayed,
}

/// How board rankings are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRankingOptions {
    /// Fewest games on the board to be ranked.
    pub min_games: u32,
    /// Points of a won game (the 100 % of a game).
    pub win: Points,
    /// Where a player of several boards is ranked.
    pub assignment: BoardAssignment,
}

impl Default for BoardRankingOptions {
    fn default() -> Self {
        BoardRankingOptions {
            min_games: 1,
            win: Points::whole(1),
            assignment: BoardAssignment::PerBoard,
        }
    }
}

/// One player's line in a board ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRow {
    /// Rank on the board, 1-based (0 below the minimum); equal players share it.
    pub rank: u32,
    /// The player.
    pub player: StartNo,
    /// Games counted.
    pub games: u32,
    /// Points from them.
    pub points: Points,
    /// Percentage in tenths of a percent (`667` is 66.7 %), rounded half up.
    pub per_mille: u32,
    /// Performance rating against rated opponents, when any had a rating.
    pub performance: Option<i32>,
}

/// The ranking of one board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRanking {
    /// Board number, 1-based.
    pub board: u32,
    /// Ranked players, best first.
    pub rows: Vec<BoardRow>,
    /// Players with fewer games than the minimum, by games then points.
    pub below_minimum: Vec<BoardRow>,
}

/// The board rankings, board 1 first (a board appears when some game was played on it).
pub fn board_rankings(games: &[BoardResult], options: &BoardRankingOptions) -> Vec<BoardRanking> {
    let played: Vec<&BoardResult> = games.iter().filter(|g| g.played).collect();
    // The board each player is ranked on, per game.
    let main_board: BTreeMap<StartNo, u32> = match options.assignment {
        BoardAssignment::PerBoard => BTreeMap::new(),
        BoardAssignment::MostPlayed => {
            let mut counts: BTreeMap<StartNo, BTreeMap<u32, u32>> = BTreeMap::new();
            for g in &played {
                *counts
                    .entry(g.player)
                    .or_default()
                    .entry(g.board)
                    .or_default() += 1;
            }
            counts
                .into_iter()
                .filter_map(|(player, boards)| {
                    // Most games; among equals the lowest board number.
                    boards
                        .into_iter()
                        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
                        .map(|(board, _)| (player, board))
                })
                .collect()
        }
    };
    let mut by_board: BTreeMap<u32, BTreeMap<StartNo, Vec<&BoardResult>>> = BTreeMap::new();
    for g in &played {
        let board = main_board.get(&g.player).copied().unwrap_or(g.board);
        by_board
            .entry(board)
            .or_default()
            .entry(g.player)
            .or_default()
            .push(g);
    }
    by_board
        .into_iter()
        .map(|(board, players)| {
            let (mut rows, mut below): (Vec<BoardRow>, Vec<BoardRow>) = players
                .into_iter()
                .map(|(player, list)| row(player, &list, options.win))
                .partition(|r| r.games >= options.min_games);
            rows.sort_by(|a, b| compare(a, b).then(a.player.cmp(&b.player)));
            let ranks: Vec<u32> = (0..rows.len())
                .scan(0, |last, i| {
                    if i == 0 || !compare(&rows[i - 1], &rows[i]).is_eq() {
                        *last = i as u32 + 1;
                    }
                    Some(*last)
                })
                .collect();
            for (row, rank) in rows.iter_mut().zip(ranks) {
                row.rank = rank;
            }
            below.sort_by(|a, b| {
                b.games
                    .cmp(&a.games)
                    .then(b.points.cmp(&a.points))
                    .then(a.player.cmp(&b.player))
            });
            BoardRanking {
                board,
                rows,
                below_minimum: below,
            }
        })
        .collect()
}

fn row(player: StartNo, games: &[&BoardResult], win: Points) -> BoardRow {
    let n = games.len() as u32;
    let points: Points = games.iter().map(|g| g.points).sum();
    let per_mille = if n == 0 || win.0 <= 0 {
        0
    } else {
        let den = i64::from(n) * win.0;
        ((points.0.max(0) * 1000 * 2 + den) / (2 * den)) as u32
    };
    let rated: Vec<(&BoardResult, u32)> = games
        .iter()
        .filter_map(|g| g.opponent_rating.map(|r| (*g, r)))
        .collect();
    let performance = (!rated.is_empty() && win.0 > 0).then(|| {
        let count = rated.len() as i64;
        let sum: i64 = rated.iter().map(|(_, r)| i64::from(*r)).sum();
        // Average rating, rounded half up.
        let average = (2 * sum + count) / (2 * count);
        let scored: i64 = rated.iter().map(|(g, _)| g.points.0).sum();
        // p in hundredths, rounded half up.
        let hundredths = ((200 * scored + count * win.0) / (2 * count * win.0)).clamp(0, 100);
        (average + i64::from(dp(hundredths as u32))) as i32
    });
    BoardRow {
        rank: 0,
        player,
        games: n,
        points,
        per_mille,
        performance,
    }
}

/// The ranking order (better first): percentage, games, points, performance.
fn compare(a: &BoardRow, b: &BoardRow) -> Ordering {
    // a.points / a.games against b.points / b.games, exactly.
    let left = i128::from(b.points.0) * i128::from(a.games);
    let right = i128::from(a.points.0) * i128::from(b.games);
    left.cmp(&right)
        .then(b.games.cmp(&a.games))
        .then(b.points.cmp(&a.points))
        .then(b.performance.cmp(&a.performance))
}

/// FIDE's conversion of a percentage score into a rating difference (B.02 table 8.1.a), for
/// `p` in hundredths (0–100).
pub fn dp(p: u32) -> i32 {
    // dp for p = 0.50, 0.51, …, 1.00.
    const UPPER: [i32; 51] = [
        0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
        158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
        351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
    ];
    let p = p.min(100) as usize;
    if p >= 50 {
        UPPER[p - 50]
    } else {
        -UPPER[50 - p]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(player: StartNo, board: u32, tenths: i64, rating: Option<u32>) -> BoardResult {
        BoardResult {
            player,
            board,
            points: Points(tenths),
            played: true,
            opponent_rating: rating,
        }
    }

    fn summary(r: &BoardRanking) -> Vec<(u32, StartNo, u32, i64, u32)> {
        r.rows
            .iter()
            .map(|row| (row.rank, row.player, row.games, row.points.0, row.per_mille))
            .collect()
    }

    #[test]
    fn the_dp_table_is_symmetric_and_ends_at_800() {
        assert_eq!(dp(100), 800);
        assert_eq!(dp(0), -800);
        assert_eq!(dp(50), 0);
        assert_eq!(dp(75), 193);
        assert_eq!(dp(25), -193);
        assert_eq!(dp(67), 125);
        assert_eq!(dp(83), 273);
    }

    /// Board 1 of a 7-round event, by hand:
    ///
    /// | player | games | points | %     | rank |
    /// |--------|-------|--------|-------|------|
    /// | 11     | 7     | 5½     | 78.6  | 2    |
    /// | 12     | 5     | 4½     | 90.0  | 1    |
    /// | 13     | 6     | 4½     | 75.0  | 3=   |  (equal to 14 on %, games, points and no ratings)
    /// | 14     | 6     | 4½     | 75.0  | 3=   |
    /// | 15     | 4     | 3      | 75.0  | 5    |  (75 % in fewer games)
    /// | 16     | 2     | 2      | 100   | —    |  (below the minimum of 4 games)
    #[test]
    fn board_one_by_percentage_then_games_with_a_minimum() {
        let mut games = Vec::new();
        let mut add = |player, scores: &[i64]| {
            for &s in scores {
                games.push(game(player, 1, s, None));
            }
        };
        add(11, &[10, 10, 5, 10, 10, 0, 10]);
        add(12, &[10, 10, 10, 5, 10]);
        add(13, &[10, 5, 5, 10, 10, 5]);
        add(14, &[10, 10, 10, 0, 10, 5]);
        add(15, &[10, 10, 10, 0]);
        add(16, &[10, 10]);
        let options = BoardRankingOptions {
            min_games: 4,
            ..BoardRankingOptions::default()
        };
        let ranking = board_rankings(&games, &options);
        assert_eq!(ranking.len(), 1);
        assert_eq!(
            summary(&ranking[0]),
            [
                (1, 12, 5, 45, 900),
                (2, 11, 7, 55, 786),
                (3, 13, 6, 45, 750),
                (3, 14, 6, 45, 750),
                (5, 15, 4, 30, 750),
            ]
        );
        assert_eq!(ranking[0].below_minimum.len(), 1);
        assert_eq!(ranking[0].below_minimum[0].player, 16);
    }

    /// Equal percentage and games: the performance rating decides.
    ///
    /// Player 21: 2 / 3 against 1800, 2000, 2200 → average 2000, p = 0.67, dp 125 → 2125.
    /// Player 22: 2 / 3 against 1700, 1800, 1900 → average 1800, dp 125 → 1925.
    /// Player 23: 2 / 3 against unrated opponents → no performance, below both.
    #[test]
    fn performance_breaks_a_tie_on_percentage() {
        let games = vec![
            game(22, 2, 10, Some(1700)),
            game(22, 2, 10, Some(1800)),
            game(22, 2, 0, Some(1900)),
            game(21, 2, 10, Some(1800)),
            game(21, 2, 0, Some(2000)),
            game(21, 2, 10, Some(2200)),
            game(23, 2, 10, None),
            game(23, 2, 10, None),
            game(23, 2, 0, None),
        ];
        let ranking = board_rankings(&games, &BoardRankingOptions::default());
        let rows = &ranking[0].rows;
        assert_eq!(ranking[0].board, 2);
        assert_eq!(
            rows.iter()
                .map(|r| (r.rank, r.player, r.performance))
                .collect::<Vec<_>>(),
            [(1, 21, Some(2125)), (2, 22, Some(1925)), (3, 23, None)]
        );
        assert_eq!(rows[0].per_mille, 667);
    }

    /// Player 31 played 4 games on board 2 (3 points) and 2 on board 3 (2 points); 32 played
    /// 4 on board 2 (2½); 33 played 3 on board 3 (2½); forfeits never count.
    ///
    /// Per board, minimum 2: board 2 is 31 (75 %), 32 (62.5 %); board 3 is 31 (100 %, 2
    /// games), 33 (83.3 %).
    /// On the board played most, minimum 2: 31 is on board 2 with all 6 games (5 points,
    /// 83.3 %) above 32; board 3 has only 33.
    #[test]
    fn a_player_on_two_boards_per_board_or_on_the_board_played_most() {
        let mut games = vec![
            game(31, 2, 10, None),
            game(31, 2, 10, None),
            game(31, 2, 10, None),
            game(31, 2, 0, None),
            game(31, 3, 10, None),
            game(31, 3, 10, None),
            game(32, 2, 10, None),
            game(32, 2, 5, None),
            game(32, 2, 10, None),
            game(32, 2, 0, None),
            game(33, 3, 10, None),
            game(33, 3, 10, None),
            game(33, 3, 5, None),
        ];
        // A forfeit win is not a game for the board prize.
        games.push(BoardResult {
            played: false,
            ..game(33, 3, 10, None)
        });
        let per_board = board_rankings(
            &games,
            &BoardRankingOptions {
                min_games: 2,
                ..BoardRankingOptions::default()
            },
        );
        assert_eq!(
            per_board.iter().map(summary).collect::<Vec<_>>(),
            [
                vec![(1, 31, 4, 30, 750), (2, 32, 4, 25, 625)],
                vec![(1, 31, 2, 20, 1000), (2, 33, 3, 25, 833)],
            ]
        );
        let most = board_rankings(
            &games,
            &BoardRankingOptions {
                min_games: 2,
                assignment: BoardAssignment::MostPlayed,
                ..BoardRankingOptions::default()
            },
        );
        assert_eq!(
            most.iter().map(summary).collect::<Vec<_>>(),
            [
                vec![(1, 31, 6, 50, 833), (2, 32, 4, 25, 625)],
                vec![(1, 33, 3, 25, 833)],
            ]
        );
        assert_eq!((most[0].board, most[1].board), (2, 3));
    }

    #[test]
    fn two_one_zero_games_use_the_win_value_for_the_percentage() {
        let games = vec![game(1, 1, 20, None), game(1, 1, 10, None)];
        let ranking = board_rankings(
            &games,
            &BoardRankingOptions {
                win: Points::whole(2),
                ..BoardRankingOptions::default()
            },
        );
        assert_eq!(ranking[0].rows[0].per_mille, 750);
    }
}
