//! Entrants, their players, requested byes and forbidden pairs.

use crate::vocab::{ByeKind, EntrantStatus};
use chrono::NaiveDate;
use sqlx::PgExecutor;
use uuid::Uuid;

/// An entrant row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EntrantRow {
    /// Id.
    pub entrant_id: Uuid,
    /// Section.
    pub section_id: Uuid,
    /// Starting number (序号).
    pub start_no: Option<i32>,
    /// Display name.
    pub name: String,
    /// Rating.
    pub rating: Option<i32>,
    /// Club.
    pub club: Option<String>,
    /// Active or withdrawn.
    pub status: EntrantStatus,
    /// Present at the venue.
    pub checked_in: bool,
    /// Registration order.
    pub seq: i64,
    /// First round the entrant can be paired in.
    pub joined_round: i32,
    /// First round the entrant no longer plays (withdrawn).
    pub withdrawn_from_round: Option<i32>,
    /// Version, bumped by every change (a trigger), for compare-and-set.
    pub version: i32,
}

/// Counts a section's entrants.
pub async fn count(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<i64> {
    let n = sqlx::query_scalar!(
        "select count(*) as \"n!\" from entrant where section_id = $1",
        section_id
    )
    .fetch_one(db)
    .await?;
    Ok(n)
}

/// The next free starting number.
pub async fn next_start_no(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<i32> {
    let n = sqlx::query_scalar!(
        "select coalesce(max(start_no), 0) + 1 as \"n!\" from entrant where section_id = $1",
        section_id
    )
    .fetch_one(db)
    .await?;
    Ok(n)
}

/// Inserts an entrant.
pub async fn insert(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    start_no: i32,
    name: &str,
    rating: Option<i32>,
    club: Option<&str>,
    joined_round: i32,
) -> sqlx::Result<EntrantRow> {
    sqlx::query_as::<_, EntrantRow>(
        "insert into entrant (section_id, start_no, name, rating, club, joined_round) values ($1, $2, $3, $4, $5, $6)
         returning entrant_id, section_id, start_no, name, rating, club, status, checked_in, seq, joined_round,
                   withdrawn_from_round, version",
    )
    .bind(section_id)
    .bind(start_no)
    .bind(name)
    .bind(rating)
    .bind(club)
    .bind(joined_round)
    .fetch_one(db)
    .await
}

/// A section's entrants by starting number.
pub async fn list(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<EntrantRow>> {
    sqlx::query_as::<_, EntrantRow>(
        "select entrant_id, section_id, start_no, name, rating, club, status, checked_in, seq, joined_round,
                withdrawn_from_round, version
         from entrant where section_id = $1 order by start_no nulls last, seq",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// One entrant.
pub async fn find(db: impl PgExecutor<'_>, entrant_id: Uuid) -> sqlx::Result<Option<EntrantRow>> {
    sqlx::query_as::<_, EntrantRow>(
        "select entrant_id, section_id, start_no, name, rating, club, status, checked_in, seq, joined_round,
                withdrawn_from_round, version
         from entrant where entrant_id = $1",
    )
    .bind(entrant_id)
    .fetch_optional(db)
    .await
}

/// Sets status and the round the withdrawal takes effect.
pub async fn set_status(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
    status: EntrantStatus,
    withdrawn_from_round: Option<i32>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update entrant set status = $2, withdrawn_from_round = $3 where entrant_id = $1",
        entrant_id,
        status.as_str(),
        withdrawn_from_round
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Marks an entrant present or not.
pub async fn set_checked_in(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
    checked_in: bool,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update entrant set checked_in = $2 where entrant_id = $1",
        entrant_id,
        checked_in
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Renumbers entrants (round 1): first every number is cleared, then set anew, so the unique
/// constraint holds at every step.
pub async fn renumber(
    conn: &mut sqlx::PgConnection,
    numbering: &[(Uuid, i32)],
) -> sqlx::Result<()> {
    let ids: Vec<Uuid> = numbering.iter().map(|(id, _)| *id).collect();
    let numbers: Vec<i32> = numbering.iter().map(|(_, n)| *n).collect();
    sqlx::query!(
        "update entrant set start_no = null where entrant_id = any($1)",
        &ids
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "update entrant e set start_no = n.start_no
         from unnest($1::uuid[], $2::int[]) as n(entrant_id, start_no) where e.entrant_id = n.entrant_id",
        &ids,
        &numbers
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A player row (contact data included: callers decide who sees it).
#[derive(Debug, Clone)]
pub struct PlayerRow {
    /// Id.
    pub player_id: Uuid,
    /// Name.
    pub name: String,
    /// `m`, `f`, `x`.
    pub gender: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Rating.
    pub rating: Option<i32>,
    /// Member of the organising club.
    pub member: bool,
    /// Email.
    pub email: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Address.
    pub address: Option<String>,
    /// Birth date.
    pub birth_date: Option<NaiveDate>,
    /// School grade.
    pub school_grade: Option<String>,
}

/// A member of an entrant, with its entrant.
#[derive(Debug, Clone)]
pub struct MemberRow {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Position 1 or 2.
    pub position: i16,
    /// The player.
    pub player_id: Uuid,
    /// Name.
    pub name: String,
    /// Gender.
    pub gender: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Rating.
    pub rating: Option<i32>,
    /// Member of the organising club.
    pub member: bool,
    /// Email.
    pub email: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Address.
    pub address: Option<String>,
    /// Birth date.
    pub birth_date: Option<NaiveDate>,
    /// School grade.
    pub school_grade: Option<String>,
}

/// Inserts a player.
pub async fn insert_player(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    p: &PlayerRow,
) -> sqlx::Result<Uuid> {
    sqlx::query_scalar!(
        "insert into player (tournament_id, name, gender, club, rating, member, email, phone, address, birth_date,
                             school_grade)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning player_id",
        tournament_id,
        p.name,
        p.gender,
        p.club,
        p.rating,
        p.member,
        p.email,
        p.phone,
        p.address,
        p.birth_date,
        p.school_grade
    )
    .fetch_one(db)
    .await
}

/// Links a player to an entrant.
pub async fn insert_member(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
    position: i16,
    player_id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into entrant_member (entrant_id, position, player_id) values ($1, $2, $3)",
        entrant_id,
        position,
        player_id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The members of every entrant of a section.
pub async fn members(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<MemberRow>> {
    sqlx::query_as!(
        MemberRow,
        "select m.entrant_id, m.position, p.player_id, p.name, p.gender, p.club, p.rating, p.member, p.email,
                p.phone, p.address, p.birth_date, p.school_grade
         from entrant_member m join player p using (player_id) join entrant e using (entrant_id)
         where e.section_id = $1 order by m.entrant_id, m.position",
        section_id
    )
    .fetch_all(db)
    .await
}

/// A requested bye.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ByeRow {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Round.
    pub round: i32,
    /// Half, zero or full point.
    pub kind: ByeKind,
}

/// Requested byes of a section.
pub async fn requested_byes(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<ByeRow>> {
    sqlx::query_as::<_, ByeRow>(
        "select b.entrant_id, b.round, b.kind from requested_bye b join entrant e using (entrant_id)
         where e.section_id = $1",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Records (or replaces) a requested bye.
pub async fn upsert_requested_bye(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
    round: i32,
    kind: ByeKind,
) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into requested_bye (entrant_id, round, kind) values ($1, $2, $3)
         on conflict (entrant_id, round) do update set kind = excluded.kind",
        entrant_id,
        round,
        kind.as_str()
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Removes a requested bye.
pub async fn delete_requested_bye(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
    round: i32,
) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "delete from requested_bye where entrant_id = $1 and round = $2",
        entrant_id,
        round
    )
    .execute(db)
    .await?
    .rows_affected())
}

/// Forbidden pairs of a section.
pub async fn forbidden_pairs(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<(Uuid, Uuid)>> {
    let rows = sqlx::query!(
        "select entrant_a_id, entrant_b_id from forbidden_pair where section_id = $1",
        section_id
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.entrant_a_id, r.entrant_b_id))
        .collect())
}

/// Forbids a pair (idempotent); ids are stored lower first.
pub async fn insert_forbidden_pair(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    a: Uuid,
    b: Uuid,
) -> sqlx::Result<()> {
    let (a, b) = if a < b { (a, b) } else { (b, a) };
    sqlx::query!(
        "insert into forbidden_pair (section_id, entrant_a_id, entrant_b_id) values ($1, $2, $3) on conflict do nothing",
        section_id,
        a,
        b
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Lifts a forbidden pair.
pub async fn delete_forbidden_pair(db: impl PgExecutor<'_>, a: Uuid, b: Uuid) -> sqlx::Result<u64> {
    let (a, b) = if a < b { (a, b) } else { (b, a) };
    Ok(sqlx::query!(
        "delete from forbidden_pair where entrant_a_id = $1 and entrant_b_id = $2",
        a,
        b
    )
    .execute(db)
    .await?
    .rows_affected())
}

/// Deletes an entrant that never played (withdrawn before round 1).
pub async fn delete(db: impl PgExecutor<'_>, entrant_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("delete from entrant where entrant_id = $1", entrant_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Corrects a player's details (the arbiter's edit).
pub async fn update_player(db: impl PgExecutor<'_>, p: &PlayerRow) -> sqlx::Result<()> {
    sqlx::query(
        "update player set name = $2, gender = $3, club = $4, rating = $5, member = $6, email = $7, phone = $8,
                address = $9, birth_date = $10, school_grade = $11
         where player_id = $1",
    )
    .bind(p.player_id)
    .bind(&p.name)
    .bind(&p.gender)
    .bind(&p.club)
    .bind(p.rating)
    .bind(p.member)
    .bind(&p.email)
    .bind(&p.phone)
    .bind(&p.address)
    .bind(p.birth_date)
    .bind(&p.school_grade)
    .execute(db)
    .await?;
    Ok(())
}

/// Corrects an entrant's name, rating and club; the version is bumped even when they stay
/// (its players changed).
pub async fn update_details(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
    name: &str,
    rating: Option<i32>,
    club: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update entrant set name = $2, rating = $3, club = $4, version = version + 1 where entrant_id = $1",
    )
    .bind(entrant_id)
    .bind(name)
    .bind(rating)
    .bind(club)
    .execute(db)
    .await?;
    Ok(())
}

/// The members of one entrant, by position.
pub async fn members_of(db: impl PgExecutor<'_>, entrant_id: Uuid) -> sqlx::Result<Vec<PlayerRow>> {
    use sqlx::Row as _;
    let rows = sqlx::query(
        "select p.player_id, p.name, p.gender, p.club, p.rating, p.member, p.email, p.phone, p.address,
                p.birth_date, p.school_grade
         from entrant_member m join player p using (player_id) where m.entrant_id = $1 order by m.position",
    )
    .bind(entrant_id)
    .fetch_all(db)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(PlayerRow {
                player_id: r.try_get("player_id")?,
                name: r.try_get("name")?,
                gender: r.try_get("gender")?,
                club: r.try_get("club")?,
                rating: r.try_get("rating")?,
                member: r.try_get("member")?,
                email: r.try_get("email")?,
                phone: r.try_get("phone")?,
                address: r.try_get("address")?,
                birth_date: r.try_get("birth_date")?,
                school_grade: r.try_get("school_grade")?,
            })
        })
        .collect()
}
