//! A tournament's staff list and its invitation links.

use crate::vocab::StaffRole;
use sqlx::PgExecutor;
use uuid::Uuid;

/// One assignment with the person's name.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StaffRow {
    /// The user.
    pub user_id: Uuid,
    /// Login name.
    pub username: String,
    /// Chief arbiter, arbiter or scorer.
    pub role: StaffRole,
}

/// The staff of a tournament, chief first, then by name.
pub async fn list(db: impl PgExecutor<'_>, tournament_id: Uuid) -> sqlx::Result<Vec<StaffRow>> {
    sqlx::query_as(
        "select s.user_id, u.username, s.role from tournament_staff s join app_user u using (user_id)
         where s.tournament_id = $1
         order by case s.role when 'chief_arbiter' then 0 when 'arbiter' then 1 else 2 end, u.username",
    )
    .bind(tournament_id)
    .fetch_all(db)
    .await
}

/// Locks the tournament's staff rows (changes that keep one chief run one at a time).
pub async fn lock(db: impl PgExecutor<'_>, tournament_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("select 1 from tournament where tournament_id = $1 for update")
        .bind(tournament_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Removes an assignment; false when there was none.
pub async fn remove(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    user_id: Uuid,
) -> sqlx::Result<bool> {
    let done =
        sqlx::query("delete from tournament_staff where tournament_id = $1 and user_id = $2")
            .bind(tournament_id)
            .bind(user_id)
            .execute(db)
            .await?;
    Ok(done.rows_affected() > 0)
}

/// Makes every other chief of the tournament an arbiter (one chief per tournament).
pub async fn demote_chiefs(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    except: Uuid,
) -> sqlx::Result<()> {
    sqlx::query(
        "update tournament_staff set role = 'arbiter'
         where tournament_id = $1 and role = 'chief_arbiter' and user_id <> $2",
    )
    .bind(tournament_id)
    .bind(except)
    .execute(db)
    .await?;
    Ok(())
}

/// An invitation.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct InvitationRow {
    /// Id.
    pub invitation_id: Uuid,
    /// The tournament.
    pub tournament_id: Uuid,
    /// The tournament's name.
    pub tournament_name: String,
    /// Arbiter or scorer.
    pub role: StaffRole,
    /// Ends.
    pub expires_at: chrono::DateTime<chrono::Utc>,
    /// Whether it was used or withdrawn.
    pub used: bool,
}

const INVITATION_COLUMNS: &str = "i.invitation_id, i.tournament_id, t.name as tournament_name, \
     i.role, i.expires_at, i.used_at is not null as used";

/// Stores an invitation and returns its id.
pub async fn insert_invitation(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
    tournament_id: Uuid,
    role: StaffRole,
    created_by: Uuid,
    minutes: i32,
) -> sqlx::Result<Uuid> {
    sqlx::query_scalar(
        "insert into staff_invitation (token_hash, tournament_id, role, created_by, expires_at)
         values ($1, $2, $3, $4, now() + make_interval(mins => $5)) returning invitation_id",
    )
    .bind(token_hash)
    .bind(tournament_id)
    .bind(role)
    .bind(created_by)
    .bind(minutes)
    .fetch_one(db)
    .await
}

/// The unused, unexpired invitations of a tournament.
pub async fn list_invitations(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
) -> sqlx::Result<Vec<InvitationRow>> {
    sqlx::query_as(&format!(
        "select {INVITATION_COLUMNS} from staff_invitation i join tournament t using (tournament_id)
         where i.tournament_id = $1 and i.used_at is null and i.expires_at > now()
         order by i.created_at"
    ))
    .bind(tournament_id)
    .fetch_all(db)
    .await
}

/// An invitation by its token's hash, whatever its state.
pub async fn find_invitation(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
) -> sqlx::Result<Option<InvitationRow>> {
    sqlx::query_as(&format!(
        "select {INVITATION_COLUMNS} from staff_invitation i join tournament t using (tournament_id)
         where i.token_hash = $1"
    ))
    .bind(token_hash)
    .fetch_optional(db)
    .await
}

/// Marks a live invitation used by `user_id` (None: withdrawn) in one statement, so a link
/// opened twice at once admits one person; returns the invitation when it was live.
pub async fn use_invitation(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
    user_id: Option<Uuid>,
) -> sqlx::Result<Option<(Uuid, Uuid, StaffRole)>> {
    sqlx::query_as(
        "update staff_invitation set used_at = now(), used_by = $2
         where token_hash = $1 and used_at is null and expires_at > now()
         returning invitation_id, tournament_id, role",
    )
    .bind(token_hash)
    .bind(user_id)
    .fetch_optional(db)
    .await
}

/// Withdraws a live invitation of a tournament; false when there was none.
pub async fn withdraw_invitation(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    invitation_id: Uuid,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "update staff_invitation set used_at = now()
         where tournament_id = $1 and invitation_id = $2 and used_at is null",
    )
    .bind(tournament_id)
    .bind(invitation_id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}
