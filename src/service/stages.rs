//! Stages that overlap (issue #40, README "Stages that overlap"): a section's format, set by
//! its arbiters, and what it changes when a round is paired. AXF (`knockout_after_round`): the
//! knockout is seeded from the standings after round r (`knockout::create`), and its qualifiers
//! are left out of every Swiss round from r + 1. WXF (`final_last_round`): when the last round
//! is paired, the top two after round n − 1 play a final on board 1 and the engine pairs the
//! others; if they have met already, no final is formed and the round is paired normally. The
//! final places (`knockout::final_ranking`) put the knockout's or the final's places first.
//! The core (`arbiter_core::stages`) decides who qualifies, who is left out, the colours and the
//! places; this module loads, stores and audits.

use super::access::{self, Change, Need};
use super::check::Check;
use super::state::SectionState;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::stage::StageRow;
use crate::i18n::messages as m;
use crate::vocab::{EntrantStatus, FinalColourRule, PairingSystem, StageFormat};
use arbiter_core::model::Side;
use arbiter_core::stages::{self as core, FinalColours, FinalPlan};
use rand_chacha::rand_core::RngCore as _;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// A section's stages as the API shows and takes them.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StagesInput {
    /// `swiss` (default: a knockout only after the last round), `knockout_after_round` (AXF:
    /// the top `qualifiers` after round `after_round` play a knockout while the others go on
    /// with the Swiss) or `final_last_round` (WXF: the top two after round n − 1 play a final
    /// as their round-n game on board 1).
    pub format: String,
    /// AXF: the round after whose standings the knockout is seeded (1 to n − 1).
    #[serde(default)]
    pub after_round: Option<i64>,
    /// AXF: how many qualify (a power of two, 2–64; default 4).
    #[serde(default)]
    pub qualifiers: Option<i64>,
    /// WXF: Red in the final by `lot` (default), `higher_seed` (the leader after round n − 1)
    /// or `swiss` (the Swiss colour rules).
    #[serde(default)]
    pub final_colours: Option<String>,
}

/// A last-round final as paired.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct FinalView {
    /// Red.
    pub red: Uuid,
    /// Black.
    pub black: Uuid,
}

/// A section's stages and where they stand.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StagesView {
    /// `swiss`, `knockout_after_round` or `final_last_round`.
    pub format: StageFormat,
    /// AXF: the round after whose standings the knockout is seeded.
    pub after_round: Option<i32>,
    /// AXF: how many qualify.
    pub qualifiers: Option<i32>,
    /// WXF: who has Red in the final.
    pub final_colours: FinalColourRule,
    /// The section's rounds.
    pub rounds: i32,
    /// AXF: the knockout's entrants, left out of the Swiss from round `after_round` + 1 (empty
    /// until the knockout is seeded).
    pub left_out: Vec<Uuid>,
    /// WXF: the final, once the last round is paired with one.
    #[serde(rename = "final")]
    pub final_game: Option<FinalView>,
    /// WXF: the last round was paired without a final because the top two had met.
    pub final_not_formed: bool,
    /// The settings may still change (the round they affect is not paired yet).
    pub editable: bool,
}

/// The round a format changes first (`None`: none).
fn first_affected(row: &StageRow, rounds: i32) -> Option<i32> {
    match row.stage_format {
        StageFormat::Swiss => None,
        StageFormat::KnockoutAfterRound => row.stage_after_round.map(|r| r + 1),
        StageFormat::FinalLastRound => Some(rounds),
    }
}

async fn view_in(conn: &mut PgConnection, section_id: Uuid) -> Result<StagesView> {
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let row = db::stage::get(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let rounds = db::round::list(&mut *conn, section_id).await?;
    let left_out = if row.stage_format == StageFormat::KnockoutAfterRound {
        knockout_entrants(conn, section_id).await?
    } else {
        Vec::new()
    };
    let (final_game, final_not_formed) = match rounds.iter().find(|r| r.number == section.rounds) {
        Some(last) if row.stage_format == StageFormat::FinalLastRound => {
            let stage = &last.pairing_report["stages"];
            (
                serde_json::from_value(stage["final"].clone()).ok(),
                stage["final_not_formed"].as_bool().unwrap_or(false),
            )
        }
        _ => (None, false),
    };
    let paired = rounds.len() as i32;
    // Editable until the round it changes is paired, and not once a knockout is seeded
    // under it.
    let seeded = row.stage_format == StageFormat::KnockoutAfterRound && !left_out.is_empty();
    let editable = !seeded && first_affected(&row, section.rounds).is_none_or(|r| paired < r);
    Ok(StagesView {
        format: row.stage_format,
        after_round: row.stage_after_round,
        qualifiers: row.stage_qualifiers,
        final_colours: row.final_colours,
        rounds: section.rounds,
        left_out,
        final_game,
        final_not_formed,
        editable,
    })
}

/// A section's stages.
pub async fn get(pool: &PgPool, section_id: Uuid) -> Result<StagesView> {
    let mut conn = pool.acquire().await?;
    view_in(&mut conn, section_id).await
}

/// Sets a section's stages (the tournament's arbiters; audited). Refused once a round either
/// the old or the new format changes is paired, and while a knockout seeded under the old
/// format exists.
pub async fn set(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    input: &StagesInput,
) -> Result<StagesView> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let before = db::stage::get(&mut *tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let mut check = Check::new();
    let format = check.word(
        "format",
        &input.format,
        StageFormat::ALL,
        StageFormat::Swiss,
    );
    let final_colours = check.word(
        "final_colours",
        input.final_colours.as_deref().unwrap_or("lot"),
        FinalColourRule::ALL,
        FinalColourRule::Lot,
    );
    if format != StageFormat::Swiss && section.pairing_system == PairingSystem::RoundRobin {
        check.error("format", m::CHECK_STAGE_ROUND_ROBIN.msg());
    }
    let (mut after_round, mut qualifiers) = (None, None);
    match format {
        StageFormat::KnockoutAfterRound => {
            let last = i64::from(section.rounds) - 1;
            match input.after_round {
                Some(r) if (1..=last).contains(&r) => after_round = Some(r as i32),
                _ => check.error(
                    "after_round",
                    m::CHECK_STAGE_AFTER_ROUND.with(&[&last.max(1)]),
                ),
            }
            let q = input.qualifiers.unwrap_or(4);
            if !(2..=64).contains(&q) || (q & (q - 1)) != 0 {
                check.error("qualifiers", m::CHECK_MUST_POWER_TWO_FROM.msg());
            } else {
                qualifiers = Some(q as i32);
            }
        }
        StageFormat::FinalLastRound if section.rounds < 2 => {
            check.error("format", m::CHECK_STAGE_FINAL_ROUNDS.msg());
        }
        _ => {}
    }
    check.finish()?;
    let row = StageRow {
        stage_format: format,
        stage_after_round: after_round,
        stage_qualifiers: qualifiers,
        final_colours,
    };
    if row != before {
        let paired = db::round::list(&mut *tx, section_id).await?.len() as i32;
        for affected in [
            first_affected(&before, section.rounds),
            first_affected(&row, section.rounds),
        ]
        .into_iter()
        .flatten()
        {
            if paired >= affected {
                return Err(Error::conflict(
                    m::STATE_STAGE_SETTINGS_LOCKED.with(&[&affected]),
                ));
            }
        }
        if before.stage_format == StageFormat::KnockoutAfterRound
            && db::knockout::bracket_of_section(&mut *tx, section_id)
                .await?
                .is_some()
        {
            return Err(Error::conflict(m::STATE_SECTION_ALREADY_HAS_KNOCKOUT.msg()));
        }
        db::stage::put(&mut *tx, section_id, &row).await?;
        access::audit(
            &mut tx,
            section.tournament_id,
            Some(actor),
            Change {
                action: "stages",
                entity: "section",
                entity_id: Some(section_id),
                before: Some(json!({
                    "format": before.stage_format, "after_round": before.stage_after_round,
                    "qualifiers": before.stage_qualifiers, "final_colours": before.final_colours,
                })),
                after: Some(json!({
                    "format": row.stage_format, "after_round": row.stage_after_round,
                    "qualifiers": row.stage_qualifiers, "final_colours": row.final_colours,
                })),
            },
        )
        .await?;
    }
    let out = view_in(&mut tx, section_id).await?;
    tx.commit().await?;
    Ok(out)
}

/// The entrants of a section's knockout (its first round's players), in seed order.
async fn knockout_entrants(conn: &mut PgConnection, section_id: Uuid) -> Result<Vec<Uuid>> {
    let Some(bracket) = db::knockout::bracket_of_section(&mut *conn, section_id).await? else {
        return Ok(Vec::new());
    };
    let mut seeded: Vec<(i32, Uuid)> = db::knockout::matches(&mut *conn, bracket.bracket_id)
        .await?
        .into_iter()
        .filter(|m| m.round == 1 && !m.third_place)
        .flat_map(|m| {
            [
                m.high_seed.zip(m.high_entrant_id),
                m.low_seed.zip(m.low_entrant_id),
            ]
        })
        .flatten()
        .collect();
    seeded.sort();
    Ok(seeded.into_iter().map(|(_, id)| id).collect())
}

/// What a format decided for the round being paired.
#[derive(Debug, Default, Serialize)]
pub struct Plan {
    /// Entrants left out of the engine's pairing (AXF qualifiers, WXF finalists).
    pub left_out: Vec<Uuid>,
    /// The final on board 1 (WXF).
    #[serde(rename = "final", skip_serializing_if = "Option::is_none")]
    pub final_game: Option<FinalView>,
    /// The top two had met: no final, the round paired normally (WXF).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub final_not_formed: bool,
}

impl Plan {
    /// Nothing to say in the pairing report.
    pub fn is_empty(&self) -> bool {
        self.left_out.is_empty() && !self.final_not_formed
    }
}

/// Before the engine pairs round `number`: leaves the format's entrants out of `state`'s
/// pairing input and says what else the round gets (the final on board 1). AXF: from round
/// r + 1 the knockout must be seeded (409 otherwise). WXF: in the last round, the standings
/// after round n − 1 (with the arbiter's tie decisions; a tie across second place is refused
/// like the knockout cut-off) give the top two of those to be paired.
pub async fn before_pairing(
    conn: &mut PgConnection,
    state: &mut SectionState,
    number: i32,
) -> Result<Plan> {
    let section_id = state.section.section_id;
    let row = db::stage::get(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let mut plan = Plan::default();
    match row.stage_format {
        StageFormat::Swiss => {}
        StageFormat::KnockoutAfterRound => {
            let after = row.stage_after_round.unwrap_or(i32::MAX);
            if number <= after {
                return Ok(plan);
            }
            let entrants = knockout_entrants(conn, section_id).await?;
            if entrants.is_empty() {
                return Err(Error::conflict(m::STATE_STAGE_KNOCKOUT_NOT_SEEDED.with(&[
                    &number,
                    &row.stage_qualifiers.unwrap_or(4),
                    &after,
                ])));
            }
            leave_out(state, number, &entrants);
            plan.left_out = entrants;
        }
        StageFormat::FinalLastRound => {
            if number != state.section.rounds {
                return Ok(plan);
            }
            let decided = super::ties::standings(conn, state.section.clone()).await?;
            let to_pair = arbiter_core::pairing::entrants_to_pair(&state.tournament, number as u32);
            let order: Vec<(Uuid, u32)> = decided
                .order
                .iter()
                .filter(|p| {
                    state.entrant(p.entrant_id).is_some_and(|e| {
                        e.status == EntrantStatus::Active
                            && state
                                .start_no
                                .get(&e.entrant_id)
                                .is_some_and(|no| to_pair.contains(no))
                    })
                })
                .map(|p| (p.entrant_id, p.rank))
                .collect();
            let record = |id: Uuid| {
                state
                    .start_no
                    .get(&id)
                    .and_then(|no| state.tournament.entrants.iter().find(|e| e.start_no == *no))
            };
            let met = |a: Uuid, b: Uuid| {
                let other = state.start_no.get(&b).copied();
                record(a).is_some_and(|e| {
                    e.rounds
                        .iter()
                        .any(|r| r.opponent.is_some() && r.opponent == other)
                })
            };
            match core::final_pair(&order, met) {
                FinalPlan::TooFew => {}
                FinalPlan::Tied(tied) => {
                    return Err(decided.refuse(m::TIE_FINAL_CUT_OFF.msg(), &tied));
                }
                FinalPlan::AlreadyMet { .. } => plan.final_not_formed = true,
                FinalPlan::Final { high, low } => {
                    let colours = |id: Uuid| -> Vec<Option<Side>> {
                        record(id).map_or_else(Vec::new, |e| {
                            e.rounds
                                .iter()
                                .map(|r| r.colour.filter(|_| r.result.is_played()))
                                .collect()
                        })
                    };
                    let rule = match row.final_colours {
                        FinalColourRule::Lot => FinalColours::Lot,
                        FinalColourRule::HigherSeed => FinalColours::HigherSeed,
                        FinalColourRule::Swiss => FinalColours::Swiss,
                    };
                    let lot = rand_core::OsRng.next_u32() & 1 == 0;
                    let (red, black) = if core::leader_red(rule, &colours(high), &colours(low), lot)
                    {
                        (high, low)
                    } else {
                        (low, high)
                    };
                    leave_out(state, number, &[high, low]);
                    plan.left_out = vec![high, low];
                    plan.final_game = Some(FinalView { red, black });
                }
            }
        }
    }
    Ok(plan)
}

fn leave_out(state: &mut SectionState, number: i32, ids: &[Uuid]) {
    let nos: Vec<u32> = ids
        .iter()
        .filter_map(|id| state.start_no.get(id).copied())
        .collect();
    core::leave_out(&mut state.tournament, number as u32, &nos);
}

/// The report's words for the plan (`report["stages"]`).
pub fn report(plan: &Plan) -> serde_json::Value {
    serde_json::to_value(plan).unwrap_or(serde_json::Value::Null)
}

/// The final of a section's last round as paired (WXF), from its pairing report.
pub fn final_of(report: &serde_json::Value) -> Option<FinalView> {
    serde_json::from_value(report["stages"]["final"].clone()).ok()
}

/// The entrants a round's pairing left out for its stages (from its pairing report).
pub fn left_out_of(report: &serde_json::Value) -> std::collections::HashSet<Uuid> {
    report["stages"]["left_out"]
        .as_array()
        .map(|ids| {
            ids.iter()
                .filter_map(|id| id.as_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}
