//! What the engine knows about each entrant to pair, and the per-pair costs that encode
//! RULES §1.3 [D] steps 1–4.

use super::ChineseOptions;
use crate::model::{Points, ResultCode, Side, StartNo, Tournament};
use crate::pairing::PairingError;
use std::collections::BTreeSet;

/// One entrant to pair, as the engine sees it.
#[derive(Clone, Debug)]
pub(crate) struct Player {
    pub id: StartNo,
    pub points: Points,
    /// Colours of games played over the board, oldest first (forfeits and byes excluded).
    pub colours: Vec<Side>,
    pub met: BTreeSet<StartNo>,
    /// Pairing-allocated and full-point byes received.
    pub byes: u32,
    pub club: Option<String>,
    /// Index of the score level (0 = highest score).
    pub level: usize,
    /// Due colour (要先 Red / 要后 Black): the row inside the score group.
    pub due: Side,
    /// Position inside its row of its score group (0 = first in ranking order).
    pub row_pos: usize,
}

impl Player {
    /// #Red − #Black.
    pub fn diff(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Side::Red { 1 } else { -1 })
            .sum()
    }

    /// The colour index (MBP's xianshu, RULES §1.3 "Colour in a formed pair"):
    /// `100·(#Red − #Black) + s`, `s` the signed length of the current same-colour run (+k for
    /// k Reds in a row, −k for k Blacks); 0 without colour history. Compared as the pair
    /// (#Red − #Black, s), which is the same order without the formula's limit of 99 rounds:
    /// more Reds, then a longer Red run.
    pub fn colour_index(&self) -> (i32, i32) {
        let run = match self.streak() {
            Some((Side::Red, len)) => len as i32,
            Some((Side::Black, len)) => -(len as i32),
            None => 0,
        };
        (self.diff(), run)
    }

    /// The colour of the current same-colour run and its length.
    pub fn streak(&self) -> Option<(Side, usize)> {
        let last = *self.colours.last()?;
        let len = self
            .colours
            .iter()
            .rev()
            .take_while(|c| **c == last)
            .count();
        Some((last, len))
    }

    /// Getting `side` would make 3 in a row (rule b).
    pub fn streak_blocks(&self, side: Side) -> bool {
        matches!(self.streak(), Some((s, len)) if s == side && len >= 2)
    }

    /// Getting `side` would make |#Red − #Black| > 2 (rule c).
    pub fn diff_blocks(&self, side: Side) -> bool {
        let d = self.diff();
        match side {
            Side::Red => d >= 2,
            Side::Black => d <= -2,
        }
    }
}

/// Everything the solver needs for one round.
pub(crate) struct Context {
    pub round: u32,
    /// Players in ranking order (points desc, then the tie order, then 序号).
    pub players: Vec<Player>,
    /// Distinct scores, highest first.
    pub levels: Vec<Points>,
    /// `legal[i * n + j]`: no rematch, not forbidden, not the same club (when avoided).
    legal: Vec<bool>,
    /// Candidate order for the bye: index = rank (0 = first candidate).
    pub bye_rank: Vec<usize>,
    /// Weight of one streak violation against difference violations (relax (c) before (b)).
    pub streak_factor: i128,
    pub max_sq_diff: i128,
    pub max_position: i128,
    /// Size of each score group.
    pub group_size: Vec<usize>,
    /// Index of each player inside its score group (ranking order).
    pub group_index: Vec<usize>,
    /// True in round 1: the position target is 拦腰 (k v k + n/2) instead of adjacent pairs.
    pub half_split: bool,
}

/// The costs of putting two players on one board (or one player on the bye).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PairCost {
    /// Colour-rule violations: streak violations × streak_factor + difference violations.
    pub violations: i128,
    /// Bye candidate rank of the bye player (0 for boards).
    pub bye: i128,
    /// Score levels crossed: boundaries `from..to` (boundary j lies below level j).
    pub cross: (usize, usize),
    /// (points difference in tenths)².
    pub sq_diff: i128,
    /// 1 when the two are due the same colour (同行), 0 for a cross-row pair (异行).
    pub same_row: i128,
    /// Distance from the standings-order target (criterion 4).
    pub position: i128,
}

/// The players' records before `round`.
pub(crate) fn build(
    t: &Tournament,
    options: &ChineseOptions,
    round: u32,
    ids: &[StartNo],
) -> Result<Context, PairingError> {
    let mut players = Vec::with_capacity(ids.len());
    for &id in ids {
        let e = t
            .entrant(id)
            .ok_or_else(|| PairingError::InvalidState(format!("no entrant {id}")))?;
        let mut colours = Vec::new();
        let mut met = BTreeSet::new();
        let mut byes = 0;
        for r in e.rounds.iter().take(round.saturating_sub(1) as usize) {
            if let Some(opp) = r.opponent {
                if r.result.is_played() || r.result == ResultCode::Pending {
                    met.insert(opp);
                    if r.result.is_played() {
                        if let Some(c) = r.colour {
                            colours.push(c);
                        }
                    }
                } else if r.result.is_forfeit() && options.forfeit_counts_as_met {
                    met.insert(opp);
                }
            }
            if matches!(r.result, ResultCode::PairingBye | ResultCode::FullBye) {
                byes += 1;
            }
        }
        players.push(Player {
            id,
            points: e.points_after(&t.scoring, round.saturating_sub(1)),
            colours,
            met,
            byes,
            club: e.club.clone().filter(|c| !c.trim().is_empty()),
            level: 0,
            due: Side::Red,
            row_pos: 0,
        });
    }
    // Ranking order for pairing: points desc, then the caller's tie order, then 序号.
    let tie_pos = |id: StartNo| {
        options
            .tie_order
            .as_ref()
            .and_then(|o| o.iter().position(|&x| x == id))
            .unwrap_or(usize::MAX)
    };
    players.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(tie_pos(a.id).cmp(&tie_pos(b.id)))
            .then(a.id.cmp(&b.id))
    });
    let mut levels: Vec<Points> = players.iter().map(|p| p.points).collect();
    levels.dedup();
    let mut level = 0;
    let mut counters = [0usize; 2];
    for i in 0..players.len() {
        if i > 0 && players[i].points != players[i - 1].points {
            level += 1;
            counters = [0, 0];
        }
        let p = &mut players[i];
        p.level = level;
        // MBP: 要先 (due Red) when the colour index is below 0 or there is no history; 要后
        // (due Black) when it is above 0 (a level count with a Red run is above 0).
        p.due = if p.colour_index() > (0, 0) {
            Side::Black
        } else {
            Side::Red
        };
        let row = usize::from(p.due == Side::Black);
        p.row_pos = counters[row];
        counters[row] += 1;
    }
    let n = players.len();
    let mut legal = vec![true; n * n];
    for i in 0..n {
        legal[i * n + i] = false;
        for j in 0..n {
            if i == j {
                continue;
            }
            let (a, b) = (&players[i], &players[j]);
            let forbidden = t.forbidden.iter().any(|f| {
                f.first_round.is_none_or(|r| round >= r)
                    && f.last_round.is_none_or(|r| round <= r)
                    && f.entrants.contains(&a.id)
                    && f.entrants.contains(&b.id)
            });
            let same_club = options.avoid_same_club
                && a.club.is_some()
                && a.club.as_deref().map(str::trim) == b.club.as_deref().map(str::trim);
            if a.met.contains(&b.id) || b.met.contains(&a.id) || forbidden || same_club {
                legal[i * n + j] = false;
            }
        }
    }
    // Bye candidates (step 1): no bye yet first, then lowest points, then highest 序号.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&players[a], &players[b]);
        (pa.byes > 0)
            .cmp(&(pb.byes > 0))
            .then(pa.byes.cmp(&pb.byes))
            .then(pa.points.cmp(&pb.points))
            .then(pb.id.cmp(&pa.id))
    });
    let mut bye_rank = vec![0; n];
    for (rank, &i) in order.iter().enumerate() {
        bye_rank[i] = rank;
    }
    let spread = match (levels.first(), levels.last()) {
        (Some(hi), Some(lo)) => i128::from((*hi - *lo).tenths()),
        _ => 0,
    };
    let mut group_size = vec![0usize; levels.len()];
    let mut group_index = vec![0usize; players.len()];
    for (i, p) in players.iter().enumerate() {
        group_index[i] = group_size[p.level];
        group_size[p.level] += 1;
    }
    let half_split = round == 1 && players.iter().all(|p| p.colours.is_empty());
    Ok(Context {
        round,
        players,
        levels,
        legal,
        bye_rank,
        streak_factor: n as i128 + 1,
        max_sq_diff: spread * spread,
        max_position: 2 * n as i128 + 1,
        group_size,
        group_index,
        half_split,
    })
}

impl Context {
    pub fn n(&self) -> usize {
        self.players.len()
    }

    /// No rematch, not forbidden, not the same club (never relaxed).
    pub fn legal(&self, i: usize, j: usize) -> bool {
        self.legal[i * self.n() + j]
    }

    /// Streak and difference violations when `red` plays Red and `black` Black.
    pub fn assignment_violations(&self, red: usize, black: usize) -> (i128, i128) {
        let (r, b) = (&self.players[red], &self.players[black]);
        let streak =
            i128::from(r.streak_blocks(Side::Red)) + i128::from(b.streak_blocks(Side::Black));
        let diff = i128::from(r.diff_blocks(Side::Red)) + i128::from(b.diff_blocks(Side::Black));
        (streak, diff)
    }

    /// The fewest weighted violations over the two colour assignments.
    pub fn violations(&self, i: usize, j: usize) -> i128 {
        let cost = |(s, d): (i128, i128)| s * self.streak_factor + d;
        cost(self.assignment_violations(i, j)).min(cost(self.assignment_violations(j, i)))
    }

    /// Costs of a board `i`–`j` (`i` ranked above `j` or not; order does not matter).
    pub fn pair_cost(&self, i: usize, j: usize) -> PairCost {
        let (i, j) = if i < j { (i, j) } else { (j, i) };
        let (a, b) = (&self.players[i], &self.players[j]);
        let diff = i128::from((a.points - b.points).tenths());
        let position = if self.half_split {
            // Round 1 拦腰: the target partner of k is k + n/2.
            let half = (self.n() / 2) as i128;
            ((j - i) as i128 - half).abs()
        } else if a.level == b.level {
            (a.row_pos as i128 - b.row_pos as i128).abs()
        } else {
            // The floater should be the last of its group, and meet the first suitable
            // player of the lower group.
            (self.group_size[a.level] - 1 - self.group_index[i]) as i128 + b.row_pos as i128
        };
        PairCost {
            violations: self.violations(i, j),
            bye: 0,
            cross: (a.level, b.level),
            sq_diff: diff * diff,
            same_row: i128::from(a.due == b.due),
            position,
        }
    }

    /// Costs of giving player `i` the bye.
    pub fn bye_cost(&self, i: usize) -> PairCost {
        PairCost {
            violations: 0,
            bye: self.bye_rank[i] as i128,
            cross: (0, 0),
            sq_diff: 0,
            same_row: 0,
            position: 0,
        }
    }
}
