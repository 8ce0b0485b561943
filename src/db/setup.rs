//! Hidden-piece set-ups with their commitments.

use sqlx::PgExecutor;
use uuid::Uuid;

/// A set-up row.
#[derive(Debug, Clone)]
pub struct SetupRow {
    /// Id.
    pub setup_id: Uuid,
    /// Round (Swiss).
    pub round_id: Option<Uuid>,
    /// Board (per-board mode).
    pub board_id: Option<Uuid>,
    /// Knockout game.
    pub game_id: Option<Uuid>,
    /// Knockout match (for a game still to be played).
    pub match_id: Option<Uuid>,
    /// `jieqi` or `banqi`.
    pub variant: String,
    /// Canonical text.
    pub canonical: String,
    /// Secret salt.
    pub salt: String,
    /// SHA-256 commitment.
    pub commitment: String,
}

/// Stores a set-up.
pub async fn insert(db: impl PgExecutor<'_>, section_id: Uuid, s: &SetupRow) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into setup (section_id, round_id, board_id, game_id, match_id, variant, canonical, salt, commitment)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        section_id,
        s.round_id,
        s.board_id,
        s.game_id,
        s.match_id,
        s.variant,
        s.canonical,
        s.salt,
        s.commitment
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The set-ups of a round.
pub async fn of_round(db: impl PgExecutor<'_>, round_id: Uuid) -> sqlx::Result<Vec<SetupRow>> {
    sqlx::query_as!(
        SetupRow,
        "select setup_id, round_id, board_id, game_id, match_id, variant, canonical, salt, commitment
         from setup where round_id = $1 order by board_id nulls first",
        round_id
    )
    .fetch_all(db)
    .await
}

/// The set-ups of a knockout bracket's matches (played and next games).
pub async fn of_bracket(db: impl PgExecutor<'_>, bracket_id: Uuid) -> sqlx::Result<Vec<SetupRow>> {
    sqlx::query_as!(
        SetupRow,
        "select s.setup_id, s.round_id, s.board_id, s.game_id, s.match_id, s.variant, s.canonical, s.salt, s.commitment
         from setup s join knockout_match m using (match_id) where m.bracket_id = $1",
        bracket_id
    )
    .fetch_all(db)
    .await
}

/// Binds the pending set-up of a match to the game just played.
pub async fn attach_to_game(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    game_id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update setup set game_id = $2 where match_id = $1 and game_id is null",
        match_id,
        game_id
    )
    .execute(db)
    .await?;
    Ok(())
}
