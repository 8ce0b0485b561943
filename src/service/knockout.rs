//! The knockout stage (SPEC §7): a snake-seeded bracket from the final Swiss standings,
//! best-of-N matches with the rapid → armageddon chain, the final ranking, and the playoff
//! between section champions. The core's `knockout` module decides everything; this module
//! stores games and winners and replays them.

use super::access::{self, Change, Need};
use super::check::Check;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::knockout::{BracketRow, MatchGameRow, MatchRow};
use crate::i18n::messages as m;
use crate::vocab::{
    BracketKind, EntrantStatus, FirstGameColour, Game, GameKind, GameResult, KnockoutSetupMode,
    LaterOddColours, MatchDecision, MatchScoring, RoundStatus, SetupMode, Side,
};
use arbiter_core::knockout::{
    self, Bracket, BracketSlot, DecideBy, GameOutcome, GamePhase, LaterOddGames, Match, MatchGame,
    MatchRules, MatchState, NextColours, OpenColours, TiebreakKind,
};
use arbiter_core::model::ResultCode;
use rand_chacha::rand_core::RngCore as _;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use std::collections::HashMap;
use utoipa::ToSchema;
use uuid::Uuid;

/// Settings of a knockout stage (or playoff).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct KnockoutInput {
    /// Entrants (a power of two, 2–64; default 8).
    pub size: Option<i64>,
    /// Games per match (default 3).
    pub best_of: Option<i64>,
    /// Play a 3rd-place match (default true).
    pub third_place: Option<bool>,
    /// Game 1 colours: `lot` (default) or `higher_seed` (Red).
    pub game1_colour: Option<String>,
    /// Game 3 (odd games after the first): `lot` (default) or `alternate`.
    pub game3_colour: Option<String>,
    /// Match score by `points` (default) or `wins`.
    pub decide_by: Option<String>,
    /// Hidden-piece set-ups (Jieqi, Banqi): `per_game` (each game its own) or `duplicate`
    /// (one per knockout round and game number, the same on every match of the round).
    /// Default: `duplicate` when the section's Swiss rounds use duplicate set-ups.
    #[serde(default)]
    pub setup_mode: Option<String>,
}

/// A player of a match.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchSide {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Seed in the bracket.
    pub seed: i32,
    /// Name.
    pub name: String,
}

/// A game of a match.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchGameView {
    /// Number within the match.
    pub number: i32,
    /// `regular`, `rapid` or `armageddon`.
    pub kind: GameKind,
    /// Red.
    pub red: Uuid,
    /// Black.
    pub black: Uuid,
    /// Result that counts.
    pub result: Option<GameResult>,
    /// Result as entered.
    pub reported_result: Option<GameResult>,
    /// Red's fouls.
    pub red_fouls: i64,
    /// Black's fouls.
    pub black_fouls: i64,
    /// The game's hidden-piece set-up: the commitment for everyone; the set-up and salt
    /// for arbiters, and for everyone once the match is decided (duplicate set-ups: once
    /// every match of its round is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<super::setups::SetupView>,
}

/// The next game of a match.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NextGame {
    /// `regular`, `rapid` or `armageddon`.
    pub kind: GameKind,
    /// Number within its phase.
    pub number: u32,
    /// Time control of a tiebreak game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// Its set-up: the commitment for everyone, the set-up for arbiters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<super::setups::SetupView>,
}

/// The score of a match. Pages and prints show it in one notation (issue #39, item 3): game
/// points (1 a win, ½ a draw) of the regular games, then those of the tiebreak games apart,
/// then what decided the match — `regular_*` and `tiebreak_*` here.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScoreView {
    /// Higher seed's game points (1 a win, ½ a draw, 1 a forfeit win) in the regular games.
    pub regular_high: f64,
    /// Lower seed's game points in the regular games.
    pub regular_low: f64,
    /// Higher seed's game points in the tiebreak games (rapid and armageddon; an armageddon
    /// draw is ½ here, and the match goes to Black: `decided_by`).
    pub tiebreak_high: f64,
    /// Lower seed's game points in the tiebreak games.
    pub tiebreak_low: f64,
    /// Tiebreak games played.
    pub tiebreak_games: u32,
    /// Higher seed's points in the regular games, in the match rules' scale (a win 2, a draw
    /// 1): what `decide_by: points` compares.
    pub high_points: u32,
    /// Lower seed's points, in the match rules' scale.
    pub low_points: u32,
    /// Higher seed's wins.
    pub high_wins: u32,
    /// Lower seed's wins.
    pub low_wins: u32,
}

/// A match as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchView {
    /// Id.
    pub id: Uuid,
    /// Round (1 = first knockout round).
    pub round: i32,
    /// Slot from the top.
    pub slot: i32,
    /// The higher seed (`null` until known).
    pub high: Option<MatchSide>,
    /// The lower seed (`null` until known).
    pub low: Option<MatchSide>,
    /// Games played.
    pub games: Vec<MatchGameView>,
    /// Red of the next game (`null` when none is due).
    pub next_red: Option<Uuid>,
    /// The next game, when one is due.
    pub next_game: Option<NextGame>,
    /// Score of the regular games.
    pub score: ScoreView,
    /// Winner, once decided.
    pub winner: Option<Uuid>,
    /// `regular`, `rapid`, `armageddon` or `lot`, once decided.
    pub decided_by: Option<MatchDecision>,
    /// The 3rd-place match.
    pub third_place: bool,
    /// Version for compare-and-set: the number of games recorded (send it back with the next
    /// game as `version` or `If-Match`).
    pub version: i32,
    /// Whether this match's set-ups are public (issue #40): it is decided, or with duplicate
    /// set-ups every match of its round is.
    pub setups_revealed: bool,
}

/// A bracket as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BracketView {
    /// Id.
    pub id: Uuid,
    /// `knockout` or `playoff`.
    pub kind: BracketKind,
    /// Entrants.
    pub size: i32,
    /// Games per match.
    pub best_of: i32,
    /// A 3rd-place match is played.
    pub third_place: bool,
    /// `lot` or `higher_seed`.
    pub game1_colour: FirstGameColour,
    /// `points` or `wins`.
    pub decide_by: MatchScoring,
    /// Matches by round and slot; the 3rd-place match with the final's round.
    pub matches: Vec<MatchView>,
    /// The champion, once the final is decided.
    pub champion: Option<Uuid>,
    /// How hidden-piece set-ups are drawn: `per_game` or `duplicate`.
    pub setup_mode: KnockoutSetupMode,
    /// Duplicate set-ups by round and game number (empty with `per_game`).
    pub round_setups: Vec<super::knockout_stages::RoundSetup>,
    /// The rules of each knockout round (1 = first; the 3rd-place match follows the
    /// final's): captured pieces, time control, tiebreak games.
    pub stages: Vec<super::knockout_stages::StageRules>,
}

/// A game to record.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchGameInput {
    /// `red_wins`, `draw`, `black_wins`, `black_forfeits` or `red_forfeits` (Red is the
    /// match's `next_red`).
    pub result: String,
    /// Red's fouls.
    pub red_fouls: Option<i64>,
    /// Black's fouls.
    pub black_fouls: Option<i64>,
    /// The match's version last read (its number of games recorded); a stale one is refused
    /// with 409, so two scorers cannot both record "the next game".
    pub version: Option<i32>,
}

fn rules(b: &BracketRow) -> MatchRules {
    let mut rules = MatchRules::best_of(b.best_of as u32);
    rules.decide_by = match b.decide_by {
        MatchScoring::Wins => DecideBy::Wins,
        MatchScoring::Points => DecideBy::Points,
    };
    rules.first_game = match b.game1_colour {
        FirstGameColour::HigherSeed => OpenColours::HigherSeedRed,
        FirstGameColour::Lot => OpenColours::ByLot,
    };
    rules.later_odd_games = match b.later_odd_games {
        LaterOddColours::Alternate => LaterOddGames::Alternate,
        LaterOddColours::Lot => LaterOddGames::NewLot,
    };
    rules
}

fn outcome(result: Option<GameResult>) -> GameOutcome {
    match result.and_then(GameResult::winner) {
        Some(Side::Red) => GameOutcome::RedWins,
        Some(Side::Black) => GameOutcome::BlackWins,
        // A draw, or both sides losing on fouls: neither takes the game.
        None => GameOutcome::Draw,
    }
}

/// Everything about a bracket, loaded and replayed through the core.
struct Loaded {
    bracket: BracketRow,
    matches: Vec<MatchRow>,
    games: Vec<MatchGameRow>,
    /// Seed → entrant.
    seeds: HashMap<u32, Uuid>,
    core: Bracket,
    /// The rules set per knockout round.
    stages: Vec<db::knockout_stage::StageRow>,
}

impl Loaded {
    fn seed_of(&self, id: Uuid) -> Option<u32> {
        self.seeds.iter().find(|(_, e)| **e == id).map(|(s, _)| *s)
    }

    /// The rules of a match of knockout round `round`: the bracket's, with the stage's
    /// tiebreak chain.
    fn rules_of(&self, round: i32) -> MatchRules {
        super::knockout_stages::match_rules(rules(&self.bracket), &self.stages, round)
    }

    fn core_match(&self, m: &MatchRow) -> Option<Match> {
        let (high, low) = (m.high_seed? as u32, m.low_seed? as u32);
        let mut core = Match::new(high, low, self.rules_of(m.round)).ok()?;
        for g in self.games.iter().filter(|g| g.match_id == m.match_id) {
            let game = MatchGame {
                red: self.seed_of(g.red_entrant_id)?,
                black: self.seed_of(g.black_entrant_id)?,
                outcome: outcome(g.result),
            };
            core.games.push(game);
        }
        if let Some(lot) = m.lot_winner_entrant_id {
            core.lot_winner = self.seed_of(lot);
        }
        Some(core)
    }
}

async fn load(conn: &mut PgConnection, bracket: BracketRow) -> Result<Loaded> {
    let matches = db::knockout::matches(&mut *conn, bracket.bracket_id).await?;
    let games = db::knockout::games(&mut *conn, bracket.bracket_id).await?;
    let stages = db::knockout_stage::stages(&mut *conn, bracket.bracket_id).await?;
    let mut seeds = HashMap::new();
    for m in matches.iter().filter(|m| m.round == 1 && !m.third_place) {
        if let (Some(e), Some(s)) = (m.high_entrant_id, m.high_seed) {
            seeds.insert(s as u32, e);
        }
        if let (Some(e), Some(s)) = (m.low_entrant_id, m.low_seed) {
            seeds.insert(s as u32, e);
        }
    }
    let mut core = Bracket::new((1..=bracket.size as u32).collect(), bracket.third_place)
        .map_err(|e| Error::Internal(e.to_string()))?;
    for m in &matches {
        let Some(winner) = m
            .winner_entrant_id
            .and_then(|w| seeds.iter().find(|(_, e)| **e == w).map(|(s, _)| *s))
        else {
            continue;
        };
        let recorded = if m.third_place {
            core.record_third_place(winner)
        } else {
            core.record_winner(m.round as u32, m.slot as usize - 1, winner)
        };
        recorded.map_err(|e| Error::Internal(format!("stored bracket does not replay: {e}")))?;
    }
    Ok(Loaded {
        bracket,
        matches,
        games,
        seeds,
        core,
        stages,
    })
}

fn slot_of(core: &Bracket, m: &MatchRow) -> Option<BracketSlot> {
    if m.third_place {
        core.third_place()
    } else {
        core.round(m.round as u32)
            .ok()?
            .get(m.slot as usize - 1)
            .copied()
    }
}

/// Brings every match up to date: who plays it, its winner, the next game's Red (drawn once
/// when open), the next game's set-up. Repeats until nothing changes, so a decided match
/// fills the next round at once.
async fn advance(
    conn: &mut PgConnection,
    bracket_id: Uuid,
    game: Game,
    setup_section: Uuid,
) -> Result<()> {
    let mode = db::knockout_stage::setup_mode(&mut *conn, bracket_id).await?;
    loop {
        let bracket = db::knockout::bracket_for_update(&mut *conn, bracket_id)
            .await?
            .ok_or(Error::NotFound(m::NOT_FOUND_BRACKET))?;
        let loaded = load(conn, bracket).await?;
        let mut changed = false;
        for m in &loaded.matches {
            let Some(slot) = slot_of(&loaded.core, m) else {
                continue;
            };
            let (high, low) = match (slot.top, slot.bottom) {
                (Some(a), Some(b)) => (Some(a.min(b)), Some(a.max(b))),
                (Some(a), None) | (None, Some(a)) => (Some(a), None),
                (None, None) => (None, None),
            };
            let high_id = high.and_then(|s| loaded.seeds.get(&s).copied());
            let low_id = low.and_then(|s| loaded.seeds.get(&s).copied());
            if m.high_entrant_id != high_id || m.low_entrant_id != low_id {
                let mut updated = m.clone();
                updated.high_entrant_id = high_id;
                updated.high_seed = high.map(|s| s as i32);
                updated.low_entrant_id = low_id;
                updated.low_seed = low.map(|s| s as i32);
                db::knockout::set_players(&mut *conn, &updated).await?;
                changed = true;
                continue;
            }
            if m.winner_entrant_id.is_some() {
                continue;
            }
            // A bye in round 1: the present entrant advances at once.
            if let (Some(h), None) = (high_id, low_id) {
                if slot.winner.is_some() {
                    db::knockout::set_progress(&mut *conn, m.match_id, Some(h), None, None).await?;
                    changed = true;
                }
                continue;
            }
            let Some(core) = loaded.core_match(m) else {
                continue;
            };
            match core.state() {
                MatchState::Decided { winner, .. } => {
                    let winner = loaded.seeds.get(&winner).copied();
                    db::knockout::set_progress(
                        &mut *conn,
                        m.match_id,
                        winner,
                        None,
                        m.lot_winner_entrant_id,
                    )
                    .await?;
                    changed = true;
                }
                MatchState::NeedsLot => {
                    let lot = if coin() {
                        m.high_entrant_id
                    } else {
                        m.low_entrant_id
                    };
                    db::knockout::set_progress(&mut *conn, m.match_id, None, None, lot).await?;
                    changed = true;
                }
                MatchState::NextGame { colours, .. } => {
                    let red = match colours {
                        NextColours::Fixed { red, .. } => loaded.seeds.get(&red).copied(),
                        // Drawn once and stored, so everyone sees the same Red.
                        NextColours::Lot | NextColours::ChosenBy(_) => {
                            match m.next_red_entrant_id {
                                Some(r)
                                    if Some(r) == m.high_entrant_id
                                        || Some(r) == m.low_entrant_id =>
                                {
                                    Some(r)
                                }
                                _ => {
                                    if coin() {
                                        m.high_entrant_id
                                    } else {
                                        m.low_entrant_id
                                    }
                                }
                            }
                        }
                    };
                    if red != m.next_red_entrant_id {
                        db::knockout::set_progress(
                            &mut *conn,
                            m.match_id,
                            None,
                            red,
                            m.lot_winner_entrant_id,
                        )
                        .await?;
                        changed = true;
                    }
                    let number = loaded
                        .games
                        .iter()
                        .filter(|g| g.match_id == m.match_id)
                        .count() as i32
                        + 1;
                    super::knockout_stages::draw_for_next_game(
                        &mut *conn,
                        (setup_section, game),
                        &loaded.bracket,
                        mode,
                        m,
                        number,
                    )
                    .await?;
                }
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

async fn view(conn: &mut PgConnection, bracket: BracketRow, arbiter: bool) -> Result<BracketView> {
    let loaded = load(conn, bracket).await?;
    let names: HashMap<Uuid, String> = sqlx::query!(
        "select entrant_id, name from entrant where entrant_id = any($1)",
        &loaded.seeds.values().copied().collect::<Vec<_>>()
    )
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(|r| (r.entrant_id, r.name))
    .collect();
    let setups =
        super::knockout_stages::BracketSetups::load(&mut *conn, loaded.bracket.bracket_id).await?;
    let side = |id: Option<Uuid>, seed: Option<i32>| {
        Some(MatchSide {
            entrant_id: id?,
            seed: seed?,
            name: names.get(&id?).cloned().unwrap_or_default(),
        })
    };
    let mut matches = Vec::new();
    for m in &loaded.matches {
        let core = loaded.core_match(m);
        let score = core.as_ref().map(Match::score).unwrap_or_default();
        let state = core.as_ref().map(Match::state);
        let played = loaded
            .games
            .iter()
            .filter(|g| g.match_id == m.match_id)
            .count() as i32;
        let revealed = super::knockout_stages::revealed(setups.mode, &loaded.matches, m);
        let next_game = match &state {
            Some(MatchState::NextGame { phase, .. }) if m.winner_entrant_id.is_none() => {
                let pending = setups.of_next(m, played + 1);
                Some(match phase {
                    GamePhase::Regular { number } => NextGame {
                        kind: GameKind::Regular,
                        number: *number,
                        time_control: None,
                        setup: pending.map(|s| super::setups::view(s, None, arbiter)),
                    },
                    GamePhase::Tiebreak {
                        kind,
                        number,
                        time_control,
                        ..
                    } => NextGame {
                        kind: if *kind == TiebreakKind::Armageddon {
                            GameKind::Armageddon
                        } else {
                            GameKind::Rapid
                        },
                        number: *number,
                        time_control: Some(time_control.clone()),
                        setup: pending.map(|s| super::setups::view(s, None, arbiter)),
                    },
                })
            }
            _ => None,
        };
        let decided_by = match &state {
            Some(MatchState::Decided { by, .. }) => Some(match by {
                knockout::DecidedBy::Regular => MatchDecision::Regular,
                knockout::DecidedBy::Tiebreak(stage) => {
                    match loaded
                        .rules_of(m.round)
                        .tiebreaks
                        .get(*stage)
                        .map(|s| s.kind)
                    {
                        Some(TiebreakKind::Armageddon) => MatchDecision::Armageddon,
                        _ => MatchDecision::Rapid,
                    }
                }
                knockout::DecidedBy::Lot => MatchDecision::Lot,
            }),
            _ => None,
        };
        let version = loaded
            .games
            .iter()
            .filter(|g| g.match_id == m.match_id)
            .count() as i32;
        let split = split_score(
            loaded
                .games
                .iter()
                .filter(|g| g.match_id == m.match_id)
                .map(|g| (g.kind, g.red_entrant_id, g.result)),
            m.high_entrant_id,
        );
        matches.push(MatchView {
            version,
            id: m.match_id,
            round: m.round,
            slot: m.slot,
            high: side(m.high_entrant_id, m.high_seed),
            low: side(m.low_entrant_id, m.low_seed),
            games: loaded
                .games
                .iter()
                .filter(|g| g.match_id == m.match_id)
                .map(|g| MatchGameView {
                    number: g.number,
                    kind: g.kind,
                    red: g.red_entrant_id,
                    black: g.black_entrant_id,
                    result: g.result,
                    reported_result: g.reported_result,
                    red_fouls: g.red_fouls,
                    black_fouls: g.black_fouls,
                    setup: setups
                        .of_game(m, g)
                        .map(|s| super::setups::view(s, None, revealed || arbiter)),
                })
                .collect(),
            next_red: m.next_red_entrant_id.filter(|_| next_game.is_some()),
            next_game,
            score: ScoreView {
                regular_high: split.0[0],
                regular_low: split.0[1],
                tiebreak_high: split.1[0],
                tiebreak_low: split.1[1],
                tiebreak_games: split.2,
                high_points: score.higher_points,
                low_points: score.lower_points,
                high_wins: score.higher_wins,
                low_wins: score.lower_wins,
            },
            winner: m.winner_entrant_id,
            decided_by: decided_by
                .filter(|_| m.winner_entrant_id.is_some() && m.low_entrant_id.is_some()),
            third_place: m.third_place,
            setups_revealed: revealed,
        });
    }
    let champion = loaded
        .core
        .champion()
        .and_then(|s| loaded.seeds.get(&s).copied());
    Ok(BracketView {
        id: loaded.bracket.bracket_id,
        kind: loaded.bracket.kind,
        size: loaded.bracket.size,
        best_of: loaded.bracket.best_of,
        third_place: loaded.bracket.third_place,
        game1_colour: loaded.bracket.game1_colour,
        decide_by: loaded.bracket.decide_by,
        matches,
        champion,
        setup_mode: setups.mode,
        round_setups: super::knockout_stages::round_setups(&setups, &loaded.matches, arbiter),
        stages: super::knockout_stages::all_rules(conn, &loaded.bracket).await?,
    })
}

fn settings(
    input: &KnockoutInput,
    default_size: i64,
    check: &mut Check,
) -> (
    i32,
    i32,
    bool,
    FirstGameColour,
    LaterOddColours,
    MatchScoring,
) {
    let size = input.size.unwrap_or(default_size);
    if !(2..=64).contains(&size) || (size & (size - 1)) != 0 {
        check.error("size", m::CHECK_MUST_POWER_TWO_FROM.msg());
    }
    let best_of = check.range("best_of", input.best_of.unwrap_or(3), 1, 9);
    let game1 = check.word(
        "game1_colour",
        input.game1_colour.as_deref().unwrap_or("lot"),
        FirstGameColour::ALL,
        FirstGameColour::Lot,
    );
    let game3 = check.word(
        "game3_colour",
        input.game3_colour.as_deref().unwrap_or("lot"),
        LaterOddColours::ALL,
        LaterOddColours::Lot,
    );
    let decide = check.word(
        "decide_by",
        input.decide_by.as_deref().unwrap_or("points"),
        MatchScoring::ALL,
        MatchScoring::Points,
    );
    (
        size as i32,
        best_of,
        input.third_place.unwrap_or(true),
        game1,
        game3,
        decide,
    )
}

/// Creates the matches of a new bracket for entrants in seed order.
async fn create_matches(
    conn: &mut PgConnection,
    bracket_id: Uuid,
    size: u32,
    third_place: bool,
    seeds: &[(Uuid, Uuid)],
) -> Result<()> {
    let core = Bracket::new((1..=seeds.len() as u32).collect(), third_place).map_err(|e| {
        Error::invalid(
            "size",
            match e {
                arbiter_core::knockout::KnockoutError::BadBracketSize(n) => {
                    m::CHECK_BRACKET_SIZE.with(&[&n])
                }
                arbiter_core::knockout::KnockoutError::DuplicateEntrant(seed) => {
                    m::STATE_BRACKET_SEEDED_TWICE.with(&[&seed])
                }
                // `Bracket::new` raises no other error; the detail goes to the log.
                other => {
                    tracing::warn!(error = %other, "the core refuses the bracket");
                    m::STATE_NO_BRACKET.msg()
                }
            },
        )
    })?;
    let _ = size;
    for round in 1..=core.rounds() {
        for slot in core
            .round(round)
            .map_err(|e| Error::Internal(e.to_string()))?
        {
            let (high, low) = match (slot.top, slot.bottom) {
                (Some(a), Some(b)) => (Some(a.min(b)), Some(a.max(b))),
                (Some(a), None) | (None, Some(a)) => (Some(a), None),
                (None, None) => (None, None),
            };
            let entrant = |s: Option<u32>| s.and_then(|s| seeds.get(s as usize - 1));
            let row = MatchRow {
                match_id: Uuid::nil(),
                bracket_id,
                round: round as i32,
                slot: slot.index as i32 + 1,
                third_place: false,
                high_entrant_id: entrant(high).map(|e| e.0),
                high_seed: high.map(|s| s as i32),
                low_entrant_id: entrant(low).map(|e| e.0),
                low_seed: low.map(|s| s as i32),
                winner_entrant_id: None,
                next_red_entrant_id: None,
                lot_winner_entrant_id: None,
            };
            db::knockout::insert_match(
                &mut *conn,
                &row,
                (entrant(high).map(|e| e.1), entrant(low).map(|e| e.1)),
            )
            .await?;
        }
    }
    if core.third_place_match {
        let row = MatchRow {
            match_id: Uuid::nil(),
            bracket_id,
            round: core.rounds() as i32,
            slot: 1,
            third_place: true,
            high_entrant_id: None,
            high_seed: None,
            low_entrant_id: None,
            low_seed: None,
            winner_entrant_id: None,
            next_red_entrant_id: None,
            lot_winner_entrant_id: None,
        };
        db::knockout::insert_match(&mut *conn, &row, (None, None)).await?;
    }
    Ok(())
}

/// Seeds the top entrants of a section's final Swiss standings into a snake-seeded bracket
/// (409 before the Swiss stage is complete).
pub async fn create(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    input: &KnockoutInput,
) -> Result<BracketView> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    // Stages that overlap (issue #40): an AXF section seeds its knockout from the standings
    // after round r, with the number of qualifiers it was set up with.
    let stage = db::stage::get(&mut *tx, section_id)
        .await?
        .filter(|s| s.stage_format == crate::vocab::StageFormat::KnockoutAfterRound);
    let mut check = Check::new();
    let default_size = stage
        .as_ref()
        .and_then(|s| s.stage_qualifiers)
        .map_or(8, i64::from);
    let (size, best_of, third_place, game1, game3, decide) =
        settings(input, default_size, &mut check);
    if stage.is_some() && i64::from(size) != default_size {
        check.error("size", m::CHECK_STAGE_QUALIFIERS.with(&[&default_size]));
    }
    let asked_mode = input.setup_mode.as_deref().map(|w| {
        check.word(
            "setup_mode",
            w,
            KnockoutSetupMode::ALL,
            KnockoutSetupMode::PerGame,
        )
    });
    check.finish()?;
    let setup_mode = asked_mode.unwrap_or(if section.setup_mode == SetupMode::Duplicate {
        KnockoutSetupMode::Duplicate
    } else {
        KnockoutSetupMode::PerGame
    });
    let tournament = db::tournament::find(&mut *tx, section.tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    if db::knockout::bracket_of_section(&mut *tx, section_id)
        .await?
        .is_some()
    {
        return Err(Error::conflict(m::STATE_SECTION_ALREADY_HAS_KNOCKOUT.msg()));
    }
    let rounds = db::round::list(&mut *tx, section_id).await?;
    let seed_after = stage
        .as_ref()
        .and_then(|s| s.stage_after_round)
        .unwrap_or(section.rounds);
    if stage.is_some() && rounds.len() as i32 > seed_after {
        return Err(Error::conflict(
            m::STATE_STAGE_SEED_AFTER_ROUND.with(&[&seed_after, &rounds.len()]),
        ));
    }
    let complete = rounds.len() as i32 == seed_after
        && rounds
            .last()
            .is_some_and(|r| r.status == RoundStatus::Completed);
    if !complete {
        return Err(Error::conflict(
            m::STATE_SWISS_STAGE_NOT_COMPLETE.with(&[
                &rounds.len(),
                &section.rounds,
                &if rounds
                    .last()
                    .is_some_and(|r| r.status != RoundStatus::Completed)
                {
                    ", the last without every result"
                } else {
                    ""
                },
            ]),
        ));
    }
    let decided = super::ties::standings(&mut tx, section.clone()).await?;
    let active: Vec<&super::ties::Placed> = decided
        .order
        .iter()
        .filter(|p| {
            decided
                .state
                .entrant(p.entrant_id)
                .is_some_and(|e| e.status == EntrantStatus::Active)
        })
        .collect();
    let qualified: Vec<(Uuid, Uuid)> = active
        .iter()
        .take(size as usize)
        .map(|p| (p.entrant_id, section_id))
        .collect();
    // The cut-off between the last qualifier and the first one out must not split a tie.
    if let (Some(last), Some(next)) = (active.get(size as usize - 1), active.get(size as usize)) {
        if last.rank == next.rank {
            let tied: Vec<Uuid> = active
                .iter()
                .filter(|p| p.rank == last.rank)
                .map(|p| p.entrant_id)
                .collect();
            return Err(decided.refuse(m::TIE_KNOCKOUT_CUT_OFF.msg(), &tied));
        }
    }
    if qualified.len() < size as usize {
        return Err(Error::invalid(
            "size",
            m::STATE_ONLY_ACTIVE_CAN_QUALIFY.with(&[&qualified.len()]),
        ));
    }
    let bracket = BracketRow {
        bracket_id: Uuid::nil(),
        tournament_id: section.tournament_id,
        section_id: Some(section_id),
        kind: BracketKind::Knockout,
        size,
        best_of,
        third_place,
        game1_colour: game1,
        decide_by: decide,
        later_odd_games: game3,
        foul_threshold: section.foul_threshold,
    };
    let bracket_id = db::knockout::insert_bracket(&mut *tx, &bracket).await?;
    db::knockout_stage::set_setup_mode(&mut *tx, bracket_id, setup_mode).await?;
    create_matches(&mut tx, bracket_id, size as u32, third_place, &qualified).await?;
    let game = if section.setup_mode == SetupMode::None {
        Game::Xiangqi
    } else {
        tournament.game
    };
    advance(&mut tx, bracket_id, game, section_id).await?;
    let bracket = db::knockout::bracket_for_update(&mut *tx, bracket_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BRACKET))?;
    let out = view(&mut tx, bracket, true).await?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "create",
            entity: "knockout",
            entity_id: Some(bracket_id),
            before: None,
            after: Some(
                json!({"size": size, "setup_mode": setup_mode, "seeds": qualified.iter().map(|q| q.0).collect::<Vec<_>>()}),
            ),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(out)
}

/// A section's knockout bracket (public); set-ups of games not yet played only to arbiters.
pub async fn get(pool: &PgPool, actor: Option<&Actor>, section_id: Uuid) -> Result<BracketView> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let bracket = db::knockout::bracket_of_section(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_KNOCKOUT_STAGE))?;
    let arbiter = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    view(&mut conn, bracket, arbiter).await
}

/// Whether the tournament has a playoff between section champions (one query: the event page
/// links the playoff only then, without loading its matches).
pub async fn has_playoff(pool: &PgPool, tournament_id: Uuid) -> Result<bool> {
    Ok(db::knockout::playoff_of_tournament(pool, tournament_id)
        .await?
        .is_some())
}

/// The tournament's playoff between section champions.
pub async fn get_playoff(
    pool: &PgPool,
    actor: Option<&Actor>,
    tournament_id: Uuid,
) -> Result<BracketView> {
    let mut conn = pool.acquire().await?;
    let bracket = db::knockout::playoff_of_tournament(&mut *conn, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_PLAYOFF))?;
    let arbiter = access::can_see_private(&mut conn, actor, tournament_id).await?;
    view(&mut conn, bracket, arbiter).await
}

/// Records the next game of a match (Red is the match's `next_red`); closes the match when
/// decided, opens tiebreak games when tied, advances the winner.
pub async fn record_game(
    pool: &PgPool,
    actor: &Actor,
    match_id: Uuid,
    input: &MatchGameInput,
    expected_version: Option<i32>,
) -> Result<MatchView> {
    let mut check = Check::new();
    let reported = check.word(
        "result",
        &input.result,
        GameResult::MATCH_GAME,
        GameResult::Draw,
    );
    let red_fouls = input.red_fouls.unwrap_or(0);
    let black_fouls = input.black_fouls.unwrap_or(0);
    check.range("red_fouls", red_fouls, 0, 99);
    check.range("black_fouls", black_fouls, 0, 99);
    check.finish()?;
    let mut tx = pool.begin().await?;
    let m = db::knockout::find_match(&mut *tx, match_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_MATCH))?;
    let bracket = db::knockout::bracket_for_update(&mut *tx, m.bracket_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BRACKET))?;
    access::require(&mut tx, actor, bracket.tournament_id, Need::Scorer).await?;
    let m = db::knockout::find_match(&mut *tx, match_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_MATCH))?;
    let (Some(high), Some(low)) = (m.high_entrant_id, m.low_entrant_id) else {
        return Err(Error::conflict(m::STATE_PLAYERS_MATCH_ARE_NOT.msg()));
    };
    if m.winner_entrant_id.is_some() {
        return Err(Error::conflict(m::STATE_MATCH_DECIDED.msg()));
    }
    let red = m
        .next_red_entrant_id
        .ok_or_else(|| Error::conflict(m::STATE_NO_GAME_DUE_MATCH.msg()))?;
    let black = if red == high { low } else { high };
    let loaded = load(&mut tx, bracket.clone()).await?;
    let core = loaded
        .core_match(&m)
        .ok_or_else(|| Error::Internal("match does not replay".into()))?;
    let kind = match core.state() {
        MatchState::NextGame {
            phase: GamePhase::Regular { .. },
            ..
        } => GameKind::Regular,
        MatchState::NextGame {
            phase:
                GamePhase::Tiebreak {
                    kind: TiebreakKind::Armageddon,
                    ..
                },
            ..
        } => GameKind::Armageddon,
        MatchState::NextGame { .. } => GameKind::Rapid,
        _ => return Err(Error::conflict(m::STATE_NO_GAME_DUE_MATCH.msg())),
    };
    let (result, foul_note) = super::rounds::apply_foul_rule(
        reported,
        red_fouls,
        black_fouls,
        i64::from(bracket.foul_threshold),
    );
    // Read after the bracket's row lock: the games another writer committed meanwhile count.
    let recorded = loaded
        .games
        .iter()
        .filter(|g| g.match_id == match_id)
        .count() as i32;
    if let Some(expected) = expected_version.or(input.version) {
        if expected != recorded {
            return Err(Error::conflict(
                m::STALE_MATCH.with(&[&recorded, &expected]),
            ));
        }
    }
    let number = recorded + 1;
    let game_id = db::knockout::insert_game(
        &mut *tx,
        match_id,
        number,
        kind,
        red,
        black,
        (reported, result),
    )
    .await?;
    db::round::replace_fouls(&mut tx, game_id, red_fouls as i32, black_fouls as i32).await?;
    db::setup::attach_to_game(&mut *tx, match_id, game_id).await?;
    let setup_section = match bracket.section_id {
        Some(s) => s,
        None => {
            sqlx::query_scalar!("select section_id from entrant where entrant_id = $1", high)
                .fetch_one(&mut *tx)
                .await?
        }
    };
    let tournament = db::tournament::find(&mut *tx, bracket.tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    let setup_mode = db::section::find(&mut *tx, setup_section)
        .await?
        .map_or(SetupMode::None, |s| s.setup_mode);
    let game = if setup_mode == SetupMode::None {
        Game::Xiangqi
    } else {
        tournament.game
    };
    advance(&mut tx, bracket.bracket_id, game, setup_section).await?;
    let bracket_now = db::knockout::bracket_for_update(&mut *tx, bracket.bracket_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BRACKET))?;
    let out = view(&mut tx, bracket_now, true).await?;
    let this = out
        .matches
        .into_iter()
        .find(|v| v.id == match_id)
        .ok_or(Error::NotFound(m::NOT_FOUND_MATCH))?;
    access::audit(
        &mut tx,
        bracket.tournament_id,
        Some(actor),
        Change {
            action: "match_game",
            entity: "match",
            entity_id: Some(match_id),
            before: None,
            after: Some(json!({"game": number, "kind": kind, "red": red, "result": result, "reported_result": reported,
                "foul_rule": foul_note, "winner": this.winner})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(this)
}

/// A playoff between section champions.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayoffInput {
    /// The sections whose champions meet, best first (seed order).
    pub sections: Vec<Uuid>,
    /// Games per match (default 1).
    pub best_of: Option<i64>,
    /// Game 1 colours: `lot` (default) or `higher_seed`.
    pub game1_colour: Option<String>,
    /// Match score by `points` (default) or `wins`.
    pub decide_by: Option<String>,
}

/// Creates the grand final between the champions of the given sections (the knockout winner
/// where a section has one, else the Swiss winner).
pub async fn create_playoff(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    input: &PlayoffInput,
) -> Result<BracketView> {
    access::require_first(pool, actor, tournament_id, Need::Arbiter).await?;
    let mut check = Check::new();
    let size = input.sections.len() as i64;
    let settings_input = KnockoutInput {
        size: Some((size.clamp(2, 64) as u64).next_power_of_two() as i64),
        best_of: Some(input.best_of.unwrap_or(1)),
        third_place: Some(false),
        game1_colour: input.game1_colour.clone(),
        game3_colour: None,
        decide_by: input.decide_by.clone(),
        setup_mode: None,
    };
    if !(2..=64).contains(&size) {
        check.error("sections", m::CHECK_NAME_2_64_SECTIONS.msg());
    }
    let (_, best_of, _, game1, game3, decide) = settings(&settings_input, 2, &mut check);
    check.finish()?;
    let mut tx = pool.begin().await?;
    let tournament = db::tournament::find(&mut *tx, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    access::require(&mut tx, actor, tournament_id, Need::Arbiter).await?;
    if db::knockout::playoff_of_tournament(&mut *tx, tournament_id)
        .await?
        .is_some()
    {
        return Err(Error::conflict(
            m::STATE_TOURNAMENT_ALREADY_HAS_PLAYOFF.msg(),
        ));
    }
    let mut champions = Vec::new();
    let mut foul_threshold = 2;
    for (i, sid) in input.sections.iter().enumerate() {
        let section = match db::section::find_for_update(&mut tx, *sid).await? {
            Some(s) if s.tournament_id == tournament_id => s,
            _ => {
                return Err(Error::invalid(
                    &format!("sections[{i}]"),
                    m::FORM_NOT_SECTION_TOURNAMENT.msg(),
                ))
            }
        };
        foul_threshold = section.foul_threshold;
        let champion = champion_of(&mut tx, &section).await?;
        champions.push((champion, section.section_id));
    }
    let unique: std::collections::HashSet<_> = input.sections.iter().collect();
    if unique.len() != input.sections.len() {
        return Err(Error::invalid(
            "sections",
            m::FORM_NAME_EACH_SECTION_ONCE.msg(),
        ));
    }
    let bracket = BracketRow {
        bracket_id: Uuid::nil(),
        tournament_id,
        section_id: None,
        kind: BracketKind::Playoff,
        size: champions.len().next_power_of_two() as i32,
        best_of,
        third_place: false,
        game1_colour: game1,
        decide_by: decide,
        later_odd_games: game3,
        foul_threshold,
    };
    let bracket_id = db::knockout::insert_bracket(&mut *tx, &bracket).await?;
    create_matches(&mut tx, bracket_id, bracket.size as u32, false, &champions).await?;
    let first = input.sections[0];
    let setup_mode = db::section::find(&mut *tx, first)
        .await?
        .map_or(SetupMode::None, |s| s.setup_mode);
    let game = if setup_mode == SetupMode::None {
        Game::Xiangqi
    } else {
        tournament.game
    };
    advance(&mut tx, bracket_id, game, first).await?;
    let row = db::knockout::bracket_for_update(&mut *tx, bracket_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BRACKET))?;
    let out = view(&mut tx, row, true).await?;
    access::audit(
        &mut tx,
        tournament_id,
        Some(actor),
        Change {
            action: "create",
            entity: "playoff",
            entity_id: Some(bracket_id),
            before: None,
            after: Some(json!({"champions": champions.iter().map(|c| c.0).collect::<Vec<_>>()})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(out)
}

/// A section's champion: the knockout winner, or the Swiss winner when there is no knockout.
async fn champion_of(conn: &mut PgConnection, section: &db::section::SectionRow) -> Result<Uuid> {
    if let Some(bracket) = db::knockout::bracket_of_section(&mut *conn, section.section_id).await? {
        let loaded = load(conn, bracket).await?;
        return loaded
            .core
            .champion()
            .and_then(|s| loaded.seeds.get(&s).copied())
            .ok_or_else(|| {
                Error::conflict(
                    m::STATE_KNOCKOUT_SECTION_NOT_FINISHED.with(&[&format!("{:?}", section.name)]),
                )
            });
    }
    let ranking = final_ranking_in(conn, section).await?;
    if !ranking.is_final {
        return Err(Error::conflict(
            m::STATE_SECTION_NOT_FINISHED.with(&[&format!("{:?}", section.name)]),
        ));
    }
    let tied: Vec<&RankingRow> = ranking.rows.iter().filter(|r| r.rank == 1).collect();
    if tied.len() > 1 {
        return Err(super::ties::tied_error(
            m::TIE_CHAMPION_OF_SECTION.with(&[&format!("{:?}", section.name)]),
            &tied.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
        ));
    }
    ranking.rows.first().map(|r| r.entrant_id).ok_or_else(|| {
        Error::conflict(m::STATE_SECTION_HAS_NO_ENTRANTS.with(&[&format!("{:?}", section.name)]))
    })
}

/// One place of the final ranking.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RankingRow {
    /// Place (1-based), one per entrant.
    pub place: u32,
    /// The place as the standings give it: shared by entrants the tiebreak chain leaves tied
    /// (and the arbiter has not ordered), else equal to `place`.
    pub rank: u32,
    /// Entrant.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: u32,
    /// Name.
    pub name: String,
    /// `knockout` for places decided in the bracket, `final` for the two of a last-round
    /// final (issue #40), `swiss` for the rest.
    pub source: String,
}

/// The final ranking of a section.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Ranking {
    /// Every stage is finished.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// Places 1–N.
    pub rows: Vec<RankingRow>,
}

async fn final_ranking_in(
    conn: &mut PgConnection,
    section: &db::section::SectionRow,
) -> Result<Ranking> {
    let decided = super::ties::standings(conn, section.clone()).await?;
    let (state, table) = (&decided.state, &decided.table);
    let swiss_done = state.rounds.len() as i32 == section.rounds && !table.provisional;
    let swiss: Vec<(Uuid, u32, String, u32)> = decided
        .order
        .iter()
        .filter_map(|p| {
            let r = &table.rows[p.index];
            state
                .entrant_by_no(r.start_no)
                .map(|e| (e.entrant_id, r.start_no, e.name.clone(), p.rank))
        })
        .collect();
    let mut is_final = swiss_done;
    // Places decided by a stage above the Swiss: the knockout's ranking, or (WXF) the last
    // round's final (issue #40); then the Swiss order goes on, entrants tied there sharing the
    // place of the first of them (`arbiter_core::stages::places`).
    let mut decided_ids: Vec<Uuid> = Vec::new();
    let mut source = "knockout";
    if let Some(bracket) = db::knockout::bracket_of_section(&mut *conn, section.section_id).await? {
        let loaded = load(conn, bracket).await?;
        match loaded
            .core
            .final_ranking(&(1..=loaded.bracket.size as u32).collect::<Vec<_>>())
        {
            Ok(order) => decided_ids.extend(
                order
                    .iter()
                    .filter_map(|seed| loaded.seeds.get(seed).copied())
                    .filter(|id| swiss.iter().any(|s| s.0 == *id)),
            ),
            Err(_) => is_final = false,
        }
    } else if let Some(f) = state
        .rounds
        .iter()
        .find(|r| r.number == section.rounds)
        .and_then(|r| super::stages::final_of(&r.pairing_report))
    {
        // The final as paired on its board (an arbiter's hand edit may have undone it).
        if let Some(board) = state.boards.iter().find(|b| {
            b.round == section.rounds
                && b.red_entrant_id == f.red
                && b.black_entrant_id == Some(f.black)
        }) {
            let red_code = super::state::result_codes(board.result).0;
            let winner = arbiter_core::stages::final_winner(f.red, f.black, red_code);
            let ranked: Vec<(Uuid, u32)> = swiss.iter().map(|s| (s.0, s.3)).collect();
            decided_ids = arbiter_core::stages::finalists_order((f.red, f.black), winner, &ranked);
            source = "final";
        }
    }
    let ranked: Vec<(Uuid, u32)> = swiss.iter().map(|s| (s.0, s.3)).collect();
    let rows = arbiter_core::stages::places(&decided_ids, &ranked)
        .into_iter()
        .filter_map(|p| {
            let (_, no, name, _) = swiss.iter().find(|s| s.0 == p.id)?;
            Some(RankingRow {
                place: p.place,
                rank: p.rank,
                entrant_id: p.id,
                start_no: *no,
                name: name.clone(),
                source: if p.decided { source } else { "swiss" }.into(),
            })
        })
        .collect();
    Ok(Ranking { is_final, rows })
}

/// The final ranking 1–N of a section: the knockout's places, then the Swiss order.
pub async fn final_ranking(pool: &PgPool, section_id: Uuid) -> Result<Ranking> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    final_ranking_in(&mut conn, &section).await
}

/// The grand final's places: for each place (1-based) the entrants holding it, once every
/// match is decided (`None` before, or without a playoff). Places no match decides (the
/// semi-final losers without a 3rd-place match, each earlier round's losers) are shared by
/// the entrants of that round; seeds without an entrant (byes) hold none.
pub(crate) async fn playoff_places(
    conn: &mut PgConnection,
    tournament_id: Uuid,
) -> Result<Option<Vec<Vec<Uuid>>>> {
    let Some(bracket) = db::knockout::playoff_of_tournament(&mut *conn, tournament_id).await?
    else {
        return Ok(None);
    };
    let loaded = load(conn, bracket).await?;
    let size = loaded.bracket.size.max(1) as usize;
    let Ok(order) = loaded
        .core
        .final_ranking(&(1..=size as u32).collect::<Vec<_>>())
    else {
        return Ok(None);
    };
    let third_place = loaded.core.third_place().is_some();
    // Blocks of the full ranking (byes included): 1, 2, then 3–4 (or 3 and 4 after a
    // 3rd-place match), 5–8, 9–16…
    let mut places: Vec<Vec<Uuid>> = vec![Vec::new(); size];
    let mut start = 0;
    while start < order.len() {
        let end = match start {
            0 | 1 => start + 1,
            2 | 3 if third_place => start + 1,
            _ => (start * 2).min(order.len()),
        };
        let holders: Vec<Uuid> = order[start..end]
            .iter()
            .filter_map(|seed| loaded.seeds.get(seed).copied())
            .collect();
        // Byes leave the block's first places to its entrants.
        let count = holders.len();
        for place in places.iter_mut().skip(start).take(count) {
            place.clone_from(&holders);
        }
        start = end;
    }
    while places.last().is_some_and(Vec::is_empty) {
        places.pop();
    }
    Ok(Some(places))
}

/// A fair coin from the operating system's CSPRNG (drawing of lots for colours).
fn coin() -> bool {
    rand_core::OsRng.next_u32() & 1 == 0
}

/// Game points (1 a win or forfeit win, ½ a draw) of the higher and lower seed in a match's
/// regular games and, apart, in its tiebreak games; and the tiebreak games played. `games`
/// gives each game's kind, Red and result.
fn split_score(
    games: impl Iterator<Item = (GameKind, Uuid, Option<GameResult>)>,
    high: Option<Uuid>,
) -> ([f64; 2], [f64; 2], u32) {
    let mut regular = [0.0; 2];
    let mut tiebreak = [0.0; 2];
    let mut tiebreak_games = 0;
    for (kind, red, result) in games {
        let (red_code, black_code) = super::state::result_codes(result);
        let points = |code: ResultCode| match code {
            ResultCode::Win | ResultCode::ForfeitWin => 1.0,
            ResultCode::Draw => 0.5,
            _ => 0.0,
        };
        let (r, b) = (points(red_code), points(black_code));
        let (h, l) = if Some(red) == high { (r, b) } else { (b, r) };
        let into = if kind == GameKind::Regular {
            &mut regular
        } else {
            tiebreak_games += u32::from(result.is_some());
            &mut tiebreak
        };
        into[0] += h;
        into[1] += l;
    }
    (regular, tiebreak, tiebreak_games)
}

#[cfg(test)]
mod score_tests {
    use super::split_score;
    use crate::vocab::{GameKind, GameResult};
    use uuid::Uuid;

    #[test]
    fn regular_and_tiebreak_game_points_are_counted_apart_from_the_higher_seeds_side() {
        let (high, low) = (Uuid::from_u128(1), Uuid::from_u128(2));
        // Seed 000's final: 1, ½, … as the higher seed sees it, then a rapid game the lower
        // seed wins as Red.
        let games = [
            (GameKind::Regular, high, Some(GameResult::RedWins)),
            (GameKind::Regular, low, Some(GameResult::Draw)),
            (GameKind::Regular, high, Some(GameResult::BlackWins)),
            (GameKind::Rapid, low, Some(GameResult::RedWins)),
            (GameKind::Armageddon, high, None),
        ];
        let (regular, tiebreak, played) = split_score(games.into_iter(), Some(high));
        assert_eq!(regular, [1.5, 1.5]);
        assert_eq!(tiebreak, [0.0, 1.0]);
        assert_eq!(played, 1);
    }
}
