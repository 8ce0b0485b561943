//! A team section's TRF (issue #41): the players' file (one `001` line per player of every
//! roster, their games board by board) with the TRF-2026 team records `310` (teams, rosters,
//! match and game points, rank), `320` (pairing-allocated byes), `330` (matches forfeited as a
//! whole), `352` (board colours) and `362` (match points), written by
//! `arbiter_core::trf::write_teams` from the section's teams, matches and line-ups.
//!
//! Players are numbered team by team (team 1's roster in board order, then team 2's, …), team
//! numbers are the teams' starting numbers in order. A player's round is their game on their
//! board of the match; a player who sat out has no record in that round (blank); a team's
//! pairing-allocated bye (or requested bye) is `U` (`F`, `H`) for its first boards' players.
//! An empty seat (a board forfeited for want of a player) is written as the present player's
//! forfeit win without an opponent (`0000 w +`): `arbiter_core::teams::matches` counts its
//! point in the match (both teams' game points and so the match points), though not as a
//! board of it (TRF-2026 has no place for an empty seat).

use super::state::{result_codes, SectionState};
use super::team_matches::{game_scoring, team_scoring};
use super::{teams, Error, Result};
use crate::db;
use arbiter_core::model::{Entrant, ResultCode, RoundRecord, Side, StartNo, Tournament};
use arbiter_core::teams::Team;
use arbiter_core::trf::{write_teams, TeamExport, TeamFormat};
use sqlx::PgConnection;
use std::collections::{HashMap, HashSet};
use uuid::Uuid;

/// The players' tournament of a team section and its teams (team `i` is the `i`-th entrant of
/// `state` by starting number), from `head` (name, headers, rounds) and the section's rows.
pub(crate) async fn players_of(
    conn: &mut PgConnection,
    state: &SectionState,
    head: &Tournament,
) -> Result<(Tournament, Vec<Team>, u32)> {
    let section_id = state.section.section_id;
    let settings = teams::settings(&mut *conn, section_id).await?;
    let mut members = db::entrant::members(&mut *conn, section_id).await?;
    members.sort_by_key(|m| m.position);
    let games = db::team::games_of_section(&mut *conn, section_id).await?;
    let shown: HashSet<Uuid> = state.boards.iter().map(|b| b.board_id).collect();
    let rounds = state.rounds.len();

    let mut players = Tournament {
        entrants: Vec::new(),
        forbidden: Vec::new(),
        accelerations: Vec::new(),
        scoring: game_scoring(),
        ..head.clone()
    };
    let mut number: HashMap<Uuid, StartNo> = HashMap::new();
    let mut teams_out = Vec::new();
    // Each team's players (start numbers) in board order, by team id.
    let mut roster_of: HashMap<Uuid, Vec<StartNo>> = HashMap::new();
    for e in &state.tournament.entrants {
        let Some(row) = state.entrant_by_no(e.start_no) else {
            continue;
        };
        let mut roster = Vec::new();
        for m in members.iter().filter(|m| m.entrant_id == row.entrant_id) {
            let no = players.entrants.len() as StartNo + 1;
            number.insert(m.player_id, no);
            players.entrants.push(Entrant {
                start_no: no,
                name: m.name.clone(),
                sex: match m.gender.as_deref() {
                    Some("m") => Some('m'),
                    Some("f") => Some('w'),
                    _ => None,
                },
                rating: m.rating.and_then(|r| u32::try_from(r).ok()),
                club: m.club.clone(),
                rounds: vec![RoundRecord::bye(ResultCode::Pending); rounds],
                ..Entrant::default()
            });
            roster.push(no);
        }
        roster_of.insert(row.entrant_id, roster.clone());
        teams_out.push(Team {
            name: row.name.clone(),
            roster,
        });
    }
    let record = |players: &mut Tournament, no: StartNo, round: i32, rec: RoundRecord| {
        let slot = usize::try_from(round - 1).ok().and_then(|r| {
            players
                .entrants
                .get_mut(no as usize - 1)
                .and_then(|e| e.rounds.get_mut(r))
        });
        if let Some(slot) = slot {
            *slot = rec;
        }
    };
    // The first boards' players of a team, for its byes.
    let firsts = |team: Uuid| -> Vec<StartNo> {
        roster_of
            .get(&team)
            .map(|r| r.iter().take(settings.boards as usize).copied().collect())
            .unwrap_or_default()
    };
    for b in &state.boards {
        if b.black_entrant_id.is_none() {
            for no in firsts(b.red_entrant_id) {
                record(
                    &mut players,
                    no,
                    b.round,
                    RoundRecord::bye(ResultCode::PairingBye),
                );
            }
        }
    }
    for g in games.iter().filter(|g| shown.contains(&g.board_id)) {
        let (red_code, black_code) = result_codes(g.result);
        let red = g.red_player_id.and_then(|p| number.get(&p).copied());
        let black = g.black_player_id.and_then(|p| number.get(&p).copied());
        for (me, other, side, code) in [
            (red, black, Side::Red, red_code),
            (black, red, Side::Black, black_code),
        ] {
            let Some(me) = me else { continue };
            let rec = RoundRecord {
                opponent: other,
                colour: Some(side),
                result: code,
                fouls: 0,
            };
            record(&mut players, me, g.round, rec);
        }
    }
    // Rounds a team sat out with a requested bye: its first boards' players have it.
    for e in &state.tournament.entrants {
        let Some(row) = state.entrant_by_no(e.start_no) else {
            continue;
        };
        for (r, rec) in e.rounds.iter().enumerate().take(rounds) {
            let in_match = state.boards.iter().any(|b| {
                b.round as usize == r + 1
                    && (b.red_entrant_id == row.entrant_id
                        || b.black_entrant_id == Some(row.entrant_id))
            });
            if in_match || !matches!(rec.result, ResultCode::FullBye | ResultCode::HalfBye) {
                continue;
            }
            for no in firsts(row.entrant_id) {
                record(&mut players, no, r as i32 + 1, RoundRecord::bye(rec.result));
            }
        }
    }
    // A player's trailing rounds without a record are left off the line.
    for e in &mut players.entrants {
        while e
            .rounds
            .last()
            .is_some_and(|r| r.result == ResultCode::Pending && r.opponent.is_none())
        {
            e.rounds.pop();
        }
    }
    Ok((players, teams_out, settings.boards))
}

/// The TRF-2026 file of a team section: `head` is what the individual export would write
/// (name, headers, rounds), its entrants (the teams) replaced by the players.
pub(crate) async fn export(
    conn: &mut PgConnection,
    state: &SectionState,
    head: &Tournament,
) -> Result<String> {
    let section_id = state.section.section_id;
    let settings = teams::settings(&mut *conn, section_id).await?;
    let (mut players, teams, boards) = players_of(&mut *conn, state, head).await?;
    for (code, text) in &mut players.headers {
        if code == "062" {
            *text = players.entrants.len().to_string();
        }
    }
    let scoring = team_scoring(state);
    let export = TeamExport {
        teams: &teams,
        boards,
        scoring: &scoring,
        chain: &settings.chain,
    };
    write_teams(&players, &export, TeamFormat::Trf26)
        .map_err(|e| Error::Internal(format!("team TRF: {e}")))
}
