//! Direct encounter (直胜 / 雙方勝負), FIDE C.07 art. 6, as the FIDE TEC reference calculator
//! applies it (fixtures README "How TBS computes DE").

use super::compute::Player;
use crate::model::Scoring;
use std::collections::BTreeMap;

/// Common denominator for averaged repeated meetings (6.1.2): divisible by 1..=10 meetings.
const SCALE: i64 = 2520;

/// Orders a group of still-tied players (indices into `players`) by direct encounter. Returns
/// the classes in order, best first; players inside one class stay tied. A single class means
/// DE does not separate the group.
pub(super) fn classes(group: &[usize], players: &[Player], scoring: &Scoring) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut rest: Vec<usize> = group.to_vec();
    loop {
        if rest.len() <= 1 {
            if !rest.is_empty() {
                out.push(rest);
            }
            return out;
        }
        let table = Table::new(&rest, players, scoring);
        if table.all_met() {
            // 6.2: everyone has met: order by the sub-table, then reapply to sub-ties.
            let mut order: Vec<usize> = (0..rest.len()).collect();
            order.sort_by(|&a, &b| table.score[b].cmp(&table.score[a]).then(a.cmp(&b)));
            let mut split: Vec<Vec<usize>> = Vec::new();
            for (i, &pos) in order.iter().enumerate() {
                if i > 0 && table.score[order[i - 1]] == table.score[pos] {
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
                    out.extend(classes(&class, players, scoring));
                }
            }
            return out;
        }
        // 6.3 (Swiss): the top player is placed only if no one else could reach his score
        // even by winning every missing game; then the rest is looked at again on its own.
        let best = (0..rest.len()).find(|&p| {
            (0..rest.len())
                .filter(|&q| q != p)
                .all(|q| table.score[p] > table.max_reachable(q))
        });
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

/// The games among a set of players: scores (× [`SCALE`]) and who has met whom.
struct Table {
    score: Vec<i64>,
    missing: Vec<i64>,
    win: i64,
    size: usize,
    met_pairs: usize,
}

impl Table {
    fn new(members: &[usize], players: &[Player], scoring: &Scoring) -> Table {
        let position: BTreeMap<usize, usize> =
            members.iter().enumerate().map(|(i, &m)| (m, i)).collect();
        // (a, b) -> (points a scored against b, games), played games only (6.1.1).
        let mut games: BTreeMap<(usize, usize), (i64, i64)> = BTreeMap::new();
        for (a, &m) in members.iter().enumerate() {
            for rec in &players[m].recs {
                let Some(opp) = rec.opponent else { continue };
                if !rec.result.is_played() {
                    continue;
                }
                if let Some(&b) = position.get(&opp) {
                    let entry = games.entry((a, b)).or_insert((0, 0));
                    entry.0 += scoring.points(rec.result).tenths();
                    entry.1 += 1;
                }
            }
        }
        let mut score = vec![0i64; members.len()];
        let mut met = vec![0i64; members.len()];
        for (&(a, _), &(points, count)) in &games {
            score[a] += points * SCALE / count;
            met[a] += 1;
        }
        let size = members.len();
        let missing = met.iter().map(|&m| (size as i64 - 1) - m).collect();
        let met_pairs = games.keys().filter(|(a, b)| a < b).count();
        Table {
            score,
            missing,
            win: scoring.win.tenths(),
            size,
            met_pairs,
        }
    }

    fn all_met(&self) -> bool {
        self.met_pairs == self.size * (self.size - 1) / 2
    }

    /// The most `q` could have within the group with every missing game won.
    fn max_reachable(&self, q: usize) -> i64 {
        self.score[q] + self.missing[q] * self.win * SCALE
    }
}
