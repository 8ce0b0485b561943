//! A section's history as the core sees it: database rows → `arbiter_core::model::Tournament`
//! with dense starting numbers. Pairing, standings and TRF export all start here.

use super::sections;
use super::Result;
use crate::db;
use crate::db::entrant::EntrantRow;
use crate::db::round::{BoardRow, RoundRow};
use crate::db::section::SectionRow;
use crate::vocab::{ByeKind, GameResult, RoundStatus};
use arbiter_core::model::{
    Entrant, ForbiddenPairs, ResultCode, RoundRecord, Side, StartNo, Tournament,
};
use sqlx::PgConnection;
use std::collections::{BTreeMap, HashMap};
use uuid::Uuid;

pub mod kept;

/// Everything about a section's Swiss stage, loaded in one go.
pub struct SectionState {
    /// The section.
    pub section: SectionRow,
    /// Its entrants by starting number.
    pub entrants: Vec<EntrantRow>,
    /// Its rounds.
    pub rounds: Vec<RoundRow>,
    /// Every board of every round.
    pub boards: Vec<BoardRow>,
    /// The core's view.
    pub tournament: Tournament,
    /// Entrant id → starting number.
    pub start_no: HashMap<Uuid, StartNo>,
}

impl SectionState {
    /// The entrant with a starting number.
    pub fn entrant_by_no(&self, no: StartNo) -> Option<&EntrantRow> {
        let want = i32::try_from(no).ok();
        // Entrants are in starting-number order, usually 1..=n: look where it should be
        // first (a page of a 1,000-entrant section asks thousands of times).
        let guess = usize::try_from(no)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| self.entrants.get(i));
        match guess {
            Some(e) if e.start_no.is_some() && e.start_no == want => Some(e),
            _ => self
                .entrants
                .iter()
                .find(|e| e.start_no.is_some() && e.start_no == want),
        }
    }

    /// The entrant with an id.
    pub fn entrant(&self, id: Uuid) -> Option<&EntrantRow> {
        let numbered = self
            .start_no
            .get(&id)
            .and_then(|&no| self.entrant_by_no(no))
            .filter(|e| e.entrant_id == id);
        numbered.or_else(|| self.entrants.iter().find(|e| e.entrant_id == id))
    }

    /// Rounds paired so far.
    pub fn rounds_paired(&self) -> u32 {
        self.rounds.len() as u32
    }
}

/// The result codes of Red and Black for a stored game result (`None`: not entered yet).
pub fn result_codes(result: Option<GameResult>) -> (ResultCode, ResultCode) {
    use ResultCode::*;
    match result {
        Some(GameResult::RedWins) => (Win, Loss),
        Some(GameResult::BlackWins) => (Loss, Win),
        Some(GameResult::Draw) => (Draw, Draw),
        Some(GameResult::RedForfeits) => (ForfeitLoss, ForfeitWin),
        Some(GameResult::BlackForfeits) => (ForfeitWin, ForfeitLoss),
        Some(GameResult::DoubleForfeit) => (ForfeitLoss, ForfeitLoss),
        // Both sides reached the foul threshold: a played game lost by both.
        Some(GameResult::DoubleLoss) => (Loss, Loss),
        None => (Pending, Pending),
    }
}

fn bye_code(kind: ByeKind) -> ResultCode {
    match kind {
        ByeKind::Half => ResultCode::HalfBye,
        ByeKind::Full => ResultCode::FullBye,
        ByeKind::Zero => ResultCode::ZeroBye,
    }
}

/// Loads a section (already read, and locked if the caller writes) into the core model.
/// With `include_next`, the round to be paired gets its absence records (requested byes,
/// withdrawals, late entries, entrants not checked in) so the engines leave those entrants out.
pub async fn load(
    conn: &mut PgConnection,
    section: SectionRow,
    include_next: bool,
) -> Result<SectionState> {
    load_until(conn, section, None, include_next).await
}

/// Loads a section as the public may see it: without a paired round its arbiters have not
/// published yet (a draft they may still change or unpair).
pub async fn load_public(conn: &mut PgConnection, section: SectionRow) -> Result<SectionState> {
    let draft = db::round::list(&mut *conn, section.section_id)
        .await?
        .into_iter()
        .find(|r| r.status == RoundStatus::Paired)
        .map(|r| r.number);
    load_until(conn, section, draft, false).await
}

/// Loads a section as it stood before round `round` was paired, with that round's absences:
/// the state a manual edit of that round is checked against.
pub async fn load_before(
    conn: &mut PgConnection,
    section: SectionRow,
    round: i32,
) -> Result<SectionState> {
    load_until(conn, section, Some(round), true).await
}

async fn load_until(
    conn: &mut PgConnection,
    section: SectionRow,
    before: Option<i32>,
    include_next: bool,
) -> Result<SectionState> {
    let mut rows = SectionRows::fetch(conn, section.section_id).await?;
    if section.entry_type == crate::vocab::EntryType::Team {
        // A team match is one board of several games (issue #41): one row, the match's result.
        rows.boards =
            super::team_matches::match_rows(&mut *conn, section.section_id, rows.boards).await?;
    }
    Ok(build(section, rows, before, include_next))
}

/// The rows a section's state is built from ([`build`]), as the database has them.
#[derive(Clone)]
pub struct SectionRows {
    /// Entrants by starting number.
    pub entrants: Vec<EntrantRow>,
    /// Rounds by number.
    pub rounds: Vec<RoundRow>,
    /// Every board of every round (a team section's games, not yet merged into matches).
    pub boards: Vec<BoardRow>,
    /// Requested byes.
    pub byes: Vec<db::entrant::ByeRow>,
    /// Forbidden pairs.
    pub forbidden: Vec<(Uuid, Uuid)>,
}

impl SectionRows {
    /// Reads every row of a section.
    pub async fn fetch(conn: &mut PgConnection, section_id: Uuid) -> Result<SectionRows> {
        let started = std::time::Instant::now();
        let entrants = db::entrant::list(&mut *conn, section_id).await?;
        let entrants_at = started.elapsed();
        let rounds = db::round::list_for_state(&mut *conn, section_id).await?;
        let rounds_at = started.elapsed();
        let boards = db::round::boards_of_section(&mut *conn, section_id).await?;
        let boards_at = started.elapsed();
        let byes = db::entrant::requested_byes(&mut *conn, section_id).await?;
        let forbidden = db::entrant::forbidden_pairs(&mut *conn, section_id).await?;
        // Where a load's time goes (issue #38: `RUST_LOG=arbiter::service::state=debug`).
        tracing::debug!(
            entrants_us = entrants_at.as_micros() as u64,
            rounds_us = (rounds_at - entrants_at).as_micros() as u64,
            boards_us = (boards_at - rounds_at).as_micros() as u64,
            rest_us = (started.elapsed() - boards_at).as_micros() as u64,
            "section rows loaded"
        );
        Ok(SectionRows {
            entrants,
            rounds,
            boards,
            byes,
            forbidden,
        })
    }
}

/// A section's state from its rows: rounds before `before` only (all without it), with the
/// next round's absences when `include_next`.
pub fn build(
    section: SectionRow,
    rows: SectionRows,
    before: Option<i32>,
    include_next: bool,
) -> SectionState {
    let SectionRows {
        entrants,
        mut rounds,
        mut boards,
        byes,
        forbidden,
    } = rows;
    let keep = |number: i32| before.is_none_or(|b| number < b);
    rounds.retain(|r| keep(r.number));
    boards.retain(|b| keep(b.round));

    let start_no: HashMap<Uuid, StartNo> = entrants
        .iter()
        .filter_map(|e| Some((e.entrant_id, u32::try_from(e.start_no?).ok()?)))
        .collect();
    let paired = rounds.len() as u32;
    let mut records: HashMap<(Uuid, u32), RoundRecord> = HashMap::new();
    for b in &boards {
        let round = b.round as u32;
        let (red_code, black_code) = result_codes(b.result);
        match b.black_entrant_id {
            Some(black) => {
                let (Some(&red_no), Some(&black_no)) =
                    (start_no.get(&b.red_entrant_id), start_no.get(&black))
                else {
                    continue;
                };
                let mut red = RoundRecord::game(black_no, Side::Red, red_code);
                red.fouls = b.red_fouls as u32;
                let mut blk = RoundRecord::game(red_no, Side::Black, black_code);
                blk.fouls = b.black_fouls as u32;
                records.insert((b.red_entrant_id, round), red);
                records.insert((black, round), blk);
            }
            None => {
                records.insert(
                    (b.red_entrant_id, round),
                    RoundRecord::bye(ResultCode::PairingBye),
                );
            }
        }
    }
    let requested: BTreeMap<(Uuid, u32), ByeKind> = byes
        .iter()
        .map(|b| ((b.entrant_id, b.round as u32), b.kind))
        .collect();

    let next = paired + 1;
    let mut core_entrants = Vec::with_capacity(entrants.len());
    for e in &entrants {
        let Some(&no) = start_no.get(&e.entrant_id) else {
            continue;
        };
        let mut rounds_of_entrant: Vec<RoundRecord> = (1..=paired)
            .map(|r| {
                records.get(&(e.entrant_id, r)).copied().unwrap_or_else(|| {
                    RoundRecord::bye(
                        requested
                            .get(&(e.entrant_id, r))
                            .map_or(ResultCode::ZeroBye, |k| bye_code(*k)),
                    )
                })
            })
            .collect();
        if include_next {
            let absent = if let Some(kind) = requested.get(&(e.entrant_id, next)) {
                Some(bye_code(*kind))
            } else if e.withdrawn_from_round.is_some_and(|w| w as u32 <= next)
                || e.joined_round as u32 > next
                || (next == 1 && section.pair_checked_in_only && !e.checked_in)
            {
                Some(ResultCode::ZeroBye)
            } else {
                None
            };
            if let Some(code) = absent {
                rounds_of_entrant.push(RoundRecord::bye(code));
            }
        }
        core_entrants.push(Entrant {
            start_no: no,
            name: e.name.clone(),
            rating: e.rating.and_then(|r| u32::try_from(r).ok()),
            club: e.club.clone(),
            rounds: rounds_of_entrant,
            ..Entrant::default()
        });
    }
    core_entrants.sort_by_key(|e| e.start_no);
    let mut forbidden: Vec<ForbiddenPairs> = forbidden
        .iter()
        .filter_map(|(a, b)| {
            let (a, b) = (*start_no.get(a)?, *start_no.get(b)?);
            // By starting number, not by id: the same section always exports the same file.
            Some(ForbiddenPairs {
                first_round: None,
                last_round: None,
                entrants: vec![a.min(b), a.max(b)],
            })
        })
        .collect();
    forbidden.sort_by(|x, y| x.entrants.cmp(&y.entrants));
    let tournament = Tournament {
        name: section.name.clone(),
        headers: Vec::new(),
        rounds_total: Some(section.rounds as u32),
        initial_colour: Some(if section.first_board_red {
            Side::Red
        } else {
            Side::Black
        }),
        scoring: sections::scoring(&section),
        entrants: core_entrants,
        forbidden,
        accelerations: Vec::new(),
    };
    SectionState {
        section,
        entrants,
        rounds,
        boards,
        tournament,
        start_no,
    }
}
