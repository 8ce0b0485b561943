//! Hidden-piece set-ups for Jieqi and Banqi (SPEC §9): drawn with the operating system's
//! CSPRNG when a round is paired (or a knockout game falls due), committed publicly by a
//! SHA-256 hash, revealed with the salt once the round is complete.

use super::access;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::setup::SetupRow;
use crate::i18n::messages as m;
use crate::vocab::{self, RoundStatus, SetupMode};
use arbiter_core::setup::{self, Game, Setup};
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// The core's game for a tournament's game, if it has hidden pieces.
pub fn variant(game: vocab::Game) -> Option<Game> {
    match game {
        vocab::Game::Jieqi => Some(Game::Jieqi),
        vocab::Game::Banqi => Some(Game::Banqi),
        vocab::Game::Xiangqi => None,
    }
}

/// A newly drawn set-up with its salt and commitment (not yet stored).
pub fn draw_row(game: Game) -> SetupRow {
    draw(game)
}

fn draw(game: Game) -> SetupRow {
    let mut rng = rand_core::OsRng;
    let drawn = Setup::generate(game, &mut rng);
    let salt = setup::random_salt(&mut rng);
    let canonical = drawn.canonical();
    SetupRow {
        setup_id: Uuid::nil(),
        round_id: None,
        board_id: None,
        game_id: None,
        match_id: None,
        variant: match game {
            Game::Jieqi => "jieqi",
            Game::Banqi => "banqi",
        }
        .into(),
        commitment: setup::commitment(&canonical, &salt),
        canonical,
        salt,
    }
}

/// Draws the set-ups of a newly paired round (its boards stored): one for every board
/// (duplicate mode) or one per board with a game (per-board mode).
pub async fn create_for_round(
    conn: &mut PgConnection,
    section_id: Uuid,
    mode: SetupMode,
    game: vocab::Game,
    round_id: Uuid,
) -> Result<()> {
    let Some(game) = variant(game) else {
        return Ok(());
    };
    match mode {
        SetupMode::Duplicate => {
            let mut row = draw(game);
            row.round_id = Some(round_id);
            db::setup::insert(&mut *conn, section_id, &row).await?;
        }
        SetupMode::PerBoard => {
            // Every board with a game (not the bye) gets its own set-up.
            let boards = sqlx::query_scalar!(
                "select board_id from board where round_id = $1 and black_entrant_id is not null order by number",
                round_id
            )
            .fetch_all(&mut *conn)
            .await?;
            for board_id in boards {
                let mut row = draw(game);
                row.round_id = Some(round_id);
                row.board_id = Some(board_id);
                db::setup::insert(&mut *conn, section_id, &row).await?;
            }
        }
        SetupMode::None => {}
    }
    Ok(())
}

/// Draws the set-up of a knockout match's next game, unless one is already waiting.
pub async fn create_for_match(
    conn: &mut PgConnection,
    section_id: Uuid,
    game: vocab::Game,
    match_id: Uuid,
) -> Result<()> {
    let Some(game) = variant(game) else {
        return Ok(());
    };
    let pending: bool = sqlx::query_scalar!(
        "select exists (select 1 from setup where match_id = $1 and game_id is null) as \"pending!\"",
        match_id
    )
    .fetch_one(&mut *conn)
    .await?;
    if !pending {
        let mut row = draw(game);
        row.match_id = Some(match_id);
        db::setup::insert(&mut *conn, section_id, &row).await?;
    }
    Ok(())
}

/// A set-up as shown: the commitment always; the set-up and salt once revealed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SetupView {
    /// Board number (per-board mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<i32>,
    /// `hex(sha256(setup + ":" + salt))`, published before play.
    pub commitment: String,
    /// The canonical set-up (after the round, or to arbiters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// The salt (after the round, or to arbiters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// A board diagram for the set-up sheet (arbiters, or after the round).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagram: Option<String>,
}

/// The set-ups of a round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundSetups {
    /// `duplicate` or `per_board`.
    pub mode: String,
    /// Whether the set-ups are public (the round is complete).
    pub revealed: bool,
    /// Duplicate mode: the commitment of the one set-up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    /// Duplicate mode, once revealed: the set-up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// Duplicate mode, once revealed: the salt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// Every set-up (one in duplicate mode, one per board otherwise).
    pub setups: Vec<SetupView>,
}

/// Shows a stored set-up, revealing it when `reveal`.
pub fn view(row: &SetupRow, board: Option<i32>, reveal: bool) -> SetupView {
    SetupView {
        board,
        commitment: row.commitment.clone(),
        setup: reveal.then(|| row.canonical.clone()),
        salt: reveal.then(|| row.salt.clone()),
        diagram: if reveal {
            Setup::parse_canonical(&row.canonical)
                .ok()
                .map(|s| s.diagram())
        } else {
            None
        },
    }
}

/// The set-ups of round `number`: commitments for everyone; set-up and salt for the section's
/// arbiters at once, for the public once the round is complete.
pub async fn of_round(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
    number: i32,
) -> Result<RoundSetups> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let round = db::round::find(&mut *conn, section_id, number)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ROUND))?;
    let rows = db::setup::of_round(&mut *conn, round.round_id).await?;
    if rows.is_empty() {
        return Err(Error::NotFound(m::NOT_FOUND_SET_UP));
    }
    let arbiter = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    let revealed = round.status == RoundStatus::Completed;
    let reveal = revealed || arbiter;
    let boards = db::round::boards_of_section(&mut conn, section_id).await?;
    let setups: Vec<SetupView> = rows
        .iter()
        .map(|r| {
            let board = r
                .board_id
                .and_then(|id| boards.iter().find(|b| b.board_id == id))
                .map(|b| b.number);
            view(r, board, reveal)
        })
        .collect();
    let duplicate = rows.len() == 1 && rows[0].board_id.is_none();
    Ok(RoundSetups {
        mode: if duplicate { "duplicate" } else { "per_board" }.into(),
        revealed,
        commitment: duplicate.then(|| setups[0].commitment.clone()),
        setup: if duplicate {
            setups[0].setup.clone()
        } else {
            None
        },
        salt: if duplicate {
            setups[0].salt.clone()
        } else {
            None
        },
        setups,
    })
}
