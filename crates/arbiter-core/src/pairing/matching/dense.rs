//! The dense layout: an `n × n` table of doubled weights, and [`Matcher`], the persistent
//! matcher on it.

use super::blossom::{State, Ties};
use super::graph::{Arc, Graph};
use super::{MatchWeight, NONE};

/// Every pair a slot: weights (doubled), presence and approximations in `m × m` tables,
/// endpoint `p = a·m + b` standing for the end at `b` of edge `{a, b}`.
pub(crate) struct Dense<W> {
    m: usize,
    /// Doubled weights (`2·w`), the form every slack needs.
    weights: Vec<W>,
    /// `approx(2·w)` per pair (`i64::MIN` when out of range).
    hi2: Vec<i64>,
    edges: Vec<bool>,
    shift: u32,
}

impl<W: MatchWeight> Dense<W> {
    /// `m` vertices and no edges.
    fn new(m: usize, shift: u32) -> Self {
        Dense {
            m,
            weights: vec![W::ZERO; m * m],
            hi2: vec![i64::MIN; m * m],
            edges: vec![false; m * m],
            shift,
        }
    }

    /// Sets (or with `None` removes) the edge `{u, v}`.
    fn set(&mut self, u: usize, v: usize, weight: Option<W>) {
        let (a, b) = (u * self.m + v, v * self.m + u);
        match weight {
            Some(w) => {
                let w2 = w.double();
                let h = w2.approx(self.shift).unwrap_or(i64::MIN);
                for i in [a, b] {
                    self.weights[i] = w2;
                    self.hi2[i] = h;
                    self.edges[i] = true;
                }
            }
            None => {
                for i in [a, b] {
                    self.weights[i] = W::ZERO;
                    self.edges[i] = false;
                }
            }
        }
    }

    #[inline]
    fn has(&self, u: usize, v: usize) -> bool {
        self.edges[u * self.m + v]
    }
}

impl<W: MatchWeight> Graph<W> for Dense<W> {
    #[inline]
    fn slots(&self, _v: usize) -> usize {
        self.m
    }
    #[inline]
    fn arc(&self, v: usize, i: usize) -> Option<Arc> {
        let p = v * self.m + i;
        self.edges[p].then(|| Arc {
            to: i,
            p,
            edge: if v < i { p } else { i * self.m + v },
            key: p,
        })
    }
    #[inline]
    fn endpoint(&self, p: usize) -> usize {
        p % self.m
    }
    #[inline]
    fn flip(&self, p: usize) -> usize {
        (p % self.m) * self.m + p / self.m
    }
    fn first_end(&self, p: usize) -> usize {
        // The smaller vertex comes first.
        if p % self.m < p / self.m {
            p
        } else {
            self.flip(p)
        }
    }
    #[inline]
    fn edge(&self, p: usize) -> usize {
        let (a, b) = (p / self.m, p % self.m);
        a.min(b) * self.m + a.max(b)
    }
    fn edge_slots(&self) -> usize {
        self.m * self.m
    }
    #[inline]
    fn w2(&self, p: usize) -> W {
        self.weights[p]
    }
    #[inline]
    fn weight(&self, key: usize) -> W {
        self.weights[key]
    }
    #[inline]
    fn approx(&self, key: usize) -> i64 {
        self.hi2[key]
    }
}

/// The plain start: no matching, every dual at the largest weight, made even so that every
/// free vertex has the same parity.
fn plain_start<W: MatchWeight>(st: &mut State<W>, g: &Dense<W>) {
    st.reset();
    let mut top = st.heaviest(g).half();
    if top.is_odd() {
        top = top.add(W::one());
    }
    st.uniform_duals(top);
}

/// A dense graph with a persistent maximum-weight maximum-cardinality matching.
///
/// Vertices are `0..n`. Edges are set with [`Matcher::set_weight`]; `None` removes an edge.
/// [`Matcher::solve`] returns the optimum; later calls reuse the previous optimum and only
/// repair the region around vertices whose edges changed (each changed vertex is unmatched
/// and re-augmented, with its dual variable lowered to the tightest feasible value).
///
/// Repairs are proven exact when the graph has a perfect matching (an odd graph gets a
/// virtual partner for its one unmatched vertex); if a repaired solve ends with free
/// vertices anyway, the matcher falls back to a fresh solve, so the result is always an
/// exact optimum (just slower on graphs without a (near-)perfect matching).
pub struct Matcher<W: MatchWeight> {
    n: usize,
    /// Internal vertex count: `n`, plus one virtual vertex joined to everyone with weight
    /// zero when `n` is odd, so that repairs work on graphs with a perfect matching.
    m: usize,
    g: Dense<W>,
    dirty: Vec<usize>,
    is_dirty: Vec<bool>,
    fresh: bool,
    /// Whether the last solve ended with every vertex matched (its duals are then optimal).
    perfect: bool,
    st: State<W>,
}

impl<W: MatchWeight> Matcher<W> {
    /// A graph of `n` isolated vertices.
    pub fn new(n: usize) -> Self {
        Self::with_weight_bits(n, 60)
    }

    /// A graph of `n` isolated vertices whose weights will stay below `2^bits` in magnitude
    /// (a hint that lets scans skip exact arithmetic on hopeless edges; any value is safe).
    pub fn with_weight_bits(n: usize, bits: u32) -> Self {
        let m = n + n % 2;
        let shift = (bits + 4).saturating_sub(60);
        let mut g = Dense::new(m, shift);
        if m > n {
            for v in 0..n {
                g.edges[v * m + n] = true;
                g.edges[n * m + v] = true;
            }
        }
        Matcher {
            n,
            m,
            g,
            dirty: Vec::new(),
            is_dirty: vec![false; m],
            fresh: true,
            perfect: false,
            st: State::new(m, shift, Ties::Scan),
        }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the graph has no vertices.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Sets (or with `None` removes) the edge `{u, v}`. Marks `u` for repair at the next solve.
    ///
    /// # Panics
    /// Panics when `u == v` or a vertex is out of range.
    pub fn set_weight(&mut self, u: usize, v: usize, weight: Option<W>) {
        assert!(u != v && u < self.n && v < self.n, "bad edge {u}-{v}");
        self.g.set(u, v, weight);
        if !self.is_dirty[u] {
            self.is_dirty[u] = true;
            self.dirty.push(u);
        }
    }

    /// The weight of edge `{u, v}`, if it exists.
    pub fn weight(&self, u: usize, v: usize) -> Option<W> {
        let i = u * self.m + v;
        self.g.edges[i].then(|| self.g.weights[i].half())
    }

    /// Fixes the pair `{u, v}`: removes every other edge of `u` and `v`, so the pair stays in
    /// every later optimum. When the pair is matched in the current optimum and neither end is
    /// inside a blossom, the optimum is kept as it is (removing unused edges cannot make it
    /// worse), so this costs no augmentation.
    pub fn fix_pair(&mut self, u: usize, v: usize) {
        assert!(u != v && u < self.n && v < self.n, "bad pair {u}-{v}");
        let m = self.m;
        let matched = !self.fresh
            && self.st.mate[u] == u * m + v
            && self.st.inblossom[u] == u
            && self.st.inblossom[v] == v
            && !self.is_dirty[u]
            && !self.is_dirty[v];
        if !self.g.has(u, v) {
            self.set_weight(u, v, Some(W::ZERO));
        }
        for x in 0..self.n {
            for a in [u, v] {
                if x != u && x != v && self.g.has(a, x) {
                    self.g.set(a, x, None);
                }
            }
        }
        if m > self.n {
            // The virtual vertex (odd graphs) must not take either end either.
            for a in [u, v] {
                self.g.edges[a * m + self.n] = false;
                self.g.edges[self.n * m + a] = false;
            }
        }
        if !matched {
            for a in [u, v] {
                if !self.is_dirty[a] {
                    self.is_dirty[a] = true;
                    self.dirty.push(a);
                }
            }
        }
    }

    /// Forgets the current optimum: the next solve starts from scratch.
    pub fn reset(&mut self) {
        self.fresh = true;
    }

    /// Computes (or repairs) the maximum-weight matching among maximum-cardinality matchings.
    pub fn solve(&mut self) {
        let g = &self.g;
        let st = &mut self.st;
        if self.fresh {
            // Warm fresh start: each vertex's dual is its heaviest edge, then tight edges are
            // matched greedily. Proven exact when a perfect matching results; otherwise the
            // plain start below is used.
            plain_start(st, g);
            st.init_vertex_duals(g);
            // Then each dual down to the smallest feasible value, in turn: when the weights
            // are (nearly) sums of per-vertex terms, as in completability checks, this
            // makes (nearly) every edge tight, and the greedy below matches almost all.
            for v in 0..self.m {
                st.lower_dual(g, v, None);
            }
            st.settle(g);
            self.fresh = false;
        } else {
            let dirty = std::mem::take(&mut self.dirty);
            for &v in &dirty {
                st.release_vertex(g, v, None);
            }
            st.settle(g);
        }
        if st.has_free() {
            // The warm start and repairs are only proven exact when a perfect matching
            // exists: otherwise the plain start.
            plain_start(st, g);
            st.run(g, true);
        }
        self.perfect = self.st.mate.iter().all(|&p| p != NONE);
        for v in self.dirty.drain(..) {
            self.is_dirty[v] = false;
        }
        for d in self.is_dirty.iter_mut() {
            *d = false;
        }
    }

    /// Whether the current matching is a proven optimum of the current weights: solved with
    /// every vertex matched, and no edge changed since (a [`Matcher::fix_pair`] of a matched
    /// pair outside blossoms keeps it).
    pub fn is_certified(&self) -> bool {
        !self.fresh && self.perfect && self.dirty.is_empty()
    }

    /// Whether the edge `{u, v}` can belong to some optimum of the current weights.
    ///
    /// `false` is a proof: the matcher is certified (see [`Matcher::is_certified`]), so its
    /// duals are optimal, and the edge is absent or its reduced cost under those duals is
    /// positive, so by complementary slackness no optimum contains it. `true` means "maybe"
    /// (also whenever no certificate is at hand, or both ends lie in one blossom, where the
    /// reduced cost would need the blossom duals).
    pub fn may_be_optimal(&self, u: usize, v: usize) -> bool {
        let m = self.m;
        if !self.is_certified() {
            return true;
        }
        if !self.g.has(u, v) {
            return false;
        }
        if self.st.inblossom[u] == self.st.inblossom[v] {
            return true;
        }
        let slack = self.st.dualvar[u]
            .add(self.st.dualvar[v])
            .sub(self.g.weights[u * m + v]);
        slack <= W::ZERO
    }

    /// Switches to an optimum that pairs `u` with `c`, if one is found by exchanging
    /// partners: with `u`–`x` and `c`–`y` in the current (certified) optimum, and the edges
    /// `u`–`c` and `x`–`y` tight, `{u–c, x–y}` replaces `{u–x, c–y}` at the same weight, so
    /// the result is again a certified optimum. Returns whether it switched; `false` proves
    /// nothing. Only vertices outside blossoms take part, which keeps the duals valid as
    /// they are.
    pub fn try_swap(&mut self, u: usize, c: usize) -> bool {
        let m = self.m;
        if !self.is_certified() || u == c || u >= self.n || c >= self.n {
            return false;
        }
        let (pu, pc) = (self.st.mate[u], self.st.mate[c]);
        if pu == NONE || pc == NONE {
            return false;
        }
        let (x, y) = (pu % m, pc % m);
        if x == c {
            return true;
        }
        let quad = [u, c, x, y];
        if quad.iter().any(|&v| self.st.inblossom[v] != v) {
            return false;
        }
        let tight = |a: usize, b: usize| {
            self.g.has(a, b)
                && self.st.dualvar[a]
                    .add(self.st.dualvar[b])
                    .sub(self.g.weights[a * m + b])
                    == W::ZERO
        };
        if !tight(u, c) || !tight(x, y) {
            return false;
        }
        self.st.mate[u] = u * m + c;
        self.st.mate[c] = c * m + u;
        self.st.mate[x] = x * m + y;
        self.st.mate[y] = y * m + x;
        true
    }

    /// The partner of `v` in the current optimum.
    pub fn mate(&self, v: usize) -> Option<usize> {
        let p = self.st.mate[v];
        let u = p % self.m;
        (p != NONE && u < self.n).then_some(u)
    }

    /// The partner of every vertex in the current optimum.
    pub fn matching(&self) -> Vec<Option<usize>> {
        (0..self.n).map(|v| self.mate(v)).collect()
    }
}

/// Maximum-weight matching of the graph on vertices `0..n` with the given edges
/// `(u, v, weight)`. With `max_cardinality`, the maximum-weight matching among the
/// maximum-cardinality ones. Returns each vertex's partner.
///
/// Duplicate edges: the last one wins. Self-loops are ignored.
pub fn max_weight_matching<W: MatchWeight>(
    n: usize,
    edges: &[(usize, usize, W)],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    let mut g = Dense::new(n, 0);
    for &(u, v, w) in edges {
        if u == v || u >= n || v >= n {
            continue;
        }
        g.set(u, v, Some(w));
    }
    // No approximations: a one-shot solve has no hint of the weights' range.
    g.hi2.fill(i64::MIN);
    let mut st = State::new(n, 0, Ties::Scan);
    plain_start(&mut st, &g);
    st.run(&g, max_cardinality);
    (0..n).map(|v| st.mate_of(&g, v)).collect()
}
