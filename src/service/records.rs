//! Game records (issue #18): a game's moves entered at the desk by its staff (arbiters and
//! scorers) in ICCS, Chinese or WXF notation (Banqi in its own turn notation), checked move by
//! move by `arbiter_core::game` (Jieqi and Banqi against the round's committed set-up), stored
//! normalised with a version for compare-and-set, shown on the public board page and exported
//! as PGN and move lists.
//!
//! Visibility follows the round's: a record of a paired, unpublished round is for the
//! tournament's staff only. Jieqi face-down pieces stay face down in every diagram until the
//! set-up is revealed (the round complete); the moves themselves show what each face-down
//! piece turned out to be when it first moved, as at the board.

use super::access::{self, Change, Need};
use super::check::Check;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
pub use crate::db::record::GameContext;
use crate::db::record::RecordRow;
use crate::i18n::messages::{self as m, Msg};
use crate::vocab::{Game, GameResult, RecordNotation, ReplayStatus, RoundStatus};
use arbiter_core::game::banqi::{Banqi, BanqiError, BanqiSquare, BanqiStatus, Cell, RevealProblem};
use arbiter_core::game::record::tokens;
use arbiter_core::game::{
    format_move, parse_move, MoveError, Notation, NotationError, Position, Revealed, Script, Side,
    Square, Status,
};
use arbiter_core::setup::{Piece, Setup};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// The longest record text accepted, in bytes.
pub const MAX_TEXT_BYTES: usize = 16 * 1024;
/// The most half-moves a record may have.
pub const MAX_PLIES: usize = 600;

/// Which game a record is addressed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKey {
    /// The game of a Swiss board.
    Board(Uuid),
    /// Game `number` of a knockout match.
    MatchGame(Uuid, i32),
}

/// A record as typed at the desk.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordInput {
    /// `iccs` (`h2e2`), `chinese` (炮二平五) or `wxf` (`C2.5`) for Xiangqi and Jieqi; `banqi`
    /// (`b2=K`, `b2-b3`, `b2xb3`) for Banqi.
    pub notation: String,
    /// The moves, separated by white space; move numbers (`1.`) and results (`1-0`) are
    /// skipped. At most 16 KiB and 600 half-moves.
    pub text: String,
    /// The version last read (alternative to `If-Match`; 0 when there was no record).
    pub version: Option<i32>,
}

/// One half-move of a record.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlyView {
    /// Half-move number, from 1.
    pub ply: usize,
    /// The text as entered (empty for a stored record).
    pub text: String,
    /// ICCS (`h2e2`, Jieqi reveal as a trailing letter: `b0c2C`); Banqi: its turn notation.
    pub iccs: String,
    /// Chinese notation (simplified characters); Banqi: its turn notation.
    pub chinese: String,
    /// WXF notation; Banqi: its turn notation.
    pub wxf: String,
    /// The position after the move: FEN (Xiangqi, Jieqi: `X`/`x` face down); Banqi: the
    /// four rows from row 1, `/`-separated, a letter per face-up piece (upper case Red), `x`
    /// face down, `.` empty.
    pub fen: String,
}

/// Where a record could not be read or played, and why.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RecordProblem {
    /// The half-move (from 1).
    pub ply: usize,
    /// Its text as entered.
    pub text: String,
    /// `unreadable`, `illegal`, `ambiguous`, `missing_reveal` or `wrong_reveal`.
    pub kind: String,
    /// What to fix, for a person (English; pages show it in their language).
    #[schema(value_type = String)]
    pub message: Msg,
    /// For `ambiguous`: the moves that fit (ICCS).
    pub candidates: Vec<String>,
}

/// The Banqi desk aid after the last half-move.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BanqiAid {
    /// Whether every piece is face up (the 25-move count runs only then).
    pub all_face_up: bool,
    /// The 25-move count in moves (回合), 0 while pieces are face down.
    pub count: u32,
    /// Consecutive chases by Red (the 7th is a foul).
    pub chase_red: u32,
    /// Consecutive chases by Black.
    pub chase_black: u32,
    /// Chase fouls as `ply:side`.
    pub fouls: Vec<String>,
}

/// A record checked move by move.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Replay {
    /// `xiangqi`, `jieqi` or `banqi`.
    pub game: Game,
    /// The notation read.
    pub notation: RecordNotation,
    /// The start position (FEN, or the Banqi rows).
    pub start_fen: String,
    /// Every half-move read and played, up to the first problem.
    pub plies: Vec<PlyView>,
    /// The first problem, if any (the moves before it are in `plies`).
    pub error: Option<RecordProblem>,
    /// The position after the last good half-move.
    pub fen: String,
    /// `ongoing`, `checkmated`, `stalemated` (the side to move has lost), Banqi: `ongoing`,
    /// `red_won`, `black_won`, `draw`.
    pub status: ReplayStatus,
    /// `red` or `black` to move (Banqi: none before the first flip).
    pub to_move: Option<crate::vocab::Side>,
    /// Banqi only: the 25-move and chase counts.
    pub banqi: Option<BanqiAid>,
}

/// A stored record as shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RecordView {
    /// The game.
    pub game_id: Uuid,
    /// The board (Swiss games).
    pub board_id: Option<Uuid>,
    /// Round (Swiss) or knockout round.
    pub round: i32,
    /// Board (Swiss) or match slot (knockout).
    pub board: i32,
    /// Game within a knockout match (1 on a Swiss board).
    pub game_number: i32,
    /// Red.
    pub red: String,
    /// Black.
    pub black: String,
    /// The result that counts, once entered.
    pub result: Option<GameResult>,
    /// The notation the record was entered in.
    pub notation: RecordNotation,
    /// The text as entered (staff only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Version for `If-Match` (0: no record yet).
    pub version: i32,
    /// Whether the Jieqi/Banqi set-up is public (face-down pieces may be shown).
    pub setup_revealed: bool,
    /// Whether the moves are kept back (`replay` empty): a Jieqi/Banqi record is public once
    /// the round's set-up is revealed (the round complete); staff see it at once.
    pub moves_withheld: bool,
    /// The moves.
    pub replay: Replay,
}

/// What a save did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RecordSaved {
    /// The game.
    pub game_id: Uuid,
    /// Half-moves stored.
    pub plies: usize,
    /// The new version.
    pub version: i32,
}

fn notation_of(notation: RecordNotation) -> Notation {
    match notation {
        RecordNotation::Chinese => Notation::Chinese,
        RecordNotation::Wxf => Notation::Wxf,
        // Banqi has its own reader; the normalised moves of the others are ICCS.
        RecordNotation::Iccs | RecordNotation::Banqi => Notation::Iccs,
    }
}

/// The notations a game's records may be typed in.
pub fn notations(game: Game) -> &'static [RecordNotation] {
    if game == Game::Banqi {
        &[RecordNotation::Banqi]
    } else {
        &[
            RecordNotation::Chinese,
            RecordNotation::Iccs,
            RecordNotation::Wxf,
        ]
    }
}

/// The notation the normalised moves of a game are stored in.
fn stored_notation(game: Game) -> RecordNotation {
    if game == Game::Banqi {
        RecordNotation::Banqi
    } else {
        RecordNotation::Iccs
    }
}

/// Checks the size limits and the notation; the notation and the move tokens.
fn check_input<'a>(
    check: &mut Check,
    game: Game,
    input: &'a RecordInput,
) -> (RecordNotation, Vec<&'a str>) {
    let allowed = notations(game);
    let notation = check.word("notation", &input.notation, allowed, allowed[0]);
    if input.text.len() > MAX_TEXT_BYTES {
        check.error("text", m::RECORD_TOO_MANY_BYTES.msg());
        return (notation, Vec::new());
    }
    if input.text.contains('\0') {
        check.error("text", m::CSV_CONTAINS_NUL_CHARACTER.msg());
        return (notation, Vec::new());
    }
    let moves = tokens(&input.text);
    if moves.len() > MAX_PLIES {
        check.error("text", m::RECORD_TOO_MANY_PLIES.msg());
    }
    (notation, moves)
}

fn problem(ply: usize, text: &str, error: &NotationError) -> RecordProblem {
    let (kind, message, candidates) = match error {
        NotationError::Unreadable(_) => (
            "unreadable",
            m::RECORD_PLY_CANNOT_READ_MOVE.with(&[&ply, &text]),
            Vec::new(),
        ),
        NotationError::Illegal(_) | NotationError::Move(MoveError::Illegal(_)) => (
            "illegal",
            m::RECORD_PLY_NOT_LEGAL_MOVE.with(&[&ply, &text]),
            Vec::new(),
        ),
        NotationError::Ambiguous { candidates, .. } => (
            "ambiguous",
            m::RECORD_PLY_FITS_MORE_THAN.with(&[&ply, &text, &candidates.join(", ")]),
            candidates.clone(),
        ),
        NotationError::Move(MoveError::MissingReveal(square)) => (
            "missing_reveal",
            m::RECORD_PLY_MOVES_FACE_DOWN.with(&[&ply, &text, &square]),
            Vec::new(),
        ),
        NotationError::Move(MoveError::WrongReveal {
            square,
            actual,
            claimed,
        }) => {
            let cannot = |why: Msg| {
                m::RECORD_PLY_CANNOT_REVEAL_PIECE
                    .with(&[&ply, &text, &claimed, &square])
                    .and(why)
            };
            let message = match actual {
                Revealed::Piece(actual) => {
                    m::RECORD_PLY_REVEALS_BUT_SET.with(&[&ply, &text, &claimed, &square, &actual])
                }
                Revealed::FaceUp => cannot(m::RECORD_REVEAL_FACE_UP.msg()),
                Revealed::AllAccountedFor => cannot(m::RECORD_REVEAL_ALL_ACCOUNTED_FOR.msg()),
                Revealed::NotAGeneral => cannot(m::RECORD_REVEAL_NOT_A_GENERAL.msg()),
            };
            ("wrong_reveal", message, Vec::new())
        }
    };
    RecordProblem {
        ply,
        text: text.to_string(),
        kind: kind.into(),
        message,
        candidates,
    }
}

fn banqi_problem(ply: usize, text: &str, error: &BanqiError) -> RecordProblem {
    let (kind, message) = match error {
        BanqiError::Unreadable(_) => (
            "unreadable",
            m::RECORD_PLY_CANNOT_READ_MOVE.with(&[&ply, &text]),
        ),
        BanqiError::Illegal(_) => ("illegal", m::RECORD_PLY_NOT_LEGAL_MOVE.with(&[&ply, &text])),
        BanqiError::Reveal { square, why } => (
            "wrong_reveal",
            m::RECORD_PLY_CANNOT_REVEAL_THAT
                .with(&[&ply, &text, &square])
                .and(match why {
                    RevealProblem::SetUpHas(letter) => m::RECORD_REVEAL_SET_UP_HAS.with(&[letter]),
                    RevealProblem::NotGiven => m::RECORD_REVEAL_NOT_GIVEN.msg(),
                    RevealProblem::NoneLeft => m::RECORD_REVEAL_NONE_LEFT.msg(),
                }),
        ),
    };
    RecordProblem {
        ply,
        text: text.to_string(),
        kind: kind.into(),
        message,
        candidates: Vec::new(),
    }
}

/// The Banqi rows (row 1 first), `x` face down, `.` empty.
pub fn banqi_rows(game: &Banqi) -> String {
    let mut rows = Vec::new();
    for row in 0..4 {
        let mut line = String::new();
        for column in 0..8 {
            let sq = BanqiSquare::new(column, row).expect("on the board");
            line.push(match game.cell(sq) {
                Cell::Empty => '.',
                Cell::FaceDown(_) => 'x',
                Cell::FaceUp(p) => p.letter(),
            });
        }
        rows.push(line);
    }
    rows.join("/")
}

fn status_name(status: Status) -> ReplayStatus {
    match status {
        Status::Ongoing => ReplayStatus::Ongoing,
        Status::Checkmated => ReplayStatus::Checkmated,
        Status::Stalemated => ReplayStatus::Stalemated,
    }
}

/// Replays a record: Xiangqi and Jieqi with `notation` (`iccs`, `chinese`, `wxf`), Banqi with
/// its own; Jieqi and Banqi from `setup` when known (reveals then checked against it, and
/// filled in when the text leaves them out). Stops at the first problem.
pub fn replay(
    game: Game,
    setup: Option<&Setup>,
    notation: RecordNotation,
    moves: &[&str],
    script: Script,
) -> Replay {
    if game == Game::Banqi {
        return replay_banqi(setup, moves);
    }
    let notation_used = notation_of(notation);
    let start = match (game, setup) {
        (Game::Jieqi, Some(Setup::Jieqi(s))) => Position::jieqi_from_setup(s),
        (Game::Jieqi, _) => Position::jieqi_start(),
        _ => Position::xiangqi_start(),
    };
    let mut pos = start.clone();
    let mut plies = Vec::new();
    let mut error = None;
    for (i, &text) in moves.iter().enumerate() {
        let ply = i + 1;
        let mv = parse_move(&pos, text, notation_used)
            .and_then(|mv| pos.check_move(mv).map_err(NotationError::Move));
        let mv = match mv {
            Ok(mv) => mv,
            Err(e) => {
                error = Some(problem(ply, text, &e));
                break;
            }
        };
        let iccs = format_move(&pos, mv, Notation::Iccs, script);
        let chinese = format_move(&pos, mv, Notation::Chinese, script);
        let wxf = format_move(&pos, mv, Notation::Wxf, script);
        pos.make(mv);
        plies.push(PlyView {
            ply,
            text: text.to_string(),
            iccs,
            chinese,
            wxf,
            fen: pos.to_fen(),
        });
    }
    Replay {
        game,
        notation,
        start_fen: start.to_fen(),
        plies,
        error,
        fen: pos.to_fen(),
        status: status_name(pos.status()),
        to_move: Some(crate::vocab::Side::of(pos.side_to_move())),
        banqi: None,
    }
}

fn replay_banqi(setup: Option<&Setup>, moves: &[&str]) -> Replay {
    let start = match setup {
        Some(Setup::Banqi(s)) => Banqi::from_setup(s),
        _ => Banqi::unknown(),
    };
    let mut game = start.clone();
    let mut plies = Vec::new();
    let mut error = None;
    for (i, &text) in moves.iter().enumerate() {
        let ply = i + 1;
        let played = game.parse_move(text).and_then(|mv| {
            let before = game.clone();
            let mv = game.play(mv)?;
            Ok(before.format_move(mv))
        });
        match played {
            Ok(normal) => plies.push(PlyView {
                ply,
                text: text.to_string(),
                iccs: normal.clone(),
                chinese: normal.clone(),
                wxf: normal,
                fen: banqi_rows(&game),
            }),
            Err(e) => {
                error = Some(banqi_problem(ply, text, &e));
                break;
            }
        }
    }
    let aid = game.desk_aid();
    let status = match aid.status {
        BanqiStatus::Ongoing => ReplayStatus::Ongoing,
        BanqiStatus::Won(Side::Red) => ReplayStatus::RedWon,
        BanqiStatus::Won(Side::Black) => ReplayStatus::BlackWon,
        BanqiStatus::Draw => ReplayStatus::Draw,
    };
    Replay {
        game: Game::Banqi,
        notation: RecordNotation::Banqi,
        start_fen: banqi_rows(&start),
        plies,
        error,
        fen: banqi_rows(&game),
        status,
        to_move: aid.to_move.map(crate::vocab::Side::of),
        banqi: Some(BanqiAid {
            all_face_up: aid.all_face_up,
            count: aid.count,
            chase_red: aid.chase[0],
            chase_black: aid.chase[1],
            fouls: aid
                .fouls
                .iter()
                .map(|(ply, side)| format!("{ply}:{}", crate::vocab::Side::of(*side)))
                .collect(),
        }),
    }
}

/// What a record needs to be checked: the game, its context, its set-up.
struct Loaded {
    ctx: GameContext,
    setup: Option<Setup>,
}

async fn context(conn: &mut PgConnection, key: GameKey) -> Result<GameContext> {
    let found = match key {
        GameKey::Board(id) => db::record::context_of_board(&mut *conn, id).await?,
        GameKey::MatchGame(id, n) => db::record::context_of_match_game(&mut *conn, id, n).await?,
    };
    found.ok_or(Error::NotFound(m::NOT_FOUND_GAME))
}

/// The tournament of a key, for the access check before anything else is read.
async fn tournament_of(conn: &mut PgConnection, key: GameKey) -> Result<Uuid> {
    let found = match key {
        GameKey::Board(id) => db::record::tournament_of_board(&mut *conn, id).await?,
        GameKey::MatchGame(id, _) => db::record::tournament_of_match(&mut *conn, id).await?,
    };
    found.ok_or(Error::NotFound(match key {
        GameKey::Board(_) => m::NOT_FOUND_BOARD,
        GameKey::MatchGame(..) => m::NOT_FOUND_MATCH,
    }))
}

async fn load(conn: &mut PgConnection, key: GameKey) -> Result<Loaded> {
    let ctx = context(conn, key).await?;
    let setup = if ctx.game == Game::Xiangqi {
        None
    } else {
        db::record::setup_of_game(&mut *conn, ctx.game_id)
            .await?
            .and_then(|canonical| Setup::parse_canonical(&canonical).ok())
    };
    Ok(Loaded { ctx, setup })
}

/// Whether `actor` is on the tournament's staff (scorers included) or an admin.
async fn is_staff(conn: &mut PgConnection, actor: Option<&Actor>, tournament: Uuid) -> bool {
    match actor {
        None => false,
        Some(actor) => access::require(conn, actor, tournament, Need::Scorer)
            .await
            .is_ok(),
    }
}

/// Whether a game's set-up is public: its round is complete (Swiss); for a knockout game its
/// match is decided, or with duplicate set-ups every match of its round (issue #40).
fn setup_public(ctx: &GameContext) -> bool {
    match ctx.round_status {
        Some(status) => status == RoundStatus::Completed,
        None => ctx.ko_setup_public.unwrap_or(true),
    }
}

/// Refuses unless `actor` is on the staff of the game's tournament (before any input is
/// read).
pub async fn require(pool: &PgPool, actor: &Actor, key: GameKey) -> Result<()> {
    let mut conn = pool.acquire().await?;
    let tournament = tournament_of(&mut conn, key).await?;
    access::require(&mut conn, actor, tournament, Need::Scorer).await
}

/// Checks a record without storing it (the desk's check as the arbiter types): the
/// tournament's staff only.
pub async fn check(
    pool: &PgPool,
    actor: &Actor,
    key: GameKey,
    input: &RecordInput,
    script: Script,
) -> Result<Replay> {
    let mut conn = pool.acquire().await?;
    let tournament = tournament_of(&mut conn, key).await?;
    access::require(&mut conn, actor, tournament, Need::Scorer).await?;
    let loaded = load(&mut conn, key).await?;
    let mut check = Check::new();
    let (notation, moves) = check_input(&mut check, loaded.ctx.game, input);
    check.finish()?;
    Ok(replay(
        loaded.ctx.game,
        loaded.setup.as_ref(),
        notation,
        &moves,
        script,
    ))
}

/// Stores a game's record (creating or replacing it) after checking every move; a record
/// with a problem is refused (422) naming the half-move. `expected`: the version last read
/// (0 when there was none); a stale one is refused with 409.
pub async fn save(
    pool: &PgPool,
    actor: &Actor,
    key: GameKey,
    input: &RecordInput,
    expected: Option<i32>,
) -> Result<RecordSaved> {
    access::require_first(pool, actor, tournament_for(pool, key).await?, Need::Scorer).await?;
    store(pool, Some(actor), key, input, expected).await
}

/// Checks and stores a record for whoever the caller let in: the desk (`actor`) or a player
/// with the board's report code (`None`, audited as the public).
pub(crate) async fn store(
    pool: &PgPool,
    actor: Option<&Actor>,
    key: GameKey,
    input: &RecordInput,
    expected: Option<i32>,
) -> Result<RecordSaved> {
    let mut tx = pool.begin().await?;
    let loaded = load(&mut tx, key).await?;
    let mut check = Check::new();
    let (notation, moves) = check_input(&mut check, loaded.ctx.game, input);
    check.finish()?;
    let replay = replay(
        loaded.ctx.game,
        loaded.setup.as_ref(),
        notation,
        &moves,
        Script::Simplified,
    );
    if let Some(problem) = &replay.error {
        let mut fields = super::FieldErrors::new();
        fields.insert("text".into(), vec![problem.message.clone()]);
        return Err(Error::Invalid {
            message: problem.message.clone(),
            fields,
        });
    }
    let game_id = loaded.ctx.game_id;
    // The game's row is the lock of its record (the first save has no record row to lock);
    // the version compared is read after it.
    db::round::lock_game(&mut *tx, game_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_GAME))?;
    let stored = db::record::lock(&mut *tx, game_id).await?;
    let current = stored.as_ref().map_or(0, |r| r.version);
    if let Some(expected) = expected.or(input.version) {
        if expected != current {
            return Err(Error::conflict(
                m::STALE_RECORD.with(&[&current, &expected]),
            ));
        }
    }
    let normal: Vec<&str> = replay.plies.iter().map(|p| p.iccs.as_str()).collect();
    let plies = replay.plies.len();
    let version = db::record::save(
        &mut *tx,
        game_id,
        current,
        notation,
        &input.text,
        &normal.join(" "),
        i32::try_from(plies).unwrap_or(i32::MAX),
    )
    .await?
    .ok_or_else(|| Error::conflict(m::STALE_RECORD.with(&[&current, &current])))?;
    access::audit(
        &mut tx,
        loaded.ctx.tournament_id,
        actor,
        Change {
            action: if stored.is_some() {
                "correct_record"
            } else {
                "record"
            },
            entity: "game",
            entity_id: Some(game_id),
            before: stored.as_ref().map(|r| {
                json!({"notation": r.notation, "moves": r.moves, "plies": r.plies, "version": r.version})
            }),
            after: Some(json!({
                "notation": input.notation, "moves": normal.join(" "), "plies": plies, "version": version,
            })),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(RecordSaved {
        game_id,
        plies,
        version,
    })
}

/// The one path of a player's record upload (with a board's report code, or a player's key):
/// audited as the public. While the game's set-up is unrevealed (Jieqi or Banqi, round not
/// complete) every upload gets one fixed answer (409), given before anything of it is read or
/// replayed, so no answer, message or timing depends on the hidden pieces; once the set-up is
/// public (the round complete) the record is taken when the game has none yet, checked move
/// by move against it. Xiangqi has nothing hidden: checked and taken while the round is
/// published or complete. The desk corrects a stored record.
pub async fn store_player_record(
    pool: &PgPool,
    board_id: Uuid,
    input: &RecordInput,
) -> Result<RecordSaved> {
    let ctx = {
        let mut conn = pool.acquire().await?;
        context(&mut conn, GameKey::Board(board_id)).await?
    };
    if ctx.game != Game::Xiangqi && !setup_public(&ctx) {
        return Err(Error::conflict(m::REPORT_RECORD_AFTER_REVEAL.msg()));
    }
    if !matches!(
        ctx.round_status,
        Some(RoundStatus::Published | RoundStatus::Completed)
    ) {
        return Err(Error::NotFound(m::NOT_FOUND_GAME));
    }
    let no_record = RecordInput {
        version: Some(0),
        ..input.clone()
    };
    store(pool, None, GameKey::Board(board_id), &no_record, None)
        .await
        .map_err(|err| match err {
            Error::Conflict(_) => Error::conflict(m::REPORT_GAME_ALREADY_HAS_RECORD.msg()),
            other => other,
        })
}

/// Deletes a game's record (a record entered on the wrong board, or by mistake): the
/// tournament's staff only, audited with what was deleted. `expected`: the version last read;
/// a stale one is refused with 409, and a game without a record is a 404.
pub async fn delete(
    pool: &PgPool,
    actor: &Actor,
    key: GameKey,
    expected: Option<i32>,
) -> Result<()> {
    access::require_first(pool, actor, tournament_for(pool, key).await?, Need::Scorer).await?;
    let mut tx = pool.begin().await?;
    let ctx = context(&mut tx, key).await?;
    db::round::lock_game(&mut *tx, ctx.game_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_GAME))?;
    let stored = db::record::lock(&mut *tx, ctx.game_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_RECORD))?;
    if let Some(expected) = expected {
        if expected != stored.version {
            return Err(Error::conflict(
                m::STALE_RECORD.with(&[&stored.version, &expected]),
            ));
        }
    }
    db::record::delete(&mut *tx, ctx.game_id).await?;
    access::audit(
        &mut tx,
        ctx.tournament_id,
        Some(actor),
        Change {
            action: "delete_record",
            entity: "game",
            entity_id: Some(ctx.game_id),
            before: Some(json!({
                "notation": stored.notation, "moves": stored.moves, "plies": stored.plies,
                "version": stored.version,
            })),
            after: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

async fn tournament_for(pool: &PgPool, key: GameKey) -> Result<Uuid> {
    let mut conn = pool.acquire().await?;
    tournament_of(&mut conn, key).await
}

/// Replays a stored record from its normalised moves (no set-up needed: the reveals are in
/// the moves).
pub fn replay_stored(game: Game, row: &RecordRow, script: Script) -> Replay {
    let moves: Vec<&str> = row.moves.split_whitespace().collect();
    let mut replay = replay(game, None, stored_notation(game), &moves, script);
    for p in &mut replay.plies {
        p.text.clear();
    }
    replay.notation = row.notation;
    replay
}

async fn visible(
    conn: &mut PgConnection,
    actor: Option<&Actor>,
    ctx: &GameContext,
) -> Result<bool> {
    let staff = is_staff(conn, actor, ctx.tournament_id).await;
    if !staff && ctx.round_status == Some(RoundStatus::Paired) {
        // A paired round is the arbiters' draft until they publish it.
        return Err(Error::NotFound(m::NOT_FOUND_ROUND));
    }
    Ok(staff)
}

/// Whether a record's moves are kept from `staff == false` viewers: a hidden-piece game's
/// moves name the pieces revealed (and the moves after a reveal show what moved), so they are
/// public only once the set-up is (in duplicate mode one game's reveals are every board's).
fn moves_withheld(ctx: &GameContext, staff: bool) -> bool {
    !staff && ctx.game != Game::Xiangqi && !setup_public(ctx)
}

fn view(ctx: &GameContext, row: Option<&RecordRow>, staff: bool, script: Script) -> RecordView {
    let withheld = moves_withheld(ctx, staff);
    let replay = match row {
        Some(row) if !withheld => replay_stored(ctx.game, row, script),
        _ => {
            let mut empty = replay(
                ctx.game,
                None,
                notations(ctx.game)[0],
                &[],
                Script::Simplified,
            );
            if let Some(row) = row {
                empty.notation = row.notation;
            }
            empty
        }
    };
    RecordView {
        game_id: ctx.game_id,
        board_id: ctx.board_id,
        round: ctx.round,
        board: ctx.board,
        game_number: ctx.game_number,
        red: ctx.red_name.clone(),
        black: ctx.black_name.clone(),
        result: ctx.result,
        notation: row.map_or(notations(ctx.game)[0], |r| r.notation),
        source: if staff {
            row.map(|r| r.source.clone())
        } else {
            None
        },
        version: row.map_or(0, |r| r.version),
        setup_revealed: setup_public(ctx),
        moves_withheld: withheld && row.is_some(),
        replay,
    }
}

/// A game's record (404 when it has none, or for the public when its round is unpublished).
pub async fn get(
    pool: &PgPool,
    actor: Option<&Actor>,
    key: GameKey,
    script: Script,
) -> Result<RecordView> {
    let mut conn = pool.acquire().await?;
    let ctx = context(&mut conn, key).await?;
    let staff = visible(&mut conn, actor, &ctx).await?;
    let row = db::record::find(&mut *conn, ctx.game_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_RECORD))?;
    Ok(view(&ctx, Some(&row), staff, script))
}

/// What the desk page needs: the game, its record if any (an empty one otherwise), and the
/// set-up (for the arbiter's own diagram). Staff only.
pub async fn desk(
    pool: &PgPool,
    actor: &Actor,
    key: GameKey,
    script: Script,
) -> Result<(GameContext, RecordView)> {
    let mut conn = pool.acquire().await?;
    let tournament = tournament_of(&mut conn, key).await?;
    access::require(&mut conn, actor, tournament, Need::Scorer).await?;
    let loaded = load(&mut conn, key).await?;
    let row = db::record::find(&mut *conn, loaded.ctx.game_id).await?;
    let mut view = view(&loaded.ctx, row.as_ref(), true, script);
    if let Some(row) = &row {
        // The desk replays the stored moves with the set-up, so the Banqi counts and the
        // Jieqi reveals are those of the real game.
        let moves: Vec<&str> = row.moves.split_whitespace().collect();
        view.replay = replay(
            loaded.ctx.game,
            loaded.setup.as_ref(),
            stored_notation(loaded.ctx.game),
            &moves,
            script,
        );
        view.replay.notation = row.notation;
    }
    Ok((loaded.ctx, view))
}

/// The public board page's game: its context and record (404 without one; the public sees
/// no unpublished round).
pub async fn board_page(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
    round: i32,
    board: i32,
    script: Script,
) -> Result<(GameContext, RecordView, Option<Setup>)> {
    let mut conn = pool.acquire().await?;
    let ctx = db::record::context_of_board_number(&mut *conn, section_id, round, board)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_GAME))?;
    public_page(&mut conn, actor, ctx, script).await
}

/// The public page of a knockout game (a section's bracket or the playoff): its context and
/// record (404 without one). Knockout games exist only once played, so their set-ups are
/// public.
pub async fn match_game_page(
    pool: &PgPool,
    actor: Option<&Actor>,
    match_id: Uuid,
    number: i32,
    script: Script,
) -> Result<(GameContext, RecordView, Option<Setup>)> {
    let mut conn = pool.acquire().await?;
    let ctx = db::record::context_of_match_game(&mut *conn, match_id, number)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_GAME))?;
    public_page(&mut conn, actor, ctx, script).await
}

async fn public_page(
    conn: &mut PgConnection,
    actor: Option<&Actor>,
    ctx: GameContext,
    script: Script,
) -> Result<(GameContext, RecordView, Option<Setup>)> {
    let staff = visible(conn, actor, &ctx).await?;
    let row = db::record::find(&mut *conn, ctx.game_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_RECORD))?;
    // The set-up is shown only once public (the staff see it on the desk page).
    let setup = if setup_public(&ctx) && ctx.game != Game::Xiangqi {
        db::record::setup_of_game(&mut *conn, ctx.game_id)
            .await?
            .and_then(|c| Setup::parse_canonical(&c).ok())
    } else {
        None
    };
    Ok((ctx.clone(), view(&ctx, Some(&row), staff, script), setup))
}

/// Board numbers of a round that have a record (for links).
pub async fn recorded_boards(pool: &PgPool, section_id: Uuid, round: i32) -> Result<Vec<i32>> {
    Ok(db::record::recorded_boards(pool, section_id, round).await?)
}

/// (match, game number) of a section's knockout games with a record (for links).
pub async fn recorded_match_games(pool: &PgPool, section_id: Uuid) -> Result<Vec<(Uuid, i32)>> {
    Ok(db::record::recorded_match_games(pool, section_id).await?)
}

/// (round, board) of a section's games with a record (for links).
pub async fn recorded_of_section(pool: &PgPool, section_id: Uuid) -> Result<Vec<(i32, i32)>> {
    Ok(db::record::recorded_of_section(pool, section_id).await?)
}

// ------------------------------------------------------------------------------ exports

/// An export format of the moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoveFormat {
    /// ICCS (`H2-E2` in PGN, `h2e2` in lists).
    Iccs,
    /// Chinese (炮二平五).
    Chinese,
    /// WXF (`C2.5`).
    Wxf,
}

fn result_tag(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::RedWins | GameResult::BlackForfeits) => "1-0",
        Some(GameResult::BlackWins | GameResult::RedForfeits) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        Some(GameResult::DoubleForfeit | GameResult::DoubleLoss) | None => "*",
    }
}

fn pgn_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

fn move_texts(replay: &Replay, format: MoveFormat, pgn: bool) -> Vec<String> {
    replay
        .plies
        .iter()
        .map(|p| match format {
            MoveFormat::Iccs if pgn && replay.game == Game::Xiangqi => {
                let up = p.iccs.to_ascii_uppercase();
                format!("{}-{}", &up[..2], &up[2..])
            }
            MoveFormat::Iccs => p.iccs.clone(),
            MoveFormat::Chinese => p.chinese.clone(),
            MoveFormat::Wxf => p.wxf.clone(),
        })
        .collect()
}

/// Numbered move pairs, `per_line` moves (pairs) a line.
fn numbered(moves: &[String]) -> String {
    let mut out = String::new();
    for (i, pair) in moves.chunks(2).enumerate() {
        out.push_str(&format!("{}. {}\n", i + 1, pair.join(" ")));
    }
    out
}

/// One game as PGN (xqbase's Xiangqi PGN: `[Game "Chinese Chess"]`, `Red`/`Black`, `[FEN]`
/// when the game does not start from the Xiangqi start, `[Format]` naming the notation).
pub fn pgn(ctx: &GameContext, replay: &Replay, format: MoveFormat) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", pgn_escape(value)));
    };
    let game_tag = match ctx.game {
        Game::Banqi => "Banqi",
        Game::Xiangqi | Game::Jieqi => "Chinese Chess",
    };
    tag("Game", game_tag);
    if ctx.game == Game::Jieqi {
        tag("Variant", "Jieqi");
    }
    tag("Event", &ctx.tournament_name);
    tag("Site", ctx.venue.as_deref().unwrap_or("?"));
    let date = ctx
        .starts_on
        .map(|d| d.format("%Y.%m.%d").to_string())
        .unwrap_or_else(|| "????.??.??".into());
    tag("Date", &date);
    let round = if ctx.match_id.is_some() {
        format!("{}.{}.{}", ctx.round, ctx.board, ctx.game_number)
    } else {
        ctx.round.to_string()
    };
    tag("Round", &round);
    if ctx.match_id.is_none() {
        tag("Board", &ctx.board.to_string());
    }
    tag("Red", &ctx.red_name);
    tag("Black", &ctx.black_name);
    let result = result_tag(ctx.result);
    tag("Result", result);
    if ctx.game != Game::Banqi && replay.start_fen != Position::xiangqi_start().to_fen() {
        tag("FEN", &replay.start_fen);
    }
    let format_name = match (ctx.game, format) {
        (Game::Banqi, _) => "Banqi",
        (_, MoveFormat::Iccs) => "ICCS",
        (_, MoveFormat::Chinese) => "Chinese",
        (_, MoveFormat::Wxf) => "WXF",
    };
    tag("Format", format_name);
    out.push('\n');
    let moves = move_texts(replay, format, true);
    let mut body = numbered(&moves);
    body.push_str(result);
    body.push('\n');
    out.push_str(&body);
    out
}

/// A game's record as PGN (visibility as [`get`]).
pub async fn export_pgn(
    pool: &PgPool,
    actor: Option<&Actor>,
    key: GameKey,
    format: MoveFormat,
) -> Result<String> {
    let mut conn = pool.acquire().await?;
    let ctx = context(&mut conn, key).await?;
    let staff = visible(&mut conn, actor, &ctx).await?;
    let row = db::record::find(&mut *conn, ctx.game_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_RECORD))?;
    let record = view(&ctx, Some(&row), staff, Script::Simplified);
    Ok(pgn(&ctx, &record.replay, format))
}

/// A game's moves as a numbered list in one notation.
pub async fn export_moves(
    pool: &PgPool,
    actor: Option<&Actor>,
    key: GameKey,
    format: MoveFormat,
    script: Script,
) -> Result<String> {
    let record = get(pool, actor, key, script).await?;
    Ok(numbered(&move_texts(&record.replay, format, false)))
}

/// Every record of a round as one PGN file (games without a record left out; 404 when none
/// has one).
pub async fn export_round_pgn(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
    round: i32,
    format: MoveFormat,
) -> Result<String> {
    let mut conn = pool.acquire().await?;
    let round_row = db::round::find(&mut *conn, section_id, round)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ROUND))?;
    let games = db::record::contexts_of_round(&mut *conn, round_row.round_id).await?;
    let Some(first) = games.first() else {
        return Err(Error::NotFound(m::NOT_FOUND_RECORD));
    };
    let staff = visible(&mut conn, actor, first).await?;
    let ids: Vec<Uuid> = games.iter().map(|g| g.game_id).collect();
    let rows = db::record::of_games(&mut *conn, &ids).await?;
    let mut out = Vec::new();
    for ctx in &games {
        if let Some(row) = rows.iter().find(|r| r.game_id == ctx.game_id) {
            let record = view(ctx, Some(row), staff, Script::Simplified);
            out.push(pgn(ctx, &record.replay, format));
        }
    }
    if out.is_empty() {
        return Err(Error::NotFound(m::NOT_FOUND_RECORD));
    }
    Ok(out.join("\n"))
}

/// The squares of a set-up's face-down pieces with what they are (Jieqi: the set-up's piece of
/// each starting square; Banqi: of each square), for diagrams once the set-up is public.
pub fn hidden_identities(setup: &Setup) -> Vec<(String, char)> {
    match setup {
        Setup::Jieqi(s) => arbiter_core::setup::JIEQI_RED_SQUARES
            .iter()
            .enumerate()
            .flat_map(|(i, &(f, r))| {
                let red = Square::new(f, r).map(|sq| (sq.name(), s.red[i].letter()));
                let black = Square::new(f, 9 - r)
                    .map(|sq| (sq.name(), s.black[i].letter().to_ascii_lowercase()));
                [red, black].into_iter().flatten()
            })
            .collect(),
        Setup::Banqi(s) => s
            .squares
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let sq = BanqiSquare::new((i % 8) as u8, (i / 8) as u8)?;
                Some((sq.name(), p.letter()))
            })
            .collect(),
    }
}

/// The Chinese character of a piece letter (upper case Red).
pub fn piece_glyph(letter: char) -> &'static str {
    let Some(piece) = Piece::from_letter(letter) else {
        return "";
    };
    let (red, black) = piece.chinese();
    if letter.is_ascii_uppercase() {
        red
    } else {
        black
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chinese_record_replays_and_stops_at_the_first_bad_half_move() {
        let moves = tokens("1. 炮二平五 马8进7 2. 马二进三 車9平8 3. 车一进五 卒7进1");
        let r = replay(
            Game::Xiangqi,
            None,
            RecordNotation::Chinese,
            &moves,
            Script::Simplified,
        );
        let iccs: Vec<&str> = r.plies.iter().map(|p| p.iccs.as_str()).collect();
        assert_eq!(iccs, ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(r.plies[3].chinese, "车9平8");
        assert_eq!(r.plies[0].wxf, "C2.5");
        let problem = r.error.expect("the chariot is blocked by its own pawn");
        assert_eq!(problem.ply, 5);
        assert_eq!(problem.kind, "illegal");
        assert_eq!(
            problem.message,
            "ply 5: \"车一进五\" is not a legal move here"
        );
        assert_eq!(r.fen, r.plies[3].fen);
        assert_eq!(r.to_move, Some(crate::vocab::Side::Red));
    }

    #[test]
    fn a_jieqi_move_of_a_face_down_piece_needs_its_reveal_without_a_set_up() {
        let r = replay(
            Game::Jieqi,
            None,
            RecordNotation::Iccs,
            &["b0c2"],
            Script::Simplified,
        );
        assert_eq!(
            r.error.expect("no set-up, no reveal").kind,
            "missing_reveal"
        );
        let r = replay(
            Game::Jieqi,
            None,
            RecordNotation::Iccs,
            &["b0c2R", "b9c7"],
            Script::Simplified,
        );
        assert_eq!(r.plies[0].iccs, "b0c2R");
        assert_eq!(r.error.expect("Black's reveal is missing").ply, 2);
    }

    #[test]
    fn a_refused_reveal_says_why_in_the_page_language() {
        use crate::i18n::Lang;
        // The only general is face up already.
        let r = replay(
            Game::Jieqi,
            None,
            RecordNotation::Iccs,
            &["b0c2K"],
            Script::Simplified,
        );
        let error = r.error.expect("no general face down");
        assert_eq!(error.kind, "wrong_reveal");
        assert!(
            error
                .message
                .en()
                .ends_with(": every one of them is accounted for"),
            "{}",
            error.message
        );
        assert!(
            error
                .message
                .render(Lang::ZhHans)
                .ends_with("此种棋子已全数出现"),
            "{}",
            error.message.render(Lang::ZhHans)
        );
        // A Banqi flip without its piece and without a set-up.
        let r = replay_banqi(None, &["a1"]);
        let error = r.error.expect("the piece is not given");
        assert_eq!(error.kind, "wrong_reveal");
        assert!(
            error
                .message
                .en()
                .ends_with("the piece revealed is not given"),
            "{}",
            error.message
        );
        assert!(
            error
                .message
                .render(Lang::ZhHant)
                .ends_with("未註明翻出的棋子"),
            "{}",
            error.message.render(Lang::ZhHant)
        );
    }

    #[test]
    fn banqi_turns_are_normalised_and_counted() {
        let r = replay_banqi(None, &["a1=K", "h4(r)", "b1=P"]);
        assert!(r.error.is_none(), "{:?}", r.error);
        assert_eq!(r.plies[1].iccs, "h4=r");
        assert!(
            r.plies[2].fen.starts_with("KPxxxxxx/"),
            "{}",
            r.plies[2].fen
        );
        assert!(r.plies[2].fen.ends_with("/xxxxxxxr"), "{}", r.plies[2].fen);
        let aid = r.banqi.expect("the desk aid");
        assert!(!aid.all_face_up);
        assert_eq!(aid.count, 0);
        let bad = replay_banqi(None, &["a1"]);
        assert_eq!(bad.error.expect("an unknown flip").kind, "wrong_reveal");
    }

    #[test]
    fn the_pgn_has_xqbase_tags_and_no_fen_from_the_start() {
        let ctx = GameContext {
            game_id: Uuid::nil(),
            tournament_id: Uuid::nil(),
            tournament_name: "Open \"A\"".into(),
            game: Game::Xiangqi,
            venue: None,
            starts_on: chrono::NaiveDate::from_ymd_opt(2026, 12, 5),
            default_language: "en".into(),
            section_id: None,
            section_name: None,
            round_id: None,
            round: 3,
            round_status: Some(RoundStatus::Completed),
            board: 7,
            board_id: None,
            match_id: None,
            game_number: 1,
            red_name: "Red Player".into(),
            black_name: "Black Player".into(),
            result: Some(GameResult::BlackForfeits),
            ko_setup_public: None,
        };
        let r = replay(
            Game::Xiangqi,
            None,
            RecordNotation::Iccs,
            &["h2e2", "h9g7", "h0g2"],
            Script::Simplified,
        );
        let pgn = pgn(&ctx, &r, MoveFormat::Iccs);
        assert_eq!(
            pgn,
            "[Game \"Chinese Chess\"]\n[Event \"Open \\\"A\\\"\"]\n[Site \"?\"]\n[Date \"2026.12.05\"]\n\
             [Round \"3\"]\n[Board \"7\"]\n[Red \"Red Player\"]\n[Black \"Black Player\"]\n\
             [Result \"1-0\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7\n2. H0-G2\n1-0\n"
        );
        let chinese = super::pgn(&ctx, &r, MoveFormat::Chinese);
        assert!(
            chinese.contains("1. 炮二平五 马8进7\n2. 马二进三\n"),
            "{chinese}"
        );
    }
}
