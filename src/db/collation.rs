//! Orders of names by the ICU collations of migration `20261202110000_collations.sql`.

use sqlx::PgExecutor;

/// A collation the database defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collation {
    /// Traditional Chinese by stroke count.
    ZhHantStroke,
    /// Simplified Chinese by pinyin.
    ZhPinyin,
    /// English alphabetical.
    En,
}

impl Collation {
    fn sql_name(self) -> &'static str {
        match self {
            Collation::ZhHantStroke => "zh_hant_stroke",
            Collation::ZhPinyin => "zh_pinyin",
            Collation::En => "en_icu",
        }
    }
}

/// The indices of `names` in collation order; equal names keep their given order.
pub async fn order(
    db: impl PgExecutor<'_>,
    collation: Collation,
    names: &[String],
) -> sqlx::Result<Vec<i64>> {
    // The collation is one of three fixed identifiers, never input.
    let sql = format!(
        "select (ord - 1)::int8 from unnest($1::text[]) with ordinality as t(name, ord)
         order by name collate \"{}\", ord",
        collation.sql_name()
    );
    sqlx::query_scalar::<_, i64>(&sql)
        .bind(names)
        .fetch_all(db)
        .await
}
