//! Per-entrant tie-break values. Everything is integer: points in tenths, Sonneborn-Berger
//! products in hundredths.

use super::keys::{ByeOpponentScore, Modifier, PrevReading, TiebreakKey, UnplayedMode};
use super::TiebreakValue;
use crate::model::{Points, ResultCode, Scoring, Side, StartNo, Tournament};
use std::collections::HashMap;

/// One round of one entrant, with the opponent as an index into the player list.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rec {
    pub opponent: Option<usize>,
    pub colour: Option<Side>,
    pub result: ResultCode,
    pub fouls: u32,
}

impl Rec {
    /// A game whose result is not entered yet: left out of everything (provisional standings).
    fn ignored(&self) -> bool {
        self.result == ResultCode::Pending && self.opponent.is_some()
    }

    /// A voluntarily unplayed round (C.07 16.1): unplayed and not worth a win — `H`, `Z`,
    /// blank, a forfeit loss (both sides of a double forfeit too).
    fn is_vur(&self) -> bool {
        !self.ignored()
            && !self.result.is_played()
            && !matches!(
                self.result,
                ResultCode::PairingBye | ResultCode::FullBye | ResultCode::ForfeitWin
            )
    }

    fn is_played_game(&self) -> bool {
        self.opponent.is_some() && self.result.is_played()
    }
}

/// An entrant as the standings see it: rounds 1..=n only.
#[derive(Clone, Debug)]
pub(super) struct Player {
    pub start_no: StartNo,
    pub rating: u32,
    pub recs: Vec<Rec>,
    /// S_k, k = 1..=n.
    pub cumulative: Vec<Points>,
    pub total: Points,
    pub pending: bool,
}

/// Everything the keys need, computed once.
pub(super) struct Context<'a> {
    pub players: Vec<Player>,
    pub scoring: &'a Scoring,
    pub rounds: usize,
    pub unplayed: UnplayedMode,
    pub bye_score: ByeOpponentScore,
    /// FIDE adjusted score as an opponent (16.3); equals `total` outside FIDE modes.
    adjusted: Vec<Points>,
    min_positive: Points,
    min_all: Points,
}

impl<'a> Context<'a> {
    pub fn new(
        t: &Tournament,
        scoring: &'a Scoring,
        unplayed: UnplayedMode,
        bye_score: ByeOpponentScore,
    ) -> Context<'a> {
        let rounds = t.rounds_played() as usize;
        let index: HashMap<StartNo, usize> = t
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.start_no, i))
            .collect();
        let players: Vec<Player> = t
            .entrants
            .iter()
            .map(|e| {
                let recs: Vec<Rec> = (0..rounds)
                    .map(|k| match e.rounds.get(k) {
                        Some(r) => Rec {
                            opponent: r.opponent.and_then(|o| index.get(&o).copied()),
                            colour: r.colour,
                            result: r.result,
                            fouls: r.fouls,
                        },
                        None => Rec {
                            opponent: None,
                            colour: None,
                            result: ResultCode::Pending,
                            fouls: 0,
                        },
                    })
                    .collect();
                let mut sum = Points::ZERO;
                let cumulative = recs
                    .iter()
                    .map(|r| {
                        sum += scoring.points(r.result);
                        sum
                    })
                    .collect();
                Player {
                    start_no: e.start_no,
                    rating: e.rating.unwrap_or(0),
                    pending: recs.iter().any(Rec::ignored),
                    recs,
                    cumulative,
                    total: sum,
                }
            })
            .collect();
        let fide = matches!(unplayed, UnplayedMode::Fide2023 | UnplayedMode::Fide2026);
        let adjusted = players
            .iter()
            .map(|p| {
                if fide {
                    adjusted_score(p, scoring)
                } else {
                    p.total
                }
            })
            .collect();
        let min_all = players.iter().map(|p| p.total).min().unwrap_or_default();
        let min_positive = players
            .iter()
            .map(|p| p.total)
            .filter(|&s| s > Points::ZERO)
            .min()
            .unwrap_or_default();
        Context {
            players,
            scoring,
            rounds,
            unplayed,
            bye_score,
            adjusted,
            min_positive,
            min_all,
        }
    }

    fn bye_opponent(&self, i: usize) -> Points {
        match self.bye_score {
            ByeOpponentScore::MinPositive => self.min_positive,
            ByeOpponentScore::MinAll => self.min_all,
            ByeOpponentScore::Zero => Points::ZERO,
            ByeOpponentScore::FideDummy => self.players[i].total,
        }
    }

    /// 对手分 contributions: the opponent's actual score for every round with an opponent
    /// (played or forfeited), the bye score for a `U`/`F` bye, nothing otherwise.
    fn chinese_contribution(&self, i: usize, rec: &Rec, with_bye: bool) -> Points {
        match rec.opponent {
            Some(j) => self.players[j].total,
            None if with_bye
                && matches!(rec.result, ResultCode::PairingBye | ResultCode::FullBye) =>
            {
                self.bye_opponent(i)
            }
            None => Points::ZERO,
        }
    }

    /// Buchholz contributions of player `i`, one per evaluated round (ignored rounds left
    /// out): (value, is a VUR, points scored in the round).
    fn contributions(&self, i: usize) -> Vec<Contribution> {
        let p = &self.players[i];
        let own = p.total;
        let cap = Points(self.scoring.draw.tenths() * self.rounds as i64);
        p.recs
            .iter()
            .filter(|r| !r.ignored())
            .map(|r| {
                let value = match self.unplayed {
                    UnplayedMode::Cxa => self.chinese_contribution(i, r, true),
                    UnplayedMode::None => self.chinese_contribution(i, r, false),
                    UnplayedMode::Fide2023 | UnplayedMode::Fide2026 => match r.opponent {
                        Some(j) if r.result.is_played() => self.adjusted[j],
                        _ if self.unplayed == UnplayedMode::Fide2023 => own,
                        Some(j) if r.result.is_forfeit() => own.min(self.adjusted[j]),
                        _ => own.min(cap),
                    },
                };
                Contribution {
                    value: value.tenths(),
                    vur: r.is_vur(),
                    scored: self.scoring.points(r.result).tenths(),
                }
            })
            .collect()
    }

    fn vur_rule(&self) -> bool {
        matches!(
            self.unplayed,
            UnplayedMode::Fide2023 | UnplayedMode::Fide2026
        )
    }

    /// The value of `key` for player `i` (not DE, which depends on the tied group).
    pub fn value(
        &self,
        key: TiebreakKey,
        i: usize,
        lots: &[u32],
        prev: PrevReading,
    ) -> TiebreakValue {
        let p = &self.players[i];
        let count = |f: &dyn Fn(&Rec) -> bool| {
            TiebreakValue::Count(p.recs.iter().filter(|r| !r.ignored() && f(r)).count() as i64)
        };
        match key {
            TiebreakKey::Opp => TiebreakValue::Points(
                p.recs
                    .iter()
                    .filter(|r| !r.ignored())
                    .map(|r| self.chinese_contribution(i, r, true))
                    .sum(),
            ),
            TiebreakKey::Buchholz(m) => {
                let items = self.contributions(i);
                TiebreakValue::Points(Points(buchholz(items, m, self.vur_rule())))
            }
            TiebreakKey::SonnebornBerger(m) => {
                let items = self.contributions(i);
                TiebreakValue::Hundredths(sonneborn_berger(items, m, self.vur_rule()))
            }
            TiebreakKey::Progressive(cut) => {
                TiebreakValue::Points(p.cumulative.iter().skip(cut as usize).copied().sum())
            }
            TiebreakKey::Win => count(&|r| r.result.is_win_valued()),
            TiebreakKey::Won => count(&|r| {
                r.is_played_game() && matches!(r.result, ResultCode::Win | ResultCode::UnratedWin)
            }),
            TiebreakKey::Bpg => count(&|r| r.is_played_game() && r.colour == Some(Side::Black)),
            TiebreakKey::Bwg => count(&|r| {
                r.is_played_game()
                    && r.colour == Some(Side::Black)
                    && matches!(r.result, ResultCode::Win | ResultCode::UnratedWin)
            }),
            TiebreakKey::Fouls => {
                TiebreakValue::Count(p.recs.iter().map(|r| i64::from(r.fouls)).sum())
            }
            TiebreakKey::Prev if prev == PrevReading::OpponentsReverse => {
                // OPP − c_n, OPP − c_n − c_{n−1}, … (c_k: round k's 对手分 contribution).
                let contributions: Vec<Points> = p
                    .recs
                    .iter()
                    .map(|r| {
                        if r.ignored() {
                            Points::ZERO
                        } else {
                            self.chinese_contribution(i, r, true)
                        }
                    })
                    .collect();
                let mut opp: Points = contributions.iter().copied().sum();
                let mut out = Vec::with_capacity(contributions.len());
                for &c in contributions
                    .iter()
                    .rev()
                    .take(contributions.len().saturating_sub(1))
                {
                    opp -= c;
                    out.push(opp);
                }
                TiebreakValue::Scores(out)
            }
            TiebreakKey::Prev => {
                // Reading A: S_{n-1}, S_{n-2}, …, S_1 (reading B is filled in by the ranking).
                let n = p.cumulative.len();
                TiebreakValue::Scores(
                    p.cumulative[..n.saturating_sub(1)]
                        .iter()
                        .rev()
                        .copied()
                        .collect(),
                )
            }
            TiebreakKey::CutEarly => {
                // PS − S_1, PS − S_1 − S_2, …
                let mut ps: Points = p.cumulative.iter().copied().sum();
                let mut out = Vec::with_capacity(p.cumulative.len());
                for &s in p
                    .cumulative
                    .iter()
                    .take(p.cumulative.len().saturating_sub(1))
                {
                    ps -= s;
                    out.push(ps);
                }
                TiebreakValue::Scores(out)
            }
            TiebreakKey::Rating => TiebreakValue::Count(i64::from(p.rating)),
            TiebreakKey::Lot => TiebreakValue::Count(i64::from(lots[i])),
            TiebreakKey::De => TiebreakValue::Position(0),
        }
    }
}

/// C.07 16.3: the player's score as someone else's opponent. Rounds after the last round that
/// is not a VUR and that have no scheduled opponent (withdrawal, a requested bye followed only
/// by VURs or in the last round) count as draws.
fn adjusted_score(p: &Player, scoring: &Scoring) -> Points {
    let last_real = p.recs.iter().rposition(|r| !r.is_vur());
    p.recs
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let after = last_real.is_none_or(|l| k > l);
            if after && r.opponent.is_none() {
                scoring.draw
            } else {
                scoring.points(r.result)
            }
        })
        .sum()
}

#[derive(Clone, Copy, Debug)]
struct Contribution {
    value: i64,
    vur: bool,
    scored: i64,
}

/// Index of the value a low cut removes: the lowest, or with the 16.5 rule the lowest VUR
/// contribution when there is one (never lower than the lowest value, so "cut the higher of
/// the two" always picks the VUR for BH).
fn low_cut(items: &[Contribution], vur_rule: bool) -> Option<usize> {
    let lowest = |f: &dyn Fn(&Contribution) -> bool| {
        items
            .iter()
            .enumerate()
            .filter(|(_, c)| f(c))
            .min_by_key(|(_, c)| (c.value, c.value * c.scored))
            .map(|(i, _)| i)
    };
    let least = lowest(&|_| true)?;
    if vur_rule {
        if let Some(v) = lowest(&|c| c.vur) {
            // For SB the product decides which of the two goes (the higher one is cut).
            let product = |i: usize| items[i].value * items[i].scored;
            return Some(if product(v) >= product(least) {
                v
            } else {
                least
            });
        }
    }
    Some(least)
}

fn high_cut(items: &[Contribution]) -> Option<usize> {
    items
        .iter()
        .enumerate()
        .max_by_key(|(i, c)| (c.value, c.value * c.scored, std::cmp::Reverse(*i)))
        .map(|(i, _)| i)
}

fn apply_modifier(items: &mut Vec<Contribution>, m: Modifier, vur_rule: bool) {
    let (low, high) = match m {
        Modifier::None => (0, 0),
        Modifier::Cut(n) => (n, 0),
        Modifier::Median(n) => (n, n),
    };
    for _ in 0..low {
        if let Some(i) = low_cut(items, vur_rule) {
            items.remove(i);
        }
    }
    for _ in 0..high {
        if let Some(i) = high_cut(items) {
            items.remove(i);
        }
    }
}

fn buchholz(mut items: Vec<Contribution>, m: Modifier, vur_rule: bool) -> i64 {
    // For BH the product plays no part in choosing the cut: compare values only.
    for c in &mut items {
        c.scored = 1;
    }
    apply_modifier(&mut items, m, vur_rule);
    items.iter().map(|c| c.value).sum()
}

fn sonneborn_berger(mut items: Vec<Contribution>, m: Modifier, vur_rule: bool) -> i64 {
    apply_modifier(&mut items, m, vur_rule);
    items.iter().map(|c| c.value * c.scored).sum()
}
