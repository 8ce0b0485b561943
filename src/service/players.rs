//! The players' pages (issue #16): one entrant's rounds and tiebreaks, finding an entrant by
//! number or name, what a section shows "now", and names in the order of the visitor's
//! language. Nothing private: no contact data, and unpublished rounds only for the staff who
//! may see them on the pairing pages too.

use super::rounds::RoundView;
use super::state::{self, SectionState};
use super::users::Actor;
use super::{access, standings, Error, Result};
use crate::db;
use crate::db::collation::Collation;
use crate::i18n::messages as m;
use crate::vocab::{EntrantStatus, EntryType, RoundStatus};
use arbiter_core::model::{ResultCode, Side};
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

/// The opponent of one round.
#[derive(Debug, Clone)]
pub struct Opponent {
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
}

/// One round of an entrant.
#[derive(Debug, Clone)]
pub struct PlayerRound {
    /// Round number.
    pub number: i32,
    /// Paired (staff only), published or completed.
    pub status: RoundStatus,
    /// Board number, when on a board (the pairing-allocated bye has one too).
    pub board: Option<i32>,
    /// Colour, when there is an opponent.
    pub colour: Option<Side>,
    /// Opponent, when there is one.
    pub opponent: Option<Opponent>,
    /// The entrant's result code (`Pending` while the game is on).
    pub result: ResultCode,
    /// Not on a board or a bye: `pairing` (the allocated bye), `half`, `full` (requested
    /// byes) or `absent`; `None` for a game.
    pub absence: Option<&'static str>,
    /// Points after this round, in tenths.
    pub running_tenths: i64,
}

/// One entrant's page.
#[derive(Debug, Clone)]
pub struct PlayerView {
    /// Starting number.
    pub start_no: i32,
    /// Name (the team's for doubles).
    pub name: String,
    /// Club.
    pub club: Option<String>,
    /// The team's players (doubles only).
    pub members: Vec<String>,
    /// Withdrawn.
    pub withdrawn: bool,
    /// Every round visible to the visitor, oldest first.
    pub rounds: Vec<PlayerRound>,
    /// Rank in the standings.
    pub rank: Option<u32>,
    /// Points in the standings.
    pub points: Option<f64>,
    /// The standings' rounds evaluated, and whether a result is still missing in them (the
    /// rank is then provisional: every page says so alike, issue #39 item 5).
    pub standings_round: u32,
    /// No result is missing in the rounds evaluated.
    pub standings_final: bool,
    /// The tiebreak keys and this entrant's values, in chain order.
    pub tiebreaks: Vec<(String, Value)>,
}

impl PlayerView {
    /// The round being played: the newest visible round while it is not completed.
    pub fn current(&self) -> Option<&PlayerRound> {
        self.rounds
            .last()
            .filter(|r| r.status != RoundStatus::Completed)
    }
}

/// A section's state as `actor` may see it: drafts only for its staff.
async fn load_visible(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
) -> Result<SectionState> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let private = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    if private {
        state::load(&mut conn, section, false).await
    } else {
        state::load_public(&mut conn, section).await
    }
}

/// The entrant with starting number `start_no`: every visible round and the standings line.
pub async fn get(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
    start_no: i32,
) -> Result<PlayerView> {
    let state = load_visible(pool, actor, section_id).await?;
    let no = u32::try_from(start_no).map_err(|_| Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    let row = state
        .entrant_by_no(no)
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?
        .clone();
    let scoring = &state.tournament.scoring;
    let core = state.tournament.entrant(no);
    let rounds = state
        .rounds
        .iter()
        .map(|round| {
            let record = core.and_then(|e| e.round(round.number as u32));
            let board = state.boards.iter().find(|b| {
                b.round == round.number
                    && (b.red_entrant_id == row.entrant_id
                        || b.black_entrant_id == Some(row.entrant_id))
            });
            let opponent = record.and_then(|r| r.opponent).map(|o| {
                let e = state.entrant_by_no(o);
                Opponent {
                    start_no: e.and_then(|e| e.start_no),
                    name: e.map(|e| e.name.clone()).unwrap_or_default(),
                }
            });
            let result = record.map_or(ResultCode::ZeroBye, |r| r.result);
            let absence = match (board, &opponent) {
                (_, Some(_)) => None,
                (Some(_), None) => Some("pairing"),
                (None, None) => Some(match result {
                    ResultCode::HalfBye => "half",
                    ResultCode::FullBye => "full",
                    _ => "absent",
                }),
            };
            PlayerRound {
                number: round.number,
                status: round.status,
                board: board.map(|b| b.number),
                colour: record.and_then(|r| r.colour),
                opponent,
                result,
                absence,
                running_tenths: core
                    .map_or(0, |e| e.points_after(scoring, round.number as u32).tenths()),
            }
        })
        .collect();
    let members = if state.section.entry_type == EntryType::Doubles {
        let mut conn = pool.acquire().await?;
        db::entrant::members(&mut *conn, section_id)
            .await?
            .into_iter()
            .filter(|m| m.entrant_id == row.entrant_id)
            .map(|m| m.name)
            .collect()
    } else {
        Vec::new()
    };
    let table = standings::compute(pool, section_id).await?;
    let line = table.rows.iter().find(|r| r.entrant_id == row.entrant_id);
    let tiebreaks = table
        .tiebreaks
        .iter()
        .map(|key| {
            let value = line
                .and_then(|l| l.tiebreaks.get(key).cloned())
                .unwrap_or(Value::Null);
            (key.clone(), value)
        })
        .collect();
    Ok(PlayerView {
        start_no,
        name: row.name.clone(),
        club: row.club.clone(),
        members,
        withdrawn: row.status == EntrantStatus::Withdrawn,
        rounds,
        rank: line.map(|l| l.rank),
        points: line.map(|l| l.points),
        standings_round: table.round,
        standings_final: table.is_final,
        tiebreaks,
    })
}

/// One entrant's history before a round, as the manual pairing editor shows it beside the
/// player: points, colours and opponents of the earlier rounds.
#[derive(Debug, Clone)]
pub struct HistoryBefore {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Points before the round in the section's scoring (the pairing sheet's score).
    pub points: f64,
    /// The colour of each earlier round, oldest first; `None` without an opponent.
    pub colours: Vec<Option<Side>>,
    /// The opponents of the earlier rounds, oldest first, with the round's number.
    pub opponents: Vec<(i32, Opponent)>,
}

/// Every entrant's history before round `number` (rounds `1..number`), computed as the
/// pairing of that round saw it (`state::load_before`); for the tournament's scorers.
pub async fn history_before(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    number: i32,
) -> Result<Vec<HistoryBefore>> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(
        &mut conn,
        actor,
        section.tournament_id,
        access::Need::Scorer,
    )
    .await?;
    let state = state::load_before(&mut conn, section, number).await?;
    let earlier = u32::try_from(number.max(1) - 1).unwrap_or(0);
    let scoring = &state.tournament.scoring;
    Ok(state
        .entrants
        .iter()
        .map(|row| {
            let core = row
                .start_no
                .and_then(|no| u32::try_from(no).ok())
                .and_then(|no| state.tournament.entrant(no));
            let records = (1..=earlier).map(|r| (r, core.and_then(|e| e.round(r))));
            HistoryBefore {
                entrant_id: row.entrant_id,
                points: core.map_or(0, |e| e.points_after(scoring, earlier).tenths()) as f64 / 10.0,
                colours: records
                    .clone()
                    .map(|(_, r)| r.and_then(|r| r.colour))
                    .collect(),
                opponents: records
                    .filter_map(|(round, r)| {
                        let e = state.entrant_by_no(r?.opponent?);
                        Some((
                            round as i32,
                            Opponent {
                                start_no: e.and_then(|e| e.start_no),
                                name: e.map(|e| e.name.clone()).unwrap_or_default(),
                            },
                        ))
                    })
                    .collect(),
            }
        })
        .collect())
}

/// An entrant found by the find-me box.
#[derive(Debug, Clone)]
pub struct Found {
    /// Starting number.
    pub start_no: i32,
    /// Name.
    pub name: String,
    /// Club.
    pub club: Option<String>,
}

/// The longest query the find-me box takes, in characters.
pub const MAX_QUERY: usize = 100;

/// Finds entrants of a section: a number finds the entrant with that starting number; other
/// text every entrant whose name (or, for doubles, a player's name) it fits across scripts
/// (traditional and simplified Chinese, pinyin with or without tones, initials, Latin
/// letters without case or accents: `arbiter_core::search`), exact names first, then
/// prefixes, then the rest. At most [`MAX_QUERY`] characters; an empty query finds no one.
pub async fn find(pool: &PgPool, section_id: Uuid, query: &str) -> Result<Vec<Found>> {
    let query = query.trim();
    if query.chars().count() > MAX_QUERY {
        let mut fields = super::FieldErrors::new();
        fields.insert("q".into(), vec![m::CHECK_LONGER_THAN.with(&[&MAX_QUERY])]);
        return Err(Error::Invalid {
            message: m::CHECK_SEARCH_TOO_LONG.msg(),
            fields,
        });
    }
    let mut conn = pool.acquire().await?;
    db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    if query.is_empty() {
        return Ok(Vec::new());
    }
    let entrants = db::entrant::list(&mut *conn, section_id).await?;
    let found = |e: &db::entrant::EntrantRow| {
        e.start_no.map(|start_no| Found {
            start_no,
            name: e.name.clone(),
            club: e.club.clone(),
        })
    };
    let number = query.strip_prefix('#').unwrap_or(query);
    if let Ok(n) = number.parse::<i32>() {
        return Ok(entrants
            .iter()
            .filter(|e| e.start_no == Some(n))
            .filter_map(found)
            .collect());
    }
    let Some(query) = arbiter_core::search::Query::new(query) else {
        return Ok(Vec::new());
    };
    let members = db::entrant::members(&mut *conn, section_id).await?;
    let mut ranked: Vec<(arbiter_core::search::Rank, &db::entrant::EntrantRow)> = entrants
        .iter()
        .filter_map(|e| {
            let names = std::iter::once(e.name.as_str()).chain(
                members
                    .iter()
                    .filter(|m| m.entrant_id == e.entrant_id)
                    .map(|m| m.name.as_str()),
            );
            arbiter_core::search::best_rank(&query, names).map(|rank| (rank, e))
        })
        .collect();
    // Exact names first, then names that start with the query, then the rest; in each, by
    // starting number.
    ranked.sort_by_key(|(rank, e)| (*rank, e.start_no));
    Ok(ranked.into_iter().filter_map(|(_, e)| found(e)).collect())
}

/// What `/s/{id}/now` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Now {
    /// A round is being played: its pairings.
    Round(i32),
    /// Between rounds, or after the last: the standings.
    Standings,
    /// No round yet: the entrants.
    Entrants,
}

/// What a section shows now, from the rounds the visitor may see: the newest published round
/// while it has games on, else the standings once a round exists, else the entrants.
pub fn now(rounds: &[RoundView]) -> Now {
    if let Some(playing) = rounds
        .iter()
        .rev()
        .find(|r| r.status == RoundStatus::Published)
    {
        return Now::Round(playing.number);
    }
    if rounds.is_empty() {
        Now::Entrants
    } else {
        Now::Standings
    }
}

/// The collation of a language tag (`zh-Hant`, `zh-Hans`, anything else: English).
fn collation_of(lang_tag: &str) -> Collation {
    match lang_tag {
        "zh-Hant" => Collation::ZhHantStroke,
        "zh-Hans" => Collation::ZhPinyin,
        _ => Collation::En,
    }
}

/// The indices of `names` in the order readers of `lang_tag` expect: zh-Hant by stroke count,
/// zh-Hans by pinyin, English alphabetically; equal names keep their given order.
pub async fn name_order(pool: &PgPool, lang_tag: &str, names: &[String]) -> Result<Vec<usize>> {
    if names.len() < 2 {
        return Ok((0..names.len()).collect());
    }
    let order = db::collation::order(pool, collation_of(lang_tag), names).await?;
    Ok(order
        .into_iter()
        .filter_map(|i| usize::try_from(i).ok())
        .filter(|&i| i < names.len())
        .collect())
}
