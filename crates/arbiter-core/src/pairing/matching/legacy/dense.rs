//! The matchers as they were before the unification (test-only oracles for exact agreement).
#![allow(dead_code, clippy::all)]
use super::super::MatchWeight;
pub(crate) const NONE: usize = usize::MAX;

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
    weights: Vec<W>,
    hi2: Vec<i64>,
    shift: u32,
    edges: Vec<bool>,
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
        let mut edges = vec![false; m * m];
        if m > n {
            for v in 0..n {
                edges[v * m + n] = true;
                edges[n * m + v] = true;
            }
        }
        Matcher {
            n,
            m,
            weights: vec![W::ZERO; m * m],
            hi2: vec![0; m * m],
            shift: (bits + 4).saturating_sub(60),
            edges,
            dirty: Vec::new(),
            is_dirty: vec![false; m],
            fresh: true,
            perfect: false,
            st: State::new(m),
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
        let (a, b) = (u * self.m + v, v * self.m + u);
        match weight {
            Some(w) => {
                let w2 = w.double();
                self.weights[a] = w2;
                self.weights[b] = w2;
                let h = w2.approx(self.shift).unwrap_or(i64::MIN);
                self.hi2[a] = h;
                self.hi2[b] = h;
                self.edges[a] = true;
                self.edges[b] = true;
            }
            None => {
                self.weights[a] = W::ZERO;
                self.weights[b] = W::ZERO;
                self.edges[a] = false;
                self.edges[b] = false;
            }
        }
        if !self.is_dirty[u] {
            self.is_dirty[u] = true;
            self.dirty.push(u);
        }
    }

    /// The weight of edge `{u, v}`, if it exists.
    pub fn weight(&self, u: usize, v: usize) -> Option<W> {
        let i = u * self.m + v;
        self.edges[i].then(|| self.weights[i].half())
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
        if !self.edges[u * m + v] {
            self.set_weight(u, v, Some(W::ZERO));
        }
        for x in 0..self.n {
            for (a, b) in [(u, x), (v, x)] {
                if x != u && x != v && self.edges[a * m + b] {
                    self.weights[a * m + b] = W::ZERO;
                    self.weights[b * m + a] = W::ZERO;
                    self.edges[a * m + b] = false;
                    self.edges[b * m + a] = false;
                }
            }
        }
        if m > self.n {
            // The virtual vertex (odd graphs) must not take either end either.
            for a in [u, v] {
                self.edges[a * m + self.n] = false;
                self.edges[self.n * m + a] = false;
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
        let graph = Graph {
            n: self.m,
            w: &self.weights,
            e: &self.edges,
            hi2: &self.hi2,
            shift: self.shift,
        };
        if self.fresh {
            // Warm fresh start: each vertex's dual is its heaviest edge, then tight edges are
            // matched greedily. Proven exact when a perfect matching results; otherwise the
            // plain start below is used.
            self.st.init(&graph);
            self.st.init_vertex_duals(&graph);
            // Then each dual down to the smallest feasible value, in turn: when the weights
            // are (nearly) sums of per-vertex terms, as in completability checks, this
            // makes (nearly) every edge tight, and the greedy below matches almost all.
            for v in 0..self.m {
                self.st.lower_dual(&graph, v);
            }
            self.st.match_tight_free(&graph);
            self.st.augment_tight_paths(&graph);
            self.st.align_free_parities();
            self.st.run(&graph, true);
            if (0..self.m).any(|v| self.st.mate[v] == NONE) {
                self.st.init(&graph);
                self.st.run(&graph, true);
            }
            self.fresh = false;
        } else {
            let dirty = std::mem::take(&mut self.dirty);
            for &v in &dirty {
                self.st.release_vertex(&graph, v);
            }
            self.st.match_tight_free(&graph);
            self.st.augment_tight_paths(&graph);
            self.st.align_free_parities();
            self.st.run(&graph, true);
            let free = (0..self.m).filter(|&v| self.st.mate[v] == NONE).count();
            if free > 0 {
                // Repairs are only proven exact when a perfect matching exists.
                self.st.init(&graph);
                self.st.run(&graph, true);
            }
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
        if !self.edges[u * m + v] {
            return false;
        }
        if self.st.inblossom[u] == self.st.inblossom[v] {
            return true;
        }
        let slack = self.st.dualvar[u]
            .add(self.st.dualvar[v])
            .sub(self.weights[u * m + v]);
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
            self.edges[a * m + b]
                && self.st.dualvar[a]
                    .add(self.st.dualvar[b])
                    .sub(self.weights[a * m + b])
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
    let mut weights = vec![W::ZERO; n * n];
    let mut present = vec![false; n * n];
    for &(u, v, w) in edges {
        if u == v || u >= n || v >= n {
            continue;
        }
        weights[u * n + v] = w.double();
        weights[v * n + u] = w.double();
        present[u * n + v] = true;
        present[v * n + u] = true;
    }
    let hi2: Vec<i64> = vec![i64::MIN; n * n];
    let graph = Graph {
        n,
        w: &weights,
        e: &present,
        hi2: &hi2,
        shift: 0,
    };
    let mut st = State::new(n);
    st.init(&graph);
    st.run(&graph, max_cardinality);
    (0..n)
        .map(|v| (st.mate[v] != NONE).then(|| st.mate[v] % n))
        .collect()
}

struct Graph<'a, W> {
    n: usize,
    /// Doubled weights (`2·w`), the form every slack needs.
    w: &'a [W],
    e: &'a [bool],
    /// `approx(2·w)` per edge (`i64::MIN` when out of range).
    hi2: &'a [i64],
    shift: u32,
}

impl<W: MatchWeight> Graph<'_, W> {
    #[inline]
    fn has(&self, i: usize, j: usize) -> bool {
        self.e[i * self.n + j]
    }
    #[inline]
    fn wt(&self, i: usize, j: usize) -> W {
        self.w[i * self.n + j].half()
    }
    #[inline]
    fn wt2(&self, i: usize, j: usize) -> W {
        self.w[i * self.n + j]
    }
    #[inline]
    fn hi2(&self, i: usize, j: usize) -> i64 {
        self.hi2[i * self.n + j]
    }
}

/// Solver state. "Endpoints" are directed edges `p = a·n + b`, standing for the end at `b` of
/// edge `{a, b}`; flipping gives the other end.
struct State<W> {
    n: usize,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    /// Cached slack of `bestedge[x]`, valid while `bestepoch[x] == epoch`.
    bestslack: Vec<W>,
    bestepoch: Vec<u64>,
    /// Bumped whenever duals change.
    epoch: u64,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    allowed_list: Vec<usize>,
    queue: Vec<usize>,
}

impl<W: MatchWeight> State<W> {
    fn new(n: usize) -> Self {
        State {
            n,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            bestslack: vec![W::ZERO; 2 * n],
            bestepoch: vec![u64::MAX; 2 * n],
            epoch: 0,
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).rev().collect(),
            dualvar: vec![W::ZERO; 2 * n],
            allowedge: vec![false; n * n],
            allowed_list: Vec::new(),
            queue: Vec::new(),
        }
    }

    fn init(&mut self, g: &Graph<'_, W>) {
        let n = self.n;
        let mut maxweight = W::ZERO;
        for (i, &w2) in g.w.iter().enumerate() {
            if g.e[i] && w2.half() > maxweight {
                maxweight = w2.half();
            }
        }
        // Even initial duals keep every free vertex at the same parity.
        if maxweight.is_odd() {
            maxweight = maxweight.add(W::one());
        }
        *self = State::new(n);
        for v in 0..n {
            self.dualvar[v] = maxweight;
        }
    }

    #[inline]
    fn endpoint(&self, p: usize) -> usize {
        p % self.n
    }

    #[inline]
    fn flip(&self, p: usize) -> usize {
        (p % self.n) * self.n + p / self.n
    }

    #[inline]
    fn slack(&self, g: &Graph<'_, W>, p: usize) -> W {
        let (i, j) = (p / self.n, p % self.n);
        self.dualvar[i].add(self.dualvar[j]).sub(g.wt2(i, j))
    }

    #[inline]
    fn edge_key(&self, p: usize) -> usize {
        let (i, j) = (p / self.n, p % self.n);
        if i < j {
            i * self.n + j
        } else {
            j * self.n + i
        }
    }

    /// Slack of `bestedge[x]` (which must be set), cached per dual epoch.
    fn best_slack(&mut self, g: &Graph<'_, W>, x: usize) -> W {
        if self.bestepoch[x] != self.epoch {
            self.bestslack[x] = self.slack(g, self.bestedge[x]);
            self.bestepoch[x] = self.epoch;
        }
        self.bestslack[x]
    }

    fn set_best(&mut self, x: usize, p: usize, slack: W) {
        self.bestedge[x] = p;
        self.bestslack[x] = slack;
        self.bestepoch[x] = self.epoch;
    }

    fn allow(&mut self, p: usize) {
        let k = self.edge_key(p);
        if !self.allowedge[k] {
            self.allowedge[k] = true;
            let r = self.flip(k);
            self.allowedge[r] = true;
            self.allowed_list.push(k);
        }
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
            return;
        }
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                out.push(x);
            } else {
                for &c in self.blossomchilds[x].iter().rev() {
                    stack.push(c);
                }
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.inblossom[w];
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            if t == 1 {
                let mut q = std::mem::take(&mut self.queue);
                self.leaves(b, &mut q);
                self.queue = q;
                return;
            }
            let base = self.blossombase[b];
            let mb = self.mate[base];
            w = self.endpoint(mb);
            t = 1;
            p = self.flip(mb);
        }
    }

    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            if v != NONE {
                let mut b = self.inblossom[v];
                if self.label[b] & 4 != 0 {
                    base = self.blossombase[b];
                    break;
                }
                path.push(b);
                self.label[b] = 5;
                if self.labelend[b] == NONE {
                    v = NONE;
                } else {
                    v = self.endpoint(self.labelend[b]);
                    b = self.inblossom[v];
                    v = self.endpoint(self.labelend[b]);
                }
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    /// `v`–`w` is the tight edge closing the blossom; `v`'s side is traced first.
    fn add_blossom(&mut self, g: &Graph<'_, W>, base: usize, v: usize, w: usize) {
        let n = self.n;
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self
            .unusedblossoms
            .pop()
            .expect("at most n blossoms exist at once");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            let vv = self.endpoint(self.labelend[bv]);
            bv = self.inblossom[vv];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        // The end at v of edge {w, v}.
        endps.push(w * n + v);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.flip(self.labelend[bw]));
            let ww = self.endpoint(self.labelend[bw]);
            bw = self.inblossom[ww];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::ZERO;
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for leaf in self.leaves_of(b) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * n];
        let mut bestslackto = vec![W::ZERO; 2 * n];
        for &sub in &path {
            let lists: Vec<usize> = match self.blossombestedges[sub].take() {
                Some(list) => list,
                None => {
                    let mut list = Vec::new();
                    for leaf in self.leaves_of(sub) {
                        for j in 0..n {
                            if g.has(leaf, j) {
                                list.push(leaf * n + j);
                            }
                        }
                    }
                    list
                }
            };
            for p in lists {
                let (mut i, mut j) = (p / n, p % n);
                if self.inblossom[j] == b {
                    std::mem::swap(&mut i, &mut j);
                }
                let bj = self.inblossom[j];
                let q = i * n + j;
                if bj != b && self.label[bj] == 1 {
                    let sq = self.slack(g, q);
                    if bestedgeto[bj] == NONE || sq < bestslackto[bj] {
                        bestedgeto[bj] = q;
                        bestslackto[bj] = sq;
                    }
                }
            }
            self.bestedge[sub] = NONE;
        }
        let mut list = Vec::new();
        let mut best = NONE;
        let mut best_slack = W::ZERO;
        for (x, &k) in bestedgeto.iter().enumerate() {
            if k != NONE {
                list.push(k);
                if best == NONE || bestslackto[x] < best_slack {
                    best = k;
                    best_slack = bestslackto[x];
                }
            }
        }
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
        self.bestslack[b] = best_slack;
        self.bestepoch[b] = if best == NONE { u64::MAX } else { self.epoch };
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::ZERO {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let entrychild = self.inblossom[self.endpoint(self.flip(self.labelend[b]))];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child is a child") as isize;
            let (jstep, endptrick): (isize, isize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let trick = |s: &Self, p: usize, t: isize| if t == 1 { s.flip(p) } else { p };
            let mut p = self.labelend[b];
            while j != 0 {
                let e1 = self.endpoint(self.flip(p));
                self.label[e1] = 0;
                let q = endps[at(j - endptrick)];
                let e2 = self.endpoint(self.flip(trick(self, q, endptrick)));
                self.label[e2] = 0;
                self.assign_label(e1, 2, p);
                self.allow(q);
                j += jstep;
                p = trick(self, endps[at(j - endptrick)], endptrick);
                self.allow(p);
                j += jstep;
            }
            let bv = childs[at(j)];
            let e = self.endpoint(self.flip(p));
            self.label[e] = 2;
            self.label[bv] = 2;
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = NONE;
                for leaf in self.leaves_of(bv) {
                    if self.label[leaf] != 0 {
                        found = leaf;
                        break;
                    }
                }
                if found != NONE {
                    let v = found;
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    let e = self.endpoint(mb);
                    self.label[e] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("child of blossom") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, isize) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t1 = self.blossomchilds[b][at(j)];
            let q = self.blossomendps[b][at(j - endptrick)];
            let p = if endptrick == 1 { self.flip(q) } else { q };
            if t1 >= self.n {
                let e = self.endpoint(p);
                self.augment_blossom(t1, e);
            }
            j += jstep;
            let t2 = self.blossomchilds[b][at(j)];
            if t2 >= self.n {
                let e = self.endpoint(self.flip(p));
                self.augment_blossom(t2, e);
            }
            let (a, c) = (self.endpoint(p), self.endpoint(self.flip(p)));
            self.mate[a] = self.flip(p);
            self.mate[c] = p;
        }
        let iu = i as usize;
        self.blossomchilds[b].rotate_left(iu);
        self.blossomendps[b].rotate_left(iu);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    /// Augments along the tight edge `{v, w}` between two S-trees.
    fn augment_matching(&mut self, v: usize, w: usize) {
        let n = self.n;
        for (s0, p0) in [(v, v * n + w), (w, w * n + v)] {
            let mut s = s0;
            let mut p = p0;
            loop {
                let bs = self.inblossom[s];
                if bs >= n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint(self.labelend[bs]);
                let bt = self.inblossom[t];
                s = self.endpoint(self.labelend[bt]);
                let j = self.endpoint(self.flip(self.labelend[bt]));
                if bt >= n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.flip(self.labelend[bt]);
            }
        }
    }

    /// Runs stages until no augmenting path is left.
    fn run(&mut self, g: &Graph<'_, W>, maxcardinality: bool) {
        let n = self.n;
        loop {
            // Stage set-up.
            for x in self.label.iter_mut() {
                *x = 0;
            }
            for x in self.bestedge.iter_mut() {
                *x = NONE;
            }
            for x in self.blossombestedges[n..].iter_mut() {
                *x = None;
            }
            for k in self.allowed_list.drain(..) {
                self.allowedge[k] = false;
                let r = (k % n) * n + k / n;
                self.allowedge[r] = false;
            }
            self.queue.clear();
            self.epoch += 1;
            let mut any_free = false;
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                    any_free = true;
                }
            }
            if !any_free {
                return;
            }
            let mut augmented = false;

            loop {
                while let Some(v) = self.queue.pop() {
                    let dv_hi = self.dualvar[v].approx(g.shift);
                    for w in 0..n {
                        if !g.has(v, w) {
                            continue;
                        }
                        let bw = self.inblossom[w];
                        if self.inblossom[v] == bw {
                            continue;
                        }
                        let key = if v < w { v * n + w } else { w * n + v };
                        let p = v * n + w;
                        // Symmetric storage: the row of `v` is read contiguously.
                        let allowed = self.allowedge[p];
                        let mut kslack = W::ZERO;
                        if !allowed {
                            // approx ≥ 1 proves a positive slack; then the edge only
                            // matters if it may beat the current best edge of its target.
                            let approx = match (dv_hi, self.dualvar[w].approx(g.shift), g.hi2(v, w))
                            {
                                (Some(a), Some(b), c) if c != i64::MIN => Some(a + b - c),
                                _ => None,
                            };
                            if let Some(approx) = approx.filter(|&a| a >= 1) {
                                let target = if self.label[bw] == 1 {
                                    self.inblossom[v]
                                } else if self.label[w] == 0 {
                                    w
                                } else {
                                    continue;
                                };
                                if self.bestedge[target] != NONE {
                                    let best = self.best_slack(g, target).approx(g.shift);
                                    if best.is_some_and(|b| approx >= b + 3) {
                                        continue;
                                    }
                                }
                            }
                            kslack = self.dualvar[v].add(self.dualvar[w]).sub(g.wt2(v, w));
                            if kslack <= W::ZERO {
                                self.allowedge[key] = true;
                                self.allowedge[p] = true;
                                self.allowedge[w * n + v] = true;
                                self.allowed_list.push(key);
                            }
                        }
                        if self.allowedge[p] {
                            if self.label[bw] == 0 {
                                // w becomes T; the end at v labels it.
                                self.assign_label(w, 2, w * n + v);
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(g, base, v, w);
                                } else {
                                    self.augment_matching(v, w);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = w * n + v;
                            }
                        } else if self.label[bw] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.best_slack(g, b) {
                                self.set_best(b, p, kslack);
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.best_slack(g, w))
                        {
                            self.set_best(w, p, kslack);
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // Dual adjustment.
                let mut deltatype = 0u8;
                let mut delta = W::ZERO;
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                if !maxcardinality {
                    deltatype = 1;
                    delta = self.dualvar[..n].iter().copied().min().unwrap_or(W::ZERO);
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(g, self.bestedge[v]);
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                        && (b < n || self.blossombase[b] != NONE)
                    {
                        let d = self.slack(g, self.bestedge[b]).half();
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && (deltatype == 0 || self.dualvar[b] < delta)
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                if deltatype == 0 {
                    // Maximum cardinality reached; no more improvement.
                    deltatype = 1;
                    let m = self.dualvar[..n].iter().copied().min().unwrap_or(W::ZERO);
                    delta = if m > W::ZERO { m } else { W::ZERO };
                }
                self.epoch += 1;
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v].sub(delta),
                        2 => self.dualvar[v] = self.dualvar[v].add(delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b].add(delta),
                            2 => self.dualvar[b] = self.dualvar[b].sub(delta),
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        let (mut i, mut j) = (deltaedge / n, deltaedge % n);
                        self.allow(deltaedge);
                        if self.label[self.inblossom[i]] == 0 {
                            std::mem::swap(&mut i, &mut j);
                        }
                        let _ = j;
                        self.queue.push(i);
                    }
                    3 => {
                        let i = deltaedge / n;
                        self.allow(deltaedge);
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                return;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == W::ZERO
                {
                    self.expand_blossom(b, true);
                }
            }
            if maxcardinality {
                // The dual change of this stage often made many edges between free vertices
                // tight at once: match them now instead of one augmentation per stage.
                self.match_tight_free(g);
                self.augment_tight_paths(g);
            }
        }
    }

    /// Prepares vertex `v` (whose edges changed) for a repair: dissolves every blossom that
    /// contains it (moving each blossom's dual onto its vertices, which keeps all edges
    /// feasible), unmatches edges that lost tightness, unmatches `v`, and sets `v`'s dual to
    /// the smallest feasible value.
    fn release_vertex(&mut self, g: &Graph<'_, W>, v: usize) {
        let n = self.n;
        while self.inblossom[v] != v {
            let b = self.inblossom[v];
            let z = self.dualvar[b];
            let leaves = self.leaves_of(b);
            if z != W::ZERO {
                for &u in &leaves {
                    self.dualvar[u] = self.dualvar[u].add(z);
                }
                let base = self.blossombase[b];
                let mb = self.mate[base];
                if mb != NONE {
                    let other = self.endpoint(mb);
                    self.mate[other] = NONE;
                    self.mate[base] = NONE;
                }
            }
            let childs = std::mem::take(&mut self.blossomchilds[b]);
            for &s in &childs {
                self.blossomparent[s] = NONE;
                if s < n {
                    self.inblossom[s] = s;
                } else {
                    for leaf in self.leaves_of(s) {
                        self.inblossom[leaf] = s;
                    }
                }
            }
            self.blossomendps[b] = Vec::new();
            self.blossombase[b] = NONE;
            self.blossombestedges[b] = None;
            self.bestedge[b] = NONE;
            self.label[b] = 0;
            self.labelend[b] = NONE;
            self.dualvar[b] = W::ZERO;
            self.unusedblossoms.push(b);
        }
        if self.mate[v] != NONE {
            let u = self.endpoint(self.mate[v]);
            self.mate[u] = NONE;
            self.mate[v] = NONE;
        }
        let mut need: Option<W> = None;
        for x in 0..n {
            if x != v && g.has(v, x) {
                let d = g.wt2(v, x).sub(self.dualvar[x]);
                if need.is_none_or(|m| d > m) {
                    need = Some(d);
                }
            }
        }
        if let Some(d) = need {
            self.dualvar[v] = d;
        }
    }

    /// Lowers the dual of the free vertex `v` (outside blossoms) to the smallest value that
    /// keeps its edges feasible, which makes at least one of them tight.
    fn lower_dual(&mut self, g: &Graph<'_, W>, v: usize) {
        if self.mate[v] != NONE || self.inblossom[v] != v {
            return;
        }
        let mut need: Option<W> = None;
        for x in 0..self.n {
            if x != v && g.has(v, x) {
                let d = g.wt2(v, x).sub(self.dualvar[x]);
                if need.is_none_or(|m| d > m) {
                    need = Some(d);
                }
            }
        }
        if let Some(d) = need {
            self.dualvar[v] = d;
        }
    }

    /// Sets each vertex dual to its heaviest edge (doubled units: `2·u(v) = max w`), a
    /// feasible start for the perfect-matching duals that makes many edges tight.
    fn init_vertex_duals(&mut self, g: &Graph<'_, W>) {
        let n = self.n;
        for v in 0..n {
            let mut best: Option<W> = None;
            for x in 0..n {
                if x != v && g.has(v, x) {
                    let w = g.wt(v, x);
                    if best.is_none_or(|b| w > b) {
                        best = Some(w);
                    }
                }
            }
            if let Some(b) = best {
                self.dualvar[v] = b;
            }
        }
    }

    /// Matches free vertices (outside blossoms) to each other along tight edges: each such
    /// edge is an augmenting path of length one, and complementary slackness is kept. After a
    /// bulk weight change this re-matches most released vertices without a full stage each.
    fn match_tight_free(&mut self, g: &Graph<'_, W>) {
        let n = self.n;
        let free: Vec<usize> = (0..n)
            .filter(|&v| self.mate[v] == NONE && self.inblossom[v] == v)
            .collect();
        if free.len() < 2 {
            return;
        }
        let mut is_free = vec![false; n];
        for &v in &free {
            is_free[v] = true;
        }
        for &v in &free {
            if !is_free[v] {
                continue;
            }
            for &w in &free {
                if w != v && is_free[w] && g.has(v, w) && self.slack(g, v * n + w) == W::ZERO {
                    self.mate[v] = v * n + w;
                    self.mate[w] = w * n + v;
                    is_free[v] = false;
                    is_free[w] = false;
                    break;
                }
            }
        }
    }

    /// After a bulk change: augments along alternating paths of tight edges through vertices
    /// outside blossoms (a depth-first search from each free vertex, with dead ends
    /// remembered for the whole pass). Every augmentation keeps all matched edges tight, so
    /// the state stays a valid start for the exact stages, which handle what is left (paths
    /// through blossoms, or needing dual changes).
    fn augment_tight_paths(&mut self, g: &Graph<'_, W>) {
        let n = self.n;
        let roots: Vec<usize> = (0..n)
            .filter(|&v| self.mate[v] == NONE && self.inblossom[v] == v)
            .collect();
        if roots.len() < 4 {
            return;
        }
        let mut visited = vec![false; n];
        let mut parent = vec![NONE; n];
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for &r in &roots {
            if self.mate[r] != NONE || visited[r] {
                continue;
            }
            visited[r] = true;
            stack.clear();
            stack.push((r, 0));
            let mut found = None;
            while let Some(&mut (s, ref mut next)) = stack.last_mut() {
                let mut pushed = None;
                while *next < n {
                    let w = *next;
                    *next += 1;
                    if w == s
                        || visited[w]
                        || !g.has(s, w)
                        || self.inblossom[w] != w
                        || self.slack(g, s * n + w) != W::ZERO
                    {
                        continue;
                    }
                    if self.mate[w] == NONE {
                        found = Some((s, w));
                        break;
                    }
                    let x = self.mate[w] % n;
                    if visited[x] || self.inblossom[x] != x {
                        continue;
                    }
                    visited[w] = true;
                    visited[x] = true;
                    parent[w] = s;
                    pushed = Some(x);
                    break;
                }
                if found.is_some() {
                    break;
                }
                match pushed {
                    Some(x) => stack.push((x, 0)),
                    None => {
                        stack.pop();
                    }
                }
            }
            if let Some((mut s, mut w)) = found {
                visited[w] = true;
                loop {
                    // `s` leaves its old partner (if any) and takes `w`.
                    let old = if s == r { NONE } else { self.mate[s] % n };
                    self.mate[s] = s * n + w;
                    self.mate[w] = w * n + s;
                    if old == NONE {
                        break;
                    }
                    w = old;
                    s = parent[old];
                }
            }
        }
    }

    /// Gives every free top-level blossom the same dual parity (the parity invariant that
    /// keeps slack halving exact), by raising duals where needed.
    fn align_free_parities(&mut self) {
        let n = self.n;
        let mut target: Option<bool> = None;
        for v in 0..n {
            if self.mate[v] != NONE {
                continue;
            }
            let parity = self.dualvar[v].is_odd();
            match target {
                None => target = Some(parity),
                Some(t) if t != parity => self.raise_free(v),
                _ => {}
            }
        }
    }

    /// Adds one to the duals of the free vertex `v`'s top-level blossom without breaking
    /// tightness inside it.
    fn raise_free(&mut self, v: usize) {
        loop {
            let b = self.inblossom[v];
            if b == v {
                self.dualvar[v] = self.dualvar[v].add(W::one());
                return;
            }
            if self.dualvar[b] >= W::one() {
                for u in self.leaves_of(b) {
                    self.dualvar[u] = self.dualvar[u].add(W::one());
                }
                self.dualvar[b] = self.dualvar[b].sub(W::one());
                return;
            }
            // A zero-dual blossom can be dissolved without changing any slack.
            let childs = std::mem::take(&mut self.blossomchilds[b]);
            for &s in &childs {
                self.blossomparent[s] = NONE;
                if s < self.n {
                    self.inblossom[s] = s;
                } else {
                    for leaf in self.leaves_of(s) {
                        self.inblossom[leaf] = s;
                    }
                }
            }
            self.blossomendps[b] = Vec::new();
            self.blossombase[b] = NONE;
            self.blossombestedges[b] = None;
            self.bestedge[b] = NONE;
            self.label[b] = 0;
            self.labelend[b] = NONE;
            self.unusedblossoms.push(b);
        }
    }
}
