//! Team sections (issue #41): a section's team settings, captains, line-ups and the games of
//! team matches (one `game` row per board of a match, with its two players).

use crate::vocab::GameResult;
use sqlx::PgExecutor;
use uuid::Uuid;

/// A section's team settings (columns of `section`).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TeamSettingsRow {
    /// Boards per match (null until set: the service's default).
    pub team_boards: Option<i16>,
    /// Reserves per roster.
    pub team_reserves: i16,
    /// The team tie-break chain after match points.
    pub team_tiebreaks: Vec<String>,
    /// Board points of a pairing-allocated bye, in tenths (null: every board won).
    pub team_bye_game_points: Option<i32>,
}

/// Reads a section's team settings.
pub async fn settings(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Option<TeamSettingsRow>> {
    sqlx::query_as::<_, TeamSettingsRow>(
        "select team_boards, team_reserves, team_tiebreaks, team_bye_game_points
           from section where section_id = $1",
    )
    .bind(section_id)
    .fetch_optional(db)
    .await
}

/// Writes a section's team settings.
pub async fn put_settings(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
    s: &TeamSettingsRow,
) -> sqlx::Result<()> {
    sqlx::query(
        "update section set team_boards = $2, team_reserves = $3, team_tiebreaks = $4,
                team_bye_game_points = $5 where section_id = $1",
    )
    .bind(section_id)
    .bind(s.team_boards)
    .bind(s.team_reserves)
    .bind(&s.team_tiebreaks)
    .bind(s.team_bye_game_points)
    .execute(db)
    .await?;
    Ok(())
}

/// A team's captain.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct CaptainRow {
    /// Entrant (the team).
    pub entrant_id: Uuid,
    /// A captain who is not on the roster, by name.
    pub captain_name: Option<String>,
    /// A captain on the roster, by position.
    pub captain_position: Option<i16>,
}

/// The captains of a section's teams.
pub async fn captains(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<CaptainRow>> {
    sqlx::query_as::<_, CaptainRow>(
        "select entrant_id, captain_name, captain_position from entrant where section_id = $1",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Sets a team's captain.
pub async fn set_captain(db: impl PgExecutor<'_>, c: &CaptainRow) -> sqlx::Result<()> {
    sqlx::query(
        "update entrant set captain_name = $2, captain_position = $3 where entrant_id = $1",
    )
    .bind(c.entrant_id)
    .bind(&c.captain_name)
    .bind(c.captain_position)
    .execute(db)
    .await?;
    Ok(())
}

/// Sets a team's name, club and rating.
pub async fn set_details(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
    name: &str,
    club: Option<&str>,
    rating: Option<i32>,
) -> sqlx::Result<()> {
    sqlx::query("update entrant set name = $2, club = $3, rating = $4 where entrant_id = $1")
        .bind(entrant_id)
        .bind(name)
        .bind(club)
        .bind(rating)
        .execute(db)
        .await?;
    Ok(())
}

/// Removes a team's roster (its players stay in the tournament).
pub async fn clear_roster(db: impl PgExecutor<'_>, entrant_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("delete from entrant_member where entrant_id = $1")
        .bind(entrant_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Players of the tournament by id (which of `ids` are its players).
pub async fn players_of_tournament(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
    ids: &[Uuid],
) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar::<_, Uuid>(
        "select player_id from player where tournament_id = $1 and player_id = any($2)",
    )
    .bind(tournament_id)
    .bind(ids)
    .fetch_all(db)
    .await
}

/// One board of a stored line-up.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LineupRow {
    /// Team.
    pub entrant_id: Uuid,
    /// Round number.
    pub round: i32,
    /// Board of the match.
    pub board: i16,
    /// Player.
    pub player_id: Uuid,
    /// `desk`, `captain` or `default`.
    pub entered_by: String,
}

/// Every line-up of a section.
pub async fn lineups(db: impl PgExecutor<'_>, section_id: Uuid) -> sqlx::Result<Vec<LineupRow>> {
    sqlx::query_as::<_, LineupRow>(
        "select l.entrant_id, l.round, l.board, l.player_id, l.entered_by
           from team_lineup l join entrant e using (entrant_id)
          where e.section_id = $1 order by l.round, l.entrant_id, l.board",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// Replaces a team's line-up of a round.
pub async fn put_lineup(
    conn: &mut sqlx::PgConnection,
    entrant_id: Uuid,
    round: i32,
    players: &[Uuid],
    entered_by: &str,
) -> sqlx::Result<()> {
    sqlx::query("delete from team_lineup where entrant_id = $1 and round = $2")
        .bind(entrant_id)
        .bind(round)
        .execute(&mut *conn)
        .await?;
    let boards: Vec<i16> = (1..=players.len() as i16).collect();
    sqlx::query(
        "insert into team_lineup (entrant_id, round, board, player_id, entered_by)
         select $1, $2, b, p, $5 from unnest($3::smallint[], $4::uuid[]) as x(b, p)",
    )
    .bind(entrant_id)
    .bind(round)
    .bind(&boards)
    .bind(players)
    .bind(entered_by)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// One game of a team match.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TeamGameRow {
    /// Game id.
    pub game_id: Uuid,
    /// The match (board).
    pub board_id: Uuid,
    /// Round number.
    pub round: i32,
    /// Board of the match (1 = top board).
    pub number: i32,
    /// The team playing Red on this board.
    pub red_entrant_id: Uuid,
    /// The team playing Black on this board.
    pub black_entrant_id: Uuid,
    /// Red's player (none: the board is empty, forfeited).
    pub red_player_id: Option<Uuid>,
    /// Black's player.
    pub black_player_id: Option<Uuid>,
    /// Result after the foul rule.
    pub result: Option<GameResult>,
    /// Result as entered.
    pub reported_result: Option<GameResult>,
    /// Version (compare-and-set).
    pub version: i32,
    /// Red's fouls.
    pub red_fouls: i64,
    /// Black's fouls.
    pub black_fouls: i64,
}

const TEAM_GAMES: &str = "select g.game_id, g.board_id, r.number as round, g.number,
        g.red_entrant_id, g.black_entrant_id, g.red_player_id, g.black_player_id,
        g.result, g.reported_result, g.version,
        (select count(*) from foul f where f.game_id = g.game_id and f.side = 'red') as red_fouls,
        (select count(*) from foul f where f.game_id = g.game_id and f.side = 'black') as black_fouls
   from game g join board b using (board_id) join round r using (round_id)";

/// Every game of a team section, by round, match and board.
pub async fn games_of_section(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<TeamGameRow>> {
    sqlx::query_as::<_, TeamGameRow>(&format!(
        "{TEAM_GAMES} where r.section_id = $1 order by r.number, b.number, g.number"
    ))
    .bind(section_id)
    .fetch_all(db)
    .await
}

/// The games of one match.
pub async fn games_of_match(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
) -> sqlx::Result<Vec<TeamGameRow>> {
    sqlx::query_as::<_, TeamGameRow>(&format!(
        "{TEAM_GAMES} where g.board_id = $1 order by g.number"
    ))
    .bind(board_id)
    .fetch_all(db)
    .await
}

/// A game of a team match to insert.
pub struct NewTeamGame {
    /// The match.
    pub board_id: Uuid,
    /// Board of the match.
    pub number: i32,
    /// Team with Red.
    pub red_entrant_id: Uuid,
    /// Team with Black.
    pub black_entrant_id: Uuid,
    /// Red's player.
    pub red_player_id: Option<Uuid>,
    /// Black's player.
    pub black_player_id: Option<Uuid>,
    /// A result known at once (an empty board is forfeited).
    pub result: Option<GameResult>,
}

/// Replaces the games of the matches `boards` (a round's pairing or a new line-up).
pub async fn replace_games(
    conn: &mut sqlx::PgConnection,
    boards: &[Uuid],
    games: &[NewTeamGame],
) -> sqlx::Result<()> {
    sqlx::query("delete from game where board_id = any($1)")
        .bind(boards)
        .execute(&mut *conn)
        .await?;
    let col = |f: fn(&NewTeamGame) -> Option<Uuid>| games.iter().map(f).collect::<Vec<_>>();
    let board_ids: Vec<Uuid> = games.iter().map(|g| g.board_id).collect();
    let numbers: Vec<i32> = games.iter().map(|g| g.number).collect();
    let reds: Vec<Uuid> = games.iter().map(|g| g.red_entrant_id).collect();
    let blacks: Vec<Uuid> = games.iter().map(|g| g.black_entrant_id).collect();
    let results: Vec<Option<String>> = games
        .iter()
        .map(|g| g.result.map(|r| r.as_str().to_string()))
        .collect();
    sqlx::query(
        "insert into game (board_id, number, red_entrant_id, black_entrant_id, red_player_id,
                           black_player_id, result, reported_result)
         select b, n, re, be, rp, bp, res, res
           from unnest($1::uuid[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[],
                       $7::text[]) as x(b, n, re, be, rp, bp, res)",
    )
    .bind(&board_ids)
    .bind(&numbers)
    .bind(&reds)
    .bind(&blacks)
    .bind(col(|g| g.red_player_id))
    .bind(col(|g| g.black_player_id))
    .bind(&results)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A game of a team match and what a result needs, read as [`super::round::board_context`]
/// reads a board's.
pub async fn game_context(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
    number: i32,
) -> sqlx::Result<Option<super::round::BoardContext>> {
    sqlx::query_as::<_, super::round::BoardContext>(
        "select b.board_id, r.round_id, r.number as round, r.status as round_status, s.section_id,
                s.tournament_id, g.game_id, g.result, g.reported_result, g.version,
                s.foul_threshold, s.rounds as section_rounds, s.entry_type = 'team' as team,
                g.number as team_game
           from board b join round r using (round_id) join section s using (section_id)
                join game g on g.board_id = b.board_id and g.number = $2
          where b.board_id = $1",
    )
    .bind(board_id)
    .bind(number)
    .fetch_optional(db)
    .await
}

/// The players of a team who have sat at a board of a match.
pub async fn players_who_played(
    db: impl PgExecutor<'_>,
    entrant_id: Uuid,
) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar::<_, Uuid>(
        "select distinct p from (
            select red_player_id as p from game where red_entrant_id = $1
            union all select black_player_id from game where black_entrant_id = $1) x
          where p is not null",
    )
    .bind(entrant_id)
    .fetch_all(db)
    .await
}

/// Whether a team is on a board of some round.
pub async fn has_boards(db: impl PgExecutor<'_>, entrant_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar::<_, bool>(
        "select exists (select 1 from board where red_entrant_id = $1 or black_entrant_id = $1)",
    )
    .bind(entrant_id)
    .fetch_one(db)
    .await
}

/// The matches (boards) of a round: board, red team, black team (none: a bye).
pub async fn matches_of_round(
    db: impl PgExecutor<'_>,
    round_id: Uuid,
) -> sqlx::Result<Vec<(Uuid, Uuid, Option<Uuid>)>> {
    sqlx::query_as::<_, (Uuid, Uuid, Option<Uuid>)>(
        "select board_id, red_entrant_id, black_entrant_id from board where round_id = $1
          order by number",
    )
    .bind(round_id)
    .fetch_all(db)
    .await
}

/// A round's number.
pub async fn round_number(db: impl PgExecutor<'_>, round_id: Uuid) -> sqlx::Result<i32> {
    sqlx::query_scalar::<_, i32>("select number from round where round_id = $1")
        .bind(round_id)
        .fetch_one(db)
        .await
}

/// A board's section and round number.
pub async fn board_place(
    db: impl PgExecutor<'_>,
    board_id: Uuid,
) -> sqlx::Result<Option<(Uuid, i32)>> {
    sqlx::query_as::<_, (Uuid, i32)>(
        "select r.section_id, r.number from board b join round r using (round_id)
          where b.board_id = $1",
    )
    .bind(board_id)
    .fetch_optional(db)
    .await
}

/// The team with Red on board 1 of a match.
pub async fn board_red(db: impl PgExecutor<'_>, board_id: Uuid) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar::<_, Uuid>("select red_entrant_id from board where board_id = $1")
        .bind(board_id)
        .fetch_optional(db)
        .await
}

/// Games of a round with a result entered (an empty seat's forfeit, written with the
/// pairing at version 0, is not one).
pub async fn results_entered(db: impl PgExecutor<'_>, round_id: Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar::<_, i64>(
        "select count(*) from game g join board b using (board_id)
          where b.round_id = $1 and g.result is not null and g.version > 0",
    )
    .bind(round_id)
    .fetch_one(db)
    .await
}
