//! The whole event as one JSON file (SPEC §12, §14): a backup of one tournament, or the way to
//! move it to another server. Everything that hangs off the tournament travels: settings,
//! sections, players and entrants, registrations and payments, byes and forbidden pairs, tie
//! decisions, rounds, boards, games, fouls and records, knockout brackets, set-ups, prizes,
//! players' reports and the audit log; the staff by account name.
//!
//! The file is `{"format": "arbiter-event", "version": 1, …, "tables": {"section": [rows]}}`
//! where a row is the table's row with every column (the database's own JSON of it). The
//! tables and how their rows belong to a tournament are listed in [`TABLES`]; the columns
//! come from the database, so a column a migration adds is carried without a change here
//! (a test fails when a new table is in neither [`TABLES`] nor [`OUTSIDE`]).
//!
//! An import creates a new tournament: every id is new (the same old id always becomes the
//! same new id, in references and inside the JSON of rounds and the audit log too), every
//! reference must point to a row of the file (else 422 naming the row and column), and it is
//! written in one transaction, checked by loading each section before it commits. The
//! importer becomes the chief arbiter. Staff named in the file join with their role when an
//! active account of the same name exists here (a chief arbiter in the file becomes an
//! arbiter: only an admin names chiefs); the answer lists who joined and who was skipped.
//! Invitation links are not carried: they are secrets of the server that made them.

use super::access::{self, Change, Need};
use super::users::Actor;
use super::{sections, state, Error, FieldErrors, Result};
use crate::db;
use crate::i18n::messages::{self as m, Msg};
use crate::vocab::{StaffRole, TournamentStatus};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use sqlx::postgres::PgDatabaseError;
use sqlx::PgPool;
use std::collections::{BTreeMap, HashMap, HashSet};
use utoipa::ToSchema;
use uuid::Uuid;

/// The `format` of an event file.
pub const FORMAT: &str = "arbiter-event";
/// The version of the file this server writes and reads.
pub const VERSION: u32 = 1;
/// The largest event file accepted (API body and dashboard upload): a 1,000-entrant event
/// after seven rounds with its audit log is a few MiB.
pub const FILE_LIMIT: usize = 64 * 1024 * 1024;

/// One table of the event.
struct Table {
    /// Its name (also its key in the file).
    name: &'static str,
    /// The column with the row's own id, if it has one.
    id: Option<&'static str>,
    /// Columns that refer to another table's id: (column, table).
    refs: &'static [(&'static str, &'static str)],
    /// Which rows belong to tournament `$1` (the table is `t`).
    scope: &'static str,
    /// Their order in the file (and so of insertion: identity columns keep their order).
    order: &'static str,
}

// The rows of tournament `$1` in the tables others hang off (macros, so `concat!` can build
// each table's scope as one literal).
macro_rules! sections {
    () => {
        "(select section_id from section where tournament_id = $1)"
    };
}
macro_rules! entrants {
    () => {
        "(select e.entrant_id from entrant e join section s using (section_id)
          where s.tournament_id = $1)"
    };
}
macro_rules! rounds {
    () => {
        "(select r.round_id from round r join section s using (section_id)
          where s.tournament_id = $1)"
    };
}
macro_rules! boards {
    () => {
        "(select b.board_id from board b join round r using (round_id)
          join section s using (section_id) where s.tournament_id = $1)"
    };
}
macro_rules! ko_matches {
    () => {
        "(select m.match_id from knockout_match m join knockout_bracket k
          using (bracket_id) where k.tournament_id = $1)"
    };
}
macro_rules! games {
    () => {
        concat!(
            "(select g.game_id from game g where g.board_id in ",
            boards!(),
            " or g.match_id in ",
            ko_matches!(),
            ")"
        )
    };
}

/// The event's tables, each after the tables it refers to (the order of insertion).
const TABLES: &[Table] = &[
    Table {
        name: "tournament",
        id: Some("tournament_id"),
        refs: &[],
        scope: "t.tournament_id = $1",
        order: "t.tournament_id",
    },
    Table {
        name: "section",
        id: Some("section_id"),
        refs: &[("tournament_id", "tournament")],
        scope: "t.tournament_id = $1",
        order: "t.created_at, t.section_id",
    },
    Table {
        name: "player",
        id: Some("player_id"),
        refs: &[("tournament_id", "tournament")],
        scope: "t.tournament_id = $1",
        order: "t.created_at, t.player_id",
    },
    Table {
        name: "entrant",
        id: Some("entrant_id"),
        refs: &[("section_id", "section")],
        scope: concat!("t.section_id in ", sections!()),
        order: "t.seq",
    },
    Table {
        name: "entrant_member",
        id: None,
        refs: &[("entrant_id", "entrant"), ("player_id", "player")],
        scope: concat!("t.entrant_id in ", entrants!()),
        order: "t.entrant_id, t.position",
    },
    // A team section's line-ups (issue #41).
    Table {
        name: "team_lineup",
        id: None,
        refs: &[("entrant_id", "entrant"), ("player_id", "player")],
        scope: concat!("t.entrant_id in ", entrants!()),
        order: "t.entrant_id, t.round, t.board",
    },
    Table {
        name: "registration",
        id: Some("registration_id"),
        refs: &[
            ("section_id", "section"),
            ("entrant_id", "entrant"),
            ("player_id", "player"),
            ("partner_id", "player"),
        ],
        scope: concat!("t.section_id in ", sections!()),
        order: "t.seq",
    },
    // A team's registration's roster, until the desk confirms it (issue #41).
    Table {
        name: "registration_member",
        id: None,
        refs: &[("registration_id", "registration"), ("player_id", "player")],
        scope: concat!(
            "t.registration_id in (select registration_id from registration where section_id in ",
            sections!(),
            ")"
        ),
        order: "t.registration_id, t.position",
    },
    Table {
        name: "payment",
        id: Some("payment_id"),
        refs: &[("registration_id", "registration")],
        scope: concat!(
            "t.registration_id in (select registration_id from registration where section_id in ",
            sections!(),
            ")"
        ),
        order: "t.created_at, t.payment_id",
    },
    Table {
        name: "requested_bye",
        id: None,
        refs: &[("entrant_id", "entrant")],
        scope: concat!("t.entrant_id in ", entrants!()),
        order: "t.entrant_id, t.round",
    },
    Table {
        name: "forbidden_pair",
        id: None,
        refs: &[
            ("section_id", "section"),
            ("entrant_a_id", "entrant"),
            ("entrant_b_id", "entrant"),
        ],
        scope: concat!("t.section_id in ", sections!()),
        order: "t.entrant_a_id, t.entrant_b_id",
    },
    Table {
        name: "tie_order",
        id: None,
        refs: &[("section_id", "section"), ("entrant_id", "entrant")],
        scope: concat!("t.section_id in ", sections!()),
        order: "t.decision_id, t.position",
    },
    Table {
        name: "round",
        id: Some("round_id"),
        refs: &[("section_id", "section")],
        scope: concat!("t.section_id in ", sections!()),
        order: "t.section_id, t.number",
    },
    Table {
        name: "round_schedule",
        id: None,
        refs: &[("section_id", "section")],
        scope: concat!("t.section_id in ", sections!()),
        order: "t.section_id, t.number",
    },
    Table {
        name: "board",
        id: Some("board_id"),
        refs: &[
            ("round_id", "round"),
            ("red_entrant_id", "entrant"),
            ("black_entrant_id", "entrant"),
        ],
        scope: concat!("t.round_id in ", rounds!()),
        order: "t.round_id, t.number",
    },
    Table {
        name: "knockout_bracket",
        id: Some("bracket_id"),
        refs: &[("tournament_id", "tournament"), ("section_id", "section")],
        scope: "t.tournament_id = $1",
        order: "t.created_at, t.bracket_id",
    },
    Table {
        name: "knockout_match",
        id: Some("match_id"),
        refs: &[
            ("bracket_id", "knockout_bracket"),
            ("high_entrant_id", "entrant"),
            ("low_entrant_id", "entrant"),
            ("winner_entrant_id", "entrant"),
            ("next_red_entrant_id", "entrant"),
            ("lot_winner_entrant_id", "entrant"),
            ("high_section_id", "section"),
            ("low_section_id", "section"),
        ],
        scope: concat!("t.match_id in ", ko_matches!()),
        order: "t.bracket_id, t.third_place, t.round, t.slot",
    },
    Table {
        name: "knockout_stage",
        id: None,
        refs: &[("bracket_id", "knockout_bracket")],
        scope: "t.bracket_id in (select bracket_id from knockout_bracket where tournament_id = $1)",
        order: "t.bracket_id, t.round",
    },
    Table {
        name: "game",
        id: Some("game_id"),
        refs: &[
            ("board_id", "board"),
            ("match_id", "knockout_match"),
            ("red_entrant_id", "entrant"),
            ("black_entrant_id", "entrant"),
            ("red_player_id", "player"),
            ("black_player_id", "player"),
        ],
        scope: concat!(
            "t.board_id in ",
            boards!(),
            " or t.match_id in ",
            ko_matches!()
        ),
        order: "t.created_at, t.game_id",
    },
    Table {
        name: "foul",
        id: Some("foul_id"),
        refs: &[("game_id", "game")],
        scope: concat!("t.game_id in ", games!()),
        order: "t.recorded_at, t.foul_id",
    },
    Table {
        name: "game_record",
        id: None,
        refs: &[("game_id", "game")],
        scope: concat!("t.game_id in ", games!()),
        order: "t.game_id",
    },
    Table {
        name: "setup",
        id: Some("setup_id"),
        refs: &[
            ("section_id", "section"),
            ("round_id", "round"),
            ("board_id", "board"),
            ("game_id", "game"),
            ("match_id", "knockout_match"),
            ("bracket_id", "knockout_bracket"),
        ],
        scope: concat!("t.section_id in ", sections!()),
        order: "t.created_at, t.setup_id",
    },
    Table {
        name: "prize",
        id: Some("prize_id"),
        refs: &[("section_id", "section")],
        scope: concat!("t.section_id in ", sections!()),
        order: "t.section_id, t.place_from nulls last, t.prize_id",
    },
    Table {
        name: "playoff_prize",
        id: Some("prize_id"),
        refs: &[("tournament_id", "tournament")],
        scope: "t.tournament_id = $1",
        order: "t.place_from, t.place_to, t.prize_id",
    },
    Table {
        name: "result_report",
        id: Some("report_id"),
        refs: &[("board_id", "board")],
        scope: concat!("t.board_id in ", boards!()),
        order: "t.reported_at, t.report_id",
    },
    Table {
        name: "audit_event",
        id: None,
        refs: &[("tournament_id", "tournament")],
        scope: "t.tournament_id = $1",
        order: "t.audit_id",
    },
];

/// Tables that are not part of an event: accounts and their sessions, the limiter, the
/// migrations' own table; the staff travel as [`EventFile::staff`]; invitation links stay
/// with the server that made them (their tokens are its secrets); webhooks (their endpoints
/// and secrets belong to the server's integrations) and the outbox (this server's deliveries)
/// stay too, and so do the players' push subscriptions (their endpoints are capabilities of
/// one server's VAPID key, `vapid_key`).
pub const OUTSIDE: &[&str] = &[
    "_sqlx_migrations",
    "app_user",
    "device_proof",
    "entrant_key",
    "outbox",
    "outbox_body",
    "password_reset",
    "push_subscription",
    "sign_in_throttle",
    "staff_invitation",
    "tournament_staff",
    "user_session",
    "vapid_key",
    "webhook",
];

/// The names of the tables an event file carries.
pub fn table_names() -> Vec<&'static str> {
    TABLES.iter().map(|t| t.name).collect()
}

/// The whole event as a file.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventFile {
    /// Always `arbiter-event`.
    pub format: String,
    /// The file's version (this server writes and reads 1).
    pub version: u32,
    /// When it was written.
    #[serde(default)]
    pub exported_at: Option<DateTime<Utc>>,
    /// The tournament's id on the server that wrote it.
    #[serde(default)]
    pub source_tournament_id: Option<Uuid>,
    /// The tournament's staff by account name.
    #[serde(default)]
    pub staff: Vec<StaffRecord>,
    /// Accounts the audit log names: their id on the writing server and their name.
    #[serde(default)]
    pub accounts: Vec<AccountRecord>,
    /// Table name → its rows (every column, as PostgreSQL writes the row as JSON).
    #[schema(value_type = Object)]
    pub tables: BTreeMap<String, Vec<Value>>,
}

/// One member of the staff in an event file.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StaffRecord {
    /// Login name.
    pub username: String,
    /// `chief_arbiter`, `arbiter` or `scorer`.
    pub role: String,
    /// Since when.
    #[serde(default)]
    pub created_at: Option<DateTime<Utc>>,
}

/// An account named by the audit log.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountRecord {
    /// Its id on the writing server.
    pub user_id: Uuid,
    /// Its login name (none when deleted there).
    pub username: Option<String>,
}

/// What became of one member of the staff named in an imported file.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StaffOutcome {
    /// Login name.
    pub username: String,
    /// The role in the file.
    pub role: String,
    /// `importer` (you: chief arbiter), `linked` (an active account of that name here got
    /// `role_here`) or `skipped` (no active account of that name here).
    pub outcome: String,
    /// The role here, when linked.
    pub role_here: Option<StaffRole>,
}

/// The tournament an import created.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImportedEvent {
    /// The new tournament's id.
    pub id: Uuid,
    /// Its name.
    pub name: String,
    /// The staff named in the file and what became of each.
    pub staff: Vec<StaffOutcome>,
    /// Rows written per table.
    pub rows: BTreeMap<String, u64>,
}

/// The whole tournament as an event file, for those who may see its private data (its
/// arbiters and admins): the file holds contact details.
pub async fn export(pool: &PgPool, actor: &Actor, tournament_id: Uuid) -> Result<EventFile> {
    db::tournament::find(pool, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    // One snapshot: a result entered while the file is read is in all of it or none of it.
    let mut tx = pool.begin().await?;
    sqlx::query("set transaction isolation level repeatable read, read only")
        .execute(&mut *tx)
        .await?;
    access::require(&mut tx, actor, tournament_id, Need::Arbiter).await?;
    let mut tables = BTreeMap::new();
    for table in TABLES {
        let rows = db::event_file::rows(
            &mut *tx,
            table.name,
            table.scope,
            table.order,
            tournament_id,
        )
        .await?;
        tables.insert(table.name.to_string(), rows);
    }
    let staff = db::event_file::staff(&mut *tx, tournament_id)
        .await?
        .into_iter()
        .map(|s| StaffRecord {
            username: s.username,
            role: s.role.as_str().to_string(),
            created_at: Some(s.created_at),
        })
        .collect();
    let accounts = db::event_file::audit_accounts(&mut *tx, tournament_id)
        .await?
        .into_iter()
        .map(|(user_id, username)| AccountRecord { user_id, username })
        .collect();
    tx.commit().await?;
    Ok(EventFile {
        format: FORMAT.into(),
        version: VERSION,
        exported_at: Some(Utc::now()),
        source_tournament_id: Some(tournament_id),
        staff,
        accounts,
        tables,
    })
}

/// A problem with the file: 422, on the field that names the row and column.
fn bad(field: impl Into<String>, message: impl Into<Msg>) -> Error {
    let field: String = field.into();
    let message = message.into();
    let mut fields = FieldErrors::new();
    fields.insert(field.clone(), vec![message.clone()]);
    Error::Invalid {
        message: Msg::field(&field, message),
        fields,
    }
}

/// Old ids → new ones, per table, plus a consistent fresh id for every other id the file
/// mentions (inside JSON: entities deleted before the export, tie decisions, accounts).
#[derive(Default)]
struct Ids {
    by_table: HashMap<&'static str, HashMap<Uuid, Uuid>>,
    all: HashMap<Uuid, Uuid>,
}

impl Ids {
    fn insert(&mut self, table: &'static str, old: Uuid) -> bool {
        let new = Uuid::new_v4();
        let fresh = self
            .by_table
            .entry(table)
            .or_default()
            .insert(old, new)
            .is_none();
        self.all.insert(old, new);
        fresh
    }

    fn of(&self, table: &str, old: Uuid) -> Option<Uuid> {
        self.by_table.get(table)?.get(&old).copied()
    }

    /// The new id of any old id; one never seen gets a fresh one, the same each time.
    fn any(&mut self, old: Uuid) -> Uuid {
        *self.all.entry(old).or_insert_with(Uuid::new_v4)
    }

    /// `value` with every id in it (strings and object keys) replaced.
    fn remap_json(&mut self, value: Value) -> Value {
        match value {
            Value::String(s) => match Uuid::parse_str(&s) {
                Ok(old) if s.len() == 36 => Value::String(self.any(old).to_string()),
                _ => Value::String(s),
            },
            Value::Array(items) => {
                Value::Array(items.into_iter().map(|v| self.remap_json(v)).collect())
            }
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(k, v)| {
                        let key = match Uuid::parse_str(&k) {
                            Ok(old) if k.len() == 36 => self.any(old).to_string(),
                            _ => k,
                        };
                        (key, self.remap_json(v))
                    })
                    .collect(),
            ),
            other => other,
        }
    }
}

fn uuid_at(row: &Map<String, Value>, column: &str, field: &str) -> Result<Option<Uuid>> {
    match row.get(column) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Uuid::parse_str(s)
            .map(Some)
            .map_err(|_| bad(field.to_string(), m::EVENT_FILE_NOT_ID.with(&[&s]))),
        Some(_) => Err(bad(
            field.to_string(),
            m::EVENT_FILE_MUST_ID_UUID_STRING.msg(),
        )),
    }
}

/// The database's refusal of a row of the file: a value that does not fit its column (class
/// 22) or a broken rule (class 23) is the file's fault, a 422 naming the table; anything
/// else (the database gone) stays what it is.
fn refused(table: &str, error: sqlx::Error) -> Error {
    if let sqlx::Error::Database(e) = &error {
        let code = e.code().unwrap_or_default();
        if code.starts_with("22") || code.starts_with("23") {
            // Not the database's own words (English): what its error code says, and the rule
            // (constraint) or column it names.
            let why = database_refusal(&code, e.try_downcast_ref::<PgDatabaseError>());
            let message = match e.constraint() {
                Some(c) => m::EVENT_FILE_DATABASE_REFUSES_ROW
                    .msg()
                    .and(m::EVENT_FILE_RULE.with(&[&c]))
                    .and(why),
                None => m::EVENT_FILE_DATABASE_REFUSES_ROW.with(&[&""]).and(why),
            };
            return bad(format!("tables.{table}"), message);
        }
    }
    Error::from(error)
}

/// What the database's SQLSTATE `code` (class 22 or 23) says about a refused row, with the
/// column when PostgreSQL names one.
fn database_refusal(code: &str, details: Option<&PgDatabaseError>) -> Msg {
    let text = match code {
        "23502" => m::DB_REFUSAL_NOT_NULL,
        "23503" => m::DB_REFUSAL_FOREIGN_KEY,
        "23505" => m::DB_REFUSAL_UNIQUE,
        "23514" => m::DB_REFUSAL_CHECK,
        "23P01" => m::DB_REFUSAL_EXCLUSION,
        "22001" => m::DB_REFUSAL_TOO_LONG,
        "22003" => m::DB_REFUSAL_OUT_OF_RANGE,
        "22007" | "22008" => m::DB_REFUSAL_DATE_TIME,
        "22P02" => m::DB_REFUSAL_WRONG_FORM,
        c if c.starts_with("23") => m::DB_REFUSAL_RULE,
        _ => m::DB_REFUSAL_VALUE,
    };
    match details.and_then(|d| d.column()) {
        Some(column) => m::DB_REFUSAL_IN_COLUMN
            .with(&[&column])
            .and(text.with(&[&code])),
        None => text.with(&[&code]),
    }
}

/// Columns whose values are secrets of the server that drew them: never carried into another
/// server, always drawn anew on import (the column is left out of the insert, so its default
/// draws it). A report code opens a board's self-report: a kept code would let whoever holds
/// the file past the code limiter. A table that brings a secret column (a player's key …)
/// names it here; a test fails on a column whose name looks like a secret and that is in
/// neither this list nor [`NOT_SECRETS`], and on a secret without a default.
/// A registration's `email_token` opens its one-click unsubscribe (issue #37).
pub const SECRETS: &[(&str, &str)] = &[
    ("board", "report_code"),
    ("board", "black_code"),
    ("game", "red_code"),
    ("game", "black_code"),
    ("registration", "email_token"),
];

/// Columns whose names look like secrets and are not: (table, column, why).
pub const NOT_SECRETS: &[(&str, &str, &str)] = &[
    (
        "tournament",
        "time_control_code",
        "the TRF-26 time-control code",
    ),
    (
        "setup",
        "salt",
        "the commitment's salt: published with the set-up at its reveal, it must travel so the \
         commitment can still be checked",
    ),
    ("setup", "commitment", "published from the start"),
];

/// A chunk of rows is written once its JSON reaches this size (memory stays bounded by the
/// chunk, not the table).
const CHUNK_BYTES: usize = 2 * 1024 * 1024;

/// An event file as an import reads it: each row stays its own JSON text until its table's
/// turn, so a large file is never one tree of values in memory.
#[derive(Debug, Deserialize)]
pub struct IncomingFile {
    format: String,
    version: u32,
    #[serde(default)]
    source_tournament_id: Option<Uuid>,
    #[serde(default)]
    staff: Vec<StaffRecord>,
    #[serde(default)]
    accounts: Vec<AccountRecord>,
    tables: BTreeMap<String, Vec<Box<RawValue>>>,
}

/// Reads an event file for [`import`] (serde's error says the kind, line and column).
pub fn parse(bytes: &[u8]) -> serde_json::Result<IncomingFile> {
    serde_json::from_slice(bytes)
}

/// One table's rows on their way into the database, a chunk at a time.
#[derive(Default)]
struct Chunk {
    /// The rows as one JSON array's text.
    text: String,
    /// The columns any of them has.
    columns: Vec<String>,
    rows: u64,
}

impl Chunk {
    fn push(&mut self, row: Map<String, Value>) -> Result<()> {
        for column in row.keys() {
            if !self.columns.contains(column) {
                self.columns.push(column.clone());
            }
        }
        self.text.push(if self.rows == 0 { '[' } else { ',' });
        let text = serde_json::to_string(&Value::Object(row))
            .map_err(|e| Error::Internal(e.to_string()))?;
        self.text.push_str(&text);
        self.rows += 1;
        Ok(())
    }

    async fn flush(&mut self, conn: &mut sqlx::PgConnection, table: &str) -> Result<u64> {
        if self.rows == 0 {
            return Ok(0);
        }
        self.text.push(']');
        let written = db::event_file::insert_rows(conn, table, &self.columns, &self.text)
            .await
            .map_err(|e| refused(table, e))?;
        *self = Chunk::default();
        Ok(written)
    }
}

/// A row of the file as an object.
fn object(raw: &RawValue, at: &str) -> Result<Map<String, Value>> {
    match serde_json::from_str::<Value>(raw.get()) {
        Ok(Value::Object(row)) => Ok(row),
        _ => Err(bad(at.to_string(), m::EVENT_FILE_MUST_BE_OBJECT.msg())),
    }
}

/// What the rows written so far say that later rows are checked against.
#[derive(Default)]
struct Seen {
    entrant_section: HashMap<Uuid, Uuid>,
    round_section: HashMap<Uuid, Uuid>,
    name: String,
}

/// What an audit row of the file becomes: history of the file, not this server's trail.
struct History<'a> {
    accounts: &'a HashMap<Uuid, Option<String>>,
    source: Option<Uuid>,
}

/// Whom the file's staff list named, and what became of them: nobody is made staff here by
/// a name in a file (the same name here need not be the same person). The importer is the
/// chief arbiter, who invites the others.
fn staff_outcomes(staff: Vec<StaffRecord>) -> Vec<StaffOutcome> {
    staff
        .into_iter()
        .map(|member| StaffOutcome {
            username: member.username,
            role: member.role,
            outcome: "not_linked".into(),
            role_here: None,
        })
        .collect()
}

/// Checks `file` and writes it as a new tournament with new ids, in the caller's transaction.
async fn write_file(
    conn: &mut sqlx::PgConnection,
    file: IncomingFile,
) -> Result<(Uuid, String, BTreeMap<String, u64>)> {
    if file.format != FORMAT {
        return Err(bad("format", m::EVENT_FILE_MUST_ARBITER_EVENT_NOT.msg()));
    }
    if file.version != VERSION {
        return Err(bad(
            "version",
            m::EVENT_FILE_SERVER_READS_VERSION_EVENT.with(&[&VERSION, &file.version]),
        ));
    }
    let known: HashSet<&str> = TABLES.iter().map(|t| t.name).collect();
    if let Some(unknown) = file.tables.keys().find(|k| !known.contains(k.as_str())) {
        return Err(bad(
            format!("tables.{unknown}"),
            m::EVENT_FILE_NOT_TABLE_EVENT_FILE.msg(),
        ));
    }
    let mut tables = file.tables;
    let mut ids = Ids::default();
    let accounts: HashMap<Uuid, Option<String>> = file
        .accounts
        .into_iter()
        .map(|a| (a.user_id, a.username))
        .collect();
    let history = History {
        accounts: &accounts,
        source: file.source_tournament_id,
    };
    // Every row's own id first: references may only point to rows of the file.
    for table in TABLES {
        let Some(id_column) = table.id else { continue };
        for (i, raw) in tables.get(table.name).into_iter().flatten().enumerate() {
            let field = format!("tables.{}[{i}].{id_column}", table.name);
            let row = object(raw, &format!("tables.{}[{i}]", table.name))?;
            let old = uuid_at(&row, id_column, &field)?
                .ok_or_else(|| bad(field.clone(), m::CHECK_REQUIRED.msg()))?;
            if !ids.insert(table.name, old) {
                return Err(bad(field, m::EVENT_FILE_FILE_TWICE.with(&[&old])));
            }
        }
    }
    let tournament_rows = tables.get("tournament").map_or(0, Vec::len);
    if tournament_rows != 1 {
        return Err(bad(
            "tables.tournament",
            m::EVENT_FILE_MUST_HOLD_EXACTLY_ONE.with(&[&tournament_rows]),
        ));
    }
    let mut seen = Seen::default();
    let mut written = BTreeMap::new();
    for table in TABLES {
        let rows = tables.remove(table.name).unwrap_or_default();
        let columns = db::event_file::columns(&mut *conn, table.name).await?;
        let by_name: HashMap<&str, &db::event_file::Column> =
            columns.iter().map(|c| (c.name.as_str(), c)).collect();
        let mut chunk = Chunk::default();
        let mut count = 0;
        for (i, raw) in rows.into_iter().enumerate() {
            let at = |column: &str| format!("tables.{}[{i}].{column}", table.name);
            let mut row = object(&raw, &format!("tables.{}[{i}]", table.name))?;
            drop(raw);
            // References: to a row of the file, by its new id.
            for (column, target) in table.refs {
                if let Some(old) = uuid_at(&row, column, &at(column))? {
                    let new = ids.of(target, old).ok_or_else(|| {
                        bad(
                            at(column),
                            m::EVENT_FILE_REFERS_WHICH_NOT_FILE.with(&[&target, &old]),
                        )
                    })?;
                    row.insert((*column).to_string(), Value::String(new.to_string()));
                }
            }
            if let Some(id_column) = table.id {
                let old = uuid_at(&row, id_column, &at(id_column))?.unwrap_or_default();
                let new = ids.of(table.name, old).unwrap_or_default();
                row.insert(id_column.to_string(), Value::String(new.to_string()));
            }
            let mut checked = Map::new();
            for (column, value) in row {
                let Some(meta) = by_name.get(column.as_str()) else {
                    return Err(bad(at(&column), m::EVENT_FILE_NOT_COLUMN_TABLE.msg()));
                };
                if meta.identity || SECRETS.contains(&(table.name, column.as_str())) {
                    // Numbered anew here (the file's order keeps the old numbering's
                    // order); secrets drawn anew by the column's default.
                    continue;
                }
                let value = if table.name == "audit_event" && column == "imported" {
                    // The file's own record of where its history came from: kept as is.
                    value
                } else if meta.data_type == "jsonb" || meta.data_type == "json" {
                    ids.remap_json(value)
                } else {
                    check_text(&value, &at(&column))?;
                    value
                };
                checked.insert(column, value);
            }
            special(table.name, &mut checked, &mut ids, &history, &at)?;
            let get = |c: &str| {
                checked
                    .get(c)
                    .and_then(Value::as_str)
                    .and_then(|s| Uuid::parse_str(s).ok())
            };
            match table.name {
                "tournament" => {
                    seen.name = checked
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                }
                "entrant" => {
                    if let (Some(e), Some(s)) = (get("entrant_id"), get("section_id")) {
                        seen.entrant_section.insert(e, s);
                    }
                }
                "round" => {
                    if let (Some(r), Some(s)) = (get("round_id"), get("section_id")) {
                        seen.round_section.insert(r, s);
                    }
                }
                "board" => {
                    // Both sides play in the round's own section.
                    let section = get("round_id").and_then(|r| seen.round_section.get(&r).copied());
                    for side in ["red_entrant_id", "black_entrant_id"] {
                        if let Some(e) = get(side) {
                            if seen.entrant_section.get(&e).copied() != section {
                                return Err(bad(
                                    at(side),
                                    m::EVENT_FILE_REFERS_ENTRANT_ANOTHER_SECTION.msg(),
                                ));
                            }
                        }
                    }
                }
                _ => {}
            }
            chunk.push(checked)?;
            if chunk.text.len() >= CHUNK_BYTES {
                count += chunk.flush(&mut *conn, table.name).await?;
            }
        }
        count += chunk.flush(&mut *conn, table.name).await?;
        written.insert(table.name.to_string(), count);
    }
    let tournament_id = ids
        .by_table
        .get("tournament")
        .and_then(|m| m.values().next().copied())
        .ok_or_else(|| bad("tables.tournament", m::CHECK_REQUIRED.msg()))?;
    Ok((tournament_id, seen.name, written))
}

/// What a table needs beyond references and ids.
fn special(
    table: &str,
    row: &mut Map<String, Value>,
    ids: &mut Ids,
    history: &History<'_>,
    at: &dyn Fn(&str) -> String,
) -> Result<()> {
    match table {
        "tournament" => {
            // A copy is not public at once: it starts as a draft, off the home page (which
            // would list the event twice) until its chief arbiter lists it.
            row.insert(
                "status".into(),
                Value::String(TournamentStatus::Draft.as_str().into()),
            );
            row.insert("listed".into(), Value::Bool(false));
        }
        "forbidden_pair" => {
            // Stored lower id first; the new ids may sort the other way.
            let a = uuid_at(row, "entrant_a_id", &at("entrant_a_id"))?;
            let b = uuid_at(row, "entrant_b_id", &at("entrant_b_id"))?;
            if let (Some(a), Some(b)) = (a, b) {
                if a > b {
                    row.insert("entrant_a_id".into(), Value::String(b.to_string()));
                    row.insert("entrant_b_id".into(), Value::String(a.to_string()));
                }
            }
        }
        "tie_order" => {
            // One decision's rows share an id of their own, new like every other.
            if let Some(old) = uuid_at(row, "decision_id", &at("decision_id"))? {
                row.insert(
                    "decision_id".into(),
                    Value::String(ids.any(old).to_string()),
                );
            }
        }
        "audit_event" => {
            // History of the file, never this server's trail: no account of this server
            // acted (the actor's name stays as text), and the row is written now (its
            // original time and actor are kept in `imported`, the trail is not backdated).
            let user = uuid_at(row, "user_id", &at("user_id"))?;
            row.insert("user_id".into(), Value::Null);
            let at_time = row.remove("at").unwrap_or(Value::Null);
            let kept = row.get("imported").is_some_and(|v| v.is_object());
            if !kept {
                let account = user.and_then(|u| history.accounts.get(&u).cloned().flatten());
                row.insert(
                    "imported".into(),
                    json!({
                        "at": at_time,
                        "actor": row.get("actor").cloned().unwrap_or(Value::Null),
                        "account": account,
                        "source_tournament_id": history.source,
                    }),
                );
            }
            if let Some(old) = uuid_at(row, "entity_id", &at("entity_id"))? {
                row.insert("entity_id".into(), Value::String(ids.any(old).to_string()));
            }
        }
        _ => {}
    }
    Ok(())
}

/// Human text in the file goes through the same validator as typed text: no control, bidi
/// or garbled characters (line breaks are allowed: notes and records have them).
fn check_text(value: &Value, field: &str) -> Result<()> {
    let texts: Vec<&str> = match value {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    for text in texts {
        arbiter_core::text::clean(text, arbiter_core::text::Lines::Multi, usize::MAX)
            .map_err(|e| bad(field, super::check::text_error(&e)))?;
    }
    Ok(())
}

/// The first way the imported tournament's rounds break the live rules, as a 422 naming the
/// section, round and board: rounds within the section's count and without gaps, every
/// round before the last completed, each entrant at most once per round, each two-sided
/// board with its game between its players, statuses that fit the results (a completed
/// round has every result, a paired one none, a published one some left), results entered
/// and counted together, a section's status that fits its rounds.
async fn check_rounds(conn: &mut sqlx::PgConnection, tournament_id: Uuid) -> Result<()> {
    let Some(problem) = db::event_file::first_problem(&mut *conn, tournament_id).await? else {
        return Ok(());
    };
    let db::event_file::Problem {
        kind,
        section,
        round,
        board,
        other,
        name,
    } = problem;
    let (round, board, other) = (round.unwrap_or(0), board.unwrap_or(0), other.unwrap_or(0));
    let message = match kind.as_str() {
        "beyond" => m::EVENT_FILE_ROUND_BEYOND.with(&[&section, &round, &other]),
        "gap" => m::EVENT_FILE_ROUND_GAP.with(&[&section, &round, &other]),
        "not_completed" => m::EVENT_FILE_ROUND_NOT_COMPLETED.with(&[&section, &round, &other]),
        "twice" => m::EVENT_FILE_TWICE_IN_ROUND.with(&[
            &section,
            &round,
            &name.unwrap_or_default(),
            &board,
            &other,
        ]),
        "board_game" => m::EVENT_FILE_BOARD_GAME.with(&[&section, &round, &board]),
        "completed_open" => m::EVENT_FILE_COMPLETED_OPEN.with(&[&section, &round, &board]),
        "paired_result" => m::EVENT_FILE_PAIRED_RESULT.with(&[&section, &round, &board]),
        "published_all_in" => m::EVENT_FILE_PUBLISHED_ALL_IN.with(&[&section, &round]),
        "unreported" => m::EVENT_FILE_RESULT_UNREPORTED.with(&[&section, &round, &board]),
        _ => m::EVENT_FILE_SECTION_STATUS.with(&[&section, &name.unwrap_or_default()]),
    };
    let field = match kind.as_str() {
        "section_status" => "tables.section",
        "beyond" | "gap" | "not_completed" | "published_all_in" => "tables.round",
        "board_game" | "completed_open" | "paired_result" | "unreported" => "tables.game",
        _ => "tables.board",
    };
    Err(bad(field, message))
}

/// Whether `actor` may import an event file (admins and chief arbiters: see
/// [`access::require_importer`]), asked before a byte of the file is read.
pub async fn may_import(pool: &PgPool, actor: &Actor) -> Result<()> {
    let mut conn = pool.acquire().await?;
    access::require_importer(&mut conn, actor).await
}

/// Creates a new tournament from an event file, with new ids, in one transaction; `actor`
/// (an admin or a chief arbiter of some tournament here) becomes its chief arbiter. The copy
/// starts as a draft; the file's staff are not made staff here; report codes are drawn anew;
/// the file's audit log is kept as imported history.
pub async fn import(pool: &PgPool, actor: &Actor, mut file: IncomingFile) -> Result<ImportedEvent> {
    let source = file.source_tournament_id;
    let mut tx = pool.begin().await?;
    access::require_importer(&mut tx, actor).await?;
    let staff_in_file = std::mem::take(&mut file.staff);
    let (tournament_id, name, rows) = write_file(&mut tx, file).await?;
    let staff = staff_outcomes(staff_in_file);
    db::access::assign(
        &mut *tx,
        tournament_id,
        actor.user_id,
        StaffRole::ChiefArbiter,
    )
    .await?;
    check_rounds(&mut tx, tournament_id).await?;
    // The file's data must hold together as the services read it: each section loads and
    // ranks, or nothing is written.
    let section_ids: Vec<Uuid> =
        sqlx::query_scalar("select section_id from section where tournament_id = $1")
            .bind(tournament_id)
            .fetch_all(&mut *tx)
            .await?;
    for section_id in section_ids {
        let section = db::section::find(&mut *tx, section_id)
            .await?
            .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
        let name = section.name.clone();
        let options = sections::standings_options(&section);
        let loaded = state::load(&mut tx, section, false)
            .await
            .map_err(|e| match e {
                Error::Db(_) => e,
                other => bad(
                    "tables.section",
                    m::EVENT_FILE_SECTION_PROBLEM
                        .with(&[&name])
                        .and(other.msg().unwrap_or_else(|| m::API_INTERNAL.msg())),
                ),
            })?;
        arbiter_core::standings::rank(&loaded.tournament, &options);
    }
    access::audit(
        &mut tx,
        tournament_id,
        Some(actor),
        Change {
            action: "import",
            entity: "tournament",
            entity_id: Some(tournament_id),
            before: None,
            after: Some(json!({
                "format": FORMAT,
                "version": VERSION,
                "source_tournament_id": source,
                "rows": rows,
                "staff": staff,
            })),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(ImportedEvent {
        id: tournament_id,
        name,
        staff,
        rows,
    })
}
