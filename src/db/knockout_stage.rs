//! Issue #40: the rules of each knockout round (stage) and the bracket's duplicate set-ups.

use super::setup::SetupRow;
use crate::vocab::{CaptureRule, KnockoutSetupMode};
use sqlx::{PgExecutor, Row};
use uuid::Uuid;

/// The rules of one knockout round.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StageRow {
    /// Bracket.
    pub bracket_id: Uuid,
    /// Knockout round (1 = first; the 3rd-place match follows the final's).
    pub round: i32,
    /// What happens to a captured hidden piece.
    pub capture_rule: CaptureRule,
    /// Time control as shown to the players (empty: the section's).
    pub time_control: String,
    /// The tiebreak chain (`[{kind, games, time_control}]`), `None` for the default.
    pub tiebreaks: Option<serde_json::Value>,
    /// Version for compare-and-set.
    pub version: i32,
}

/// The stage rules a bracket has (rounds without a row have the defaults).
pub async fn stages(db: impl PgExecutor<'_>, bracket_id: Uuid) -> sqlx::Result<Vec<StageRow>> {
    sqlx::query_as::<_, StageRow>(
        "select bracket_id, round, capture_rule, time_control, tiebreaks, version
         from knockout_stage where bracket_id = $1 order by round",
    )
    .bind(bracket_id)
    .fetch_all(db)
    .await
}

/// Locks one stage's row (if it exists) for the rest of the transaction.
pub async fn stage_for_update(
    db: impl PgExecutor<'_>,
    bracket_id: Uuid,
    round: i32,
) -> sqlx::Result<Option<StageRow>> {
    sqlx::query_as::<_, StageRow>(
        "select bracket_id, round, capture_rule, time_control, tiebreaks, version
         from knockout_stage where bracket_id = $1 and round = $2 for update",
    )
    .bind(bracket_id)
    .bind(round)
    .fetch_optional(db)
    .await
}

/// Writes a stage's rules (insert or update), bumping its version; returns the new version.
pub async fn upsert_stage(db: impl PgExecutor<'_>, s: &StageRow) -> sqlx::Result<i32> {
    sqlx::query_scalar::<_, i32>(
        "insert into knockout_stage (bracket_id, round, capture_rule, time_control, tiebreaks)
         values ($1, $2, $3, $4, $5)
         on conflict (bracket_id, round) do update
            set capture_rule = excluded.capture_rule, time_control = excluded.time_control,
                tiebreaks = excluded.tiebreaks, version = knockout_stage.version + 1,
                updated_at = now()
         returning version",
    )
    .bind(s.bracket_id)
    .bind(s.round)
    .bind(s.capture_rule.as_str())
    .bind(&s.time_control)
    .bind(&s.tiebreaks)
    .fetch_one(db)
    .await
}

/// Sets how a new bracket's set-ups are drawn.
pub async fn set_setup_mode(
    db: impl PgExecutor<'_>,
    bracket_id: Uuid,
    mode: KnockoutSetupMode,
) -> sqlx::Result<()> {
    sqlx::query("update knockout_bracket set setup_mode = $2 where bracket_id = $1")
        .bind(bracket_id)
        .bind(mode.as_str())
        .execute(db)
        .await?;
    Ok(())
}

/// How a bracket's set-ups are drawn.
pub async fn setup_mode(
    db: impl PgExecutor<'_>,
    bracket_id: Uuid,
) -> sqlx::Result<KnockoutSetupMode> {
    sqlx::query_scalar::<_, KnockoutSetupMode>(
        "select setup_mode from knockout_bracket where bracket_id = $1",
    )
    .bind(bracket_id)
    .fetch_one(db)
    .await
}

/// A duplicate set-up of a knockout round: (round, game number, set-up).
pub type RoundSetup = (i32, i32, SetupRow);

/// The duplicate set-ups of a bracket, by round and game number.
pub async fn duplicates(
    db: impl PgExecutor<'_>,
    bracket_id: Uuid,
) -> sqlx::Result<Vec<RoundSetup>> {
    let rows = sqlx::query(
        "select setup_id, variant, canonical, salt, commitment, ko_round, ko_game
         from setup where bracket_id = $1 order by ko_round, ko_game",
    )
    .bind(bracket_id)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|r| {
            Ok((
                r.try_get("ko_round")?,
                r.try_get("ko_game")?,
                SetupRow {
                    setup_id: r.try_get("setup_id")?,
                    round_id: None,
                    board_id: None,
                    game_id: None,
                    match_id: None,
                    variant: r.try_get("variant")?,
                    canonical: r.try_get("canonical")?,
                    salt: r.try_get("salt")?,
                    commitment: r.try_get("commitment")?,
                },
            ))
        })
        .collect()
}

/// Stores a duplicate set-up of a knockout round, unless that round and game has one.
pub async fn insert_duplicate(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    bracket_id: Uuid,
    (round, game): (i32, i32),
    s: &SetupRow,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into setup (section_id, bracket_id, ko_round, ko_game, variant, canonical, salt, commitment)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (bracket_id, ko_round, ko_game) where bracket_id is not null do nothing",
    )
    .bind(section_id)
    .bind(bracket_id)
    .bind(round)
    .bind(game)
    .bind(&s.variant)
    .bind(&s.canonical)
    .bind(&s.salt)
    .bind(&s.commitment)
    .execute(db)
    .await?;
    Ok(())
}
