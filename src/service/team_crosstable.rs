//! A team section's crosstable (issue #41): one row per team in standing order (match points,
//! then the section's team chain), one cell per round — the opponent's line in this table,
//! the team's colour on board 1, its board points and the match points it earned — and the
//! totals. Public data only (published rounds), as the team standings.

use super::state;
use super::team_matches::{team_rounds, team_scoring};
use super::{teams, Error, Result};
use crate::db;
use crate::i18n::messages as m;
use crate::vocab::{EntryType, RoundStatus};
use arbiter_core::model::{Points, ResultCode, Side};
use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

/// One round of one team in the team crosstable.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamCrossCell {
    /// Round.
    pub round: i32,
    /// The opposing team (`null`: no match this round).
    pub opponent_id: Option<Uuid>,
    /// The opposing team's line in this table (its place in the standing order).
    pub opponent_line: Option<u32>,
    /// This team's colour on board 1 (`red` or `black`).
    pub colour: Option<String>,
    /// Board points this team scored (`null` while no board of the match has a result).
    pub board_points: Option<f64>,
    /// Board points the opposing team scored.
    pub opponent_board_points: Option<f64>,
    /// Match points earned (`null` while a board has no result).
    pub match_points: Option<f64>,
    /// Without a match: `pairing` (pairing-allocated bye), `full`, `half`, `zero` (requested
    /// byes) or `absent`; `null` when the team had a match.
    pub bye: Option<String>,
    /// Every board of the match was forfeited.
    pub forfeited: bool,
}

/// One team's row of the team crosstable.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamCrossRow {
    /// Line (1 = first in the standings).
    pub line: u32,
    /// Rank (teams tied after the whole chain share it).
    pub rank: u32,
    /// The team.
    pub team_id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// One cell per round of `rounds`.
    pub cells: Vec<TeamCrossCell>,
    /// Match points (场分).
    pub match_points: f64,
    /// Board points (局分).
    pub board_points: f64,
    /// Some match of the team still has a board without a result.
    pub provisional: bool,
}

/// A team section's crosstable.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamCrosstable {
    /// The rounds shown (published or completed), the cells' columns.
    pub rounds: Vec<i32>,
    /// Rounds with every result in.
    pub rounds_completed: i32,
    /// Teams in standing order.
    pub rows: Vec<TeamCrossRow>,
}

fn number(p: Points) -> f64 {
    p.tenths() as f64 / 10.0
}

/// The crosstable of a team section as the public sees it (published rounds).
pub async fn crosstable(pool: &PgPool, section_id: Uuid) -> Result<TeamCrosstable> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    if section.entry_type != EntryType::Team {
        return Err(Error::conflict(m::TEAM_NOT_TEAM_SECTION.msg()));
    }
    let settings = teams::settings(&mut conn, section_id).await?;
    let state = state::load_public(&mut conn, section).await?;
    let games = db::team::games_of_section(&mut *conn, section_id).await?;
    let rounds = team_rounds(&state, &settings, &games);
    let ranked = arbiter_core::teams::standings(&rounds, &settings.chain, &team_scoring(&state));
    let mut line_of = vec![None; rounds.len()];
    for (k, row) in ranked.rows.iter().enumerate() {
        if let Some(slot) = line_of.get_mut(row.team) {
            *slot = Some(k as u32 + 1);
        }
    }
    let t = &state.tournament;
    let id_of = |i: usize| {
        t.entrants
            .get(i)
            .and_then(|e| state.entrant_by_no(e.start_no))
            .map(|e| e.entrant_id)
    };
    let numbers: Vec<i32> = state.rounds.iter().map(|r| r.number).collect();
    let rows = ranked
        .rows
        .iter()
        .enumerate()
        .filter_map(|(k, row)| {
            let core = t.entrants.get(row.team)?;
            let e = state.entrant_by_no(core.start_no)?;
            let cells = numbers
                .iter()
                .map(|&n| {
                    let r = (n - 1) as usize;
                    let round = rounds.get(row.team).and_then(|l| l.get(r));
                    let record = core.round(n as u32);
                    let paired_bye = state.boards.iter().any(|b| {
                        b.round == n
                            && b.red_entrant_id == e.entrant_id
                            && b.black_entrant_id.is_none()
                    });
                    match round.and_then(|x| x.opponent.map(|o| (x, o))) {
                        Some((x, o)) => {
                            let any = x.boards.iter().any(|b| b.result != ResultCode::Pending);
                            let colour = x
                                .boards
                                .iter()
                                .min_by_key(|b| b.board)
                                .and_then(|b| b.colour)
                                .map(|c| match c {
                                    Side::Red => "red".to_string(),
                                    Side::Black => "black".to_string(),
                                });
                            TeamCrossCell {
                                round: n,
                                opponent_id: id_of(o),
                                opponent_line: line_of.get(o).copied().flatten(),
                                colour,
                                board_points: any.then(|| number(x.game_points)),
                                opponent_board_points: any.then(|| number(x.opponent_game_points)),
                                match_points: (!x.pending && !x.boards.is_empty())
                                    .then(|| number(x.match_points)),
                                bye: None,
                                forfeited: x.is_forfeited(),
                            }
                        }
                        None => {
                            let kind = if paired_bye {
                                "pairing"
                            } else {
                                match record.map(|rec| rec.result) {
                                    Some(ResultCode::PairingBye) => "pairing",
                                    Some(ResultCode::FullBye) => "full",
                                    Some(ResultCode::HalfBye) => "half",
                                    Some(ResultCode::ZeroBye) => "zero",
                                    _ => "absent",
                                }
                            };
                            TeamCrossCell {
                                round: n,
                                opponent_id: None,
                                opponent_line: None,
                                colour: None,
                                board_points: round.map(|x| number(x.game_points)),
                                opponent_board_points: None,
                                match_points: round.map(|x| number(x.match_points)),
                                bye: Some(kind.to_string()),
                                forfeited: false,
                            }
                        }
                    }
                })
                .collect();
            Some(TeamCrossRow {
                line: k as u32 + 1,
                rank: row.rank,
                team_id: e.entrant_id,
                start_no: e.start_no,
                name: e.name.clone(),
                cells,
                match_points: number(row.match_points),
                board_points: number(row.game_points),
                provisional: row.provisional,
            })
        })
        .collect();
    Ok(TeamCrosstable {
        rounds: numbers,
        rounds_completed: state
            .rounds
            .iter()
            .filter(|r| r.status == RoundStatus::Completed)
            .count() as i32,
        rows,
    })
}
