//! Game records (issue #18): one row per game, and the game's context (tournament, round,
//! players, set-up) that entering, showing and exporting a record need.

use crate::vocab::{Game, GameResult, RecordNotation, RoundStatus};
use sqlx::PgExecutor;
use uuid::Uuid;

/// A game with what its record needs around it: a Swiss board's game or a knockout game.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GameContext {
    /// The game.
    pub game_id: Uuid,
    /// Tournament.
    pub tournament_id: Uuid,
    /// Tournament name (PGN `Event`).
    pub tournament_name: String,
    /// The tournament's game.
    pub game: Game,
    /// Venue (PGN `Site`).
    pub venue: Option<String>,
    /// First day (PGN `Date`).
    pub starts_on: Option<chrono::NaiveDate>,
    /// The event's default language tag.
    pub default_language: String,
    /// Section of the board (Swiss), or of the bracket (knockout; none for a playoff).
    pub section_id: Option<Uuid>,
    /// Section name.
    pub section_name: Option<String>,
    /// Swiss: the round.
    pub round_id: Option<Uuid>,
    /// Swiss: round number; knockout: the bracket round.
    pub round: i32,
    /// Swiss: `paired`, `published` or `completed`; knockout: none.
    pub round_status: Option<RoundStatus>,
    /// Swiss: board number; knockout: the match slot.
    pub board: i32,
    /// Swiss: the board.
    pub board_id: Option<Uuid>,
    /// Knockout: the match.
    pub match_id: Option<Uuid>,
    /// Number of the game within its match (1 on a Swiss board).
    pub game_number: i32,
    /// Red's name.
    pub red_name: String,
    /// Black's name.
    pub black_name: String,
    /// Result that counts, once entered.
    pub result: Option<GameResult>,
    /// Knockout (issue #40): whether the game's set-up is public — its match is decided
    /// (a set-up per game), or every match of its round is (duplicate set-ups).
    pub ko_setup_public: Option<bool>,
}

const CONTEXT: &str = "
    select g.game_id, t.tournament_id, t.name as tournament_name, t.game, t.venue, t.starts_on,
           t.default_language,
           coalesce(r.section_id, kb.section_id) as section_id, s.name as section_name,
           r.round_id, coalesce(r.number, km.round) as round, r.status as round_status,
           coalesce(b.number, km.slot) as board, b.board_id, g.match_id, g.number as game_number,
           red.name as red_name, black.name as black_name, g.result,
           case when g.match_id is null then null
                when kb.setup_mode = 'duplicate' then not exists (
                    select 1 from knockout_match m2
                    where m2.bracket_id = km.bracket_id and m2.round = km.round
                      and m2.winner_entrant_id is null)
                else km.winner_entrant_id is not null end as ko_setup_public
    from game g
         left join board b on b.board_id = g.board_id
         left join round r on r.round_id = b.round_id
         left join knockout_match km on km.match_id = g.match_id
         left join knockout_bracket kb on kb.bracket_id = km.bracket_id
         left join section s on s.section_id = coalesce(r.section_id, kb.section_id)
         join tournament t on t.tournament_id = coalesce(s.tournament_id, kb.tournament_id)
         join entrant red on red.entrant_id = g.red_entrant_id
         join entrant black on black.entrant_id = g.black_entrant_id";

/// The game of a Swiss board (`None` for an unknown board or a bye).
pub async fn context_of_board(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
) -> sqlx::Result<Option<GameContext>> {
    sqlx::query_as::<_, GameContext>(&format!("{CONTEXT} where g.board_id = $1"))
        .bind(board_id)
        .fetch_optional(db)
        .await
}

/// The game of board `board` of round `round` of a section.
pub async fn context_of_board_number(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    round: i32,
    board: i32,
) -> sqlx::Result<Option<GameContext>> {
    sqlx::query_as::<_, GameContext>(&format!(
        "{CONTEXT} where r.section_id = $1 and r.number = $2 and b.number = $3"
    ))
    .bind(section_id)
    .bind(round)
    .bind(board)
    .fetch_optional(db)
    .await
}

/// Game `number` of a knockout match.
pub async fn context_of_match_game(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    number: i32,
) -> sqlx::Result<Option<GameContext>> {
    sqlx::query_as::<_, GameContext>(&format!(
        "{CONTEXT} where g.match_id = $1 and g.number = $2"
    ))
    .bind(match_id)
    .bind(number)
    .fetch_optional(db)
    .await
}

/// The games of a round, by board.
pub async fn contexts_of_round(
    db: impl PgExecutor<'_>,
    round_id: Uuid,
) -> sqlx::Result<Vec<GameContext>> {
    sqlx::query_as::<_, GameContext>(&format!(
        "{CONTEXT} where b.round_id = $1 order by b.number"
    ))
    .bind(round_id)
    .fetch_all(db)
    .await
}

/// The tournament of a knockout match (for the access check before anything else).
pub async fn tournament_of_match(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar::<_, Uuid>(
        "select kb.tournament_id from knockout_match km join knockout_bracket kb using (bracket_id)
         where km.match_id = $1",
    )
    .bind(match_id)
    .fetch_optional(db)
    .await
}

/// The tournament of a board.
pub async fn tournament_of_board(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar::<_, Uuid>(
        "select s.tournament_id from board b join round r using (round_id) join section s using (section_id)
         where b.board_id = $1",
    )
    .bind(board_id)
    .fetch_optional(db)
    .await
}

/// The canonical text of the set-up a game was played from: its own (per-board mode, a
/// knockout game), else the round's (duplicate mode).
pub async fn setup_of_game(db: impl PgExecutor<'_>, game_id: Uuid) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar::<_, String>(
        "select s.canonical from game g
              left join board b on b.board_id = g.board_id
              left join knockout_match km on km.match_id = g.match_id
              join setup s on s.game_id = g.game_id
                           or (s.bracket_id is not null and s.bracket_id = km.bracket_id
                               and s.ko_round = km.round and s.ko_game = g.number)
                           or (s.board_id is not null and s.board_id = g.board_id)
                           or (s.board_id is null and s.game_id is null and s.match_id is null
                               and s.round_id = b.round_id)
         where g.game_id = $1
         order by (s.game_id is not null or s.board_id is not null or s.bracket_id is not null) desc
         limit 1",
    )
    .bind(game_id)
    .fetch_optional(db)
    .await
}

/// A stored record.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RecordRow {
    /// The game.
    pub game_id: Uuid,
    /// `iccs`, `chinese`, `wxf` (Xiangqi, Jieqi) or `banqi`.
    pub notation: RecordNotation,
    /// The text as entered.
    pub source: String,
    /// The moves, normalised, separated by spaces.
    pub moves: String,
    /// Number of half-moves.
    pub plies: i32,
    /// Version for compare-and-set.
    pub version: i32,
}

/// A game's record.
pub async fn find(db: impl PgExecutor<'_>, game_id: Uuid) -> sqlx::Result<Option<RecordRow>> {
    sqlx::query_as::<_, RecordRow>(
        "select game_id, notation, source, moves, plies, version from game_record where game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(db)
    .await
}

/// A game's record, locking its row (read after the lock: the state a compare-and-set
/// compares against).
pub async fn lock(db: impl PgExecutor<'_>, game_id: Uuid) -> sqlx::Result<Option<RecordRow>> {
    sqlx::query_as::<_, RecordRow>(
        "select game_id, notation, source, moves, plies, version from game_record where game_id = $1 for update",
    )
    .bind(game_id)
    .fetch_optional(db)
    .await
}

/// The records of several games.
pub async fn of_games(db: impl PgExecutor<'_>, games: &[Uuid]) -> sqlx::Result<Vec<RecordRow>> {
    sqlx::query_as::<_, RecordRow>(
        "select game_id, notation, source, moves, plies, version from game_record where game_id = any($1)",
    )
    .bind(games)
    .fetch_all(db)
    .await
}

/// Board numbers of a section's round whose game has a record.
pub async fn recorded_boards(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    round: i32,
) -> sqlx::Result<Vec<i32>> {
    sqlx::query_scalar::<_, i32>(
        "select b.number from game_record gr join game g using (game_id) join board b using (board_id)
              join round r using (round_id)
         where r.section_id = $1 and r.number = $2 order by b.number",
    )
    .bind(section_id)
    .bind(round)
    .fetch_all(db)
    .await
}

/// (round, board) of every recorded game of a section.
pub async fn recorded_of_section(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<(i32, i32)>> {
    sqlx::query_as::<_, (i32, i32)>(
        "select r.number, b.number from game_record gr join game g using (game_id)
              join board b using (board_id) join round r using (round_id)
         where r.section_id = $1",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Creates the record (when `expected` is 0) or replaces version `expected`; the new version,
/// or `None` when another writer came first.
pub async fn save(
    db: impl PgExecutor<'_>,
    game_id: Uuid,
    expected: i32,
    notation: RecordNotation,
    source: &str,
    moves: &str,
    plies: i32,
) -> sqlx::Result<Option<i32>> {
    let sql = if expected == 0 {
        "insert into game_record (game_id, notation, source, moves, plies, version)
         values ($1, $3, $4, $5, $6, 1)
         on conflict (game_id) do nothing
         returning version"
    } else {
        "update game_record set notation = $3, source = $4, moves = $5, plies = $6,
                version = version + 1
         where game_id = $1 and version = $2
         returning version"
    };
    sqlx::query_scalar::<_, i32>(sql)
        .bind(game_id)
        .bind(expected)
        .bind(notation)
        .bind(source)
        .bind(moves)
        .bind(plies)
        .fetch_optional(db)
        .await
}

/// (match, game number) of the knockout games of a section's bracket that have a record.
pub async fn recorded_match_games(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<(Uuid, i32)>> {
    sqlx::query_as::<_, (Uuid, i32)>(
        "select g.match_id, g.number
         from game g
              join game_record gr on gr.game_id = g.game_id
              join knockout_match km on km.match_id = g.match_id
              join knockout_bracket kb on kb.bracket_id = km.bracket_id
         where kb.section_id = $1",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Deletes a game's record.
pub async fn delete(db: impl PgExecutor<'_>, game_id: Uuid) -> sqlx::Result<u64> {
    Ok(sqlx::query("delete from game_record where game_id = $1")
        .bind(game_id)
        .execute(db)
        .await?
        .rows_affected())
}
