//! The rows of each section's state kept between data versions (issue #38): while results
//! pour in, a new data version differs from the last one read by a few games, so the
//! standings of a 1,000-entrant section after nine rounds read those games again instead of
//! all 4,500 boards and 1,000 entrants.
//!
//! What changed is told by the audit log: every change goes through a service that audits
//! it in the same transaction (the invariant `db::audit::section_version` rests on too). When
//! every entry since the kept read is a game's result (or report, or record), only those
//! games' boards and the rounds' statuses are read again; any other entry (a pairing, an
//! entrant, a bye, a setting, …), a gap in the window of entries read, or a game the kept
//! rows do not know reads everything again.

use super::{build, SectionRows, SectionState};
use crate::db;
use crate::db::audit::RecentEntry;
use crate::db::section::SectionRow;
use crate::service::Result;
use crate::vocab::EntryType;
use sqlx::PgConnection;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, LazyLock, Mutex};
use uuid::Uuid;

/// Sections kept at most (each a few MB for 1,000 entrants after nine rounds); past it, the
/// map starts again.
const SECTIONS: usize = 64;

/// Actions on a game that change no row but that game's board (its result, fouls, version,
/// reports, record) and its round's status.
const GAME_ACTIONS: &[&str] = &[
    "correct_record",
    "correct_result",
    "delete_record",
    "dismiss_reports",
    "record",
    "result",
    "self_report",
];

/// The rows of one section and the audit entries they include.
struct Kept {
    /// The audit entries read before the rows (the tournament's newest).
    seen: HashSet<i64>,
    /// The newest of them.
    newest: i64,
    rows: Arc<SectionRows>,
}

type KeptMap = HashMap<Uuid, Arc<Kept>>;
static KEPT: LazyLock<Mutex<KeptMap>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// A section's state as committed now (every round, no next round), and its data version
/// (`db::audit::section_version`'s number; `None`: nothing audited yet).
///
/// Only for a connection outside any transaction: the rows kept are shared by every later
/// request, so they must never include a change that may still be rolled back.
pub async fn load_latest(
    conn: &mut PgConnection,
    section: SectionRow,
) -> Result<(SectionState, Option<i64>)> {
    let section_id = section.section_id;
    let started = std::time::Instant::now();
    // Read before the rows: the rows are at least as new as the entries say.
    let recent = db::audit::recent(&mut *conn, section_id).await?;
    let recent_at = started.elapsed();
    let version = db::audit::version_of(&recent);
    if section.entry_type == EntryType::Team {
        // A team section's boards are merged from several games each: read as before.
        return Ok((super::load(conn, section, false).await?, version));
    }
    let kept = KEPT
        .lock()
        .ok()
        .and_then(|kept| kept.get(&section_id).cloned());
    let mut rows = None;
    let mut cloned_at = recent_at;
    if let Some(kept) = kept {
        if let Some(games) = changed_games(&kept, &recent) {
            let mut patched = (*kept.rows).clone();
            cloned_at = started.elapsed();
            if games.is_empty() || patch(conn, section_id, &mut patched, &games).await? {
                rows = Some(patched);
            }
        }
    }
    let patched = rows.is_some();
    let rows = match rows {
        Some(rows) => rows,
        None => SectionRows::fetch(conn, section_id).await?,
    };
    let read = started.elapsed();
    keep(section_id, &recent, rows.clone());
    let state = build(section, rows, None, false);
    tracing::debug!(
        patched,
        recent_us = recent_at.as_micros() as u64,
        cloned_us = (cloned_at - recent_at).as_micros() as u64,
        read_us = read.as_micros() as u64,
        built_us = (started.elapsed() - read).as_micros() as u64,
        "section state from kept rows"
    );
    Ok((state, version))
}

/// The games changed since `kept` was read, if nothing else changed (`None`: read all).
fn changed_games(kept: &Kept, recent: &[RecentEntry]) -> Option<Vec<Uuid>> {
    let Some(oldest) = recent.last().map(|e| e.audit_id) else {
        return kept.seen.is_empty().then(Vec::new);
    };
    // The window moved past everything kept: entries between may be unseen.
    if recent.len() as i64 >= db::audit::RECENT && kept.newest < oldest {
        return None;
    }
    // Entries are never removed: one kept but gone means rows that never committed.
    let now: HashSet<i64> = recent.iter().map(|e| e.audit_id).collect();
    if kept
        .seen
        .iter()
        .any(|id| *id >= oldest && !now.contains(id))
    {
        return None;
    }
    let mut games = Vec::new();
    for entry in recent.iter().filter(|e| !kept.seen.contains(&e.audit_id)) {
        if entry.entity != "game" || !GAME_ACTIONS.contains(&entry.action.as_str()) {
            return None;
        }
        let game = entry.entity_id?;
        if !games.contains(&game) {
            games.push(game);
        }
    }
    Some(games)
}

/// Reads `games` (those of this section) and the rounds again into `rows`; false when a
/// game is one the rows do not have.
async fn patch(
    conn: &mut PgConnection,
    section_id: Uuid,
    rows: &mut SectionRows,
    games: &[Uuid],
) -> Result<bool> {
    let started = std::time::Instant::now();
    let fresh = db::round::boards_of_games(&mut *conn, section_id, games).await?;
    let games_at = started.elapsed();
    rows.rounds = db::round::list_for_standings(&mut *conn, section_id).await?;
    tracing::debug!(
        games = games.len(),
        games_us = games_at.as_micros() as u64,
        rounds_us = (started.elapsed() - games_at).as_micros() as u64,
        "kept rows patched"
    );
    let at: HashMap<Uuid, usize> = rows
        .boards
        .iter()
        .enumerate()
        .filter_map(|(i, b)| Some((b.game_id?, i)))
        .collect();
    for board in fresh {
        let Some(&i) = board.game_id.and_then(|g| at.get(&g)) else {
            return Ok(false);
        };
        if rows.boards[i].board_id != board.board_id {
            return Ok(false);
        }
        rows.boards[i] = board;
    }
    Ok(true)
}

fn keep(section_id: Uuid, recent: &[RecentEntry], rows: SectionRows) {
    let kept = Kept {
        seen: recent.iter().map(|e| e.audit_id).collect(),
        newest: recent.first().map_or(0, |e| e.audit_id),
        rows: Arc::new(rows),
    };
    if let Ok(mut map) = KEPT.lock() {
        if map.len() >= SECTIONS && !map.contains_key(&section_id) {
            map.clear();
        }
        // An older read finishing late does not replace a newer one.
        if map
            .get(&section_id)
            .is_none_or(|old| old.newest <= kept.newest)
        {
            map.insert(section_id, Arc::new(kept));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(audit_id: i64, action: &str, entity: &str, id: Option<Uuid>) -> RecentEntry {
        RecentEntry {
            audit_id,
            action: action.into(),
            entity: entity.into(),
            entity_id: id,
        }
    }

    fn kept(ids: &[i64]) -> Kept {
        Kept {
            seen: ids.iter().copied().collect(),
            newest: ids.iter().copied().max().unwrap_or(0),
            rows: Arc::new(SectionRows {
                entrants: Vec::new(),
                rounds: Vec::new(),
                boards: Vec::new(),
                byes: Vec::new(),
                forbidden: Vec::new(),
            }),
        }
    }

    #[test]
    fn only_new_game_results_are_read_again() {
        let (g1, g2) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let recent = [
            entry(7, "correct_result", "game", Some(g1)),
            entry(6, "result", "game", Some(g2)),
            entry(5, "result", "game", Some(g1)),
            entry(4, "pair", "round", None),
        ];
        assert_eq!(changed_games(&kept(&[4, 5]), &recent), Some(vec![g1, g2]));
        assert_eq!(changed_games(&kept(&[4, 5, 6, 7]), &recent), Some(vec![]));
    }

    #[test]
    fn anything_but_a_game_result_reads_everything() {
        let g = Uuid::from_u128(1);
        let recent = [
            entry(6, "result", "game", Some(g)),
            entry(5, "withdraw", "entrant", Some(g)),
            entry(4, "result", "game", Some(g)),
        ];
        assert_eq!(changed_games(&kept(&[4]), &recent), None);
        // A game entry without its game, or an action that may change more.
        let odd = [
            entry(5, "result", "game", None),
            entry(4, "pair", "round", None),
        ];
        assert_eq!(changed_games(&kept(&[4]), &odd), None);
        let unpair = [
            entry(5, "unpair", "game", Some(g)),
            entry(4, "pair", "round", None),
        ];
        assert_eq!(changed_games(&kept(&[4]), &unpair), None);
    }

    #[test]
    fn a_late_commit_inside_the_window_is_seen_and_a_lost_entry_reads_everything() {
        let g = Uuid::from_u128(3);
        // Entry 5 committed after 6 was read: it is new although older than the newest kept.
        let recent = [
            entry(6, "result", "game", Some(Uuid::from_u128(1))),
            entry(5, "result", "game", Some(g)),
            entry(4, "pair", "round", None),
        ];
        assert_eq!(changed_games(&kept(&[4, 6]), &recent), Some(vec![g]));
        // An entry kept but no longer there: the kept rows saw what never committed.
        assert_eq!(changed_games(&kept(&[4, 5, 6, 9]), &recent[1..]), None);
    }

    #[test]
    fn a_window_moved_past_the_kept_entries_reads_everything() {
        let g = Uuid::from_u128(1);
        let recent: Vec<RecentEntry> = (0..db::audit::RECENT)
            .map(|i| entry(5000 - i, "result", "game", Some(g)))
            .collect();
        assert_eq!(changed_games(&kept(&[10]), &recent), None);
        assert!(changed_games(&kept(&[4001]), &recent).is_some());
        assert_eq!(changed_games(&kept(&[]), &[]), Some(vec![]));
    }
}
