//! SQL of the whole-event file (`service::event_file`): every row of a tournament's tables as
//! JSON out, and back in as new rows. Generic over the tables on purpose: the service names
//! the tables and how their rows belong to a tournament, the database says what columns they
//! have, so a column added by a migration travels without anyone remembering to add it here.

use serde_json::Value;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

/// One column of a table, as the database describes it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Column {
    /// Its name.
    pub name: String,
    /// PostgreSQL's type name (`uuid`, `jsonb`, `text`, `ARRAY` …).
    pub data_type: String,
    /// Whether the database numbers it itself (`generated always as identity`): such a
    /// column is written out (it keeps the order) but never inserted.
    pub identity: bool,
}

/// The columns of `table` in the current schema, in their order.
pub async fn columns(db: impl PgExecutor<'_>, table: &str) -> sqlx::Result<Vec<Column>> {
    sqlx::query_as::<_, Column>(
        "select column_name::text as name, data_type::text as data_type,
                is_identity = 'YES' as identity
         from information_schema.columns
         where table_schema = current_schema() and table_name = $1
         order by ordinal_position",
    )
    .bind(table)
    .fetch_all(db)
    .await
}

/// The tables of the current schema (to check that the event file knows each of them).
pub async fn tables(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar::<_, String>(
        "select table_name::text from information_schema.tables
         where table_schema = current_schema() and table_type = 'BASE TABLE'
         order by table_name",
    )
    .fetch_all(db)
    .await
}

/// The rows of `table` (alias `t`) that `scope` selects for tournament `$1`, each as a JSON
/// object of every column, in `order`. `table`, `scope` and `order` are the service's
/// constants, never input.
pub async fn rows(
    db: impl PgExecutor<'_>,
    table: &str,
    scope: &str,
    order: &str,
    tournament_id: Uuid,
) -> sqlx::Result<Vec<Value>> {
    let sql = format!(
        "select coalesce(jsonb_agg(to_jsonb(t) order by {order}), '[]'::jsonb)
         from {table} t where {scope}"
    );
    let all: Value = sqlx::query_scalar(&sql)
        .bind(tournament_id)
        .fetch_one(db)
        .await?;
    Ok(match all {
        Value::Array(rows) => rows,
        _ => Vec::new(),
    })
}

/// Inserts `rows` (JSON objects) into `table`, `columns` of each, in the array's order (so
/// identity columns number them in that order). PostgreSQL converts each value to its
/// column's type; a value that does not fit is a data exception (class 22) for the caller.
pub async fn insert_rows(
    conn: &mut PgConnection,
    table: &str,
    columns: &[String],
    rows: Vec<Value>,
) -> sqlx::Result<u64> {
    if rows.is_empty() || columns.is_empty() {
        return Ok(0);
    }
    let list = columns
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let picked = columns
        .iter()
        .map(|c| format!("r.\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "insert into {table} ({list})
         select {picked}
         from jsonb_array_elements($1) with ordinality as e(doc, n)
         cross join lateral jsonb_populate_record(null::{table}, e.doc) as r
         order by e.n"
    );
    let done = sqlx::query(&sql)
        .bind(Value::Array(rows))
        .execute(conn)
        .await?;
    Ok(done.rows_affected())
}

/// Which of `codes` boards of this server already use (report codes are unique server-wide).
pub async fn taken_report_codes(
    db: impl PgExecutor<'_>,
    codes: &[String],
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar::<_, String>("select report_code from board where report_code = any($1)")
        .bind(codes)
        .fetch_all(db)
        .await
}

/// One assignment of the tournament's staff, by account name.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StaffEntry {
    /// The account's id on this server.
    pub user_id: Uuid,
    /// Its login name.
    pub username: String,
    /// Chief arbiter, arbiter or scorer.
    pub role: crate::vocab::StaffRole,
    /// Since when.
    pub created_at: chrono::DateTime<chrono::Utc>,
}

/// The tournament's staff.
pub async fn staff(db: impl PgExecutor<'_>, tournament_id: Uuid) -> sqlx::Result<Vec<StaffEntry>> {
    sqlx::query_as::<_, StaffEntry>(
        "select s.user_id, u.username, s.role, s.created_at
         from tournament_staff s join app_user u using (user_id)
         where s.tournament_id = $1 order by s.created_at, u.username",
    )
    .bind(tournament_id)
    .fetch_all(db)
    .await
}

/// The accounts the tournament's audit log names (id and login name; an account deleted
/// since has no name).
pub async fn audit_accounts(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
) -> sqlx::Result<Vec<(Uuid, Option<String>)>> {
    sqlx::query_as::<_, (Uuid, Option<String>)>(
        "select distinct a.user_id, u.username
         from audit_event a left join app_user u on u.user_id = a.user_id
         where a.tournament_id = $1 and a.user_id is not null
         order by a.user_id",
    )
    .bind(tournament_id)
    .fetch_all(db)
    .await
}

/// Active accounts by login name: (name, id).
pub async fn active_users(
    db: impl PgExecutor<'_>,
    usernames: &[String],
) -> sqlx::Result<Vec<(String, Uuid)>> {
    sqlx::query_as::<_, (String, Uuid)>(
        "select username, user_id from app_user
         where username = any($1) and disabled_at is null",
    )
    .bind(usernames)
    .fetch_all(db)
    .await
}
