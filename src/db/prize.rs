//! Prize tables.

use sqlx::PgExecutor;
use uuid::Uuid;

/// A prize row.
#[derive(Debug, Clone, sqlx::FromRow)]
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
    /// The value's currency (ISO 4217), or empty.
    pub currency: String,
}

/// A section's prizes.
pub async fn list(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<PrizeRow>> {
    sqlx::query_as::<_, PrizeRow>(
        "select prize_id, place_from, place_to, category, award, amount, currency from prize
         where section_id = $1 order by place_from nulls last, category, amount desc",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Deletes a section's prizes (before replacing them).
pub async fn delete_all(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("delete from prize where section_id = $1")
        .bind(section_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Inserts a prize.
pub async fn insert(db: impl PgExecutor<'_>, section_id: Uuid, p: &PrizeRow) -> sqlx::Result<()> {
    sqlx::query(
        "insert into prize (section_id, place_from, place_to, category, award, amount, currency)
         values ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(section_id)
    .bind(p.place_from)
    .bind(p.place_to)
    .bind(&p.category)
    .bind(&p.award)
    .bind(p.amount)
    .bind(&p.currency)
    .execute(db)
    .await?;
    Ok(())
}

/// A prize of the grand final (the playoff between section champions), for a range of its
/// places.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PlayoffPrizeRow {
    /// First place covered.
    pub place_from: i32,
    /// Last place covered.
    pub place_to: i32,
    /// What is awarded.
    pub award: String,
    /// Its value.
    pub amount: i32,
    /// The value's currency (ISO 4217), or empty.
    pub currency: String,
}

/// A tournament's grand-final prizes.
pub async fn list_playoff(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
) -> sqlx::Result<Vec<PlayoffPrizeRow>> {
    sqlx::query_as::<_, PlayoffPrizeRow>(
        "select place_from, place_to, award, amount, currency from playoff_prize where tournament_id = $1
         order by place_from, place_to, amount desc, prize_id",
    )
    .bind(tournament_id)
    .fetch_all(db)
    .await
}

/// Replaces a tournament's grand-final prizes by `rows` (one statement).
pub async fn replace_playoff(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    rows: &[PlayoffPrizeRow],
) -> sqlx::Result<()> {
    let from: Vec<i32> = rows.iter().map(|r| r.place_from).collect();
    let to: Vec<i32> = rows.iter().map(|r| r.place_to).collect();
    let award: Vec<&str> = rows.iter().map(|r| r.award.as_str()).collect();
    let amount: Vec<i32> = rows.iter().map(|r| r.amount).collect();
    let currency: Vec<&str> = rows.iter().map(|r| r.currency.as_str()).collect();
    // The insert does not see the delete, and needs not: rows have no key but their id.
    sqlx::query(
        "with gone as (delete from playoff_prize where tournament_id = $1)
         insert into playoff_prize (tournament_id, place_from, place_to, award, amount, currency)
         select $1, f, t, a, m, c
           from unnest($2::int[], $3::int[], $4::text[], $5::int[], $6::text[])
                with ordinality as x(f, t, a, m, c, k) order by k",
    )
    .bind(tournament_id)
    .bind(&from)
    .bind(&to)
    .bind(&award)
    .bind(&amount)
    .bind(&currency)
    .execute(db)
    .await?;
    Ok(())
}
