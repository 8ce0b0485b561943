//! The sparse layout ([`Edges`]: adjacency lists over an edge array) and [`SparseMatcher`],
//! the persistent matcher on it: the same persistent maximum-weight
//! maximum-cardinality matching, on a graph whose edges are mostly never stored.
//!
//! The graph it stands for is dense: every pair the caller has not set explicitly has a
//! *default* weight, given by a function (`None`: no edge). Only a few default edges are
//! stored (a window of neighbours in vertex order, enough for a perfect matching in
//! practice); the others are *certified* unneeded after every solve. The caller also gives
//! each vertex a potential `P(v)` with `2·w(u, v) ≤ P(u) + P(v)` for every default pair.
//! If the optimal duals `y` of the stored graph satisfy `y(u) + y(v) ≥ P(u) + P(v)` for a
//! pair, its reduced cost is not negative and it is not needed; the pairs that fail are
//! added with their exact weight (when their exact reduced cost is negative) and the solve
//! repairs itself, until none is left. The duals are then feasible for the whole dense
//! graph, so by LP duality the matching is an optimum of the dense graph, and
//! [`SparseMatcher::may_be_optimal`] keeps its meaning. Each vertex's dual is kept at least
//! at its potential whenever the solver sets it from scratch, which makes violations rare:
//! only the dual adjustments of the exact stages lower a dual below it.
//!
//! Weights are interned: each edge stores a 32-bit index into a table of distinct weights
//! (the Dutch weights of a bracket take few distinct values), so an edge costs about 30
//! bytes whatever the weight's width.
//!
//! Bulk changes (issue #19): a big bracket sets millions of pairs between two solves, and
//! each pair touches two long adjacency lists that are not in the cache. So
//! [`SparseMatcher::set_weight`] searches only the list of the end it shares with the
//! previous call (a row or a column of pairs set in turn) and defers the other end's copied
//! weight id until the solver reads the lists; [`SparseMatcher::set_row`] merges a whole
//! row into its list in one pass ([`SparseMatcher::set_row_ids`] with the weights as ids
//! into the caller's table, each interned once per row); an entry for a new edge is put in
//! place from the list's end. In the solver, a new blossom's best edges are read from the adjacency entries
//! (neighbour and weight id, no random load per edge) and a dual update visits only the
//! vertices labelled in the stage. None of this changes a state after any call, so the
//! decisions are the same.
//!
//! A released range of vertices whose pairs weigh by classes (a Dutch bracket) can start
//! from its classes' optimal duals ([`SparseMatcher::start_by_classes`], see
//! [`super::classes`]) instead of one vertex after the other: the optimum reached is an
//! optimum of the same weights, so its pairs' questions get the same answers.

use super::blossom::{State, Ties};
use super::graph::{Arc, Graph};
use super::{MatchWeight, NONE};
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
    /// Scratch of [`SparseMatcher::set_row_ids`]: per index of the caller's table, the
    /// interned id of its doubled weight, or [`NO_WEIGHT`].
    memo: Vec<u32>,
    /// The classes of a released range for the next solve's start (see
    /// [`SparseMatcher::start_by_classes`]).
    class_start: Option<ClassStart<W>>,
}

/// See [`SparseMatcher::start_by_classes`].
struct ClassStart<W> {
    lo: usize,
    class: Vec<u32>,
    extra: Vec<(usize, u32)>,
    pairs: Vec<(u32, u32, W)>,
}

impl<W> ClassStart<W> {
    /// Every vertex released with its class: the range, then the extra vertices.
    fn members(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        (self.lo..self.lo + self.class.len())
            .zip(self.class.iter().copied())
            .chain(self.extra.iter().copied())
    }

    /// Whether `v` is one of them.
    fn contains(&self, v: usize) -> bool {
        (v >= self.lo && v < self.lo + self.class.len()) || self.extra.iter().any(|&(x, _)| x == v)
    }
}

/// Edge storage: edge `k` has the endpoints `2k` and `2k + 1` (`ends` gives their vertices).
pub(crate) struct Edges<W> {
    ends: Vec<u32>,
    wid: Vec<u32>,
    live: Vec<bool>,
    explicit: Vec<bool>,
    /// Per vertex: `(neighbour, endpoint at the neighbour, weight id)`, sorted by neighbour;
    /// the weight id is a copy of `wid[k]`, or [`DEAD`] when the edge is not live (the
    /// solver's scans read it here, next to the neighbour, instead of in the edge arrays).
    adj: Vec<Vec<(u32, u32, u32)>>,
    /// Per vertex: whether it was fixed by [`SparseMatcher::fix_pair`]. Its list then holds
    /// only its pair, and the entries of the others' lists that point to it are dead
    /// whatever their copied weight id says (see [`Edges::alive`]).
    pinned: Vec<bool>,
    /// Per vertex: dead entries in `adj` whose other end is fixed (compacted lazily).
    dead: Vec<u32>,
    /// Entries `(vertex, neighbour)` whose copied weight id is stale: [`SparseMatcher::
    /// set_weight`] updates the copy in one end's list at once and leaves the other end's
    /// to [`Edges::flush`] (before the solver reads the lists), because finding the entry
    /// in a second, long list that is not in the cache was a fifth of a big bracket's time.
    stale: Vec<(u32, u32)>,
    /// Entries of new edges not yet put in the list of their vertex (the first field):
    /// [`SparseMatcher::set_rows_ids`] appends them in bulk, list by list, instead of one
    /// at a time into lists that are not in the cache. Empty outside that call.
    pending: Vec<(u32, (u32, u32, u32))>,
    /// The pair of the last [`SparseMatcher::set_weight`]: the engine's loops set a row or
    /// a column of pairs in turn, so searching the list of the end shared with it hits the
    /// cache.
    hot: (usize, usize),
    /// Distinct doubled weights and their approximations.
    table: Vec<W>,
    hi2: Vec<i64>,
    index: super::WeightMap<W, u32>,
    shift: u32,
}

/// In [`SparseMatcher::set_row_ids`]' rows, the index of no weight: the pair may not meet.
pub const NO_WEIGHT: u32 = u32::MAX;

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

/// `items` grouped by their vertex (a counting sort, stable): `grouped[start[x]..start[x
/// + 1]]` are vertex `x`'s, in their order in `items`.
fn group_by_vertex<T: Copy + Default>(n: usize, items: &[(u32, T)]) -> (Vec<u32>, Vec<T>) {
    let mut start = vec![0u32; n + 1];
    for &(x, _) in items {
        start[x as usize + 1] += 1;
    }
    for x in 0..n {
        start[x + 1] += start[x];
    }
    let mut grouped = vec![T::default(); items.len()];
    let mut next = start.clone();
    for &(x, item) in items {
        let slot = &mut next[x as usize];
        grouped[*slot as usize] = item;
        *slot += 1;
    }
    (start, grouped)
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
        self.insert_pending();
        if self.stale.is_empty() {
            return;
        }
        // Grouped by vertex, so that each list is read once and in order: one random lookup
        // per entry into long lists that are not in the cache was a fifth of 10,000
        // entrants' round 2.
        let (start, grouped) = group_by_vertex(self.adj.len(), &self.stale);
        for x in 0..self.adj.len() {
            let count = (start[x + 1] - start[x]) as usize;
            if count == 0 {
                continue;
            }
            let list = &mut self.adj[x];
            if count * 8 >= list.len() {
                for e in list.iter_mut() {
                    let k = (e.1 >> 1) as usize;
                    e.2 = if self.live[k] { self.wid[k] } else { DEAD };
                }
                continue;
            }
            // Rows are set in ascending order, so the targets mostly ascend too: each is
            // looked for after the previous one's place.
            let mut from = 0usize;
            let mut last = 0u32;
            for &b in &grouped[start[x] as usize..start[x + 1] as usize] {
                if b < last {
                    from = 0;
                }
                last = b;
                if let Some(i) = locate(&list[from..], b) {
                    let i = i + from;
                    let k = (list[i].1 >> 1) as usize;
                    list[i].2 = if self.live[k] { self.wid[k] } else { DEAD };
                    from = i + 1;
                }
            }
        }
        self.stale.clear();
    }

    /// Puts the [`Edges::pending`] entries in their lists: grouped by vertex (a counting
    /// sort, stable), each list grown once and merged from its end (the new entries
    /// ascend, and mostly follow the list's entries but for a few window neighbours).
    fn insert_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let (start, grouped) = group_by_vertex(self.adj.len(), &self.pending);
        self.pending.clear();
        for x in 0..self.adj.len() {
            let new = &grouped[start[x] as usize..start[x + 1] as usize];
            if new.is_empty() {
                continue;
            }
            let list = &mut self.adj[x];
            let mut i = list.len();
            let mut j = new.len();
            list.resize(i + j, (0, 0, 0));
            let mut k = list.len();
            while j > 0 {
                k -= 1;
                if i > 0 && list[i - 1].0 > new[j - 1].0 {
                    list[k] = list[i - 1];
                    i -= 1;
                } else {
                    list[k] = new[j - 1];
                    j -= 1;
                }
            }
            debug_assert!(list.windows(2).all(|w| w[0].0 < w[1].0));
        }
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

impl<W> Edges<W> {
    /// Whether the entry of `from`'s list pointing to `w` with weight id `id` is a live edge.
    #[inline]
    fn alive(&self, from: usize, w: u32, id: u32) -> bool {
        id != DEAD && (!self.pinned[w as usize] || self.pinned[from])
    }
}

impl<W: MatchWeight> Edges<W> {
    /// A graph of `n` vertices with the edges `(u, v, w)` of `list` (`u != v`, each pair
    /// once), each row in the order of the list: the solver reads rows in order, and a
    /// one-shot caller's order decides between equal optima. Weights are not interned (a
    /// one-shot graph's weights are mostly distinct).
    pub(crate) fn from_list(n: usize, list: &[(usize, usize, W)]) -> Self {
        let mut top = W::ZERO;
        for &(_, _, w) in list {
            let w2 = w.double();
            let magnitude = if w2 < W::ZERO { W::ZERO.sub(w2) } else { w2 };
            if magnitude > top {
                top = magnitude;
            }
        }
        // Approximations keep a few bits of headroom for the duals (up to twice the largest
        // doubled weight) and the sums of three of them.
        let shift = (0..1024)
            .find(|&s| top.approx(s).is_some_and(|v| v < 1 << 56))
            .unwrap_or(1024);
        let mut g = Edges {
            ends: Vec::with_capacity(2 * list.len()),
            wid: Vec::with_capacity(list.len()),
            live: vec![true; list.len()],
            explicit: vec![true; list.len()],
            adj: vec![Vec::new(); n],
            pinned: vec![false; n],
            dead: vec![0; n],
            stale: Vec::new(),
            pending: Vec::new(),
            hot: (usize::MAX, usize::MAX),
            table: Vec::with_capacity(list.len()),
            hi2: Vec::with_capacity(list.len()),
            index: super::WeightMap::default(),
            shift,
        };
        for (k, &(u, v, w)) in list.iter().enumerate() {
            let w2 = w.double();
            g.ends.push(u as u32);
            g.ends.push(v as u32);
            g.wid.push(k as u32);
            g.table.push(w2);
            g.hi2.push(w2.approx(shift).unwrap_or(i64::MIN));
            g.adj[u].push((v as u32, (2 * k + 1) as u32, k as u32));
            g.adj[v].push((u as u32, (2 * k) as u32, k as u32));
        }
        g
    }

    /// The approximation shift (see [`MatchWeight::approx`]).
    pub(crate) fn shift(&self) -> u32 {
        self.shift
    }
}

impl<W: MatchWeight> Graph<W> for Edges<W> {
    #[inline]
    fn slots(&self, v: usize) -> usize {
        self.adj[v].len()
    }
    #[inline]
    fn arc(&self, v: usize, i: usize) -> Option<Arc> {
        let (w, p, id) = self.adj[v][i];
        self.alive(v, w, id).then_some(Arc {
            to: w as usize,
            p: p as usize,
            edge: (p >> 1) as usize,
            key: id as usize,
        })
    }
    #[inline]
    fn endpoint(&self, p: usize) -> usize {
        self.ends[p] as usize
    }
    #[inline]
    fn flip(&self, p: usize) -> usize {
        p ^ 1
    }
    fn first_end(&self, p: usize) -> usize {
        p & !1
    }
    #[inline]
    fn edge(&self, p: usize) -> usize {
        p >> 1
    }
    fn edge_slots(&self) -> usize {
        self.wid.len()
    }
    #[inline]
    fn w2(&self, p: usize) -> W {
        self.table[self.wid[p >> 1] as usize]
    }
    #[inline]
    fn weight(&self, key: usize) -> W {
        self.table[key]
    }
    fn few_keys(&self) -> Option<usize> {
        // Interned weights: a bracket's few distinct values. A one-shot graph built by
        // `from_list` has a key per edge; past 2^16 keys the cache is not worth its memory.
        (self.table.len() <= 1 << 16).then_some(self.table.len())
    }
    #[inline]
    fn approx(&self, key: usize) -> i64 {
        self.hi2[key]
    }
}

/// Sets the duals of a [`ClassStart`]'s vertices (detached: unmatched, outside blossoms)
/// from their classes: each vertex at its class's dual (see [`super::classes`]), or at the
/// least dual its floor and its edges leaving the set allow, whichever is larger. Feasible
/// for every edge as long as the range's pairs weigh at most their classes' weight (the
/// extra vertices' pairs among themselves are read from their lists). Returns `false`
/// (nothing set) when some vertex has no bound at all.
fn class_start_duals<W: MatchWeight>(
    st: &mut State<W>,
    g: &Edges<W>,
    start: &ClassStart<W>,
    floors: &[Option<W>],
) -> bool {
    let (lo, hi) = (start.lo, start.lo + start.class.len());
    let in_range = |v: usize| v >= lo && v < hi;
    let members: Vec<(usize, u32)> = start.members().collect();
    let k = members
        .iter()
        .map(|&(_, c)| c as usize + 1)
        .max()
        .unwrap_or(0);
    let mut extra_class: Vec<u32> = vec![u32::MAX; g.adj.len()];
    for &(v, c) in &start.extra {
        extra_class[v] = c;
    }
    let mut cost: Vec<Option<W>> = vec![None; k * k];
    let bound = |cost: &mut Vec<Option<W>>, c: usize, d: usize, w: W| {
        for slot in [c * k + d, d * k + c] {
            if cost[slot].is_none_or(|m| w > m) {
                cost[slot] = Some(w);
            }
        }
    };
    // Each vertex's least dual from its floor and its edges leaving the set (the lists are
    // sorted by neighbour, so the range's own entries are one run that is skipped).
    let mut least: Vec<W> = Vec::with_capacity(members.len());
    for &(v, c) in &members {
        let mut need = floors[v];
        let list = &g.adj[v];
        let (a, b) = if in_range(v) {
            (
                list.partition_point(|e| (e.0 as usize) < lo),
                list.partition_point(|e| (e.0 as usize) < hi),
            )
        } else {
            (list.len(), list.len())
        };
        for i in (0..a).chain(b..list.len()) {
            if let Some(arc) = g.arc(v, i) {
                let x = extra_class[arc.to];
                if x != u32::MAX {
                    // A pair with an extra vertex is counted from the extra vertex's side.
                    if !in_range(v) {
                        bound(&mut cost, c as usize, x as usize, g.weight(arc.key).half());
                    }
                    continue;
                }
                if in_range(arc.to) {
                    bound(
                        &mut cost,
                        c as usize,
                        start.class[arc.to - lo] as usize,
                        g.weight(arc.key).half(),
                    );
                    continue;
                }
                let d = g.weight(arc.key).sub(st.dualvar[arc.to]);
                if need.is_none_or(|m| d > m) {
                    need = Some(d);
                }
            }
        }
        match need {
            Some(d) => least.push(d),
            None => return false,
        }
    }
    for &(c, d, w) in &start.pairs {
        let (c, d) = (c as usize, d as usize);
        if c < k && d < k {
            bound(&mut cost, c, d, w);
        }
    }
    let mut count = vec![0usize; k];
    let mut lowest: Vec<Option<W>> = vec![None; k];
    for (i, &(_, c)) in members.iter().enumerate() {
        let c = c as usize;
        count[c] += 1;
        if lowest[c].is_none_or(|m| least[i] < m) {
            lowest[c] = Some(least[i]);
        }
    }
    // The class's own arc: the heavier of its inner pair and its members' lowest bound (a
    // member whose bound is higher is raised on its own below).
    for c in 0..k {
        cost[c * k + c] = cost[c * k + c].max(lowest[c]);
    }
    for c in 0..k {
        if count[c] == 0 {
            // A class number no vertex has: isolated, at its own bound.
            for d in 0..k {
                cost[c * k + d] = None;
                cost[d * k + c] = None;
            }
            cost[c * k + c] = Some(W::ZERO);
        }
    }
    let y = super::classes::class_duals(&count, &cost);
    for (i, &(v, c)) in members.iter().enumerate() {
        st.dualvar[v] = y[c as usize].max(least[i]);
    }
    #[cfg(debug_assertions)]
    for &(v, _) in &members {
        for i in 0..g.slots(v) {
            if let Some(arc) = g.arc(v, i) {
                debug_assert!(
                    st.dualvar[v].add(st.dualvar[arc.to]) >= g.weight(arc.key),
                    "class duals infeasible on {v}-{}",
                    arc.to
                );
            }
        }
    }
    true
}

/// The vertices numbered in the order of the blossom forest (children in order), so that
/// every blossom's leaves are one interval: see [`SparseMatcher::scan`].
struct LeafOrder {
    /// Per vertex, its number.
    pos: Vec<u32>,
    /// Per vertex or blossom, the first number after its leaves (vertex `v`: `pos[v] + 1`).
    end: Vec<u32>,
}

impl LeafOrder {
    fn new<W: MatchWeight>(st: &State<W>) -> Self {
        let n = st.n;
        let mut order = LeafOrder {
            pos: vec![0; n],
            end: vec![0; 2 * n],
        };
        let mut at = 0u32;
        // Depth first, children in order; a blossom's end is set when it is left.
        let mut stack: Vec<(usize, bool)> = Vec::new();
        let mut seen = vec![false; 2 * n];
        for v in 0..n {
            let top = st.inblossom[v];
            if seen[top] {
                continue;
            }
            seen[top] = true;
            stack.push((top, false));
            while let Some((x, left)) = stack.pop() {
                if x < n {
                    order.pos[x] = at;
                    at += 1;
                    order.end[x] = at;
                } else if left {
                    order.end[x] = at;
                } else {
                    stack.push((x, true));
                    for &c in st.children(x).iter().rev() {
                        stack.push((c, false));
                    }
                }
            }
        }
        order
    }

    /// The child of blossom `parent` whose leaves hold number `p` (its children's intervals
    /// follow each other in order).
    fn child_at<W: MatchWeight>(&self, st: &State<W>, parent: usize, p: u32) -> usize {
        let children = st.children(parent);
        let i = children.partition_point(|&c| self.end[c] <= p);
        children[i]
    }
}

/// Plain duals: every vertex at the largest doubled weight (or its floor), made even.
fn plain_duals<W: MatchWeight>(st: &mut State<W>, g: &Edges<W>, floors: &[Option<W>]) {
    let mut top = st.heaviest(g);
    for &f in floors.iter().flatten() {
        if f > top {
            top = f;
        }
    }
    if top.is_odd() {
        top = top.add(W::one());
    }
    st.uniform_duals(top);
}

impl<'a, W: MatchWeight + Hash> SparseMatcher<'a, W> {
    /// A graph of `n` vertices with no edges (no default pairs) yet; weights stay below
    /// `2^bits` in magnitude (see [`super::Matcher::with_weight_bits`]).
    pub fn with_weight_bits(n: usize, bits: u32) -> Self {
        let m = n + n % 2;
        let mut g = Edges {
            ends: Vec::new(),
            wid: Vec::new(),
            live: Vec::new(),
            explicit: Vec::new(),
            adj: vec![Vec::new(); m],
            pinned: vec![false; m],
            dead: vec![0; m],
            stale: Vec::new(),
            pending: Vec::new(),
            hot: (usize::MAX, usize::MAX),
            table: Vec::new(),
            hi2: Vec::new(),
            index: super::WeightMap::default(),
            shift: (bits + 4).saturating_sub(60),
        };
        let st = State::new(m, g.shift, Ties::Scan);
        let mut fixed = vec![false; m];
        if m > n {
            fixed[n] = true;
            let zero = g.intern(W::ZERO);
            for v in 0..n {
                Self::push_edge(&mut g, v, n, zero, true);
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
            memo: Vec::new(),
            class_start: None,
        }
    }

    /// Releases the vertices `lo..lo + class.len()` for the next solve and starts their duals
    /// from their classes instead of one vertex after the other (see [`super::classes`]):
    /// `class[i]` is the class of vertex `lo + i` (`0..k`), and every stored pair between two
    /// of these vertices weighs at most the weight `w` given for their classes in `pairs`
    /// (`(c, d, w)`, undoubled; a pair of classes not listed has no such pair). The `extra`
    /// vertices `(v, class)` outside the range are released with it; their pairs with the
    /// range weigh at most their classes' weight too, and their pairs among themselves are
    /// read from their lists.
    /// The Dutch engine gives a bracket's players and its weights per pair of classes: with
    /// the classes' optimal duals most of the bracket's pairs are tight from the start,
    /// instead of hardly any.
    pub fn start_by_classes(
        &mut self,
        lo: usize,
        class: &[u32],
        extra: &[(usize, u32)],
        pairs: &[(u32, u32, W)],
    ) {
        let hi = lo + class.len();
        assert!(hi <= self.n, "bad range {lo}..{hi}");
        assert!(
            extra
                .iter()
                .all(|&(v, _)| v < lo || (v >= hi && v < self.n)),
            "extra vertices lie outside the range"
        );
        if (lo..hi)
            .chain(extra.iter().map(|&(v, _)| v))
            .any(|v| self.fixed[v])
        {
            return;
        }
        for v in (lo..hi).chain(extra.iter().map(|&(v, _)| v)) {
            self.mark(v);
        }
        self.class_start = Some(ClassStart {
            lo,
            class: class.to_vec(),
            extra: extra.to_vec(),
            pairs: pairs.to_vec(),
        });
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

    fn push_edge(g: &mut Edges<W>, u: usize, v: usize, wid: u32, explicit: bool) -> usize {
        let k = Self::new_edge(g, u, v, wid, explicit);
        // The entry in u's list holds the endpoint at v (2k + 1), and vice versa.
        Self::insert_entry(&mut g.adj[u], v, 2 * k + 1, wid);
        Self::insert_entry(&mut g.adj[v], u, 2 * k, wid);
        k
    }

    /// Appends edge `{u, v}` (endpoint `2k` at `u`, `2k + 1` at `v`) to the edge arrays
    /// only; returns `k`.
    fn new_edge(g: &mut Edges<W>, u: usize, v: usize, wid: u32, explicit: bool) -> usize {
        let k = g.wid.len();
        g.wid.push(wid);
        g.live.push(true);
        g.explicit.push(explicit);
        g.ends.push(u as u32);
        g.ends.push(v as u32);
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
                let (u, v) = (self.g.ends[2 * k] as usize, self.g.ends[2 * k + 1] as usize);
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
                        Self::push_edge(&mut self.g, v, x, wid, false);
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
                Self::push_edge(&mut self.g, u, v, wid, true);
            }
            (None, None) => {
                if self.fixed[u] || self.fixed[v] || (self.default)(u, v).is_none() {
                    return;
                }
                // Remember the removal, or certification would bring the default back.
                let wid = self.g.intern(W::ZERO);
                let k = Self::push_edge(&mut self.g, u, v, wid, true);
                self.g.live[k] = false;
                self.g.sync(k, u, v);
            }
        }
        self.mark(u);
    }

    /// [`SparseMatcher::set_weight`] of `(u, v, weight)` for each `(v, weight)` of `row`, in
    /// that order (`v` strictly ascending): the same edges, weights, ids and repairs, but
    /// `u`'s list is merged with the row in one pass instead of being searched and grown
    /// entry by entry.
    ///
    /// # Panics
    /// Panics when `u` or a `v` is out of range, `v == u`, or the row is not ascending.
    pub fn set_row(&mut self, u: usize, row: &[(usize, Option<W>)]) {
        self.merge_row(
            u,
            row.len(),
            |i| (row[i].0, row[i].1.is_some()),
            |g, i| row[i].1.map(|w| g.intern(w.double())),
            None,
        );
    }

    /// [`SparseMatcher::set_row`] with each weight given as its index in `table`
    /// ([`NO_WEIGHT`]: no edge): a bracket's first pass sets all its pairs this way. A
    /// bracket's weights take few distinct values, so each is doubled and interned once per
    /// row instead of once per pair (the hashing of a wide weight per pair was a tenth of a
    /// 5,000-entrant round); the ids are interned in the same order as by `set_row`.
    ///
    /// # Panics
    /// As [`SparseMatcher::set_row`], and when an index is outside `table`.
    pub fn set_row_ids(&mut self, u: usize, row: &[(usize, u32)], table: &[W]) {
        self.row_ids(u, row, table, None);
    }

    /// [`SparseMatcher::set_row_ids`] of `(vertices[i], [(vertices[j], rows[i][j]) for j <
    /// i])` for each `i` of `from..vertices.len()` in turn (`vertices` ascending): a
    /// bracket's triangle of pairs. The same edges, ids and marks; but each new edge's
    /// entry in the smaller vertex's list is put there in bulk (see [`Edges::pending`]):
    /// one at a time, each was a cache miss on a list's end, most of 10,000 entrants'
    /// bracket setup.
    ///
    /// # Panics
    /// As [`SparseMatcher::set_row_ids`], and when `vertices` does not ascend or a row is
    /// shorter than its index.
    pub fn set_rows_ids(
        &mut self,
        vertices: &[usize],
        from: usize,
        rows: &[Vec<u32>],
        table: &[W],
    ) {
        assert!(
            vertices.windows(2).all(|w| w[0] < w[1]),
            "vertices not ascending"
        );
        // A pinned vertex makes a row copy every list again (`unpin_all`), which must see
        // every entry: row by row then.
        let defer = !vertices.iter().any(|&v| self.g.pinned[v]);
        let len = vertices.len();
        if defer && from < len {
            // Room for the whole triangle at once (at most; a pair stored before takes
            // none): grown chunk by chunk, the edge arrays and every list were reallocated
            // and copied several times over, a few per cent of a big bracket's setup. A row
            // merged here gets its room in the merge.
            let pairs: usize = (from..len).sum();
            self.g.ends.reserve_exact(2 * pairs);
            self.g.wid.reserve_exact(pairs);
            self.g.live.reserve_exact(pairs);
            self.g.explicit.reserve_exact(pairs);
            for &v in &vertices[..from] {
                self.g.adj[v].reserve_exact(len - from);
            }
        }
        let mut row: Vec<(usize, u32)> = Vec::with_capacity(vertices.len());
        for i in from..vertices.len() {
            super::triangle_row(vertices, rows, i, &mut row);
            // The rows ascend: an entry still pending is in the list of a smaller vertex,
            // never in the list merged now.
            // Deferred, with room in the row's list for the later rows' entries.
            let pending = defer.then(|| len - i - 1);
            self.row_ids(vertices[i], &row, table, pending);
            if self.g.pending.len() >= STALE_LIMIT {
                self.g.insert_pending();
            }
        }
        self.g.insert_pending();
    }

    fn row_ids(&mut self, u: usize, row: &[(usize, u32)], table: &[W], pending: Option<usize>) {
        let mut memo = std::mem::take(&mut self.memo);
        memo.clear();
        memo.resize(table.len(), NO_WEIGHT);
        self.merge_row(
            u,
            row.len(),
            |i| (row[i].0, row[i].1 != NO_WEIGHT),
            |g, i| {
                let id = row[i].1;
                if id == NO_WEIGHT {
                    return None;
                }
                let slot = &mut memo[id as usize];
                if *slot == NO_WEIGHT {
                    *slot = g.intern(table[id as usize].double());
                }
                Some(*slot)
            },
            pending,
        );
        self.memo = memo;
    }

    /// The merge of [`SparseMatcher::set_row`] over `len` pairs: `pair(i)` gives the `i`-th
    /// pair's other end and whether it has a weight, `intern(g, i)` its interned doubled
    /// weight (`None`: no edge), asked at the same point of the merge as `set_row` interned
    /// it, so that the ids come out the same. `pending: Some(spare)`: the other ends' entries
    /// of new edges go to [`Edges::pending`] instead of their lists, and `u`'s new list
    /// keeps room for `spare` entries still to come.
    fn merge_row<P, I>(
        &mut self,
        u: usize,
        len: usize,
        pair: P,
        mut intern: I,
        pending: Option<usize>,
    ) where
        P: Fn(usize) -> (usize, bool),
        I: FnMut(&mut Edges<W>, usize) -> Option<u32>,
    {
        assert!(u < self.n, "bad vertex {u}");
        if (0..len).any(|i| {
            let (v, some) = pair(i);
            some && (self.g.pinned[u] || self.g.pinned[v])
        }) {
            self.g.unpin_all();
        }
        let old = std::mem::take(&mut self.g.adj[u]);
        let mut merged = Vec::with_capacity(old.len() + len + pending.unwrap_or(0));
        let mut i = 0;
        let mut marked = false;
        let mut last: Option<usize> = None;
        for at in 0..len {
            let (v, _) = pair(at);
            assert!(u != v && v < self.n, "bad edge {u}-{v}");
            assert!(last.is_none_or(|l| l < v), "row not ascending at {v}");
            last = Some(v);
            let weight = intern(&mut self.g, at);
            while i < old.len() && (old[i].0 as usize) < v {
                merged.push(old[i]);
                i += 1;
            }
            if i < old.len() && old[i].0 as usize == v {
                let mut e = old[i];
                i += 1;
                let k = (e.1 >> 1) as usize;
                match weight {
                    Some(id) => {
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
                Some(wid) => (wid, true),
                None => {
                    if self.fixed[u] || self.fixed[v] || (self.default)(u, v).is_none() {
                        continue;
                    }
                    // Remember the removal, or certification would bring the default back.
                    (self.g.intern(W::ZERO), false)
                }
            };
            let k = Self::new_edge(&mut self.g, u, v, wid, true);
            self.g.live[k] = live;
            let copy = if live { wid } else { DEAD };
            merged.push((v as u32, (2 * k + 1) as u32, copy));
            if pending.is_some() {
                self.g
                    .pending
                    .push((v as u32, (u as u32, (2 * k) as u32, copy)));
            } else {
                Self::insert_entry(&mut self.g.adj[v], u, 2 * k, copy);
            }
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
                let k = Self::push_edge(&mut self.g, u, v, wid, true);
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
        Self::push_edge(&mut self.g, u, v, wid, false);
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
                    Self::push_edge(&mut self.g, v, x, wid, false);
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
            self.class_start = None;
            self.st.reset();
            let floors: Vec<Option<W>> = (0..self.m)
                .map(|v| (!self.fixed[v]).then_some(self.potential[v]))
                .collect();
            let g = &self.g;
            self.st.start_duals(g, &floors);
            self.st.settle(g);
            self.fresh = false;
            if self.st.has_free() {
                // Retried from plain duals (every dual at the largest weight).
                self.st.reset();
                plain_duals(&mut self.st, g, &floors);
                self.st.run(g, true);
            }
        } else {
            let floors = self.floors();
            let dirty = std::mem::take(&mut self.dirty);
            let g = &self.g;
            match self.class_start.take() {
                None => {
                    for &v in &dirty {
                        self.st.release_vertex(g, v, floors[v]);
                    }
                }
                Some(start) => {
                    for &v in &dirty {
                        self.st.detach(g, v);
                    }
                    let outside = |v: usize| !start.contains(v);
                    for &v in dirty.iter().filter(|&&v| outside(v)) {
                        self.st.lower_dual(g, v, floors[v]);
                    }
                    // Their floors are their potentials, not raised by the others' lowest
                    // excess (see `floors`): that raise, a large one under the nested
                    // blossoms of the brackets below, put their duals above their pairs'
                    // weights and made the class start useless. Certifying catches the
                    // (rare) default pairs that this leaves infeasible.
                    let mut floors = floors;
                    for (v, _) in start.members() {
                        floors[v] = Some(self.potential[v]);
                    }
                    if !class_start_duals(&mut self.st, g, &start, &floors) {
                        for &v in dirty.iter().filter(|&&v| !outside(v)) {
                            self.st.lower_dual(g, v, floors[v]);
                        }
                    }
                    // Each lowered to its least feasible dual again, now that the range's
                    // duals are known.
                    for &v in dirty.iter().filter(|&&v| outside(v)) {
                        self.st.lower_dual(g, v, floors[v]);
                    }
                }
            }
            self.st.settle(g);
            if self.st.has_free() {
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

    /// The child of blossom `parent` that contains `v` (`v` itself when it is a direct
    /// child); with `parent == NONE`, `v`'s top-level blossom (or `v`).
    fn child_containing(&self, v: usize, parent: usize) -> usize {
        let st = &self.st;
        if parent == NONE {
            debug_assert_eq!(
                st.inblossom[v],
                std::iter::successors(Some(v), |&x| {
                    let p = st.blossomparent[x];
                    (p != NONE).then_some(p)
                })
                .last()
                .unwrap_or(v),
                "inblossom names the outermost blossom"
            );
            return st.inblossom[v];
        }
        let mut x = v;
        while st.blossomparent[x] != parent {
            x = st.blossomparent[x];
        }
        x
    }

    /// The candidate pairs among `members` (indices into `excess`, all inside the blossoms
    /// `parent` and its ancestors, whose doubled duals sum to `z`) that may have a negative
    /// reduced cost: pairs split at this level get `z`; pairs sharing the next blossom
    /// are looked at one level down. Groups are visited by their smallest excess, so that
    /// hopeless ones are cut off early.
    #[allow(clippy::too_many_arguments)]
    fn scan<F: FnMut(usize, usize, W, &mut Vec<(usize, usize, W)>)>(
        &self,
        excess: &[(W, usize)],
        members: &[usize],
        parent: usize,
        z: W,
        consider: &mut F,
        add: &mut Vec<(usize, usize, W)>,
        order: &mut Option<LeafOrder>,
    ) {
        let (mut parent, mut z) = (parent, z);
        // Only members that make a negative bound with the smallest excess can be in a
        // candidate pair, here or deeper (`z` only grows): `members` ascend by excess, so
        // they are a prefix. A giant blossom over the whole field below the bracket made
        // every vertex a member at every level.
        let prefix = |members: &[usize], z: W| match members.first() {
            Some(&first) => {
                let e0 = excess[first].0;
                members.partition_point(|&i| excess[i].0.add(e0).add(z) < W::ZERO)
            }
            None => 0,
        };
        let members = &members[..prefix(members, z)];
        if members.len() < 2 {
            return;
        }
        let mut groups: std::collections::BTreeMap<usize, Vec<usize>> =
            std::collections::BTreeMap::new();
        if parent == NONE || members.len() < 32 {
            // Each member's blossom one level below `parent`, found when needed: most
            // members are only grouped at the top level (building every candidate's whole
            // chain of blossoms was a sixth of 10,000 entrants' round 2).
            for &i in members {
                let key = self.child_containing(excess[i].1, parent);
                groups.entry(key).or_default().push(i);
            }
        } else {
            // Many members in nested blossoms (many tight pairs build them, class starts
            // among others): walking up from each member at every level is quadratic in
            // the depth. With the leaves numbered in the blossoms' order, each blossom is
            // an interval: a member's child is found by a binary search, and the levels
            // that hold all the members in one child are passed in one step.
            let order = order.get_or_insert_with(|| LeafOrder::new(&self.st));
            let (lo, hi) = members.iter().fold((u32::MAX, 0), |(lo, hi), &i| {
                let p = order.pos[excess[i].1];
                (lo.min(p), hi.max(p))
            });
            loop {
                let c = order.child_at(&self.st, parent, lo);
                if c < self.n || order.end[c] <= hi {
                    break;
                }
                parent = c;
                z = z.add(self.st.dualvar[c].double());
            }
            let members = &members[..prefix(members, z)];
            if members.len() < 2 {
                return;
            }
            for &i in members {
                let key = order.child_at(&self.st, parent, order.pos[excess[i].1]);
                groups.entry(key).or_default().push(i);
            }
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
            self.scan(excess, group, *key, inner, consider, add, order);
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
        let members: Vec<usize> = (0..excess.len()).collect();
        self.scan(
            &excess,
            &members,
            NONE,
            W::ZERO,
            &mut consider,
            &mut add,
            &mut None,
        );
        for &(u, v, w2) in &add {
            let wid = self.g.intern(w2);
            Self::push_edge(&mut self.g, u, v, wid, false);
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
        let (x, y) = (self.g.ends[pu] as usize, self.g.ends[pc] as usize);
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
                Self::push_edge(&mut self.g, a, b, wid, false)
            }
        };
        let kuc = store(u, c, kuc);
        let kxy = store(x, y, kxy);
        // The endpoint of edge k at vertex b.
        let at = |k: usize, b: usize| -> usize {
            if self.g.ends[2 * k] as usize == b {
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
        let u = self.g.ends[p] as usize;
        (u < self.n).then_some(u)
    }

    /// The partner of every vertex in the current optimum.
    pub fn matching(&self) -> Vec<Option<usize>> {
        (0..self.n).map(|v| self.mate(v)).collect()
    }
}
