//! Starting duals for a big set of released vertices that fall into a few classes
//! (issue #19). The Dutch engine releases a whole bracket at once, and a bracket's pairs
//! take their weight from the two players' classes. Started one vertex after the other at
//! its lowest feasible dual, hardly any pair of the bracket is tight, so the solver needed
//! eight to ten stages, each scanning the whole bracket. Here the duals come from the
//! bracket's problem shrunk to its classes: the fractional perfect matching of `count[c]`
//! vertices per class, written as a transportation problem on two copies of the classes
//! (supply and demand `count[c]`, arc `c → d` of weight `w(c, d)`), solved exactly by
//! successive shortest paths (the Hungarian method with capacities). Its optimal duals
//! `u` (supply side) and `v` (demand side) give each class the doubled dual
//! `y(c) = u(c) + v(c)`: `y(c) + y(d) ≥ 2·w(c, d)` for every arc, and a pair of classes
//! that carries flow in the (symmetric) optimum is tight, so most of the bracket's
//! vertices can be matched on tight pairs before the first stage.

use super::MatchWeight;

/// Class duals (doubled units) for `count[c]` vertices per class and the weights
/// `cost[c·k + d]` (`None`: no pair between the classes; symmetric). The diagonal must be
/// set for every class: it is the least dual of the class (the heavier of the weight of a
/// pair inside it and the bound from its vertices' other edges), which also makes the
/// problem always feasible. Minimises `Σ count[c]·y(c)` subject to `y(c) + y(d) ≥ 2·cost`
/// off the diagonal and `y(c) ≥ cost[c·k + c]`.
pub(crate) fn class_duals<W: MatchWeight>(count: &[usize], cost: &[Option<W>]) -> Vec<W> {
    let (u, v, _) = transport(count, cost);
    u.iter().zip(&v).map(|(&a, &b)| a.add(b)).collect()
}

/// The transportation problem behind [`class_duals`]: maximum-weight flow routing every
/// class's supply to the demand side. Returns the duals `u`, `v` (`u(c) + v(d) ≥ cost`,
/// equal on every arc with flow) and the flow (`flow[c·k + d]`).
#[allow(clippy::type_complexity, clippy::needless_range_loop)]
fn transport<W: MatchWeight>(count: &[usize], cost: &[Option<W>]) -> (Vec<W>, Vec<W>, Vec<usize>) {
    const NONE: usize = usize::MAX;
    let k = count.len();
    assert_eq!(cost.len(), k * k, "one cost per pair of classes");
    let arc = |c: usize, d: usize| cost[c * k + d];
    let mut u: Vec<W> = (0..k)
        .map(|c| {
            (0..k)
                .filter_map(|d| arc(c, d))
                .max()
                .expect("every class has its own arc")
        })
        .collect();
    let mut v: Vec<W> = vec![W::ZERO; k];
    let mut flow = vec![0usize; k * k];
    let mut excess = count.to_vec();
    let mut deficit = count.to_vec();
    // Nodes: supply side `0..k`, demand side `k..2k`.
    let mut dist: Vec<Option<W>> = vec![None; 2 * k];
    let mut done = vec![false; 2 * k];
    let mut prev = vec![NONE; 2 * k];
    while excess.iter().any(|&e| e > 0) {
        dist.iter_mut().for_each(|d| *d = None);
        done.iter_mut().for_each(|d| *d = false);
        prev.iter_mut().for_each(|p| *p = NONE);
        for c in 0..k {
            if excess[c] > 0 {
                dist[c] = Some(W::ZERO);
            }
        }
        let sink = loop {
            let mut best: Option<(W, usize)> = None;
            for x in 0..2 * k {
                if let (false, Some(d)) = (done[x], dist[x]) {
                    if best.is_none_or(|(b, _)| d < b) {
                        best = Some((d, x));
                    }
                }
            }
            // Every supply reaches some demand: each class has its own arc (see the docs).
            let (dx, x) = best.expect("a demand is always reachable");
            done[x] = true;
            if x >= k {
                let d = x - k;
                if deficit[d] > 0 {
                    break x;
                }
                for c in 0..k {
                    if flow[c * k + d] > 0 && !done[c] && dist[c].is_none_or(|old| dx < old) {
                        dist[c] = Some(dx);
                        prev[c] = x;
                    }
                }
            } else {
                for d in 0..k {
                    if let Some(w) = arc(x, d) {
                        let y = k + d;
                        let nd = dx.add(u[x].add(v[d]).sub(w));
                        if !done[y] && dist[y].is_none_or(|old| nd < old) {
                            dist[y] = Some(nd);
                            prev[y] = x;
                        }
                    }
                }
            }
        };
        let reach = dist[sink].unwrap_or(W::ZERO);
        for x in 0..2 * k {
            if let Some(d) = dist[x].filter(|&d| d < reach) {
                let delta = reach.sub(d);
                if x < k {
                    u[x] = u[x].sub(delta);
                } else {
                    v[x - k] = v[x - k].add(delta);
                }
            }
        }
        // The path alternates supply → demand (forward) and demand → supply (backward).
        let mut amount = deficit[sink - k];
        let mut y = sink;
        let source = loop {
            let c = prev[y];
            if prev[c] == NONE {
                break c;
            }
            let back = prev[c];
            amount = amount.min(flow[c * k + (back - k)]);
            y = back;
        };
        amount = amount.min(excess[source]);
        excess[source] -= amount;
        deficit[sink - k] -= amount;
        let mut y = sink;
        loop {
            let c = prev[y];
            flow[c * k + (y - k)] += amount;
            if prev[c] == NONE {
                break;
            }
            let back = prev[c];
            flow[c * k + (back - k)] -= amount;
            y = back;
        }
    }
    (u, v, flow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random symmetric instance: class sizes and costs, some pairs missing.
    fn instance() -> impl Strategy<Value = (Vec<usize>, Vec<Option<i64>>)> {
        (1usize..8).prop_flat_map(|k| {
            (
                proptest::collection::vec(1usize..6, k),
                proptest::collection::vec(proptest::option::weighted(0.7, -20i64..40), k * k),
            )
                .prop_map(move |(count, raw)| {
                    let mut cost = vec![None; k * k];
                    for c in 0..k {
                        for d in c..k {
                            let w = raw[c * k + d];
                            cost[c * k + d] = w;
                            cost[d * k + c] = w;
                        }
                        cost[c * k + c] = Some(raw[c * k + c].unwrap_or(-30));
                    }
                    (count, cost)
                })
        })
    }

    proptest! {
        /// Feasible duals, a flow that routes every supply, and complementary slackness:
        /// together they prove both optimal (LP duality).
        #[test]
        fn the_transportation_duals_are_optimal((count, cost) in instance()) {
            let k = count.len();
            let (u, v, flow) = transport(&count, &cost);
            for c in 0..k {
                prop_assert_eq!((0..k).map(|d| flow[c * k + d]).sum::<usize>(), count[c]);
                prop_assert_eq!((0..k).map(|d| flow[d * k + c]).sum::<usize>(), count[c]);
                for d in 0..k {
                    match cost[c * k + d] {
                        Some(w) => {
                            prop_assert!(u[c] + v[d] >= w);
                            if flow[c * k + d] > 0 {
                                prop_assert_eq!(u[c] + v[d], w);
                            }
                        }
                        None => prop_assert_eq!(flow[c * k + d], 0),
                    }
                }
            }
            let y = class_duals(&count, &cost);
            for c in 0..k {
                for d in 0..k {
                    if let Some(w) = cost[c * k + d] {
                        let need = if c == d { w } else { 2 * w };
                        let have = if c == d { y[c] } else { y[c] + y[d] };
                        prop_assert!(have >= need);
                    }
                }
            }
        }
    }

    #[test]
    fn two_classes_that_prefer_each_other_are_tight_between_them() {
        // Ten of each: pairs across are worth 5, inside 4; the optimum pairs across.
        let cost = vec![Some(4i64), Some(5), Some(5), Some(4)];
        let y = class_duals(&[10, 10], &cost);
        assert_eq!(y[0] + y[1], 10);
        assert!(y[0] >= 4 && y[1] >= 4);
    }
}
