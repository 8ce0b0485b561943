//! Chinese Swiss (积分编排制), RULES §1.2–§1.5, the "\[D\] Implementable spec".
//!
//! - **Round 1** (拦腰): board k pairs k with k + n/2 in 序号 order; Red goes to the lower number
//!   on odd boards and the higher number on even boards (the first board's colour is
//!   configurable). An odd field gives the bye to the highest 序号.
//! - **Later rounds**: score groups top-down; floaters are paired first and to the nearest
//!   score; hard constraints: no rematch (forfeits count as met unless configured otherwise),
//!   forbidden pairs, same-club avoidance when configured, never 3 same colours in a row,
//!   |Red − Black| ≤ 2. Only the colour rules are ever relaxed — first the difference rule,
//!   then the streak rule — and only when no pairing satisfies them.
//! - **Quality order** among legal pairings (lexicographic): the bye to the first eligible
//!   candidate (lowest score without a bye, then highest 序号); pairs crossing each score
//!   boundary, top-down; Σ (score difference)² (each floater takes the nearest score; the plain
//!   sum of differences is already fixed by the crossings); the number of pairs of two
//!   players due the same colour (同行); the distance from standings order (in a group, the
//!   i-th due-Red player meets the i-th due-Black one; a floater the first of its new group).
//! - **Exact**: the optimum over *all* legal pairings, found as a maximum-weight matching
//!   (see `solve.rs`); no greedy pass. Deterministic. Complexity: a few O(n·m) blossom runs on
//!   a sparse candidate graph plus O(n²) pricing passes.
//! - **Colours** (RULES §1.3 "Colour in a formed pair"): an absolute need wins (the hard
//!   colour rules, step 3); else the larger colour index (xianshu: more Reds, then a longer Red
//!   run; 0 without history) gets Black; else alternate from the latest round where their
//!   colours differed; else odd rounds give Red to the lower 序号 and even rounds to the higher.
//! - **Boards** (step 6): higher score desc, lower score desc, lower 序号; the bye last.
//!
//! Banqi: "Red" means "moves first"; [`ChineseOptions::moves_first_naming`] names it so in the
//! report.

mod context;
mod report;
mod solve;

pub use report::{
    BoardReport, ByeReport, ColourDecision, FloatReason, FloaterReport, PairingReport, RelaxedRule,
    ScoreGroupReport,
};
pub use solve::QualityKey;

use crate::model::{Side, StartNo, Tournament};
use crate::pairing::{entrants_to_pair, next_round, Board, PairingError, RoundPairing};
use context::Context;
use serde::{Deserialize, Serialize};
use solve::{Solved, Solver};

/// Options of the Chinese system.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChineseOptions {
    /// A forfeited (unplayed) pairing counts as "met" (SPEC §4 default: yes).
    pub forfeit_counts_as_met: bool,
    /// Entrants of the same [`crate::model::Entrant::club`] must not meet.
    pub avoid_same_club: bool,
    /// Colour of the lower number on board 1 in round 1; `None`: the tournament's
    /// `initial_colour`, else Red. For "colour by lot" the caller draws and sets it.
    pub first_board_colour: Option<Side>,
    /// Order inside equal scores (e.g. the current tiebreak ranking); entrants not listed
    /// follow by 序号. `None`: by 序号.
    pub tie_order: Option<Vec<StartNo>>,
    /// Banqi: name the sides "moves first" / "moves second" in the report.
    pub moves_first_naming: bool,
}

impl Default for ChineseOptions {
    fn default() -> Self {
        ChineseOptions {
            forfeit_counts_as_met: true,
            avoid_same_club: false,
            first_board_colour: None,
            tie_order: None,
            moves_first_naming: false,
        }
    }
}

/// A paired round with its explanation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChinesePairing {
    /// Boards and bye (`pairing.to_text()` is what `arbiter pair` prints).
    pub pairing: RoundPairing,
    /// Why this pairing (for the dashboard).
    pub report: PairingReport,
}

/// Pairs the next round ([`next_round`]) of `t` for the entrants of [`entrants_to_pair`].
pub fn pair(t: &Tournament, options: &ChineseOptions) -> Result<ChinesePairing, PairingError> {
    let round = next_round(t);
    let ids = entrants_to_pair(t, round);
    pair_round(t, options, round, &ids)
}

/// Pairs `round` for the given entrants (ascending or not; any subset of the tournament).
pub fn pair_round(
    t: &Tournament,
    options: &ChineseOptions,
    round: u32,
    ids: &[StartNo],
) -> Result<ChinesePairing, PairingError> {
    let ctx = context::build(t, options, round, ids)?;
    let solved = if ctx.half_split {
        match half_split(&ctx) {
            Some(s) => s,
            None => Solver::new(&ctx).solve()?.0,
        }
    } else {
        Solver::new(&ctx).solve()?.0
    };
    let key = Solver::new(&ctx).key(&solved);
    Ok(finish(t, options, &ctx, &solved, key))
}

/// Evaluates any pairing of `round` (e.g. an arbiter's manual edit or a test's candidate)
/// under the engine's quality order; `None` when it is not a complete pairing of `ids` that
/// respects the never-relaxed constraints (rematches, forbidden pairs, clubs).
pub fn quality(
    t: &Tournament,
    options: &ChineseOptions,
    round: u32,
    ids: &[StartNo],
    pairing: &RoundPairing,
) -> Result<Option<QualityKey>, PairingError> {
    Ok(Evaluator::new(t, options, round, ids)?.evaluate(pairing))
}

/// Evaluates many candidate pairings of one round against the engine's quality order.
pub struct Evaluator {
    ctx: Context,
    index: std::collections::BTreeMap<StartNo, usize>,
}

impl Evaluator {
    /// Prepares the round's data once.
    pub fn new(
        t: &Tournament,
        options: &ChineseOptions,
        round: u32,
        ids: &[StartNo],
    ) -> Result<Evaluator, PairingError> {
        let ctx = context::build(t, options, round, ids)?;
        let index = ctx
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i))
            .collect();
        Ok(Evaluator { ctx, index })
    }

    /// Whether two entrants may meet at all (no rematch, not forbidden, not the same club
    /// when avoided); colour rules are not considered.
    pub fn may_meet(&self, a: StartNo, b: StartNo) -> bool {
        match (self.index.get(&a), self.index.get(&b)) {
            (Some(&i), Some(&j)) => self.ctx.legal(i, j),
            _ => false,
        }
    }

    /// The quality key of `pairing` (colours are not part of it), or `None` when it is not a
    /// complete pairing of the round's entrants that respects the never-relaxed constraints.
    pub fn evaluate(&self, pairing: &RoundPairing) -> Option<QualityKey> {
        let ctx = &self.ctx;
        let mut solved = Solved::default();
        let mut seen = vec![false; ctx.n()];
        let mut mark = |i: usize| !std::mem::replace(&mut seen[i], true);
        for b in &pairing.boards {
            let (&i, &j) = (self.index.get(&b.red)?, self.index.get(&b.black)?);
            if !ctx.legal(i, j) || !mark(i) || !mark(j) {
                return None;
            }
            solved.pairs.push((i.min(j), i.max(j)));
        }
        if let Some(b) = pairing.bye {
            let &i = self.index.get(&b)?;
            if !mark(i) {
                return None;
            }
            solved.bye = Some(i);
        }
        if seen.iter().any(|s| !s) || (ctx.n() % 2 == 1) != solved.bye.is_some() {
            return None;
        }
        Some(Solver::new(ctx).key(&solved))
    }
}

/// Round 1 拦腰 when it breaks no never-relaxed constraint: k v k + n/2, the highest 序号
/// (last in order) on the bye for an odd field.
fn half_split(ctx: &Context) -> Option<Solved> {
    let n = ctx.n();
    // Everyone has 0 points and no history in round 1: the order is 序号 order (or the
    // caller's tie order), and the bye goes to the first bye candidate (highest 序号).
    let bye = (n % 2 == 1)
        .then(|| (0..n).find(|&i| ctx.bye_rank[i] == 0))
        .flatten();
    let rest: Vec<usize> = (0..n).filter(|&i| Some(i) != bye).collect();
    let half = rest.len() / 2;
    let pairs: Vec<(usize, usize)> = (0..half).map(|k| (rest[k], rest[k + half])).collect();
    pairs
        .iter()
        .all(|&(i, j)| ctx.legal(i, j))
        .then_some(Solved { pairs, bye })
}

/// Colour allocation (RULES §1.3 "Colour in a formed pair", after the hard colour rules) for the pair `(i, j)`: returns (red, black, why).
fn colours(ctx: &Context, i: usize, j: usize) -> (usize, usize, ColourDecision) {
    let (a, b) = (&ctx.players[i], &ctx.players[j]);
    let cost = |(s, d): (i128, i128)| s * ctx.streak_factor + d;
    let a_red = cost(ctx.assignment_violations(i, j));
    let b_red = cost(ctx.assignment_violations(j, i));
    if a_red != b_red {
        return if a_red < b_red {
            (i, j, ColourDecision::AbsoluteNeed)
        } else {
            (j, i, ColourDecision::AbsoluteNeed)
        };
    }
    // RULES §1.3 "Colour in a formed pair", step 1: the larger colour index (more Reds, then
    // a longer Red run) gets Black. A player without colour history has index 0.
    let (ia, ib) = (a.colour_index(), b.colour_index());
    if ia != ib {
        return if ia > ib {
            (j, i, ColourDecision::Balance)
        } else {
            (i, j, ColourDecision::Balance)
        };
    }
    // Step 2: compare the colour strings (games played; forfeits and byes are no colour
    // history) from the latest game backwards; at the first difference, the one who was Red
    // then gets Black. A string that ends first without a difference counts as identical.
    for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
        if ca != cb {
            return if *ca == Side::Red {
                (j, i, ColourDecision::Alternation)
            } else {
                (i, j, ColourDecision::Alternation)
            };
        }
    }
    // Step 3, MBP default ②: odd round → lower 序号 Red, even round → higher 序号 Red.
    let lower_red = ctx.round % 2 == 1;
    let (lo, hi) = if a.id < b.id { (i, j) } else { (j, i) };
    if lower_red {
        (lo, hi, ColourDecision::RoundParity)
    } else {
        (hi, lo, ColourDecision::RoundParity)
    }
}

fn finish(
    t: &Tournament,
    options: &ChineseOptions,
    ctx: &Context,
    solved: &Solved,
    key: QualityKey,
) -> ChinesePairing {
    // Board order (step 6): higher score desc, lower score desc, lower 序号.
    let mut pairs = solved.pairs.clone();
    let order_key = |&(i, j): &(usize, usize)| {
        let (a, b) = (&ctx.players[i], &ctx.players[j]);
        (
            std::cmp::Reverse(a.points.max(b.points)),
            std::cmp::Reverse(a.points.min(b.points)),
            a.id.min(b.id),
        )
    };
    pairs.sort_by_key(order_key);
    let first = options
        .first_board_colour
        .or(t.initial_colour)
        .unwrap_or(Side::Red);
    let mut boards = Vec::with_capacity(pairs.len());
    let mut decided = Vec::with_capacity(pairs.len());
    for (k, &(i, j)) in pairs.iter().enumerate() {
        let (red, black, why) = if ctx.half_split && key.violations == 0 {
            // Round 1: odd boards give the first colour to the lower number, even boards the
            // other one.
            let (lo, hi) = if ctx.players[i].id < ctx.players[j].id {
                (i, j)
            } else {
                (j, i)
            };
            let lower_gets = if k % 2 == 0 { first } else { first.opposite() };
            if lower_gets == Side::Red {
                (lo, hi, ColourDecision::RoundOnePattern)
            } else {
                (hi, lo, ColourDecision::RoundOnePattern)
            }
        } else {
            colours(ctx, i, j)
        };
        boards.push(Board {
            red: ctx.players[red].id,
            black: ctx.players[black].id,
        });
        decided.push((red, black, why));
    }
    let pairing = RoundPairing {
        boards,
        bye: solved.bye.map(|b| ctx.players[b].id),
    };
    let report = report::build(ctx, options, &decided, solved.bye, key);
    ChinesePairing { pairing, report }
}

#[cfg(test)]
mod tests;
