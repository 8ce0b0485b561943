//! The brute-force oracle and the property tests of the matchers.
#![allow(clippy::needless_range_loop)]

use super::*;
use proptest::prelude::*;

fn brute(n: usize, edges: &[(usize, usize, i64)], maxcard: bool) -> (usize, i64) {
    let mut w = vec![vec![None; n]; n];
    for &(u, v, x) in edges {
        w[u][v] = Some(x);
        w[v][u] = Some(x);
    }
    fn go(
        i: usize,
        used: &mut Vec<bool>,
        w: &Vec<Vec<Option<i64>>>,
        card: usize,
        total: i64,
        best: &mut (usize, i64),
        maxcard: bool,
    ) {
        let n = used.len();
        let mut i = i;
        while i < n && used[i] {
            i += 1;
        }
        if i == n {
            let better = if maxcard {
                (card, total) > *best
            } else {
                total > best.1
            };
            if better {
                *best = (card, total);
            }
            return;
        }
        used[i] = true;
        go(i + 1, used, w, card, total, best, maxcard);
        for j in i + 1..n {
            if !used[j] {
                if let Some(x) = w[i][j] {
                    used[j] = true;
                    go(i + 1, used, w, card + 1, total + x, best, maxcard);
                    used[j] = false;
                }
            }
        }
        used[i] = false;
    }
    let mut best = (0, 0);
    go(0, &mut vec![false; n], &w, 0, 0, &mut best, maxcard);
    best
}

fn score(mates: &[Option<usize>], edges: &[(usize, usize, i64)]) -> (usize, i64) {
    let mut card = 0;
    let mut total = 0;
    for &(u, v, x) in edges {
        if mates[u] == Some(v) {
            assert_eq!(mates[v], Some(u));
            card += 1;
            total += x;
        }
    }
    (card, total)
}

fn graph() -> impl Strategy<Value = (usize, Vec<(usize, usize, i64)>)> {
    (2usize..9).prop_flat_map(|n| {
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
        let len = pairs.len();
        (
            Just(n),
            Just(pairs),
            proptest::collection::vec(proptest::option::weighted(0.6, 0i64..20), len),
        )
            .prop_map(|(n, pairs, ws)| {
                let edges = pairs
                    .into_iter()
                    .zip(ws)
                    .filter_map(|((i, j), w)| w.map(|w| (i, j, w)))
                    .collect();
                (n, edges)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn one_shot_matches_brute_force((n, edges) in graph()) {
        let mates = max_weight_matching(n, &edges, false);
        prop_assert_eq!(score(&mates, &edges).1, brute(n, &edges, false).1);
        let mates = max_weight_matching(n, &edges, true);
        prop_assert_eq!(score(&mates, &edges), brute(n, &edges, true));
    }

    #[test]
    fn repaired_solves_match_brute_force(
        (n, edges) in graph(),
        changes in proptest::collection::vec((0usize..9, 0usize..9, proptest::option::weighted(0.7, 0i64..20)), 1..12),
    ) {
        let mut m = Matcher::<i64>::new(n);
        let mut current: std::collections::BTreeMap<(usize, usize), i64> = edges.iter().map(|&(u, v, w)| ((u, v), w)).collect();
        for &(u, v, w) in &edges {
            m.set_weight(u, v, Some(w));
        }
        m.solve();
        for (step, &(a, b, w)) in changes.iter().enumerate() {
            let (a, b) = (a % n, b % n);
            if a == b {
                continue;
            }
            let key = (a.min(b), a.max(b));
            match w {
                Some(w) => { current.insert(key, w); }
                None => { current.remove(&key); }
            }
            m.set_weight(a, b, w);
            if step % 2 == 0 {
                m.solve();
                let list: Vec<(usize, usize, i64)> = current.iter().map(|(&(u, v), &w)| (u, v, w)).collect();
                prop_assert_eq!(score(&m.matching(), &list), brute(n, &list, true));
            }
        }
        m.solve();
        let list: Vec<(usize, usize, i64)> = current.iter().map(|(&(u, v), &w)| (u, v, w)).collect();
        prop_assert_eq!(score(&m.matching(), &list), brute(n, &list, true));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Dense graphs always have a perfect matching, so every solve here is a repair.
    #[test]
    fn repairs_on_complete_graphs_stay_optimal(
        half in 1usize..5,
        weights in proptest::collection::vec(0i64..1000, 45),
        changes in proptest::collection::vec((0usize..10, 0usize..10, 0i64..1000), 1..20),
    ) {
        let n = 2 * half + usize::from(weights[0] % 2 == 1);
        let mut m = Matcher::<i64>::new(n);
        let mut w = vec![vec![0i64; n]; n];
        let mut k = 0;
        for i in 0..n {
            for j in i + 1..n {
                w[i][j] = weights[k % weights.len()];
                w[j][i] = w[i][j];
                m.set_weight(i, j, Some(w[i][j]));
                k += 1;
            }
        }
        m.solve();
        for &(a, b, x) in &changes {
            let (a, b) = (a % n, b % n);
            if a == b {
                continue;
            }
            w[a][b] = x;
            w[b][a] = x;
            m.set_weight(a, b, Some(x));
            m.solve();
            let list: Vec<(usize, usize, i64)> = (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .map(|(i, j)| (i, j, w[i][j]))
                .collect();
            prop_assert_eq!(score(&m.matching(), &list), brute(n, &list, true));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// An edge the matcher rules out of every optimum is in none: forcing it into the
    /// matching (brute force over the rest) loses weight. Weights from a small range make
    /// many ties, where ruling out is delicate.
    #[test]
    fn edges_ruled_out_of_every_optimum_are_in_none(
        half in 1usize..5,
        odd in proptest::bool::ANY,
        weights in proptest::collection::vec(proptest::option::weighted(0.9, 0i64..4), 45),
        changes in proptest::collection::vec((0usize..10, 0usize..10, 0i64..4), 0..4),
    ) {
        let n = 2 * half + usize::from(odd);
        let mut m = Matcher::<i64>::new(n);
        let mut w = vec![vec![None; n]; n];
        let mut k = 0;
        for i in 0..n {
            for j in i + 1..n {
                w[i][j] = weights[k % weights.len()];
                m.set_weight(i, j, w[i][j]);
                k += 1;
            }
        }
        m.solve();
        for &(a, b, x) in &changes {
            let (a, b) = (a % n, b % n);
            if a != b {
                w[a.min(b)][a.max(b)] = Some(x);
                m.set_weight(a, b, Some(x));
                m.solve();
            }
        }
        let list: Vec<(usize, usize, i64)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .filter_map(|(i, j)| w[i][j].map(|x| (i, j, x)))
            .collect();
        let best = brute(n, &list, true);
        prop_assert_eq!(score(&m.matching(), &list), best);
        for &(u, v, x) in &list {
            if m.is_certified() && !m.may_be_optimal(u, v) {
                // The best matching through {u, v}: u and v leave the graph.
                let rest: Vec<(usize, usize, i64)> = list
                    .iter()
                    .copied()
                    .filter(|&(a, b, _)| a != u && a != v && b != u && b != v)
                    .collect();
                let (card, total) = brute(n, &rest, true);
                prop_assert!((card + 1, total + x) < best, "edge {u}-{v} is in an optimum");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A partner exchange lands on an optimum that contains the asked edge, and the
    /// matcher stays certified and keeps repairing correctly afterwards.
    #[test]
    fn partner_exchanges_land_on_optima(
        half in 2usize..5,
        odd in proptest::bool::ANY,
        weights in proptest::collection::vec(0i64..3, 45),
        asks in proptest::collection::vec((0usize..10, 0usize..10), 1..6),
        change in (0usize..10, 0usize..10, 0i64..3),
    ) {
        let n = 2 * half + usize::from(odd);
        let mut m = Matcher::<i64>::new(n);
        let mut w = vec![vec![0i64; n]; n];
        let mut k = 0;
        for i in 0..n {
            for j in i + 1..n {
                w[i][j] = weights[k % weights.len()];
                w[j][i] = w[i][j];
                m.set_weight(i, j, Some(w[i][j]));
                k += 1;
            }
        }
        let list: Vec<(usize, usize, i64)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .map(|(i, j)| (i, j, w[i][j]))
            .collect();
        m.solve();
        let best = brute(n, &list, true);
        let mut swapped = false;
        for &(u, c) in &asks {
            let (u, c) = (u % n, c % n);
            if u != c && m.try_swap(u, c) {
                swapped = true;
                prop_assert_eq!(m.mate(u), Some(c));
                prop_assert!(m.is_certified());
                prop_assert_eq!(score(&m.matching(), &list), best);
            }
        }
        let (a, b, x) = change;
        let (a, b) = (a % n, b % n);
        if swapped && a != b {
            w[a][b] = x;
            w[b][a] = x;
            m.set_weight(a, b, Some(x));
            m.solve();
            let list: Vec<(usize, usize, i64)> = (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .map(|(i, j)| (i, j, w[i][j]))
                .collect();
            prop_assert_eq!(score(&m.matching(), &list), brute(n, &list, true));
        }
    }
}

#[test]
fn the_matcher_rules_out_edges_of_no_optimum_and_keeps_its_certificate_on_fix() {
    // A 4-cycle 0-1-2-3 plus the chord 0-2: the unique optimum is {0-1, 2-3}.
    let mut m = Matcher::<i64>::new(4);
    m.set_weight(0, 1, Some(5));
    m.set_weight(1, 2, Some(1));
    m.set_weight(2, 3, Some(5));
    m.set_weight(3, 0, Some(1));
    m.set_weight(0, 2, Some(1));
    assert!(!m.is_certified());
    assert!(m.may_be_optimal(1, 2), "nothing is proven before a solve");
    m.solve();
    assert!(m.is_certified());
    assert!(m.may_be_optimal(0, 1));
    assert!(!m.may_be_optimal(1, 2));
    assert!(!m.may_be_optimal(0, 2));
    assert!(!m.try_swap(1, 2), "1-2 is in no optimum");
    m.fix_pair(0, 1);
    assert!(m.is_certified(), "fixing a matched pair keeps the optimum");
    m.set_weight(1, 2, Some(9));
    assert!(!m.is_certified());
}

proptest! {
    #[test]
    fn adding_at_a_bit_is_adding_the_shifted_value(
        limbs in proptest::array::uniform3(proptest::num::u64::ANY),
        bit in 0u32..200,
        v in proptest::num::u64::ANY,
    ) {
        let w = Wide::<3>(limbs);
        let shifted = Wide::<3>::from_u64(v).shifted_left(bit);
        prop_assert_eq!(w.added_at(bit, v), w.add(shifted));
    }
}

#[test]
fn wide_arithmetic_is_twos_complement() {
    let a = Wide::<2>::from_u64(5);
    let b = Wide::<2>::from_u64(7);
    let d = a.sub(b);
    assert!(d.is_negative());
    assert_eq!(d.add(b), a);
    assert_eq!(d.half(), Wide::<2>::ZERO.sub(Wide::from_u64(1)));
    assert!(d < a);
    let big = Wide::<2>::from_u64(1).shifted_left(100);
    assert!(big > Wide::from_u64(u64::MAX));
    assert_eq!(big.half().double(), big);
}

#[test]
fn wide_weights_agree_with_i64() {
    let edges = [(0, 1, 5i64), (1, 2, 11), (2, 3, 5), (3, 0, 6), (0, 2, 3)];
    let wide: Vec<(usize, usize, Wide<3>)> = edges
        .iter()
        .map(|&(u, v, w)| (u, v, Wide::from_u64(w as u64).shifted_left(130)))
        .collect();
    let a = max_weight_matching(4, &edges, false);
    let b = max_weight_matching(4, &wide, false);
    assert_eq!(a, b);
}

/// A tiny deterministic LCG: the seeded loops below need no RNG crate.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, m: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % m
    }
}

#[test]
fn small_known_cases_match_the_reference_answers() {
    let solve = |n: usize, e: &[(usize, usize, i64)], maxcard: bool| {
        score(&solve_priced(n, e, maxcard).mate, e)
    };
    assert_eq!(
        solve_priced(2, &[(0, 1, 1i64)], false).mate,
        vec![Some(1), Some(0)]
    );
    // Path 0-1-2-3 with the middle edge heaviest but the outer pair better together.
    let e = [(0, 1, 5), (1, 2, 11), (2, 3, 5)];
    assert_eq!(solve(4, &e, false), (1, 11));
    assert_eq!(solve(4, &e, true), (2, 10));
    // A blossom: triangle plus a pendant edge.
    let e = [(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)];
    assert_eq!(solve(4, &e, false), (2, 15));
}

/// The sparse one-shot solver (the Chinese engine's) against exhaustive search, with negative
/// weights and many ties, and its duals feasible for every edge.
#[test]
fn priced_solves_agree_with_exhaustive_search() {
    let mut rng = Lcg(0x2545_F491_4F6C_DD1D);
    for case in 0..1500 {
        let n = 2 + rng.below(9) as usize;
        let density = 1 + rng.below(4);
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if rng.below(4) < density {
                    let w = if case % 3 == 0 {
                        rng.below(4) as i64 + 1
                    } else {
                        rng.below(40) as i64 - 5
                    };
                    edges.push((i, j, w));
                }
            }
        }
        let sol = solve_priced(n, &edges, false);
        for &(i, j, w) in &edges {
            assert!(sol.slack(i, j, w) >= 0, "dual feasibility, case {case}");
        }
        for maxcard in [false, true] {
            let got = score(&solve_priced(n, &edges, maxcard).mate, &edges);
            let want = brute(n, &edges, maxcard);
            if maxcard {
                assert_eq!(got, want, "case {case} n={n} {edges:?}");
            } else {
                assert_eq!(got.1, want.1, "case {case} n={n} {edges:?}");
            }
        }
    }
}

/// The two layouts agree on bigger graphs than the oracle can check, with 128-bit weights.
#[test]
fn the_sparse_and_dense_layouts_agree() {
    let mut rng = Lcg(99);
    for _ in 0..300 {
        let n = 2 + rng.below(30) as usize;
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if rng.below(3) == 0 {
                    edges.push((i, j, rng.below(1 << 20) as i128 + (1 << 40)));
                }
            }
        }
        let total = |mate: &[Option<usize>]| -> (usize, i128) {
            edges
                .iter()
                .filter(|&&(i, j, _)| mate[i] == Some(j))
                .fold((0, 0), |(c, w), &(_, _, x)| (c + 1, w + x))
        };
        let sparse = total(&solve_priced(n, &edges, false).mate);
        let dense = total(&max_weight_matching(n, &edges, false));
        assert_eq!(sparse, dense);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The sparse matcher is exact for the dense graph of its default weights: some pairs set
    /// explicitly, the others left to the defaults (most never stored), repaired after each
    /// change.
    #[test]
    fn sparse_repairs_match_brute_force(
        n in 2usize..10,
        base in proptest::collection::vec(0i64..6, 10),
        cost in proptest::collection::vec(0i64..4, 45),
        changes in proptest::collection::vec((0usize..10, 0usize..10, proptest::option::weighted(0.8, 0i64..12)), 0..8),
    ) {
        // w(u, v) = a(u) + a(v) − c(u, v) ≤ (2a(u) + 2a(v)) / 2: potentials 2a bound it.
        let pair_cost = |u: usize, v: usize| cost[(u.min(v) * 10 + u.max(v)) % cost.len()];
        let default_of = |u: usize, v: usize| -> Option<i64> {
            ((u + v) % 7 != 3).then(|| base[u] + base[v] - pair_cost(u, v))
        };
        let mut m = SparseMatcher::<i64>::with_weight_bits(n, 8);
        m.set_defaults((0..n).map(|v| 2 * base[v]).collect(), Box::new(default_of));
        let mut current: std::collections::BTreeMap<(usize, usize), Option<i64>> =
            std::collections::BTreeMap::new();
        let list = |current: &std::collections::BTreeMap<(usize, usize), Option<i64>>| {
            let mut out = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    let w = current.get(&(i, j)).copied().unwrap_or_else(|| default_of(i, j));
                    if let Some(w) = w {
                        out.push((i, j, w));
                    }
                }
            }
            out
        };
        m.solve();
        prop_assert_eq!(score(&m.matching(), &list(&current)), brute(n, &list(&current), true));
        for &(a, b, w) in &changes {
            let (a, b) = (a % n, b % n);
            if a == b {
                continue;
            }
            current.insert((a.min(b), a.max(b)), w);
            m.set_weight(a, b, w);
            m.solve();
            let edges = list(&current);
            prop_assert_eq!(score(&m.matching(), &edges), brute(n, &edges, true));
        }
    }
}

/// What the matchers answer on seeded random inputs full of ties, pinned as digests. They were
/// taken when the three implementations of before (dense, sparse, the Chinese engine's own) were
/// merged into one, after checking answer by answer that the merged one agrees with each: the
/// Dutch and Chinese pairings depend on which of equal optima comes out, so a change of
/// tie-breaking must show here first.
mod pinned {
    use super::*;

    /// A running digest (FNV-1a over words) of everything the matchers answered.
    struct Digest(u64);

    impl Digest {
        fn word(&mut self, x: u64) {
            self.0 = (self.0 ^ x).wrapping_mul(0x0100_0000_01b3);
        }
        fn mates(&mut self, mates: &[Option<usize>]) {
            for m in mates {
                self.word(m.map_or(u64::MAX, |v| v as u64));
            }
        }
        /// Solves and records the matching, the certificate and what it rules out.
        fn solve<'a, M: PersistentMatcher<'a, i64>>(&mut self, m: &mut M, n: usize) {
            m.solve();
            self.mates(&m.matching());
            self.word(u64::from(m.is_certified()));
            for u in 0..n {
                for v in 0..n {
                    if u != v {
                        self.word(u64::from(m.may_be_optimal(u, v)));
                    }
                }
            }
        }
    }

    fn random_edges(rng: &mut Lcg, n: usize, range: u64, density: u64) -> Vec<(usize, usize, i64)> {
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if rng.below(10) < density {
                    edges.push((i, j, rng.below(range) as i64));
                }
            }
        }
        edges
    }

    #[test]
    fn one_shot_dense_solves_are_pinned() {
        let mut rng = Lcg(1);
        let mut d = Digest(0xcbf2_9ce4_8422_2325);
        for case in 0..3000 {
            let n = 1 + rng.below(if case % 10 == 0 { 60 } else { 16 }) as usize;
            let range = [2, 3, 5, 50, 1 << 30][case % 5];
            let density = 1 + rng.below(10);
            let edges = random_edges(&mut rng, n, range, density);
            for maxcard in [false, true] {
                d.mates(&max_weight_matching(n, &edges, maxcard));
            }
        }
        assert_eq!(d.0, 0x7b70_37e5_1568_c1cd, "the one_shot answers changed");
    }

    #[test]
    fn priced_solves_are_pinned() {
        let mut rng = Lcg(2);
        let mut d = Digest(0xcbf2_9ce4_8422_2325);
        for case in 0..3000 {
            let n = 1 + rng.below(if case % 10 == 0 { 80 } else { 16 }) as usize;
            let range = [2, 3, 5, 50, 1 << 30][case % 5];
            let density = 1 + rng.below(10);
            let mut edges: Vec<(usize, usize, i128)> = random_edges(&mut rng, n, range, density)
                .into_iter()
                .map(|(i, j, w)| (i, j, i128::from(w) - if case % 7 == 0 { 3 } else { 0 }))
                .collect();
            // The Chinese engine's lists are not sorted: shuffle, and flip some pairs.
            for k in (1..edges.len()).rev() {
                let r = rng.below(k as u64 + 1) as usize;
                edges.swap(k, r);
            }
            if case % 2 == 0 {
                for e in edges.iter_mut() {
                    if rng.below(2) == 0 {
                        *e = (e.1, e.0, e.2);
                    }
                }
            }
            if case % 3 == 0 {
                for e in edges.iter_mut() {
                    e.2 = (e.2 << 60) + 1;
                }
            }
            // Plain maximum weight, as the Chinese engine asks.
            let sol = solve_priced(n, &edges, false);
            d.mates(&sol.mate);
            for i in 0..n {
                for j in i + 1..n {
                    let w = (i * 31 + j) as i128 % 7;
                    d.word(sol.slack(i, j, w) as u64);
                }
            }
        }
        assert_eq!(d.0, 0xf1e1_2f22_6b77_31d8, "the priced answers changed");
    }

    #[test]
    fn persistent_dense_sequences_are_pinned() {
        let mut rng = Lcg(3);
        let mut d = Digest(0xcbf2_9ce4_8422_2325);
        for case in 0..600 {
            let n = 2 + rng.below(if case % 10 == 0 { 40 } else { 12 }) as usize;
            let range = [2, 3, 50][case % 3];
            let mut m = Matcher::<i64>::with_weight_bits(n, 10);
            let density = 1 + rng.below(10);
            for (i, j, w) in random_edges(&mut rng, n, range, density) {
                m.set_weight(i, j, Some(w));
            }
            for step in 0..20 {
                let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                match rng.below(8) {
                    _ if a == b => {}
                    0 => m.fix_pair(a, b),
                    1 => d.word(u64::from(m.try_swap(a, b))),
                    2 => m.set_weight(a, b, None),
                    _ => {
                        let w = Some(rng.below(range) as i64);
                        m.set_weight(a, b, w);
                    }
                }
                if step % 2 == 0 {
                    d.solve(&mut m, n);
                }
            }
        }
        assert_eq!(d.0, 0x07b7_c9dd_a1a8_a991, "the dense answers changed");
    }

    #[test]
    fn persistent_sparse_sequences_are_pinned() {
        let mut rng = Lcg(4);
        let mut d = Digest(0xcbf2_9ce4_8422_2325);
        for case in 0..600 {
            let n = 2 + rng.below(if case % 10 == 0 { 80 } else { 14 }) as usize;
            let range = [2, 3, 20][case % 3];
            let base: Vec<i64> = (0..n).map(|_| rng.below(range) as i64).collect();
            let costs: Vec<i64> = (0..97).map(|_| rng.below(3) as i64).collect();
            let seed = case;
            // w(u, v) = b(u) + b(v) − c(u, v) ≤ (2b(u) + 2b(v)) / 2: potentials 2b bound it.
            let potential: Vec<i64> = base.iter().map(|b| 2 * b).collect();
            let default_of = move |u: usize, v: usize| -> Option<i64> {
                ((u + v + seed) % 5 != 1)
                    .then(|| base[u] + base[v] - costs[(u.min(v) * 13 + u.max(v)) % 97])
            };
            let mut m = SparseMatcher::<i64>::with_weight_bits(n, 10);
            m.set_defaults(potential, Box::new(default_of));
            if case % 4 == 0 {
                m.tightening(true);
            }
            for step in 0..16 {
                let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                match rng.below(10) {
                    _ if a == b => {}
                    0 => m.fix_pair(a, b),
                    1 => d.word(u64::from(m.try_swap(a, b))),
                    2 => m.set_weight(a, b, None),
                    3 => m.add_candidate(a, b),
                    4 => {
                        let mut row: Vec<(usize, Option<i64>)> = Vec::new();
                        for v in 0..n {
                            if v != a && rng.below(3) == 0 {
                                row.push((v, Some(rng.below(range) as i64)));
                            }
                        }
                        m.set_row(a, &row);
                    }
                    _ => {
                        let w = Some(rng.below(range) as i64);
                        m.set_weight(a, b, w);
                    }
                }
                if step % 2 == 1 {
                    d.solve(&mut m, n);
                }
            }
        }
        assert_eq!(d.0, 0xda80_6903_0dae_3fde, "the sparse answers changed");
    }
}
