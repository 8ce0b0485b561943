//! The exact solver: maximum-weight matchings whose weights encode the lexicographic quality
//! order, with small weights found step by step.
//!
//! Criteria, most important first (all minimised, all sums over the boards of per-board costs):
//! 0. colour-rule violations (a streak violation outweighs every difference violation);
//! 1. the bye candidate's rank (step 1; the bye is a board against a dummy vertex);
//! 2. one criterion per score boundary, top-down: the pairs crossing it (step 4.1);
//!
//! then a low part packing (Σ (points difference)², number of same-row pairs, position
//! distance) as one mixed-radix number (steps 4.2–4.4).
//!
//! Lexicographic weights would need a factor per criterion as large as the range of all the
//! lower ones, which overflows any fixed-width integer with many score groups. Instead, with
//! `c*` the optimal values, weight `W_i = Σ_{l>i} W_l·c*_l + R + 1` (R bounding the low part)
//! already makes the lexicographic optimum the maximum-weight matching, and the `c*` are small.
//! They are found in order: a matching that attains a criterion's lower bound is optimal for
//! it; otherwise one more matching with the criterion's current value as bound settles it.
//!
//! Large fields are solved on a sparse candidate graph (each player's near neighbours in its
//! score group and the next one); the optimal duals then price every left-out legal pair and
//! any pair with a negative reduced cost is added and the matching re-solved, so the result is
//! exactly the optimum over all legal pairs.

use super::context::{Context, PairCost};
use crate::pairing::PairingError;

/// A solved round: boards as index pairs (ranking order) and the bye.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Solved {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// The quality of a pairing as a lexicographic key (smaller is better).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct QualityKey {
    /// Weighted colour-rule violations (0 when no rule was relaxed).
    pub violations: i128,
    /// Rank of the bye player among the bye candidates (0: the first candidate).
    pub bye_rank: i128,
    /// Pairs crossing each score boundary, top-down (RULES §1.3 step 4.1).
    pub crossings: Vec<i128>,
    /// Σ (points difference in tenths)² (step 4.2; the plain sum is fixed by the crossings).
    pub squared_differences: i128,
    /// Pairs of two players due the same colour (step 4.3, fewer is better).
    pub same_row_pairs: i128,
    /// Σ distance from the standings-order target (step 4.4).
    pub position_distance: i128,
}

const DENSE_LIMIT: usize = 120;
const NEAR: usize = 4;

struct Weights {
    /// One weight per criterion: violations, bye, then each boundary.
    w: Vec<i128>,
    /// Prefix sums of the boundary weights.
    prefix: Vec<i128>,
    xr: i128,
    yr: i128,
    base: i128,
}

fn overflow() -> PairingError {
    PairingError::InvalidState("pairing weights overflow 128 bits".into())
}

impl Weights {
    fn low(&self, c: &PairCost) -> i128 {
        (c.sq_diff * self.xr + c.same_row) * self.yr + c.position
    }

    fn cost(&self, c: &PairCost) -> i128 {
        self.w[0] * c.violations
            + self.w[1] * c.bye
            + (self.prefix[c.cross.1] - self.prefix[c.cross.0])
            + self.low(c)
    }

    fn weight(&self, c: &PairCost) -> i128 {
        self.base - self.cost(c)
    }
}

pub(crate) struct Solver<'a> {
    ctx: &'a Context,
    boards: usize,
    xr: i128,
    yr: i128,
    low_bound: i128,
    criteria: usize,
}

impl<'a> Solver<'a> {
    pub fn new(ctx: &'a Context) -> Solver<'a> {
        let n = ctx.n();
        let boards = n / 2 + 1;
        let xr = boards as i128 + 1;
        let yr = boards as i128 * ctx.max_position + 1;
        let low_bound = boards as i128 * ((ctx.max_sq_diff + 1) * xr * yr);
        let criteria = 2 + ctx.levels.len().saturating_sub(1);
        Solver {
            ctx,
            boards,
            xr,
            yr,
            low_bound,
            criteria,
        }
    }

    /// Criterion values of a solved pairing.
    pub fn key(&self, s: &Solved) -> QualityKey {
        let mut key = QualityKey {
            violations: 0,
            bye_rank: 0,
            crossings: vec![0; self.criteria - 2],
            squared_differences: 0,
            same_row_pairs: 0,
            position_distance: 0,
        };
        let mut add = |c: PairCost| {
            key.violations += c.violations;
            key.bye_rank += c.bye;
            for j in c.cross.0..c.cross.1 {
                key.crossings[j] += 1;
            }
            key.squared_differences += c.sq_diff;
            key.same_row_pairs += c.same_row;
            key.position_distance += c.position;
        };
        for &(i, j) in &s.pairs {
            add(self.ctx.pair_cost(i, j));
        }
        if let Some(b) = s.bye {
            add(self.ctx.bye_cost(b));
        }
        key
    }

    fn values(key: &QualityKey) -> Vec<i128> {
        let mut v = vec![key.violations, key.bye_rank];
        v.extend(key.crossings.iter().copied());
        v
    }

    /// Lower bound of criterion `index` over perfect matchings: with `bye = Some(b)` over
    /// those giving the bye to `b` (`None` inside: no bye), with `None` over all of them.
    /// Boundary counts also keep the parity of the players above the boundary.
    fn lower_bound(&self, index: usize, bye: Option<Option<usize>>) -> i128 {
        if index < 2 {
            return 0;
        }
        let boundary = index - 2;
        let above = self
            .ctx
            .players
            .iter()
            .filter(|p| p.level <= boundary)
            .count();
        match bye {
            // Odd field, bye unknown: the bye may sit above or below the boundary.
            None if self.ctx.n() % 2 == 1 => 0,
            None => (above % 2) as i128,
            Some(b) => {
                let bye_above = b.is_some_and(|b| self.ctx.players[b].level <= boundary);
                ((above - usize::from(bye_above)) % 2) as i128
            }
        }
    }

    /// Weights making the lexicographic optimum over criteria `0..=upto` (those after get
    /// weight 0) the maximum-weight perfect matching, given `bounds` on the optimal values
    /// and, when known, the bye of every optimum.
    ///
    /// A matching that first deviates at criterion `i` loses at least `W_i` (twice that for a
    /// boundary once the bye is fixed: boundary counts keep their parity) and can gain at most
    /// `Σ_{l>i} W_l·(bound_l − lower_bound_l)` plus the low part, so
    /// `W_i = ⌊(that gain + R) / step⌋ + 1`. Criteria sitting at their lower bound add nothing,
    /// which keeps the weights small even with dozens of score groups.
    fn weights(
        &self,
        bounds: &[i128],
        upto: usize,
        bye: Option<Option<usize>>,
    ) -> Result<Weights, PairingError> {
        let mut w = vec![0i128; self.criteria];
        let mut gain_any: i128 = 0;
        let mut gain_bye: i128 = 0;
        for i in (0..=upto).rev() {
            let (gain, step) = if i >= 2 && bye.is_some() {
                (gain_bye, 2)
            } else {
                (gain_any, 1)
            };
            w[i] = gain
                .checked_add(self.low_bound)
                .map(|x| x / step + 1)
                .ok_or_else(overflow)?;
            let excess_any = (bounds[i] - self.lower_bound(i, None)).max(0);
            let excess_bye = match bye {
                Some(b) => (bounds[i] - self.lower_bound(i, Some(b))).max(0),
                None => excess_any,
            };
            gain_any = w[i]
                .checked_mul(excess_any)
                .and_then(|x| x.checked_add(gain_any))
                .ok_or_else(overflow)?;
            gain_bye = w[i]
                .checked_mul(excess_bye)
                .and_then(|x| x.checked_add(gain_bye))
                .ok_or_else(overflow)?;
        }
        let mut prefix = vec![0i128; self.criteria - 1];
        for j in 0..self.criteria - 2 {
            prefix[j + 1] = prefix[j] + w[2 + j];
        }
        let ctx = self.ctx;
        let max_violation = 2 * ctx.streak_factor + 2;
        let boundary_sum = prefix.last().copied().unwrap_or(0);
        let max_cost = w[0]
            .checked_mul(max_violation)
            .and_then(|x| x.checked_add(w[1].checked_mul(ctx.n() as i128)?))
            .and_then(|x| x.checked_add(boundary_sum))
            .and_then(|x| x.checked_add(self.low_bound))
            .ok_or_else(overflow)?;
        let base = max_cost
            .checked_mul(self.boards as i128 + 1)
            .and_then(|x| x.checked_add(1))
            .ok_or_else(overflow)?;
        // Slack computations double the weights: keep a bit of headroom.
        if base > i128::MAX / 8 {
            return Err(overflow());
        }
        Ok(Weights {
            w,
            prefix,
            xr: self.xr,
            yr: self.yr,
            base,
        })
    }

    /// The sparse candidate pairs: near neighbours in the same score group (both rows) and
    /// the top of the next group; round 1 targets k + n/2.
    fn candidates(&self) -> Vec<(usize, usize)> {
        let ctx = self.ctx;
        let n = ctx.n();
        let mut out = Vec::new();
        if n <= DENSE_LIMIT {
            for i in 0..n {
                for j in i + 1..n {
                    if ctx.legal(i, j) {
                        out.push((i, j));
                    }
                }
            }
            return out;
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut push = |i: usize, j: usize, out: &mut Vec<(usize, usize)>| {
            let (a, b) = (i.min(j), i.max(j));
            if a != b && ctx.legal(a, b) && seen.insert((a, b)) {
                out.push((a, b));
            }
        };
        if ctx.half_split {
            let half = n / 2;
            for i in 0..n {
                let lo = (i + half).saturating_sub(NEAR);
                for j in lo..(i + half + NEAR + 1).min(n) {
                    push(i, j, &mut out);
                }
                for j in i + 1..(i + 1 + NEAR).min(n) {
                    push(i, j, &mut out);
                }
            }
            return out;
        }
        // Players of each level, in ranking order.
        let mut by_level: Vec<Vec<usize>> = vec![Vec::new(); ctx.levels.len()];
        for (i, p) in ctx.players.iter().enumerate() {
            by_level[p.level].push(i);
        }
        for (level, members) in by_level.iter().enumerate() {
            for &i in members {
                let p = &ctx.players[i];
                for &j in members {
                    let q = &ctx.players[j];
                    if j > i && p.row_pos.abs_diff(q.row_pos) <= NEAR {
                        push(i, j, &mut out);
                    }
                }
                if let Some(next) = by_level.get(level + 1) {
                    for &j in next {
                        if ctx.players[j].row_pos < NEAR {
                            push(i, j, &mut out);
                        }
                    }
                }
            }
        }
        out
    }

    /// One maximum-weight perfect matching under `weights`, exact over all legal pairs.
    fn matching(&self, weights: &Weights, pool: &mut Vec<(usize, usize)>) -> Solved {
        let ctx = self.ctx;
        let n = ctx.n();
        let dummy = (n % 2 == 1).then_some(n);
        let vertices = n + usize::from(dummy.is_some());
        let dense = n <= DENSE_LIMIT;
        loop {
            let mut edges: Vec<(usize, usize, i128)> = pool
                .iter()
                .map(|&(i, j)| (i, j, weights.weight(&ctx.pair_cost(i, j))))
                .collect();
            if let Some(d) = dummy {
                edges.extend((0..n).map(|i| (i, d, weights.weight(&ctx.bye_cost(i)))));
            }
            let solution = crate::pairing::matching::solve_priced(vertices, &edges, false);
            if !dense {
                // Price every legal pair left out of the pool.
                let in_pool: std::collections::BTreeSet<(usize, usize)> =
                    pool.iter().copied().collect();
                let mut violated = Vec::new();
                for i in 0..n {
                    for j in i + 1..n {
                        if ctx.legal(i, j) && !in_pool.contains(&(i, j)) {
                            let w = weights.weight(&ctx.pair_cost(i, j));
                            let slack = solution.slack(i, j, w);
                            if slack < 0 {
                                violated.push((slack, i, j));
                            }
                        }
                    }
                }
                if !violated.is_empty() {
                    violated.sort_unstable();
                    violated.truncate(4 * n.max(16));
                    pool.extend(violated.into_iter().map(|(_, i, j)| (i, j)));
                    continue;
                }
            }
            let mut out = Solved::default();
            for i in 0..n {
                match solution.mate[i] {
                    Some(j) if Some(j) == dummy => out.bye = Some(i),
                    Some(j) if j > i => out.pairs.push((i, j)),
                    _ => {}
                }
            }
            return out;
        }
    }

    /// The exact lexicographic optimum, or an error when no pairing exists at all.
    pub fn solve(&self) -> Result<(Solved, QualityKey), PairingError> {
        let n = self.ctx.n();
        let mut pool = self.candidates();
        let last = self.criteria - 1;
        // First guess: every criterion one above its lower bound (a heuristic: the scan
        // below only trusts values that reach their lower bound, and re-solves the others).
        let guess: Vec<i128> = (0..self.criteria)
            .map(|i| self.lower_bound(i, None) + 1)
            .collect();
        let first = match self.weights(&guess, last, None) {
            Ok(w) => w,
            Err(_) => {
                let floor: Vec<i128> = (0..self.criteria)
                    .map(|i| self.lower_bound(i, None))
                    .collect();
                self.weights(&floor, last, None)?
            }
        };
        let mut current = self.matching(&first, &mut pool);
        self.check_complete(&current)?;
        let mut known: Vec<i128> = Vec::with_capacity(self.criteria);
        let mut solved_again = false;
        for index in 0..self.criteria {
            let value = Self::values(&self.key(&current))[index];
            if value > self.lower_bound(index, Some(current.bye)) {
                let mut bounds = known.clone();
                bounds.push(value);
                // From the boundaries on, the bye is settled (criterion 1 is fixed).
                let bye = (index >= 2).then_some(current.bye);
                current = self.matching(&self.weights(&bounds, index, bye)?, &mut pool);
                solved_again = true;
            }
            known.push(Self::values(&self.key(&current))[index]);
        }
        if solved_again {
            current = self.matching(&self.weights(&known, last, Some(current.bye))?, &mut pool);
        }
        debug_assert_eq!(
            current.pairs.len() * 2 + usize::from(current.bye.is_some()),
            n
        );
        let key = self.key(&current);
        Ok((current, key))
    }

    fn check_complete(&self, s: &Solved) -> Result<(), PairingError> {
        let n = self.ctx.n();
        if s.pairs.len() * 2 + usize::from(s.bye.is_some()) == n {
            return Ok(());
        }
        let mut paired = vec![false; n];
        for &(i, j) in &s.pairs {
            paired[i] = true;
            paired[j] = true;
        }
        if let Some(b) = s.bye {
            paired[b] = true;
        }
        let left: Vec<String> = (0..n)
            .filter(|&i| !paired[i])
            .map(|i| self.ctx.players[i].id.to_string())
            .collect();
        Err(PairingError::NoValidPairing {
            reason: format!(
                "no pairing avoids rematches and forbidden pairs; left unpaired: {}",
                left.join(", ")
            ),
        })
    }
}
