//! Team standings: match points, then a chain of team tie-breaks.

use super::{TeamKey, TeamRound, TeamScoring};
use crate::model::Points;
use crate::standings::TiebreakValue;
use std::cmp::Ordering;

/// One line of the team standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamRow {
    /// Rank, 1-based; teams tied after the whole chain share it.
    pub rank: u32,
    /// Index of the team in the team list.
    pub team: usize,
    /// Match points.
    pub match_points: Points,
    /// Game points.
    pub game_points: Points,
    /// One value per key of the chain.
    pub values: Vec<TiebreakValue>,
    /// Some match of this team has a board without a result.
    pub provisional: bool,
}

/// The ranked teams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamStandings {
    /// The chain after match points.
    pub keys: Vec<TeamKey>,
    /// Rows in ranking order (ties by team order).
    pub rows: Vec<TeamRow>,
}

struct Totals {
    mp: Vec<Points>,
    gp: Vec<Points>,
}

/// Ranks the teams by match points, then `chain` (a leading `MPTS` in it is a no-op).
/// `rounds[i]` is team `i`'s rounds as [`super::matches`] reads them.
pub fn standings(
    rounds: &[Vec<TeamRound>],
    chain: &[TeamKey],
    scoring: &TeamScoring,
) -> TeamStandings {
    let n = rounds.len();
    let totals = Totals {
        mp: rounds
            .iter()
            .map(|r| r.iter().map(|m| m.match_points).sum())
            .collect(),
        gp: rounds
            .iter()
            .map(|r| r.iter().map(|m| m.game_points).sum())
            .collect(),
    };
    let mut values: Vec<Vec<TiebreakValue>> = (0..n)
        .map(|i| {
            chain
                .iter()
                .map(|&k| value(k, i, rounds, &totals, scoring))
                .collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| totals.mp[b].cmp(&totals.mp[a]).then(a.cmp(&b)));
    let mut groups = runs(&order, |a, b| totals.mp[a] == totals.mp[b]);
    for (k, &key) in chain.iter().enumerate() {
        let mut next = Vec::with_capacity(groups.len());
        for (start, end) in groups {
            if end - start <= 1 {
                next.push((start, end));
                continue;
            }
            if key == TeamKey::De {
                let classes = de_classes(&order[start..end], rounds, scoring);
                if classes.len() > 1 {
                    let mut at = start;
                    for mut class in classes {
                        class.sort_unstable();
                        let position = (at - start + 1) as u32;
                        for &i in &class {
                            values[i][k] = TiebreakValue::Position(position);
                        }
                        order[at..at + class.len()].copy_from_slice(&class);
                        next.push((at, at + class.len()));
                        at += class.len();
                    }
                } else {
                    next.push((start, end));
                }
                continue;
            }
            let slice = &mut order[start..end];
            slice.sort_by(|&a, &b| compare(&values[a][k], &values[b][k]).then(a.cmp(&b)));
            for (s, e) in runs(slice, |a, b| {
                compare(&values[a][k], &values[b][k]) == Ordering::Equal
            }) {
                next.push((start + s, start + e));
            }
        }
        groups = next;
    }
    let mut rows = Vec::with_capacity(n);
    for (start, end) in groups {
        for &i in &order[start..end] {
            rows.push(TeamRow {
                rank: start as u32 + 1,
                team: i,
                match_points: totals.mp[i],
                game_points: totals.gp[i],
                values: std::mem::take(&mut values[i]),
                provisional: rounds[i].iter().any(|r| r.pending),
            });
        }
    }
    TeamStandings {
        keys: chain.to_vec(),
        rows,
    }
}

/// Points × points in hundredths (tenths × tenths).
fn product(a: Points, b: Points) -> i64 {
    a.tenths() * b.tenths()
}

fn value(
    key: TeamKey,
    i: usize,
    rounds: &[Vec<TeamRound>],
    totals: &Totals,
    scoring: &TeamScoring,
) -> TiebreakValue {
    let played = || {
        rounds[i]
            .iter()
            .filter(|r| !r.pending)
            .filter_map(|r| r.opponent.map(|o| (r, o)))
    };
    match key {
        TeamKey::Mpts => TiebreakValue::Points(totals.mp[i]),
        TeamKey::Gpts => TiebreakValue::Points(totals.gp[i]),
        TeamKey::BhMp => TiebreakValue::Points(played().map(|(_, o)| totals.mp[o]).sum()),
        TeamKey::BhGp => TiebreakValue::Points(played().map(|(_, o)| totals.gp[o]).sum()),
        TeamKey::SbMp => TiebreakValue::Hundredths(
            played()
                .map(|(r, o)| product(r.match_points, totals.mp[o]))
                .sum(),
        ),
        TeamKey::SbGp => TiebreakValue::Hundredths(
            played()
                .map(|(r, o)| product(r.match_points, totals.gp[o]))
                .sum(),
        ),
        TeamKey::Eggsb => TiebreakValue::Hundredths(
            played()
                .map(|(r, o)| product(r.game_points, totals.gp[o]))
                .sum(),
        ),
        TeamKey::De => TiebreakValue::Position(0),
        TeamKey::Bc => TiebreakValue::Points(
            rounds[i]
                .iter()
                .flat_map(|r| &r.boards)
                .map(|b| {
                    Points::from_tenths(scoring.game.points(b.result).tenths() * i64::from(b.board))
                })
                .sum(),
        ),
        TeamKey::Won => TiebreakValue::Count(
            played()
                .filter(|(r, _)| r.game_points > r.opponent_game_points)
                .count() as i64,
        ),
    }
}

/// `Less` when `a` ranks above `b`.
fn compare(a: &TiebreakValue, b: &TiebreakValue) -> Ordering {
    use TiebreakValue::*;
    match (a, b) {
        (Points(x), Points(y)) => y.cmp(x),
        (Hundredths(x), Hundredths(y)) => y.cmp(x),
        (Count(x), Count(y)) => y.cmp(x),
        (Position(x), Position(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

fn runs(items: &[usize], same: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=items.len() {
        if i == items.len() || !same(items[i - 1], items[i]) {
            if i > start {
                out.push((start, i));
            }
            start = i;
        }
    }
    out
}

/// Direct encounter among a tied group on match points (FIDE C.07 art. 6, with the Swiss
/// rule 6.3 as the reference calculator applies it): when every pair has met, the group is
/// ordered by the match points scored among its members (sub-ties looked at again on their
/// own); otherwise the top team is placed only when no other could reach it by winning every
/// missing match, and the rest is looked at again.
fn de_classes(
    group: &[usize],
    rounds: &[Vec<TeamRound>],
    scoring: &TeamScoring,
) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut rest = group.to_vec();
    loop {
        if rest.len() <= 1 {
            if !rest.is_empty() {
                out.push(rest);
            }
            return out;
        }
        let size = rest.len();
        // score[a]: match points a scored against the others (averaged over repeated
        // meetings, × 2520), met[a]: how many of them a has met.
        let mut score = vec![0i64; size];
        let mut met = vec![0i64; size];
        let mut pairs = 0;
        for (a, &ta) in rest.iter().enumerate() {
            for (b, &tb) in rest.iter().enumerate() {
                if a == b {
                    continue;
                }
                let meetings: Vec<&TeamRound> = rounds[ta]
                    .iter()
                    .filter(|r| r.opponent == Some(tb) && !r.pending && !r.is_forfeited())
                    .collect();
                if meetings.is_empty() {
                    continue;
                }
                let sum: i64 = meetings.iter().map(|r| r.match_points.tenths()).sum();
                score[a] += sum * 2520 / meetings.len() as i64;
                met[a] += 1;
                if a < b {
                    pairs += 1;
                }
            }
        }
        if pairs == size * (size - 1) / 2 {
            let mut idx: Vec<usize> = (0..size).collect();
            idx.sort_by(|&a, &b| score[b].cmp(&score[a]).then(a.cmp(&b)));
            let mut split: Vec<Vec<usize>> = Vec::new();
            for (k, &pos) in idx.iter().enumerate() {
                if k > 0 && score[idx[k - 1]] == score[pos] {
                    if let Some(last) = split.last_mut() {
                        last.push(rest[pos]);
                    }
                } else {
                    split.push(vec![rest[pos]]);
                }
            }
            if split.len() == 1 {
                out.push(rest);
            } else {
                for class in split {
                    out.extend(de_classes(&class, rounds, scoring));
                }
            }
            return out;
        }
        let win = scoring.match_win.tenths() * 2520;
        let reach = |q: usize| score[q] + (size as i64 - 1 - met[q]) * win;
        let best = (0..size).find(|&p| (0..size).filter(|&q| q != p).all(|q| score[p] > reach(q)));
        match best {
            Some(p) => {
                out.push(vec![rest[p]]);
                rest.remove(p);
            }
            None => {
                out.push(rest);
                return out;
            }
        }
    }
}
