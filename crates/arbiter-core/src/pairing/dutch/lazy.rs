//! The Dutch engine at online scale (issue #19): the same stages as
//! [`Context::pair_with`], on a [`SparseMatcher`] whose default weights cover the bracket
//! being paired too.
//!
//! No pair of a bracket is stored up front. Each stage changes the weights of a bracket in a
//! way that depends on one or two players at a time (an MDP's bonus, a remainder player's
//! exchange-order addend, the flags of the exchanges, the active player's order addend), so
//! the default weight of a pair is computed when needed from the players and this small
//! per-player state ([`Lazy`]). After each change the players concerned are refreshed in the
//! matcher with a potential that bounds their new weights (for one player, the least such
//! potential, found by one pass over its pairs; for a whole bracket, the most a pair of its
//! class of players can gain, or the addend), and the matcher certifies every
//! optimum against all pairs by its duals (column generation: a pair is stored once the
//! duals show it may be needed). The optimum is one of the same dense weights as
//! [`Context::pair_with`] stores, so the result is the same; `pair_dense` keeps that path as
//! the reference and a property test compares the two.

use super::{Context, Layout, Player, Weigher};
use crate::pairing::matching::{DefaultWeight, MatchWeight, SparseMatcher, Wide};
use crate::pairing::PairingError;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

const NO: u32 = u32::MAX;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Stages 1 and 2: base weights (plus the MDPs' bonuses).
    Open,
    /// Stage 3: the remainder's pairs carry the exchange-order addend of their smaller end.
    Exchange,
    /// Stage 4: base weights again, without the pairs the exchanges excluded.
    Final,
}

/// The state the default weight of a pair depends on besides the two players.
struct Lazy {
    bye_score: i64,
    /// C9 switch of the pairs outside the bracket (the pre-pass's).
    flat_c9: bool,
    /// C9 switch of the bracket's pairs.
    c9_switch: bool,
    ranks: BTreeMap<u32, u64>,
    /// Per vertex: its position in the bracket, or `NO`.
    pos: Vec<u32>,
    group_begin: usize,
    next_begin: usize,
    /// Per MDP position: the addend of its pairs with residents (stage 1).
    mdp_add: Vec<u64>,
    /// Stage 2: the MDP being paired and the addend of its pair with each resident.
    s2_active: u32,
    s2_add: Vec<u64>,
    /// Per position: index in the remainder, or `NO`.
    rem_idx: Vec<u32>,
    rem_pairs: usize,
    phase: Phase,
    /// Rules c and d: a remainder player whose pairs with later remainder players get ±1.
    tmp: (u32, bool),
    /// Stage 4: the S1 player being paired and the addend of its pair with each position.
    s4_active: u32,
    s4_add: Vec<u64>,
    /// Exclusions of the exchanges: no pair with a later / an earlier remainder player, or
    /// with the next score group.
    no_later_rem: Vec<bool>,
    no_earlier_rem: Vec<bool>,
    no_next: Vec<bool>,
}

/// Everything constant during a round that a weight needs.
#[derive(Clone, Copy)]
struct Env<'a> {
    ctx: &'a Context,
    layout: &'a Layout,
    shifts: &'a BTreeMap<i64, u32>,
    sorted: &'a [&'a Player],
}

impl Lazy {
    fn weigher<'s>(&'s self, env: &Env<'s>, c9_switch: bool) -> Weigher<'s> {
        Weigher {
            ctx: env.ctx,
            layout: env.layout,
            shifts: env.shifts,
            bye_score: self.bye_score,
            c9_switch,
            ranks: &self.ranks,
        }
    }

    fn rem_addend<const L: usize>(&self, r: u32, b: u32) -> Wide<L> {
        Wide::<L>::from_u64(u64::from((r as usize) < self.rem_pairs))
            .shifted_left(2 * b)
            .sub(Wide::from_u64(u64::from(r)))
            .shifted_left(1)
    }

    /// Whether the exchanges excluded the pair of positions `i < j`.
    fn excluded(&self, i: usize, j: usize) -> bool {
        let both_rem = self.rem_idx[i] != NO && self.rem_idx[j] != NO;
        (both_rem && (self.no_later_rem[i] || self.no_earlier_rem[j]))
            || (j >= self.next_begin && self.no_next[i])
    }

    /// The bracket's base weight of positions `i < j` (`j` a resident or in the next group).
    fn base<const L: usize>(&self, env: &Env<'_>, a: usize, c: usize) -> Option<Wide<L>> {
        let (i, j) = (self.pos[a] as usize, self.pos[c] as usize);
        if self.excluded(i, j) {
            return None;
        }
        let weigher = self.weigher(env, self.c9_switch);
        weigher.weight(
            env.sorted[a],
            env.sorted[c],
            j < self.next_begin,
            j >= self.next_begin,
        )
    }

    /// The current weight of the pair `{u, v}` (vertices).
    fn weight<const L: usize>(&self, env: &Env<'_>, u: usize, v: usize) -> Option<Wide<L>> {
        let (a, c) = (u.min(v), u.max(v));
        let (i, j) = (self.pos[a], self.pos[c]);
        if i == NO || j == NO || (j as usize) < self.group_begin {
            // Outside the bracket (the MDPs' pairs among themselves are stored).
            let weigher = self.weigher(env, self.flat_c9);
            return weigher.weight(env.sorted[a], env.sorted[c], false, false);
        }
        let mut w: Wide<L> = self.base(env, a, c)?;
        let (i, j) = (i as usize, j as usize);
        if i < self.group_begin && j < self.next_begin {
            let add = if i as u32 == self.s2_active {
                self.s2_add[j]
            } else {
                self.mdp_add[i]
            };
            w = w.add(Wide::from_u64(add));
        }
        let (ri, rj) = (self.rem_idx[i], self.rem_idx[j]);
        if ri != NO && rj != NO {
            match self.phase {
                Phase::Exchange => {
                    w = w.add(self.rem_addend(ri, env.layout.b));
                    if self.tmp.0 == i as u32 {
                        w = if self.tmp.1 {
                            w.add(Wide::one())
                        } else {
                            w.sub(Wide::one())
                        };
                    }
                }
                Phase::Final => {
                    if self.s4_active == i as u32 {
                        w = w.add(Wide::from_u64(self.s4_add[j]));
                    }
                }
                Phase::Open => {}
            }
        }
        Some(w)
    }
}

/// `v`'s potential rises by `by` (its pairs' weights rose by at most half of it).
fn raise_by<const L: usize>(m: &mut SparseMatcher<'_, Wide<L>>, v: usize, by: Wide<L>) {
    let p = m.potential(v).add(by);
    m.refresh(v, p);
}

impl Context {
    #[allow(clippy::too_many_lines, clippy::needless_range_loop)]
    pub(super) fn pair_lazy<const L: usize>(
        &self,
        sorted: &[&Player],
        shifts: &BTreeMap<i64, u32>,
        layout: &Layout,
    ) -> Result<Vec<Option<usize>>, PairingError> {
        type W<const L: usize> = Wide<L>;
        let n = sorted.len();
        let b = layout.b;
        let env = Env {
            ctx: self,
            layout,
            shifts,
            sorted,
        };
        let top = sorted[0].score;
        let state = RefCell::new(Lazy {
            bye_score: 0,
            flat_c9: false,
            c9_switch: false,
            ranks: BTreeMap::new(),
            pos: vec![NO; n],
            group_begin: 0,
            next_begin: 0,
            mdp_add: Vec::new(),
            s2_active: NO,
            s2_add: Vec::new(),
            rem_idx: Vec::new(),
            rem_pairs: 0,
            phase: Phase::Open,
            tmp: (NO, false),
            s4_active: NO,
            s4_add: Vec::new(),
            no_later_rem: Vec::new(),
            no_earlier_rem: Vec::new(),
            no_next: Vec::new(),
        });
        let mut m: SparseMatcher<'_, W<L>> =
            SparseMatcher::with_weight_bits(n, layout.total_bits() + 2);
        m.tightening(true);
        let lazy_default = || -> DefaultWeight<'_, W<L>> {
            let state = &state;
            Box::new(move |u: usize, v: usize| state.borrow().weight::<L>(&env, u, v))
        };
        let flat_potentials = |st: &Lazy| -> Vec<W<L>> {
            let weigher = st.weigher(&env, st.flat_c9);
            sorted.iter().map(|p| weigher.potential(p)).collect()
        };
        // Pre-pass: completability, PAB score (C5), C9 switch for the first bracket.
        {
            if n % 2 == 1 {
                let field = |p: &Player| -> W<L> {
                    W::<L>::ZERO
                        .added_at(layout.s + b, 1 + 2 * u64::from(!p.eligible_for_bye))
                        .added_at(b, 2 * u64::from(shifts[&p.score]))
                        .added_at(0, u64::from(p.score >= top))
                };
                let potential: Vec<W<L>> = sorted.iter().map(|p| field(p)).collect();
                let default: DefaultWeight<'_, W<L>> = Box::new(move |a: usize, c: usize| {
                    let (h, l) = (sorted[a.min(c)], sorted[a.max(c)]);
                    self.compatible(l, h).then(|| {
                        let f1 =
                            1 + u64::from(!l.eligible_for_bye) + u64::from(!h.eligible_for_bye);
                        let sum = u64::from(shifts[&l.score] + shifts[&h.score]);
                        W::<L>::ZERO
                            .added_at(layout.s + b, f1)
                            .added_at(b, sum)
                            .added_at(0, u64::from(l.score >= top))
                    })
                });
                m.set_defaults(potential, default);
            } else {
                let potential = flat_potentials(&state.borrow());
                m.set_defaults(potential, lazy_default());
            }
            m.solve();
            let mates = m.matching();
            let unmatched: Vec<usize> = (0..n).filter(|&v| mates[v].is_none()).collect();
            if unmatched.len() > 1 || unmatched.iter().any(|&v| !sorted[v].eligible_for_bye) {
                return Err(PairingError::NoValidPairing {
                    reason: "the entrants cannot all be paired without a rematch, a colour \
                             conflict, a forbidden pair or an ineligible bye"
                        .into(),
                });
            }
            if n % 2 == 1 && self.edition == super::Edition::E2017 {
                state.borrow_mut().bye_score = i64::MAX;
                let potential = flat_potentials(&state.borrow());
                m.set_defaults(potential, lazy_default());
            } else if n % 2 == 1 {
                let bye = unmatched[0];
                let bye_score = sorted[bye].score;
                let c9_switch = bye_score >= top
                    && (0..n)
                        .take_while(|&v| sorted[v].score >= top)
                        .all(|v| mates[v].is_none_or(|u| sorted[u].score >= top));
                let mut counts: Vec<u32> = sorted
                    .iter()
                    .filter(|p| p.score == bye_score)
                    .map(|p| p.played_games)
                    .collect();
                counts.sort_unstable_by(|a, b| b.cmp(a));
                {
                    let mut st = state.borrow_mut();
                    for (i, c) in counts.into_iter().enumerate() {
                        st.ranks.insert(c, i as u64);
                    }
                    st.bye_score = bye_score;
                    st.flat_c9 = c9_switch;
                    st.c9_switch = c9_switch;
                }
                let potential = flat_potentials(&state.borrow());
                m.set_defaults(potential, lazy_default());
            }
        }
        let flat_pot = flat_potentials(&state.borrow());

        let mut final_mate: Vec<Option<usize>> = vec![None; n];
        let mut matched = vec![false; n];
        let mut bracket: Vec<usize> = Vec::new();
        let mut next_iter = 0usize;
        while next_iter < n && sorted[next_iter].score >= top {
            bracket.push(next_iter);
            next_iter += 1;
        }
        let mut group_begin = 0usize;
        let mut group_begin_vertex = 0usize;
        let mut old_bracket: Vec<usize> = Vec::new();
        let mate_of = |m: &SparseMatcher<'_, W<L>>, v: usize| m.mate(v).unwrap_or(v);
        let base_some = |st: &Lazy, u: usize, v: usize| st.base::<L>(&env, u.min(v), u.max(v));

        while bracket.len() > 1 || next_iter < n {
            let next_begin = bracket.len();
            let next_begin_vertex = group_begin_vertex + (next_begin - group_begin);
            let group_iter = next_iter;
            while next_iter < n && sorted[next_iter].score >= sorted[group_iter].score {
                bracket.push(next_iter);
                next_iter += 1;
            }
            let size = bracket.len();
            // The MDPs' weights among themselves are not part of this bracket's base: they
            // keep their current weights, stored.
            let mut kept = Vec::new();
            for x in 0..group_begin {
                for y in x + 1..group_begin {
                    let (u, v) = (bracket[x], bracket[y]);
                    kept.push((u, v, m.weight(u, v)));
                }
            }
            {
                let mut st = state.borrow_mut();
                for &v in &old_bracket {
                    st.pos[v] = NO;
                }
                for (i, &v) in bracket.iter().enumerate() {
                    st.pos[v] = i as u32;
                }
                st.group_begin = group_begin;
                st.next_begin = next_begin;
                st.mdp_add = vec![0; size];
                st.s2_active = NO;
                st.s2_add = vec![0; size];
                st.rem_idx = vec![NO; size];
                st.rem_pairs = 0;
                st.phase = Phase::Open;
                st.tmp = (NO, false);
                st.s4_active = NO;
                st.s4_add = vec![0; size];
                st.no_later_rem = vec![false; size];
                st.no_earlier_rem = vec![false; size];
                st.no_next = vec![false; size];
            }
            old_bracket.clone_from(&bracket);
            for (u, v, w) in kept {
                m.set_weight(u, v, w);
            }
            // Potentials: the flat ones (or the current, if higher) plus the most any pair
            // of the player's class gains in the bracket.
            let extra = bracket_extra::<L>(&state.borrow(), &env, &bracket, group_begin);
            for (i, &v) in bracket.iter().enumerate() {
                let cur = m.potential(v);
                let p = if cur > flat_pot[v] { cur } else { flat_pot[v] };
                m.refresh(v, p.add(extra[i]));
            }
            // Likely pairs: each player of the top half with its counterpart in the bottom
            // half and their neighbours.
            let proper = next_begin;
            let half = proper / 2;
            for i in 0..half {
                for d in [0usize, 1, 2] {
                    if i + half + d >= 1 && i + half + d - 1 < proper {
                        m.add_candidate(bracket[i], bracket[i + half + d - 1]);
                    }
                }
            }
            let in_bracket = |x: usize| x >= group_begin_vertex && x < next_begin_vertex;
            m.solve();

            // Stage 1: choose the MDPs to pair in this bracket.
            let mut group_score = 0i64;
            let mut remaining = 0usize;
            let mut remaining_matched = 0usize;
            for pi in 0..group_begin {
                let pv = bracket[pi];
                if pi == 0 || sorted[pv].score < group_score {
                    group_score = sorted[pv].score;
                    remaining = 0;
                    remaining_matched = 0;
                    let mut j = pi;
                    while j < group_begin && sorted[bracket[j]].score >= group_score {
                        remaining += 1;
                        if in_bracket(mate_of(&m, bracket[j])) {
                            remaining_matched += 1;
                        }
                        j += 1;
                    }
                }
                if remaining_matched == 0 {
                    continue;
                }
                if remaining <= remaining_matched {
                    matched[pv] = true;
                    continue;
                }
                remaining -= 1;
                if !in_bracket(mate_of(&m, pv)) {
                    state.borrow_mut().mdp_add[pi] = 1;
                    m.refresh_exact(pv);
                    m.solve();
                }
                if in_bracket(mate_of(&m, pv)) {
                    matched[pv] = true;
                    remaining_matched -= 1;
                    let bonus = (next_begin - group_begin) as u64 + 1;
                    state.borrow_mut().mdp_add[pi] = bonus;
                    m.refresh_exact(pv);
                }
            }

            // Stage 2: the opponents of the chosen MDPs.
            for pi in 0..group_begin {
                let pv = bracket[pi];
                if !matched[pv] {
                    continue;
                }
                let mut addend = size as u64;
                {
                    let mut st = state.borrow_mut();
                    for oi in (group_begin..next_begin).rev() {
                        let ov = bracket[oi];
                        if matched[ov] {
                            continue;
                        }
                        if self.compatible(sorted[pv], sorted[ov]) {
                            st.s2_add[oi] = addend;
                            addend += 1;
                        }
                    }
                    st.s2_active = pi as u32;
                }
                m.refresh_exact(pv);
                m.solve();
                let mv = mate_of(&m, pv);
                matched[mv] = true;
                state.borrow_mut().s2_active = NO;
                m.fix_pair(pv, mv);
            }

            // Stage 3: the remainder and its exchanges.
            let mut remainder: Vec<usize> = Vec::new();
            let mut rem_pairs = 0usize;
            for pi in group_begin..next_begin {
                let pv = bracket[pi];
                let mv = mate_of(&m, pv);
                if mv < group_begin_vertex {
                    continue;
                }
                remainder.push(pi);
                if mv < pv {
                    rem_pairs += 1;
                }
            }
            {
                let mut st = state.borrow_mut();
                for (r, &pi) in remainder.iter().enumerate() {
                    st.rem_idx[pi] = r as u32;
                }
                st.rem_pairs = rem_pairs;
                st.phase = Phase::Exchange;
            }
            for (r, &pi) in remainder.iter().enumerate() {
                let add = state.borrow().rem_addend::<L>(r as u32, b);
                let by = if add > W::<L>::ZERO {
                    add.double()
                } else {
                    W::<L>::ZERO
                };
                raise_by(&mut m, bracket[pi], by);
            }
            for r in 0..rem_pairs {
                for d in [0usize, 1, 2] {
                    let o = r + rem_pairs + d;
                    if o >= 1 && o - 1 < remainder.len() {
                        m.add_candidate(bracket[remainder[r]], bracket[remainder[o - 1]]);
                    }
                }
            }
            m.solve();
            let is_exchanged_down = |m: &SparseMatcher<'_, W<L>>, v: usize| {
                let x = mate_of(m, v);
                x <= v || x >= next_begin_vertex
            };
            let is_up = |m: &SparseMatcher<'_, W<L>>, v: usize| {
                let x = mate_of(m, v);
                x > v && x < next_begin_vertex
            };
            let mut exchange_count = 0usize;
            for &pi in remainder.iter().take(rem_pairs) {
                if is_exchanged_down(&m, bracket[pi]) {
                    exchange_count += 1;
                }
            }
            // Rule c: lowest S1R players first, try to move them out.
            let mut left = exchange_count;
            let mut idx = rem_pairs;
            while idx > 0 && left > 0 {
                idx -= 1;
                let pi = remainder[idx];
                let pv = bracket[pi];
                let tried = is_up(&m, pv);
                if tried {
                    state.borrow_mut().tmp = (pi as u32, false);
                    m.refresh_exact(pv);
                    m.solve();
                }
                let exchange = is_exchanged_down(&m, pv);
                if exchange {
                    left -= 1;
                }
                if tried || exchange {
                    {
                        let mut st = state.borrow_mut();
                        st.tmp = (NO, false);
                        if exchange {
                            st.no_later_rem[pi] = true;
                        }
                    }
                    m.refresh_exact(pv);
                }
            }
            // Rule d: highest S2R players first, try to move them up.
            let mut left = exchange_count;
            let mut idx = rem_pairs;
            while idx < remainder.len() && left > 1 {
                let pi = remainder[idx];
                let pv = bracket[pi];
                let already = is_up(&m, pv);
                if !already {
                    state.borrow_mut().tmp = (pi as u32, true);
                    m.refresh_exact(pv);
                    m.solve();
                }
                let up = is_up(&m, pv);
                if up {
                    left -= 1;
                    let mut st = state.borrow_mut();
                    st.no_earlier_rem[pi] = true;
                    st.no_next[pi] = true;
                }
                if !already {
                    state.borrow_mut().tmp = (NO, false);
                }
                if up || !already {
                    m.refresh_exact(pv);
                }
                idx += 1;
            }
            // Fix the S1'/S2' split and restore the base weights.
            {
                let mut st = state.borrow_mut();
                for &pi in &remainder {
                    let pv = bracket[pi];
                    if is_exchanged_down(&m, pv) {
                        st.no_later_rem[pi] = true;
                    }
                    if is_up(&m, pv) {
                        st.no_earlier_rem[pi] = true;
                    }
                }
                st.phase = Phase::Final;
            }
            for (r, &pi) in remainder.iter().enumerate() {
                let add = state.borrow().rem_addend::<L>(r as u32, b);
                let by = if add < W::<L>::ZERO {
                    W::<L>::ZERO.sub(add).double()
                } else {
                    W::<L>::ZERO
                };
                raise_by(&mut m, bracket[pi], by);
            }
            m.solve();
            // Stage 4: pair each S1' player with the highest-ranked possible partner.
            for &pi in &remainder {
                let pv = bracket[pi];
                if !is_up(&m, pv) {
                    continue;
                }
                let mv = mate_of(&m, pv);
                if m.is_certified() && mv != pv {
                    let first = {
                        let st = state.borrow();
                        remainder
                            .iter()
                            .filter(|&&oi| {
                                oi > pi
                                    && !matched[bracket[oi]]
                                    && base_some(&st, pv, bracket[oi]).is_some()
                            })
                            .map(|&oi| bracket[oi])
                            .find(|&ov| m.may_be_optimal(pv, ov))
                    };
                    if let Some(c) = first {
                        if c == mv || m.try_swap(pv, c) {
                            matched[pv] = true;
                            matched[c] = true;
                            m.fix_pair(pv, c);
                            continue;
                        }
                    }
                }
                let mut addend = 0u64;
                {
                    let mut st = state.borrow_mut();
                    for &oi in remainder.iter().rev() {
                        let ov = bracket[oi];
                        if oi <= pi || matched[ov] {
                            continue;
                        }
                        st.s4_add[oi] = addend;
                        addend += 1;
                    }
                    st.s4_active = pi as u32;
                }
                m.refresh_exact(pv);
                m.solve();
                let mv = mate_of(&m, pv);
                matched[pv] = true;
                matched[mv] = true;
                state.borrow_mut().s4_active = NO;
                m.fix_pair(pv, mv);
            }

            // Next bracket.
            let mut new_bracket = Vec::new();
            let mut new_group_begin = 0usize;
            let mut c9_switch = n % 2 == 1
                && self.edition == super::Edition::E2025
                && group_iter < n
                && state.borrow().bye_score >= sorted[group_iter].score;
            for (pi, &pv) in bracket.iter().enumerate() {
                if pi < next_begin && matched[pv] {
                    let mv = mate_of(&m, pv);
                    final_mate[pv] = Some(mv);
                    final_mate[mv] = Some(pv);
                } else {
                    new_bracket.push(pv);
                    if pi < next_begin {
                        new_group_begin += 1;
                    }
                    if c9_switch && sorted[mate_of(&m, pv)].score < sorted[group_iter].score {
                        c9_switch = false;
                    }
                }
            }
            state.borrow_mut().c9_switch = c9_switch;
            bracket = new_bracket;
            group_begin = new_group_begin;
            group_begin_vertex = next_begin_vertex;
        }
        Ok(final_mate)
    }
}

/// Per bracket position, an upper bound of what any of its pairs in the bracket weighs
/// above the flat weight (pairs between MDPs excepted): the most over the classes of
/// players the weights tell apart.
fn bracket_extra<const L: usize>(
    st: &Lazy,
    env: &Env<'_>,
    bracket: &[usize],
    group_begin: usize,
) -> Vec<Wide<L>> {
    // Role: 0 MDP, 1 resident, 2 next group.
    let role = |i: usize| -> u8 {
        if i < group_begin {
            0
        } else if i < st.next_begin {
            1
        } else {
            2
        }
    };
    let key = |i: usize| {
        let p = env.sorted[bracket[i]];
        let c9 = if p.score == st.bye_score {
            p.played_games
        } else {
            u32::MAX
        };
        (
            role(i),
            p.score,
            p.pref,
            p.imbalance,
            p.absolute,
            p.strong,
            p.repeated,
            p.floats,
            c9,
        )
    };
    let mut classes: HashMap<_, usize> = HashMap::new();
    let mut reps: Vec<usize> = Vec::new();
    let mut class_of = Vec::with_capacity(bracket.len());
    for i in 0..bracket.len() {
        let k = key(i);
        let c = *classes.entry(k).or_insert_with(|| {
            reps.push(i);
            reps.len() - 1
        });
        class_of.push(c);
    }
    let flat = st.weigher(env, st.flat_c9);
    let cur = st.weigher(env, st.c9_switch);
    let gain = |h: usize, l: usize| -> Wide<L> {
        let (ph, pl) = (env.sorted[bracket[h]], env.sorted[bracket[l]]);
        let lower = role(h).max(role(l));
        let w: Wide<L> = cur.fields(ph, pl, lower == 1, lower == 2);
        w.sub(flat.fields(ph, pl, false, false))
    };
    let mut best: Vec<Wide<L>> = vec![Wide::ZERO; reps.len()];
    for (a, &ia) in reps.iter().enumerate() {
        for (c, &ic) in reps.iter().enumerate().skip(a) {
            let (ra, rc) = (role(ia), role(ic));
            if ra == 0 && rc == 0 {
                continue;
            }
            // Both orders where the roles allow them (a higher role comes first).
            let mut g = Wide::<L>::ZERO;
            if ra <= rc {
                let x = gain(ia, ic);
                if x > g {
                    g = x;
                }
            }
            if rc <= ra {
                let x = gain(ic, ia);
                if x > g {
                    g = x;
                }
            }
            if g > best[a] {
                best[a] = g;
            }
            if g > best[c] {
                best[c] = g;
            }
        }
    }
    class_of.iter().map(|&c| best[c]).collect()
}
