//! Standings (名次): points, then an ordered chain of tie-breaks applied to still-tied groups
//! (RULES.md §1.7, §3; SPEC §6).
//!
//! - [`rank`] computes every key of the chain for every entrant and orders them. Ties that
//!   survive the chain share a rank (1, 2, 2, 4) unless `LOT` ends it.
//! - A partially entered last round is fine: a game with an opponent but no result yet
//!   ([`ResultCode::Pending`]) is left out of every value and the standings are marked
//!   provisional.
//! - Integer arithmetic only: points and Buchholz-like values are tenths of a point,
//!   Sonneborn-Berger products hundredths (points × points), so every value is exact.
//! - [`command`] is the whole `arbiter standings` CLI behind one call; [`to_tsv`] prints it.
//!
//! [`ResultCode::Pending`]: crate::model::ResultCode::Pending

mod compute;
mod de;
mod keys;

pub use keys::{
    ByeOpponentScore, KeyError, Modifier, Preset, PrevReading, TiebreakKey, UnplayedMode,
};

use crate::model::{Points, Scoring, StartNo, Tournament};
use compute::Context;
use std::cmp::Ordering;
use std::fmt;
use std::fmt::Write as _;

/// How to rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingsOptions {
    /// The keys after points, in order.
    pub chain: Vec<TiebreakKey>,
    /// Unplayed rounds in Buchholz-like keys (default: Chinese, no adjustment).
    pub unplayed: UnplayedMode,
    /// What a bye counts as in 对手分 (default: lowest positive score, CXA 2011 14.4).
    pub bye_opponent_score: ByeOpponentScore,
    /// Points per result; `None` uses the tournament's own scoring.
    pub scoring: Option<Scoring>,
    /// Seed of the drawing of lots (`LOT`).
    pub lot_seed: u64,
    /// Which reading of 比较上一轮 `PREV` uses (default: reading A).
    pub prev_reading: PrevReading,
}

impl Default for StandingsOptions {
    fn default() -> Self {
        StandingsOptions {
            chain: Preset::Cxa2011Opp.chain(),
            unplayed: UnplayedMode::default(),
            bye_opponent_score: ByeOpponentScore::default(),
            scoring: None,
            lot_seed: 0,
            prev_reading: PrevReading::default(),
        }
    }
}

impl StandingsOptions {
    /// The options of a preset (its chain and unplayed-round mode).
    pub fn preset(preset: Preset) -> StandingsOptions {
        StandingsOptions {
            chain: preset.chain(),
            unplayed: preset.unplayed_mode(),
            ..StandingsOptions::default()
        }
    }
}

/// The value of one tie-break for one entrant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TiebreakValue {
    /// A score-like value in tenths of a point (OPP, BH…, PS…). Higher is better.
    Points(Points),
    /// A Sonneborn-Berger value in hundredths (points × points). Higher is better.
    Hundredths(i64),
    /// A count or a number (WIN, WON, BPG, BWG, FOULS, RTNG, LOT). Higher is better, except
    /// FOULS and LOT where lower is better.
    Count(i64),
    /// A sequence compared element by element, higher first (PREV: S_{n−1}, S_{n−2}, …;
    /// CUT_EARLY: PS − S₁, PS − S₁ − S₂, …; PREV reading C: OPP − last opponent, …;
    /// PREV reading B: **minus** the rank after round n−1, n−2, …, so that higher is better
    /// here too, e.g. `-3/-1`).
    Scores(Vec<Points>),
    /// DE: the position inside the group still tied when DE was applied (ties share it), or
    /// 0 when DE did not separate that group or was not needed.
    Position(u32),
}

impl fmt::Display for TiebreakValue {
    /// Plain decimals: `14`, `13.5`, SB `150` or `13.25`; sequences joined by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TiebreakValue::Points(p) => write!(f, "{p}"),
            TiebreakValue::Hundredths(h) => {
                let sign = if *h < 0 { "-" } else { "" };
                let abs = h.unsigned_abs();
                match abs % 100 {
                    0 => write!(f, "{sign}{}", abs / 100),
                    r if r % 10 == 0 => write!(f, "{sign}{}.{}", abs / 100, r / 10),
                    r => write!(f, "{sign}{}.{r:02}", abs / 100),
                }
            }
            TiebreakValue::Count(n) => write!(f, "{n}"),
            TiebreakValue::Scores(list) => {
                for (i, p) in list.iter().enumerate() {
                    if i > 0 {
                        f.write_str("/")?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
            TiebreakValue::Position(n) => write!(f, "{n}"),
        }
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingRow {
    /// Rank, 1-based; tied entrants share the best rank of their group.
    pub rank: u32,
    /// Starting number (序号).
    pub start_no: StartNo,
    /// Points (积分).
    pub points: Points,
    /// One value per key of the chain, in chain order.
    pub values: Vec<TiebreakValue>,
    /// This entrant has a game whose result is not entered yet.
    pub provisional: bool,
}

/// The ranked table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    /// The keys, in chain order.
    pub keys: Vec<TiebreakKey>,
    /// Column labels of the keys (canonical names unless given otherwise).
    pub labels: Vec<String>,
    /// Rows in ranking order (ties by starting number).
    pub rows: Vec<StandingRow>,
    /// Rounds evaluated.
    pub rounds: u32,
    /// Some result of the last round is still missing.
    pub provisional: bool,
}

/// Ranks the tournament's entrants after the rounds played so far.
pub fn rank(t: &Tournament, options: &StandingsOptions) -> Standings {
    let scoring = options.scoring.unwrap_or(t.scoring);
    let ctx = Context::new(t, &scoring, options.unplayed, options.bye_opponent_score);
    let n = ctx.players.len();
    let lots = draw_lots(&ctx, options.lot_seed);
    // values[i][k]: key k of player i (DE filled in while ranking).
    let mut values: Vec<Vec<TiebreakValue>> = (0..n)
        .map(|i| {
            options
                .chain
                .iter()
                .map(|&key| ctx.value(key, i, &lots, options.prev_reading))
                .collect()
        })
        .collect();
    if options.prev_reading == PrevReading::PreviousStandings {
        if let Some(k) = options
            .chain
            .iter()
            .position(|&key| key == TiebreakKey::Prev)
        {
            let earlier = previous_ranks(t, options, ctx.rounds);
            for (i, p) in ctx.players.iter().enumerate() {
                // Minus the rank, in whole points, so that "higher is better" holds.
                values[i][k] = TiebreakValue::Scores(
                    earlier
                        .iter()
                        .map(|ranks| {
                            let rank = ranks.get(&p.start_no).copied().unwrap_or(u32::MAX);
                            Points::whole(-i64::from(rank))
                        })
                        .collect(),
                );
            }
        }
    }

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        ctx.players[b]
            .total
            .cmp(&ctx.players[a].total)
            .then(ctx.players[a].start_no.cmp(&ctx.players[b].start_no))
    });
    // Groups as ranges of `order` whose members are still tied.
    let mut groups = split_runs(&order, |a, b| ctx.players[a].total == ctx.players[b].total);
    for (k, &key) in options.chain.iter().enumerate() {
        let mut next = Vec::with_capacity(groups.len());
        for (start, end) in groups {
            if end - start <= 1 {
                next.push((start, end));
                continue;
            }
            if key == TiebreakKey::De {
                let classes = de::classes(&order[start..end], &ctx.players, &scoring);
                if classes.len() > 1 {
                    let mut at = start;
                    for mut class in classes {
                        class.sort_by_key(|&i| ctx.players[i].start_no);
                        let position = (at - start + 1) as u32;
                        for &i in &class {
                            values[i][k] = TiebreakValue::Position(position);
                        }
                        order[at..at + class.len()].copy_from_slice(&class);
                        next.push((at, at + class.len()));
                        at += class.len();
                    }
                } else {
                    next.push((start, end));
                }
                continue;
            }
            let slice = &mut order[start..end];
            slice.sort_by(|&a, &b| {
                compare(key, &values[a][k], &values[b][k])
                    .then(ctx.players[a].start_no.cmp(&ctx.players[b].start_no))
            });
            for (s, e) in split_runs(slice, |a, b| {
                compare(key, &values[a][k], &values[b][k]) == Ordering::Equal
            }) {
                next.push((start + s, start + e));
            }
        }
        groups = next;
    }

    let mut rows = Vec::with_capacity(n);
    for (start, end) in groups {
        for &i in &order[start..end] {
            let p = &ctx.players[i];
            rows.push(StandingRow {
                rank: start as u32 + 1,
                start_no: p.start_no,
                points: p.total,
                values: std::mem::take(&mut values[i]),
                provisional: p.pending,
            });
        }
    }
    Standings {
        keys: options.chain.clone(),
        labels: options.chain.iter().map(|k| k.name()).collect(),
        provisional: rows.iter().any(|r| r.provisional),
        rows,
        rounds: ctx.rounds as u32,
    }
}

/// PREV reading B: each entrant's rank after round n−1, n−2, …, 1 under the same chain
/// without `PREV` and `LOT`.
fn previous_ranks(
    t: &Tournament,
    options: &StandingsOptions,
    rounds: usize,
) -> Vec<std::collections::BTreeMap<StartNo, u32>> {
    let inner = StandingsOptions {
        chain: options
            .chain
            .iter()
            .copied()
            .filter(|k| !matches!(k, TiebreakKey::Prev | TiebreakKey::Lot))
            .collect(),
        ..options.clone()
    };
    (1..rounds)
        .rev()
        .map(|k| {
            let mut earlier = t.clone();
            for e in &mut earlier.entrants {
                e.rounds.truncate(k);
            }
            rank(&earlier, &inner)
                .rows
                .iter()
                .map(|r| (r.start_no, r.rank))
                .collect()
        })
        .collect()
}

/// Consecutive runs of `items` whose neighbours are `same`, as (start, end) ranges.
fn split_runs(items: &[usize], same: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=items.len() {
        if i == items.len() || !same(items[i - 1], items[i]) {
            if i > start {
                runs.push((start, i));
            }
            start = i;
        }
    }
    runs
}

/// `Less` when `a` ranks above `b`.
fn compare(key: TiebreakKey, a: &TiebreakValue, b: &TiebreakValue) -> Ordering {
    use TiebreakValue::*;
    match (a, b) {
        (Points(x), Points(y)) => y.cmp(x),
        (Hundredths(x), Hundredths(y)) => y.cmp(x),
        (Count(x), Count(y)) => match key {
            TiebreakKey::Fouls | TiebreakKey::Lot => x.cmp(y),
            _ => y.cmp(x),
        },
        (Scores(x), Scores(y)) => y.cmp(x),
        (Position(x), Position(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

/// Lot numbers 1..=n: a permutation of the entrants from a seeded hash of the starting
/// numbers (splitmix64), the same for the same seed and field.
fn draw_lots(ctx: &Context<'_>, seed: u64) -> Vec<u32> {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut draw: Vec<(u64, StartNo, usize)> = ctx
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (mix(seed ^ mix(u64::from(p.start_no))), p.start_no, i))
        .collect();
    draw.sort();
    let mut lots = vec![0; ctx.players.len()];
    for (lot, &(_, _, i)) in draw.iter().enumerate() {
        lots[i] = lot as u32 + 1;
    }
    lots
}

/// The standings as TSV: header `rank start_no PTS <labels…>`, one row per entrant in ranking
/// order, values as plain decimals (see [`TiebreakValue`]'s `Display`). LF line ends.
pub fn to_tsv(s: &Standings) -> String {
    let mut out = String::from("rank\tstart_no\tPTS");
    for label in &s.labels {
        out.push('\t');
        out.push_str(label);
    }
    out.push('\n');
    for row in &s.rows {
        let _ = write!(out, "{}\t{}\t{}", row.rank, row.start_no, row.points);
        for v in &row.values {
            let _ = write!(out, "\t{v}");
        }
        out.push('\n');
    }
    out
}

/// The arguments of `arbiter standings FILE.trf [--points W,D,L] (--tiebreaks K1,K2,… |
/// --preset NAME) [--unplayed MODE]`, as given on the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandArgs {
    /// `--points W,D,L`, e.g. `2,1,0` (byes and forfeit wins then score a win).
    pub points: Option<String>,
    /// `--tiebreaks K1,K2,…` in descriptor syntax; the TSV columns use these names as given.
    pub tiebreaks: Option<String>,
    /// `--preset NAME`.
    pub preset: Option<String>,
    /// `--unplayed cxa|fide2023|fide2026|none`.
    pub unplayed: Option<String>,
}

/// Why `arbiter standings` failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Occurs when the TRF file cannot be read.
    #[error("{0}")]
    Trf(#[from] crate::trf::TrfError),
    /// Occurs when a tie-break or preset name is unknown.
    #[error("{0}")]
    Key(#[from] KeyError),
    /// Occurs when `--points` is not three decimals `W,D,L`.
    #[error("--points must be W,D,L (e.g. 2,1,0), got {0:?}")]
    Points(String),
    /// Occurs when `--unplayed` names no known mode.
    #[error("{0}")]
    Unplayed(String),
    /// Occurs when both or neither of `--tiebreaks` and `--preset` are given.
    #[error("give exactly one of --tiebreaks and --preset")]
    Chain,
}

/// Runs `arbiter standings`: reads the TRF text, ranks, returns the TSV. Points default to the
/// file's `162`/`XXS`/`BB?` lines, else 1/½/0.
pub fn command(trf_text: &str, args: &CommandArgs) -> Result<String, CommandError> {
    let t = crate::trf::parse(trf_text)?;
    let (mut options, labels) = match (&args.tiebreaks, &args.preset) {
        (Some(list), None) => {
            let labels: Vec<String> = list
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                // The chain always starts with points; a leading PTS is accepted and dropped.
                .skip_while(|s| s.eq_ignore_ascii_case("PTS"))
                .collect();
            let chain = labels
                .iter()
                .map(|l| l.parse::<TiebreakKey>())
                .collect::<Result<Vec<_>, _>>()?;
            (
                StandingsOptions {
                    chain,
                    ..StandingsOptions::default()
                },
                Some(labels),
            )
        }
        (None, Some(name)) => (StandingsOptions::preset(name.parse::<Preset>()?), None),
        _ => return Err(CommandError::Chain),
    };
    if let Some(mode) = &args.unplayed {
        options.unplayed = mode.parse().map_err(CommandError::Unplayed)?;
    }
    if let Some(points) = &args.points {
        let parts: Vec<Option<Points>> = points.split(',').map(Points::parse).collect();
        match parts.as_slice() {
            [Some(w), Some(d), Some(l)] => {
                options.scoring = Some(Scoring::from_win_draw_loss(*w, *d, *l));
            }
            _ => return Err(CommandError::Points(points.clone())),
        }
    }
    let mut standings = rank(&t, &options);
    if let Some(labels) = labels {
        standings.labels = labels;
    }
    Ok(to_tsv(&standings))
}

#[cfg(test)]
mod tests;
