//! FIDE (Dutch) system, C.04.3: the 2025 edition (in force from 2026) by default.
//!
//! The criteria become one wide integer weight per pair (most significant field first:
//! completion and PAB eligibility, pairs and scores in the current bracket, look-ahead to the
//! next bracket, the PAB receiver's unplayed games, colour criteria, float criteria, and a
//! low field for the generation order of the rules' candidates). The round is then paired
//! bracket by bracket on one whole-round matching: each greedy question of the rules ("is
//! there still an optimal pairing where this MDP is paired here / this player is exchanged /
//! this S1 player gets that opponent?") is answered by changing a few weights and re-solving.
//! This reproduces the reference engine bbpPairings (v6.0.0 for the 2025 edition) as described
//! in `DUTCH.md` §5: same weight layout, same greedy stages, same colour allocation (Art. 5
//! with the effective-number parity quirk) and board order. Two implementation differences,
//! neither of which changes a result: the matcher computes maximum-weight *perfect* matchings
//! (an odd field gets a virtual partner with zero-weight edges, which is equivalent because
//! the completion field makes every optimum maximum-cardinality), and a finalized pair simply
//! loses all its other edges instead of also getting the maximum weight. Everything is exact
//! integer arithmetic and deterministic.
//!
//! Speed (issue #3: 5,000 entrants in under a minute). Most of the reference engine's solves
//! are the S1 players' "first possible opponent" questions (one per board). Their answer is
//! the first candidate that lies in *some* optimum of the current weights; the matcher's
//! certified optimal duals rule out every candidate with a positive reduced cost
//! (complementary slackness), and when the first remaining one is the current partner, or
//! an exchange of partners along tight edges reaches an optimum with it, that is the answer
//! without a solve. Any other case is solved exactly as the reference does. Figures are in
//! `examples/dutch_timing.rs` and `benches/dutch.rs`.
//!
//! Scale (issue #19). The whole-round matching is sparse ([`SparseMatcher`]): a pair that is
//! not in the bracket being paired (nor both in the bracket and the next score group) has
//! the pre-pass weight, which splits into one term per player (the top field and the C9
//! rank; `Weigher::potential`). Only those pairs' weights are needed, and the matcher
//! stores a few of them per player; after each solve the optimal duals prove every other
//! one unneeded (non-negative reduced cost), or the missing pair is added and the optimum
//! repaired. The result is an optimum of the same dense weights, so the pairing is the
//! same: [`pair_dense`] keeps the dense matcher as the reference, and a property test
//! compares the two. Memory is the brackets' pairs (4 bytes each in the engine, about 30
//! in the matcher) instead of `n²` wide weights. A bracket's pairs are handed to the
//! matcher row by row as ids into the bracket's table of weights (`set_row_ids`: one merge
//! per row instead of a search of two long lists per pair, and a wide weight hashed once
//! per row and distinct value, not once per pair): at the bracket's start (the whole
//! triangle in one call, `set_rows_ids`, whose new entries join the other ends' lists in
//! bulk), for the exchanges' weights (a row's addend depends only on its higher player, so
//! the row's weights are the table plus one addend) and when they are restored. Still,
//! every bracket after round 1 stores all its pairs, and its first solve scans them:
//! certifying by classes of players (a pair's weight is a term per pair of classes, as
//! `pair_with` computes it) instead of pair by pair is the next step.
//!
//! Where a round's time goes after round 1 (issue #19; timed per `solve` call for 5,000
//! entrants' round 5 on the generated history, 7.1 s of CPU): each bracket's first solve
//! 4.4 s, the bracket setup (`Base` and `set_row`) 0.6 s, stage 4 1.3 s in 102 solves,
//! stage 3 0.7 s. In a first solve every player of the bracket (current and next group) is
//! released and almost none is matched again on a tight edge, so the solver's stages (8 to 10 per
//! bracket) each relabel and rescan nearly the whole bracket: 35 million adjacency entries
//! for a bracket of 1,968 players, 1.3 s. Two thirds of those entries need the exact
//! wide-integer slack, because `approx` keeps the top 60 of about 650 bits and the
//! bracket's weights differ in the colour and float fields hundreds of bits lower. Tried
//! and dropped, on that round: a second lowering pass, or raising then lowering the released
//! players' duals (as a fresh solve does), before matching on tight edges: 1.5 to 4 times
//! slower (more stages); an extra approximation 60 to 250 bits finer (wrapping, exact
//! modulo 2^64) beside the coarse one: no gain beyond the machine's noise (the best slacks
//! are mostly too large for it); a per-vertex flag that skips the per-edge `allowedge` load:
//! no gain either. Fewer stages (or fewer players released) is what the first solve needs.
//! Also tried (README, 3 Dec 2026): going on with a stage after its augmentation, with the
//! two trees of the path dropped, either without further dual changes (no fewer stages) or
//! with them (a quarter of the stages, but re-scanning the dropped trees and the best edges
//! into them cost three times the time saved).
//!
//! Class starts (3 Dec 2026): a bracket's first solve now starts its players (residents,
//! next group and MDPs) from the optimal duals of the bracket shrunk to its classes of
//! players ([`PersistentMatcher::start_by_classes`]; a transportation problem of a few dozen
//! classes, `matching/classes.rs`), at floors of their own potentials. Most of the
//! bracket's pairs are then tight at once: the greedy tight matching leaves 0 to 30 players
//! free instead of nearly all, and the first solve of 5,000 entrants' round 5 fell from
//! 4.0 s to about 1.3 s. Same optimum, so the same pairing.
//!
//! A first round (every player with the same colour and float history) goes further
//! (`dutch/lazy.rs`): no pair of a bracket is stored either. Each stage changes a bracket's
//! weights through one or two players at a time (an MDP's bonus, a remainder player's
//! exchange-order addend, the exchanges' exclusions, the active player's order addend), so
//! the default weight of every pair is computed from the players and that per-player state;
//! the changed players are refreshed with potentials that bound their new weights, and the
//! potentials follow the certified duals (column generation). The round-1 bracket of all the
//! entrants then costs a few MB instead of `n²/2` stored pairs (5,000 entrants: 0.9 s and
//! 14 MB instead of 17 s and 482 MB). After round 1 it is slower than storing the bracket:
//! the many classes of players make the potentials loose after every bulk change of weights
//! (bracket start, exchanges), and certifying then looks at most pairs of the bracket, so
//! [`pair`] keeps the stored-bracket path there. A unit test compares the lazy engine with
//! the dense reference in every round.
//!
//! Public fixtures: 147/147 identical (pairs, colours and board order) for the 2025 edition
//! and for `Edition::E2017` against bbpPairings v5.0.1.

use super::matching::{
    DefaultWeight, MatchWeight, Matcher, PersistentMatcher, SparseMatcher, Wide, NO_WEIGHT,
};
use super::{entrants_to_pair, next_round, Board, PairingError, RoundPairing};
use crate::model::{Points, ResultCode, RoundRecord, Side, StartNo, Tournament};
use std::collections::{BTreeMap, BTreeSet};

mod lazy;

/// Which edition of C.04.3 to apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Edition {
    /// The 2025 edition (applied from February 2026), with C.04.1 as revised in July 2025.
    #[default]
    E2025,
    /// The 2016/2017 edition (bbpPairings v5.0.1, JaVaFo 2.2): PAB eligibility of C.04.1 until
    /// June 2025 (no earlier PAB or forfeit win), every unplayed round counts as a downfloat,
    /// and there is no C5 (minimal PAB score) and no C9. The brackets are paired with the
    /// same staged procedure as the 2025 edition, where completion is enforced in every
    /// bracket; v5.0.1's separate PPB/collapsed-last-bracket route and its PSD-based weights
    /// are not reproduced bit for bit (they agree on all public fixtures).
    E2017,
}

/// Options of the Dutch engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DutchOptions {
    /// Rule edition.
    pub edition: Edition,
    /// A forfeited pairing (`+`/`-`) counts as having met, so the two are never paired again.
    /// FIDE (and bbpPairings): no, a forfeited game was not played (the default).
    pub forfeit_counts_as_met: bool,
}

/// Pairs `next_round(t)` by the Dutch system.
///
/// # Errors
/// [`PairingError::NoValidPairing`] when the absolute criteria cannot all be met;
/// [`PairingError::InvalidState`] when the history is inconsistent (unknown opponents).
pub fn pair(t: &Tournament, options: &DutchOptions) -> Result<RoundPairing, PairingError> {
    let round = next_round(t);
    let ctx = Context::new(t, round, options)?;
    let backend = if ctx.few_classes() {
        Backend::Lazy
    } else {
        Backend::Sparse
    };
    ctx.pair(backend)
}

/// [`pair`] on the dense matcher (every pair's weight stored): the reference the sparse
/// matching is tested against. Needs memory quadratic in the number of entrants.
///
/// # Errors
/// As [`pair`].
pub fn pair_dense(t: &Tournament, options: &DutchOptions) -> Result<RoundPairing, PairingError> {
    let round = next_round(t);
    let ctx = Context::new(t, round, options)?;
    ctx.pair(Backend::Dense)
}

/// Which matcher runs the engine.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Backend {
    /// Every pair's weight stored ([`Matcher`]).
    Dense,
    /// The pairs outside the bracket being paired left to the duals ([`SparseMatcher`]).
    Sparse,
    /// No pair stored up front, not even in the bracket (`lazy.rs`).
    Lazy,
}

/// At most this many classes of players (by colour and float history) for the lazy engine.
const LAZY_CLASSES: usize = 1;

/// Float direction of one past round (C.04.3 1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Float {
    Down,
    Up,
    None,
}

/// Everything the engine needs about one entrant to pair.
#[derive(Clone, Debug)]
struct Player {
    /// Index into `Tournament::entrants`.
    entrant: usize,
    start_no: StartNo,
    /// Effective pairing number, 0-based (absent never-paired entrants are skipped).
    rank: usize,
    /// Score with this round's acceleration (pairing score).
    score: i64,
    /// Score without acceleration (board order).
    raw_score: i64,
    /// Colour preference from played games.
    pref: Option<Side>,
    /// |white games − black games|.
    imbalance: u32,
    absolute: bool,
    strong: bool,
    repeated: Option<Side>,
    played_colours: Vec<Side>,
    played_games: u32,
    eligible_for_bye: bool,
    floats: [Float; 2],
    topscorer: bool,
}

struct Context {
    edition: Edition,
    players: Vec<Player>,
    /// Pairs that may not meet (entrant indices, smaller first).
    /// Per entrant index, the sorted entrant indices it may not meet (earlier opponents and
    /// forbidden pairs): a short list, searched for every edge weight.
    forbidden: Vec<Vec<usize>>,
    completed: u32,
    final_round: bool,
    initial_colour: Side,
}

fn record(t: &Tournament, entrant: usize, round: u32) -> RoundRecord {
    match t.entrants[entrant].round(round) {
        Some(r) => *r,
        None => RoundRecord::bye(ResultCode::ZeroBye),
    }
}

impl Context {
    fn new(t: &Tournament, round: u32, options: &DutchOptions) -> Result<Self, PairingError> {
        let completed = round - 1;
        let index_of: BTreeMap<StartNo, usize> = t
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.start_no, i))
            .collect();
        let scoring = &t.scoring;
        let accel = |entrant: usize, r: u32| -> i64 {
            let sn = t.entrants[entrant].start_no;
            t.accelerations
                .iter()
                .filter(|a| a.start_no == sn)
                .map(|a| {
                    a.points
                        .get((r as usize).wrapping_sub(1))
                        .copied()
                        .unwrap_or(Points::ZERO)
                        .tenths()
                })
                .sum()
        };
        // Score before round `r` (rounds 1..r-1), with round r's acceleration.
        let score_before = |entrant: usize, r: u32| -> i64 {
            let mut s = 0;
            for q in 1..r {
                s += scoring.points(record(t, entrant, q).result).tenths();
            }
            s + accel(entrant, r)
        };
        let to_pair = entrants_to_pair(t, round);
        let present: BTreeSet<StartNo> = to_pair.iter().copied().collect();
        // Effective numbers: skip entrants absent now who were never paired so far.
        let mut rank_of = BTreeMap::new();
        let mut next_rank = 0usize;
        for (i, e) in t.entrants.iter().enumerate() {
            let ever_paired = (1..=completed).any(|q| {
                let r = record(t, i, q);
                r.opponent.is_some() || r.result == ResultCode::PairingBye
            });
            if ever_paired || present.contains(&e.start_no) {
                rank_of.insert(i, next_rank);
                next_rank += 1;
            }
        }
        let final_round = t.rounds_total.is_some_and(|total| completed + 1 >= total);
        let threshold = i64::from(completed) * scoring.win.tenths().max(scoring.draw.tenths()) / 2;
        let mut players = Vec::new();
        for sn in &to_pair {
            let i = index_of[sn];
            let mut whites = 0i64;
            let mut blacks = 0i64;
            let mut colours = Vec::new();
            let mut eligible = true;
            for q in 1..=completed {
                let r = record(t, i, q);
                let pts = scoring.points(r.result);
                if r.result.is_played() {
                    match r.colour {
                        Some(Side::Red) => whites += 1,
                        Some(Side::Black) => blacks += 1,
                        None => {}
                    }
                    if let Some(c) = r.colour {
                        colours.push(c);
                    }
                    if let Some(o) = r.opponent {
                        if !index_of.contains_key(&o) {
                            return Err(PairingError::InvalidState(format!(
                                "entrant {sn} met unknown entrant {o} in round {q}"
                            )));
                        }
                    }
                } else {
                    let is_pab = r.result == ResultCode::PairingBye
                        || (r.result == ResultCode::ForfeitWin && r.opponent.is_none());
                    match options.edition {
                        Edition::E2025 => {
                            if pts >= scoring.win || is_pab {
                                eligible = false;
                            }
                        }
                        Edition::E2017 => {
                            let participated = r.opponent.is_some() || is_pab;
                            if participated
                                && matches!(
                                    r.result,
                                    ResultCode::PairingBye | ResultCode::ForfeitWin
                                )
                            {
                                eligible = false;
                            }
                        }
                    }
                }
            }
            let imbalance = (whites - blacks).unsigned_abs() as u32;
            let last = colours.last().copied();
            let mut run = 0;
            for c in colours.iter().rev() {
                if Some(*c) == last {
                    run += 1;
                } else {
                    break;
                }
            }
            let pref = if imbalance > 1 {
                Some(if whites > blacks {
                    Side::Black
                } else {
                    Side::Red
                })
            } else if run >= 2 {
                last.map(Side::opposite)
            } else if imbalance == 1 {
                Some(if whites > blacks {
                    Side::Black
                } else {
                    Side::Red
                })
            } else {
                last.map(Side::opposite)
            };
            let absolute = imbalance > 1 || run >= 2;
            let strong = !absolute && imbalance == 1;
            let repeated = if run >= 2 { last } else { None };
            let score = score_before(i, round);
            let raw_score: i64 = (1..round)
                .map(|q| scoring.points(record(t, i, q).result).tenths())
                .sum();
            let float_of = |back: u32| -> Float {
                if completed < back {
                    return Float::None;
                }
                let q = completed + 1 - back;
                let r = record(t, i, q);
                let pts = scoring.points(r.result);
                if !r.result.is_played() {
                    let down = match options.edition {
                        Edition::E2025 => pts > scoring.loss,
                        Edition::E2017 => true,
                    };
                    return if down { Float::Down } else { Float::None };
                }
                let Some(o) = r.opponent.and_then(|o| index_of.get(&o).copied()) else {
                    return Float::None;
                };
                let mine = score_before(i, q);
                let theirs = score_before(o, q);
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => Float::Down,
                    std::cmp::Ordering::Less => Float::Up,
                    std::cmp::Ordering::Equal => Float::None,
                }
            };
            players.push(Player {
                entrant: i,
                start_no: *sn,
                rank: rank_of.get(&i).copied().unwrap_or(usize::MAX),
                score,
                raw_score,
                pref,
                imbalance,
                absolute,
                strong,
                repeated,
                played_colours: colours,
                played_games: (whites + blacks) as u32,
                eligible_for_bye: eligible,
                floats: [float_of(1), float_of(2)],
                topscorer: final_round && score > threshold,
            });
        }
        let mut forbidden = BTreeSet::new();
        for (i, _) in t.entrants.iter().enumerate() {
            for q in 1..=completed {
                let r = record(t, i, q);
                let met = r.result.is_played()
                    || (options.forfeit_counts_as_met && r.result.is_forfeit());
                if met {
                    if let Some(o) = r.opponent.and_then(|o| index_of.get(&o).copied()) {
                        forbidden.insert((i.min(o), i.max(o)));
                    }
                }
            }
        }
        for f in &t.forbidden {
            let applies =
                f.first_round.is_none_or(|a| a <= round) && f.last_round.is_none_or(|b| round <= b);
            if !applies {
                continue;
            }
            for (x, a) in f.entrants.iter().enumerate() {
                for b in &f.entrants[x + 1..] {
                    if let (Some(&i), Some(&j)) = (index_of.get(a), index_of.get(b)) {
                        if i != j {
                            forbidden.insert((i.min(j), i.max(j)));
                        }
                    }
                }
            }
        }
        Ok(Context {
            edition: options.edition,
            players,
            forbidden: {
                let mut lists = vec![Vec::new(); t.entrants.len()];
                for &(i, j) in &forbidden {
                    lists[i].push(j);
                    lists[j].push(i);
                }
                for list in &mut lists {
                    list.sort_unstable();
                }
                lists
            },
            completed,
            final_round,
            initial_colour: t.initial_colour.unwrap_or(Side::Red),
        })
    }

    /// Whether the players fall into so few classes by colour and float history that the
    /// weights in a bracket take few values (a first round: all alike): the lazy engine's
    /// certificates then stay cheap. With many classes its potentials are loose after every
    /// bulk change of weights and certifying costs more than storing the bracket.
    fn few_classes(&self) -> bool {
        let mut classes = BTreeSet::new();
        for p in &self.players {
            classes.insert((
                p.pref,
                p.imbalance,
                p.absolute,
                p.strong,
                p.repeated,
                p.floats.map(|f| f as u8),
            ));
            if classes.len() > LAZY_CLASSES {
                return false;
            }
        }
        true
    }

    fn compatible(&self, a: &Player, b: &Player) -> bool {
        self.forbidden[a.entrant].binary_search(&b.entrant).is_err() && !self.clash(a, b)
    }

    /// Whether both have the same absolute colour preference (and it is not waived for a
    /// top scorer in the final round).
    fn clash(&self, a: &Player, b: &Player) -> bool {
        a.absolute
            && b.absolute
            && a.pref == b.pref
            && !(self.final_round && (a.topscorer || b.topscorer))
    }

    fn pair(&self, backend: Backend) -> Result<RoundPairing, PairingError> {
        if self.players.is_empty() {
            return Ok(RoundPairing::default());
        }
        let (sorted, shifts, layout) = self.ranking();
        let bits = layout.total_bits() + 8;
        let limbs = bits.div_ceil(64) as usize;
        macro_rules! run {
            ($l:literal) => {
                match backend {
                    Backend::Dense => {
                        self.pair_with::<$l, Matcher<Wide<$l>>>(&sorted, &shifts, &layout)
                    }
                    Backend::Sparse => {
                        self.pair_with::<$l, SparseMatcher<Wide<$l>>>(&sorted, &shifts, &layout)
                    }
                    Backend::Lazy => self.pair_lazy::<$l>(&sorted, &shifts, &layout),
                }
            };
        }
        let matching = match limbs {
            0..=2 => run!(2),
            3 => run!(3),
            4 => run!(4),
            5 => run!(5),
            6 => run!(6),
            7 => run!(7),
            8 => run!(8),
            9 => run!(9),
            10 => run!(10),
            11..=12 => run!(12),
            13..=14 => run!(14),
            15..=16 => run!(16),
            17..=24 => run!(24),
            25..=32 => run!(32),
            33..=48 => run!(48),
            49..=64 => run!(64),
            _ => {
                return Err(PairingError::InvalidState(
                    "tournament too large for the Dutch weight width".into(),
                ))
            }
        }?;
        Ok(self.output(&sorted, &matching))
    }

    /// The players in pairing order (score descending, then effective number), each score
    /// group's offset in the score fields, and the weight layout.
    fn ranking(&self) -> (Vec<&Player>, BTreeMap<i64, u32>, Layout) {
        let n = self.players.len();
        // Sort by pairing score descending, then effective number.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            let (pa, pb) = (&self.players[a], &self.players[b]);
            pb.score.cmp(&pa.score).then(pa.rank.cmp(&pb.rank))
        });
        let sorted: Vec<&Player> = order.iter().map(|&i| &self.players[i]).collect();
        // Score-group offsets (lowest group at 0), widths.
        let mut shifts: BTreeMap<i64, u32> = BTreeMap::new();
        let mut total_shift = 0u32;
        let mut max_group = 0usize;
        {
            let mut i = n;
            while i > 0 {
                let s = sorted[i - 1].score;
                let mut j = i;
                while j > 0 && sorted[j - 1].score == s {
                    j -= 1;
                }
                let size = i - j;
                shifts.insert(s, total_shift);
                total_shift += bits_for(size as u64);
                max_group = max_group.max(size);
                i = j;
            }
        }
        let layout = Layout {
            b: bits_for(max_group as u64),
            s: total_shift,
            k: self.completed,
        };
        (sorted, shifts, layout)
    }

    /// Colour for `p` against `q` (C.04.3 Art. 5), as the reference engine decides it.
    fn colour_for(&self, p: &Player, q: &Player) -> Side {
        if let Some(c) = neutral_colour(p, q) {
            return c;
        }
        let p_higher = (p.score, std::cmp::Reverse(p.rank)) > (q.score, std::cmp::Reverse(q.rank));
        match p.pref {
            None => {
                if p_higher {
                    if p.rank & 1 == 1 {
                        self.initial_colour.opposite()
                    } else {
                        self.initial_colour
                    }
                } else if q.rank & 1 == 1 {
                    self.initial_colour
                } else {
                    self.initial_colour.opposite()
                }
            }
            Some(pref) => {
                if p_higher {
                    pref
                } else {
                    q.pref.map(Side::opposite).unwrap_or(pref)
                }
            }
        }
    }

    fn output(&self, sorted: &[&Player], mates: &[Option<usize>]) -> RoundPairing {
        struct Row {
            white: usize,
            black: usize,
        }
        let mut rows = Vec::new();
        let mut bye = None;
        for (v, p) in sorted.iter().enumerate() {
            match mates[v] {
                Some(u) => {
                    let q = sorted[u];
                    if p.start_no < q.start_no {
                        let c = self.colour_for(p, q);
                        let (white, black) = if c == Side::Red { (v, u) } else { (u, v) };
                        rows.push(Row { white, black });
                    }
                }
                None => bye = Some(p.start_no),
            }
        }
        // Board order: higher player's raw score, lower player's raw score, higher's number.
        let key = |r: &Row| {
            let (w, b) = (sorted[r.white], sorted[r.black]);
            let w_higher =
                (w.raw_score, std::cmp::Reverse(w.rank)) > (b.raw_score, std::cmp::Reverse(b.rank));
            let (h, l) = if w_higher { (w, b) } else { (b, w) };
            (
                std::cmp::Reverse(h.raw_score),
                std::cmp::Reverse(l.raw_score),
                h.rank,
            )
        };
        rows.sort_by_key(|r| key(r));
        RoundPairing {
            boards: rows
                .iter()
                .map(|r| Board {
                    red: sorted[r.white].start_no,
                    black: sorted[r.black].start_no,
                })
                .collect(),
            bye,
        }
    }
}

/// C.04.3 5.2.1–5.2.3 as the reference engine applies them: the colour `p` gets against
/// `q`, or `None` when undecided.
fn neutral_colour(p: &Player, q: &Player) -> Option<Side> {
    let compatible = p.pref != q.pref || p.pref.is_none() || q.pref.is_none();
    if compatible {
        return p.pref.or(q.pref.map(Side::opposite));
    }
    if p.absolute && (p.imbalance > q.imbalance || !q.absolute) {
        return p.pref;
    }
    if q.absolute && (q.imbalance > p.imbalance || !p.absolute) {
        return q.pref.map(Side::opposite);
    }
    if p.strong && !q.strong {
        return p.pref;
    }
    if q.strong && !p.strong {
        return q.pref.map(Side::opposite);
    }
    let (mut a, mut b) = (p.played_colours.iter().rev(), q.played_colours.iter().rev());
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (Some(_), Some(y)) => return Some(*y),
            _ => return None,
        }
    }
}

/// A bracket's base weights, `get(larger, smaller)` for `larger` at or after the bracket's
/// first resident: interned, so that a pair costs 4 bytes whatever the weight's width
/// (a bracket's weights take few distinct values).
struct Base<W> {
    rows: Vec<Vec<u32>>,
    table: Vec<W>,
    index: super::matching::WeightMap<W, u32>,
}

impl<W: Copy + Eq + std::hash::Hash> Base<W> {
    /// No weight: the pair may not meet (the matcher's [`NO_WEIGHT`] too).
    const NONE: u32 = NO_WEIGHT;

    fn new(size: usize) -> Self {
        Base {
            rows: vec![Vec::new(); size],
            table: Vec::new(),
            index: super::matching::WeightMap::default(),
        }
    }

    /// The id of weight `w` in the table.
    fn intern(&mut self, w: W) -> u32 {
        *self.index.entry(w).or_insert_with(|| {
            self.table.push(w);
            (self.table.len() - 1) as u32
        })
    }

    /// Appends `w` to row `larger` (the next `smaller`).
    fn push(&mut self, larger: usize, w: Option<W>) {
        let id = match w {
            None => Self::NONE,
            Some(w) => self.intern(w),
        };
        self.rows[larger].push(id);
    }

    /// Appends the weight of id `id` (from [`Base::intern`], or [`Base::NONE`]) to row
    /// `larger`.
    fn push_id(&mut self, larger: usize, id: u32) {
        self.rows[larger].push(id);
    }

    fn get(&self, larger: usize, smaller: usize) -> Option<W> {
        let id = self.rows[larger][smaller];
        (id != Self::NONE).then(|| self.table[id as usize])
    }

    fn clear(&mut self, larger: usize, smaller: usize) {
        self.rows[larger][smaller] = Self::NONE;
    }
}

/// Numbers the players' classes: players of one class are alike for [`Weigher::fields`]
/// (score, PAB eligibility, games played, colour state, float history, top-scorer flag).
/// Returns each player's class and the number of classes.
fn classes_of<'p>(players: impl Iterator<Item = &'p Player>) -> (Vec<usize>, usize) {
    type Key = (
        i64,
        bool,
        u32,
        Option<Side>,
        u32,
        bool,
        bool,
        Option<Side>,
        [u8; 2],
        bool,
    );
    let mut ids: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
    let class = players
        .map(|p| {
            let key: Key = (
                p.score,
                p.eligible_for_bye,
                p.played_games,
                p.pref,
                p.imbalance,
                p.absolute,
                p.strong,
                p.repeated,
                p.floats.map(|f| f as u8),
                p.topscorer,
            );
            let next = ids.len();
            *ids.entry(key).or_insert(next)
        })
        .collect();
    (class, ids.len())
}

/// Number of bits needed to write `v` (0 for 0).
fn bits_for(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// Widths of the weight fields.
#[derive(Clone, Copy)]
struct Layout {
    /// Bits for the largest score group's size.
    b: u32,
    /// Sum over score groups of the bits for their sizes.
    s: u32,
    /// Completed rounds.
    k: u32,
}

impl Layout {
    fn total_bits(&self) -> u32 {
        let (b, s) = (self.b, self.s);
        let mut t = 2 + b + s + b + s + 2 * b + 4 * b;
        if self.k >= 1 {
            t += 2 * b + 2 * s;
        }
        if self.k >= 2 {
            t += 2 * b + 2 * s;
        }
        t + 3 * b + 1
    }
}

/// Operations the weight builder needs beyond [`MatchWeight`].
trait Field: MatchWeight {
    #[cfg(test)]
    fn from_u64(v: u64) -> Self;
    #[cfg(test)]
    fn shl(self, bits: u32) -> Self;
    /// `self + v · 2^bit`.
    fn added_at(self, bit: u32, v: u64) -> Self;
}

impl<const L: usize> Field for Wide<L> {
    #[cfg(test)]
    fn from_u64(v: u64) -> Self {
        Wide::from_u64(v)
    }
    #[cfg(test)]
    fn shl(self, bits: u32) -> Self {
        self.shifted_left(bits)
    }
    fn added_at(self, bit: u32, v: u64) -> Self {
        Wide::added_at(self, bit, v)
    }
}

/// Edge-weight computer for the current bracket state.
struct Weigher<'s> {
    ctx: &'s Context,
    layout: &'s Layout,
    shifts: &'s BTreeMap<i64, u32>,
    bye_score: i64,
    c9_switch: bool,
    ranks: &'s BTreeMap<u32, u64>,
}

impl Weigher<'_> {
    fn bye_candidate(&self, p: &Player) -> bool {
        p.eligible_for_bye && p.score <= self.bye_score
    }

    /// Half of the doubled default weight `2·weight(h, l, false, false)` splits into one
    /// term per player (top field and C9 rank): this is that term, the matcher's potential.
    fn potential<W: Field>(&self, p: &Player) -> W {
        let Layout { b, s, .. } = *self.layout;
        let total = self.layout.total_bits();
        let mut w = W::ZERO.added_at(total - 2, 1 + 2 * u64::from(!self.bye_candidate(p)));
        if self.c9_switch && p.score == self.bye_score {
            let rank = self.ranks.get(&p.played_games).copied().unwrap_or(0);
            w = w.added_at(total - 2 - 4 * b - 2 * s, 2 * rank);
        }
        w
    }

    #[cfg(test)]
    fn one_at<W: Field>(&self, score: i64) -> W {
        W::one().shl(self.shifts[&score])
    }

    /// The base weight of the pair (`h` ranked above `l`), or `None` if they may not meet.
    ///
    /// Fields from the most significant down (widths in [`Layout`]); each is added at its
    /// offset, which is much cheaper than shifting a wide integer once per field.
    fn weight<W: Field>(&self, h: &Player, l: &Player, cur: bool, next: bool) -> Option<W> {
        if !self.ctx.compatible(h, l) {
            return None;
        }
        Some(self.fields(h, l, cur, next))
    }

    /// [`Weigher::weight`] whether or not the two may meet.
    fn fields<W: Field>(&self, h: &Player, l: &Player, cur: bool, next: bool) -> W {
        let Layout { b, s, k } = *self.layout;
        let (hs, ls) = (self.shifts[&h.score], self.shifts[&l.score]);
        let mut w = W::ZERO;
        let mut pos = self.layout.total_bits();
        let mut field = |w: &mut W, bits: u32, v: u64| {
            pos -= bits;
            *w = w.added_at(pos, v);
            pos
        };
        let top = 1 + u64::from(!self.bye_candidate(h)) + u64::from(!self.bye_candidate(l));
        field(&mut w, 2, top);
        field(&mut w, b, u64::from(cur));
        let at = field(&mut w, s, 0);
        if cur {
            w = w.added_at(at + hs, 1);
        }
        field(&mut w, b, u64::from(next));
        let at = field(&mut w, s, 0);
        if next {
            w = w.added_at(at + hs, 1);
        }
        let mut c9 = 0;
        if self.c9_switch {
            if h.score == self.bye_score {
                c9 += self.ranks.get(&h.played_games).copied().unwrap_or(0);
            }
            if l.score == self.bye_score {
                c9 += self.ranks.get(&l.played_games).copied().unwrap_or(0);
            }
        }
        field(&mut w, 2 * b, c9);
        // Colour criteria (player = lower, opponent = higher).
        let (p, o) = (l, h);
        let same_pref = p.pref == o.pref;
        let c10 = !(p.imbalance > 1 && o.imbalance > 1 && same_pref);
        let c11 = !p.absolute
            || !o.absolute
            || !same_pref
            || if p.imbalance == o.imbalance {
                p.repeated.is_none() || p.repeated != o.repeated
            } else {
                let smaller = if p.imbalance > o.imbalance { o } else { p };
                smaller.repeated != p.pref.map(Side::opposite)
            };
        let c12 = p.pref != o.pref || p.pref.is_none() || o.pref.is_none();
        let c13 = (!p.strong && !p.absolute)
            || (!o.strong && !o.absolute)
            || (p.absolute && o.absolute)
            || !same_pref;
        for bit in [c10, c11, c12, c13] {
            field(&mut w, b, u64::from(cur && bit));
        }
        let higher_above = h.score > l.score;
        for back in 0..2usize {
            if k > back as u32 {
                let down = u64::from(l.floats[back] == Float::Down)
                    + u64::from(!higher_above && h.floats[back] == Float::Down);
                field(&mut w, b, if cur { down } else { 0 });
                let up_ok = !(higher_above && l.floats[back] == Float::Up);
                field(&mut w, b, u64::from(cur && up_ok));
            }
        }
        for back in 0..2usize {
            if k > back as u32 {
                let at = field(&mut w, s, 0);
                if cur {
                    if l.floats[back] == Float::Down {
                        w = w.added_at(at + ls, 1);
                    }
                    if h.floats[back] == Float::Down {
                        w = w.added_at(at + hs, 1);
                    }
                }
                let at = field(&mut w, s, 0);
                if cur && !(l.floats[back] == Float::Up && higher_above) {
                    w = w.added_at(at + hs, 1);
                }
            }
        }
        debug_assert_eq!(pos, 3 * b + 1, "the fields fill the layout");
        w
    }

    /// [`Weigher::weight`] written field by field with shifts: the reference it is tested
    /// against.
    #[cfg(test)]
    fn weight_by_shifts<W: Field>(
        &self,
        h: &Player,
        l: &Player,
        cur: bool,
        next: bool,
    ) -> Option<W> {
        if !self.ctx.compatible(h, l) {
            return None;
        }
        let Layout { b, s, k } = *self.layout;
        let small = |w: W, bits: u32, v: u64| w.shl(bits).add(W::from_u64(v));
        let mut w =
            W::from_u64(1 + u64::from(!self.bye_candidate(h)) + u64::from(!self.bye_candidate(l)));
        w = small(w, b, u64::from(cur));
        w = w.shl(s);
        if cur {
            w = w.add(self.one_at(h.score));
        }
        w = small(w, b, u64::from(next));
        w = w.shl(s);
        if next {
            w = w.add(self.one_at(h.score));
        }
        let mut c9 = 0;
        if self.c9_switch {
            if h.score == self.bye_score {
                c9 += self.ranks.get(&h.played_games).copied().unwrap_or(0);
            }
            if l.score == self.bye_score {
                c9 += self.ranks.get(&l.played_games).copied().unwrap_or(0);
            }
        }
        w = small(w, 2 * b, c9);
        // Colour criteria (player = lower, opponent = higher).
        let (p, o) = (l, h);
        let same_pref = p.pref == o.pref;
        let c10 = !(p.imbalance > 1 && o.imbalance > 1 && same_pref);
        let c11 = !p.absolute
            || !o.absolute
            || !same_pref
            || if p.imbalance == o.imbalance {
                p.repeated.is_none() || p.repeated != o.repeated
            } else {
                let smaller = if p.imbalance > o.imbalance { o } else { p };
                smaller.repeated != p.pref.map(Side::opposite)
            };
        let c12 = p.pref != o.pref || p.pref.is_none() || o.pref.is_none();
        let c13 = (!p.strong && !p.absolute)
            || (!o.strong && !o.absolute)
            || (p.absolute && o.absolute)
            || !same_pref;
        for bit in [c10, c11, c12, c13] {
            w = small(w, b, u64::from(cur && bit));
        }
        let higher_above = h.score > l.score;
        for back in 0..2usize {
            if k > back as u32 {
                let down = u64::from(l.floats[back] == Float::Down)
                    + u64::from(!higher_above && h.floats[back] == Float::Down);
                w = small(w, b, if cur { down } else { 0 });
                let up_ok = !(higher_above && l.floats[back] == Float::Up);
                w = small(w, b, u64::from(cur && up_ok));
            }
        }
        for back in 0..2usize {
            if k > back as u32 {
                w = w.shl(s);
                if cur {
                    if l.floats[back] == Float::Down {
                        w = w.add(self.one_at(l.score));
                    }
                    if h.floats[back] == Float::Down {
                        w = w.add(self.one_at(h.score));
                    }
                }
                w = w.shl(s);
                if cur && !(l.floats[back] == Float::Up && higher_above) {
                    w = w.add(self.one_at(h.score));
                }
            }
        }
        w = w.shl(3 * b + 1);
        Some(w)
    }
}

impl Context {
    #[allow(clippy::too_many_lines, clippy::needless_range_loop)]
    fn pair_with<'a, const L: usize, M: PersistentMatcher<'a, Wide<L>>>(
        &'a self,
        sorted: &'a [&'a Player],
        shifts: &'a BTreeMap<i64, u32>,
        layout: &'a Layout,
    ) -> Result<Vec<Option<usize>>, PairingError> {
        type W<const L: usize> = Wide<L>;
        let n = sorted.len();
        let b = layout.b;
        let mut m = M::with_weight_bits(n, layout.total_bits() + 2);
        let top = sorted[0].score;
        let mut bye_score = 0i64;
        let mut c9_switch = false;
        let mut ranks: BTreeMap<u32, u64> = BTreeMap::new();
        // The default weight of every pair for the pre-pass: `weight(h, l, false, false)`
        // under the given bye settings (with their potentials, see `Weigher::potential`).
        let flat = |bye_score: i64, c9_switch: bool, ranks: &BTreeMap<u32, u64>| {
            let (layout, shifts, ranks) = (*layout, shifts.clone(), ranks.clone());
            let weigher = Weigher {
                ctx: self,
                layout: &layout,
                shifts: &shifts,
                bye_score,
                c9_switch,
                ranks: &ranks,
            };
            let potential: Vec<W<L>> = sorted.iter().map(|p| weigher.potential(p)).collect();
            let default: DefaultWeight<'a, W<L>> = Box::new(move |a: usize, c: usize| {
                let weigher = Weigher {
                    ctx: self,
                    layout: &layout,
                    shifts: &shifts,
                    bye_score,
                    c9_switch,
                    ranks: &ranks,
                };
                weigher.weight(sorted[a.min(c)], sorted[a.max(c)], false, false)
            });
            (potential, default)
        };
        // Pre-pass: completability, PAB score (C5), C9 switch for the first bracket.
        {
            if n % 2 == 1 {
                // Completability with the lowest PAB score, and whether the top group can
                // stay together: additive weights plus one for pairs within the top group.
                let field = |p: &Player| -> W<L> {
                    W::<L>::ZERO
                        .added_at(layout.s + b, 1 + 2 * u64::from(!p.eligible_for_bye))
                        .added_at(b, 2 * u64::from(shifts[&p.score]))
                        .added_at(0, u64::from(p.score >= top))
                };
                let potential: Vec<W<L>> = sorted.iter().map(|p| field(p)).collect();
                let shifts = shifts.clone();
                let default: DefaultWeight<'a, W<L>> = Box::new(move |a: usize, c: usize| {
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
                let (potential, default) = flat(0, false, &ranks);
                m.set_defaults(potential, default);
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
            if n % 2 == 1 && self.edition == Edition::E2017 {
                // No C5 and no C9 before 2025: every eligible entrant may take the bye.
                bye_score = i64::MAX;
                let (potential, default) = flat(bye_score, false, &ranks);
                m.set_defaults(potential, default);
            } else if n % 2 == 1 {
                let bye = unmatched[0];
                bye_score = sorted[bye].score;
                c9_switch = bye_score >= top
                    && (0..n)
                        .take_while(|&v| sorted[v].score >= top)
                        .all(|v| mates[v].is_none_or(|u| sorted[u].score >= top));
                let mut counts: Vec<u32> = sorted
                    .iter()
                    .filter(|p| p.score == bye_score)
                    .map(|p| p.played_games)
                    .collect();
                counts.sort_unstable_by(|a, b| b.cmp(a));
                for (i, c) in counts.into_iter().enumerate() {
                    ranks.insert(c, i as u64);
                }
                let (potential, default) = flat(bye_score, c9_switch, &ranks);
                m.set_defaults(potential, default);
            }
        }

        let mut final_mate: Vec<Option<usize>> = vec![None; n];
        let mut matched = vec![false; n];
        // Bracket: MDPs (vertex indices, ranking order), residents, next group.
        let mut bracket: Vec<usize> = Vec::new();
        let mut next_iter = 0usize;
        while next_iter < n && sorted[next_iter].score >= top {
            bracket.push(next_iter);
            next_iter += 1;
        }
        let mut group_begin = 0usize; // number of MDPs in `bracket`
        let mut group_begin_vertex = 0usize;
        let mate_of = |m: &M, v: usize| m.mate(v).unwrap_or(v);
        // Per entrant: whether it may not meet the player of the bracket row being built
        // (that player's earlier opponents and forbidden pairs, marked once per row instead
        // of searched per pair).
        let mut barred = vec![false; self.forbidden.len()];
        let bar = |barred: &mut Vec<bool>, p: &Player, on: bool| {
            for &e in &self.forbidden[p.entrant] {
                barred[e] = on;
            }
        };

        while bracket.len() > 1 || next_iter < n {
            let next_begin = bracket.len();
            let next_begin_vertex = group_begin_vertex + (next_begin - group_begin);
            let group_iter = next_iter;
            while next_iter < n && sorted[next_iter].score >= sorted[group_iter].score {
                bracket.push(next_iter);
                next_iter += 1;
            }
            let weigher = Weigher {
                ctx: self,
                layout,
                shifts,
                bye_score,
                c9_switch,
                ranks: &ranks,
            };
            // base.get(larger, smaller) for larger >= group_begin.
            let size = bracket.len();
            let mut base: Base<W<L>> = Base::new(size);
            // A pair's fields depend only on the two players' classes (everything `fields`
            // reads of a player), so each class pair's weight is computed and interned once;
            // only the compatibility (earlier opponents, forbidden pairs) is per pair.
            let (class, classes) = classes_of(bracket.iter().map(|&v| sorted[v]));
            let cached = classes <= 1024;
            let mut memo: Vec<u32> = vec![u32::MAX; if cached { 2 * classes * classes } else { 0 }];
            for larger in group_begin..size {
                let l = sorted[bracket[larger]];
                let next = larger >= next_begin;
                base.rows[larger].reserve_exact(larger);
                if cached {
                    bar(&mut barred, l, true);
                }
                for smaller in 0..larger {
                    let h = sorted[bracket[smaller]];
                    if !cached {
                        base.push(larger, weigher.weight(h, l, !next, next));
                    } else if barred[h.entrant] || self.clash(h, l) {
                        base.push_id(larger, Base::<W<L>>::NONE);
                    } else {
                        let slot = &mut memo
                            [2 * (class[smaller] * classes + class[larger]) + usize::from(next)];
                        if *slot == u32::MAX {
                            *slot = base.intern(weigher.fields(h, l, !next, next));
                        }
                        base.push_id(larger, *slot);
                    }
                }
                if cached {
                    bar(&mut barred, l, false);
                }
            }
            // Row by row (the bracket's vertices ascend): the sparse matcher merges each row
            // into its list in one pass, and takes the weights as ids into the bracket's
            // table (few distinct values, each interned once per row).
            m.set_rows_ids(&bracket, group_begin, &base.rows, &base.table);
            // The residents and the next group (one range of vertices) and the MDPs start
            // from their classes' duals (`start_by_classes`): their pairs weigh what their
            // classes' pair weighs, so most of them are tight at once and the first solve
            // needs a few stages instead of eight to ten over the whole bracket.
            let lo = bracket.get(group_begin).copied().unwrap_or(0);
            if cached
                && size >= group_begin + 2
                && (group_begin..size).all(|i| bracket[i] == lo + (i - group_begin))
            {
                let mut local = vec![u32::MAX; classes];
                let mut count = 0u32;
                let mut local_class = |i: usize| {
                    let c = &mut local[class[i]];
                    if *c == u32::MAX {
                        *c = count;
                        count += 1;
                    }
                    *c
                };
                let range_class: Vec<u32> = (group_begin..size).map(&mut local_class).collect();
                // The MDPs are released with them.
                let mdps: Vec<(usize, u32)> = (0..group_begin)
                    .map(|i| (bracket[i], local_class(i)))
                    .collect();
                let present: Vec<usize> = (0..classes).filter(|&c| local[c] != u32::MAX).collect();
                let mut pairs: Vec<(u32, u32, W<L>)> = Vec::new();
                for &a in &present {
                    for &c in &present {
                        for next in 0..2 {
                            let id = memo[2 * (a * classes + c) + next];
                            if id != u32::MAX {
                                let (x, y) = (local[a].min(local[c]), local[a].max(local[c]));
                                pairs.push((x, y, base.table[id as usize]));
                            }
                        }
                    }
                }
                m.start_by_classes(lo, &range_class, &mdps, &pairs);
            }
            let in_bracket = |x: usize| x >= group_begin_vertex && x < next_begin_vertex;
            // The exchange-order addend of a remainder pair: it depends only on the higher
            // player's place in the remainder.
            let addend = |smaller_rem: usize, rem_pairs: usize| -> W<L> {
                W::<L>::from_u64(u64::from(smaller_rem < rem_pairs))
                    .shifted_left(2 * b)
                    .sub(W::from_u64(smaller_rem as u64))
                    .shifted_left(1)
            };
            // Remainder weight: base plus the exchange-order addend.
            let with_addend = |base: &Base<W<L>>,
                               smaller: usize,
                               larger: usize,
                               smaller_rem: usize,
                               rem_pairs: usize|
             -> Option<W<L>> {
                base.get(larger, smaller)
                    .map(|w| w.add(addend(smaller_rem, rem_pairs)))
            };
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
                    for oi in group_begin..next_begin {
                        if let Some(w) = base.get(oi, pi) {
                            m.set_weight(pv, bracket[oi], Some(w.add(W::one())));
                        }
                    }
                    m.solve();
                }
                if in_bracket(mate_of(&m, pv)) {
                    matched[pv] = true;
                    remaining_matched -= 1;
                    let bonus = W::<L>::from_u64((next_begin - group_begin) as u64 + 1);
                    for oi in group_begin..next_begin {
                        if let Some(w) = base.get(oi, pi) {
                            m.set_weight(pv, bracket[oi], Some(w.add(bonus)));
                        }
                    }
                }
            }

            // Stage 2: the opponents of the chosen MDPs.
            for pi in 0..group_begin {
                let pv = bracket[pi];
                if !matched[pv] {
                    continue;
                }
                let mut addend = size as u64;
                for oi in (group_begin..next_begin).rev() {
                    let ov = bracket[oi];
                    if matched[ov] {
                        continue;
                    }
                    if let Some(w) = base.get(oi, pi) {
                        m.set_weight(pv, ov, Some(w.add(W::from_u64(addend))));
                        addend += 1;
                    }
                }
                m.solve();
                let mv = mate_of(&m, pv);
                matched[mv] = true;
                // Finalize: the pair stays in every later optimum.
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
            // Row by row (`with_addend` of every pair): the addend depends only on the
            // higher player, so each row's weights are the bracket's table plus one addend,
            // handed over as ids (a wide weight hashed once per row and value, not per pair).
            let mut ids: Vec<(usize, u32)> = Vec::with_capacity(remainder.len());
            let mut shifted: Vec<W<L>> = Vec::with_capacity(base.table.len());
            let last = remainder.len().saturating_sub(1);
            for (pj, &pi) in remainder.iter().enumerate().take(last) {
                let addend = addend(pj, rem_pairs);
                shifted.clear();
                shifted.extend(base.table.iter().map(|w| w.add(addend)));
                ids.clear();
                ids.extend(
                    remainder[pj + 1..]
                        .iter()
                        .map(|&oi| (bracket[oi], base.rows[oi][pi])),
                );
                m.set_row_ids(bracket[pi], &ids, &shifted);
            }
            m.solve();
            let is_exchanged_down = |m: &M, v: usize| {
                let x = mate_of(m, v);
                x <= v || x >= next_begin_vertex
            };
            let is_up = |m: &M, v: usize| {
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
                if is_up(&m, pv) {
                    for &oi in &remainder[idx + 1..] {
                        if let Some(w) = with_addend(&base, pi, oi, idx, rem_pairs) {
                            m.set_weight(pv, bracket[oi], Some(w.sub(W::one())));
                        }
                    }
                    m.solve();
                }
                let exchange = is_exchanged_down(&m, pv);
                if exchange {
                    left -= 1;
                }
                for &oi in &remainder[idx + 1..] {
                    if exchange {
                        base.clear(oi, pi);
                    }
                    m.set_weight(pv, bracket[oi], with_addend(&base, pi, oi, idx, rem_pairs));
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
                    for &oi in &remainder[idx + 1..] {
                        if let Some(w) = with_addend(&base, pi, oi, idx, rem_pairs) {
                            m.set_weight(pv, bracket[oi], Some(w.add(W::one())));
                        }
                    }
                    m.solve();
                }
                if is_up(&m, pv) {
                    left -= 1;
                    for &oi in &remainder[..idx] {
                        base.clear(pi, oi);
                        m.set_weight(pv, bracket[oi], None);
                    }
                    for oi in next_begin..size {
                        base.clear(oi, pi);
                        m.set_weight(pv, bracket[oi], None);
                    }
                }
                if !already {
                    for &oi in &remainder[idx + 1..] {
                        m.set_weight(pv, bracket[oi], with_addend(&base, pi, oi, idx, rem_pairs));
                    }
                }
                idx += 1;
            }
            // Fix the S1'/S2' split and restore the base weights.
            for (pj, &pi) in remainder.iter().enumerate() {
                let pv = bracket[pi];
                ids.clear();
                for &oi in &remainder[pj + 1..] {
                    let ov = bracket[oi];
                    if is_exchanged_down(&m, pv) || is_up(&m, ov) {
                        base.clear(oi, pi);
                    }
                    ids.push((ov, base.rows[oi][pi]));
                }
                m.set_row_ids(pv, &ids, &base.table);
            }
            // Stage 4: pair each S1' player with the highest-ranked possible partner.
            for &pi in &remainder {
                let pv = bracket[pi];
                if !is_up(&m, pv) {
                    continue;
                }
                // The bonuses below only pick, among the optima of the current weights, the
                // one where `pv` has its first possible partner (they sit below every
                // criterion). Candidates proven to be in no optimum are passed over; if the
                // first one left is the current partner, or an exchange of partners reaches
                // an optimum with it, that is the answer without a solve.
                let mv = mate_of(&m, pv);
                if m.is_certified() && mv != pv {
                    let first = remainder
                        .iter()
                        .filter(|&&oi| {
                            oi > pi && !matched[bracket[oi]] && base.get(oi, pi).is_some()
                        })
                        .map(|&oi| bracket[oi])
                        .find(|&ov| m.may_be_optimal(pv, ov));
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
                for &oi in remainder.iter().rev() {
                    let ov = bracket[oi];
                    if oi <= pi || matched[ov] {
                        continue;
                    }
                    if let Some(w) = base.get(oi, pi) {
                        m.set_weight(pv, ov, Some(w.add(W::from_u64(addend))));
                    }
                    addend += 1;
                }
                m.solve();
                let mv = mate_of(&m, pv);
                matched[pv] = true;
                matched[mv] = true;
                // Finalize: the pair stays in every later optimum.
                m.fix_pair(pv, mv);
            }

            // Next bracket.
            let mut new_bracket = Vec::new();
            let mut new_group_begin = 0usize;
            c9_switch = n % 2 == 1
                && self.edition == Edition::E2025
                && group_iter < n
                && bye_score >= sorted[group_iter].score;
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
            bracket = new_bracket;
            group_begin = new_group_begin;
            group_begin_vertex = next_begin_vertex;
        }
        Ok(final_mate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Entrant;

    fn event(players: u32, rounds_total: u32) -> Tournament {
        Tournament {
            rounds_total: Some(rounds_total),
            initial_colour: Some(Side::Red),
            entrants: (1..=players)
                .map(|sn| Entrant {
                    start_no: sn,
                    rating: Some(2000 - sn),
                    ..Entrant::default()
                })
                .collect(),
            ..Tournament::default()
        }
    }

    /// Records a game: `white` scored `result` against `black`.
    fn game(t: &mut Tournament, white: StartNo, black: StartNo, result: ResultCode) {
        let other = match result {
            ResultCode::Win => ResultCode::Loss,
            ResultCode::Loss => ResultCode::Win,
            r => r,
        };
        t.entrants[white as usize - 1]
            .rounds
            .push(RoundRecord::game(black, Side::Red, result));
        t.entrants[black as usize - 1]
            .rounds
            .push(RoundRecord::game(white, Side::Black, other));
    }

    fn pairs(p: &RoundPairing) -> BTreeSet<(StartNo, StartNo)> {
        p.boards
            .iter()
            .map(|b| (b.red.min(b.black), b.red.max(b.black)))
            .collect()
    }

    /// DUTCH.md §7.1 (bbp's `dutch_2025_C5`): minimising the PAB receiver's score rearranges
    /// the top bracket.
    #[test]
    fn the_bye_goes_to_the_lowest_score_even_if_a_higher_bracket_must_change() {
        let mut t = event(6, 3);
        game(&mut t, 1, 4, ResultCode::Win);
        game(&mut t, 2, 5, ResultCode::Win);
        game(&mut t, 6, 3, ResultCode::Loss);
        game(&mut t, 2, 1, ResultCode::Loss);
        game(&mut t, 3, 4, ResultCode::Win);
        game(&mut t, 5, 6, ResultCode::Win);
        t.entrants[3]
            .rounds
            .push(RoundRecord::bye(ResultCode::ZeroBye));
        let p = pair(&t, &DutchOptions::default()).expect("pairable");
        assert_eq!(pairs(&p), BTreeSet::from([(1, 5), (2, 3)]));
        assert_eq!(p.bye, Some(6));
    }

    /// DUTCH.md §7.2 (bbp's `dutch_2025_C9`): the bye goes to the entrant with fewer unplayed
    /// games.
    #[test]
    fn the_bye_prefers_the_entrant_who_has_played_more_games() {
        let mut t = event(5, 3);
        game(&mut t, 1, 3, ResultCode::Win);
        game(&mut t, 4, 2, ResultCode::Loss);
        t.entrants[4]
            .rounds
            .push(RoundRecord::bye(ResultCode::ZeroBye));
        let p = pair(&t, &DutchOptions::default()).expect("pairable");
        assert_eq!(p.to_text(), "2 1\n3 5\nbye 4\n");
    }

    /// The field-by-field weight equals the shift-by-shift reference on generated events
    /// (absences, forfeits, byes, acceleration, forbidden pairs), in every bracket role and
    /// with and without the C9 ranks.
    #[test]
    fn weights_added_at_offsets_equal_the_shifted_reference() {
        use crate::generator::{generate, GeneratorConfig};
        let mut checked = 0usize;
        for (seed, entrants, rounds, accelerated) in [
            (1, 31, 0, 0),
            (2, 40, 3, 2),
            (3, 25, 6, 0),
            (4, 57, 4, 1),
            (5, 12, 8, 0),
        ] {
            let config = GeneratorConfig {
                entrants,
                rounds_total: 9,
                seed,
                forfeit_percent: 10,
                absence_percent: 8,
                forbidden_pairs: 4,
                accelerated_rounds: accelerated,
                ..GeneratorConfig::default()
            };
            let t = generate(&config, rounds).expect("generated");
            let ctx = Context::new(&t, next_round(&t), &DutchOptions::default()).expect("ctx");
            let (sorted, shifts, layout) = ctx.ranking();
            assert!(layout.total_bits() < 500, "Wide<8> holds the test weights");
            let mid = sorted[sorted.len() / 2].score;
            let ranks: BTreeMap<u32, u64> = (0..=rounds).map(|g| (g, u64::from(g) % 3)).collect();
            for (bye_score, c9_switch) in [(0, false), (mid, true), (mid, false), (i64::MAX, false)]
            {
                let weigher = Weigher {
                    ctx: &ctx,
                    layout: &layout,
                    shifts: &shifts,
                    bye_score,
                    c9_switch,
                    ranks: &ranks,
                };
                for (v, l) in sorted.iter().enumerate() {
                    for h in &sorted[..v] {
                        for (cur, next) in [(false, false), (true, false), (false, true)] {
                            let fast: Option<Wide<8>> = weigher.weight(h, l, cur, next);
                            let reference: Option<Wide<8>> =
                                weigher.weight_by_shifts(h, l, cur, next);
                            assert_eq!(fast, reference);
                            checked += usize::from(fast.is_some());
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "only {checked} weights compared");
    }

    /// The lazy engine (which `pair` runs on a first round) pairs like the dense reference in
    /// every round, not only the first, in both editions: on generated events with absences,
    /// forfeits, byes, acceleration and forbidden pairs.
    #[test]
    fn the_lazy_engine_pairs_like_the_dense_one_in_every_round() {
        use crate::generator::{generate, GeneratorConfig, SplitMix64};
        let mut rng = SplitMix64::new(20_261_202);
        let mut compared = 0usize;
        for case in 0..60u32 {
            let entrants = if case % 10 == 9 {
                100 + rng.below(200) as u32
            } else {
                2 + rng.below(60) as u32
            };
            let rounds_total = 3 + rng.below(8) as u32;
            let config = GeneratorConfig {
                entrants,
                rounds_total,
                seed: rng.next_u64(),
                draw_percent: rng.below(50) as u32,
                forfeit_percent: rng.below(8) as u32,
                absence_percent: rng.below(10) as u32,
                forbidden_pairs: if case % 3 == 0 {
                    rng.below(6) as u32
                } else {
                    0
                },
                accelerated_rounds: if case % 4 == 0 {
                    rng.below(3) as u32
                } else {
                    0
                },
            };
            let played = rng.below(u64::from(rounds_total)) as u32;
            let Ok(t) = generate(&config, played) else {
                continue;
            };
            for edition in [Edition::E2025, Edition::E2017] {
                let options = DutchOptions {
                    edition,
                    forfeit_counts_as_met: false,
                };
                let ctx = Context::new(&t, next_round(&t), &options).expect("ctx");
                assert_eq!(
                    ctx.pair(Backend::Lazy),
                    ctx.pair(Backend::Dense),
                    "lazy and dense differ: {config:?} after {played} rounds ({edition:?})"
                );
            }
            compared += 1;
        }
        assert!(compared > 40, "only {compared} events compared");
    }

    #[test]
    fn round_one_pairs_top_half_against_bottom_half_with_alternating_colours() {
        let t = event(7, 5);
        let p = pair(&t, &DutchOptions::default()).expect("pairable");
        assert_eq!(p.to_text(), "1 4\n5 2\n3 6\nbye 7\n");
    }

    #[test]
    fn a_forbidden_pair_is_never_paired() {
        let mut t = event(4, 5);
        t.forbidden.push(crate::model::ForbiddenPairs {
            first_round: None,
            last_round: None,
            entrants: vec![1, 3],
        });
        let p = pair(&t, &DutchOptions::default()).expect("pairable");
        assert!(!pairs(&p).contains(&(1, 3)));
        assert_eq!(p.boards.len(), 2);
    }

    #[test]
    fn acceleration_points_move_an_entrant_into_the_top_score_group() {
        let mut t = event(4, 5);
        // Entrant 4 gets one virtual point in round 1: the groups are {4} and {1, 2, 3}.
        t.accelerations.push(crate::model::Acceleration {
            start_no: 4,
            points: vec![Points::whole(1)],
        });
        let p = pair(&t, &DutchOptions::default()).expect("pairable");
        assert!(pairs(&p).contains(&(1, 4)), "{p:?}");
    }

    #[test]
    fn an_impossible_round_is_an_error() {
        let mut t = event(2, 3);
        game(&mut t, 1, 2, ResultCode::Draw);
        assert!(matches!(
            pair(&t, &DutchOptions::default()),
            Err(PairingError::NoValidPairing { .. })
        ));
    }
}
