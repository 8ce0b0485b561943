//! Prize tables.

use sqlx::PgExecutor;
use uuid::Uuid;

/// A prize row.
#[derive(Debug, Clone)]
pub struct PrizeRow {
    /// Id.
    pub prize_id: Uuid,
    /// First place covered.
    pub place_from: Option<i32>,
    /// Last place covered.
    pub place_to: Option<i32>,
    /// Category (e.g. `female`), for category prizes.
    pub category: Option<String>,
    /// What is awarded.
    pub award: String,
    /// Its value (decides "the larger one").
    pub amount: i32,
}

/// A section's prizes.
pub async fn list(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<PrizeRow>> {
    sqlx::query_as!(
        PrizeRow,
        "select prize_id, place_from, place_to, category, award, amount from prize where section_id = $1
         order by place_from nulls last, category, amount desc",
        section_id
    )
    .fetch_all(db)
    .await
}

/// Deletes a section's prizes (before replacing them).
pub async fn delete_all(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("delete from prize where section_id = $1", section_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Inserts a prize.
pub async fn insert(db: impl PgExecutor<'_>, section_id: Uuid, p: &PrizeRow) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into prize (section_id, place_from, place_to, category, award, amount) values ($1, $2, $3, $4, $5, $6)",
        section_id,
        p.place_from,
        p.place_to,
        p.category,
        p.award,
        p.amount
    )
    .execute(db)
    .await?;
    Ok(())
}
