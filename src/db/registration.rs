//! Registrations: applications to a section, in arrival order.

use crate::vocab::{PaymentState, RegistrationStatus};
use sqlx::PgExecutor;
use uuid::Uuid;

/// A registration with its player's public and private data.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RegistrationRow {
    /// Id.
    pub registration_id: Uuid,
    /// Section.
    pub section_id: Uuid,
    /// The entrant, once confirmed.
    pub entrant_id: Option<Uuid>,
    /// The player.
    pub player_id: Uuid,
    /// The doubles partner.
    pub partner_id: Option<Uuid>,
    /// Arrival order.
    pub seq: i64,
    /// Status.
    pub status: RegistrationStatus,
    /// Fee tier name.
    pub fee_tier: Option<String>,
    /// Fee.
    pub fee_amount: i32,
    /// Payment state.
    pub payment_state: PaymentState,
    /// Payment method.
    pub payment_method: Option<String>,
    /// Payment note.
    pub payment_note: Option<String>,
    /// Player name.
    pub name: String,
    /// Partner name.
    pub partner_name: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Email.
    pub email: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Created.
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// Version, bumped by every change (a trigger), for compare-and-set.
    pub version: i32,
    /// A team's registration (issue #41): the team's name (`name` is then the team's too,
    /// the player the captain, the contact).
    pub team_name: Option<String>,
    /// The captain's roster position, when the captain plays.
    pub captain_position: Option<i16>,
}

/// Inserts a registration.
pub async fn insert(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    player_id: Uuid,
    partner_id: Option<Uuid>,
    status: RegistrationStatus,
    fee: (Option<&str>, i32),
    waiver_accepted: bool,
) -> sqlx::Result<Uuid> {
    sqlx::query_scalar!(
        "insert into registration (section_id, player_id, partner_id, status, fee_tier, fee_amount, waiver_accepted)
         values ($1, $2, $3, $4, $5, $6, $7) returning registration_id",
        section_id,
        player_id,
        partner_id,
        status.as_str(),
        fee.0,
        fee.1,
        waiver_accepted
    )
    .fetch_one(db)
    .await
}

/// A section's registrations in arrival order.
pub async fn list(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<RegistrationRow>> {
    sqlx::query_as::<_, RegistrationRow>(
        "select r.registration_id, r.section_id, r.entrant_id, r.player_id, r.partner_id, r.seq, r.status, r.fee_tier,
                r.fee_amount, r.payment_state, r.payment_method, r.payment_note, coalesce(r.team_name, p.name) as name,
                q.name as partner_name, p.club, p.email, p.phone, r.created_at, r.version,
                r.team_name, r.captain_position
         from registration r join player p using (player_id) left join player q on q.player_id = r.partner_id
         where r.section_id = $1 order by r.seq",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// One registration.
pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<RegistrationRow>> {
    sqlx::query_as::<_, RegistrationRow>(
        "select r.registration_id, r.section_id, r.entrant_id, r.player_id, r.partner_id, r.seq, r.status, r.fee_tier,
                r.fee_amount, r.payment_state, r.payment_method, r.payment_note, coalesce(r.team_name, p.name) as name,
                q.name as partner_name, p.club, p.email, p.phone, r.created_at, r.version,
                r.team_name, r.captain_position
         from registration r join player p using (player_id) left join player q on q.player_id = r.partner_id
         where r.registration_id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await
}

/// Sets status and entrant.
pub async fn set_status(
    db: impl PgExecutor<'_>,
    id: Uuid,
    status: RegistrationStatus,
    entrant_id: Option<Uuid>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update registration set status = $2, entrant_id = coalesce($3, entrant_id) where registration_id = $1",
        id,
        status.as_str(),
        entrant_id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Records the payment state.
pub async fn set_payment(
    db: impl PgExecutor<'_>,
    id: Uuid,
    state: PaymentState,
    method: Option<&str>,
    note: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update registration set payment_state = $2, payment_method = coalesce($3, payment_method),
                payment_note = coalesce($4, payment_note)
         where registration_id = $1",
        id,
        state.as_str(),
        method,
        note
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Moves registrations and their entrants to another section (random split).
pub async fn move_to_section(
    conn: &mut sqlx::PgConnection,
    entrant_ids: &[Uuid],
    section_id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update registration set section_id = $2 where entrant_id = any($1)",
        entrant_ids,
        section_id
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "update entrant set section_id = $2, start_no = null where entrant_id = any($1)",
        entrant_ids,
        section_id
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Makes a registration a team's (issue #41): its name, the captain's roster position, and
/// the roster in board order (positions 1 ..).
pub async fn set_team(
    conn: &mut sqlx::PgConnection,
    id: Uuid,
    team_name: &str,
    captain_position: Option<i16>,
    roster: &[Uuid],
) -> sqlx::Result<()> {
    sqlx::query(
        "update registration set team_name = $2, captain_position = $3 where registration_id = $1",
    )
    .bind(id)
    .bind(team_name)
    .bind(captain_position)
    .execute(&mut *conn)
    .await?;
    let positions: Vec<i16> = (1..=roster.len() as i16).collect();
    sqlx::query(
        "insert into registration_member (registration_id, position, player_id)
         select $1, p, id from unnest($2::smallint[], $3::uuid[]) as x(p, id)",
    )
    .bind(id)
    .bind(&positions)
    .bind(roster)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A team registration's roster in board order.
pub async fn team_roster(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar::<_, Uuid>(
        "select player_id from registration_member where registration_id = $1 order by position",
    )
    .bind(id)
    .fetch_all(db)
    .await
}

/// A player's name.
pub async fn player_name(db: impl PgExecutor<'_>, player_id: Uuid) -> sqlx::Result<String> {
    sqlx::query_scalar::<_, String>("select name from player where player_id = $1")
        .bind(player_id)
        .fetch_one(db)
        .await
}
