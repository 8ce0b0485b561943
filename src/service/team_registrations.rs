//! A team's registration on the public form and the API (issue #41): the captain (the
//! registration's player, its contact) enters the team's name and its roster in board order;
//! the roster is checked as the desk's team add checks it (the section's boards and reserves,
//! nobody twice), its players become players of the tournament, and the registration waits
//! for the desk (pending, or waitlisted when the section is full): a roster is the desk's to
//! approve. Its confirmation makes the team an entrant with its roster and captain (and the
//! team's key, which the captain is sent as an individual is sent theirs). The fee is the
//! section's, once per team.

use super::check::Check;
use super::teams::{self, RosterInput};
use super::Result;
use crate::db;
use crate::db::entrant::PlayerRow;
use crate::db::registration::RegistrationRow;
use crate::db::section::SectionRow;
use crate::i18n::messages as m;
use serde::Deserialize;
use sqlx::PgConnection;
use std::collections::HashSet;
use utoipa::ToSchema;
use uuid::Uuid;

/// A team as its captain registers it (a team section only).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamRegistration {
    /// The team's name (required).
    pub name: String,
    /// The captain's position on the roster (1 = board 1) when the captain plays; absent: a
    /// captain who does not play (the registration's `name`).
    pub captain_position: Option<i64>,
    /// The roster in board order, boards first, then reserves: new players by name (gender
    /// and rating optional; the club defaults to the team's). Between the section's boards
    /// and boards + reserves players, nobody twice.
    pub roster: Vec<RosterInput>,
}

/// A team registration as checked, ready to store.
pub(crate) struct Checked {
    /// Team name.
    pub name: String,
    /// The roster's new players in board order.
    pub roster: Vec<PlayerRow>,
    /// The captain's roster index (0-based) when the captain plays.
    pub captain: Option<usize>,
}

/// Checks the team of a registration for a team section: problems go to `check` under
/// `team.` (`team.name`, `team.roster`, `team.roster[2].name`, `team.captain_position`).
pub(crate) async fn check(
    conn: &mut PgConnection,
    section: &SectionRow,
    team: Option<&TeamRegistration>,
    club: Option<&str>,
    check: &mut Check,
) -> Result<Option<Checked>> {
    let Some(team) = team else {
        check.error("team", m::TEAM_REGISTRATION_NEEDS_TEAM.msg());
        return Ok(None);
    };
    let settings = teams::settings(&mut *conn, section.section_id).await?;
    let name = check.required_text("team.name", &team.name, 200);
    let mut inner = Check::new();
    // Only new players: a stranger may not put players already in the event on a team.
    for (i, r) in team.roster.iter().enumerate() {
        if r.player_id.is_some() {
            inner.error(
                &format!("roster[{i}].player_id"),
                m::TEAM_REGISTRATION_NEW_PLAYERS.msg(),
            );
        }
    }
    let input: Vec<RosterInput> = team
        .roster
        .iter()
        .map(|r| RosterInput {
            player_id: None,
            club: r
                .club
                .clone()
                .filter(|c| !c.trim().is_empty())
                .or_else(|| club.map(str::to_string)),
            ..r.clone()
        })
        .collect();
    let checked = teams::check_roster(conn, section, &settings, &input, &[], &mut inner).await?;
    // The same name twice is the same player twice.
    let mut seen = HashSet::new();
    for (i, r) in input.iter().enumerate() {
        let folded = r.name.as_deref().unwrap_or("").trim().to_lowercase();
        if !folded.is_empty() && !seen.insert(folded) {
            inner.error(&format!("roster[{i}].name"), m::TEAM_PLAYER_TWICE.msg());
        }
    }
    check.absorb(inner, "team.");
    let captain = team.captain_position.and_then(|p| {
        if p < 1 || p as usize > checked.len() {
            check.error(
                "team.captain_position",
                m::TEAM_CAPTAIN_POSITION.with(&[&checked.len()]),
            );
            None
        } else {
            Some(p as usize - 1)
        }
    });
    Ok(Some(Checked {
        name,
        roster: checked.into_iter().filter_map(|r| r.err()).collect(),
        captain,
    }))
}

/// Stores a checked team's players (the roster's, and the captain's own row when the captain
/// does not play: `captain`, with the contact); returns the registration's player (the
/// captain) and the roster's players in board order.
pub(crate) async fn store_players(
    conn: &mut PgConnection,
    tournament_id: Uuid,
    team: &Checked,
    mut captain: PlayerRow,
) -> Result<(Uuid, Vec<Uuid>)> {
    let mut ids = Vec::with_capacity(team.roster.len());
    for (i, p) in team.roster.iter().enumerate() {
        let mut p = p.clone();
        if Some(i) == team.captain {
            // The playing captain's row carries the contact.
            p.email = captain.email.clone();
            p.phone = captain.phone.clone();
            p.address = captain.address.clone();
        }
        ids.push(db::entrant::insert_player(&mut *conn, tournament_id, &p).await?);
    }
    let captain_id = match team.captain {
        Some(i) => ids[i],
        None => {
            if captain.club.is_none() {
                captain.club = team.roster.first().and_then(|p| p.club.clone());
            }
            db::entrant::insert_player(&mut *conn, tournament_id, &captain).await?
        }
    };
    Ok((captain_id, ids))
}

/// Turns a confirmed team registration into a team: the entrant with its roster, captain and
/// key; returns the entrant.
pub(crate) async fn confirm(
    conn: &mut PgConnection,
    section: &SectionRow,
    reg: &RegistrationRow,
) -> Result<Uuid> {
    let roster = db::registration::team_roster(&mut *conn, reg.registration_id).await?;
    let name = reg.team_name.clone().unwrap_or_else(|| reg.name.clone());
    let captain_name = match reg.captain_position {
        Some(_) => None,
        None => Some(db::registration::player_name(&mut *conn, reg.player_id).await?),
    };
    let entrant_id = teams::enrol_registered(
        conn,
        section,
        (&name, reg.club.as_deref()),
        &roster,
        (captain_name, reg.captain_position),
    )
    .await?;
    Ok(entrant_id)
}

/// A team section's boards and reserves (what its roster holds), for the form.
pub async fn roster_size(pool: &sqlx::PgPool, section_id: Uuid) -> Result<(u32, u32)> {
    let mut conn = pool.acquire().await?;
    let settings = teams::settings(&mut conn, section_id).await?;
    Ok((settings.boards, settings.reserves))
}
