//! Entrants (individuals or doubles teams): desk entries, late entries, withdrawals,
//! check-in, requested byes and forbidden pairs.

use super::access::{self, Change, Need};
use super::check::Check;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::entrant::{EntrantRow, MemberRow, PlayerRow};
use crate::i18n::messages as m;
use crate::vocab::{ByeKind, EntrantStatus, EntryType, RegistrationStatus, SectionStatus};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use std::collections::HashMap;
use utoipa::ToSchema;
use uuid::Uuid;

/// One player of a doubles team.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MemberInput {
    /// Name.
    pub name: String,
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

/// A new entrant.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntrantInput {
    /// Name (of the player; for a team, the team name, default "A / B").
    pub name: Option<String>,
    /// Rating.
    pub rating: Option<i64>,
    /// Club.
    pub club: Option<String>,
    /// `m`, `f` or `x`.
    pub gender: Option<String>,
    /// Member of the organising club.
    pub member: Option<bool>,
    /// Email (private).
    pub email: Option<String>,
    /// Phone (private).
    pub phone: Option<String>,
    /// Address (private).
    pub address: Option<String>,
    /// Birth date (private).
    pub birth_date: Option<NaiveDate>,
    /// School grade, for sections with grade eligibility.
    pub school_grade: Option<String>,
    /// The two players of a doubles team.
    pub members: Option<Vec<MemberInput>>,
    /// Fee tier (by name, among the section's): the desk's entry records its fee.
    pub fee_tier: Option<String>,
    /// Amount paid at the desk with the entry (recorded in the ledger).
    pub paid: Option<i64>,
    /// How it was paid (cash, transfer, …; default `cash`).
    pub payment_method: Option<String>,
}

/// A player of an entrant as shown; contact fields only to the tournament's arbiters.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Member {
    /// Name.
    pub name: String,
    /// Gender.
    pub gender: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Rating.
    pub rating: Option<i32>,
    /// Member of the organising club (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<bool>,
    /// Email (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Phone (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Address (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Birth date (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub birth_date: Option<NaiveDate>,
}

/// An entrant as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EntrantView {
    /// Id.
    pub id: Uuid,
    /// Starting number (序号).
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// Rating.
    pub rating: Option<i32>,
    /// Club.
    pub club: Option<String>,
    /// `active` or `withdrawn`.
    pub status: EntrantStatus,
    /// Present at the venue.
    pub checked_in: bool,
    /// Checked in by the player's own key (issue 36), not at the desk.
    pub checked_in_by_self: bool,
    /// First round the entrant is paired in (late entries join later).
    pub joined_round: i32,
    /// First round no longer played, when withdrawn.
    pub withdrawn_from_round: Option<i32>,
    /// The player, or both players of a team.
    pub members: Vec<Member>,
    /// Version for compare-and-set: send it back (`If-Match`) with an edit (409 when stale).
    pub version: i32,
}

fn member_view(m: &MemberRow, private: bool) -> Member {
    Member {
        name: m.name.clone(),
        gender: m.gender.clone(),
        club: m.club.clone(),
        rating: m.rating,
        member: private.then_some(m.member),
        email: m.email.clone().filter(|_| private),
        phone: m.phone.clone().filter(|_| private),
        address: m.address.clone().filter(|_| private),
        birth_date: m.birth_date.filter(|_| private),
    }
}

/// Builds views of entrants with their members.
pub fn views(entrants: &[EntrantRow], members: &[MemberRow], private: bool) -> Vec<EntrantView> {
    let mut by_entrant: HashMap<Uuid, Vec<Member>> = HashMap::new();
    for m in members {
        by_entrant
            .entry(m.entrant_id)
            .or_default()
            .push(member_view(m, private));
    }
    entrants
        .iter()
        .map(|e| EntrantView {
            id: e.entrant_id,
            start_no: e.start_no,
            name: e.name.clone(),
            rating: e.rating,
            club: e.club.clone(),
            status: e.status,
            checked_in: e.checked_in,
            checked_in_by_self: false,
            joined_round: e.joined_round,
            withdrawn_from_round: e.withdrawn_from_round,
            members: by_entrant.remove(&e.entrant_id).unwrap_or_default(),
            version: e.version,
        })
        .collect()
}

fn check_gender(check: &mut Check, field: &str, gender: Option<&str>) -> Option<String> {
    let g = gender.map(str::trim).filter(|g| !g.is_empty())?;
    Some(check.one_of(field, g, &["m", "f", "x"]))
}

fn check_rating(check: &mut Check, field: &str, rating: Option<i64>) -> Option<i32> {
    rating.map(|r| check.range(field, r, 0, 4000))
}

fn check_email(check: &mut Check, field: &str, email: Option<&str>) -> Option<String> {
    let email = check.optional_text(field, email, 200)?;
    if !email.contains('@') || email.starts_with('@') || email.ends_with('@') {
        check.error(field, m::CHECK_NOT_EMAIL.msg());
    }
    Some(email)
}

/// The players an entrant input describes, checked against the section's entry type.
pub fn players_of(
    input: &EntrantInput,
    entry_type: EntryType,
    check: &mut Check,
) -> (String, Vec<PlayerRow>) {
    let blank = |name: String| PlayerRow {
        player_id: Uuid::nil(),
        name,
        gender: None,
        club: None,
        rating: None,
        member: false,
        email: None,
        phone: None,
        address: None,
        birth_date: None,
        school_grade: None,
    };
    if entry_type == EntryType::Doubles {
        let Some(members) = input.members.as_ref().filter(|m| m.len() == 2) else {
            check.error("members", m::CHECK_DOUBLES_TEAM_NEEDS_EXACTLY.msg());
            return (input.name.clone().unwrap_or_default(), Vec::new());
        };
        let players: Vec<PlayerRow> = members
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let mut p = blank(check.required_text(&format!("members[{i}].name"), &m.name, 200));
                p.gender =
                    check_gender(check, &format!("members[{i}].gender"), m.gender.as_deref());
                p.club = check.optional_text(&format!("members[{i}].club"), m.club.as_deref(), 200);
                p.rating = check_rating(check, &format!("members[{i}].rating"), m.rating);
                p.email = check_email(check, &format!("members[{i}].email"), m.email.as_deref());
                p.phone =
                    check.optional_text(&format!("members[{i}].phone"), m.phone.as_deref(), 50);
                p.member = input.member.unwrap_or(false);
                p
            })
            .collect();
        let name = match input
            .name
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
        {
            Some(n) => check.required_text("name", n, 200),
            None => format!("{} / {}", players[0].name, players[1].name),
        };
        (name, players)
    } else {
        if input.members.is_some() {
            check.error("members", m::CHECK_ONLY_DOUBLES_MEMBERS.msg());
        }
        let name = check.required_text("name", input.name.as_deref().unwrap_or(""), 200);
        let mut p = blank(name.clone());
        p.gender = check_gender(check, "gender", input.gender.as_deref());
        p.club = check.optional_text("club", input.club.as_deref(), 200);
        p.rating = check_rating(check, "rating", input.rating);
        p.member = input.member.unwrap_or(false);
        p.email = check_email(check, "email", input.email.as_deref());
        p.phone = check.optional_text("phone", input.phone.as_deref(), 50);
        p.address = check.optional_text("address", input.address.as_deref(), 500);
        p.birth_date = check.birth_date("birth_date", input.birth_date);
        p.school_grade = check.optional_text("school_grade", input.school_grade.as_deref(), 50);
        (name, vec![p])
    }
}

/// Inserts an entrant with its players in the caller's transaction. Entrants added after
/// round 1 join from the next round (their missed rounds count as absences).
pub async fn insert_entrant(
    conn: &mut PgConnection,
    tournament_id: Uuid,
    section_id: Uuid,
    name: &str,
    players: &[PlayerRow],
) -> Result<EntrantRow> {
    let mut player_ids = Vec::with_capacity(players.len());
    for p in players {
        player_ids.push(db::entrant::insert_player(&mut *conn, tournament_id, p).await?);
    }
    let ratings: Vec<Option<i32>> = players.iter().map(|p| p.rating).collect();
    let club = players.first().and_then(|p| p.club.as_deref());
    enrol(conn, section_id, name, &ratings, club, &player_ids).await
}

/// Makes existing players (one, or a team of two) an entrant of the section: the next free
/// starting number, joining from the next round to be paired (so a late entry's missed rounds
/// count as absences). A team's rating is its members' average, when both are rated.
pub async fn enrol(
    conn: &mut PgConnection,
    section_id: Uuid,
    name: &str,
    ratings: &[Option<i32>],
    club: Option<&str>,
    player_ids: &[Uuid],
) -> Result<EntrantRow> {
    let paired = db::round::count(&mut *conn, section_id).await?;
    let start_no = db::entrant::next_start_no(&mut *conn, section_id).await?;
    let rating = match ratings {
        [one] => *one,
        [a, b] => a.zip(*b).map(|(a, b)| (a + b) / 2),
        _ => None,
    };
    let entrant = db::entrant::insert(
        &mut *conn,
        section_id,
        start_no,
        name,
        rating,
        club,
        paired as i32 + 1,
    )
    .await?;
    for (i, player_id) in player_ids.iter().enumerate() {
        db::entrant::insert_member(&mut *conn, entrant.entrant_id, i as i16 + 1, *player_id)
            .await?;
    }
    Ok(entrant)
}

/// Adds an entrant at the desk (any time, also after round 1).
pub async fn add(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    input: &EntrantInput,
) -> Result<EntrantView> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    if section.status == SectionStatus::Cancelled {
        return Err(Error::conflict(m::STATE_SECTION_CANCELLED.msg()));
    }
    if section.entry_type == EntryType::Team {
        return Err(Error::conflict(m::TEAM_ADD_WITH_ROSTER.msg()));
    }
    let mut check = Check::new();
    let (name, players) = players_of(input, section.entry_type, &mut check);
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
    let mut entrant =
        insert_entrant(&mut tx, section.tournament_id, section_id, &name, &players).await?;
    // An entry made at the desk is made in person: in a section that pairs checked-in
    // entrants only, the entrant is checked in (issue 36), so a late entrant is paired.
    if section.pair_checked_in_only {
        db::key::set_checked_in(&mut *tx, entrant.entrant_id, true, false).await?;
        entrant.checked_in = true;
    }
    let members = db::entrant::members(&mut *tx, section_id).await?;
    // A desk entry is a registration too (confirmed at once), so that the desk list and its
    // money count it.
    let player_ids: Vec<Uuid> = members
        .iter()
        .filter(|m| m.entrant_id == entrant.entrant_id)
        .map(|m| m.player_id)
        .collect();
    if let Some(player_id) = player_ids.first() {
        let registration_id = db::registration::insert(
            &mut *tx,
            section_id,
            *player_id,
            player_ids.get(1).copied(),
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
    let view = views(std::slice::from_ref(&entrant), &members, true).remove(0);
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "create",
            entity: "entrant",
            entity_id: Some(entrant.entrant_id),
            before: None,
            after: serde_json::to_value(&view).ok().map(|mut v| {
                v["fee_tier"] = serde_json::json!(fee.0);
                v["fee_amount"] = serde_json::json!(fee.1);
                v["paid"] = serde_json::json!(paid);
                v["payment_method"] = serde_json::json!(method);
                v
            }),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}

/// A section's entrants; contact data only when `actor` is one of its arbiters.
pub async fn list(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
) -> Result<Vec<EntrantView>> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let private = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    let entrants = db::entrant::list(&mut *conn, section_id).await?;
    let members = db::entrant::members(&mut *conn, section_id).await?;
    let by_self = db::key::checked_in_by_self(&mut *conn, section_id).await?;
    let mut views = views(&entrants, &members, private);
    for view in &mut views {
        view.checked_in_by_self = view.checked_in && by_self.contains(&view.id);
    }
    Ok(views)
}

/// What can change about an entrant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusChange {
    /// Leaves from the next round on; results so far stay.
    Withdraw,
    /// Comes back from the next round on.
    Readmit,
    /// Marks present.
    CheckIn,
    /// Marks not present.
    CheckOut,
}

/// Withdraws, re-admits or checks in an entrant.
pub async fn change_status(
    pool: &PgPool,
    actor: &Actor,
    entrant_id: Uuid,
    change: StatusChange,
) -> Result<EntrantView> {
    let mut tx = pool.begin().await?;
    let entrant = db::entrant::find(&mut *tx, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    let section = db::section::find_for_update(&mut tx, entrant.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let next = db::round::count(&mut *tx, section.section_id).await? as i32 + 1;
    let action = match change {
        StatusChange::Withdraw => {
            if entrant.status == EntrantStatus::Withdrawn {
                return Err(Error::conflict(m::STATE_ENTRANT_ALREADY_WITHDRAWN.msg()));
            }
            db::entrant::set_status(&mut *tx, entrant_id, EntrantStatus::Withdrawn, Some(next))
                .await?;
            "withdraw"
        }
        StatusChange::Readmit => {
            if entrant.status != EntrantStatus::Withdrawn {
                return Err(Error::conflict(m::STATE_ENTRANT_NOT_WITHDRAWN.msg()));
            }
            db::entrant::set_status(&mut *tx, entrant_id, EntrantStatus::Active, None).await?;
            // Undoes a withdrawal for absence too: the absences so far are forgiven.
            super::absences::forgive(&mut tx, section.section_id, entrant_id).await?;
            "readmit"
        }
        StatusChange::CheckIn => {
            db::entrant::set_checked_in(&mut *tx, entrant_id, true).await?;
            "check_in"
        }
        StatusChange::CheckOut => {
            db::entrant::set_checked_in(&mut *tx, entrant_id, false).await?;
            "check_out"
        }
    };
    let after = db::entrant::find(&mut *tx, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    let members = db::entrant::members(&mut *tx, section.section_id).await?;
    let before_view = views(std::slice::from_ref(&entrant), &members, true).remove(0);
    let view = views(std::slice::from_ref(&after), &members, true).remove(0);
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action,
            entity: "entrant",
            entity_id: Some(entrant_id),
            before: serde_json::to_value(&before_view).ok(),
            after: serde_json::to_value(&view).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}

/// The entrants to check in at once (`POST /api/v1/sections/{id}/check-in`).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckInMany {
    /// Entrant ids of the section.
    pub entrants: Vec<Uuid>,
}

/// What a bulk check-in did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CheckedIn {
    /// How many entrants were marked present now (those already present are not counted).
    pub checked_in: usize,
}

/// Most entrants one bulk check-in takes (a section has far fewer).
pub const MAX_CHECK_IN: usize = 5000;

/// Checks in several entrants of one section at once (the desk's bulk check-in): one
/// transaction, an audit event per entrant whose mark changes; those already present are left
/// as they are. Returns how many were marked present now.
pub async fn check_in_many(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    entrant_ids: &[Uuid],
) -> Result<usize> {
    let mut tx = pool.begin().await?;
    let tournament_id = lock_for_check_in(&mut tx, actor, section_id).await?;
    let mut check = Check::new();
    if entrant_ids.is_empty() {
        check.error("entrants", m::STATE_CHOOSE_LEAST_ONE_ENTRANT.msg());
    }
    if entrant_ids.len() > MAX_CHECK_IN {
        check.error(
            "entrants",
            m::STATE_CHECK_MOST_ENTRANTS_ONCE.with(&[&MAX_CHECK_IN]),
        );
    }
    check.finish()?;
    let mut ids = entrant_ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let mut rows = Vec::with_capacity(ids.len());
    for id in ids {
        let entrant = db::entrant::find(&mut *tx, id)
            .await?
            .filter(|e| e.section_id == section_id)
            .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
        rows.push(entrant);
    }
    let changed = mark_present(&mut tx, actor, tournament_id, section_id, &rows).await?;
    tx.commit().await?;
    Ok(changed)
}

/// Checks in the entrant with start number `start_no` (the desk's number + Enter): one
/// transaction, audited. Returns the entrant and whether the mark changed (false when they
/// were already present).
pub async fn check_in_number(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    start_no: i32,
) -> Result<(EntrantView, bool)> {
    let mut tx = pool.begin().await?;
    let tournament_id = lock_for_check_in(&mut tx, actor, section_id).await?;
    let Some(entrant) = db::entrant::list(&mut *tx, section_id)
        .await?
        .into_iter()
        .find(|e| e.start_no == Some(start_no))
    else {
        let mut check = Check::new();
        check.error("no", m::STATE_NO_ENTRANT_HAS_NUMBER.with(&[&start_no]));
        check.finish()?;
        return Err(Error::NotFound(m::NOT_FOUND_ENTRANT));
    };
    let rows = [entrant];
    let changed = mark_present(&mut tx, actor, tournament_id, section_id, &rows).await? > 0;
    let members = db::entrant::members(&mut *tx, section_id).await?;
    let mut view = views(&rows, &members, true).remove(0);
    view.checked_in = true;
    tx.commit().await?;
    Ok((view, changed))
}

/// Locks the section (as `change_status` does) and checks the actor is its arbiter; the
/// tournament's id.
async fn lock_for_check_in(tx: &mut PgConnection, actor: &Actor, section_id: Uuid) -> Result<Uuid> {
    let section = db::section::find_for_update(&mut *tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut *tx, actor, section.tournament_id, Need::Arbiter).await?;
    Ok(section.tournament_id)
}

/// Marks `rows` present (refusing the withdrawn), auditing each change; how many changed.
async fn mark_present(
    tx: &mut PgConnection,
    actor: &Actor,
    tournament_id: Uuid,
    section_id: Uuid,
    rows: &[EntrantRow],
) -> Result<usize> {
    if let Some(gone) = rows.iter().find(|e| e.status == EntrantStatus::Withdrawn) {
        return Err(Error::conflict(
            m::STATE_WITHDRAWN_RE_ADMIT_THEM.with(&[&gone.name]),
        ));
    }
    let members = db::entrant::members(&mut *tx, section_id).await?;
    let mut changed = 0;
    for entrant in rows.iter().filter(|e| !e.checked_in) {
        db::entrant::set_checked_in(&mut *tx, entrant.entrant_id, true).await?;
        let before = views(std::slice::from_ref(entrant), &members, true).remove(0);
        let after = EntrantView {
            checked_in: true,
            ..before.clone()
        };
        access::audit(
            &mut *tx,
            tournament_id,
            Some(actor),
            Change {
                action: "check_in",
                entity: "entrant",
                entity_id: Some(entrant.entrant_id),
                before: serde_json::to_value(&before).ok(),
                after: serde_json::to_value(&after).ok(),
            },
        )
        .await?;
        changed += 1;
    }
    Ok(changed)
}

/// `text` with full-width digits (`１２`, as a Chinese input method types them) made ASCII.
pub fn half_width_digits(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(u32::from(c) - 0xFF10 + u32::from('0')).unwrap_or(c),
            '＃' => '#',
            c => c,
        })
        .collect()
}

/// Whether `entrant` fits the desk's search `query`: part of the name (a team's or any
/// member's) or of the club, or the start number itself (`12`, `#12`, full-width digits too);
/// letters in any case, CJK as written.
/// An empty query fits everyone.
pub fn matches_query(entrant: &EntrantView, query: &str) -> bool {
    let query = half_width_digits(query.trim()).to_lowercase();
    if query.is_empty() {
        return true;
    }
    let fits = |text: &str| text.to_lowercase().contains(&query);
    let number = query.trim_start_matches(['#', '0']);
    entrant
        .start_no
        .is_some_and(|no| !number.is_empty() && no.to_string() == number)
        || fits(&entrant.name)
        || entrant.club.as_deref().is_some_and(fits)
        || entrant
            .members
            .iter()
            .any(|m| fits(&m.name) || m.club.as_deref().is_some_and(fits))
}

/// A bye requested for a future round.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ByeRequest {
    /// The round (not yet paired).
    pub round: i64,
    /// `half` (default), `zero` or `full`.
    pub kind: Option<String>,
}

/// Records a requested bye for a round not yet paired (SPEC §4). Half- and full-point byes are
/// limited to one per entrant unless the section allows more.
pub async fn request_bye(
    pool: &PgPool,
    actor: &Actor,
    entrant_id: Uuid,
    request: &ByeRequest,
) -> Result<()> {
    let mut tx = pool.begin().await?;
    let entrant = db::entrant::find(&mut *tx, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    let section = db::section::find_for_update(&mut tx, entrant.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let paired = db::round::count(&mut *tx, section.section_id).await?;
    let mut check = Check::new();
    let round = check.range(
        "round",
        request.round,
        paired + 1,
        i64::from(section.rounds).max(paired + 1),
    );
    let kind = check.word(
        "kind",
        request.kind.as_deref().unwrap_or("half"),
        ByeKind::ALL,
        ByeKind::Half,
    );
    check.finish()?;
    if kind != ByeKind::Zero {
        let byes = db::entrant::requested_byes(&mut *tx, section.section_id).await?;
        if byes
            .iter()
            .any(|b| b.entrant_id == entrant_id && b.kind != ByeKind::Zero && b.round != round)
        {
            return Err(Error::invalid("kind", m::FORM_ONLY_ONE_HALF_FULL.msg()));
        }
    }
    db::entrant::upsert_requested_bye(&mut *tx, entrant_id, round, kind).await?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "request_bye",
            entity: "entrant",
            entity_id: Some(entrant_id),
            before: None,
            after: Some(serde_json::json!({"round": round, "kind": kind})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A pair of entrants who must not meet.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForbiddenPairInput {
    /// One entrant.
    pub a: Uuid,
    /// The other.
    pub b: Uuid,
}

/// Forbids (or with `allow`, allows again) a pairing of two entrants of the section.
pub async fn set_forbidden_pair(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    pair: &ForbiddenPairInput,
    forbid: bool,
) -> Result<()> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    if pair.a == pair.b {
        return Err(Error::invalid("b", m::FORM_MUST_DIFFER_FROM_A.msg()));
    }
    for (field, id) in [("a", pair.a), ("b", pair.b)] {
        match db::entrant::find(&mut *tx, id).await? {
            Some(e) if e.section_id == section_id => {}
            _ => return Err(Error::invalid(field, m::FORM_NOT_ENTRANT_SECTION.msg())),
        }
    }
    if forbid {
        db::entrant::insert_forbidden_pair(&mut *tx, section_id, pair.a, pair.b).await?;
    } else {
        db::entrant::delete_forbidden_pair(&mut *tx, pair.a, pair.b).await?;
    }
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: if forbid { "forbid_pair" } else { "allow_pair" },
            entity: "section",
            entity_id: Some(section_id),
            before: None,
            after: serde_json::to_value(pair).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A requested bye as listed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RequestedBye {
    /// Entrant.
    pub entrant_id: Uuid,
    /// The entrant's name.
    pub name: String,
    /// Starting number.
    pub start_no: Option<i32>,
    /// The round.
    pub round: i32,
    /// `half`, `zero` or `full`.
    pub kind: ByeKind,
    /// Whether the round is already paired (the bye is used and can no longer be cancelled).
    pub paired: bool,
}

/// The requested byes of a section, by round then starting number.
pub async fn requested_byes(pool: &PgPool, section_id: Uuid) -> Result<Vec<RequestedBye>> {
    let mut conn = pool.acquire().await?;
    db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let paired = db::round::count(&mut *conn, section_id).await?;
    let entrants: HashMap<Uuid, EntrantRow> = db::entrant::list(&mut *conn, section_id)
        .await?
        .into_iter()
        .map(|e| (e.entrant_id, e))
        .collect();
    let mut byes: Vec<RequestedBye> = db::entrant::requested_byes(&mut *conn, section_id)
        .await?
        .into_iter()
        .map(|b| {
            let entrant = entrants.get(&b.entrant_id);
            RequestedBye {
                entrant_id: b.entrant_id,
                name: entrant.map(|e| e.name.clone()).unwrap_or_default(),
                start_no: entrant.and_then(|e| e.start_no),
                paired: i64::from(b.round) <= paired,
                round: b.round,
                kind: b.kind,
            }
        })
        .collect();
    byes.sort_by_key(|b| (b.round, b.start_no.unwrap_or(i32::MAX), b.name.clone()));
    Ok(byes)
}

/// Cancels a requested bye for a round not yet paired (a paired round has used it: unpair the
/// round first).
pub async fn cancel_bye(pool: &PgPool, actor: &Actor, entrant_id: Uuid, round: i32) -> Result<()> {
    let mut tx = pool.begin().await?;
    let entrant = db::entrant::find(&mut *tx, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    let section = db::section::find_for_update(&mut tx, entrant.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let byes = db::entrant::requested_byes(&mut *tx, section.section_id).await?;
    let Some(bye) = byes
        .into_iter()
        .find(|b| b.entrant_id == entrant_id && b.round == round)
    else {
        return Err(Error::NotFound(m::NOT_FOUND_REQUESTED_BYE));
    };
    if i64::from(round) <= db::round::count(&mut *tx, section.section_id).await? {
        return Err(Error::conflict(
            m::FORM_ROUND_ALREADY_PAIRED_UNPAIR.with(&[&round]),
        ));
    }
    db::entrant::delete_requested_bye(&mut *tx, entrant_id, round).await?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "cancel_bye",
            entity: "entrant",
            entity_id: Some(entrant_id),
            before: Some(serde_json::json!({"round": round, "kind": bye.kind})),
            after: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A forbidden pair as listed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ForbiddenPair {
    /// One entrant.
    pub a: Uuid,
    /// Its name.
    pub a_name: String,
    /// The other.
    pub b: Uuid,
    /// Its name.
    pub b_name: String,
}

/// The forbidden pairs of a section, by the first name.
pub async fn forbidden_pairs(pool: &PgPool, section_id: Uuid) -> Result<Vec<ForbiddenPair>> {
    let mut conn = pool.acquire().await?;
    db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let names: HashMap<Uuid, String> = db::entrant::list(&mut *conn, section_id)
        .await?
        .into_iter()
        .map(|e| (e.entrant_id, e.name))
        .collect();
    let name = |id: Uuid| names.get(&id).cloned().unwrap_or_default();
    let mut pairs: Vec<ForbiddenPair> = db::entrant::forbidden_pairs(&mut *conn, section_id)
        .await?
        .into_iter()
        .map(|(a, b)| ForbiddenPair {
            a,
            a_name: name(a),
            b,
            b_name: name(b),
        })
        .collect();
    pairs.sort_by(|x, y| (&x.a_name, &x.b_name).cmp(&(&y.a_name, &y.b_name)));
    Ok(pairs)
}

/// `null` and absent told apart: `Some(None)` clears, `None` keeps.
fn double<'de, D, T>(d: D) -> std::result::Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// Corrections to one player: absent fields stay; an empty text or `null` clears.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerPatch {
    /// Name.
    pub name: Option<String>,
    /// `m`, `f` or `x` (empty: not given).
    pub gender: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Rating (`null` clears it).
    #[serde(default, deserialize_with = "double")]
    #[schema(value_type = Option<i64>)]
    pub rating: Option<Option<i64>>,
    /// Email (private).
    pub email: Option<String>,
    /// Phone (private).
    pub phone: Option<String>,
    /// Address (private).
    pub address: Option<String>,
}

/// Corrections to an entrant (`PATCH /api/v1/entrants/{id}`): absent fields stay. For an
/// individual the fields are its player's; for a doubles team `name` and `club` are the
/// team's and `members` (two, in order) its players'.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntrantPatch {
    /// Name (of the player; of the team for doubles).
    pub name: Option<String>,
    /// `m`, `f` or `x` (individuals).
    pub gender: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Rating (individuals; `null` clears it).
    #[serde(default, deserialize_with = "double")]
    #[schema(value_type = Option<i64>)]
    pub rating: Option<Option<i64>>,
    /// Email (individuals; private).
    pub email: Option<String>,
    /// Phone (individuals; private).
    pub phone: Option<String>,
    /// Address (individuals; private).
    pub address: Option<String>,
    /// Member of the organising club (every player of the entrant).
    pub member: Option<bool>,
    /// The two players of a doubles team.
    pub members: Option<Vec<PlayerPatch>>,
}

fn patch_player(check: &mut Check, prefix: &str, p: &mut PlayerRow, patch: &PlayerPatch) {
    let field = |name: &str| format!("{prefix}{name}");
    if let Some(name) = &patch.name {
        p.name = check.required_text(&field("name"), name, 200);
    }
    if let Some(g) = &patch.gender {
        p.gender = check_gender(check, &field("gender"), Some(g));
    }
    if let Some(club) = &patch.club {
        p.club = check.optional_text(&field("club"), Some(club), 200);
    }
    if let Some(rating) = patch.rating {
        p.rating = check_rating(check, &field("rating"), rating);
    }
    if let Some(email) = &patch.email {
        p.email = check_email(check, &field("email"), Some(email));
    }
    if let Some(phone) = &patch.phone {
        p.phone = check.optional_text(&field("phone"), Some(phone), 50);
    }
    if let Some(address) = &patch.address {
        p.address = check.optional_text(&field("address"), Some(address), 500);
    }
}

/// One entrant with its players' private data, for its tournament's arbiters (the edit form).
pub async fn get(pool: &PgPool, actor: &Actor, entrant_id: Uuid) -> Result<EntrantView> {
    let mut conn = pool.acquire().await?;
    let entrant = db::entrant::find(&mut *conn, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    let section = db::section::find(&mut *conn, entrant.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut conn, actor, section.tournament_id, Need::Arbiter).await?;
    let members = db::entrant::members(&mut *conn, section.section_id).await?;
    Ok(views(std::slice::from_ref(&entrant), &members, true).remove(0))
}

/// Corrects an entrant's details (name, club, rating, gender, contact, member flag, a team's
/// players): one transaction, audited with the state before and after. Compare-and-set on
/// the entrant's version. Pairings and results stay: they refer to the entrant, not its name.
pub async fn edit(
    pool: &PgPool,
    actor: &Actor,
    entrant_id: Uuid,
    patch: &EntrantPatch,
    expected_version: Option<i32>,
) -> Result<EntrantView> {
    let mut tx = pool.begin().await?;
    let entrant = db::entrant::find(&mut *tx, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    let section = db::section::find_for_update(&mut tx, entrant.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    // Read again under the section's lock: the version compared is the one replaced.
    let entrant = db::entrant::find(&mut *tx, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    if let Some(expected) = expected_version {
        if expected != entrant.version {
            return Err(Error::conflict(
                m::STALE_ENTRANT.with(&[&entrant.version, &expected]),
            ));
        }
    }
    let all_members = db::entrant::members(&mut *tx, section.section_id).await?;
    let before = views(std::slice::from_ref(&entrant), &all_members, true).remove(0);
    let mut players = db::entrant::members_of(&mut *tx, entrant_id).await?;
    let mut check = Check::new();
    let doubles = section.entry_type == EntryType::Doubles;
    let mut name = entrant.name.clone();
    let mut club = entrant.club.clone();
    let mut rating = entrant.rating;
    if doubles {
        for (field, given) in [
            ("gender", patch.gender.is_some()),
            ("rating", patch.rating.is_some()),
            ("email", patch.email.is_some()),
            ("phone", patch.phone.is_some()),
            ("address", patch.address.is_some()),
        ] {
            if given {
                check.error(field, m::DESK_DOUBLES_TEAM_S_PLAYERS.msg());
            }
        }
        if let Some(n) = &patch.name {
            name = check.required_text("name", n, 200);
        }
        if let Some(c) = &patch.club {
            club = check.optional_text("club", Some(c), 200);
        }
        if let Some(members) = &patch.members {
            if members.len() != players.len() {
                check.error(
                    "members",
                    m::DESK_DOUBLES_TEAM_HAS_PLAYERS.with(&[&players.len()]),
                );
            } else {
                let default_name = players
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" / ");
                for (i, (p, m)) in players.iter_mut().zip(members).enumerate() {
                    patch_player(&mut check, &format!("members[{i}]."), p, m);
                }
                // A team named after its players ("A / B") follows their corrected names.
                if patch.name.is_none() && entrant.name == default_name {
                    name = players
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(" / ");
                }
                if members.iter().any(|m| m.rating.is_some()) {
                    rating = match players.as_slice() {
                        [a, b] => a.rating.zip(b.rating).map(|(a, b)| (a + b) / 2),
                        _ => rating,
                    };
                }
            }
        }
    } else {
        if patch.members.is_some() {
            check.error("members", m::DESK_ONLY_DOUBLES_TEAMS_HAVE.msg());
        }
        if let Some(p) = players.first_mut() {
            let as_player = PlayerPatch {
                name: patch.name.clone(),
                gender: patch.gender.clone(),
                club: patch.club.clone(),
                rating: patch.rating,
                email: patch.email.clone(),
                phone: patch.phone.clone(),
                address: patch.address.clone(),
            };
            patch_player(&mut check, "", p, &as_player);
            name = p.name.clone();
            club = p.club.clone();
            rating = p.rating;
        } else if let Some(n) = &patch.name {
            name = check.required_text("name", n, 200);
        }
    }
    if let Some(member) = patch.member {
        for p in &mut players {
            p.member = member;
        }
    }
    check.finish()?;
    for p in &players {
        db::entrant::update_player(&mut *tx, p).await?;
    }
    db::entrant::update_details(&mut *tx, entrant_id, &name, rating, club.as_deref()).await?;
    let after = db::entrant::find(&mut *tx, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    let all_members = db::entrant::members(&mut *tx, section.section_id).await?;
    let view = views(std::slice::from_ref(&after), &all_members, true).remove(0);
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "edit",
            entity: "entrant",
            entity_id: Some(entrant_id),
            before: serde_json::to_value(&before).ok(),
            after: serde_json::to_value(&view).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}

#[cfg(test)]
mod search_tests {
    use super::*;

    fn entrant(no: i32, name: &str, club: &str) -> EntrantView {
        EntrantView {
            id: Uuid::nil(),
            start_no: Some(no),
            name: name.into(),
            rating: None,
            club: Some(club.into()),
            status: EntrantStatus::Active,
            checked_in: false,
            checked_in_by_self: false,
            joined_round: 1,
            withdrawn_from_round: None,
            members: Vec::new(),
            version: 1,
        }
    }

    #[test]
    fn the_desk_search_finds_by_cjk_substring_club_and_number() {
        let e = entrant(12, "張三豐", "Toronto XQ");
        for query in [
            "三",
            "張三豐",
            "toronto",
            "XQ",
            "12",
            "#12",
            "１２",
            "",
            "  ",
        ] {
            assert!(matches_query(&e, query), "{query}");
        }
        for query in ["李", "1", "112", "vancouver"] {
            assert!(!matches_query(&e, query), "{query}");
        }
        assert_eq!(half_width_digits("＃１２a"), "#12a");
    }
}
