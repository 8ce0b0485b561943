//! Team sections (团体赛, issue #41): a team is an entrant of a section whose entry type is
//! `team` — so starting numbers, byes, forbidden pairs, withdrawals, keys, registrations and
//! the event file work for teams as for individuals — with a captain and a roster in board
//! order (the entrant's members, positions 1 .. boards + reserves; board order fixed for the
//! event), and per round a line-up (`team_lineup`). The matches' games and results are in
//! [`super::team_matches`].

use super::access::{self, Change, Need};
use super::check::Check;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::entrant::{EntrantRow, MemberRow, PlayerRow};
use crate::db::section::SectionRow;
use crate::db::team::{CaptainRow, TeamSettingsRow};
use crate::i18n::messages as m;
use crate::vocab::{EntrantStatus, EntryType, RegistrationStatus, RoundStatus, SectionStatus};
use arbiter_core::model::{Points, StartNo};
use arbiter_core::teams::roster::{self, RosterProblem};
use arbiter_core::teams::TeamKey;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use std::collections::HashMap;
use utoipa::ToSchema;
use uuid::Uuid;

/// Boards of a team section when none are given.
pub const DEFAULT_BOARDS: u32 = 4;
/// Most reserves a roster may have.
pub const MAX_RESERVES: u32 = 10;

/// A team section's settings, or changes to them (absent fields stay as they are).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamSettingsInput {
    /// Boards per match, 2–10 (default 4). Fixed once round 1 is paired.
    pub boards: Option<i64>,
    /// Reserves per roster, 0–10 (default 0). Fixed once round 1 is paired.
    pub reserves: Option<i64>,
    /// The team tie-break chain after match points (FIDE C.07 names: `GPTS`, `DE`, `BH:MP`,
    /// `BH:GP`, `SB:MP`, `SB:GP`, `EGGSB`, `BC`, `WON`); empty: the default chain
    /// (`GPTS DE BH:MP SB:MP BC WON`).
    pub tiebreaks: Option<Vec<String>>,
    /// Board points of a pairing-allocated bye (default: every board won, i.e. the number
    /// of boards). Its match points are the section's `scoring.bye`.
    pub bye_board_points: Option<f64>,
}

/// A team section's settings as shown. Match points are the section's `scoring` (win, draw,
/// loss, bye, forfeit win); board (game) points are 1 / ½ / 0 per board.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamSettings {
    /// Boards per match.
    pub boards: u32,
    /// Reserves per roster.
    pub reserves: u32,
    /// The team tie-break chain after match points.
    pub tiebreaks: Vec<String>,
    /// Board points of a pairing-allocated bye.
    pub bye_board_points: f64,
    /// Match points of a won match.
    pub match_win: f64,
    /// Match points of a drawn match.
    pub match_draw: f64,
    /// Match points of a lost match.
    pub match_loss: f64,
    /// Match points of a pairing-allocated bye.
    pub match_bye: f64,
}

/// A team section's settings as the services use them.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Boards per match.
    pub boards: u32,
    /// Reserves per roster.
    pub reserves: u32,
    /// The chain after match points.
    pub chain: Vec<TeamKey>,
    /// Board points of a pairing-allocated bye.
    pub bye_game_points: Points,
}

impl Settings {
    fn of(row: &TeamSettingsRow) -> Settings {
        let boards = row
            .team_boards
            .and_then(|b| u32::try_from(b).ok())
            .unwrap_or(DEFAULT_BOARDS);
        let chain: Vec<TeamKey> = row
            .team_tiebreaks
            .iter()
            .filter_map(|k| k.parse().ok())
            .collect();
        Settings {
            boards,
            reserves: u32::try_from(row.team_reserves).unwrap_or(0),
            chain: if chain.is_empty() {
                TeamKey::default_chain()
            } else {
                chain
            },
            bye_game_points: row.team_bye_game_points.map_or_else(
                || Points::whole(i64::from(boards)),
                |p| Points::from_tenths(p.into()),
            ),
        }
    }

    /// The settings as shown, with the section's match points.
    pub fn view(&self, section: &SectionRow) -> TeamSettings {
        let f = |tenths: i32| f64::from(tenths) / 10.0;
        TeamSettings {
            boards: self.boards,
            reserves: self.reserves,
            tiebreaks: self.chain.iter().map(|k| k.name().to_string()).collect(),
            bye_board_points: self.bye_game_points.tenths() as f64 / 10.0,
            match_win: f(section.points_win),
            match_draw: f(section.points_draw),
            match_loss: f(section.points_loss),
            match_bye: f(section.points_bye),
        }
    }
}

/// A section's team settings (the defaults for a section that is not a team section).
pub async fn settings(conn: &mut PgConnection, section_id: Uuid) -> Result<Settings> {
    let row = db::team::settings(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    Ok(Settings::of(&row))
}

/// Writes a section's team settings in the caller's transaction (section create and
/// update): refused for a section that is not a team section, and boards and reserves fixed
/// once round 1 is paired.
pub(crate) async fn apply_settings(
    conn: &mut PgConnection,
    section: &SectionRow,
    input: Option<&TeamSettingsInput>,
) -> Result<()> {
    if section.entry_type != EntryType::Team {
        if input.is_some() {
            return Err(Error::invalid("team", m::TEAM_NOT_TEAM_SECTION.msg()));
        }
        return Ok(());
    }
    let before = db::team::settings(&mut *conn, section.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let mut row = before.clone();
    let input = input.cloned().unwrap_or_default();
    let mut check = Check::new();
    if row.team_boards.is_none() {
        row.team_boards = Some(DEFAULT_BOARDS as i16);
    }
    if let Some(boards) = input.boards {
        let b = check.range(
            "team.boards",
            boards,
            roster::MIN_BOARDS.into(),
            roster::MAX_BOARDS.into(),
        );
        row.team_boards = Some(b as i16);
    }
    if let Some(reserves) = input.reserves {
        row.team_reserves = check.range("team.reserves", reserves, 0, MAX_RESERVES.into()) as i16;
    }
    if let Some(keys) = &input.tiebreaks {
        let mut chain = Vec::new();
        for (i, k) in keys.iter().enumerate() {
            match k.parse::<TeamKey>() {
                Ok(key) if !chain.contains(&key.name().to_string()) => {
                    chain.push(key.name().to_string())
                }
                Ok(_) => {}
                Err(_) => check.error(
                    &format!("team.tiebreaks[{i}]"),
                    m::CHECK_UNKNOWN_TIEBREAK.with(&[&format!("{k:?}")]),
                ),
            }
        }
        row.team_tiebreaks = chain;
    }
    if let Some(points) = input.bye_board_points {
        let tenths = (points * 10.0).round();
        if !(0.0..=100.0).contains(&tenths) || (points * 10.0 - tenths).abs() > 1e-6 {
            check.error("team.bye_board_points", m::CHECK_BETWEEN.with(&[&0, &10]));
        } else {
            row.team_bye_game_points = Some(tenths as i32);
        }
    }
    check.finish()?;
    let paired = db::round::count(&mut *conn, section.section_id).await?;
    if paired > 0
        && (row.team_boards != before.team_boards || row.team_reserves != before.team_reserves)
    {
        return Err(Error::invalid("team.boards", m::TEAM_BOARDS_FIXED.msg()));
    }
    db::team::put_settings(&mut *conn, section.section_id, &row).await?;
    Ok(())
}

/// One player of a roster as sent: an existing player of the tournament by id, or a new one.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RosterInput {
    /// An existing player of the tournament (then the other fields are ignored).
    pub player_id: Option<Uuid>,
    /// Name (a new player).
    pub name: Option<String>,
    /// `m`, `f` or `x`.
    pub gender: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Rating.
    pub rating: Option<i64>,
    /// Email (private).
    pub email: Option<String>,
    /// Phone (private).
    pub phone: Option<String>,
}

/// A new team, or a team's new details (the roster, when given, replaces the old one).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamInput {
    /// Team name (required on create).
    pub name: Option<String>,
    /// Club, province or federation.
    pub club: Option<String>,
    /// Team rating (default: the average of its first boards' ratings, when all are rated).
    pub rating: Option<i64>,
    /// The captain's name, when the captain is not on the roster.
    pub captain: Option<String>,
    /// The captain's position on the roster (1 = board 1), when the captain plays.
    pub captain_position: Option<i64>,
    /// The roster in board order: boards first, then reserves (required on create).
    pub roster: Option<Vec<RosterInput>>,
    /// Fee tier (by name, among the section's): the desk's entry records its fee (create).
    pub fee_tier: Option<String>,
    /// Amount paid at the desk with the entry (create).
    pub paid: Option<i64>,
    /// How it was paid (cash, transfer, …; default `cash`).
    pub payment_method: Option<String>,
    /// The version last read (update; alternative to `If-Match`).
    pub version: Option<i32>,
}

/// One player of a roster as shown; contact fields only to the tournament's arbiters.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RosterMember {
    /// The player.
    pub player_id: Uuid,
    /// Position on the roster (board order; beyond the boards: reserves).
    pub position: i16,
    /// A reserve (position beyond the number of boards).
    pub reserve: bool,
    /// Name.
    pub name: String,
    /// Gender.
    pub gender: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Rating.
    pub rating: Option<i32>,
    /// Email (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Phone (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
}

/// A team as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamView {
    /// Id (the team's entrant id: byes, withdrawals, forbidden pairs and keys use it).
    pub id: Uuid,
    /// Section.
    pub section_id: Uuid,
    /// Starting number (序号).
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// Club, province or federation.
    pub club: Option<String>,
    /// Rating.
    pub rating: Option<i32>,
    /// `active` or `withdrawn`.
    pub status: EntrantStatus,
    /// The captain's name (the roster member's when the captain plays).
    pub captain: Option<String>,
    /// The captain's position on the roster, when the captain plays.
    pub captain_position: Option<i16>,
    /// The roster in board order.
    pub roster: Vec<RosterMember>,
    /// Version for compare-and-set (`If-Match` on update).
    pub version: i32,
}

/// A team section's settings and teams.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamList {
    /// The section's team settings.
    pub settings: TeamSettings,
    /// The teams by starting number.
    pub teams: Vec<TeamView>,
}

fn view(
    e: &EntrantRow,
    members: &[&MemberRow],
    captain: Option<&CaptainRow>,
    boards: u32,
    private: bool,
) -> TeamView {
    let roster: Vec<RosterMember> = members
        .iter()
        .map(|m| RosterMember {
            player_id: m.player_id,
            position: m.position,
            reserve: m.position as u32 > boards,
            name: m.name.clone(),
            gender: m.gender.clone(),
            club: m.club.clone(),
            rating: m.rating,
            email: m.email.clone().filter(|_| private),
            phone: m.phone.clone().filter(|_| private),
        })
        .collect();
    let position = captain.and_then(|c| c.captain_position);
    let name = captain.and_then(|c| c.captain_name.clone()).or_else(|| {
        position.and_then(|p| {
            roster
                .iter()
                .find(|r| r.position == p)
                .map(|r| r.name.clone())
        })
    });
    TeamView {
        id: e.entrant_id,
        section_id: e.section_id,
        start_no: e.start_no,
        name: e.name.clone(),
        club: e.club.clone(),
        rating: e.rating,
        status: e.status,
        captain: name,
        captain_position: position,
        roster,
        version: e.version,
    }
}

/// The teams of a section, as `private` viewers see them.
async fn team_views(
    conn: &mut PgConnection,
    section_id: Uuid,
    boards: u32,
    private: bool,
) -> Result<Vec<TeamView>> {
    let entrants = db::entrant::list(&mut *conn, section_id).await?;
    let members = db::entrant::members(&mut *conn, section_id).await?;
    let captains = db::team::captains(&mut *conn, section_id).await?;
    let captains: HashMap<Uuid, &CaptainRow> = captains.iter().map(|c| (c.entrant_id, c)).collect();
    let mut by_team: HashMap<Uuid, Vec<&MemberRow>> = HashMap::new();
    for m in &members {
        by_team.entry(m.entrant_id).or_default().push(m);
    }
    Ok(entrants
        .iter()
        .map(|e| {
            view(
                e,
                by_team.get(&e.entrant_id).map_or(&[][..], Vec::as_slice),
                captains.get(&e.entrant_id).copied(),
                boards,
                private,
            )
        })
        .collect())
}

/// A team section, refused (409) for another entry type.
fn team_section(section: &SectionRow) -> Result<()> {
    if section.entry_type == EntryType::Team {
        Ok(())
    } else {
        Err(Error::conflict(m::TEAM_NOT_TEAM_SECTION.msg()))
    }
}

/// The teams of a team section with its settings; contact data only for its arbiters.
pub async fn list(pool: &PgPool, actor: Option<&Actor>, section_id: Uuid) -> Result<TeamList> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    team_section(&section)?;
    let private = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    let settings = settings(&mut conn, section_id).await?;
    let teams = team_views(&mut conn, section_id, settings.boards, private).await?;
    Ok(TeamList {
        settings: settings.view(&section),
        teams,
    })
}

/// One team.
pub async fn get(pool: &PgPool, actor: Option<&Actor>, team_id: Uuid) -> Result<TeamView> {
    let mut conn = pool.acquire().await?;
    let entrant = db::entrant::find(&mut *conn, team_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TEAM))?;
    let section = db::section::find(&mut *conn, entrant.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    team_section(&section)?;
    let private = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    let settings = settings(&mut conn, section.section_id).await?;
    team_views(&mut conn, section.section_id, settings.boards, private)
        .await?
        .into_iter()
        .find(|t| t.id == team_id)
        .ok_or(Error::NotFound(m::NOT_FOUND_TEAM))
}

/// A roster problem as a field error of the roster.
fn roster_problem(check: &mut Check, problem: &RosterProblem, index_of: &dyn Fn(StartNo) -> usize) {
    match problem {
        RosterProblem::TooFew { players, boards } => {
            check.error("roster", m::TEAM_ROSTER_TOO_FEW.with(&[players, boards]))
        }
        RosterProblem::TooMany { players, most } => {
            check.error("roster", m::TEAM_ROSTER_TOO_MANY.with(&[players, most]))
        }
        RosterProblem::Twice(p) => check.error(
            &format!("roster[{}]", index_of(*p)),
            m::TEAM_PLAYER_TWICE.msg(),
        ),
        RosterProblem::NotOnRoster(_) => check.error("roster", m::TEAM_NOT_ON_ROSTER.msg()),
        RosterProblem::Order(_) => check.error("players", m::TEAM_LINEUP_ORDER.msg()),
        RosterProblem::TooLong { players, boards } => {
            check.error("players", m::TEAM_LINEUP_TOO_LONG.with(&[players, boards]))
        }
        RosterProblem::Boards(_) => check.error(
            "team.boards",
            m::CHECK_BETWEEN.with(&[&roster::MIN_BOARDS, &roster::MAX_BOARDS]),
        ),
    }
}

/// A roster as checked: existing players (`Ok`) and new ones (`Err`), in board order.
pub(crate) type CheckedRoster = Vec<std::result::Result<Uuid, PlayerRow>>;

/// Checks a roster: each entry an existing player of the tournament or a new player with a
/// name; between boards and boards + reserves players; nobody named twice or on another
/// team of the section (`others`: the other teams' players).
pub(crate) async fn check_roster(
    conn: &mut PgConnection,
    section: &SectionRow,
    settings: &Settings,
    input: &[RosterInput],
    others: &[Uuid],
    check: &mut Check,
) -> Result<CheckedRoster> {
    let ids: Vec<Uuid> = input.iter().filter_map(|r| r.player_id).collect();
    let known = db::team::players_of_tournament(&mut *conn, section.tournament_id, &ids).await?;
    let mut out = Vec::with_capacity(input.len());
    for (i, r) in input.iter().enumerate() {
        if let Some(id) = r.player_id {
            if !known.contains(&id) {
                check.error(
                    &format!("roster[{i}].player_id"),
                    m::TEAM_UNKNOWN_PLAYER.msg(),
                );
            }
            out.push(Ok(id));
            continue;
        }
        let field = |f: &str| format!("roster[{i}].{f}");
        let name = check.required_text(&field("name"), r.name.as_deref().unwrap_or(""), 200);
        let gender = r
            .gender
            .as_deref()
            .map(str::trim)
            .filter(|g| !g.is_empty())
            .map(|g| check.one_of(&field("gender"), g, &["m", "f", "x"]));
        let club = check.optional_text(&field("club"), r.club.as_deref(), 200);
        let rating = r.rating.map(|v| check.range(&field("rating"), v, 0, 4000));
        let email = check.optional_text(&field("email"), r.email.as_deref(), 200);
        if email.as_deref().is_some_and(|e| !e.contains('@')) {
            check.error(&field("email"), m::CHECK_NOT_EMAIL.msg());
        }
        let phone = check.optional_text(&field("phone"), r.phone.as_deref(), 50);
        out.push(Err(PlayerRow {
            player_id: Uuid::nil(),
            name,
            gender,
            club,
            rating,
            member: false,
            email,
            phone,
            address: None,
            birth_date: None,
            school_grade: None,
        }));
    }
    // The core's roster rule, on numbers standing for players: existing players by id (the
    // other teams' first), new ones each a number of their own.
    let mut number: HashMap<Uuid, StartNo> = HashMap::new();
    let mut next: StartNo = 0;
    let mut numbered = |id: Uuid, number: &mut HashMap<Uuid, StartNo>| {
        *number.entry(id).or_insert_with(|| {
            next += 1;
            next
        })
    };
    let other_roster: Vec<StartNo> = others.iter().map(|&id| numbered(id, &mut number)).collect();
    let this: Vec<StartNo> = out
        .iter()
        .map(|r| match r {
            Ok(id) => numbered(*id, &mut number),
            Err(_) => numbered(Uuid::new_v4(), &mut number),
        })
        .collect();
    // The other teams as one roster the size rule cannot refuse (only "twice" matters).
    let problems = roster::check_rosters(
        &[&other_roster, &this],
        0,
        u32::try_from(other_roster.len().max(this.len())).unwrap_or(u32::MAX),
    );
    let index_of = |p: StartNo| this.iter().position(|&q| q == p).unwrap_or(0);
    for (_, problem) in problems {
        roster_problem(check, &problem, &index_of);
    }
    for (_, problem) in roster::check_rosters(&[&this], settings.boards, settings.reserves) {
        if !matches!(problem, RosterProblem::Twice(_)) {
            roster_problem(check, &problem, &index_of);
        }
    }
    Ok(out)
}

/// The captain as checked: a name or a roster position.
fn check_captain(
    input: &TeamInput,
    roster_len: usize,
    check: &mut Check,
) -> (Option<String>, Option<i16>) {
    let name = check.optional_text("captain", input.captain.as_deref(), 200);
    let position = input.captain_position.map(|p| {
        if p < 1 || p as usize > roster_len {
            check.error(
                "captain_position",
                m::TEAM_CAPTAIN_POSITION.with(&[&roster_len]),
            );
        }
        p.clamp(1, 20) as i16
    });
    (name.filter(|_| position.is_none()), position)
}

/// Inserts a checked roster's new players and makes the roster the team's members.
async fn store_roster(
    conn: &mut PgConnection,
    tournament_id: Uuid,
    entrant_id: Uuid,
    roster: CheckedRoster,
) -> Result<Vec<Uuid>> {
    let mut ids = Vec::with_capacity(roster.len());
    for r in roster {
        ids.push(match r {
            Ok(id) => id,
            Err(p) => db::entrant::insert_player(&mut *conn, tournament_id, &p).await?,
        });
    }
    db::team::clear_roster(&mut *conn, entrant_id).await?;
    for (i, id) in ids.iter().enumerate() {
        db::entrant::insert_member(&mut *conn, entrant_id, i as i16 + 1, *id).await?;
    }
    Ok(ids)
}

/// The team's rating when none is given: the average of its first boards' ratings, when
/// all of them are rated.
async fn rating_of(
    conn: &mut PgConnection,
    section_id: Uuid,
    entrant_id: Uuid,
    boards: u32,
) -> Result<Option<i32>> {
    let members = db::entrant::members(&mut *conn, section_id).await?;
    let top: Vec<Option<i32>> = members
        .iter()
        .filter(|m| m.entrant_id == entrant_id)
        .take(boards as usize)
        .map(|m| m.rating)
        .collect();
    if top.len() < boards as usize || top.iter().any(Option::is_none) {
        return Ok(None);
    }
    Ok(Some(top.iter().flatten().sum::<i32>() / boards as i32))
}

/// The players of the section's other teams.
async fn other_players(
    conn: &mut PgConnection,
    section_id: Uuid,
    except: Option<Uuid>,
) -> Result<Vec<Uuid>> {
    Ok(db::entrant::members(&mut *conn, section_id)
        .await?
        .into_iter()
        .filter(|m| Some(m.entrant_id) != except)
        .map(|m| m.player_id)
        .collect())
}

/// Adds a team at the desk: its roster checked (`check_rosters`), new players made players
/// of the tournament, the team an entrant (next starting number, its key made by the
/// trigger) with a confirmed registration and its fee, as a desk entry of an individual.
pub async fn create(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    input: &TeamInput,
) -> Result<TeamView> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    team_section(&section)?;
    if section.status == SectionStatus::Cancelled {
        return Err(Error::conflict(m::STATE_SECTION_CANCELLED.msg()));
    }
    let settings = settings(&mut tx, section_id).await?;
    let mut check = Check::new();
    let name = check.required_text("name", input.name.as_deref().unwrap_or(""), 200);
    let club = check.optional_text("club", input.club.as_deref(), 200);
    let rating = input.rating.map(|r| check.range("rating", r, 0, 4000));
    let others = other_players(&mut tx, section_id, None).await?;
    let roster_input = input.roster.clone().unwrap_or_default();
    let roster = check_roster(
        &mut tx,
        &section,
        &settings,
        &roster_input,
        &others,
        &mut check,
    )
    .await?;
    let (captain_name, captain_position) = check_captain(input, roster.len(), &mut check);
    let fee = super::registrations::fee_of(&section, input.fee_tier.as_deref(), false, &mut check);
    let paid = input
        .paid
        .filter(|p| *p != 0)
        .map(|p| check.range("paid", p, 1, 1_000_000));
    let method = paid.map(|_| {
        super::payments::check_method(
            &mut check,
            "payment_method",
            input.payment_method.as_deref(),
        )
    });
    check.finish()?;
    let entrant =
        super::entrants::enrol(&mut tx, section_id, &name, &[rating], club.as_deref(), &[]).await?;
    let ids = store_roster(&mut tx, section.tournament_id, entrant.entrant_id, roster).await?;
    if rating.is_none() {
        let average = rating_of(&mut tx, section_id, entrant.entrant_id, settings.boards).await?;
        db::team::set_details(
            &mut *tx,
            entrant.entrant_id,
            &name,
            club.as_deref(),
            average,
        )
        .await?;
    }
    db::team::set_captain(
        &mut *tx,
        &CaptainRow {
            entrant_id: entrant.entrant_id,
            captain_name,
            captain_position,
        },
    )
    .await?;
    if section.pair_checked_in_only {
        db::key::set_checked_in(&mut *tx, entrant.entrant_id, true, false).await?;
    }
    // A desk entry is a confirmed registration with its fee (the team's first player stands
    // for the team in the registration list).
    if let Some(&player_id) = ids.first() {
        let registration_id = db::registration::insert(
            &mut *tx,
            section_id,
            player_id,
            None,
            RegistrationStatus::Confirmed,
            (fee.0.as_deref(), fee.1),
            false,
        )
        .await?;
        db::registration::set_status(
            &mut *tx,
            registration_id,
            RegistrationStatus::Confirmed,
            Some(entrant.entrant_id),
        )
        .await?;
        if let (Some(paid), Some(method)) = (paid, method.as_deref()) {
            let reg = db::registration::find(&mut *tx, registration_id)
                .await?
                .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
            super::payments::receive(&mut tx, &reg, paid, method, None).await?;
        }
    }
    let view = team_views(&mut tx, section_id, settings.boards, true)
        .await?
        .into_iter()
        .find(|t| t.id == entrant.entrant_id)
        .ok_or(Error::NotFound(m::NOT_FOUND_TEAM))?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "create",
            entity: "team",
            entity_id: Some(entrant.entrant_id),
            before: None,
            after: serde_json::to_value(&view).ok().map(|mut v| {
                v["fee_tier"] = json!(fee.0);
                v["fee_amount"] = json!(fee.1);
                v["paid"] = json!(paid);
                v
            }),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}

/// Makes a confirmed team registration (issue #41, `team_registrations`) a team in the
/// caller's transaction: the entrant (next starting number, its key made by the trigger)
/// with its roster (players already stored, board order), rating (the average of its first
/// boards', when all are rated) and captain; returns the entrant.
pub(crate) async fn enrol_registered(
    conn: &mut PgConnection,
    section: &SectionRow,
    (name, club): (&str, Option<&str>),
    roster: &[Uuid],
    (captain_name, captain_position): (Option<String>, Option<i16>),
) -> Result<Uuid> {
    let settings = settings(&mut *conn, section.section_id).await?;
    let entrant =
        super::entrants::enrol(&mut *conn, section.section_id, name, &[None], club, &[]).await?;
    for (i, id) in roster.iter().enumerate() {
        db::entrant::insert_member(&mut *conn, entrant.entrant_id, i as i16 + 1, *id).await?;
    }
    let average = rating_of(
        &mut *conn,
        section.section_id,
        entrant.entrant_id,
        settings.boards,
    )
    .await?;
    db::team::set_details(&mut *conn, entrant.entrant_id, name, club, average).await?;
    db::team::set_captain(
        &mut *conn,
        &CaptainRow {
            entrant_id: entrant.entrant_id,
            captain_name,
            captain_position,
        },
    )
    .await?;
    if section.pair_checked_in_only {
        db::key::set_checked_in(&mut *conn, entrant.entrant_id, true, false).await?;
    }
    Ok(entrant.entrant_id)
}

/// The team (entrant) and its section, the section locked, the actor an arbiter of it.
async fn team_for_update(
    conn: &mut PgConnection,
    actor: &Actor,
    team_id: Uuid,
    need: Need,
) -> Result<(EntrantRow, SectionRow)> {
    let entrant = db::entrant::find(&mut *conn, team_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TEAM))?;
    let section = db::section::find_for_update(&mut *conn, entrant.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut *conn, actor, section.tournament_id, need).await?;
    team_section(&section)?;
    let entrant = db::entrant::find(&mut *conn, team_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TEAM))?;
    Ok((entrant, section))
}

/// Changes a team's name, club, rating, captain or roster (compare-and-set on its version).
/// A roster is replaced whole; once the team has played, its players who played stay on it
/// (board order is fixed for the event: only reserves may be added at the end).
pub async fn update(
    pool: &PgPool,
    actor: &Actor,
    team_id: Uuid,
    input: &TeamInput,
    expected: Option<i32>,
) -> Result<TeamView> {
    let mut tx = pool.begin().await?;
    let (entrant, section) = team_for_update(&mut tx, actor, team_id, Need::Arbiter).await?;
    if let Some(expected) = expected.or(input.version) {
        if expected != entrant.version {
            return Err(Error::conflict(
                m::STALE_ENTRANT.with(&[&entrant.version, &expected]),
            ));
        }
    }
    let settings = settings(&mut tx, section.section_id).await?;
    let before = team_views(&mut tx, section.section_id, settings.boards, true)
        .await?
        .into_iter()
        .find(|t| t.id == team_id)
        .ok_or(Error::NotFound(m::NOT_FOUND_TEAM))?;
    let mut check = Check::new();
    let name = match &input.name {
        Some(n) => check.required_text("name", n, 200),
        None => entrant.name.clone(),
    };
    let club = match &input.club {
        Some(c) => check.optional_text("club", Some(c), 200),
        None => entrant.club.clone(),
    };
    let rating = match input.rating {
        Some(r) => Some(check.range("rating", r, 0, 4000)),
        None => entrant.rating,
    };
    let roster = match &input.roster {
        Some(r) => {
            let others = other_players(&mut tx, section.section_id, Some(team_id)).await?;
            Some(check_roster(&mut tx, &section, &settings, r, &others, &mut check).await?)
        }
        None => None,
    };
    let roster_len = roster.as_ref().map_or(before.roster.len(), Vec::len);
    let (captain_name, captain_position) =
        if input.captain.is_some() || input.captain_position.is_some() {
            check_captain(input, roster_len, &mut check)
        } else {
            (
                db::team::captains(&mut *tx, section.section_id)
                    .await?
                    .into_iter()
                    .find(|c| c.entrant_id == team_id)
                    .and_then(|c| c.captain_name),
                before
                    .captain_position
                    .filter(|&p| p as usize <= roster_len),
            )
        };
    check.finish()?;
    if let Some(roster) = roster {
        let played = db::team::players_who_played(&mut *tx, team_id).await?;
        let ids: Vec<Option<Uuid>> = roster.iter().map(|r| r.as_ref().ok().copied()).collect();
        // Players who played keep their places (board order is fixed for the event).
        for (i, old) in before.roster.iter().enumerate() {
            if played.contains(&old.player_id)
                && ids.get(i).copied().flatten() != Some(old.player_id)
            {
                return Err(Error::invalid(
                    &format!("roster[{i}]"),
                    m::TEAM_LINEUP_PLAYED.msg(),
                ));
            }
        }
        store_roster(&mut tx, section.tournament_id, team_id, roster).await?;
    }
    db::team::set_details(&mut *tx, team_id, &name, club.as_deref(), rating).await?;
    db::team::set_captain(
        &mut *tx,
        &CaptainRow {
            entrant_id: team_id,
            captain_name,
            captain_position,
        },
    )
    .await?;
    let after = team_views(&mut tx, section.section_id, settings.boards, true)
        .await?
        .into_iter()
        .find(|t| t.id == team_id)
        .ok_or(Error::NotFound(m::NOT_FOUND_TEAM))?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "update",
            entity: "team",
            entity_id: Some(team_id),
            before: serde_json::to_value(&before).ok(),
            after: serde_json::to_value(&after).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(after)
}

/// Deletes a team that has not played (a team that has is withdrawn instead, as an
/// entrant). Its players stay players of the tournament.
pub async fn delete(pool: &PgPool, actor: &Actor, team_id: Uuid) -> Result<()> {
    let mut tx = pool.begin().await?;
    let (entrant, section) = team_for_update(&mut tx, actor, team_id, Need::Arbiter).await?;
    if db::team::has_boards(&mut *tx, team_id).await? {
        return Err(Error::conflict(m::TEAM_HAS_GAMES.msg()));
    }
    let settings = settings(&mut tx, section.section_id).await?;
    let before = team_views(&mut tx, section.section_id, settings.boards, true)
        .await?
        .into_iter()
        .find(|t| t.id == team_id);
    db::entrant::delete(&mut *tx, entrant.entrant_id).await?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "delete",
            entity: "team",
            entity_id: Some(team_id),
            before: before.and_then(|b| serde_json::to_value(&b).ok()),
            after: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A line-up as sent: the players of the roster for boards 1, 2, … in roster order (fewer
/// than the boards leaves the last boards empty: forfeited).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineupInput {
    /// The round (for a captain's key; the desk's path names it).
    pub round: Option<i32>,
    /// Player ids of the roster, board 1 first.
    pub players: Vec<Uuid>,
}

/// One board of a line-up as shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LineupBoard {
    /// Board of the match.
    pub board: i16,
    /// The player.
    pub player_id: Uuid,
    /// Name.
    pub name: String,
    /// Position on the roster.
    pub position: i16,
}

/// A team's line-up of a round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LineupView {
    /// The team.
    pub team_id: Uuid,
    /// Team name.
    pub team: String,
    /// Round.
    pub round: i32,
    /// `desk`, `captain`, or `default` (the strongest available by roster order, given when
    /// the round was paired without one); none yet when the round is not paired.
    pub entered_by: Option<String>,
    /// The boards, in order.
    pub boards: Vec<LineupBoard>,
}

/// Who sets a line-up.
pub enum LineupBy<'a> {
    /// The desk (an arbiter): until the match has a result entered.
    Desk(&'a Actor),
    /// The captain with the team's key: until the round is published.
    Captain(std::net::IpAddr, &'a super::throttle::Limits, &'a str),
}

/// Sets a team's line-up for a round. The desk may set it until a result of the match is
/// entered; the captain, with the team's key, until the round is published (the deadline).
/// A round paired without one got the default line-up (the strongest available players by
/// roster order); a line-up set after pairing re-seats the match's games.
pub async fn put_lineup(
    pool: &PgPool,
    by: LineupBy<'_>,
    section_id: Option<Uuid>,
    round: Option<i32>,
    team_id: Option<Uuid>,
    input: &LineupInput,
) -> Result<LineupView> {
    let (team_id, actor, entered_by) = match &by {
        LineupBy::Desk(actor) => (
            team_id.ok_or(Error::NotFound(m::NOT_FOUND_TEAM))?,
            Some(*actor),
            "desk",
        ),
        LineupBy::Captain(ip, limits, key) => {
            let entrant = super::keys::find(pool, limits, *ip, key).await?;
            (entrant.entrant_id, None, "captain")
        }
    };
    let mut tx = pool.begin().await?;
    let entrant = db::entrant::find(&mut *tx, team_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TEAM))?;
    let section = db::section::find_for_update(&mut tx, entrant.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    if let Some(actor) = actor {
        access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    }
    if section_id.is_some_and(|s| s != section.section_id) {
        return Err(Error::NotFound(m::NOT_FOUND_TEAM));
    }
    team_section(&section)?;
    let round = round
        .or(input.round)
        .ok_or_else(|| Error::invalid("round", m::CHECK_REQUIRED.msg()))?;
    if round < 1 || round > section.rounds {
        return Err(Error::invalid(
            "round",
            m::CHECK_BETWEEN.with(&[&1, &section.rounds]),
        ));
    }
    let settings = settings(&mut tx, section.section_id).await?;
    let members = db::entrant::members(&mut *tx, section.section_id).await?;
    let roster: Vec<&MemberRow> = members.iter().filter(|m| m.entrant_id == team_id).collect();
    let mut check = Check::new();
    let positions: Vec<StartNo> = input
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| match roster.iter().find(|m| m.player_id == *p) {
            Some(m) => m.position as StartNo,
            None => {
                check.error(&format!("players[{i}]"), m::TEAM_NOT_ON_ROSTER.msg());
                0
            }
        })
        .collect();
    check.finish()?;
    let roster_positions: Vec<StartNo> = roster.iter().map(|m| m.position as StartNo).collect();
    if let Err(problem) = roster::check_lineup(&roster_positions, &positions, settings.boards) {
        let mut check = Check::new();
        roster_problem(&mut check, &problem, &|p| {
            positions.iter().position(|&q| q == p).unwrap_or(0)
        });
        check.finish()?;
    }
    let paired = db::round::find(&mut *tx, section.section_id, round).await?;
    if let Some(r) = &paired {
        match (&by, r.status) {
            (_, RoundStatus::Completed) => {
                return Err(Error::conflict(m::TEAM_LINEUP_ROUND_OVER.with(&[&round])))
            }
            (LineupBy::Captain(..), RoundStatus::Published) => {
                return Err(Error::conflict(m::TEAM_LINEUP_CLOSED.with(&[&round])))
            }
            _ => {}
        }
    }
    db::team::put_lineup(&mut tx, team_id, round, &input.players, entered_by).await?;
    if let Some(r) = &paired {
        super::team_matches::reseat_team(&mut tx, &section, &settings, r.round_id, team_id).await?;
    }
    let view = lineup_views(&mut tx, section.section_id, round)
        .await?
        .into_iter()
        .find(|l| l.team_id == team_id)
        .ok_or(Error::NotFound(m::NOT_FOUND_TEAM))?;
    access::audit(
        &mut tx,
        section.tournament_id,
        actor,
        Change {
            action: "lineup",
            entity: "team",
            entity_id: Some(team_id),
            before: None,
            after: serde_json::to_value(&view).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}

/// Every team's line-up of a round.
pub(crate) async fn lineup_views(
    conn: &mut PgConnection,
    section_id: Uuid,
    round: i32,
) -> Result<Vec<LineupView>> {
    let entrants = db::entrant::list(&mut *conn, section_id).await?;
    let members = db::entrant::members(&mut *conn, section_id).await?;
    let lineups = db::team::lineups(&mut *conn, section_id).await?;
    Ok(entrants
        .iter()
        .map(|e| {
            let mine: Vec<_> = lineups
                .iter()
                .filter(|l| l.entrant_id == e.entrant_id && l.round == round)
                .collect();
            LineupView {
                team_id: e.entrant_id,
                team: e.name.clone(),
                round,
                entered_by: mine.first().map(|l| l.entered_by.clone()),
                boards: mine
                    .iter()
                    .map(|l| {
                        let m = members
                            .iter()
                            .find(|m| m.entrant_id == e.entrant_id && m.player_id == l.player_id);
                        LineupBoard {
                            board: l.board,
                            player_id: l.player_id,
                            name: m.map(|m| m.name.clone()).unwrap_or_default(),
                            position: m.map_or(0, |m| m.position),
                        }
                    })
                    .collect(),
            }
        })
        .collect())
}

/// The line-ups of a round (public once the round is published; the section's staff see
/// them earlier).
pub async fn lineups(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
    round: i32,
) -> Result<Vec<LineupView>> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    team_section(&section)?;
    let staff = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    let published = db::round::find(&mut *conn, section_id, round)
        .await?
        .is_some_and(|r| r.status != RoundStatus::Paired);
    if !staff && !published {
        return Err(Error::NotFound(m::NOT_FOUND_ROUND));
    }
    lineup_views(&mut conn, section_id, round).await
}
