//! Rounds, boards, games and fouls of the Swiss stage.

use crate::vocab::{GameResult, RoundStatus};
use serde_json::Value;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

/// Number of rounds paired so far in a section.
pub async fn count(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<i64> {
    let n = sqlx::query_scalar!(
        "select count(*) as \"n!\" from round where section_id = $1",
        section_id
    )
    .fetch_one(db)
    .await?;
    Ok(n)
}

/// A round row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RoundRow {
    /// Id.
    pub round_id: Uuid,
    /// Section.
    pub section_id: Uuid,
    /// Number.
    pub number: i32,
    /// Paired, published, completed.
    pub status: RoundStatus,
    /// The engine's explanation.
    pub pairing_report: Value,
    /// The engine's original boards, kept when the arbiter edits them.
    pub engine_pairing: Value,
    /// Version, bumped by every change of the round (a trigger) and of its boards.
    pub version: i32,
}

/// Inserts a round.
pub async fn insert(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    number: i32,
    report: &Value,
    engine_pairing: &Value,
) -> sqlx::Result<Uuid> {
    sqlx::query_scalar!(
        "insert into round (section_id, number, pairing_report, engine_pairing) values ($1, $2, $3, $4) returning round_id",
        section_id,
        number,
        report,
        engine_pairing
    )
    .fetch_one(db)
    .await
}

/// One round by number.
pub async fn find(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    number: i32,
) -> sqlx::Result<Option<RoundRow>> {
    sqlx::query_as!(
        RoundRow,
        "select round_id, section_id, number, status as \"status: RoundStatus\", pairing_report, engine_pairing, version from round
         where section_id = $1 and number = $2",
        section_id,
        number
    )
    .fetch_optional(db)
    .await
}

/// Every round of a section.
pub async fn list(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<RoundRow>> {
    sqlx::query_as!(
        RoundRow,
        "select round_id, section_id, number, status as \"status: RoundStatus\", pairing_report, engine_pairing, version from round
         where section_id = $1 order by number",
        section_id
    )
    .fetch_all(db)
    .await
}

/// A section's rounds as a loaded state needs them: without the engine's original boards
/// (`engine_pairing` is `null`: read by the manual edit from [`find`], never from a state),
/// whose parsing was a part of every standings render (issue #38).
pub async fn list_for_state(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<RoundRow>> {
    sqlx::query_as(
        "select round_id, section_id, number, status, pairing_report, 'null'::jsonb as engine_pairing, version
           from round where section_id = $1 order by number",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// The rounds of a section for its standings: as [`list_for_state`], with only the
/// `stages` part of each pairing report (what the places read: a knockout's qualifiers, the
/// final of the top two). A 1,000-entrant round's whole report is large, and parsing nine of
/// them was most of the cost of the standings after one more result (issue #38).
pub async fn list_for_standings(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<RoundRow>> {
    sqlx::query_as(
        "select round_id, section_id, number, status,
                jsonb_build_object('stages', pairing_report -> 'stages') as pairing_report,
                'null'::jsonb as engine_pairing, version
           from round where section_id = $1 order by number",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Sets a round's status.
pub async fn set_status(
    db: impl PgExecutor<'_>,
    round_id: Uuid,
    status: RoundStatus,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update round set status = $2 where round_id = $1",
        round_id,
        status as RoundStatus
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Marks a change of a round's boards (a manual edit) in its version.
pub async fn bump_version(db: impl PgExecutor<'_>, round_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "update round set updated_at = now() where round_id = $1",
        round_id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Deletes a round with its boards, games and fouls.
pub async fn delete(db: impl PgExecutor<'_>, round_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("delete from round where round_id = $1", round_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Inserts the boards of a round and a game for every board that is not a bye, in two
/// statements whatever the number of boards.
pub async fn insert_boards(
    conn: &mut sqlx::PgConnection,
    round_id: Uuid,
    boards: &[(i32, Uuid, Option<Uuid>)],
) -> sqlx::Result<()> {
    let numbers: Vec<i32> = boards.iter().map(|b| b.0).collect();
    let reds: Vec<Uuid> = boards.iter().map(|b| b.1).collect();
    let blacks: Vec<Option<Uuid>> = boards.iter().map(|b| b.2).collect();
    sqlx::query!(
        "insert into board (round_id, number, red_entrant_id, black_entrant_id)
         select $1, * from unnest($2::int[], $3::uuid[], $4::uuid[])",
        round_id,
        &numbers,
        &reds,
        &blacks as &[Option<Uuid>]
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "insert into game (board_id, red_entrant_id, black_entrant_id)
         select board_id, red_entrant_id, black_entrant_id from board
         where round_id = $1 and black_entrant_id is not null",
        round_id
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Deletes every board (and game) of a round, for a manual re-pairing.
pub async fn delete_boards(db: impl PgExecutor<'_>, round_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("delete from board where round_id = $1", round_id)
        .execute(db)
        .await?;
    Ok(())
}

/// A board with its game, fouls and the entrants' numbers and names.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BoardRow {
    /// Board id.
    pub board_id: Uuid,
    /// Round number.
    pub round: i32,
    /// Round id.
    pub round_id: Uuid,
    /// Board number.
    pub number: i32,
    /// Red.
    pub red_entrant_id: Uuid,
    /// Black; None for a bye.
    pub black_entrant_id: Option<Uuid>,
    /// The game (None for a bye).
    pub game_id: Option<Uuid>,
    /// Result after the foul rule.
    pub result: Option<GameResult>,
    /// Result as entered.
    pub reported_result: Option<GameResult>,
    /// Version for optimistic locking.
    pub version: Option<i32>,
    /// Red's fouls in this game.
    pub red_fouls: i64,
    /// Black's fouls in this game.
    pub black_fouls: i64,
}

/// Every board of a section (all rounds), by round and board.
///
/// The fouls are counted by a query of their own and merged here: two correlated counts per
/// game were most of the cost of loading a 1,000-entrant section (issue #38), while the
/// section's fouls are few and found through their games in one join.
pub async fn boards_of_section(
    conn: &mut PgConnection,
    section_id: Uuid,
) -> sqlx::Result<Vec<BoardRow>> {
    let mut boards: Vec<BoardRow> = sqlx::query_as(
        "select b.board_id, r.number as round, r.round_id, b.number, b.red_entrant_id, b.black_entrant_id,
                g.game_id, g.result, g.reported_result, g.version,
                0::bigint as red_fouls, 0::bigint as black_fouls
         from board b join round r using (round_id) left join game g on g.board_id = b.board_id
         where r.section_id = $1 order by r.number, b.number",
    )
    .bind(section_id)
    .fetch_all(&mut *conn)
    .await?;
    let fouls: Vec<(Uuid, String, i64)> = sqlx::query_as(
        "select f.game_id, f.side, count(*) from foul f
           join game g using (game_id) join board b using (board_id) join round r using (round_id)
          where r.section_id = $1 group by f.game_id, f.side",
    )
    .bind(section_id)
    .fetch_all(&mut *conn)
    .await?;
    if !fouls.is_empty() {
        let mut counted: std::collections::HashMap<Uuid, (i64, i64)> =
            std::collections::HashMap::with_capacity(fouls.len());
        for (game_id, side, count) in fouls {
            let sides = counted.entry(game_id).or_default();
            if side == "red" {
                sides.0 = count;
            } else {
                sides.1 = count;
            }
        }
        for board in &mut boards {
            if let Some((red, black)) = board.game_id.and_then(|g| counted.get(&g)) {
                board.red_fouls = *red;
                board.black_fouls = *black;
            }
        }
    }
    Ok(boards)
}

/// The boards of some games of a section (games of other sections are left out), with their
/// fouls: what a result changed, read again (`service::state::kept`).
pub async fn boards_of_games(
    conn: &mut PgConnection,
    section_id: Uuid,
    game_ids: &[Uuid],
) -> sqlx::Result<Vec<BoardRow>> {
    sqlx::query_as(
        "select b.board_id, r.number as round, r.round_id, b.number, b.red_entrant_id, b.black_entrant_id,
                g.game_id, g.result, g.reported_result, g.version,
                (select count(*) from foul f where f.game_id = g.game_id and f.side = 'red') as red_fouls,
                (select count(*) from foul f where f.game_id = g.game_id and f.side = 'black') as black_fouls
           from unnest($2::uuid[]) as changed (game_id)
           join game g on g.game_id = changed.game_id
           join board b on b.board_id = g.board_id
           join round r on r.round_id = b.round_id
          where r.section_id = $1",
    )
    .bind(section_id)
    .bind(game_ids)
    .fetch_all(&mut *conn)
    .await
}

/// A board and what is needed to change its result.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BoardContext {
    /// Board id.
    pub board_id: Uuid,
    /// Round id.
    pub round_id: Uuid,
    /// Round number.
    pub round: i32,
    /// Round status.
    pub round_status: RoundStatus,
    /// Section.
    pub section_id: Uuid,
    /// Tournament.
    pub tournament_id: Uuid,
    /// Game (None for a bye).
    pub game_id: Option<Uuid>,
    /// Result after the foul rule.
    pub result: Option<GameResult>,
    /// Result as entered.
    pub reported_result: Option<GameResult>,
    /// Version.
    pub version: Option<i32>,
    /// The section's foul threshold (a second foul loses the game when it is 2).
    pub foul_threshold: i32,
    /// The section's number of rounds (a result in the last one may finish the section).
    pub section_rounds: i32,
    /// The section is a team section (issue #41): its boards are matches of several games.
    pub team: bool,
    /// The game of a team match this context is for (its board of the match); `None` for
    /// a board's only game. A team match's board-level context takes no result.
    pub team_game: Option<i32>,
}

/// The columns of a [`BoardContext`] and their joins, before the `where`.
const BOARD_CONTEXT: &str =
    "select b.board_id, r.round_id, r.number as round, r.status as round_status, s.section_id,
            s.tournament_id, g.game_id, g.result, g.reported_result, g.version,
            s.foul_threshold, s.rounds as section_rounds, s.entry_type = 'team' as team,
            null::int as team_game
     from board b join round r using (round_id) join section s using (section_id)
          left join game g on g.board_id = b.board_id and g.number = 1";

/// One board with its section, tournament and game as committed now, read without a lock:
/// [`store_result`] writes only if none of what a result depends on changed since
/// (the game's version, the section's foul threshold and number of rounds).
pub async fn board_context(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
) -> sqlx::Result<Option<BoardContext>> {
    sqlx::query_as::<_, BoardContext>(&format!("{BOARD_CONTEXT} where b.board_id = $1"))
        .bind(board_id)
        .fetch_optional(db)
        .await
}

/// Every board of the round of `board_id`, as [`board_context`] reads one: a desk entering
/// one result of a round is about to enter the others.
pub async fn round_contexts(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
) -> sqlx::Result<Vec<BoardContext>> {
    sqlx::query_as::<_, BoardContext>(&format!(
        "{BOARD_CONTEXT} where b.round_id = (select round_id from board where board_id = $1)"
    ))
    .bind(board_id)
    .fetch_all(db)
    .await
}

/// A game's result as stored now.
#[derive(Debug, Clone)]
pub struct GameState {
    /// Result after the foul rule.
    pub result: Option<GameResult>,
    /// Result as entered.
    pub reported_result: Option<GameResult>,
    /// Version.
    pub version: i32,
}

/// Locks a game's row and reads its result. In READ COMMITTED a statement sees what was
/// committed before it began: read after waiting for other locks, this is the state a
/// compare-and-set must compare against (not a value read before the wait).
pub async fn lock_game(db: impl PgExecutor<'_>, game_id: Uuid) -> sqlx::Result<Option<GameState>> {
    sqlx::query_as!(
        GameState,
        "select result as \"result: GameResult\", reported_result as \"reported_result: GameResult\", version from game where game_id = $1 for update",
        game_id
    )
    .fetch_optional(db)
    .await
}

/// A result to store ([`store_result`]).
pub struct StoredResult<'a> {
    /// The game.
    pub game_id: Uuid,
    /// The game's section.
    pub section_id: Uuid,
    /// The game's round.
    pub round_id: Uuid,
    /// The section's foul threshold the result was computed with.
    pub foul_threshold: i32,
    /// The section's number of rounds, as the caller knows it.
    pub section_rounds: i32,
    /// The version the result replaces (compare-and-set).
    pub expected: i32,
    /// The result as entered.
    pub reported: GameResult,
    /// The result after the foul rule.
    pub result: GameResult,
    /// Red's fouls.
    pub red_fouls: i32,
    /// Black's fouls.
    pub black_fouls: i32,
    /// How the players' open reports of the board are closed.
    pub resolution: &'a str,
}

/// Stores a game's result with its fouls, closes the players' open reports of its board and
/// appends `audit`, if the game's version is still `expected` and the section's foul
/// threshold and number of rounds still those given (compare-and-set), under the section's
/// shared lock, and settles the round in the same transaction when no other game of it is
/// left free: the database's `store_result` function, so one round trip and its own
/// transaction when the caller has none. `None` when something changed (and then nothing is
/// written).
pub async fn store_result(
    conn: &mut sqlx::PgConnection,
    r: StoredResult<'_>,
    audit: &crate::db::audit::NewAuditEvent<'_>,
) -> sqlx::Result<Option<Stored>> {
    let (version, round_status) = sqlx::query_as::<_, (Option<i32>, Option<RoundStatus>)>(
        "select stored_version, round_status from store_result($1, $2, $3, $4, $5, $6, $7, $8, $9,
             $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)",
    )
    .bind(r.game_id)
    .bind(r.expected)
    .bind(r.reported)
    .bind(r.result)
    .bind(r.red_fouls)
    .bind(r.black_fouls)
    .bind(r.resolution)
    .bind(audit.tournament_id)
    .bind(audit.user_id)
    .bind(audit.actor)
    .bind(audit.action)
    .bind(audit.entity)
    .bind(audit.entity_id)
    .bind(&audit.before)
    .bind(&audit.after)
    .bind(r.section_id)
    .bind(r.foul_threshold)
    .bind(r.round_id)
    .bind(r.section_rounds)
    .fetch_one(&mut *conn)
    .await?;
    Ok(version.map(|version| Stored {
        version,
        round_status,
    }))
}

/// A result [`store_result`] wrote.
#[derive(Debug, Clone, Copy)]
pub struct Stored {
    /// The game's new version.
    pub version: i32,
    /// The round's status when this result settled it, in its own transaction (see
    /// [`settle`]); `None` when the round is published and another of its games without a
    /// result is left that nobody else is writing (its writer will settle, and will see this
    /// result).
    pub round_status: Option<RoundStatus>,
}

/// Replaces a game's fouls by `red` fouls for Red and `black` for Black.
pub async fn replace_fouls(
    conn: &mut sqlx::PgConnection,
    game_id: Uuid,
    red: i32,
    black: i32,
) -> sqlx::Result<()> {
    // One statement (one round trip on the results' hot path); the insert does not see the
    // delete, and needs not: foul rows have no key but their id.
    sqlx::query(
        "with gone as (delete from foul where game_id = $1)
         insert into foul (game_id, side)
         select $1::uuid, 'red' from generate_series(1, $2::int)
         union all select $1::uuid, 'black' from generate_series(1, $3::int)",
    )
    .bind(game_id)
    .bind(red)
    .bind(black)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Settles a round that has results: `completed` when every game has one, else `published`
/// (a correction reopens it; a result in a round the arbiters forgot to publish publishes
/// it), under the round's settle lock (an advisory lock, held to the end of the caller's
/// transaction), and returns its status. The database's `settle_round` function does it in
/// one round trip, each of its statements on a fresh snapshot taken after the lock;
/// [`store_result`] calls it in the result's own transaction whenever the result may settle
/// the round.
pub async fn settle(db: impl PgExecutor<'_>, round_id: Uuid) -> sqlx::Result<Option<RoundStatus>> {
    sqlx::query_scalar::<_, Option<RoundStatus>>("select settle_round($1)")
        .bind(round_id)
        .fetch_one(db)
        .await
}

/// Number of boards of a round still without a result.
pub async fn open_games(db: impl PgExecutor<'_>, round_id: Uuid) -> sqlx::Result<i64> {
    let n = sqlx::query_scalar!(
        "select count(*) as \"n!\" from game g join board b using (board_id) where b.round_id = $1 and g.result is null",
        round_id
    )
    .fetch_one(db)
    .await?;
    Ok(n)
}

/// Number of games of a round with a result.
pub async fn results_entered(db: impl PgExecutor<'_>, round_id: Uuid) -> sqlx::Result<i64> {
    let n = sqlx::query_scalar!(
        "select count(*) as \"n!\" from game g join board b using (board_id) where b.round_id = $1 and g.result is not null",
        round_id
    )
    .fetch_one(db)
    .await?;
    Ok(n)
}

/// When the arbiter started round `number`'s clock, and the minutes the round was given.
pub async fn started_at(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    number: i32,
) -> sqlx::Result<Option<(chrono::DateTime<chrono::Utc>, Option<i32>)>> {
    let at = sqlx::query_as::<_, (Option<chrono::DateTime<chrono::Utc>>, Option<i32>)>(
        "select started_at, clock_minutes from round where section_id = $1 and number = $2",
    )
    .bind(section_id)
    .bind(number)
    .fetch_optional(db)
    .await?;
    Ok(at.and_then(|(at, minutes)| at.map(|at| (at, minutes))))
}

/// The round length last set in a section (the desk's default for the next clock).
pub async fn last_clock_minutes(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Option<i32>> {
    sqlx::query_scalar::<_, i32>(
        "select clock_minutes from round where section_id = $1 and clock_minutes is not null \
         order by number desc limit 1",
    )
    .bind(section_id)
    .fetch_optional(db)
    .await
}

/// Starts a round's clock now with `minutes` to play (none: the clock only counts up);
/// returns the time.
pub async fn start_clock(
    db: impl PgExecutor<'_>,
    round_id: Uuid,
    minutes: Option<i32>,
) -> sqlx::Result<chrono::DateTime<chrono::Utc>> {
    sqlx::query_scalar::<_, chrono::DateTime<chrono::Utc>>(
        "update round set started_at = now(), clock_minutes = $2 where round_id = $1 \
         returning started_at",
    )
    .bind(round_id)
    .bind(minutes)
    .fetch_one(db)
    .await
}

/// Board numbers of round `number`'s games with a result, the latest entered first.
pub async fn latest_results(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    number: i32,
    limit: i64,
) -> sqlx::Result<Vec<i32>> {
    sqlx::query_scalar::<_, i32>(
        "select b.number from game g join board b using (board_id) join round r using (round_id)
         where r.section_id = $1 and r.number = $2 and g.result is not null
         order by g.updated_at desc, b.number limit $3",
    )
    .bind(section_id)
    .bind(number)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// Completes every published round that has every result in: rounds left by a server of an
/// older version, which settled after the result's commit and could be killed in between.
/// Returns how many.
pub async fn settle_out_of_step(db: impl PgExecutor<'_>) -> sqlx::Result<u64> {
    let n = sqlx::query_scalar::<_, i64>(
        "select count(settle_round(r.round_id)) from round r
          where r.status = 'published'
            and not exists (select 1 from board b join game g using (board_id)
                             where b.round_id = r.round_id and g.result is null)",
    )
    .fetch_one(db)
    .await?;
    Ok(u64::try_from(n).unwrap_or(0))
}
