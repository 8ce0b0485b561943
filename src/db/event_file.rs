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

/// Inserts `rows` (the text of a JSON array of objects) into `table`, `columns` of each, in
/// the array's order (so identity columns number them in that order); a column a row lacks
/// is null. PostgreSQL converts each value to its column's type; a value that does not fit
/// is a data exception (class 22) for the caller.
pub async fn insert_rows(
    conn: &mut PgConnection,
    table: &str,
    columns: &[String],
    rows: &str,
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
         from jsonb_array_elements($1::text::jsonb) with ordinality as e(doc, n)
         cross join lateral jsonb_populate_record(null::{table}, e.doc) as r
         order by e.n"
    );
    let done = sqlx::query(&sql).bind(rows).execute(conn).await?;
    Ok(done.rows_affected())
}

/// The first way an imported tournament's rounds break the live rules (`kind`), with where:
/// the section's name, the round's number, the board's, and `other` (another board, round
/// or count) and `name` (an entrant's name, a status) where the kind needs them.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Problem {
    /// `beyond`, `gap`, `not_completed`, `twice`, `board_game`, `completed_open`,
    /// `paired_result`, `published_all_in`, `unreported` or `section_status`.
    pub kind: String,
    /// The section's name.
    pub section: String,
    /// The round's number.
    pub round: Option<i32>,
    /// The board's number.
    pub board: Option<i32>,
    /// Another number the kind names.
    pub other: Option<i32>,
    /// An entrant's name or a status.
    pub name: Option<String>,
}

/// See [`Problem`]: checked in the order of the kinds, the first found.
pub async fn first_problem(
    conn: &mut PgConnection,
    tournament_id: Uuid,
) -> sqlx::Result<Option<Problem>> {
    sqlx::query_as::<_, Problem>(
        "with s as (select section_id, name, rounds, status from section where tournament_id = $1),
         r as (select r.round_id, r.section_id, r.number, r.status, s.name as section, s.rounds
                 from round r join s using (section_id)),
         b as (select b.board_id, b.round_id, b.number, b.red_entrant_id, b.black_entrant_id,
                      r.number as round_number, r.section, r.status as round_status
                 from board b join r using (round_id)),
         sides as (select b.round_id, b.section, b.round_number, b.number, x.entrant_id
                     from b cross join lateral (values (b.red_entrant_id), (b.black_entrant_id))
                          as x(entrant_id)
                    where x.entrant_id is not null),
         found as (
           select 1 as k, 'beyond' as kind, section, number as round, null::int as board,
                  rounds as other, null::text as name
             from r where number > rounds
           union all
           select 2, 'gap', section, number, null, number - 1, null from r
            where number > 1 and not exists (select 1 from round p
                    where p.section_id = r.section_id and p.number = r.number - 1)
           union all
           select 3, 'not_completed', section, number, null, number + 1, null from r
            where status <> 'completed' and exists (select 1 from round n
                    where n.section_id = r.section_id and n.number > r.number)
           union all
           select 4, 'twice', a.section, a.round_number, a.number, c.number, e.name
             from sides a join sides c on c.round_id = a.round_id
                  and c.entrant_id = a.entrant_id and c.number > a.number
             join entrant e on e.entrant_id = a.entrant_id
           union all
           select 5, 'board_game', b.section, b.round_number, b.number, null, null from b
             left join game g on g.board_id = b.board_id
            where (b.black_entrant_id is null) <> (g.game_id is null)
               or (g.game_id is not null
                   and not (g.red_entrant_id = b.red_entrant_id
                            and g.black_entrant_id = b.black_entrant_id)
                   -- A team match's even boards: the colours swap (issue #41).
                   and not (g.number % 2 = 0 and g.red_entrant_id = b.black_entrant_id
                            and g.black_entrant_id = b.red_entrant_id))
           union all
           select 6, 'completed_open', b.section, b.round_number, b.number, null, null
             from b join game g on g.board_id = b.board_id
            where b.round_status = 'completed' and g.result is null
           union all
           select 7, 'paired_result', b.section, b.round_number, b.number, null, null
             from b join game g on g.board_id = b.board_id
            where b.round_status = 'paired' and g.result is not null
              -- A team match's empty seat is forfeited with the pairing, at version 0.
              and g.version > 0
           union all
           select 8, 'published_all_in', r.section, r.number, null, null, null from r
            where r.status = 'published' and not exists (
                    select 1 from board b join game g on g.board_id = b.board_id
                     where b.round_id = r.round_id and g.result is null)
           union all
           select 9, 'unreported', b.section, b.round_number, b.number, null, null
             from b join game g on g.board_id = b.board_id
            where (g.result is null) <> (g.reported_result is null)
           union all
           select 10, 'section_status', s.name, null, null, null, s.status from s
            where (s.status = 'open' and exists (select 1 from round x
                                                   where x.section_id = s.section_id))
               or (s.status = 'finished' and exists (select 1 from round x
                     where x.section_id = s.section_id and x.status <> 'completed'))
         )
         select kind, section, round, board, other, name from found
          order by k, section, round nulls first, board nulls first
          limit 1",
    )
    .bind(tournament_id)
    .fetch_optional(conn)
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
