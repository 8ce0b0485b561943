//! Knockout brackets (and playoffs), their matches and games.

use crate::vocab::{
    BracketKind, FirstGameColour, GameKind, GameResult, LaterOddColours, MatchScoring,
};
use sqlx::PgExecutor;
use uuid::Uuid;

/// A bracket row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BracketRow {
    /// Id.
    pub bracket_id: Uuid,
    /// Tournament.
    pub tournament_id: Uuid,
    /// Section (None for a playoff between sections).
    pub section_id: Option<Uuid>,
    /// Knockout or playoff.
    pub kind: BracketKind,
    /// Entrants.
    pub size: i32,
    /// Games per match.
    pub best_of: i32,
    /// 3rd-place match.
    pub third_place: bool,
    /// Who has Red in game 1.
    pub game1_colour: FirstGameColour,
    /// What decides the match.
    pub decide_by: MatchScoring,
    /// Who has Red in the odd games after the first.
    pub later_odd_games: LaterOddColours,
    /// Fouls in one game that lose it.
    pub foul_threshold: i32,
}

/// A match row.
#[derive(Debug, Clone)]
pub struct MatchRow {
    /// Id.
    pub match_id: Uuid,
    /// Bracket.
    pub bracket_id: Uuid,
    /// Round (1 = first).
    pub round: i32,
    /// Slot from the top (1-based).
    pub slot: i32,
    /// The 3rd-place match.
    pub third_place: bool,
    /// Higher seed.
    pub high_entrant_id: Option<Uuid>,
    /// Its seed.
    pub high_seed: Option<i32>,
    /// Lower seed.
    pub low_entrant_id: Option<Uuid>,
    /// Its seed.
    pub low_seed: Option<i32>,
    /// Winner.
    pub winner_entrant_id: Option<Uuid>,
    /// Red of the next game, once drawn.
    pub next_red_entrant_id: Option<Uuid>,
    /// Winner of the lot that ends an exhausted tiebreak chain.
    pub lot_winner_entrant_id: Option<Uuid>,
}

/// A game of a match.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MatchGameRow {
    /// Id.
    pub game_id: Uuid,
    /// Match.
    pub match_id: Uuid,
    /// Number within the match.
    pub number: i32,
    /// Regular, rapid or armageddon.
    pub kind: GameKind,
    /// Red.
    pub red_entrant_id: Uuid,
    /// Black.
    pub black_entrant_id: Uuid,
    /// Result after the foul rule.
    pub result: Option<GameResult>,
    /// Result as entered.
    pub reported_result: Option<GameResult>,
    /// Red's fouls.
    pub red_fouls: i64,
    /// Black's fouls.
    pub black_fouls: i64,
}

/// Inserts a bracket.
pub async fn insert_bracket(db: impl PgExecutor<'_>, b: &BracketRow) -> sqlx::Result<Uuid> {
    sqlx::query_scalar!(
        "insert into knockout_bracket (tournament_id, section_id, kind, size, best_of, third_place, game1_colour,
                                       decide_by, later_odd_games, foul_threshold)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning bracket_id",
        b.tournament_id,
        b.section_id,
        b.kind.as_str(),
        b.size,
        b.best_of,
        b.third_place,
        b.game1_colour.as_str(),
        b.decide_by.as_str(),
        b.later_odd_games.as_str(),
        b.foul_threshold
    )
    .fetch_one(db)
    .await
}

/// The knockout bracket of a section.
pub async fn bracket_of_section(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Option<BracketRow>> {
    sqlx::query_as::<_, BracketRow>(
        "select bracket_id, tournament_id, section_id, kind, size, best_of, third_place, game1_colour, decide_by,
                later_odd_games, foul_threshold
         from knockout_bracket where section_id = $1 and kind = 'knockout'",
    )
    .bind(section_id)
    .fetch_optional(db)
    .await
}

/// The playoff of a tournament.
pub async fn playoff_of_tournament(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
) -> sqlx::Result<Option<BracketRow>> {
    sqlx::query_as::<_, BracketRow>(
        "select bracket_id, tournament_id, section_id, kind, size, best_of, third_place, game1_colour, decide_by,
                later_odd_games, foul_threshold
         from knockout_bracket where tournament_id = $1 and kind = 'playoff'",
    )
    .bind(tournament_id)
    .fetch_optional(db)
    .await
}

/// A bracket by id, locked for the rest of the transaction.
pub async fn bracket_for_update(
    db: impl PgExecutor<'_>,
    bracket_id: Uuid,
) -> sqlx::Result<Option<BracketRow>> {
    sqlx::query_as::<_, BracketRow>(
        "select bracket_id, tournament_id, section_id, kind, size, best_of, third_place, game1_colour, decide_by,
                later_odd_games, foul_threshold
         from knockout_bracket where bracket_id = $1 for update",
    )
    .bind(bracket_id)
    .fetch_optional(db)
    .await
}

/// Inserts a match.
pub async fn insert_match(
    db: impl PgExecutor<'_>,
    m: &MatchRow,
    sections: (Option<Uuid>, Option<Uuid>),
) -> sqlx::Result<Uuid> {
    sqlx::query_scalar!(
        "insert into knockout_match (bracket_id, round, slot, third_place, high_entrant_id, high_seed, low_entrant_id,
                                     low_seed, high_section_id, low_section_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning match_id",
        m.bracket_id,
        m.round,
        m.slot,
        m.third_place,
        m.high_entrant_id,
        m.high_seed,
        m.low_entrant_id,
        m.low_seed,
        sections.0,
        sections.1
    )
    .fetch_one(db)
    .await
}

/// The matches of a bracket, by round and slot (the 3rd-place match after the final).
pub async fn matches(db: impl PgExecutor<'_>, bracket_id: Uuid) -> sqlx::Result<Vec<MatchRow>> {
    sqlx::query_as!(
        MatchRow,
        "select match_id, bracket_id, round, slot, third_place, high_entrant_id, high_seed, low_entrant_id, low_seed,
                winner_entrant_id, next_red_entrant_id, lot_winner_entrant_id
         from knockout_match where bracket_id = $1 order by round, third_place, slot",
        bracket_id
    )
    .fetch_all(db)
    .await
}

/// One match.
pub async fn find_match(db: impl PgExecutor<'_>, match_id: Uuid) -> sqlx::Result<Option<MatchRow>> {
    sqlx::query_as!(
        MatchRow,
        "select match_id, bracket_id, round, slot, third_place, high_entrant_id, high_seed, low_entrant_id, low_seed,
                winner_entrant_id, next_red_entrant_id, lot_winner_entrant_id
         from knockout_match where match_id = $1",
        match_id
    )
    .fetch_optional(db)
    .await
}

/// Sets who plays a match (as the bracket advances).
pub async fn set_players(db: impl PgExecutor<'_>, m: &MatchRow) -> sqlx::Result<()> {
    sqlx::query!(
        "update knockout_match set high_entrant_id = $2, high_seed = $3, low_entrant_id = $4, low_seed = $5
         where match_id = $1",
        m.match_id,
        m.high_entrant_id,
        m.high_seed,
        m.low_entrant_id,
        m.low_seed
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Sets the winner, the next game's Red and the lot of a match.
pub async fn set_progress(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    winner: Option<Uuid>,
    next_red: Option<Uuid>,
    lot_winner: Option<Uuid>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update knockout_match set winner_entrant_id = $2, next_red_entrant_id = $3, lot_winner_entrant_id = $4
         where match_id = $1",
        match_id,
        winner,
        next_red,
        lot_winner
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The games of every match of a bracket, in order.
pub async fn games(db: impl PgExecutor<'_>, bracket_id: Uuid) -> sqlx::Result<Vec<MatchGameRow>> {
    sqlx::query_as::<_, MatchGameRow>(
        "select g.game_id, g.match_id, g.number, g.kind, g.red_entrant_id, g.black_entrant_id, g.result,
                g.reported_result,
                (select count(*) from foul f where f.game_id = g.game_id and f.side = 'red') as red_fouls,
                (select count(*) from foul f where f.game_id = g.game_id and f.side = 'black') as black_fouls
         from game g join knockout_match m using (match_id)
         where m.bracket_id = $1 order by g.match_id, g.number",
    )
    .bind(bracket_id)
    .fetch_all(db)
    .await
}

/// Inserts a played game of a match.
pub async fn insert_game(
    db: impl PgExecutor<'_>,
    match_id: Uuid,
    number: i32,
    kind: GameKind,
    red: Uuid,
    black: Uuid,
    results: (GameResult, GameResult),
) -> sqlx::Result<Uuid> {
    sqlx::query_scalar!(
        "insert into game (match_id, number, kind, red_entrant_id, black_entrant_id, reported_result, result)
         values ($1, $2, $3, $4, $5, $6, $7) returning game_id",
        match_id,
        number,
        kind.as_str(),
        red,
        black,
        results.0.as_str(),
        results.1.as_str()
    )
    .fetch_one(db)
    .await
}
