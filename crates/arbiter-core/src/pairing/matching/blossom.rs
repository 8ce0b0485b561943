//! The blossom algorithm, once: Edmonds' maximum-weight matching in the primal-dual
//! formulation of Galil ("Efficient algorithms for finding maximum matching in graphs",
//! 1986), in the structure of J. van Rantwijk's `mwmatching`, with exact integer weights.
//! Vertex duals are kept in doubled units (`slack = y(u) + y(v) − 2·w`), so that everything
//! stays integral.
//!
//! [`State`] is generic over the [`Graph`] it reads (dense rows or adjacency lists) and is
//! monomorphised for each, so the hot loops make no dynamic calls. Beside the classic stages
//! ([`State::run`]) it holds the warm-start and repair steps the persistent matchers use:
//! dual starts ([`State::init_vertex_duals`], [`State::start_duals`], [`State::lower_dual`]),
//! greedy tight matching ([`State::match_tight_free`], [`State::augment_tight_paths`]),
//! local release of a changed vertex ([`State::release_vertex`]) and the parity fix
//! ([`State::align_free_parities`]).
//!
//! After each augmentation (in maximum-cardinality mode), free vertices joined by tight
//! edges are matched at once and short tight alternating paths augmented before the next
//! stage: after a bulk weight change one dual adjustment typically makes hundreds of such
//! edges tight, and taking them one stage each made the first solve of a big bracket cost
//! tens of seconds at 5,000 vertices.

use super::graph::Graph;
use super::{MatchWeight, NONE};

/// How the solver breaks ties that its result may depend on when several optima exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ties {
    /// A blossom is traced from the vertex whose scan closed it, a blossom's best edge is
    /// rescanned from its inner end, and blossoms are numbered upwards: the persistent
    /// matchers (the Dutch engine's pairings follow these choices).
    Scan,
    /// Van Rantwijk's original choices: a blossom is traced from its closing edge's first
    /// end, a blossom's best edge is rescanned from that edge's first end, and blossom
    /// numbers are taken from the top. The Chinese engine's pairings were settled with these,
    /// and among equal-weight optima a different choice pairs differently.
    FirstEnd,
}

/// One bit per edge index.
#[derive(Default)]
struct EdgeBits(Vec<u64>);

impl EdgeBits {
    /// Makes room for edge indices below `slots` (new ones clear).
    fn grow(&mut self, slots: usize) {
        let words = slots.div_ceil(64);
        if self.0.len() < words {
            self.0.resize(words, 0);
        }
    }

    #[inline]
    fn get(&self, k: usize) -> bool {
        self.0[k >> 6] >> (k & 63) & 1 != 0
    }

    #[inline]
    fn set(&mut self, k: usize) {
        self.0[k >> 6] |= 1 << (k & 63);
    }

    #[inline]
    fn clear(&mut self, k: usize) {
        self.0[k >> 6] &= !(1 << (k & 63));
    }
}

/// Solver state. An endpoint `p` names one end of an edge (the graph says at which vertex,
/// [`Graph::endpoint`], and which endpoint is the other end, [`Graph::flip`]).
pub(crate) struct State<W> {
    pub(crate) n: usize,
    /// The graph's approximation shift (see [`MatchWeight::approx`]).
    shift: u32,
    ties: Ties,
    pub(crate) mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    pub(crate) inblossom: Vec<usize>,
    pub(crate) blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    /// Cached slack of `bestedge[x]`, valid while `bestepoch[x] == epoch`.
    bestslack: Vec<W>,
    /// `bestslack[x].approx(shift)` (`i64::MIN` when it does not fit), cached with it.
    bestapprox: Vec<i64>,
    bestepoch: Vec<u64>,
    /// Bumped whenever duals change.
    epoch: u64,
    /// Per vertex: `dualvar[v].approx(shift)` (`i64::MIN` when it does not fit), refreshed
    /// by [`State::approximate_duals`] and by the dual updates of [`State::run`].
    dualapprox: Vec<i64>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    pub(crate) dualvar: Vec<W>,
    /// Per edge ([`Graph::edge`]), a bit each: the stage scans read it for every edge in an
    /// order that is random for one of the edge's two ends, and at a bit an edge the marks of
    /// a big bracket's millions of pairs stay in the core's cache.
    allowedge: EdgeBits,
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
    /// Scratch of [`State::add_blossom`], per top-level blossom: the best edge to it and its
    /// slack (`NONE` between calls), and the blossoms set, so that a new blossom costs its
    /// edges and not `2n`.
    best_to: Vec<(usize, W)>,
    best_to_keys: Vec<usize>,
    /// Per weight key (when the graph has few, [`Graph::few_keys`]): `dualvar[v] − weight`
    /// for the vertex `v` being scanned, valid while `key_scan[key] == scan`; an exact
    /// slack is then one wide addition instead of two operations.
    key_part: Vec<W>,
    key_scan: Vec<u64>,
    scan: u64,
    /// Per vertex or blossom: how many vertices it holds (set when a blossom is made).
    size: Vec<u32>,
    /// Scratch of [`State::add_blossom`] per blossom (`false` between calls).
    marked: Vec<bool>,
}

impl<W: MatchWeight> State<W> {
    /// No matching, no blossoms, zero duals, over `n` vertices.
    pub(crate) fn new(n: usize, shift: u32, ties: Ties) -> Self {
        let unusedblossoms = match ties {
            Ties::Scan => (n..2 * n).rev().collect(),
            Ties::FirstEnd => (n..2 * n).collect(),
        };
        State {
            n,
            shift,
            ties,
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
            unusedblossoms,
            dualvar: vec![W::ZERO; 2 * n],
            allowedge: EdgeBits::default(),
            allowed_list: Vec::new(),
            queue: Vec::new(),
            touched: Vec::new(),
            touched_stage: vec![0; n],
            stage: 0,
            best_to: vec![(NONE, W::ZERO); 2 * n],
            best_to_keys: Vec::new(),
            key_part: Vec::new(),
            key_scan: Vec::new(),
            scan: 0,
            size: vec![1; 2 * n],
            marked: vec![false; 2 * n],
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

    /// Back to no matching, no blossoms and zero duals (the graph is not the state's).
    pub(crate) fn reset(&mut self) {
        *self = State::new(self.n, self.shift, self.ties);
    }

    /// The partner of `v` (`None`: free).
    pub(crate) fn mate_of<G: Graph<W>>(&self, g: &G, v: usize) -> Option<usize> {
        let p = self.mate[v];
        (p != NONE).then(|| g.endpoint(p))
    }

    #[inline]
    fn slack<G: Graph<W>>(&self, g: &G, p: usize) -> W {
        let (i, j) = (g.endpoint(p), g.endpoint(g.flip(p)));
        self.dualvar[i].add(self.dualvar[j]).sub(g.w2(p))
    }

    fn best_slack<G: Graph<W>>(&mut self, g: &G, x: usize) -> W {
        if self.bestepoch[x] != self.epoch {
            self.set_best(x, self.bestedge[x], self.slack(g, self.bestedge[x]));
        }
        self.bestslack[x]
    }

    /// `best_slack(x).approx(shift)`, `i64::MIN` when it does not fit.
    fn best_approx<G: Graph<W>>(&mut self, g: &G, x: usize) -> i64 {
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

    /// Whether the live edge `{v, w}` whose weight is at `key` has a zero slack.
    #[inline]
    fn tight<G: Graph<W>>(&self, g: &G, v: usize, w: usize, key: usize) -> bool {
        self.dualvar[v].add(self.dualvar[w]) == g.weight(key)
    }

    /// Sizes the per-key cache for `g`; whether `g` has few enough keys to use it.
    fn key_cache<G: Graph<W>>(&mut self, g: &G) -> bool {
        let Some(k) = g.few_keys() else {
            return false;
        };
        if self.key_part.len() < k {
            self.key_part.resize(k, W::ZERO);
            self.key_scan.resize(k, 0);
        }
        true
    }

    /// `dualvar[v] − weight(key)` for the vertex `v` being scanned (the caller bumps
    /// `scan` whenever it starts on a vertex or a dual may have changed).
    #[inline]
    fn part<G: Graph<W>>(&mut self, g: &G, v: usize, key: usize) -> W {
        if self.key_scan[key] != self.scan {
            self.key_scan[key] = self.scan;
            self.key_part[key] = self.dualvar[v].sub(g.weight(key));
        }
        self.key_part[key]
    }

    /// Whether the edge `{v, w}` whose weight is at `key` has a positive slack by the cached
    /// approximations alone (a conservative test: `false` proves nothing).
    #[inline]
    fn surely_loose<G: Graph<W>>(&self, g: &G, v: usize, w: usize, key: usize) -> bool {
        let (a, b, c) = (self.dualapprox[v], self.dualapprox[w], g.approx(key));
        // Each approximation is a floor, so the true slack exceeds (a + b − c − 1)·2^shift.
        a != i64::MIN && b != i64::MIN && c != i64::MIN && a + b - c >= 1
    }

    fn allow<G: Graph<W>>(&mut self, g: &G, p: usize) {
        let k = g.edge(p);
        if !self.allowedge.get(k) {
            self.allowedge.set(k);
            self.allowed_list.push(k);
        }
    }

    /// The sub-blossoms and vertices directly inside blossom `b`.
    pub(crate) fn children(&self, b: usize) -> &[usize] {
        &self.blossomchilds[b]
    }

    /// Appends the vertices inside blossom `b` (or `b` itself) to `out`.
    pub(crate) fn leaves(&self, b: usize, out: &mut Vec<usize>) {
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

    /// Whether the vertices of top-level blossom `b` are better found by one pass over
    /// all vertices (`inblossom[v] == b`) than by walking its tree: under a big bracket,
    /// blossoms nest thousands deep around most of the field, and the walk (a heap list
    /// per level) was a tenth of a round.
    fn big(&self, b: usize) -> bool {
        b >= self.n && self.size[b] as usize * 8 > self.n
    }

    /// Adds `d` to the duals of the vertices of top-level blossom `b`.
    fn add_to_leaves(&mut self, b: usize, d: W) {
        if self.big(b) {
            for v in 0..self.n {
                if self.inblossom[v] == b {
                    self.dualvar[v] = self.dualvar[v].add(d);
                }
            }
        } else {
            for u in self.leaves_of(b) {
                self.dualvar[u] = self.dualvar[u].add(d);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label<G: Graph<W>>(&mut self, g: &G, w: usize, t: u8, p: usize) {
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
            w = g.endpoint(mb);
            t = 1;
            p = g.flip(mb);
        }
    }

    fn scan_blossom<G: Graph<W>>(&mut self, g: &G, v: usize, w: usize) -> usize {
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
                    v = g.endpoint(self.labelend[b]);
                    b = self.inblossom[v];
                    v = g.endpoint(self.labelend[b]);
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
    fn add_blossom<G: Graph<W>>(&mut self, g: &G, base: usize, v: usize, w: usize, pv: usize) {
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
            let vv = g.endpoint(self.labelend[bv]);
            bv = self.inblossom[vv];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(pv);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(g.flip(self.labelend[bw]));
            let ww = g.endpoint(self.labelend[bw]);
            bw = self.inblossom[ww];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::ZERO;
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.size[b] = path.iter().map(|&s| self.size[s]).sum();
        // The S-blossoms' vertices join `b` in one pass over all vertices when they are
        // many; the others are walked in order (the T ones' vertices are queued in it).
        let s_blossoms: usize = path
            .iter()
            .filter(|&&s| s >= self.n && self.label[s] == 1)
            .map(|&s| self.size[s] as usize)
            .sum();
        let pass = s_blossoms * 8 > self.n;
        for &sub in &path {
            if pass && sub >= self.n && self.label[sub] == 1 {
                self.marked[sub] = true;
                continue;
            }
            for leaf in self.leaves_of(sub) {
                if self.label[self.inblossom[leaf]] == 2 {
                    self.queue.push(leaf);
                }
                self.inblossom[leaf] = b;
            }
        }
        if pass {
            for v in 0..self.n {
                if self.marked[self.inblossom[v]] {
                    self.inblossom[v] = b;
                }
            }
            for &sub in &path {
                self.marked[sub] = false;
            }
        }
        // Best edge per neighbouring S-blossom, found by scanning the sub-blossoms' lists.
        for &sub in &path {
            let Some(lists) = self.blossombestedges[sub].take() else {
                // A vertex or a blossom without its list: its leaves' edges, read from the
                // graph's rows (neighbour and weight together: on adjacency lists, going
                // through the edge arrays instead was a third of the solver's time in a big
                // bracket's first solve).
                let keyed = self.key_cache(g);
                for leaf in self.leaves_of(sub) {
                    self.scan += 1;
                    for i in 0..g.slots(leaf) {
                        let Some(a) = g.arc(leaf, i) else {
                            continue;
                        };
                        let j = a.to;
                        let bj = self.inblossom[j];
                        if bj != b && self.label[bj] == 1 {
                            let sq = if keyed {
                                self.part(g, leaf, a.key).add(self.dualvar[j])
                            } else {
                                self.dualvar[leaf].add(self.dualvar[j]).sub(g.weight(a.key))
                            };
                            self.offer_best_to(bj, a.p, sq);
                        }
                    }
                }
                self.bestedge[sub] = NONE;
                continue;
            };
            for p in lists {
                // `q`: the end outside `b`.
                let q = if self.inblossom[g.endpoint(p)] == b {
                    g.flip(p)
                } else {
                    p
                };
                let j = g.endpoint(q);
                let bj = self.inblossom[j];
                if bj != b && self.label[bj] == 1 {
                    let sq = self.slack(g, q);
                    self.offer_best_to(bj, q, sq);
                }
            }
            self.bestedge[sub] = NONE;
        }
        // The caller is in the middle of a vertex's scan: its cached parts must not be the
        // leaves' (see `State::part`).
        self.scan += 1;
        // In blossom order, so that the first of equal slacks wins whatever the scan order.
        let mut keys = std::mem::take(&mut self.best_to_keys);
        keys.sort_unstable();
        let mut list = Vec::with_capacity(keys.len());
        let mut best = NONE;
        let mut best_slack = W::ZERO;
        for &x in &keys {
            let (k, s) = self.best_to[x];
            self.best_to[x].0 = NONE;
            list.push(k);
            if best == NONE || s < best_slack {
                best = k;
                best_slack = s;
            }
        }
        keys.clear();
        self.best_to_keys = keys;
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
        self.bestslack[b] = best_slack;
        self.bestapprox[b] = best_slack.approx(self.shift).unwrap_or(i64::MIN);
        self.bestepoch[b] = if best == NONE { u64::MAX } else { self.epoch };
    }

    /// Keeps `(p, slack)` as the best edge to the S-blossom `bj` unless one as good is there.
    #[inline]
    fn offer_best_to(&mut self, bj: usize, p: usize, slack: W) {
        let entry = &mut self.best_to[bj];
        if entry.0 == NONE {
            self.best_to_keys.push(bj);
            *entry = (p, slack);
        } else if slack < entry.1 {
            *entry = (p, slack);
        }
    }

    fn expand_blossom<G: Graph<W>>(&mut self, g: &G, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::ZERO {
                self.expand_blossom(g, s, endstage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let entrychild = self.inblossom[g.endpoint(g.flip(self.labelend[b]))];
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
            let trick = |p: usize, t: isize| if t == 1 { g.flip(p) } else { p };
            let mut p = self.labelend[b];
            while j != 0 {
                let e1 = g.endpoint(g.flip(p));
                self.label[e1] = 0;
                let q = endps[at(j - endptrick)];
                let e2 = g.endpoint(g.flip(trick(q, endptrick)));
                self.label[e2] = 0;
                self.assign_label(g, e1, 2, p);
                self.allow(g, q);
                j += jstep;
                p = trick(endps[at(j - endptrick)], endptrick);
                self.allow(g, p);
                j += jstep;
            }
            let bv = childs[at(j)];
            let e = g.endpoint(g.flip(p));
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
                    let e = g.endpoint(mb);
                    self.label[e] = 0;
                    let le = self.labelend[v];
                    self.assign_label(g, v, 2, le);
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

    /// Swaps the matched and unmatched edges on the even path inside blossom `b` from
    /// its base to vertex `v`, which becomes the base, and likewise inside every blossom
    /// between `v` and `b`, innermost first.
    fn augment_blossom<G: Graph<W>>(&mut self, g: &G, b: usize, v: usize) {
        if self.blossomparent[v] == b {
            self.augment_level(g, b, v);
            return;
        }
        // The chain of `v`'s blossoms up to `b`'s child, walked once: finding each level's
        // child afresh from `v` (as the textbook recursion does) is quadratic in the depth,
        // and blossoms nested thousands deep form under a big bracket.
        let mut chain = vec![v];
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
            chain.push(t);
        }
        for i in 1..chain.len() {
            self.augment_level(g, chain[i], chain[i - 1]);
        }
        self.augment_level(g, b, t);
    }

    /// One level of [`State::augment_blossom`]: `t` is the child of `b` holding the new
    /// base, already augmented inside.
    fn augment_level<G: Graph<W>>(&mut self, g: &G, b: usize, t: usize) {
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
            let p = if endptrick == 1 { g.flip(q) } else { q };
            if t1 >= self.n {
                let e = g.endpoint(p);
                self.augment_blossom(g, t1, e);
            }
            j += jstep;
            let t2 = self.blossomchilds[b][at(j)];
            if t2 >= self.n {
                let e = g.endpoint(g.flip(p));
                self.augment_blossom(g, t2, e);
            }
            let (a, c) = (g.endpoint(p), g.endpoint(g.flip(p)));
            self.mate[a] = g.flip(p);
            self.mate[c] = p;
        }
        let iu = i as usize;
        self.blossomchilds[b].rotate_left(iu);
        self.blossomendps[b].rotate_left(iu);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    /// Augments along the tight edge whose end at `w` is `p` (its other end `v`), between
    /// two S-trees.
    fn augment_matching<G: Graph<W>>(&mut self, g: &G, p: usize) {
        let n = self.n;
        let (v, w) = (g.endpoint(g.flip(p)), g.endpoint(p));
        for (s0, p0) in [(v, p), (w, g.flip(p))] {
            let mut s = s0;
            let mut p = p0;
            loop {
                let bs = self.inblossom[s];
                if bs >= n {
                    self.augment_blossom(g, bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = g.endpoint(self.labelend[bs]);
                let bt = self.inblossom[t];
                s = g.endpoint(self.labelend[bt]);
                let j = g.endpoint(g.flip(self.labelend[bt]));
                if bt >= n {
                    self.augment_blossom(g, bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = g.flip(self.labelend[bt]);
            }
        }
    }

    /// Runs stages until no augmenting path is left.
    #[allow(clippy::too_many_lines)]
    pub(crate) fn run<G: Graph<W>>(&mut self, g: &G, maxcardinality: bool) {
        let n = self.n;
        self.allowedge.grow(g.edge_slots());
        let keyed = self.key_cache(g);
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
                self.allowedge.clear(k);
            }
            self.queue.clear();
            self.epoch += 1;
            self.stage += 1;
            self.touched.clear();
            self.approximate_duals();
            let mut any_free = false;
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(g, v, 1, NONE);
                    any_free = true;
                }
            }
            if !any_free {
                return;
            }
            let mut augmented = false;

            loop {
                while let Some(v) = self.queue.pop() {
                    // `dualvar[v]` stays put during the scan of its edges.
                    self.scan += 1;
                    let dv_hi = self.dualapprox[v];
                    for i in 0..g.slots(v) {
                        let Some(a) = g.arc(v, i) else {
                            continue;
                        };
                        let (w, p, k) = (a.to, a.p, a.edge);
                        let bw = self.inblossom[w];
                        if self.inblossom[v] == bw {
                            continue;
                        }
                        let allowed = self.allowedge.get(k);
                        let mut kslack = W::ZERO;
                        if !allowed {
                            let (b, c) = (self.dualapprox[w], g.approx(a.key));
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
                            kslack = if keyed {
                                self.part(g, v, a.key).add(self.dualvar[w])
                            } else {
                                self.dualvar[v].add(self.dualvar[w]).sub(g.weight(a.key))
                            };
                            if kslack <= W::ZERO {
                                self.allowedge.set(k);
                                self.allowed_list.push(k);
                            }
                        }
                        if self.allowedge.get(k) {
                            if self.label[bw] == 0 {
                                // w becomes T; the end at v labels it.
                                self.assign_label(g, w, 2, g.flip(p));
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(g, v, w);
                                if base != NONE {
                                    let pv = match self.ties {
                                        Ties::Scan => g.flip(p),
                                        Ties::FirstEnd => g.first_end(p),
                                    };
                                    let (x, y) = (g.endpoint(pv), g.endpoint(g.flip(pv)));
                                    self.add_blossom(g, base, x, y, pv);
                                } else {
                                    self.augment_matching(g, p);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = g.flip(p);
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
                    self.dualapprox[v] = self.dualvar[v].approx(self.shift).unwrap_or(i64::MIN);
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
                        let (mut i, j) = (g.endpoint(g.flip(deltaedge)), g.endpoint(deltaedge));
                        self.allow(g, deltaedge);
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        let i = match self.ties {
                            Ties::Scan => g.endpoint(g.flip(deltaedge)),
                            Ties::FirstEnd => g.endpoint(g.first_end(deltaedge)),
                        };
                        self.allow(g, deltaedge);
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(g, deltablossom, false),
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
                    self.expand_blossom(g, b, true);
                }
            }
            if maxcardinality {
                self.match_tight_free(g);
                self.augment_tight_paths(g);
            }
        }
    }

    /// Prepares vertex `v` (whose edges changed) for a repair: dissolves every blossom that
    /// contains it (moving each blossom's dual onto its vertices, which keeps all edges
    /// feasible), unmatches edges that lost tightness, unmatches `v`, and sets `v`'s dual to
    /// the smallest feasible value, at least `floor`.
    pub(crate) fn release_vertex<G: Graph<W>>(&mut self, g: &G, v: usize, floor: Option<W>) {
        self.detach(g, v);
        self.lower_dual(g, v, floor);
    }

    /// [`State::release_vertex`] but for the dual: `v` ends outside every blossom and
    /// unmatched, its dual for the caller to set (at least feasible for all its edges).
    pub(crate) fn detach<G: Graph<W>>(&mut self, g: &G, v: usize) {
        while self.inblossom[v] != v {
            let b = self.inblossom[v];
            let z = self.dualvar[b];
            if z != W::ZERO {
                self.add_to_leaves(b, z);
                let base = self.blossombase[b];
                let mb = self.mate[base];
                if mb != NONE {
                    let other = g.endpoint(mb);
                    self.mate[other] = NONE;
                    self.mate[base] = NONE;
                }
            }
            self.dissolve(b);
            self.dualvar[b] = W::ZERO;
        }
        if self.mate[v] != NONE {
            let u = g.endpoint(self.mate[v]);
            self.mate[u] = NONE;
            self.mate[v] = NONE;
        }
    }

    /// Sets the dual of `v` to the smallest value that keeps its edges feasible and is at
    /// least `floor`, which makes at least one of them tight.
    pub(crate) fn lower_dual<G: Graph<W>>(&mut self, g: &G, v: usize, floor: Option<W>) {
        let mut need: Option<W> = floor;
        for i in 0..g.slots(v) {
            if let Some(a) = g.arc(v, i) {
                let d = g.weight(a.key).sub(self.dualvar[a.to]);
                if need.is_none_or(|m| d > m) {
                    need = Some(d);
                }
            }
        }
        if let Some(d) = need {
            self.dualvar[v] = d;
        }
    }

    /// The heaviest doubled weight of the graph, at least zero.
    pub(crate) fn heaviest<G: Graph<W>>(&self, g: &G) -> W {
        let mut top = W::ZERO;
        for v in 0..self.n {
            for i in 0..g.slots(v) {
                if let Some(a) = g.arc(v, i) {
                    let w2 = g.weight(a.key);
                    if w2 > top {
                        top = w2;
                    }
                }
            }
        }
        top
    }

    /// Every vertex dual at `top` (the plain start: feasible when `2·top` is at least every
    /// doubled weight).
    pub(crate) fn uniform_duals(&mut self, top: W) {
        for v in 0..self.n {
            self.dualvar[v] = top;
        }
    }

    /// Sets each vertex dual to its heaviest edge (doubled units: `2·u(v) = max w`), a
    /// feasible start for the perfect-matching duals that makes many edges tight.
    pub(crate) fn init_vertex_duals<G: Graph<W>>(&mut self, g: &G) {
        for v in 0..self.n {
            let mut best: Option<W> = None;
            for i in 0..g.slots(v) {
                if let Some(a) = g.arc(v, i) {
                    let w = g.weight(a.key).half();
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

    /// Warm duals from scratch: each vertex at its floor (its potential) and zero for the
    /// others, raised in turn until its edges are feasible, then lowered in turn to the
    /// tightest value (never below the floor), which makes many edges tight.
    pub(crate) fn start_duals<G: Graph<W>>(&mut self, g: &G, floors: &[Option<W>]) {
        for (v, floor) in floors.iter().enumerate().take(self.n) {
            self.dualvar[v] = floor.unwrap_or(W::ZERO);
        }
        for v in 0..self.n {
            for i in 0..g.slots(v) {
                if let Some(a) = g.arc(v, i) {
                    let d = g.weight(a.key).sub(self.dualvar[a.to]);
                    if d > self.dualvar[v] {
                        self.dualvar[v] = d;
                    }
                }
            }
        }
        for (v, &floor) in floors.iter().enumerate().take(self.n) {
            self.lower_dual(g, v, floor);
        }
    }

    /// Matches free vertices (outside blossoms) to each other along tight edges: each such
    /// edge is an augmenting path of length one, and complementary slackness is kept. After a
    /// bulk weight change this re-matches most released vertices without a full stage each.
    pub(crate) fn match_tight_free<G: Graph<W>>(&mut self, g: &G) {
        self.approximate_duals();
        for v in 0..self.n {
            if self.mate[v] != NONE || self.inblossom[v] != v {
                continue;
            }
            for i in 0..g.slots(v) {
                let Some(a) = g.arc(v, i) else {
                    continue;
                };
                let w = a.to;
                if self.mate[w] == NONE
                    && self.inblossom[w] == w
                    && !self.surely_loose(g, v, w, a.key)
                    && self.tight(g, v, w, a.key)
                {
                    self.mate[v] = a.p;
                    self.mate[w] = g.flip(a.p);
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
    pub(crate) fn augment_tight_paths<G: Graph<W>>(&mut self, g: &G) {
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
                while *next < g.slots(s) {
                    let arc = g.arc(s, *next);
                    *next += 1;
                    let Some(a) = arc else {
                        continue;
                    };
                    let (w, p) = (a.to, a.p);
                    if visited[w]
                        || self.inblossom[w] != w
                        || self.surely_loose(g, s, w, a.key)
                        || !self.tight(g, s, w, a.key)
                    {
                        continue;
                    }
                    if self.mate[w] == NONE {
                        found = Some(p);
                        break;
                    }
                    let x = g.endpoint(self.mate[w]);
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
                let w = g.endpoint(p);
                visited[w] = true;
                loop {
                    let s = g.endpoint(g.flip(p));
                    let w = g.endpoint(p);
                    let old = if s == r {
                        NONE
                    } else {
                        g.endpoint(self.mate[s])
                    };
                    self.mate[s] = p;
                    self.mate[w] = g.flip(p);
                    if old == NONE {
                        break;
                    }
                    p = via[old];
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
                self.add_to_leaves(b, W::one());
                self.dualvar[b] = self.dualvar[b].sub(W::one());
                return;
            }
            // A zero-dual blossom can be dissolved without changing any slack.
            self.dissolve(b);
        }
    }

    /// Frees the top-level blossom `b` between stages: its children become top-level and
    /// its number unused (its dual is the caller's to move or drop).
    fn dissolve(&mut self, b: usize) {
        let childs = std::mem::take(&mut self.blossomchilds[b]);
        // The biggest child, if big, takes the vertices left on `b` after the others.
        let biggest = childs
            .iter()
            .copied()
            .filter(|&s| s >= self.n)
            .max_by_key(|&s| self.size[s])
            .filter(|&s| self.big(s));
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if Some(s) != biggest {
                for leaf in self.leaves_of(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if let Some(s) = biggest {
            for v in 0..self.n {
                if self.inblossom[v] == b {
                    self.inblossom[v] = s;
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

    /// From a feasible start whose matched edges are tight: matches what is tight greedily,
    /// aligns the free parities and runs the exact stages to a maximum-weight
    /// maximum-cardinality matching.
    pub(crate) fn settle<G: Graph<W>>(&mut self, g: &G) {
        self.match_tight_free(g);
        self.augment_tight_paths(g);
        self.align_free_parities();
        self.run(g, true);
    }

    /// Whether some vertex is unmatched.
    pub(crate) fn has_free(&self) -> bool {
        self.mate.contains(&NONE)
    }
}
