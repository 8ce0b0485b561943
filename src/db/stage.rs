//! A section's overlapping stages (issue #40): columns of the section row beside its settings.

use crate::vocab::{FinalColourRule, StageFormat};
use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

/// How a section's stages overlap.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct StageRow {
    /// `swiss`, `knockout_after_round` (AXF) or `final_last_round` (WXF).
    pub stage_format: StageFormat,
    /// AXF: the knockout is seeded from the standings after this round.
    pub stage_after_round: Option<i32>,
    /// AXF: how many qualify.
    pub stage_qualifiers: Option<i32>,
    /// WXF: who has Red in the final.
    pub final_colours: FinalColourRule,
}

/// A section's stages (`None`: no such section).
pub async fn get(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Option<StageRow>> {
    sqlx::query_as::<_, StageRow>(
        "select stage_format, stage_after_round, stage_qualifiers, final_colours
         from section where section_id = $1",
    )
    .bind(section_id)
    .fetch_optional(db)
    .await
}

/// Stores a section's stages.
pub async fn put(db: impl PgExecutor<'_>, section_id: Uuid, row: &StageRow) -> sqlx::Result<()> {
    sqlx::query(
        "update section set stage_format = $2, stage_after_round = $3, stage_qualifiers = $4,
                final_colours = $5
         where section_id = $1",
    )
    .bind(section_id)
    .bind(row.stage_format)
    .bind(row.stage_after_round)
    .bind(row.stage_qualifiers)
    .bind(row.final_colours)
    .execute(db)
    .await?;
    Ok(())
}
