//! Self-report (SPEC §5): each board of a published round has a secret report code, printed
//! on its result slip as a QR code and a short code. A player opens it without an account and
//! reports the result and the fouls; the opponent confirms or reports too. Agreeing reports
//! wait in the desk's queue, where one key accepts them (or, as the section's setting, they
//! are accepted on agreement); disagreements are flagged. Nothing a player reports counts
//! until it is accepted. Codes close when the round completes or the desk enters the result;
//! wrong codes are rate-limited per address; every report is audited.

use super::access::{self, Change, Need};
use super::check::Check;
use super::rounds::{self, ResultOutcome};
use super::throttle::{self, Limits};
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::report::{CodeBoard, ReportRow};
use crate::i18n::messages as m;
use crate::vocab::{GameResult, RecordNotation, RoundStatus, SelfReport, Side};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgPool;
use std::net::IpAddr;
use utoipa::ToSchema;
use uuid::Uuid;

/// A code as typed or scanned (`a1b2-c3d4-e5f6`, with spaces, dashes or a URL's last part)
/// in its stored form: 12 upper-case hex digits (codes of boards made before issue 36) or 16
/// (each side's code since), or `None` when it cannot be one.
pub fn normalise_code(text: &str) -> Option<String> {
    let text = text.trim();
    let text = text.rsplit('/').next().unwrap_or(text);
    if text.len() > 40 {
        return None;
    }
    let code: String = text
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '\u{3000}'))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    ((code.len() == 12 || code.len() == 16) && code.chars().all(|c| c.is_ascii_hexdigit()))
        .then_some(code)
}

/// A code as printed: `A1B2-C3D4-E5F6`.
pub fn display_code(code: &str) -> String {
    code.as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("-")
}

/// A side's report as shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Report {
    /// `red` or `black`: who reported.
    pub side: Side,
    /// The result reported.
    pub result: GameResult,
    /// Red's fouls.
    pub red_fouls: i32,
    /// Black's fouls.
    pub black_fouls: i32,
    /// When.
    pub reported_at: chrono::DateTime<chrono::Utc>,
}

impl From<ReportRow> for Report {
    fn from(r: ReportRow) -> Report {
        Report {
            side: r.side,
            result: r.result,
            red_fouls: r.red_fouls,
            black_fouls: r.black_fouls,
            reported_at: r.reported_at,
        }
    }
}

/// Where a board's reports stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Agreement {
    /// Nobody reported.
    None,
    /// One side reported; the other has not confirmed.
    Waiting,
    /// Both sides reported the same result and fouls: ready for the desk.
    Agreed,
    /// The sides reported different things: the arbiter decides.
    Disputed,
}

impl Agreement {
    /// The word (catalogue keys `report.state.*`).
    pub fn as_str(self) -> &'static str {
        match self {
            Agreement::None => "none",
            Agreement::Waiting => "waiting",
            Agreement::Agreed => "agreed",
            Agreement::Disputed => "disputed",
        }
    }
}

fn agreement(reports: &[Report]) -> Agreement {
    match reports {
        [] => Agreement::None,
        [_] => Agreement::Waiting,
        [a, b, ..] => {
            if (&a.result, a.red_fouls, a.black_fouls) == (&b.result, b.red_fouls, b.black_fouls) {
                Agreement::Agreed
            } else {
                Agreement::Disputed
            }
        }
    }
}

/// One side of a board as the report page shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReportSide {
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
}

/// A board as its report code shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReportBoard {
    /// Board id.
    pub board_id: Uuid,
    /// Tournament name.
    pub tournament_name: String,
    /// Section.
    pub section_id: Uuid,
    /// Section name.
    pub section_name: String,
    /// Round number.
    pub round: i32,
    /// Board number (a team section's: the match's number in the round).
    pub board: i32,
    /// A team match's game: its board of the match (issue #41); `null` for a board's only
    /// game. Red and Black are then that game's players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<i32>,
    /// Red.
    pub red: ReportSide,
    /// Black.
    pub black: ReportSide,
    /// Whether reports are still taken (the round is being played, no result yet).
    pub open: bool,
    /// The result that counts, once the desk has it.
    pub result: Option<GameResult>,
    /// The open reports, Red's first.
    pub reports: Vec<Report>,
    /// Where they stand.
    pub agreement: Agreement,
    /// Fouls that lose a game in this section.
    pub foul_threshold: i32,
    /// Whether the players may send the game's record (Xiangqi: once the round is published;
    /// Jieqi and Banqi: once it is complete and its set-up revealed).
    pub record_open: bool,
    /// The notations the record may be sent in (the game's: Banqi has its own).
    pub notations: Vec<RecordNotation>,
    /// Whether the game has a record.
    pub has_record: bool,
    /// The side the code (or key) that opened the board reports for (none for the desk).
    pub side: Option<Side>,
}

fn report_board(board: CodeBoard, reports: Vec<Report>, has_record: bool) -> ReportBoard {
    let open = board.round_status == RoundStatus::Published && board.result.is_none();
    // A hidden-piece game's record is taken once its set-up is revealed (the round complete).
    let record_open = match board.game {
        crate::vocab::Game::Xiangqi => board.round_status != RoundStatus::Paired,
        _ => board.round_status == RoundStatus::Completed,
    };
    ReportBoard {
        board_id: board.board_id,
        tournament_name: board.tournament_name,
        section_id: board.section_id,
        section_name: board.section_name,
        round: board.round_no,
        board: board.board_no,
        game: board.game_no,
        red: ReportSide {
            start_no: board.red_no,
            name: board.red_name,
        },
        black: ReportSide {
            start_no: board.black_no,
            name: board.black_name.unwrap_or_default(),
        },
        open,
        result: board.result,
        agreement: agreement(&reports),
        reports,
        foul_threshold: board.foul_threshold,
        record_open,
        notations: super::records::notations(board.game).to_vec(),
        has_record,
        side: None,
    }
}

/// The side whose code `code` (normalised) is on `board`.
fn side_of_code(board: &CodeBoard, code: &str) -> Side {
    if board.black_code == code {
        Side::Black
    } else {
        Side::Red
    }
}

async fn has_record(pool: &PgPool, board: &CodeBoard) -> Result<bool> {
    Ok(match board.game_id {
        Some(game) => db::report::has_record(pool, game).await?,
        None => false,
    })
}

/// The one message for every reason a code does not open a board a player may report on, so
/// a guess learns nothing (pages show it next to the code box).
pub const UNKNOWN_CODE: m::Text = m::REPORT_NO_GAME_REPORT_HAS;

/// The refusal of a code that opens nothing.
fn unknown_code() -> Error {
    Error::invalid("code", UNKNOWN_CODE)
}

/// Looks up `code` for a visitor from `ip`, and the side it reports for. A right code always
/// opens its board: it is looked up before the limiter and never counts as an attempt, so one
/// person's wrong guesses behind a venue's address lock nobody else out (issue 36); a wrong
/// code costs an attempt of the address's limit (429 once it is spent). Codes are 48 bits
/// (boards made before issue 36) or 64, so guessing at the limit's pace stays hopeless.
async fn find_board(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    code: &str,
) -> Result<(CodeBoard, Side)> {
    let code = normalise_code(code);
    let found = match &code {
        Some(code) => match db::report::board_by_code(pool, code).await? {
            Some(board) => Some(board),
            // A game of a team match has its own two codes (issue #41).
            None => db::report::team_game_by_code(pool, code).await?,
        },
        None => None,
    };
    // A bye has no game, an unpublished round is not public, and self-report may be off:
    // all of them answer as a wrong code does; so does a team match's board-level code
    // (its games have their own).
    let found = found.filter(|b| {
        b.game_id.is_some()
            && (!b.team || b.game_no.is_some())
            && b.round_status != RoundStatus::Paired
            && b.self_report != SelfReport::Off
    });
    match (found, code) {
        (Some(board), Some(code)) => {
            let side = side_of_code(&board, &code);
            Ok((board, side))
        }
        _ => {
            throttle::report_attempt(pool, limits, ip).await?;
            Err(unknown_code())
        }
    }
}

/// The board `code` opens, with its open reports.
pub async fn lookup(pool: &PgPool, limits: &Limits, ip: IpAddr, code: &str) -> Result<ReportBoard> {
    let (board, side) = find_board(pool, limits, ip, code).await?;
    let mut view = board_view(pool, board).await?;
    view.side = Some(side);
    Ok(view)
}

/// A board with its open reports, as a player's page shows it.
pub(crate) async fn board_view(pool: &PgPool, board: CodeBoard) -> Result<ReportBoard> {
    let reports =
        db::report::open_reports(pool, board.board_id, board.game_no.unwrap_or(1)).await?;
    let recorded = has_record(pool, &board).await?;
    Ok(report_board(
        board,
        reports.into_iter().map(Report::from).collect(),
        recorded,
    ))
}

/// A player's report.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportInput {
    /// `red` or `black`: the side reporting. Optional: the side is the one of the code or key
    /// the report is sent with; a different side is refused (422).
    pub side: Option<String>,
    /// `red_wins`, `black_wins`, `draw`, `red_forfeits`, `black_forfeits` or `double_forfeit`.
    pub result: String,
    /// Red's fouls in this game (default 0).
    pub red_fouls: Option<i64>,
    /// Black's fouls in this game (default 0).
    pub black_fouls: Option<i64>,
    /// A team key only (issue #41): the board of the team's match to report (1 = top
    /// board); the side is the team's on that board. Refused with a code or a player's key.
    #[serde(default)]
    pub game: Option<i64>,
}

/// What a report did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReportOutcome {
    /// The board as it stands now.
    pub board: ReportBoard,
    /// Whether the report was accepted at once (the section accepts on agreement).
    pub accepted: bool,
}

/// Records `input` for the board `code` opens, as the side whose code it is. A side
/// reporting again replaces its own report; when both agree and the section accepts on
/// agreement, the result is recorded.
pub async fn submit(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    code: &str,
    input: &ReportInput,
) -> Result<ReportOutcome> {
    let (found, side) = find_board(pool, limits, ip, code).await?;
    submit_as(pool, ip, found, side, "code", input).await
}

/// Records `input` as `side` of `found` (the side of the code or key it was sent with).
pub(crate) async fn submit_as(
    pool: &PgPool,
    ip: IpAddr,
    found: CodeBoard,
    side: Side,
    via: &str,
    input: &ReportInput,
) -> Result<ReportOutcome> {
    // A team match's results are its boards' (issue #41): each game is reported on its own.
    if found.team && found.game_no.is_none() {
        return Err(Error::conflict(m::TEAM_RESULT_PER_BOARD.msg()));
    }
    let mut check = Check::new();
    if input.game.is_some() && via != "team_key" {
        check.error("game", m::REPORT_GAME_ONLY_TEAM_KEY.msg());
    }
    if let Some(claimed) = &input.side {
        if check.word("side", claimed, Side::ALL, side) != side {
            check.error("side", m::REPORT_SIDE_NOT_YOURS.msg());
        }
    }
    // What a player may report: the results of the desk's form (not the double loss, which
    // only the foul rule gives).
    let result = check.word(
        "result",
        &input.result,
        GameResult::ENTERED,
        GameResult::Draw,
    );
    let red_fouls = input.red_fouls.unwrap_or(0);
    let black_fouls = input.black_fouls.unwrap_or(0);
    check.range("red_fouls", red_fouls, 0, 99);
    check.range("black_fouls", black_fouls, 0, 99);
    if result.is_forfeit() && (red_fouls > 0 || black_fouls > 0) {
        check.error("result", m::CHECK_FORFEITED_GAME_HAS_NO.msg());
    }
    check.finish()?;

    let mut tx = pool.begin().await?;
    let board = for_update(&mut tx, found.board_id, found.game_no)
        .await?
        .ok_or_else(unknown_code)?;
    let game_no = board.game_no.unwrap_or(1);
    if board.round_status != RoundStatus::Published || board.result.is_some() {
        return Err(Error::conflict(m::REPORT_GAME_S_RESULT_ALREADY.msg()));
    }
    // A dispute is the desk's: no player's report changes it until the desk dismisses the
    // reports or enters the result.
    let before: Vec<Report> = db::report::open_reports(&mut *tx, board.board_id, game_no)
        .await?
        .into_iter()
        .map(Report::from)
        .collect();
    if agreement(&before) == Agreement::Disputed {
        return Err(Error::conflict(m::REPORT_DISPUTED_DESK_DECIDES.msg()));
    }
    db::report::put_report(
        &mut tx,
        (board.board_id, game_no),
        side,
        result,
        red_fouls as i32,
        black_fouls as i32,
    )
    .await?;
    let reports: Vec<Report> = db::report::open_reports(&mut *tx, board.board_id, game_no)
        .await?
        .into_iter()
        .map(Report::from)
        .collect();
    let state = agreement(&reports);
    access::audit(
        &mut tx,
        board.tournament_id,
        None,
        Change {
            action: "self_report",
            entity: "game",
            entity_id: board.game_id,
            before: None,
            after: Some(json!({
                "round": board.round_no, "board": board.board_no, "game": board.game_no,
                "side": side,
                "result": result, "red_fouls": red_fouls, "black_fouls": black_fouls,
                "agreement": state.as_str(), "address": ip.to_string(), "via": via,
            })),
        },
    )
    .await?;
    let accepted = state == Agreement::Agreed && board.self_report == SelfReport::Agreement;
    if accepted {
        accept_in(&mut tx, None, &board, &reports).await?;
    }
    tx.commit().await?;
    if accepted && board.round_no >= board.section_rounds {
        rounds::follow_last_round(pool, None, &context_of(&board)).await?;
    }
    let board = match board.game_no {
        Some(n) => db::report::team_game(pool, board.board_id, n).await?,
        None => db::report::board_by_id(pool, board.board_id).await?,
    }
    .ok_or_else(unknown_code)?;
    let mut view = board_view(pool, board).await?;
    view.side = Some(side);
    Ok(ReportOutcome {
        board: view,
        accepted,
    })
}

/// What recording a result needs of a reported board.
fn context_of(board: &CodeBoard) -> db::round::BoardContext {
    db::round::BoardContext {
        board_id: board.board_id,
        round_id: board.round_id,
        round: board.round_no,
        round_status: board.round_status,
        section_id: board.section_id,
        tournament_id: board.tournament_id,
        game_id: board.game_id,
        result: board.result,
        reported_result: board.reported_result,
        version: board.version,
        foul_threshold: board.foul_threshold,
        section_rounds: board.section_rounds,
        team: board.team,
        team_game: board.game_no,
    }
}

/// A board (or a team match's game `game_no`) with its section row locked.
async fn for_update(
    tx: &mut sqlx::PgConnection,
    board_id: Uuid,
    game_no: Option<i32>,
) -> Result<Option<CodeBoard>> {
    Ok(match game_no {
        Some(n) => db::report::team_game_for_update(&mut *tx, board_id, n).await?,
        None => db::report::board_for_update(&mut *tx, board_id).await?,
    })
}

/// Records the agreed report of `board` as its result and closes the reports as accepted.
async fn accept_in(
    tx: &mut sqlx::PgConnection,
    actor: Option<&Actor>,
    board: &CodeBoard,
    reports: &[Report],
) -> Result<ResultOutcome> {
    let Some(report) = reports.first() else {
        return Err(Error::conflict(m::REPORT_NOBODY_HAS_REPORTED_GAME.msg()));
    };
    let context = context_of(board);
    // The round is settled in `tx` when the result may settle it.
    let outcome = rounds::record_result(
        tx,
        actor,
        &context,
        &rounds::Entered {
            reported: report.result,
            red_fouls: i64::from(report.red_fouls),
            black_fouls: i64::from(report.black_fouls),
            expected: None,
            via: "self_report",
            resolution: "accepted",
        },
    )
    .await?;
    Ok(outcome)
}

/// A board in the desk's queue.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct QueueItem {
    /// The board as reported.
    #[serde(flatten)]
    pub board: ReportBoard,
}

/// The desk's queue of a section: every board with open reports, agreed ones first (they
/// wait for one key), then disputes, then those waiting for the opponent.
pub async fn queue(pool: &PgPool, actor: &Actor, section_id: Uuid) -> Result<Vec<QueueItem>> {
    let section = db::section::find(pool, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let mut conn = pool.acquire().await?;
    access::require(&mut conn, actor, section.tournament_id, Need::Scorer).await?;
    let boards = db::report::boards_with_reports(&mut *conn, section_id).await?;
    let reports = db::report::open_reports_of_section(&mut *conn, section_id).await?;
    let mut items: Vec<QueueItem> = boards
        .into_iter()
        .map(|board| {
            let mine: Vec<Report> = reports
                .iter()
                .filter(|r| r.board_id == board.board_id && r.game_no == board.game_no.unwrap_or(1))
                .cloned()
                .map(Report::from)
                .collect();
            QueueItem {
                board: report_board(board, mine, false),
            }
        })
        .collect();
    let rank = |a: Agreement| match a {
        Agreement::Agreed => 0,
        Agreement::Disputed => 1,
        _ => 2,
    };
    items.sort_by_key(|i| {
        (
            rank(i.board.agreement),
            i.board.round,
            i.board.board,
            i.board.game,
        )
    });
    Ok(items)
}

/// The desk accepts a board's agreed reports: the result counts from now on. A board whose
/// reports disagree, or that only one side reported, is refused (409): the arbiter enters
/// the result instead. `game`: a team match's game (its board of the match).
pub async fn accept(
    pool: &PgPool,
    actor: &Actor,
    board_id: Uuid,
    game: Option<i32>,
) -> Result<ResultOutcome> {
    let mut tx = pool.begin().await?;
    let board = for_update(&mut tx, board_id, game)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BOARD))?;
    access::require(&mut tx, actor, board.tournament_id, Need::Scorer).await?;
    let reports: Vec<Report> = db::report::open_reports(&mut *tx, board_id, game.unwrap_or(1))
        .await?
        .into_iter()
        .map(Report::from)
        .collect();
    match agreement(&reports) {
        Agreement::Agreed => {}
        Agreement::None => return Err(Error::conflict(m::REPORT_NOBODY_HAS_REPORTED_GAME.msg())),
        Agreement::Waiting => return Err(Error::conflict(m::REPORT_ONLY_ONE_SIDE_HAS.msg())),
        Agreement::Disputed => {
            return Err(Error::conflict(
                m::REPORT_PLAYERS_REPORTS_DISAGREE_ENTER.msg(),
            ))
        }
    }
    if board.result.is_some() {
        return Err(Error::conflict(m::REPORT_GAME_S_RESULT_ALREADY.msg()));
    }
    let outcome = accept_in(&mut tx, Some(actor), &board, &reports).await?;
    tx.commit().await?;
    rounds::follow_last_round(pool, Some(actor), &context_of(&board)).await?;
    Ok(outcome)
}

/// The desk dismisses a board's open reports (a dispute settled at the board, a report made
/// by mistake): they stay on record but count for nothing, and the players may report again.
/// `game`: a team match's game (its board of the match).
pub async fn dismiss(
    pool: &PgPool,
    actor: &Actor,
    board_id: Uuid,
    game: Option<i32>,
) -> Result<()> {
    let mut tx = pool.begin().await?;
    let board = for_update(&mut tx, board_id, game)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BOARD))?;
    access::require(&mut tx, actor, board.tournament_id, Need::Scorer).await?;
    let dismissed =
        db::report::resolve(&mut *tx, (board_id, game.unwrap_or(1)), "dismissed").await?;
    if dismissed == 0 {
        return Err(Error::conflict(m::REPORT_NOBODY_HAS_REPORTED_GAME.msg()));
    }
    access::audit(
        &mut tx,
        board.tournament_id,
        Some(actor),
        Change {
            action: "dismiss_reports",
            entity: "game",
            entity_id: board.game_id,
            before: None,
            after: Some(
                json!({"round": board.round_no, "board": board.board_no, "game": board.game_no,
                       "reports": dismissed}),
            ),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A player sends the game's record with the board's code (SPEC §5, issue #18): the one path
/// is [`super::records::store_player_record`] (checked move by move, stored only when the game
/// has no record yet; a hidden-piece game's only once its set-up is revealed), audited as the
/// public. The code stays valid for this after its round completes.
pub async fn submit_record(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    code: &str,
    input: &super::records::RecordInput,
) -> Result<super::records::RecordSaved> {
    let (board, _) = find_board(pool, limits, ip, code).await?;
    super::records::store_player_record(pool, board.board_id, input).await
}

/// The report codes of a round's boards with a game (Red's, Black's), by board number, for
/// the result slips: staff of the tournament only (a code lets its holder report the game).
pub async fn codes(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    round: i32,
) -> Result<Vec<(i32, String, String)>> {
    let section = db::section::find(pool, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let mut conn = pool.acquire().await?;
    access::require(&mut conn, actor, section.tournament_id, Need::Scorer).await?;
    Ok(db::report::codes_of_round(&mut *conn, section_id, round).await?)
}

/// One game of a team match with its two side-bound codes, for the match slips.
#[derive(Debug, Clone)]
pub struct GameCodes {
    /// The match's number in the round.
    pub match_no: i32,
    /// The board of the match.
    pub board: i32,
    /// The code of the player with Red in this game.
    pub red: String,
    /// The code of the player with Black.
    pub black: String,
}

/// The codes of a team round's games, for the match slips: `None` unless `actor` is on the
/// tournament's staff (a code lets its holder report the game) and the section takes
/// self-reports.
pub async fn team_codes(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
    round: i32,
) -> Result<Option<Vec<GameCodes>>> {
    let section = db::section::find(pool, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let Some(actor) = actor else {
        return Ok(None);
    };
    if section.self_report == SelfReport::Off {
        return Ok(None);
    }
    let mut conn = pool.acquire().await?;
    if access::require(&mut conn, actor, section.tournament_id, Need::Scorer)
        .await
        .is_err()
    {
        return Ok(None);
    }
    Ok(Some(
        db::report::team_codes_of_round(&mut *conn, section_id, round)
            .await?
            .into_iter()
            .map(|(match_no, board, red, black)| GameCodes {
                match_no,
                board,
                red,
                black,
            })
            .collect(),
    ))
}

/// Reports waiting at every desk of the server (for `/metrics`).
pub async fn pending_count(pool: &PgPool) -> Result<i64> {
    Ok(db::report::pending_count(pool).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_as_typed_and_print_in_groups() {
        assert_eq!(
            normalise_code(" a1b2-c3d4 e5f6 ").as_deref(),
            Some("A1B2C3D4E5F6")
        );
        assert_eq!(
            normalise_code("https://x.example/r/A1B2-C3D4-E5F6").as_deref(),
            Some("A1B2C3D4E5F6")
        );
        assert_eq!(normalise_code("A1B2C3D4E5F"), None);
        assert_eq!(
            normalise_code("0123-4567-89ab-cdef").as_deref(),
            Some("0123456789ABCDEF")
        );
        assert_eq!(normalise_code("0123456789ABCDE"), None);
        assert_eq!(normalise_code("G1B2C3D4E5F6"), None);
        assert_eq!(normalise_code(&"A".repeat(100)), None);
        assert_eq!(display_code("A1B2C3D4E5F6"), "A1B2-C3D4-E5F6");
    }

    fn report(side: &str, result: &str, fouls: (i32, i32)) -> Report {
        Report {
            side: side.parse().expect("a side"),
            result: result.parse().expect("a result"),
            red_fouls: fouls.0,
            black_fouls: fouls.1,
            reported_at: chrono::Utc::now(),
        }
    }

    #[test]
    fn reports_agree_only_on_result_and_fouls() {
        assert_eq!(agreement(&[]), Agreement::None);
        let red = report("red", "draw", (0, 1));
        assert_eq!(agreement(std::slice::from_ref(&red)), Agreement::Waiting);
        let same = report("black", "draw", (0, 1));
        assert_eq!(agreement(&[red.clone(), same]), Agreement::Agreed);
        let other_fouls = report("black", "draw", (0, 0));
        assert_eq!(agreement(&[red.clone(), other_fouls]), Agreement::Disputed);
        let other_result = report("black", "red_wins", (0, 1));
        assert_eq!(agreement(&[red, other_result]), Agreement::Disputed);
    }
}
