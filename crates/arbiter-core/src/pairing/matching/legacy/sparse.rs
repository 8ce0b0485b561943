#![allow(dead_code, clippy::all)]
// A sparse [`Matcher`](super::Matcher): the same persistent maximum-weight
// maximum-cardinality matching, on a graph whose edges are mostly never stored.
//
// The graph it stands for is dense: every pair the caller has not set explicitly has a
// *default* weight, given by a function (`None`: no edge). Only a few default edges are
// stored (a window of neighbours in vertex order, enough for a perfect matching in
// practice); the others are *certified* unneeded after every solve. The caller also gives
// each vertex a potential `P(v)` with `2·w(u, v) ≤ P(u) + P(v)` for every default pair.
// If the optimal duals `y` of the stored graph satisfy `y(u) + y(v) ≥ P(u) + P(v)` for a
// pair, its reduced cost is not negative and it is not needed; the pairs that fail are
// added with their exact weight (when their exact reduced cost is negative) and the solve
// repairs itself, until none is left. The duals are then feasible for the whole dense
// graph, so by LP duality the matching is an optimum of the dense graph, and
// [`SparseMatcher::may_be_optimal`] keeps its meaning. Each vertex's dual is kept at least
// at its potential whenever the solver sets it from scratch, which makes violations rare:
// only the dual adjustments of the exact stages lower a dual below it.
//
// Weights are interned: each edge stores a 32-bit index into a table of distinct weights
// (the Dutch weights of a bracket take few distinct values), so an edge costs about 30
// bytes whatever the weight's width.
//
// Bulk changes (issue #19): a big bracket sets millions of pairs between two solves, and
// each pair touches two long adjacency lists that are not in the cache. So
// [`SparseMatcher::set_weight`] searches only the list of the end it shares with the
// previous call (a row or a column of pairs set in turn) and defers the other end's copied
// weight id until the solver reads the lists; [`SparseMatcher::set_row`] merges a whole
// row into its list in one pass; an entry for a new edge is put in place from the list's
// end. In the solver, a new blossom's best edges are read from the adjacency entries
// (neighbour and weight id, no random load per edge) and a dual update visits only the
// vertices labelled in the stage. None of this changes a state after any call, so the
// decisions are the same.

use super::super::MatchWeight;
use super::dense::NONE;
use std::collections::HashMap;
use std::hash::Hash;

/// The weight of a pair that was not set explicitly (`None`: the pair may not meet).
pub type DefaultWeight<'a, W> = Box<dyn Fn(usize, usize) -> Option<W> + 'a>;

/// How many default neighbours (the next ones in vertex order) each vertex gets stored.
const WINDOW: usize = 12;

/// How many stale copied weight ids are kept before they are copied (8 bytes each): a
/// bracket's bulk change of weights touches millions of pairs at 10,000 entrants.
const STALE_LIMIT: usize = 1 << 20;

/// A sparse graph with a persistent maximum-weight maximum-cardinality matching that is
/// certified optimal for the dense graph it stands for (see the module docs).
pub struct SparseMatcher<'a, W: MatchWeight + Hash> {
    n: usize,
    m: usize,
    g: Edges<W>,
    default: DefaultWeight<'a, W>,
    /// Doubled potentials (`P(u) + P(v) ≥ 2·w(u, v)` for default pairs).
    potential: Vec<W>,
    /// Vertices without default pairs: fixed pairs and the virtual vertex.
    fixed: Vec<bool>,
    /// Whether every default pair is stored (the fallback when no perfect matching is left).
    complete: bool,
    dirty: Vec<usize>,
    is_dirty: Vec<bool>,
    fresh: bool,
    perfect: bool,
    /// Whether the potentials follow the certified duals (see [`SparseMatcher::tightening`]).
    tightening: bool,
    st: State<W>,
}

/// Edge storage: edge `k` has the endpoints `2k` and `2k + 1` (`ends` gives their vertices).
struct Edges<W> {
    wid: Vec<u32>,
    live: Vec<bool>,
    explicit: Vec<bool>,
    /// Per vertex: `(neighbour, endpoint at the neighbour, weight id)`, sorted by neighbour;
    /// the weight id is a copy of `wid[k]`, or [`DEAD`] when the edge is not live (the
    /// solver's scans read it here, next to the neighbour, instead of in the edge arrays).
    adj: Vec<Vec<(u32, u32, u32)>>,
    /// Per vertex: whether it was fixed by [`SparseMatcher::fix_pair`]. Its list then holds
    /// only its pair, and the entries of the others' lists that point to it are dead
    /// whatever their copied weight id says (see [`View::alive`]).
    pinned: Vec<bool>,
    /// Per vertex: dead entries in `adj` whose other end is fixed (compacted lazily).
    dead: Vec<u32>,
    /// Entries `(vertex, neighbour)` whose copied weight id is stale: [`SparseMatcher::
    /// set_weight`] updates the copy in one end's list at once and leaves the other end's
    /// to [`Edges::flush`] (before the solver reads the lists), because finding the entry
    /// in a second, long list that is not in the cache was a fifth of a big bracket's time.
    stale: Vec<(u32, u32)>,
    /// Per vertex: scratch count of its entries in `stale` (zero between flushes).
    stale_count: Vec<u32>,
    /// The pair of the last [`SparseMatcher::set_weight`]: the engine's loops set a row or
    /// a column of pairs in turn, so searching the list of the end shared with it hits the
    /// cache.
    hot: (usize, usize),
    /// Distinct doubled weights and their approximations.
    table: Vec<W>,
    hi2: Vec<i64>,
    index: super::super::WeightMap<W, u32>,
    shift: u32,
}

/// The weight id in an adjacency entry of an edge that is not live.
const DEAD: u32 = u32::MAX;

/// The position of neighbour `b` in an adjacency list (sorted by neighbour, each neighbour
/// once). A bracket's lists hold runs of consecutive neighbours, so the position is first
/// guessed by interpolation; the true one then lies within `|b − guess's neighbour|`
/// entries of the guess, and only that window is searched.
#[inline]
fn locate(list: &[(u32, u32, u32)], b: u32) -> Option<usize> {
    let len = list.len();
    let (first, last) = (list.first()?.0, list[len - 1].0);
    if b < first || b > last {
        return None;
    }
    if len <= 16 || last == first {
        return list.binary_search_by_key(&b, |e| e.0).ok();
    }
    let guess = (u64::from(b - first) * (len as u64 - 1) / u64::from(last - first)) as usize;
    let g = list[guess].0;
    if g == b {
        return Some(guess);
    }
    let (lo, hi) = if g < b {
        (guess + 1, (guess + 1 + (b - g) as usize).min(len))
    } else {
        (guess.saturating_sub((g - b) as usize), guess)
    };
    list[lo..hi]
        .binary_search_by_key(&b, |e| e.0)
        .ok()
        .map(|i| i + lo)
}

impl<W: MatchWeight + Hash> Edges<W> {
    /// Copies edge `k`'s weight id (or [`DEAD`]) into the adjacency entries of its ends
    /// `u` and `v`.
    fn sync(&mut self, k: usize, u: usize, v: usize) {
        let id = if self.live[k] { self.wid[k] } else { DEAD };
        for (a, b) in [(u, v), (v, u)] {
            let list = &mut self.adj[a];
            if let Some(i) = locate(list, b as u32) {
                if (list[i].1 >> 1) as usize == k {
                    list[i].2 = id;
                }
            }
        }
    }

    /// Copies every edge's weight id into the lists again and forgets the pinned vertices
    /// (for an edge to a fixed vertex that comes back to life, which the Dutch engine never
    /// asks for).
    fn unpin_all(&mut self) {
        if self.pinned.iter().any(|&p| p) {
            self.sync_all();
            self.pinned.fill(false);
        }
    }

    /// [`Edges::sync`] for every edge.
    fn sync_all(&mut self) {
        for list in &mut self.adj {
            for e in list.iter_mut() {
                let k = (e.1 >> 1) as usize;
                e.2 = if self.live[k] { self.wid[k] } else { DEAD };
            }
        }
        self.stale.clear();
    }

    /// Copies the weight ids of the [`Edges::stale`] entries into the lists: a vertex with
    /// many stale entries gets its whole list copied again in one sequential sweep, the
    /// others are looked up one by one. Copying an entry again is harmless (the copy is
    /// always taken from the edge arrays), so the sweep may touch entries that were not
    /// stale.
    fn flush(&mut self) {
        if self.stale.is_empty() {
            return;
        }
        for &(x, _) in &self.stale {
            self.stale_count[x as usize] += 1;
        }
        for i in 0..self.stale.len() {
            let (x, b) = self.stale[i];
            let x = x as usize;
            let count = self.stale_count[x];
            if count == 0 {
                continue; // swept already
            }
            let list = &mut self.adj[x];
            if count as usize * 8 >= list.len() {
                for e in list.iter_mut() {
                    let k = (e.1 >> 1) as usize;
                    e.2 = if self.live[k] { self.wid[k] } else { DEAD };
                }
                self.stale_count[x] = 0;
            } else if let Some(at) = locate(list, b) {
                let k = (list[at].1 >> 1) as usize;
                list[at].2 = if self.live[k] { self.wid[k] } else { DEAD };
            }
        }
        for &(x, _) in &self.stale {
            self.stale_count[x as usize] = 0;
        }
        self.stale.clear();
    }

    fn intern(&mut self, w2: W) -> u32 {
        if let Some(&i) = self.index.get(&w2) {
            return i;
        }
        let i = self.table.len() as u32;
        self.table.push(w2);
        self.hi2.push(w2.approx(self.shift).unwrap_or(i64::MIN));
        self.index.insert(w2, i);
        i
    }

    /// The edge `{u, v}`, if stored (live or not).
    fn find(&self, u: usize, v: usize) -> Option<usize> {
        let (a, b) = if self.adj[u].len() <= self.adj[v].len() {
            (u, v)
        } else {
            (v, u)
        };
        let list = &self.adj[a];
        locate(list, b as u32).map(|i| (list[i].1 >> 1) as usize)
    }
}

/// Read-only view of the graph for the solver.
struct View<'g, W> {
    wid: &'g [u32],
    adj: &'g [Vec<(u32, u32, u32)>],
    pinned: &'g [bool],
    table: &'g [W],
    hi2: &'g [i64],
    shift: u32,
}

fn view<W>(g: &Edges<W>) -> View<'_, W> {
    View {
        wid: &g.wid,
        adj: &g.adj,
        pinned: &g.pinned,
        table: &g.table,
        hi2: &g.hi2,
        shift: g.shift,
    }
}

impl<W: MatchWeight> View<'_, W> {
    /// Whether the entry of `from`'s list pointing to `w` with weight id `id` is a live edge.
    #[inline]
    fn alive(&self, from: usize, w: u32, id: u32) -> bool {
        id != DEAD && (!self.pinned[w as usize] || self.pinned[from])
    }

    #[inline]
    fn w2(&self, p: usize) -> W {
        self.table[self.wid[p >> 1] as usize]
    }
}

impl<'a, W: MatchWeight + Hash> SparseMatcher<'a, W> {
    /// A graph of `n` vertices with no edges (no default pairs) yet; weights stay below
    /// `2^bits` in magnitude (see [`super::Matcher::with_weight_bits`]).
    pub fn with_weight_bits(n: usize, bits: u32) -> Self {
        let m = n + n % 2;
        let mut g = Edges {
            wid: Vec::new(),
            live: Vec::new(),
            explicit: Vec::new(),
            adj: vec![Vec::new(); m],
            pinned: vec![false; m],
            dead: vec![0; m],
            stale: Vec::new(),
            stale_count: vec![0; m],
            hot: (usize::MAX, usize::MAX),
            table: Vec::new(),
            hi2: Vec::new(),
            index: super::super::WeightMap::default(),
            shift: (bits + 4).saturating_sub(60),
        };
        let mut st = State::new(m);
        st.shift = g.shift;
        let mut fixed = vec![false; m];
        if m > n {
            fixed[n] = true;
            let zero = g.intern(W::ZERO);
            for v in 0..n {
                Self::push_edge(&mut g, &mut st, v, n, zero, true);
            }
        }
        SparseMatcher {
            n,
            m,
            g,
            default: Box::new(|_, _| None),
            potential: vec![W::ZERO; m],
            fixed,
            complete: false,
            dirty: Vec::new(),
            is_dirty: vec![false; m],
            fresh: true,
            perfect: false,
            tightening: false,
            st,
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

    /// Number of stored edges (live or not), for tests and figures.
    pub fn stored_edges(&self) -> usize {
        self.g.wid.len()
    }

    fn push_edge(
        g: &mut Edges<W>,
        st: &mut State<W>,
        u: usize,
        v: usize,
        wid: u32,
        explicit: bool,
    ) -> usize {
        let k = Self::new_edge(g, st, u, v, wid, explicit);
        // The entry in u's list holds the endpoint at v (2k + 1), and vice versa.
        Self::insert_entry(&mut g.adj[u], v, 2 * k + 1, wid);
        Self::insert_entry(&mut g.adj[v], u, 2 * k, wid);
        k
    }

    /// Appends edge `{u, v}` (endpoint `2k` at `u`, `2k + 1` at `v`) to the edge arrays
    /// only; returns `k`.
    fn new_edge(
        g: &mut Edges<W>,
        st: &mut State<W>,
        u: usize,
        v: usize,
        wid: u32,
        explicit: bool,
    ) -> usize {
        let k = g.wid.len();
        g.wid.push(wid);
        g.live.push(true);
        g.explicit.push(explicit);
        st.ends.push(u as u32);
        st.ends.push(v as u32);
        st.allowedge.push(false);
        k
    }

    /// Puts the entry `(b, endpoint p, weight id)` in its place in a sorted list.
    fn insert_entry(list: &mut Vec<(u32, u32, u32)>, b: usize, p: usize, wid: u32) {
        // Mostly an append or nearly (a bracket's pairs are set in vertex order; a few
        // entries for later vertices, such as the window's, may follow): the place is
        // looked for from the end, which touches only the list's last cache lines, and by
        // a binary search over the long list (a cache miss per step) only after that.
        let mut at = list.len();
        let mut steps = 0;
        while at > 0 && (list[at - 1].0 as usize) > b && steps < 32 {
            at -= 1;
            steps += 1;
        }
        if at > 0 && (list[at - 1].0 as usize) > b {
            at = list[..at].partition_point(|e| (e.0 as usize) < b);
        }
        list.insert(at, (b as u32, p as u32, wid));
    }

    fn mark(&mut self, v: usize) {
        if !self.is_dirty[v] {
            self.is_dirty[v] = true;
            self.dirty.push(v);
        }
    }

    /// Replaces the default weights and potentials; every stored default edge takes its new
    /// weight and the next solve starts afresh. `window` default neighbours per vertex are
    /// stored (the next compatible ones in vertex order).
    pub fn set_defaults(&mut self, potential: Vec<W>, default: DefaultWeight<'a, W>) {
        assert_eq!(potential.len(), self.n, "one potential per vertex");
        self.potential = potential;
        self.potential.resize(self.m, W::ZERO);
        self.default = default;
        for k in 0..self.g.wid.len() {
            if !self.g.explicit[k] {
                let (u, v) = (
                    self.st.ends[2 * k] as usize,
                    self.st.ends[2 * k + 1] as usize,
                );
                match (self.default)(u, v) {
                    Some(w) => {
                        self.g.wid[k] = self.g.intern(w.double());
                        self.g.live[k] = true;
                    }
                    None => self.g.live[k] = false,
                }
            }
        }
        self.g.sync_all();
        for v in 0..self.n {
            if self.fixed[v] {
                continue;
            }
            let mut found = 0;
            let mut x = v + 1;
            while x < self.n && found < WINDOW && x < v + 8 * WINDOW {
                if !self.fixed[x] && self.g.find(v, x).is_none() {
                    if let Some(w) = (self.default)(v, x) {
                        let wid = self.g.intern(w.double());
                        Self::push_edge(&mut self.g, &mut self.st, v, x, wid, false);
                        found += 1;
                    }
                }
                x += 1;
            }
        }
        self.fresh = true;
    }

    /// Sets (or with `None` removes) the edge `{u, v}`, overriding its default weight.
    ///
    /// # Panics
    /// Panics when `u == v` or a vertex is out of range.
    pub fn set_weight(&mut self, u: usize, v: usize, weight: Option<W>) {
        assert!(u != v && u < self.n && v < self.n, "bad edge {u}-{v}");
        if weight.is_some() && (self.g.pinned[u] || self.g.pinned[v]) {
            self.g.unpin_all();
        }
        // Search the list of the end shared with the last call (a row or a column of pairs
        // set in turn), else `u`'s; the other end's copy is deferred.
        let (hu, hv) = self.g.hot;
        let (a, b) = if u != hu && u != hv && (v == hu || v == hv) {
            (v, u)
        } else {
            (u, v)
        };
        self.g.hot = (u, v);
        let found = locate(&self.g.adj[a], b as u32);
        match (found, weight) {
            (Some(ia), Some(w)) => {
                let k = (self.g.adj[a][ia].1 >> 1) as usize;
                let id = self.g.intern(w.double());
                self.g.wid[k] = id;
                self.g.live[k] = true;
                self.g.explicit[k] = true;
                self.g.adj[a][ia].2 = id;
                self.defer(b, a);
            }
            (Some(ia), None) => {
                let k = (self.g.adj[a][ia].1 >> 1) as usize;
                self.g.live[k] = false;
                self.g.explicit[k] = true;
                self.g.adj[a][ia].2 = DEAD;
                self.defer(b, a);
            }
            (None, Some(w)) => {
                let wid = self.g.intern(w.double());
                Self::push_edge(&mut self.g, &mut self.st, u, v, wid, true);
            }
            (None, None) => {
                if self.fixed[u] || self.fixed[v] || (self.default)(u, v).is_none() {
                    return;
                }
                // Remember the removal, or certification would bring the default back.
                let wid = self.g.intern(W::ZERO);
                let k = Self::push_edge(&mut self.g, &mut self.st, u, v, wid, true);
                self.g.live[k] = false;
                self.g.sync(k, u, v);
            }
        }
        self.mark(u);
    }

    /// [`SparseMatcher::set_weight`] of `(u, v, weight)` for each `(v, weight)` of `row`, in
    /// that order (`v` strictly ascending): the same edges, weights, ids and repairs, but
    /// `u`'s list is merged with the row in one pass instead of being searched and grown
    /// entry by entry (a bracket's first pass sets all its pairs this way).
    ///
    /// # Panics
    /// Panics when `u` or a `v` is out of range, `v == u`, or the row is not ascending.
    pub fn set_row(&mut self, u: usize, row: &[(usize, Option<W>)]) {
        assert!(u < self.n, "bad vertex {u}");
        if row
            .iter()
            .any(|&(v, w)| w.is_some() && (self.g.pinned[u] || self.g.pinned[v]))
        {
            self.g.unpin_all();
        }
        let old = std::mem::take(&mut self.g.adj[u]);
        let mut merged = Vec::with_capacity(old.len() + row.len());
        let mut i = 0;
        let mut marked = false;
        let mut last: Option<usize> = None;
        for &(v, weight) in row {
            assert!(u != v && v < self.n, "bad edge {u}-{v}");
            assert!(last.is_none_or(|l| l < v), "row not ascending at {v}");
            last = Some(v);
            while i < old.len() && (old[i].0 as usize) < v {
                merged.push(old[i]);
                i += 1;
            }
            if i < old.len() && old[i].0 as usize == v {
                let mut e = old[i];
                i += 1;
                let k = (e.1 >> 1) as usize;
                match weight {
                    Some(w) => {
                        let id = self.g.intern(w.double());
                        self.g.wid[k] = id;
                        self.g.live[k] = true;
                        e.2 = id;
                    }
                    None => {
                        self.g.live[k] = false;
                        e.2 = DEAD;
                    }
                }
                self.g.explicit[k] = true;
                merged.push(e);
                // Not `defer`: a flush now would miss `u`'s list, which is taken.
                self.g.stale.push((v as u32, u as u32));
                marked = true;
                continue;
            }
            let (wid, live) = match weight {
                Some(w) => (self.g.intern(w.double()), true),
                None => {
                    if self.fixed[u] || self.fixed[v] || (self.default)(u, v).is_none() {
                        continue;
                    }
                    // Remember the removal, or certification would bring the default back.
                    (self.g.intern(W::ZERO), false)
                }
            };
            let k = Self::new_edge(&mut self.g, &mut self.st, u, v, wid, true);
            self.g.live[k] = live;
            let copy = if live { wid } else { DEAD };
            merged.push((v as u32, (2 * k + 1) as u32, copy));
            Self::insert_entry(&mut self.g.adj[v], u, 2 * k, copy);
            marked = true;
        }
        merged.extend_from_slice(&old[i..]);
        self.g.adj[u] = merged;
        if marked {
            self.mark(u);
        }
        if self.g.stale.len() >= STALE_LIMIT {
            self.g.flush();
        }
    }

    /// Notes that the entry of `x`'s list for neighbour `b` has a stale weight id.
    fn defer(&mut self, x: usize, b: usize) {
        self.g.stale.push((x as u32, b as u32));
        if self.g.stale.len() >= STALE_LIMIT {
            self.g.flush();
        }
    }

    /// The weight of edge `{u, v}`, if it exists (explicit or default).
    pub fn weight(&self, u: usize, v: usize) -> Option<W> {
        match self.g.find(u, v) {
            Some(k) => self.g.live[k].then(|| self.g.table[self.g.wid[k] as usize].half()),
            None if self.fixed[u] || self.fixed[v] => None,
            None => (self.default)(u, v),
        }
    }

    /// Fixes the pair `{u, v}` (see [`super::Matcher::fix_pair`]).
    pub fn fix_pair(&mut self, u: usize, v: usize) {
        assert!(u != v && u < self.n && v < self.n, "bad pair {u}-{v}");
        let pair = match self.g.find(u, v) {
            Some(k) if self.g.live[k] => k,
            Some(k) => {
                self.g.wid[k] = self.g.intern(W::ZERO);
                self.g.live[k] = true;
                self.g.explicit[k] = true;
                self.g.sync(k, u, v);
                self.mark(u);
                k
            }
            None => {
                let wid = self.g.intern(W::ZERO);
                let k = Self::push_edge(&mut self.g, &mut self.st, u, v, wid, true);
                self.mark(u);
                k
            }
        };
        let matched = !self.fresh
            && self.st.mate[u] != NONE
            && (self.st.mate[u] >> 1) == pair
            && self.st.inblossom[u] == u
            && self.st.inblossom[v] == v
            && !self.is_dirty[u]
            && !self.is_dirty[v];
        self.fixed[u] = true;
        self.fixed[v] = true;
        self.g.pinned[u] = true;
        self.g.pinned[v] = true;
        for a in [u, v] {
            let list = std::mem::take(&mut self.g.adj[a]);
            let mut kept = Vec::with_capacity(1);
            for &(x, p, id) in &list {
                let k = (p >> 1) as usize;
                if k == pair {
                    kept.push((x, p, id));
                    continue;
                }
                self.g.live[k] = false;
                self.g.explicit[k] = true;
                let x = x as usize;
                if x != u && x != v {
                    self.g.dead[x] += 1;
                    let len = self.g.adj[x].len() as u32;
                    if self.g.dead[x] * 2 > len && len > 8 {
                        let fixed = &self.fixed;
                        let live = &self.g.live;
                        self.g.adj[x].retain(|e| live[(e.1 >> 1) as usize] || !fixed[e.0 as usize]);
                        self.g.dead[x] = 0;
                    }
                }
            }
            self.g.adj[a] = kept;
            self.g.dead[a] = 0;
        }
        if !matched {
            self.mark(u);
            self.mark(v);
        }
    }

    /// Forgets the current optimum: the next solve starts from scratch.
    pub fn reset(&mut self) {
        self.fresh = true;
    }

    /// The least dual a vertex whose dual is set from scratch may take: its potential,
    /// raised by the most negative excess `y − P` of the others (so that no default pair
    /// becomes infeasible).
    fn floors(&self) -> Vec<Option<W>> {
        let mut emin: Option<W> = None;
        for v in 0..self.m {
            // A vertex being released gets at least its own potential, so only the others'
            // excess matters.
            let repaired = self.tightening && self.is_dirty[v];
            if !self.fixed[v] && !repaired {
                let e = self.st.dualvar[v].sub(self.potential[v]);
                if emin.is_none_or(|m| e < m) {
                    emin = Some(e);
                }
            }
        }
        let raise = match emin {
            Some(e) if e < W::ZERO => W::ZERO.sub(e),
            _ => W::ZERO,
        };
        (0..self.m)
            .map(|v| (!self.fixed[v]).then(|| self.potential[v].add(raise)))
            .collect()
    }

    /// Computes (or repairs) the maximum-weight matching among maximum-cardinality matchings
    /// of the dense graph.
    pub fn solve(&mut self) {
        loop {
            self.solve_stored();
            let free: Vec<usize> = (0..self.m).filter(|&v| self.st.mate[v] == NONE).collect();
            if !free.is_empty() {
                if self.complete {
                    break;
                }
                // The stored graph has no perfect matching: give the free vertices all their
                // default pairs, and if that adds nothing, store every default pair.
                let mut added = 0;
                for &v in &free {
                    added += self.add_row(v);
                }
                if added == 0 {
                    for v in 0..self.n {
                        self.add_row(v);
                    }
                    self.complete = true;
                }
                self.fresh = true;
                continue;
            }
            if self.certify() == 0 {
                break;
            }
        }
        self.perfect = self.st.mate.iter().all(|&p| p != NONE);
        for v in self.dirty.drain(..) {
            self.is_dirty[v] = false;
        }
        if self.perfect && self.tightening {
            self.tighten();
        }
    }

    /// After a certified solve every pair (stored or not) has a non-negative reduced cost
    /// `y(u) + y(v) + 2·Σ z_B − 2·w` (over the blossoms containing both), so the effective
    /// duals `y(v) + Σ z_B` (over the blossoms containing `v`) are potentials for the current
    /// weights: the tightest ones known, which keeps the next certification
    /// to the pairs around the vertices whose duals fall.
    fn tighten(&mut self) {
        for v in 0..self.n {
            if self.fixed[v] {
                continue;
            }
            let mut p = self.st.dualvar[v];
            let mut b = self.st.blossomparent[v];
            while b != NONE {
                p = p.add(self.st.dualvar[b]);
                b = self.st.blossomparent[b];
            }
            self.potential[v] = p;
        }
    }

    /// Makes the potentials follow the certified duals: after each certified solve every
    /// potential becomes its vertex's effective dual (the tightest bound known), and a vertex
    /// being repaired gets at least its own potential as its dual floor. For a caller that
    /// changes default weights between solves ([`SparseMatcher::refresh`]); a fixed default
    /// is better served by its own potentials, the default.
    pub fn tightening(&mut self, on: bool) {
        self.tightening = on;
    }

    /// The potential of `v` (it bounds `v`'s default pairs, see the module docs).
    pub fn potential(&self, v: usize) -> W {
        self.potential[v]
    }

    /// The default weights of `v`'s pairs have changed (the default function reads state the
    /// caller changed): its stored default edges take their new weights, its potential
    /// becomes `potential` (which must bound the new default weights with the other
    /// vertices' potentials) and the next solve repairs the optimum around it.
    pub fn refresh(&mut self, v: usize, potential: W) {
        if v >= self.n || self.fixed[v] {
            return;
        }
        self.potential[v] = potential;
        for i in 0..self.g.adj[v].len() {
            let (x, p, _) = self.g.adj[v][i];
            let k = (p >> 1) as usize;
            if self.g.explicit[k] {
                continue;
            }
            match (self.default)(v, x as usize) {
                Some(w) => {
                    self.g.wid[k] = self.g.intern(w.double());
                    self.g.live[k] = true;
                }
                None => self.g.live[k] = false,
            }
            self.g.sync(k, v, x as usize);
        }
        self.mark(v);
    }

    /// [`SparseMatcher::refresh`] with the least potential that bounds `v`'s default pairs
    /// given the others' potentials (one default weight per vertex).
    pub fn refresh_exact(&mut self, v: usize) {
        if v >= self.n || self.fixed[v] {
            return;
        }
        let mut need: Option<W> = None;
        for x in 0..self.n {
            if x == v || self.fixed[x] || self.g.find(v, x).is_some() {
                continue;
            }
            if let Some(w) = (self.default)(v, x) {
                let d = w.double().sub(self.potential[x]);
                if need.is_none_or(|m| d > m) {
                    need = Some(d);
                }
            }
        }
        let p = need.unwrap_or(self.potential[v]);
        self.refresh(v, p);
    }

    /// Stores the default pair `{u, v}` (a likely member of the next optimum), if it exists
    /// and is not stored yet; its ends are repaired when its reduced cost is negative.
    pub fn add_candidate(&mut self, u: usize, v: usize) {
        if u == v || u >= self.n || v >= self.n || self.fixed[u] || self.fixed[v] {
            return;
        }
        if self.g.find(u, v).is_some() {
            return;
        }
        let Some(w) = (self.default)(u, v) else {
            return;
        };
        let w2 = w.double();
        let wid = self.g.intern(w2);
        Self::push_edge(&mut self.g, &mut self.st, u, v, wid, false);
        if self.st.dualvar[u].add(self.st.dualvar[v]) < w2 {
            self.mark(u);
        }
    }

    /// Stores every default pair of `v`; returns how many were added.
    fn add_row(&mut self, v: usize) -> usize {
        if v >= self.n || self.fixed[v] {
            return 0;
        }
        let mut added = 0;
        for x in 0..self.n {
            if x != v && !self.fixed[x] && self.g.find(v, x).is_none() {
                if let Some(w) = (self.default)(v, x) {
                    let wid = self.g.intern(w.double());
                    Self::push_edge(&mut self.g, &mut self.st, v, x, wid, false);
                    added += 1;
                }
            }
        }
        added
    }

    fn solve_stored(&mut self) {
        // The solver reads the copied weight ids.
        self.g.flush();
        if self.fresh {
            self.st.reset();
            let floors: Vec<Option<W>> = (0..self.m)
                .map(|v| (!self.fixed[v]).then_some(self.potential[v]))
                .collect();
            let graph = view(&self.g);
            self.st.start_duals(&graph, &floors);
            self.st.match_tight_free(&graph);
            self.st.augment_tight_paths(&graph);
            self.st.align_free_parities();
            self.st.run(&graph, true);
            self.fresh = false;
            if (0..self.m).any(|v| self.st.mate[v] == NONE) {
                // Retried from plain duals (every dual at the largest weight).
                self.st.reset();
                let graph = view(&self.g);
                self.st.plain_duals(&graph, &floors);
                self.st.run(&graph, true);
            }
        } else {
            let floors = self.floors();
            let dirty = std::mem::take(&mut self.dirty);
            let graph = view(&self.g);
            for &v in &dirty {
                self.st.release_vertex(&graph, v, floors[v]);
            }
            self.st.match_tight_free(&graph);
            self.st.augment_tight_paths(&graph);
            self.st.align_free_parities();
            self.st.run(&graph, true);
            if (0..self.m).any(|v| self.st.mate[v] == NONE) {
                self.fresh = true;
                self.solve_stored();
            }
        }
        for v in self.dirty.drain(..) {
            self.is_dirty[v] = false;
        }
        for d in self.is_dirty.iter_mut() {
            *d = false;
        }
    }

    /// The blossoms containing `v`, outermost first.
    fn chain(&self, v: usize) -> Vec<usize> {
        let st = &self.st;
        let mut up = Vec::new();
        let mut b = st.blossomparent[v];
        while b != NONE {
            up.push(b);
            b = st.blossomparent[b];
        }
        up.reverse();
        up
    }

    /// The candidate pairs among `members` (indices into `excess`, all inside the blossoms
    /// `chains[i][..depth]`, whose doubled duals sum to `z`) that may have a negative
    /// reduced cost: pairs split at this level get `z`; pairs sharing the next blossom
    /// are looked at one level down. Groups are visited by their smallest excess, so that
    /// hopeless ones are cut off early.
    #[allow(clippy::too_many_arguments)]
    fn scan<F: FnMut(usize, usize, W, &mut Vec<(usize, usize, W)>)>(
        &self,
        excess: &[(W, usize)],
        chains: &[Vec<usize>],
        members: &[usize],
        depth: usize,
        z: W,
        consider: &mut F,
        add: &mut Vec<(usize, usize, W)>,
    ) {
        let mut groups: std::collections::BTreeMap<usize, Vec<usize>> =
            std::collections::BTreeMap::new();
        for &i in members {
            let key = chains[i].get(depth).copied().unwrap_or(excess[i].1);
            groups.entry(key).or_default().push(i);
        }
        // `members` is sorted by excess, so each group is too.
        let mut groups: Vec<(usize, Vec<usize>)> = groups.into_iter().collect();
        groups.sort_by(|a, b| excess[a.1[0]].cmp(&excess[b.1[0]]));
        let e = |i: usize| excess[i].0;
        for a in 0..groups.len() {
            for b in a + 1..groups.len() {
                let (ga, gb) = (&groups[a].1, &groups[b].1);
                if e(ga[0]).add(e(gb[0])).add(z) >= W::ZERO {
                    break;
                }
                for &i in ga {
                    if e(i).add(e(gb[0])).add(z) >= W::ZERO {
                        break;
                    }
                    for &j in gb {
                        if e(i).add(e(j)).add(z) >= W::ZERO {
                            break;
                        }
                        consider(excess[i].1, excess[j].1, z, add);
                    }
                }
            }
        }
        for (key, group) in &groups {
            if *key < self.n || group.len() < 2 {
                continue;
            }
            let inner = z.add(self.st.dualvar[*key].double());
            if e(group[0]).add(e(group[1])).add(inner) >= W::ZERO {
                continue;
            }
            self.scan(excess, chains, group, depth + 1, inner, consider, add);
        }
    }

    /// Adds every default pair that the current duals do not prove unneeded and whose
    /// reduced cost is negative; returns how many (their ends are marked for repair).
    ///
    /// A pair's reduced cost (doubled) is `y(u) + y(v) + 2·Σ z_B − 2·w` over the blossoms
    /// `B` containing both; with `e = y − P` it is at least `e(u) + e(v) + 2·Σ z_B`, so only
    /// pairs where that is negative are looked at (both ends then have `e` below `−min e`).
    fn certify(&mut self) -> usize {
        let mut excess: Vec<(W, usize)> = (0..self.n)
            .filter(|&v| !self.fixed[v])
            .map(|v| (self.st.dualvar[v].sub(self.potential[v]), v))
            .collect();
        let Some(emin) = excess.iter().map(|e| e.0).min() else {
            return 0;
        };
        if emin >= W::ZERO {
            return 0;
        }
        excess.retain(|e| e.0.add(emin) < W::ZERO);
        excess.sort_unstable();
        let mut add = Vec::new();
        let mut consider = |u: usize, v: usize, z: W, add: &mut Vec<(usize, usize, W)>| {
            if self.g.find(u, v).is_some() {
                return;
            }
            let Some(w) = (self.default)(u, v) else {
                return;
            };
            let w2 = w.double();
            debug_assert!(
                self.potential[u].add(self.potential[v]) >= w2,
                "potentials bound the default weights"
            );
            let reduced = self.st.dualvar[u].add(self.st.dualvar[v]).add(z).sub(w2);
            if reduced < W::ZERO {
                add.push((u, v, w2));
            }
        };
        // Each candidate's blossoms, outermost first.
        let chains: Vec<Vec<usize>> = excess.iter().map(|e| self.chain(e.1)).collect();
        let members: Vec<usize> = (0..excess.len()).collect();
        self.scan(
            &excess,
            &chains,
            &members,
            0,
            W::ZERO,
            &mut consider,
            &mut add,
        );
        for &(u, v, w2) in &add {
            let wid = self.g.intern(w2);
            Self::push_edge(&mut self.g, &mut self.st, u, v, wid, false);
            self.mark(u);
        }
        add.len()
    }

    /// See [`super::Matcher::is_certified`]; the certificate covers the dense graph.
    pub fn is_certified(&self) -> bool {
        !self.fresh && self.perfect && self.dirty.is_empty()
    }

    /// See [`super::Matcher::may_be_optimal`].
    pub fn may_be_optimal(&self, u: usize, v: usize) -> bool {
        if !self.is_certified() {
            return true;
        }
        let w2 = match self.g.find(u, v) {
            Some(k) if self.g.live[k] => self.g.table[self.g.wid[k] as usize],
            Some(_) => return false,
            None if self.fixed[u] || self.fixed[v] => return false,
            None => match (self.default)(u, v) {
                Some(w) => w.double(),
                None => return false,
            },
        };
        if self.st.inblossom[u] == self.st.inblossom[v] {
            return true;
        }
        self.st.dualvar[u].add(self.st.dualvar[v]).sub(w2) <= W::ZERO
    }

    /// See [`super::Matcher::try_swap`] (both exchanged edges must be stored).
    pub fn try_swap(&mut self, u: usize, c: usize) -> bool {
        if !self.is_certified() || u == c || u >= self.n || c >= self.n {
            return false;
        }
        let (pu, pc) = (self.st.mate[u], self.st.mate[c]);
        if pu == NONE || pc == NONE {
            return false;
        }
        let (x, y) = (self.st.ends[pu] as usize, self.st.ends[pc] as usize);
        if x == c {
            return true;
        }
        let quad = [u, c, x, y];
        if quad.iter().any(|&v| self.st.inblossom[v] != v) {
            return false;
        }
        // `Some(Ok(edge))` for a tight stored edge, `Some(Err(doubled weight))` for a tight
        // default pair that is not stored.
        let tight = |a: usize, b: usize| -> Option<Result<usize, W>> {
            let slack = |w2: W| self.st.dualvar[a].add(self.st.dualvar[b]).sub(w2);
            match self.g.find(a, b) {
                Some(k) => (self.g.live[k]
                    && slack(self.g.table[self.g.wid[k] as usize]) == W::ZERO)
                    .then_some(Ok(k)),
                None if self.fixed[a] || self.fixed[b] => None,
                None => {
                    let w2 = (self.default)(a, b)?.double();
                    (slack(w2) == W::ZERO).then_some(Err(w2))
                }
            }
        };
        let (Some(kuc), Some(kxy)) = (tight(u, c), tight(x, y)) else {
            return false;
        };
        let mut store = |a: usize, b: usize, k: Result<usize, W>| match k {
            Ok(k) => k,
            Err(w2) => {
                let wid = self.g.intern(w2);
                Self::push_edge(&mut self.g, &mut self.st, a, b, wid, false)
            }
        };
        let kuc = store(u, c, kuc);
        let kxy = store(x, y, kxy);
        // The endpoint of edge k at vertex b.
        let at = |k: usize, b: usize| -> usize {
            if self.st.ends[2 * k] as usize == b {
                2 * k
            } else {
                2 * k + 1
            }
        };
        let (uc, cu, xy, yx) = (at(kuc, c), at(kuc, u), at(kxy, y), at(kxy, x));
        self.st.mate[u] = uc;
        self.st.mate[c] = cu;
        self.st.mate[x] = xy;
        self.st.mate[y] = yx;
        true
    }

    /// The partner of `v` in the current optimum.
    pub fn mate(&self, v: usize) -> Option<usize> {
        let p = self.st.mate[v];
        if p == NONE {
            return None;
        }
        let u = self.st.ends[p] as usize;
        (u < self.n).then_some(u)
    }

    /// The partner of every vertex in the current optimum.
    pub fn matching(&self) -> Vec<Option<usize>> {
        (0..self.n).map(|v| self.mate(v)).collect()
    }
}

/// Solver state (as in the dense matcher). Endpoint `p` is the end at vertex `ends[p]` of
/// edge `p / 2`; `p ^ 1` is its other end.
struct State<W> {
    n: usize,
    /// The graph's approximation shift (see [`MatchWeight::approx`]).
    shift: u32,
    ends: Vec<u32>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    bestslack: Vec<W>,
    /// `bestslack[x].approx(shift)` (`i64::MIN` when it does not fit), cached with it.
    bestapprox: Vec<i64>,
    bestepoch: Vec<u64>,
    epoch: u64,
    /// Per vertex: `dualvar[v].approx(shift)` (`i64::MIN` when it does not fit), refreshed
    /// by [`State::approximate_duals`] and by the dual updates of [`State::run`].
    dualapprox: Vec<i64>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    /// Per edge.
    allowedge: Vec<bool>,
    allowed_list: Vec<usize>,
    queue: Vec<usize>,
    /// The vertices labelled in this stage of [`State::run`] (each once; a superset of
    /// those whose outer blossom is labelled now, as an expanded blossom's leaves stay),
    /// so that a dual update visits them instead of all `n` vertices: with a big bracket's
    /// many stages that loop was a tenth of the solve.
    touched: Vec<usize>,
    /// Per vertex: the stage in which it was last put in `touched`.
    touched_stage: Vec<u64>,
    stage: u64,
}

impl<W: MatchWeight> State<W> {
    fn new(n: usize) -> Self {
        State {
            n,
            shift: 0,
            ends: Vec::new(),
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
            bestapprox: vec![i64::MIN; 2 * n],
            bestepoch: vec![u64::MAX; 2 * n],
            epoch: 0,
            dualapprox: vec![i64::MIN; n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).rev().collect(),
            dualvar: vec![W::ZERO; 2 * n],
            allowedge: Vec::new(),
            allowed_list: Vec::new(),
            queue: Vec::new(),
            touched: Vec::new(),
            touched_stage: vec![0; n],
            stage: 0,
        }
    }

    /// Puts each of `leaves` (labelled now) in `touched`, unless it is there already.
    fn touch(&mut self, leaves: &[usize]) {
        for &v in leaves {
            if self.touched_stage[v] != self.stage {
                self.touched_stage[v] = self.stage;
                self.touched.push(v);
            }
        }
    }

    /// Back to no matching and no blossoms (the edges stay).
    fn reset(&mut self) {
        let ends = std::mem::take(&mut self.ends);
        let edges = self.allowedge.len();
        let shift = self.shift;
        *self = State::new(self.n);
        self.shift = shift;
        self.ends = ends;
        self.allowedge = vec![false; edges];
    }

    #[inline]
    fn endpoint(&self, p: usize) -> usize {
        self.ends[p] as usize
    }

    #[inline]
    fn flip(&self, p: usize) -> usize {
        p ^ 1
    }

    #[inline]
    fn slack(&self, g: &View<'_, W>, p: usize) -> W {
        let (i, j) = (self.ends[p] as usize, self.ends[p ^ 1] as usize);
        self.dualvar[i].add(self.dualvar[j]).sub(g.w2(p))
    }

    fn best_slack(&mut self, g: &View<'_, W>, x: usize) -> W {
        if self.bestepoch[x] != self.epoch {
            self.set_best(x, self.bestedge[x], self.slack(g, self.bestedge[x]));
        }
        self.bestslack[x]
    }

    /// `best_slack(x).approx(shift)`, `i64::MIN` when it does not fit.
    fn best_approx(&mut self, g: &View<'_, W>, x: usize) -> i64 {
        if self.bestepoch[x] != self.epoch {
            self.set_best(x, self.bestedge[x], self.slack(g, self.bestedge[x]));
        }
        self.bestapprox[x]
    }

    fn set_best(&mut self, x: usize, p: usize, slack: W) {
        self.bestedge[x] = p;
        self.bestslack[x] = slack;
        self.bestapprox[x] = slack.approx(self.shift).unwrap_or(i64::MIN);
        self.bestepoch[x] = self.epoch;
    }

    /// Refreshes every vertex's [`State::dualapprox`].
    fn approximate_duals(&mut self) {
        let shift = self.shift;
        for v in 0..self.n {
            self.dualapprox[v] = self.dualvar[v].approx(shift).unwrap_or(i64::MIN);
        }
    }

    /// Whether the live edge `{v, w}` of weight id `id` has a zero slack.
    #[inline]
    fn tight(&self, g: &View<'_, W>, v: usize, w: usize, id: u32) -> bool {
        self.dualvar[v].add(self.dualvar[w]) == g.table[id as usize]
    }

    /// Whether the edge `{v, w}` of weight id `id` has a positive slack by the cached
    /// approximations alone (a conservative test: `false` proves nothing).
    #[inline]
    fn surely_loose(&self, g: &View<'_, W>, v: usize, w: usize, id: u32) -> bool {
        let (a, b, c) = (self.dualapprox[v], self.dualapprox[w], g.hi2[id as usize]);
        // Each approximation is a floor, so the true slack exceeds (a + b − c − 1)·2^shift.
        a != i64::MIN && b != i64::MIN && c != i64::MIN && a + b - c >= 1
    }

    fn allow(&mut self, p: usize) {
        let k = p >> 1;
        if !self.allowedge[k] {
            self.allowedge[k] = true;
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
                let from = q.len();
                self.leaves(b, &mut q);
                self.touch(&q[from..]);
                self.queue = q;
                return;
            }
            let leaves = self.leaves_of(b);
            self.touch(&leaves);
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

    /// `v`–`w` is the tight edge closing the blossom (`pv` its end at `v`); `v`'s side is
    /// traced first.
    fn add_blossom(&mut self, g: &View<'_, W>, base: usize, v: usize, w: usize, pv: usize) {
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
        endps.push(pv);
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
        // Best edge per neighbouring S-blossom, found by scanning the sub-blossoms' lists.
        let mut best_to: HashMap<usize, (usize, W)> = HashMap::new();
        for &sub in &path {
            let Some(lists) = self.blossombestedges[sub].take() else {
                // A vertex or a blossom without its list: its leaves' edges, read from the
                // adjacency entries, which hold the neighbour (the end outside `b` when
                // it is outside) and a copy of the weight id, instead of the endpoint
                // and weight arrays (a random load per edge: this was a third of the
                // solver's time in a big bracket's first solve).
                for leaf in self.leaves_of(sub) {
                    for &(w, p, id) in &g.adj[leaf] {
                        if !g.alive(leaf, w, id) {
                            continue;
                        }
                        let (j, q) = (w as usize, p as usize);
                        let bj = self.inblossom[j];
                        if bj != b && self.label[bj] == 1 {
                            let sq = self.dualvar[leaf]
                                .add(self.dualvar[j])
                                .sub(g.table[id as usize]);
                            match best_to.get(&bj) {
                                Some(&(_, s)) if s <= sq => {}
                                _ => {
                                    best_to.insert(bj, (q, sq));
                                }
                            }
                        }
                    }
                }
                self.bestedge[sub] = NONE;
                continue;
            };
            for p in lists {
                // `q`: the end outside `b`.
                let q = if self.inblossom[self.ends[p] as usize] == b {
                    p ^ 1
                } else {
                    p
                };
                let j = self.ends[q] as usize;
                let bj = self.inblossom[j];
                if bj != b && self.label[bj] == 1 {
                    let sq = self.slack(g, q);
                    match best_to.get(&bj) {
                        Some(&(_, s)) if s <= sq => {}
                        _ => {
                            best_to.insert(bj, (q, sq));
                        }
                    }
                }
            }
            self.bestedge[sub] = NONE;
        }
        let mut entries: Vec<(usize, (usize, W))> = best_to.into_iter().collect();
        entries.sort_unstable_by_key(|e| e.0);
        let mut list = Vec::with_capacity(entries.len());
        let mut best = NONE;
        let mut best_slack = W::ZERO;
        for (_, (k, s)) in entries {
            list.push(k);
            if best == NONE || s < best_slack {
                best = k;
                best_slack = s;
            }
        }
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
        self.bestslack[b] = best_slack;
        self.bestepoch[b] = if best == NONE { u64::MAX } else { self.epoch };
        let _ = n;
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

    /// Augments along the tight edge whose end at `w` is `p` (its other end `v`), between
    /// two S-trees.
    fn augment_matching(&mut self, p: usize) {
        let n = self.n;
        let (v, w) = (self.endpoint(p ^ 1), self.endpoint(p));
        for (s0, p0) in [(v, p), (w, p ^ 1)] {
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
    #[allow(clippy::too_many_lines)]
    fn run(&mut self, g: &View<'_, W>, maxcardinality: bool) {
        let n = self.n;
        if self.allowedge.len() < g.wid.len() {
            self.allowedge.resize(g.wid.len(), false);
        }
        loop {
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
            }
            self.queue.clear();
            self.epoch += 1;
            self.stage += 1;
            self.touched.clear();
            self.approximate_duals();
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
                    let dv_hi = self.dualapprox[v];
                    for &(w, p, id) in &g.adj[v] {
                        if !g.alive(v, w, id) {
                            continue;
                        }
                        let (w, p, id) = (w as usize, p as usize, id as usize);
                        let k = p >> 1;
                        let bw = self.inblossom[w];
                        if self.inblossom[v] == bw {
                            continue;
                        }
                        let allowed = self.allowedge[k];
                        let mut kslack = W::ZERO;
                        if !allowed {
                            let (b, c) = (self.dualapprox[w], g.hi2[id]);
                            let approx = (dv_hi != i64::MIN && b != i64::MIN && c != i64::MIN)
                                .then(|| dv_hi + b - c);
                            if let Some(approx) = approx.filter(|&a| a >= 1) {
                                let target = if self.label[bw] == 1 {
                                    self.inblossom[v]
                                } else if self.label[w] == 0 {
                                    w
                                } else {
                                    continue;
                                };
                                if self.bestedge[target] != NONE {
                                    let best = self.best_approx(g, target);
                                    if best != i64::MIN && approx >= best + 3 {
                                        continue;
                                    }
                                }
                            }
                            kslack = self.dualvar[v].add(self.dualvar[w]).sub(g.table[id]);
                            if kslack <= W::ZERO {
                                self.allowedge[k] = true;
                                self.allowed_list.push(k);
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[bw] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(g, base, v, w, p ^ 1);
                                } else {
                                    self.augment_matching(p);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
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
                    deltatype = 1;
                    let m = self.dualvar[..n].iter().copied().min().unwrap_or(W::ZERO);
                    delta = if m > W::ZERO { m } else { W::ZERO };
                }
                self.epoch += 1;
                for i in 0..self.touched.len() {
                    let v = self.touched[i];
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v].sub(delta),
                        2 => self.dualvar[v] = self.dualvar[v].add(delta),
                        _ => continue,
                    }
                    self.dualapprox[v] = self.dualvar[v].approx(g.shift).unwrap_or(i64::MIN);
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
                        let (mut i, j) = (self.endpoint(deltaedge ^ 1), self.endpoint(deltaedge));
                        self.allow(deltaedge);
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        let i = self.endpoint(deltaedge ^ 1);
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
                self.match_tight_free(g);
                self.augment_tight_paths(g);
            }
        }
    }

    /// See the dense matcher's `release_vertex`; the new dual is at least `floor`.
    fn release_vertex(&mut self, g: &View<'_, W>, v: usize, floor: Option<W>) {
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
        self.lower_dual(g, v, floor);
    }

    /// Sets the dual of `v` to the smallest value that keeps its stored edges feasible and
    /// is at least `floor`.
    fn lower_dual(&mut self, g: &View<'_, W>, v: usize, floor: Option<W>) {
        let mut need: Option<W> = floor;
        for &(x, _, id) in &g.adj[v] {
            if g.alive(v, x, id) {
                let d = g.table[id as usize].sub(self.dualvar[x as usize]);
                if need.is_none_or(|m| d > m) {
                    need = Some(d);
                }
            }
        }
        if let Some(d) = need {
            self.dualvar[v] = d;
        }
    }

    /// Warm duals from scratch: each vertex at its floor (its potential) and zero for the
    /// others, raised in turn until its edges are feasible, then lowered in turn to the
    /// tightest value (never below the floor), which makes many edges tight.
    #[expect(clippy::needless_range_loop)]
    fn start_duals(&mut self, g: &View<'_, W>, floors: &[Option<W>]) {
        let n = self.n;
        for v in 0..n {
            self.dualvar[v] = floors[v].unwrap_or(W::ZERO);
        }
        for v in 0..n {
            for &(x, _, id) in &g.adj[v] {
                if g.alive(v, x, id) {
                    let d = g.table[id as usize].sub(self.dualvar[x as usize]);
                    if d > self.dualvar[v] {
                        self.dualvar[v] = d;
                    }
                }
            }
        }
        for v in 0..n {
            self.lower_dual(g, v, floors[v]);
        }
    }

    /// Plain duals: every vertex at the largest weight (or its floor), even.
    #[expect(clippy::needless_range_loop)]
    fn plain_duals(&mut self, g: &View<'_, W>, floors: &[Option<W>]) {
        let mut top = W::ZERO;
        for v in 0..self.n {
            for &(x, _, id) in &g.adj[v] {
                if g.alive(v, x, id) && g.table[id as usize] > top {
                    top = g.table[id as usize];
                }
            }
            if let Some(f) = floors[v] {
                if f > top {
                    top = f;
                }
            }
        }
        if top.is_odd() {
            top = top.add(W::one());
        }
        for v in 0..self.n {
            self.dualvar[v] = top;
        }
    }

    fn match_tight_free(&mut self, g: &View<'_, W>) {
        let n = self.n;
        self.approximate_duals();
        for v in 0..n {
            if self.mate[v] != NONE || self.inblossom[v] != v {
                continue;
            }
            for &(w, p, id) in &g.adj[v] {
                let (w, p) = (w as usize, p as usize);
                if self.mate[w] == NONE
                    && self.inblossom[w] == w
                    && g.alive(v, w as u32, id)
                    && !self.surely_loose(g, v, w, id)
                    && self.tight(g, v, w, id)
                {
                    self.mate[v] = p;
                    self.mate[w] = p ^ 1;
                    break;
                }
            }
        }
    }

    fn augment_tight_paths(&mut self, g: &View<'_, W>) {
        let n = self.n;
        let roots: Vec<usize> = (0..n)
            .filter(|&v| self.mate[v] == NONE && self.inblossom[v] == v)
            .collect();
        if roots.len() < 4 {
            return;
        }
        self.approximate_duals();
        let mut visited = vec![false; n];
        // The endpoint (at `w`) by which each visited `w` was reached.
        let mut via = vec![NONE; n];
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
                while *next < g.adj[s].len() {
                    let (w, p, id) = g.adj[s][*next];
                    let alive = g.alive(s, w, id);
                    let (w, p) = (w as usize, p as usize);
                    *next += 1;
                    if visited[w]
                        || !alive
                        || self.inblossom[w] != w
                        || self.surely_loose(g, s, w, id)
                        || !self.tight(g, s, w, id)
                    {
                        continue;
                    }
                    if self.mate[w] == NONE {
                        found = Some(p);
                        break;
                    }
                    let x = self.endpoint(self.mate[w]);
                    if visited[x] || self.inblossom[x] != x {
                        continue;
                    }
                    visited[w] = true;
                    visited[x] = true;
                    via[w] = p;
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
            if let Some(mut p) = found {
                // `p` is the end at `w` of the edge from `s`.
                let w = self.endpoint(p);
                visited[w] = true;
                loop {
                    let s = self.endpoint(p ^ 1);
                    let w = self.endpoint(p);
                    let old = if s == r {
                        NONE
                    } else {
                        self.endpoint(self.mate[s])
                    };
                    self.mate[s] = p;
                    self.mate[w] = p ^ 1;
                    if old == NONE {
                        break;
                    }
                    p = via[old];
                }
            }
        }
    }

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
