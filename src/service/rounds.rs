//! Swiss rounds: pair the next round with the section's system, show, publish, unpair, and
//! enter results (with the foul rule).

use super::access::{self, Change, Need};
use super::state::{self, SectionState};
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::i18n::messages as m;
use crate::i18n::Msg;
use crate::vocab::{Game, GameResult, PairingSystem, RoundStatus, SectionStatus, SetupMode};
use arbiter_core::model::Side;
use arbiter_core::pairing::{self, PairingError, RoundPairing};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

/// One side of a board.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardSide {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// Points before this round (the pairing sheet's score group).
    pub points: f64,
}

/// A board as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardView {
    /// Board id (for result entry).
    pub id: Uuid,
    /// Board number.
    pub number: i32,
    /// Red (moves first).
    pub red: BoardSide,
    /// Black; `null` for a pairing-allocated bye.
    pub black: Option<BoardSide>,
    /// Result; `null` until entered (and for a bye).
    pub result: Option<GameResult>,
    /// Fouls of Red in this game.
    pub red_fouls: i64,
    /// Fouls of Black in this game.
    pub black_fouls: i64,
    /// Version of the result, for `If-Match`.
    pub version: Option<i32>,
}

/// An entrant who is not on a board this round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Absence {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// `half`, `zero` or `full` (requested byes); `absent` otherwise.
    pub kind: String,
}

/// A round as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundView {
    /// Round number.
    pub number: i32,
    /// Paired, published or completed.
    pub status: RoundStatus,
    /// Boards in board order; the bye last.
    pub boards: Vec<BoardView>,
    /// Entrants not paired this round.
    pub absences: Vec<Absence>,
    /// Why this pairing (score groups, floaters, colours); arbiters only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<Value>,
    /// Version of the round (its status and boards), for compare-and-set of a manual edit.
    pub version: i32,
}

fn side(state: &SectionState, id: Uuid, round: i32) -> BoardSide {
    let e = state.entrant(id);
    let start_no = e.and_then(|e| e.start_no);
    let points = start_no
        .and_then(|no| u32::try_from(no).ok())
        .and_then(|no| state.tournament.entrant(no))
        .map_or(0, |core| {
            core.points_after(&state.tournament.scoring, (round.max(1) - 1) as u32)
                .tenths()
        });
    BoardSide {
        entrant_id: id,
        start_no,
        name: e.map(|e| e.name.clone()).unwrap_or_default(),
        points: points as f64 / 10.0,
    }
}

/// Builds the view of round `number` from a loaded state.
pub fn round_view(state: &SectionState, number: i32, with_report: bool) -> Result<RoundView> {
    let round = state
        .rounds
        .iter()
        .find(|r| r.number == number)
        .ok_or(Error::NotFound(m::NOT_FOUND_ROUND))?;
    let boards: Vec<BoardView> = state
        .boards
        .iter()
        .filter(|b| b.round == number)
        .map(|b| BoardView {
            id: b.board_id,
            number: b.number,
            red: side(state, b.red_entrant_id, number),
            black: b.black_entrant_id.map(|id| side(state, id, number)),
            result: b.result,
            red_fouls: b.red_fouls,
            black_fouls: b.black_fouls,
            version: b.version,
        })
        .collect();
    let on_board: std::collections::HashSet<Uuid> = boards
        .iter()
        .flat_map(|b| {
            std::iter::once(b.red.entrant_id).chain(b.black.as_ref().map(|s| s.entrant_id))
        })
        .collect();
    // A knockout's qualifiers left out of the Swiss (issue #40) are not absent.
    let left_out = super::stages::left_out_of(&round.pairing_report);
    let absences = state
        .tournament
        .entrants
        .iter()
        .filter_map(|e| {
            let row = state.entrant_by_no(e.start_no)?;
            if on_board.contains(&row.entrant_id)
                || row.joined_round > number
                || left_out.contains(&row.entrant_id)
            {
                return None;
            }
            let kind = match e.round(number as u32).map(|r| r.result) {
                Some(arbiter_core::model::ResultCode::HalfBye) => "half",
                Some(arbiter_core::model::ResultCode::FullBye) => "full",
                _ => "absent",
            };
            Some(Absence {
                entrant_id: row.entrant_id,
                start_no: row.start_no,
                name: row.name.clone(),
                kind: kind.into(),
            })
        })
        .collect();
    Ok(RoundView {
        number,
        status: round.status,
        boards,
        absences,
        report: with_report.then(|| round.pairing_report.clone()),
        version: round.version,
    })
}

/// Runs the section's pairing system: the pairing and its report.
fn run_engine(state: &SectionState, game: Game) -> Result<(RoundPairing, Value)> {
    let t = &state.tournament;
    let system = match state.section.pairing_system {
        PairingSystem::Dutch => pairing::System::Dutch(pairing::dutch::DutchOptions {
            forfeit_counts_as_met: state.section.forfeit_counts_as_met,
            ..pairing::dutch::DutchOptions::default()
        }),
        PairingSystem::RoundRobin => pairing::System::RoundRobin {
            double: pairing::round_robin::is_double(
                t.entrants.len(),
                state.section.rounds.max(0) as usize,
            ),
        },
        PairingSystem::Chinese => pairing::System::Chinese(pairing::chinese::ChineseOptions {
            forfeit_counts_as_met: state.section.forfeit_counts_as_met,
            avoid_same_club: state.section.avoid_same_club,
            first_board_colour: Some(if state.section.first_board_red {
                Side::Red
            } else {
                Side::Black
            }),
            tie_order: None,
            moves_first_naming: game == Game::Banqi,
        }),
    };
    let started = std::time::Instant::now();
    let outcome = pairing::pair(t, &system);
    crate::metrics::metrics().paired(
        match &system {
            pairing::System::Dutch(_) => "dutch",
            pairing::System::Chinese(_) => "chinese",
            pairing::System::RoundRobin { .. } => "round_robin",
        },
        started.elapsed(),
    );
    let outcome = outcome.map(|paired| {
        let report = match (&system, paired.report) {
            (pairing::System::Dutch(_), _) => json!({"system": "dutch", "edition": "2025"}),
            (pairing::System::RoundRobin { .. }, _) => json!({"system": "round_robin"}),
            (pairing::System::Chinese(_), report) => json!({
                "system": "chinese",
                "details": serde_json::to_value(&report).unwrap_or(Value::Null),
            }),
        };
        (paired.pairing, report)
    });
    outcome.map_err(|e| match e {
        PairingError::NoValidPairing { reason } => {
            Error::conflict(m::STATE_NO_LEGAL_PAIRING_EXISTS.with(&[&reason]))
        }
        PairingError::InvalidState(reason) => {
            Error::Internal(format!("inconsistent section state: {reason}"))
        }
    })
}

/// Pairs the next round of a section (409 while the previous round has boards without a
/// result, or when every round is paired). One transaction: the round is stored whole or not
/// at all.
pub async fn pair_next(pool: &PgPool, actor: &Actor, section_id: Uuid) -> Result<RoundView> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let tournament = db::tournament::find(&mut *tx, section.tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    if section.status == SectionStatus::Cancelled {
        return Err(Error::conflict(m::STATE_SECTION_CANCELLED.msg()));
    }
    let rounds = db::round::list(&mut *tx, section_id).await?;
    if let Some(last) = rounds.last() {
        let open = db::round::open_games(&mut *tx, last.round_id).await?;
        if open == 0 && last.status != RoundStatus::Completed {
            // Results settle their round in their own transactions, but a round without a
            // game (byes only) has no result to do it: the section is ours alone now, so
            // settle it here.
            db::round::settle(&mut *tx, last.round_id).await?;
        }
        if open > 0 {
            return Err(Error::conflict(
                m::STATE_ROUND_STILL_HAS_BOARD.with(&[&last.number, &open]),
            ));
        }
    }
    if rounds.len() as i32 >= section.rounds {
        return Err(Error::conflict(
            m::STATE_ALL_ROUNDS_SECTION_ARE.with(&[&section.rounds]),
        ));
    }
    let number = rounds.len() as i32 + 1;
    if number == 1 {
        // The numbers as they stand: never renumbered here (issue #39 item 6).
        super::numbering::check_round_one(&mut tx, &section).await?;
    }
    let mut section = section;
    if number == 1 {
        fix_rounds_by_entries(&mut tx, actor, &mut section).await?;
    }
    // The absence rule (issue 36): who is absent without notice from N rounds is withdrawn
    // from this round on, before the state is loaded.
    let absent = super::absences::withdraw_before_pairing(&mut tx, actor, &section, number).await?;
    let mut state = state::load(&mut tx, section, true).await?;
    // Overlapping stages (issue #40): a knockout's qualifiers, or the last round's finalists,
    // are left out of the engine's input; the final goes on board 1.
    let stages = super::stages::before_pairing(&mut tx, &mut state, number).await?;
    let to_pair = pairing::entrants_to_pair(&state.tournament, number as u32);
    if to_pair.len() < 2 && stages.final_game.is_none() {
        return Err(Error::conflict(m::STATE_LEAST_TWO_ENTRANTS_MUST.msg()));
    }
    let (pairing, mut report) = if to_pair.is_empty() {
        (pairing::RoundPairing::default(), json!({}))
    } else {
        run_engine(&state, tournament.game)?
    };
    if !absent.is_empty() {
        report["withdrawn_for_absence"] = json!(absent);
    }
    if !stages.is_empty() {
        report["stages"] = super::stages::report(&stages);
    }
    let id_of = |no: u32| state.entrant_by_no(no).map(|e| e.entrant_id);
    let mut boards: Vec<(i32, Uuid, Option<Uuid>)> = Vec::with_capacity(pairing.boards.len() + 2);
    if let Some(f) = &stages.final_game {
        boards.push((1, f.red, Some(f.black)));
    }
    for b in &pairing.boards {
        let (Some(red), Some(black)) = (id_of(b.red), id_of(b.black)) else {
            return Err(Error::Internal(
                "the engine paired an unknown starting number".into(),
            ));
        };
        boards.push((boards.len() as i32 + 1, red, Some(black)));
    }
    if let Some(bye) = pairing.bye {
        let red = id_of(bye).ok_or_else(|| {
            Error::Internal("the engine gave the bye to an unknown number".into())
        })?;
        boards.push((boards.len() as i32 + 1, red, None));
    }
    // The round's original boards: the final (WXF) first, then the engine's.
    let mut pairing = pairing;
    if let Some(f) = &stages.final_game {
        if let (Some(&red), Some(&black)) =
            (state.start_no.get(&f.red), state.start_no.get(&f.black))
        {
            pairing.boards.insert(0, pairing::Board { red, black });
        }
    }
    let engine_pairing = serde_json::to_value(&pairing).unwrap_or(Value::Null);
    let round_id =
        db::round::insert(&mut *tx, section_id, number, &report, &engine_pairing).await?;
    db::round::insert_boards(&mut tx, round_id, &boards).await?;
    if state.section.entry_type == crate::vocab::EntryType::Team {
        // A team match's games, one per board, with the line-ups' players (issue #41).
        super::team_matches::seat_round(&mut tx, &state.section, round_id, number).await?;
    }
    super::setups::create_for_round(
        &mut tx,
        section_id,
        state.section.setup_mode,
        tournament.game,
        round_id,
    )
    .await?;
    let section = state.section.clone();
    let state = state::load(&mut tx, section, false).await?;
    let view = round_view(&state, number, true)?;
    access::audit(
        &mut tx,
        state.section.tournament_id,
        Some(actor),
        Change {
            action: "pair",
            entity: "round",
            entity_id: Some(round_id),
            before: None,
            after: Some(json!({"number": number, "pairing": engine_pairing})),
        },
    )
    .await?;
    // The section and the event are running now (audited after the pairing they follow).
    super::tournaments::follow_progress(
        &mut tx,
        Some(actor),
        section_id,
        super::tournaments::Progress::Paired,
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}

/// A section's state, and whether `actor` may see its private parts (drafts, the report).
async fn load_as(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
) -> Result<(SectionState, bool)> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let private = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    Ok((state::load(&mut conn, section, false).await?, private))
}

/// One round; the pairing report only for the section's arbiters.
pub async fn get(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
    number: i32,
) -> Result<RoundView> {
    let (state, private) = load_as(pool, actor, section_id).await?;
    let view = round_view(&state, number, private)?;
    if !private && view.status == RoundStatus::Paired {
        // A paired round is the arbiters' draft until they publish it.
        return Err(Error::NotFound(m::NOT_FOUND_ROUND));
    }
    Ok(view)
}

/// Who changed a round's boards by hand after the engine paired it, and when (UTC), oldest
/// first: the pairing report marks its boards as no longer the engine's (issue #39 item 2).
pub async fn hand_edits(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    number: i32,
) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut conn, actor, section.tournament_id, Need::Scorer).await?;
    let round = db::round::find(&mut *conn, section_id, number)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ROUND))?;
    Ok(db::audit::actions_on(&mut *conn, "round", round.round_id, "edit_pairing").await?)
}

/// The rounds `actor` may see: all of them for the section's arbiters and scorers; for
/// everyone else only published and completed ones, since a paired round is a draft the
/// arbiters may still change or unpair.
pub async fn list_visible(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
) -> Result<Vec<RoundView>> {
    let (state, private) = load_as(pool, actor, section_id).await?;
    state
        .rounds
        .iter()
        .filter(|r| private || r.status != RoundStatus::Paired)
        .map(|r| round_view(&state, r.number, false))
        .collect()
}

/// The numbers of the rounds `actor` may see (drafts only for the section's arbiters), as
/// [`list_visible`] lists them, without loading any board: what a section's tabs link to.
pub async fn visible_numbers(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
) -> Result<Vec<i32>> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let private = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    Ok(db::round::list(&mut *conn, section_id)
        .await?
        .into_iter()
        .filter(|r| private || r.status != RoundStatus::Paired)
        .map(|r| r.number)
        .collect())
}

/// Every round of a section, drafts included (for the arbiters' own pages).
pub async fn list(pool: &PgPool, section_id: Uuid) -> Result<Vec<RoundView>> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let state = state::load(&mut conn, section, false).await?;
    state
        .rounds
        .iter()
        .map(|r| round_view(&state, r.number, false))
        .collect()
}

/// Deletes the last round (unpair). Refuses while it has results unless `force`.
pub async fn delete_last(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    number: i32,
    force: bool,
) -> Result<()> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let rounds = db::round::list(&mut *tx, section_id).await?;
    let last = rounds.last().ok_or(Error::NotFound(m::NOT_FOUND_ROUND))?;
    if last.number != number {
        return Err(Error::conflict(
            m::STATE_ONLY_LAST_ROUND_CAN.with(&[&last.number]),
        ));
    }
    let results = if section.entry_type == crate::vocab::EntryType::Team {
        // An empty seat's forfeit came with the pairing, not from a result (issue #41).
        db::team::results_entered(&mut *tx, last.round_id).await?
    } else {
        db::round::results_entered(&mut *tx, last.round_id).await?
    };
    if results > 0 && !force {
        return Err(Error::conflict(
            m::STATE_ROUND_HAS_RESULT_S.with(&[&number, &results]),
        ));
    }
    let state = state::load(&mut tx, section.clone(), false).await?;
    let before = serde_json::to_value(round_view(&state, number, true)?).ok();
    db::round::delete(&mut *tx, last.round_id).await?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "unpair",
            entity: "round",
            entity_id: Some(last.round_id),
            before,
            after: None,
        },
    )
    .await?;
    super::tournaments::follow_progress(
        &mut tx,
        Some(actor),
        section_id,
        super::tournaments::Progress::Settled,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Publishes a paired round (players may now see it as final).
pub async fn publish(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    number: i32,
) -> Result<RoundView> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let round = db::round::find(&mut *tx, section_id, number)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ROUND))?;
    if round.status == RoundStatus::Paired {
        db::round::set_status(&mut *tx, round.round_id, RoundStatus::Published).await?;
        access::audit(
            &mut tx,
            section.tournament_id,
            Some(actor),
            Change {
                action: "publish",
                entity: "round",
                entity_id: Some(round.round_id),
                before: Some(json!({"status": RoundStatus::Paired})),
                after: Some(json!({"status": RoundStatus::Published})),
            },
        )
        .await?;
    }
    let state = state::load(&mut tx, section, false).await?;
    let view = round_view(&state, number, true)?;
    tx.commit().await?;
    Ok(view)
}

/// A result to record.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultInput {
    /// `red_wins`, `black_wins`, `draw`, `red_forfeits`, `black_forfeits` or `double_forfeit`.
    pub result: String,
    /// Fouls of Red in this game (default 0).
    pub red_fouls: Option<i64>,
    /// Fouls of Black in this game (default 0).
    pub black_fouls: Option<i64>,
    /// The version last read (alternative to the `If-Match` header).
    pub version: Option<i32>,
}

/// What was recorded.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ResultOutcome {
    /// Board.
    pub board_id: Uuid,
    /// Result that counts (after the foul rule).
    pub result: GameResult,
    /// Result as entered.
    pub reported_result: GameResult,
    /// Fouls of Red.
    pub red_fouls: i64,
    /// Fouls of Black.
    pub black_fouls: i64,
    /// Whether the foul rule changed the result.
    pub converted: bool,
    /// Explanation of the conversion, if any.
    pub message: Option<String>,
    /// New version (send it back with the next change).
    pub version: i32,
    /// Every board of the round now has a result.
    pub round_completed: bool,
}

/// The foul rule (SPEC §5): a side reaching the threshold in one game loses it; both → both lose.
pub fn apply_foul_rule(
    reported: GameResult,
    red_fouls: i64,
    black_fouls: i64,
    threshold: i64,
) -> (GameResult, Option<String>) {
    let red_out = red_fouls >= threshold;
    let black_out = black_fouls >= threshold;
    let converted = match (red_out, black_out) {
        (true, true) => GameResult::DoubleLoss,
        (true, false) => GameResult::BlackWins,
        (false, true) => GameResult::RedWins,
        (false, false) => return (reported, None),
    };
    if converted == reported {
        return (reported, None);
    }
    let why = match converted {
        GameResult::DoubleLoss => {
            format!("both sides reached {threshold} fouls: the game is lost by both")
        }
        GameResult::BlackWins => format!("Red reached {threshold} fouls: the game is lost by Red"),
        _ => format!("Black reached {threshold} fouls: the game is lost by Black"),
    };
    (converted, Some(why))
}

/// A result as entered, checked: the result and both sides' fouls.
pub(crate) fn checked_result(input: &ResultInput) -> Result<(GameResult, i64, i64)> {
    let mut check = super::check::Check::new();
    let reported = check.word(
        "result",
        &input.result,
        GameResult::ENTERED,
        GameResult::Draw,
    );
    let red_fouls = input.red_fouls.unwrap_or(0);
    let black_fouls = input.black_fouls.unwrap_or(0);
    check.range("red_fouls", red_fouls, 0, 99);
    check.range("black_fouls", black_fouls, 0, 99);
    if reported.is_forfeit() && (red_fouls > 0 || black_fouls > 0) {
        check.error("result", m::CHECK_FORFEITED_GAME_HAS_NO.msg());
    }
    check.finish()?;
    Ok((reported, red_fouls, black_fouls))
}

/// Records (or corrects) the result of a board. A stale `expected_version` is rejected with
/// 409; the foul rule may turn the result into a loss, which the answer says.
pub async fn set_result(
    pool: &PgPool,
    actor: &Actor,
    board_id: Uuid,
    input: &ResultInput,
    expected_version: Option<i32>,
) -> Result<ResultOutcome> {
    let (reported, red_fouls, black_fouls) = checked_result(input)?;

    // No transaction: the result is stored by one statement that checks nothing it was
    // computed from has changed and settles the round when it may (`db::round::store_result`),
    // so the hot path is two round trips (board, store) besides the caller's session.
    let mut conn = pool.acquire().await?;
    let board = known_board(&mut conn, board_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BOARD))?;
    access::require(&mut conn, actor, board.tournament_id, Need::Scorer).await?;
    let outcome = record_result(
        &mut conn,
        Some(actor),
        &board,
        &Entered {
            reported,
            red_fouls,
            black_fouls,
            expected: expected_version.or(input.version),
            via: "desk",
            // Whatever the players reported is settled by the desk's entry.
            resolution: "superseded",
        },
    )
    .await?;
    drop(conn);
    follow_last_round(pool, Some(actor), &board).await?;
    Ok(outcome)
}

/// Boards' contexts as this process last read or wrote them. A result is written only if
/// what it was computed from is still so (the game's version, the section's foul threshold
/// and number of rounds: `db::round::store_result`), and read again when not; the rest never
/// changes for a board (its round, section and tournament). So a desk's result costs one
/// round trip, not two, and another instance's writes cost a second one.
fn known_boards() -> &'static quick_cache::sync::Cache<Uuid, db::round::BoardContext> {
    static BOARDS: std::sync::OnceLock<quick_cache::sync::Cache<Uuid, db::round::BoardContext>> =
        std::sync::OnceLock::new();
    BOARDS.get_or_init(|| quick_cache::sync::Cache::new(100_000))
}

/// A board's context from [`known_boards`], else read with every board of its round (the
/// desks are about to enter those too).
async fn known_board(
    conn: &mut sqlx::PgConnection,
    board_id: Uuid,
) -> Result<Option<db::round::BoardContext>> {
    if let Some(board) = known_boards().get(&board_id) {
        return Ok(Some(board));
    }
    let mut found = None;
    for board in db::round::round_contexts(&mut *conn, board_id).await? {
        if board.board_id == board_id {
            found = Some(board.clone());
        }
        known_boards().insert(board.board_id, board);
    }
    Ok(found)
}

/// Reads a context again: a team match's game (issue #41) by its board of the match, else
/// the board's (and remembers it).
async fn refresh(
    conn: &mut sqlx::PgConnection,
    board: &db::round::BoardContext,
) -> Result<db::round::BoardContext> {
    match board.team_game {
        Some(number) => db::team::game_context(&mut *conn, board.board_id, number)
            .await?
            .ok_or(Error::NotFound(m::NOT_FOUND_GAME)),
        None => fresh_board(conn, board.board_id).await,
    }
}

/// Reads a board's context from the database, and remembers it.
async fn fresh_board(
    conn: &mut sqlx::PgConnection,
    board_id: Uuid,
) -> Result<db::round::BoardContext> {
    let board = db::round::board_context(&mut *conn, board_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BOARD))?;
    known_boards().insert(board_id, board.clone());
    Ok(board)
}

/// A checked result on its way into a game.
pub(crate) struct Entered<'a> {
    /// The result as entered or reported.
    pub reported: GameResult,
    /// Red's fouls.
    pub red_fouls: i64,
    /// Black's fouls.
    pub black_fouls: i64,
    /// The version the writer saw, if it says.
    pub expected: Option<i32>,
    /// Where it came from (`desk`, `self_report`), for the audit log.
    pub via: &'a str,
    /// How the players' open reports of the board are closed (`superseded`, `accepted`).
    pub resolution: &'a str,
}

/// How many times a result is recomputed when what it was computed from changed meanwhile
/// (another desk's entry of the same game without a version, a new foul threshold).
const RESULT_ATTEMPTS: usize = 5;

/// Records a result on `conn` (in the caller's transaction, or alone as one statement): the
/// foul rule with the section's threshold, compare-and-set on the game's version (the
/// writer's, if it says, else the one in `board`), the players' open reports closed, audit.
/// When the game or the section changed since `board` was read, it is read again and the
/// result recomputed. The round's status is settled with the result, in the same
/// transaction, when it may change (`db::round::store_result`): a crash after the commit
/// leaves no round with every result in and its status still open.
pub(crate) async fn record_result(
    conn: &mut sqlx::PgConnection,
    actor: Option<&Actor>,
    board: &db::round::BoardContext,
    entered: &Entered<'_>,
) -> Result<ResultOutcome> {
    let reported = entered.reported;
    let (red_fouls, black_fouls) = (entered.red_fouls, entered.black_fouls);
    let board_id = board.board_id;
    let mut board = board.clone();
    // Whether `board` was read from the database by this call (else it may be remembered).
    let mut fresh = false;
    for _ in 0..RESULT_ATTEMPTS {
        // A team match's results are its games' (issue #41), entered board by board.
        if board.team && board.team_game.is_none() {
            return Err(Error::conflict(m::TEAM_RESULT_PER_BOARD.msg()));
        }
        let Some(game_id) = board.game_id else {
            return Err(Error::conflict(m::STATE_BOARD_BYE_HAS_NO.msg()));
        };
        // A result never changes a round's publication: a paired round is the arbiters'
        // draft (a remembered context may predate its publication: read it again first).
        if board.round_status == RoundStatus::Paired {
            if !fresh {
                board = refresh(&mut *conn, &board).await?;
                fresh = true;
                continue;
            }
            return Err(Error::conflict(m::STATE_PUBLISH_ROUND_BEFORE_RESULTS.msg()));
        }
        let current = board.version.ok_or(Error::NotFound(m::NOT_FOUND_GAME))?;
        if let Some(expected) = entered.expected {
            if expected != current && !fresh {
                board = refresh(&mut *conn, &board).await?;
                fresh = true;
                continue;
            }
            if expected != current {
                return Err(Error::conflict(
                    m::STALE_RESULT.with(&[&current, &expected]),
                ));
            }
        }
        let (result, message) = apply_foul_rule(
            reported,
            red_fouls,
            black_fouls,
            i64::from(board.foul_threshold),
        );
        let action = if board.result.is_some() {
            "correct_result"
        } else {
            "result"
        };
        let audit = access::audit_event(
            board.tournament_id,
            actor,
            Change {
                action,
                entity: "game",
                entity_id: Some(game_id),
                before: board.result.as_ref().map(|r| {
                    json!({"result": r, "reported_result": board.reported_result, "version": current})
                }),
                after: Some(json!({
                    "result": result, "reported_result": reported, "red_fouls": red_fouls,
                    "black_fouls": black_fouls, "foul_rule": message, "via": entered.via,
                })),
            },
        );
        let stored = db::round::store_result(
            &mut *conn,
            db::round::StoredResult {
                game_id,
                section_id: board.section_id,
                round_id: board.round_id,
                foul_threshold: board.foul_threshold,
                section_rounds: board.section_rounds,
                expected: current,
                reported,
                result,
                red_fouls: red_fouls as i32,
                black_fouls: black_fouls as i32,
                resolution: entered.resolution,
            },
            &audit,
        )
        .await?;
        if let Some(stored) = stored {
            let outcome = ResultOutcome {
                board_id,
                converted: message.is_some(),
                result,
                reported_result: reported,
                red_fouls,
                black_fouls,
                message,
                version: stored.version,
                round_completed: stored.round_status == Some(RoundStatus::Completed),
            };
            if board.team_game.is_none() {
                known_boards().insert(
                    board_id,
                    db::round::BoardContext {
                        result: Some(outcome.result),
                        reported_result: Some(outcome.reported_result),
                        version: Some(stored.version),
                        ..board
                    },
                );
            }
            return Ok(outcome);
        }
        board = refresh(&mut *conn, &board).await?;
        fresh = true;
    }
    Err(Error::conflict(m::STALE_RESULT_BY_SOMEONE.msg()))
}

/// At round 1, a section with a table of rounds by entry count gets its number of rounds
/// from the entrants about to be paired (audited); the engines then pair for that many.
async fn fix_rounds_by_entries(
    tx: &mut sqlx::PgConnection,
    actor: &Actor,
    section: &mut db::section::SectionRow,
) -> Result<()> {
    let table: Vec<super::sections::RoundsByEntries> =
        serde_json::from_value(section.rounds_by_entries.clone()).unwrap_or_default();
    if table.is_empty() {
        return Ok(());
    }
    let probe = state::load(&mut *tx, section.clone(), true).await?;
    let entries =
        i32::try_from(pairing::entrants_to_pair(&probe.tournament, 1).len()).unwrap_or(i32::MAX);
    let rounds = super::sections::rounds_for(&table, entries)
        .ok_or_else(|| Error::conflict(m::CHECK_TABLE_ROUNDS_ENTRY_COUNT.with(&[&entries])))?;
    if rounds != section.rounds {
        db::section::set_rounds(&mut *tx, section.section_id, rounds).await?;
    }
    access::audit(
        &mut *tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "fix_rounds",
            entity: "section",
            entity_id: Some(section.section_id),
            before: Some(json!({"rounds": section.rounds})),
            after: Some(json!({"rounds": rounds, "entries": entries, "table": table})),
        },
    )
    .await?;
    section.rounds = rounds;
    Ok(())
}

/// After a result in a section's last round is settled: the section (and the event) finish
/// when it completed the round, and run again when a correction reopened it.
pub(crate) async fn follow_last_round(
    pool: &PgPool,
    actor: Option<&Actor>,
    board: &db::round::BoardContext,
) -> Result<()> {
    if board.round < board.section_rounds {
        return Ok(());
    }
    follow_settled(pool, actor, board.section_id).await
}

/// The section's (and the event's) status follows its rounds after a result, in a
/// transaction of its own under the section's lock (which orders it after any pairing or
/// unpairing of the section).
async fn follow_settled(pool: &PgPool, actor: Option<&Actor>, section_id: Uuid) -> Result<()> {
    let mut tx = pool.begin().await?;
    db::section::find_for_update(&mut tx, section_id).await?;
    super::tournaments::follow_progress(
        &mut tx,
        actor,
        section_id,
        super::tournaments::Progress::Settled,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Puts right what a server killed between a result's commit and its follow-up left behind
/// (run at start-up): published rounds with every result in (a server of an older version
/// settled after the commit) and sections whose status disagrees with their last round (the
/// section follows in a transaction of its own, [`follow_last_round`]). Returns how many
/// rounds and sections it settled.
pub async fn settle_interrupted(pool: &PgPool) -> Result<(u64, usize)> {
    let rounds = db::round::settle_out_of_step(pool).await?;
    let sections = db::section::out_of_step(pool).await?;
    for &section_id in &sections {
        follow_settled(pool, None, section_id).await?;
    }
    Ok((rounds, sections.len()))
}

/// One board of a manual pairing.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardInput {
    /// Red.
    pub red: Uuid,
    /// Black; `null` for the pairing-allocated bye.
    pub black: Option<Uuid>,
}

/// A manual re-pairing of a round.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ManualPairing {
    /// The boards in order (a bye at most once, placed last).
    pub boards: Vec<BoardInput>,
    /// Apply even though the checker lists broken rules.
    pub confirm: Option<bool>,
    /// The round's version last read; a stale one is refused with 409.
    pub version: Option<i32>,
}

/// A manual edit's outcome.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ManualOutcome {
    /// The round as it now stands.
    pub round: RoundView,
    /// Rules the edit breaks (accepted with `confirm`).
    pub warnings: Vec<String>,
}

/// Replaces the boards of a paired, unpublished round without results by the arbiter's own
/// pairing. The checker lists every rule it breaks (rematch, colours, bye, forbidden pair,
/// someone missing or twice); with any, the edit needs `confirm`. The engine's original stays
/// in the round and the audit log.
pub async fn edit(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    number: i32,
    input: &ManualPairing,
) -> Result<ManualOutcome> {
    use arbiter_core::pairing::check::{self, ByeRule, CheckOptions};
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let round = db::round::find(&mut *tx, section_id, number)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ROUND))?;
    if let Some(expected) = input.version {
        if expected != round.version {
            return Err(Error::conflict(
                m::STALE_ROUND.with(&[&round.version, &expected]),
            ));
        }
    }
    if round.status != RoundStatus::Paired {
        return Err(Error::conflict(
            m::STATE_ROUND_ONLY_PAIRED_UNPUBLISHED.with(&[&number, &round.status]),
        ));
    }
    if db::round::results_entered(&mut *tx, round.round_id).await? > 0 {
        return Err(Error::conflict(
            m::STATE_ROUND_HAS_RESULTS_UNPAIR.with(&[&number]),
        ));
    }
    let before_state = state::load(&mut tx, section.clone(), false).await?;
    let before = serde_json::to_value(round_view(&before_state, number, false)?).ok();
    let mut history = state::load_before(&mut tx, section.clone(), number).await?;
    // Entrants the round's stages left out (issue #40) and the edit leaves off the boards are
    // not missing from it.
    let on_boards: std::collections::HashSet<Uuid> = input
        .boards
        .iter()
        .flat_map(|b| std::iter::once(b.red).chain(b.black))
        .collect();
    let left_out: Vec<arbiter_core::model::StartNo> =
        super::stages::left_out_of(&round.pairing_report)
            .into_iter()
            .filter(|id| !on_boards.contains(id))
            .filter_map(|id| history.start_no.get(&id).copied())
            .collect();
    arbiter_core::stages::leave_out(&mut history.tournament, number as u32, &left_out);
    let mut check = super::check::Check::new();
    let mut proposed = RoundPairing::default();
    let no = |id: Uuid, check: &mut super::check::Check, field: &str| -> u32 {
        history.start_no.get(&id).copied().unwrap_or_else(|| {
            check.error(field, m::CHECK_NOT_ENTRANT_SECTION.with(&[&id]));
            0
        })
    };
    // Not a rule to confirm away either: one entrant cannot play two games at once.
    let mut seen = std::collections::HashSet::new();
    for (i, b) in input.boards.iter().enumerate() {
        for (side, id) in [("red", Some(b.red)), ("black", b.black)] {
            if let Some(id) = id {
                if !seen.insert(id) {
                    check.error(
                        &format!("boards[{i}].{side}"),
                        m::CHECK_ALREADY_ANOTHER_BOARD.msg(),
                    );
                }
            }
        }
    }
    for (i, b) in input.boards.iter().enumerate() {
        let red = no(b.red, &mut check, &format!("boards[{i}].red"));
        match b.black {
            // Not a rule to confirm away: a board needs two sides (the table refuses it).
            Some(black) if black == b.red => check.error(
                &format!("boards[{i}].black"),
                m::FORM_MUST_DIFFER_FROM_RED.msg(),
            ),
            Some(black) => {
                let black = no(black, &mut check, &format!("boards[{i}].black"));
                proposed.boards.push(pairing::Board { red, black });
            }
            None if proposed.bye.is_none() && i + 1 == input.boards.len() => {
                proposed.bye = Some(red)
            }
            None => check.error(
                &format!("boards[{i}].black"),
                m::CHECK_ONLY_ONE_BYE_LAST.msg(),
            ),
        }
    }
    if input.boards.is_empty() {
        check.error("boards", m::CHECK_GIVE_LEAST_ONE_BOARD.msg());
    }
    check.finish()?;
    let options = CheckOptions {
        forfeits_count_as_met: section.forfeit_counts_as_met,
        colour_limits: true,
        last_round_topscorer_exception: section.pairing_system == PairingSystem::Dutch,
        bye_rule: if section.pairing_system == PairingSystem::Dutch {
            ByeRule::Fide2025
        } else {
            ByeRule::OnePerEntrant
        },
    };
    let name = |n: StartNoLike| {
        history
            .entrant_by_no(n)
            .map_or_else(|| n.to_string(), |e| format!("{} ({n})", e.name))
    };
    let broken: Vec<Msg> = check::check(&history.tournament, &proposed, &options)
        .iter()
        .map(|v| m::STATE_PAIRING_RULE.msg().and(violation(v, name)))
        .collect();
    let warnings: Vec<String> = broken.iter().map(Msg::en).collect();
    if !warnings.is_empty() && input.confirm != Some(true) {
        let mut fields = super::FieldErrors::new();
        fields.insert("boards".into(), broken);
        return Err(Error::Invalid {
            message: m::STATE_PAIRING_BREAKS_RULE_S.with(&[&warnings.len()]),
            fields,
        });
    }
    let mut boards: Vec<(i32, Uuid, Option<Uuid>)> = input
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| (i as i32 + 1, b.red, b.black))
        .collect();
    boards.sort_by_key(|b| b.2.is_none());
    db::round::delete_boards(&mut *tx, round.round_id).await?;
    db::round::insert_boards(&mut tx, round.round_id, &boards).await?;
    if section.entry_type == crate::vocab::EntryType::Team {
        super::team_matches::seat_round(&mut tx, &section, round.round_id, round.number).await?;
    }
    db::round::bump_version(&mut *tx, round.round_id).await?;
    if section.setup_mode == SetupMode::PerBoard {
        // Per-board set-ups went with the old boards; the new boards get fresh ones.
        let tournament = db::tournament::find(&mut *tx, section.tournament_id)
            .await?
            .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
        super::setups::create_for_round(
            &mut tx,
            section_id,
            SetupMode::PerBoard,
            tournament.game,
            round.round_id,
        )
        .await?;
    }
    let after_state = state::load(&mut tx, section.clone(), false).await?;
    let view = round_view(&after_state, number, true)?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "edit_pairing",
            entity: "round",
            entity_id: Some(round.round_id),
            before,
            after: Some(json!({"boards": serde_json::to_value(&view.boards).ok(), "warnings": warnings, "engine": round.engine_pairing})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(ManualOutcome {
        round: view,
        warnings,
    })
}

type StartNoLike = arbiter_core::model::StartNo;

/// The checker's violation as a message, the entrants named by `name`.
fn violation(
    v: &arbiter_core::pairing::check::Violation,
    name: impl Fn(StartNoLike) -> String,
) -> Msg {
    use arbiter_core::pairing::check::{ColourBreach, Violation as V};
    match v {
        V::Rematch { a, b } => m::STATE_PAIRING_REMATCH.with(&[&name(*a), &name(*b)]),
        V::ForbiddenPair { a, b } => m::STATE_PAIRING_FORBIDDEN.with(&[&name(*a), &name(*b)]),
        V::ColourLimit {
            entrant,
            side,
            breach: ColourBreach::Difference(diff),
        } => {
            let text = match side {
                Side::Red => m::STATE_PAIRING_COLOUR_DIFFERENCE_RED,
                Side::Black => m::STATE_PAIRING_COLOUR_DIFFERENCE_BLACK,
            };
            text.with(&[&name(*entrant), &format!("{diff:+}")])
        }
        V::ColourLimit {
            entrant,
            side,
            breach: ColourBreach::ThreeInARow,
        } => {
            let text = match side {
                Side::Red => m::STATE_PAIRING_THREE_RED,
                Side::Black => m::STATE_PAIRING_THREE_BLACK,
            };
            text.with(&[&name(*entrant)])
        }
        V::IneligibleBye { entrant, result } => {
            m::STATE_PAIRING_INELIGIBLE_BYE.with(&[&name(*entrant), &result.trf_letter()])
        }
        V::ByeCount { bye: None } => m::STATE_PAIRING_BYE_NEEDED.msg(),
        V::ByeCount { bye: Some(b) } => m::STATE_PAIRING_BYE_EVEN.with(&[&name(*b)]),
        V::Unpaired { entrant } => m::STATE_PAIRING_UNPAIRED.with(&[&name(*entrant)]),
        V::PairedTwice {
            entrant,
            against_self: false,
        } => m::STATE_PAIRING_TWICE.with(&[&name(*entrant)]),
        V::PairedTwice {
            entrant,
            against_self: true,
        } => m::STATE_PAIRING_AGAINST_SELF.with(&[&name(*entrant)]),
        V::NotToBePaired {
            entrant,
            known: true,
        } => m::STATE_PAIRING_ABSENT.with(&[&name(*entrant)]),
        V::NotToBePaired {
            entrant,
            known: false,
        } => m::STATE_PAIRING_NOT_ENTRANT.with(&[&name(*entrant)]),
    }
}

#[cfg(test)]
mod tests {
    use super::violation;
    use crate::i18n::Lang;
    use arbiter_core::model::{ResultCode, Side};
    use arbiter_core::pairing::check::{ColourBreach, Violation as V};

    #[test]
    fn a_violation_is_worded_in_each_language_with_the_entrants_named() {
        let all = [
            V::Rematch { a: 1, b: 2 },
            V::ForbiddenPair { a: 1, b: 2 },
            V::ColourLimit {
                entrant: 1,
                side: Side::Red,
                breach: ColourBreach::Difference(3),
            },
            V::ColourLimit {
                entrant: 1,
                side: Side::Black,
                breach: ColourBreach::Difference(-3),
            },
            V::ColourLimit {
                entrant: 1,
                side: Side::Red,
                breach: ColourBreach::ThreeInARow,
            },
            V::ColourLimit {
                entrant: 1,
                side: Side::Black,
                breach: ColourBreach::ThreeInARow,
            },
            V::IneligibleBye {
                entrant: 1,
                result: ResultCode::ForfeitWin,
            },
            V::ByeCount { bye: None },
            V::ByeCount { bye: Some(1) },
            V::Unpaired { entrant: 1 },
            V::PairedTwice {
                entrant: 1,
                against_self: false,
            },
            V::PairedTwice {
                entrant: 1,
                against_self: true,
            },
            V::NotToBePaired {
                entrant: 1,
                known: true,
            },
            V::NotToBePaired {
                entrant: 1,
                known: false,
            },
        ];
        let name = |n: u32| format!("王{n}");
        for v in &all {
            let message = violation(v, name);
            // The English says what the core says, the entrants by name.
            let core = v.to_string().replace("entrant 1", "王1");
            let core = core.replace("1 and 2", "王1 and 王2");
            assert_eq!(message.en(), core, "{v:?}");
            for lang in [Lang::ZhHant, Lang::ZhHans] {
                let zh = message.render(lang);
                assert!(!zh.chars().any(|c| c.is_ascii_lowercase()), "{v:?}: {zh}");
                if !v.entrants().is_empty() {
                    assert!(zh.contains("王1"), "{zh}");
                }
            }
        }
    }
}
