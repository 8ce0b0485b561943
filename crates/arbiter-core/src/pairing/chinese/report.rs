//! The pairing report: why this pairing (SPEC §4 "Why this pairing").

use super::context::Context;
use super::{ChineseOptions, QualityKey};
use crate::model::{Points, Side, StartNo};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// How the colours of a board were decided (RULES §1.3 step 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourDecision {
    /// Round 1: odd boards give the first colour to the lower number, even boards the other.
    RoundOnePattern,
    /// A player had to get a colour (2 in a row, or |Red − Black| = 2).
    AbsoluteNeed,
    /// The larger colour index got Black (xianshu: more Reds, then a longer Red run; 0 without
    /// colour history). Stored as `balance`.
    Balance,
    /// Alternation from the latest round where their colours differed.
    Alternation,
    /// Identical histories: odd round → lower 序号 Red, even round → higher 序号 Red.
    RoundParity,
}

/// Why a player was paired outside their score group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FloatReason {
    /// The group (with the players floated into it) had an odd number of players.
    OddGroup,
    /// No pairing inside the group was legal (already met, forbidden pair or colour rules).
    NoLegalPairing,
}

/// One score group (积分段).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreGroupReport {
    /// Score of the group.
    pub points: Points,
    /// Members in ranking order.
    pub members: Vec<StartNo>,
    /// Members due Red (要先), in order.
    pub due_red: Vec<StartNo>,
    /// Members due Black (要后), in order.
    pub due_black: Vec<StartNo>,
    /// Players from higher groups paired in or through this group.
    pub floaters_in: Vec<StartNo>,
    /// Players of this group (or passing through) paired lower down.
    pub floaters_out: Vec<StartNo>,
}

/// A player paired outside their score group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloaterReport {
    /// Who floated down.
    pub start_no: StartNo,
    /// Their score.
    pub points: Points,
    /// Their opponent.
    pub opponent: StartNo,
    /// The opponent's score.
    pub opponent_points: Points,
    /// Why, in English.
    pub reason: String,
    /// Why, for pages that say it in their language (absent from reports made before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<FloatReason>,
}

/// One board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardReport {
    /// 1-based board number.
    pub board: u32,
    /// Red (moves first).
    pub red: StartNo,
    /// Black.
    pub black: StartNo,
    /// Red's score before the round.
    pub red_points: Points,
    /// Black's score before the round.
    pub black_points: Points,
    /// The colour Red was due.
    pub red_due: Side,
    /// The colour Black was due.
    pub black_due: Side,
    /// How the colours were decided.
    pub decision: ColourDecision,
    /// Players who did not get the colour they were due.
    pub unmet_preferences: Vec<StartNo>,
}

/// The pairing-allocated bye.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByeReport {
    /// Who.
    pub start_no: StartNo,
    /// Their score.
    pub points: Points,
    /// Why them, in English.
    pub reason: String,
    /// Their place in the bye order: 1 is the lowest score without a previous bye, a later one
    /// means every earlier candidate would have left no legal pairing (absent from reports
    /// made before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidate: Option<u32>,
}

/// A colour rule relaxed for one player because no pairing satisfied it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelaxedRule {
    /// Board.
    pub board: u32,
    /// Whose rule.
    pub start_no: StartNo,
    /// `three_in_a_row` or `difference`.
    pub rule: String,
}

/// The structured explanation of a Chinese pairing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingReport {
    /// Round paired.
    pub round: u32,
    /// Names of the two sides (Red/Black, or moves first/second in Banqi).
    pub side_names: [String; 2],
    /// Score groups, highest first.
    pub groups: Vec<ScoreGroupReport>,
    /// Players paired outside their group.
    pub floaters: Vec<FloaterReport>,
    /// Boards in board order.
    pub boards: Vec<BoardReport>,
    /// The bye.
    pub bye: Option<ByeReport>,
    /// Relaxed colour rules (empty when every rule held).
    pub relaxed: Vec<RelaxedRule>,
    /// The quality key the engine minimised.
    pub quality: QualityKey,
}

pub(crate) fn build(
    ctx: &Context,
    options: &ChineseOptions,
    decided: &[(usize, usize, ColourDecision)],
    bye: Option<usize>,
    quality: QualityKey,
) -> PairingReport {
    let mut groups: Vec<ScoreGroupReport> = ctx
        .levels
        .iter()
        .map(|&points| ScoreGroupReport {
            points,
            members: Vec::new(),
            due_red: Vec::new(),
            due_black: Vec::new(),
            floaters_in: Vec::new(),
            floaters_out: Vec::new(),
        })
        .collect();
    for p in &ctx.players {
        let g = &mut groups[p.level];
        g.members.push(p.id);
        match p.due {
            Side::Red => g.due_red.push(p.id),
            Side::Black => g.due_black.push(p.id),
        }
    }
    let mut floaters = Vec::new();
    let mut boards = Vec::new();
    let mut relaxed = Vec::new();
    for (k, &(red, black, decision)) in decided.iter().enumerate() {
        let board = k as u32 + 1;
        let (r, b) = (&ctx.players[red], &ctx.players[black]);
        let unmet_preferences = [(r, Side::Red), (b, Side::Black)]
            .iter()
            .filter(|(p, got)| p.due != *got && !ctx.half_split)
            .map(|(p, _)| p.id)
            .collect();
        for (p, got) in [(r, Side::Red), (b, Side::Black)] {
            if p.streak_blocks(got) {
                relaxed.push(RelaxedRule {
                    board,
                    start_no: p.id,
                    rule: "three_in_a_row".into(),
                });
            } else if p.diff_blocks(got) {
                relaxed.push(RelaxedRule {
                    board,
                    start_no: p.id,
                    rule: "difference".into(),
                });
            }
        }
        let (hi, lo) = if r.level <= b.level { (r, b) } else { (b, r) };
        if hi.level != lo.level {
            for level in hi.level..lo.level {
                groups[level].floaters_out.push(hi.id);
                groups[level + 1].floaters_in.push(hi.id);
            }
            floaters.push(FloaterReport {
                start_no: hi.id,
                points: hi.points,
                opponent: lo.id,
                opponent_points: lo.points,
                reason: String::new(),
                why: None,
            });
        }
        boards.push(BoardReport {
            board,
            red: r.id,
            black: b.id,
            red_points: r.points,
            black_points: b.points,
            red_due: r.due,
            black_due: b.due,
            decision,
            unmet_preferences,
        });
    }
    // Why each floater floated: an odd group (counting players floated in), or no legal
    // pairing inside it.
    for f in &mut floaters {
        let level = ctx
            .players
            .iter()
            .find(|p| p.id == f.start_no)
            .map(|p| p.level)
            .unwrap_or(0);
        let g = &groups[level];
        let size = g.members.len() + g.floaters_in.len()
            - usize::from(bye.is_some_and(|b| ctx.players[b].level == level));
        let odd = size % 2 == 1;
        f.why = Some(if odd {
            FloatReason::OddGroup
        } else {
            FloatReason::NoLegalPairing
        });
        f.reason = if odd {
            format!(
                "odd number of players in the {} group; paired with the nearest score",
                g.points
            )
        } else {
            format!(
                "no legal pairing inside the {} group (already met, forbidden pair or colour rules)",
                g.points
            )
        };
    }
    let bye = bye.map(|i| {
        let p = &ctx.players[i];
        ByeReport {
            start_no: p.id,
            points: p.points,
            candidate: u32::try_from(quality.bye_rank + 1).ok(),
            reason: if quality.bye_rank == 0 {
                "lowest score without a previous bye (highest 序号 among equals)".into()
            } else {
                format!(
                    "candidate {} in bye order: every earlier candidate would leave no legal pairing",
                    quality.bye_rank + 1
                )
            },
        }
    });
    let side_names = if options.moves_first_naming {
        ["moves first".to_string(), "moves second".to_string()]
    } else {
        ["Red".to_string(), "Black".to_string()]
    };
    PairingReport {
        round: ctx.round,
        side_names,
        groups,
        floaters,
        boards,
        bye,
        relaxed,
        quality,
    }
}

impl PairingReport {
    /// A plain-text rendering for the CLI and logs.
    pub fn to_text(&self) -> String {
        let [first, second] = &self.side_names;
        let ids = |v: &[StartNo]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        let mut out = String::new();
        let _ = writeln!(out, "Round {} (Chinese Swiss)", self.round);
        let _ = writeln!(out, "Score groups:");
        for g in &self.groups {
            let _ = write!(
                out,
                "  {:>5}: due {first} [{}] due {second} [{}]",
                g.points.to_string(),
                ids(&g.due_red),
                ids(&g.due_black)
            );
            if !g.floaters_in.is_empty() {
                let _ = write!(out, " in [{}]", ids(&g.floaters_in));
            }
            if !g.floaters_out.is_empty() {
                let _ = write!(out, " out [{}]", ids(&g.floaters_out));
            }
            let _ = writeln!(out);
        }
        for f in &self.floaters {
            let _ = writeln!(
                out,
                "Floater {} ({}) meets {} ({}): {}",
                f.start_no, f.points, f.opponent, f.opponent_points, f.reason
            );
        }
        for b in &self.boards {
            let _ = write!(
                out,
                "Board {:>3}: {} ({}) - {} ({}) [{:?}]",
                b.board, b.red, b.red_points, b.black, b.black_points, b.decision
            );
            if !b.unmet_preferences.is_empty() {
                let _ = write!(out, " preference not met: {}", ids(&b.unmet_preferences));
            }
            let _ = writeln!(out);
        }
        if let Some(bye) = &self.bye {
            let _ = writeln!(
                out,
                "Bye: {} ({}): {}",
                bye.start_no, bye.points, bye.reason
            );
        }
        for r in &self.relaxed {
            let _ = writeln!(
                out,
                "Relaxed: board {} player {} rule {}",
                r.board, r.start_no, r.rule
            );
        }
        out
    }
}
