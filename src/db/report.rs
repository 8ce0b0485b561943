//! Self-reported results (SPEC §5): the board a report code opens, and the reports of a board.

use crate::vocab::{Game, GameResult, RoundStatus, SelfReport, Side};
use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

/// The board a report code opens, with what its page shows and what the rules need.
#[derive(Debug, Clone, FromRow)]
pub struct CodeBoard {
    /// Board.
    pub board_id: Uuid,
    /// Board number.
    pub board_no: i32,
    /// Round.
    pub round_id: Uuid,
    /// Round number.
    pub round_no: i32,
    /// Round status.
    pub round_status: RoundStatus,
    /// Section.
    pub section_id: Uuid,
    /// Section name.
    pub section_name: String,
    /// What the section does with agreeing reports.
    pub self_report: SelfReport,
    /// Fouls that lose a game.
    pub foul_threshold: i32,
    /// The section's number of rounds.
    pub section_rounds: i32,
    /// Tournament.
    pub tournament_id: Uuid,
    /// Tournament name.
    pub tournament_name: String,
    /// The tournament's game (its records' notations).
    pub game: Game,
    /// Red's starting number.
    pub red_no: Option<i32>,
    /// Red's name.
    pub red_name: String,
    /// Black's starting number (None with Black for a bye).
    pub black_no: Option<i32>,
    /// Black's name.
    pub black_name: Option<String>,
    /// The game (None for a bye).
    pub game_id: Option<Uuid>,
    /// The result that counts, once entered.
    pub result: Option<GameResult>,
    /// The result as entered (before the foul rule).
    pub reported_result: Option<GameResult>,
    /// The game's version.
    pub version: Option<i32>,
    /// The board's report code: Red's.
    pub report_code: String,
    /// Black's report code.
    pub black_code: String,
    /// Red's entrant.
    pub red_entrant_id: Uuid,
    /// Black's entrant (None for a bye).
    pub black_entrant_id: Option<Uuid>,
    /// A team section's match (issue #41).
    pub team: bool,
    /// The game of a team match this row is (its board of the match), with that game's
    /// players, codes and result; `None` for a board's only game (or a team match as a
    /// whole, which takes no report).
    pub game_no: Option<i32>,
}

const BOARD: &str = "select b.board_id, b.number as board_no, r.round_id, r.number as round_no,
        r.status as round_status, s.section_id, s.name as section_name, s.self_report,
        s.foul_threshold, s.rounds as section_rounds, t.tournament_id, t.name as tournament_name,
        t.game,
        red.start_no as red_no, red.name as red_name, black.start_no as black_no,
        black.name as black_name, g.game_id, g.result, g.reported_result, g.version, b.report_code,
        b.black_code, b.red_entrant_id, b.black_entrant_id, s.entry_type = 'team' as team,
        null::int as game_no
     from board b join round r using (round_id) join section s using (section_id)
          join tournament t using (tournament_id)
          join entrant red on red.entrant_id = b.red_entrant_id
          left join entrant black on black.entrant_id = b.black_entrant_id
          left join game g on g.board_id = b.board_id and g.number = 1";

/// A game of a team match as a [`CodeBoard`] (issue #41): each side is the player with that
/// colour in this game (named with the team), its codes the game's own.
const TEAM_GAME: &str = "select b.board_id, b.number as board_no, r.round_id, r.number as round_no,
        r.status as round_status, s.section_id, s.name as section_name, s.self_report,
        s.foul_threshold, s.rounds as section_rounds, t.tournament_id, t.name as tournament_name,
        t.game,
        red.start_no as red_no, coalesce(rp.name || ' (' || red.name || ')', red.name) as red_name,
        black.start_no as black_no,
        coalesce(bp.name || ' (' || black.name || ')', black.name) as black_name,
        g.game_id, g.result, g.reported_result, g.version, g.red_code as report_code,
        g.black_code, g.red_entrant_id, g.black_entrant_id, true as team, g.number as game_no
     from game g join board b using (board_id) join round r using (round_id)
          join section s using (section_id) join tournament t using (tournament_id)
          join entrant red on red.entrant_id = g.red_entrant_id
          join entrant black on black.entrant_id = g.black_entrant_id
          left join player rp on rp.player_id = g.red_player_id
          left join player bp on bp.player_id = g.black_player_id";

/// The game of a team match one of whose codes is `code` (normalised).
pub async fn team_game_by_code(
    db: impl PgExecutor<'_>,
    code: &str,
) -> sqlx::Result<Option<CodeBoard>> {
    sqlx::query_as::<_, CodeBoard>(&format!(
        "{TEAM_GAME} where g.red_code = $1 and s.entry_type = 'team'
         union all {TEAM_GAME} where g.black_code = $1 and s.entry_type = 'team'"
    ))
    .bind(code)
    .fetch_optional(db)
    .await
}

/// Game `number` of the team match `board_id`.
pub async fn team_game(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
    number: i32,
) -> sqlx::Result<Option<CodeBoard>> {
    sqlx::query_as::<_, CodeBoard>(&format!(
        "{TEAM_GAME} where g.board_id = $1 and g.number = $2"
    ))
    .bind(board_id)
    .bind(number)
    .fetch_optional(db)
    .await
}

/// Game `number` of the team match `board_id`, its section row locked (as
/// [`board_for_update`]).
pub async fn team_game_for_update(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
    number: i32,
) -> sqlx::Result<Option<CodeBoard>> {
    sqlx::query_as::<_, CodeBoard>(&format!(
        "{TEAM_GAME} where g.board_id = $1 and g.number = $2 for update of s"
    ))
    .bind(board_id)
    .bind(number)
    .fetch_optional(db)
    .await
}

/// The report codes of a team round's games: match number, board of the match, Red's code,
/// Black's code (Red: the player with Red in that game).
pub async fn team_codes_of_round(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    round_no: i32,
) -> sqlx::Result<Vec<(i32, i32, String, String)>> {
    sqlx::query_as::<_, (i32, i32, String, String)>(
        "select b.number, g.number, g.red_code, g.black_code
           from game g join board b using (board_id) join round r using (round_id)
          where r.section_id = $1 and r.number = $2 order by b.number, g.number",
    )
    .bind(section_id)
    .bind(round_no)
    .fetch_all(db)
    .await
}

/// The board one of whose codes is `code` (already normalised: 12 or 16 upper-case hex
/// digits); the caller tells the side by comparing the codes.
pub async fn board_by_code(db: impl PgExecutor<'_>, code: &str) -> sqlx::Result<Option<CodeBoard>> {
    sqlx::query_as::<_, CodeBoard>(&format!(
        "{BOARD} where b.report_code = $1 union all {BOARD} where b.black_code = $1"
    ))
    .bind(code)
    .fetch_optional(db)
    .await
}

/// A board by id.
pub async fn board_by_id(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
) -> sqlx::Result<Option<CodeBoard>> {
    sqlx::query_as::<_, CodeBoard>(&format!("{BOARD} where b.board_id = $1"))
        .bind(board_id)
        .fetch_optional(db)
        .await
}

/// The entrant's board in the latest public round of its section (published or completed),
/// when it has one.
pub async fn current_board_of(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
) -> sqlx::Result<Option<CodeBoard>> {
    sqlx::query_as::<_, CodeBoard>(&format!(
        "{BOARD} where (b.red_entrant_id = $1 or b.black_entrant_id = $1)
           and r.round_id = (select r2.round_id from round r2 join entrant e2 using (section_id)
                             where e2.entrant_id = $1 and r2.status <> 'paired'
                             order by r2.number desc limit 1)"
    ))
    .bind(entrant_id)
    .fetch_optional(db)
    .await
}

/// A board by id, its section row locked: reports, acceptance and result entry of a section
/// run one at a time.
pub async fn board_for_update(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
) -> sqlx::Result<Option<CodeBoard>> {
    sqlx::query_as::<_, CodeBoard>(&format!("{BOARD} where b.board_id = $1 for update of s"))
        .bind(board_id)
        .fetch_optional(db)
        .await
}

/// One side's report.
#[derive(Debug, Clone, FromRow)]
pub struct ReportRow {
    /// Id.
    pub report_id: Uuid,
    /// Board.
    pub board_id: Uuid,
    /// The game of the board (a team match's board of the match; 1 otherwise).
    pub game_no: i32,
    /// The side that reported.
    pub side: Side,
    /// The result reported.
    pub result: GameResult,
    /// Red's fouls reported.
    pub red_fouls: i32,
    /// Black's fouls reported.
    pub black_fouls: i32,
    /// When.
    pub reported_at: chrono::DateTime<chrono::Utc>,
}

/// The open (unresolved) reports of a board's game (`game_no`: 1 for a board's only game),
/// Red's first.
pub async fn open_reports(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
    game_no: i32,
) -> sqlx::Result<Vec<ReportRow>> {
    sqlx::query_as::<_, ReportRow>(
        "select report_id, board_id, game_no::int as game_no, side, result, red_fouls,
                black_fouls, reported_at
         from result_report where board_id = $1 and game_no = $2 and resolved_at is null
         order by side desc",
    )
    .bind(board_id)
    .bind(game_no)
    .fetch_all(db)
    .await
}

/// Stores `side`'s report, replacing its open one.
pub async fn put_report(
    conn: &mut sqlx::PgConnection,
    (board_id, game_no): (Uuid, i32),
    side: Side,
    result: GameResult,
    red_fouls: i32,
    black_fouls: i32,
) -> sqlx::Result<()> {
    sqlx::query(
        "delete from result_report where board_id = $1 and game_no = $3 and side = $2
            and resolved_at is null",
    )
    .bind(board_id)
    .bind(side)
    .bind(game_no)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into result_report (board_id, game_no, side, result, red_fouls, black_fouls)
         values ($1, $6, $2, $3, $4, $5)",
    )
    .bind(board_id)
    .bind(side)
    .bind(result)
    .bind(red_fouls)
    .bind(black_fouls)
    .bind(game_no)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Closes a board's game's open reports as `resolution` (`accepted`, `dismissed`,
/// `superseded`); returns how many there were.
pub async fn resolve(
    db: impl PgExecutor<'_>,
    (board_id, game_no): (Uuid, i32),
    resolution: &str,
) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "update result_report set resolved_at = now(), resolution = $2
         where board_id = $1 and game_no = $3 and resolved_at is null",
    )
    .bind(board_id)
    .bind(resolution)
    .bind(game_no)
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// Every open report of a section's current rounds (boards of published rounds), by round
/// and board.
pub async fn open_reports_of_section(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<ReportRow>> {
    sqlx::query_as::<_, ReportRow>(
        "select rr.report_id, rr.board_id, rr.game_no::int as game_no, rr.side, rr.result,
                rr.red_fouls, rr.black_fouls, rr.reported_at
         from result_report rr join board b using (board_id) join round r using (round_id)
         where r.section_id = $1 and rr.resolved_at is null
         order by r.number, b.number, rr.game_no, rr.side desc",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// The boards of a section that have open reports, as [`CodeBoard`]s (a team section's:
/// the games of its matches that have them).
pub async fn boards_with_reports(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<CodeBoard>> {
    sqlx::query_as::<_, CodeBoard>(&format!(
        "select * from ({BOARD} where s.section_id = $1 and s.entry_type <> 'team'
            and exists (select 1 from result_report rr
            where rr.board_id = b.board_id and rr.resolved_at is null)
         union all {TEAM_GAME} where s.section_id = $1 and s.entry_type = 'team'
            and exists (select 1 from result_report rr
            where rr.board_id = b.board_id and rr.game_no = g.number and rr.resolved_at is null)) x
         order by round_no, board_no, game_no"
    ))
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// The report codes of a round's boards (Red's, Black's), by board number.
pub async fn codes_of_round(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    round_no: i32,
) -> sqlx::Result<Vec<(i32, String, String)>> {
    sqlx::query_as::<_, (i32, String, String)>(
        "select b.number, b.report_code, b.black_code from board b join round r using (round_id)
         where r.section_id = $1 and r.number = $2 order by b.number",
    )
    .bind(section_id)
    .bind(round_no)
    .fetch_all(db)
    .await
}

/// Whether a game has a record.
pub async fn has_record(db: impl PgExecutor<'_>, game_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar::<_, bool>("select exists (select 1 from game_record where game_id = $1)")
        .bind(game_id)
        .fetch_one(db)
        .await
}

/// Reports not yet resolved, in every tournament (a gauge of `/metrics`).
pub async fn pending_count(db: impl PgExecutor<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar::<_, i64>("select count(*) from result_report where resolved_at is null")
        .fetch_one(db)
        .await
}

/// How many games a board has (a team match's boards).
pub async fn game_count(db: impl PgExecutor<'_>, board_id: Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar::<_, i64>("select count(*) from game where board_id = $1")
        .bind(board_id)
        .fetch_one(db)
        .await
}
