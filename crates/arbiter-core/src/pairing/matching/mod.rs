//! Maximum-weight matching on general graphs (Edmonds' blossom algorithm, primal-dual,
//! O(n³) per full solve), with exact integer weights. One algorithm ([`blossom`]) runs on
//! two graph layouts ([`graph::Graph`]): a dense table and sparse adjacency lists.
//!
//! Knows nothing about chess: pairing systems encode their criteria as edge weights.
//!
//! Entry points:
//! - [`max_weight_matching`]: one-shot on the dense layout, plain maximum weight or maximum
//!   weight among the maximum-cardinality matchings.
//! - [`solve_priced`] (crate): one-shot on a sparse edge list, with the optimal duals, which
//!   price edges left out of the graph ([`Solution::slack`]): the Chinese engine solves on a
//!   candidate graph and adds the left-out pairs the duals do not prove unneeded.
//! - [`Matcher`]: a dense graph that keeps its optimum (matching and dual variables) between
//!   solves. After edge weights around a few vertices change, [`Matcher::solve`] repairs the
//!   optimum locally instead of starting over; this is what makes the Dutch system's many
//!   "is there still an optimum with this choice?" questions affordable. The matcher always
//!   computes a maximum-weight matching among the maximum-cardinality ones. Between solves it
//!   can also answer some such questions with no solve at all: [`Matcher::may_be_optimal`]
//!   rules edges out of every optimum by their reduced cost under the certified optimal
//!   duals, and [`Matcher::try_swap`] moves to another optimum by exchanging two partners.
//! - [`SparseMatcher`]: the same on a dense graph of default weights of which only a few
//!   edges are stored, the others priced by the duals after every solve.
//!
//! The weight types are in [`weight`]: `i64`, `i128` and the multi-limb [`Wide`].

mod blossom;
mod classes;
mod dense;
mod graph;
pub mod sparse;
mod weight;

pub use dense::{max_weight_matching, Matcher};
pub use sparse::{DefaultWeight, SparseMatcher, NO_WEIGHT};
pub use weight::{MatchWeight, WeightMap, Wide, WordHasher};

use blossom::{State, Ties};

const NONE: usize = usize::MAX;

/// A matcher that keeps its optimum between solves, dense ([`Matcher`]) or sparse
/// ([`SparseMatcher`]): what the Dutch engine needs, so that both can run it (the dense one
/// is the reference the sparse one is tested against).
pub trait PersistentMatcher<'a, W: MatchWeight> {
    /// A graph of `n` isolated vertices (see [`Matcher::with_weight_bits`]).
    fn with_weight_bits(n: usize, bits: u32) -> Self
    where
        Self: Sized;
    /// Gives every pair its default weight (`None`: no edge); `potential` bounds them
    /// (`2·w(u, v) ≤ P(u) + P(v)`; only the sparse matcher uses it).
    fn set_defaults(&mut self, potential: Vec<W>, default: DefaultWeight<'a, W>);
    /// See [`Matcher::set_weight`].
    fn set_weight(&mut self, u: usize, v: usize, weight: Option<W>);
    /// `set_weight(u, v, weight)` for each `(v, weight)` of `row` in turn (`v` ascending;
    /// see [`SparseMatcher::set_row`]).
    fn set_row(&mut self, u: usize, row: &[(usize, Option<W>)]) {
        for &(v, weight) in row {
            self.set_weight(u, v, weight);
        }
    }
    /// [`PersistentMatcher::set_row`] with each weight given as its index in `table`
    /// ([`NO_WEIGHT`]: no edge; see [`SparseMatcher::set_row_ids`]).
    fn set_row_ids(&mut self, u: usize, row: &[(usize, u32)], table: &[W]) {
        for &(v, id) in row {
            self.set_weight(u, v, (id != NO_WEIGHT).then(|| table[id as usize]));
        }
    }
    /// `set_row_ids(vertices[i], [(vertices[j], rows[i][j]) for j < i], table)` for each
    /// `i` of `from..vertices.len()` in turn (`vertices` ascending; see
    /// [`SparseMatcher::set_rows_ids`]).
    fn set_rows_ids(&mut self, vertices: &[usize], from: usize, rows: &[Vec<u32>], table: &[W]) {
        let mut row: Vec<(usize, u32)> = Vec::with_capacity(vertices.len());
        for i in from..vertices.len() {
            triangle_row(vertices, rows, i, &mut row);
            self.set_row_ids(vertices[i], &row, table);
        }
    }
    /// A hint for the next solve: see [`SparseMatcher::start_by_classes`] (the dense
    /// matcher ignores it).
    fn start_by_classes(
        &mut self,
        _lo: usize,
        _class: &[u32],
        _extra: &[(usize, u32)],
        _pairs: &[(u32, u32, W)],
    ) {
    }
    /// See [`Matcher::fix_pair`].
    fn fix_pair(&mut self, u: usize, v: usize);
    /// See [`Matcher::solve`].
    fn solve(&mut self);
    /// See [`Matcher::is_certified`].
    fn is_certified(&self) -> bool;
    /// See [`Matcher::may_be_optimal`].
    fn may_be_optimal(&self, u: usize, v: usize) -> bool;
    /// See [`Matcher::try_swap`].
    fn try_swap(&mut self, u: usize, c: usize) -> bool;
    /// See [`Matcher::mate`].
    fn mate(&self, v: usize) -> Option<usize>;
    /// See [`Matcher::matching`].
    fn matching(&self) -> Vec<Option<usize>>;
}

/// Row `i` of [`PersistentMatcher::set_rows_ids`]' triangle: `(vertices[j], rows[i][j])`
/// for `j < i`, into `out`.
fn triangle_row(vertices: &[usize], rows: &[Vec<u32>], i: usize, out: &mut Vec<(usize, u32)>) {
    out.clear();
    out.extend(
        vertices[..i]
            .iter()
            .zip(&rows[i][..i])
            .map(|(&v, &id)| (v, id)),
    );
}

impl<'a, W: MatchWeight> PersistentMatcher<'a, W> for Matcher<W> {
    fn with_weight_bits(n: usize, bits: u32) -> Self {
        Matcher::with_weight_bits(n, bits)
    }
    fn set_defaults(&mut self, _potential: Vec<W>, default: DefaultWeight<'a, W>) {
        for v in 0..self.len() {
            for u in 0..v {
                self.set_weight(v, u, default(u, v));
            }
        }
    }
    fn set_weight(&mut self, u: usize, v: usize, weight: Option<W>) {
        Matcher::set_weight(self, u, v, weight);
    }
    fn fix_pair(&mut self, u: usize, v: usize) {
        Matcher::fix_pair(self, u, v);
    }
    fn solve(&mut self) {
        Matcher::solve(self);
    }
    fn is_certified(&self) -> bool {
        Matcher::is_certified(self)
    }
    fn may_be_optimal(&self, u: usize, v: usize) -> bool {
        Matcher::may_be_optimal(self, u, v)
    }
    fn try_swap(&mut self, u: usize, c: usize) -> bool {
        Matcher::try_swap(self, u, c)
    }
    fn mate(&self, v: usize) -> Option<usize> {
        Matcher::mate(self, v)
    }
    fn matching(&self) -> Vec<Option<usize>> {
        Matcher::matching(self)
    }
}

impl<'a, W: MatchWeight + std::hash::Hash> PersistentMatcher<'a, W> for SparseMatcher<'a, W> {
    fn with_weight_bits(n: usize, bits: u32) -> Self {
        SparseMatcher::with_weight_bits(n, bits)
    }
    fn set_defaults(&mut self, potential: Vec<W>, default: DefaultWeight<'a, W>) {
        SparseMatcher::set_defaults(self, potential, default);
    }
    fn set_weight(&mut self, u: usize, v: usize, weight: Option<W>) {
        SparseMatcher::set_weight(self, u, v, weight);
    }
    fn set_row(&mut self, u: usize, row: &[(usize, Option<W>)]) {
        SparseMatcher::set_row(self, u, row);
    }
    fn set_row_ids(&mut self, u: usize, row: &[(usize, u32)], table: &[W]) {
        SparseMatcher::set_row_ids(self, u, row, table);
    }
    fn set_rows_ids(&mut self, vertices: &[usize], from: usize, rows: &[Vec<u32>], table: &[W]) {
        SparseMatcher::set_rows_ids(self, vertices, from, rows, table);
    }
    fn start_by_classes(
        &mut self,
        lo: usize,
        class: &[u32],
        extra: &[(usize, u32)],
        pairs: &[(u32, u32, W)],
    ) {
        SparseMatcher::start_by_classes(self, lo, class, extra, pairs);
    }
    fn fix_pair(&mut self, u: usize, v: usize) {
        SparseMatcher::fix_pair(self, u, v);
    }
    fn solve(&mut self) {
        SparseMatcher::solve(self);
    }
    fn is_certified(&self) -> bool {
        SparseMatcher::is_certified(self)
    }
    fn may_be_optimal(&self, u: usize, v: usize) -> bool {
        SparseMatcher::may_be_optimal(self, u, v)
    }
    fn try_swap(&mut self, u: usize, c: usize) -> bool {
        SparseMatcher::try_swap(self, u, c)
    }
    fn mate(&self, v: usize) -> Option<usize> {
        SparseMatcher::mate(self, v)
    }
    fn matching(&self) -> Vec<Option<usize>> {
        SparseMatcher::matching(self)
    }
}

/// A solved matching with its optimal dual solution, which prices edges that were left out
/// of the graph: if every left-out edge has a non-negative [`Solution::slack`], the matching
/// is also optimal on the graph with those edges (LP duality).
pub(crate) struct Solution<W> {
    /// Each vertex's mate.
    pub mate: Vec<Option<usize>>,
    /// Vertex duals then blossom duals (doubled units, as in the solver).
    dual: Vec<W>,
    /// Chain of enclosing blossoms with a non-zero dual, innermost first, per vertex.
    blossoms: Vec<Vec<usize>>,
}

impl<W: MatchWeight> Solution<W> {
    /// Reduced cost of a (possibly new) edge `(i, j)` of weight `w`, doubled as in the solver.
    pub fn slack(&self, i: usize, j: usize, w: W) -> W {
        let mut s = self.dual[i].add(self.dual[j]).sub(w.double());
        // Chains are innermost first, so the blossoms holding both vertices are a common
        // suffix of the two chains.
        for (a, b) in self.blossoms[i]
            .iter()
            .rev()
            .zip(self.blossoms[j].iter().rev())
        {
            if a != b {
                break;
            }
            s = s.add(self.dual[*a].double());
        }
        s
    }
}

/// A maximum-weight matching of the graph on `0..n` with the edges `(i, j, w)` (`i != j`,
/// each pair once), with its duals; with `max_cardinality`, maximum weight among the
/// maximum-cardinality matchings (the duals then certify that order only).
///
/// Solved from the plain start on the sparse layout, rows in the order of `edges`, with van
/// Rantwijk's tie-breaks ([`Ties::FirstEnd`]): the Chinese engine's published pairings depend
/// on which of equal optima comes out.
pub(crate) fn solve_priced<W: MatchWeight>(
    n: usize,
    edges: &[(usize, usize, W)],
    max_cardinality: bool,
) -> Solution<W> {
    let g = sparse::Edges::from_list(n, edges);
    let mut st = State::new(n, g.shift(), Ties::FirstEnd);
    // Every dual at the largest weight (doubled units: `2·y = 2·max w`), not rounded.
    let top = st.heaviest(&g).half();
    st.uniform_duals(top);
    st.run(&g, max_cardinality);
    let mate = (0..n).map(|v| st.mate_of(&g, v)).collect();
    let blossoms = (0..n)
        .map(|v| {
            let mut chain = Vec::new();
            let mut b = st.blossomparent[v];
            while b != NONE {
                if st.dualvar[b] != W::ZERO {
                    chain.push(b);
                }
                b = st.blossomparent[b];
            }
            chain
        })
        .collect();
    Solution {
        mate,
        dual: st.dualvar,
        blossoms,
    }
}

#[cfg(test)]
mod tests;
