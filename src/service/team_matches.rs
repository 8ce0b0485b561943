//! Team matches (issue #41): a match is a board of a team section's round between two teams
//! (the red team has Red on board 1); its games are one `game` row per board of the match,
//! colours alternating board by board, the players from the teams' line-ups. A match's
//! result follows from its games (board points, 局分; match points by the section's
//! scoring), and the section's state (pairing, the individual standings' points) sees the
//! match as one game between two entrants. Team standings by match points and the team
//! chain (FIDE C.07) come from `arbiter_core::teams::standings`.

use super::access::{self, Need};
use super::rounds::{self, Entered, ResultInput, ResultOutcome};
use super::state::{self, result_codes, SectionState};
use super::teams::{self, Settings};
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::entrant::MemberRow;
use crate::db::round::BoardRow;
use crate::db::section::SectionRow;
use crate::db::team::{LineupRow, NewTeamGame, TeamGameRow};
use crate::i18n::messages as m;
use crate::vocab::{EntryType, GameResult, RoundStatus};
use arbiter_core::model::{Points, ResultCode, Scoring, Side, StartNo};
use arbiter_core::standings::TiebreakValue;
use arbiter_core::teams::roster::{board_colours, default_lineup};
use arbiter_core::teams::{BoardGame, TeamRound, TeamScoring};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use std::collections::HashMap;
use utoipa::ToSchema;
use uuid::Uuid;

/// Board (game) points per board: 1 / ½ / 0, a forfeit win 1.
pub fn game_scoring() -> Scoring {
    Scoring::one_half_zero()
}

/// The result codes of the red team and the black team of a match in one of its games.
fn codes_for_teams(board_red: Uuid, g: &TeamGameRow) -> (ResultCode, ResultCode) {
    let (red, black) = result_codes(g.result);
    if g.red_entrant_id == board_red {
        (red, black)
    } else {
        (black, red)
    }
}

/// A match's result as one game between its teams (Red: the team with Red on board 1): won,
/// drawn or lost on board points, a match without any game played over the board (every
/// board forfeited) a forfeit; `None` while a game has no result.
pub fn match_result(board_red: Uuid, games: &[&TeamGameRow]) -> Option<GameResult> {
    if games.is_empty() || games.iter().any(|g| g.result.is_none()) {
        return None;
    }
    let scoring = game_scoring();
    let (mut red, mut black) = (Points::ZERO, Points::ZERO);
    let mut played = false;
    for g in games {
        let (r, b) = codes_for_teams(board_red, g);
        red += scoring.points(r);
        black += scoring.points(b);
        played |= r.is_played() || b.is_played();
    }
    Some(match (red.cmp(&black), played) {
        (std::cmp::Ordering::Greater, true) => GameResult::RedWins,
        (std::cmp::Ordering::Less, true) => GameResult::BlackWins,
        (std::cmp::Ordering::Equal, true) => GameResult::Draw,
        (std::cmp::Ordering::Greater, false) => GameResult::BlackForfeits,
        (std::cmp::Ordering::Less, false) => GameResult::RedForfeits,
        (std::cmp::Ordering::Equal, false) => GameResult::DoubleForfeit,
    })
}

/// A team section's boards as the section's state sees them: one row per match, its result
/// the match's (`boards_of_section` reads one row per game).
pub(crate) async fn match_rows(
    conn: &mut PgConnection,
    section_id: Uuid,
    boards: Vec<BoardRow>,
) -> Result<Vec<BoardRow>> {
    let games = db::team::games_of_section(&mut *conn, section_id).await?;
    let mut by_board: HashMap<Uuid, Vec<&TeamGameRow>> = HashMap::new();
    for g in &games {
        by_board.entry(g.board_id).or_default().push(g);
    }
    let mut out: Vec<BoardRow> = Vec::with_capacity(boards.len());
    for mut b in boards {
        // A match's games are read in a row (by round and board).
        if out
            .last()
            .is_some_and(|l: &BoardRow| l.board_id == b.board_id)
        {
            continue;
        }
        let mine = by_board.get(&b.board_id).map_or(&[][..], Vec::as_slice);
        b.result = match_result(b.red_entrant_id, mine);
        b.reported_result = b.result;
        b.game_id = mine.first().map(|g| g.game_id);
        b.version = None;
        b.red_fouls = 0;
        b.black_fouls = 0;
        out.push(b);
    }
    Ok(out)
}

/// A team's line-up of a round as player ids, board by board: the one entered (by the desk
/// or the captain), else the default (the first players of the roster, as the roster is
/// now); and whether one was entered.
fn lineup_of(
    team: Uuid,
    round: i32,
    lineups: &[LineupRow],
    members: &[MemberRow],
    boards: u32,
) -> (Vec<Uuid>, bool) {
    let mut entered: Vec<&LineupRow> = lineups
        .iter()
        .filter(|l| l.entrant_id == team && l.round == round && l.entered_by != "default")
        .collect();
    if !entered.is_empty() {
        entered.sort_by_key(|l| l.board);
        return (entered.iter().map(|l| l.player_id).collect(), true);
    }
    let roster: Vec<&MemberRow> = members.iter().filter(|m| m.entrant_id == team).collect();
    let positions: Vec<StartNo> = roster.iter().map(|m| m.position as StartNo).collect();
    let chosen = default_lineup(&positions, |_| true, boards);
    (
        chosen
            .iter()
            .filter_map(|&p| roster.iter().find(|m| m.position as StartNo == p))
            .map(|m| m.player_id)
            .collect(),
        false,
    )
}

/// The games of a match between the line-ups `red` (Red on board 1) and `black`: colours
/// alternate board by board; an empty seat forfeits its board.
fn games_of(
    board_id: Uuid,
    red_team: Uuid,
    black_team: Uuid,
    red: &[Uuid],
    black: &[Uuid],
    boards: u32,
) -> Vec<NewTeamGame> {
    board_colours(Side::Red, boards)
        .into_iter()
        .enumerate()
        .map(|(i, colour)| {
            let (home, away) = (red.get(i).copied(), black.get(i).copied());
            let (red_entrant_id, black_entrant_id, red_player_id, black_player_id) = match colour {
                Side::Red => (red_team, black_team, home, away),
                Side::Black => (black_team, red_team, away, home),
            };
            let result = match (red_player_id, black_player_id) {
                (Some(_), Some(_)) => None,
                (None, Some(_)) => Some(GameResult::RedForfeits),
                (Some(_), None) => Some(GameResult::BlackForfeits),
                (None, None) => Some(GameResult::DoubleForfeit),
            };
            NewTeamGame {
                board_id,
                number: i as i32 + 1,
                red_entrant_id,
                black_entrant_id,
                red_player_id,
                black_player_id,
                result,
            }
        })
        .collect()
}

/// Seats a just paired (or re-paired) round of a team section: each match gets its games,
/// one per board, with the line-ups' players; a team without a line-up gets the default one
/// (stored, marked `default`). Line-ups are fixed for the captains when the round is
/// published; the desk may change one until a result of its match is entered.
pub(crate) async fn seat_round(
    conn: &mut PgConnection,
    section: &SectionRow,
    round_id: Uuid,
    round: i32,
) -> Result<()> {
    let settings = teams::settings(&mut *conn, section.section_id).await?;
    let matches = db::team::matches_of_round(&mut *conn, round_id).await?;
    let members = db::entrant::members(&mut *conn, section.section_id).await?;
    let lineups = db::team::lineups(&mut *conn, section.section_id).await?;
    let mut games = Vec::new();
    let mut board_ids = Vec::new();
    for (board_id, red_team, black_team) in &matches {
        let Some(black_team) = black_team else {
            continue;
        };
        let mut seats = Vec::with_capacity(2);
        for team in [*red_team, *black_team] {
            let (players, entered) = lineup_of(team, round, &lineups, &members, settings.boards);
            if !entered {
                db::team::put_lineup(&mut *conn, team, round, &players, "default").await?;
            }
            seats.push(players);
        }
        board_ids.push(*board_id);
        games.extend(games_of(
            *board_id,
            *red_team,
            *black_team,
            &seats[0],
            &seats[1],
            settings.boards,
        ));
    }
    db::team::replace_games(&mut *conn, &board_ids, &games).await?;
    Ok(())
}

/// Seats a team's match of a paired round again after a new line-up: refused (409) once a
/// result of the match was entered.
pub(crate) async fn reseat_team(
    conn: &mut PgConnection,
    section: &SectionRow,
    settings: &Settings,
    round_id: Uuid,
    team: Uuid,
) -> Result<()> {
    let matches = db::team::matches_of_round(&mut *conn, round_id).await?;
    let Some((board_id, red_team, Some(black_team))) = matches
        .into_iter()
        .find(|(_, r, b)| *r == team || *b == Some(team))
    else {
        return Ok(());
    };
    let games = db::team::games_of_match(&mut *conn, board_id).await?;
    if games.iter().any(|g| g.version > 0) {
        return Err(Error::conflict(m::TEAM_LINEUP_PLAYED.msg()));
    }
    let round = db::team::round_number(&mut *conn, round_id).await?;
    let members = db::entrant::members(&mut *conn, section.section_id).await?;
    let lineups = db::team::lineups(&mut *conn, section.section_id).await?;
    let (red, _) = lineup_of(red_team, round, &lineups, &members, settings.boards);
    let (black, _) = lineup_of(black_team, round, &lineups, &members, settings.boards);
    let new = games_of(
        board_id,
        red_team,
        black_team,
        &red,
        &black,
        settings.boards,
    );
    db::team::replace_games(&mut *conn, &[board_id], &new).await?;
    Ok(())
}

/// A team of a match as shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchTeam {
    /// The team (entrant).
    pub id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// Board points scored in this match.
    pub board_points: f64,
    /// Match points earned (`null` while a board has no result).
    pub match_points: Option<f64>,
}

/// A player of a game as shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GamePlayer {
    /// The player.
    pub player_id: Uuid,
    /// Name.
    pub name: String,
    /// The player's team.
    pub team_id: Uuid,
}

/// One game (board) of a team match.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchGame {
    /// Board of the match (1 = top board); the result's path takes it.
    pub number: i32,
    /// Red's player (`null`: an empty seat, the board forfeited).
    pub red: Option<GamePlayer>,
    /// Black's player.
    pub black: Option<GamePlayer>,
    /// The team playing Red on this board.
    pub red_team_id: Uuid,
    /// The team playing Black on this board.
    pub black_team_id: Uuid,
    /// Result after the foul rule.
    pub result: Option<GameResult>,
    /// Result as entered.
    pub reported_result: Option<GameResult>,
    /// Red's fouls.
    pub red_fouls: i64,
    /// Black's fouls.
    pub black_fouls: i64,
    /// Version of the result, for `If-Match`.
    pub version: i32,
}

/// A team match: a board of a team section's round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchView {
    /// The match's board id.
    pub id: Uuid,
    /// Round.
    pub round: i32,
    /// Match (board) number in the round.
    pub number: i32,
    /// The team with Red on board 1.
    pub red: MatchTeam,
    /// The other team; `null` for a pairing-allocated bye.
    pub black: Option<MatchTeam>,
    /// The match's result as one game between the teams (`red_wins`: the red team won).
    pub result: Option<GameResult>,
    /// The games, board by board.
    pub games: Vec<MatchGame>,
}

fn match_views(
    state: &SectionState,
    settings: &Settings,
    games: &[TeamGameRow],
    members: &[MemberRow],
    round: i32,
) -> Vec<MatchView> {
    let scoring = &state.tournament.scoring;
    let player = |id: Option<Uuid>, team: Uuid| {
        id.map(|player_id| GamePlayer {
            player_id,
            name: members
                .iter()
                .find(|m| m.player_id == player_id)
                .map(|m| m.name.clone())
                .unwrap_or_default(),
            team_id: team,
        })
    };
    let team = |id: Uuid| state.entrant(id);
    state
        .boards
        .iter()
        .filter(|b| b.round == round)
        .map(|b| {
            let mine: Vec<&TeamGameRow> =
                games.iter().filter(|g| g.board_id == b.board_id).collect();
            let game_points = game_scoring();
            let (mut red_gp, mut black_gp) = (Points::ZERO, Points::ZERO);
            for g in &mine {
                let (r, k) = codes_for_teams(b.red_entrant_id, g);
                red_gp += game_points.points(r);
                black_gp += game_points.points(k);
            }
            let (red_code, black_code) = result_codes(b.result);
            let mp = |code: ResultCode| {
                b.result
                    .map(|_| scoring.points(code).tenths() as f64 / 10.0)
            };
            let side = |id: Uuid, gp: Points, code: ResultCode| MatchTeam {
                id,
                start_no: team(id).and_then(|e| e.start_no),
                name: team(id).map(|e| e.name.clone()).unwrap_or_default(),
                board_points: gp.tenths() as f64 / 10.0,
                match_points: mp(code),
            };
            let bye = b.black_entrant_id.is_none();
            MatchView {
                id: b.board_id,
                round: b.round,
                number: b.number,
                red: if bye {
                    MatchTeam {
                        board_points: settings.bye_game_points.tenths() as f64 / 10.0,
                        match_points: Some(scoring.pairing_bye.tenths() as f64 / 10.0),
                        ..side(b.red_entrant_id, red_gp, red_code)
                    }
                } else {
                    side(b.red_entrant_id, red_gp, red_code)
                },
                black: b.black_entrant_id.map(|id| side(id, black_gp, black_code)),
                result: b.result,
                games: mine
                    .iter()
                    .map(|g| MatchGame {
                        number: g.number,
                        red: player(g.red_player_id, g.red_entrant_id),
                        black: player(g.black_player_id, g.black_entrant_id),
                        red_team_id: g.red_entrant_id,
                        black_team_id: g.black_entrant_id,
                        result: g.result,
                        reported_result: g.reported_result,
                        red_fouls: g.red_fouls,
                        black_fouls: g.black_fouls,
                        version: g.version,
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The matches of a round with their games (a round not yet published only for the
/// section's staff).
pub async fn round_matches(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
    round: i32,
) -> Result<Vec<MatchView>> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    if section.entry_type != EntryType::Team {
        return Err(Error::conflict(m::TEAM_NOT_TEAM_SECTION.msg()));
    }
    let staff = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    let settings = teams::settings(&mut conn, section_id).await?;
    let state = if staff {
        state::load(&mut conn, section, false).await?
    } else {
        state::load_public(&mut conn, section).await?
    };
    if !state.rounds.iter().any(|r| r.number == round) {
        return Err(Error::NotFound(m::NOT_FOUND_ROUND));
    }
    let games = db::team::games_of_section(&mut *conn, section_id).await?;
    let members = db::entrant::members(&mut *conn, section_id).await?;
    Ok(match_views(&state, &settings, &games, &members, round))
}

/// One match with its games.
pub async fn get_match(pool: &PgPool, actor: Option<&Actor>, board_id: Uuid) -> Result<MatchView> {
    let mut conn = pool.acquire().await?;
    let (section_id, round) = db::team::board_place(&mut *conn, board_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BOARD))?;
    drop(conn);
    round_matches(pool, actor, section_id, round)
        .await?
        .into_iter()
        .find(|v| v.id == board_id)
        .ok_or(Error::NotFound(m::NOT_FOUND_BOARD))
}

/// A game's context for a result, refused (409) outside team sections.
async fn game_context(
    conn: &mut PgConnection,
    actor: &Actor,
    board_id: Uuid,
    number: i32,
) -> Result<db::round::BoardContext> {
    let context = db::team::game_context(&mut *conn, board_id, number).await?;
    let Some(context) = context else {
        let board = db::round::board_context(&mut *conn, board_id)
            .await?
            .ok_or(Error::NotFound(m::NOT_FOUND_BOARD))?;
        access::require(&mut *conn, actor, board.tournament_id, Need::Scorer).await?;
        return Err(Error::conflict(m::TEAM_NO_GAME.with(&[&number])));
    };
    access::require(&mut *conn, actor, context.tournament_id, Need::Scorer).await?;
    if !context.team {
        return Err(Error::conflict(m::TEAM_NOT_TEAM_SECTION.msg()));
    }
    Ok(context)
}

/// Records (or corrects) the result of one board of a team match, through the one way in
/// (`rounds::record_result`: version check, foul rule, audit); the match's result follows.
pub async fn set_game_result(
    pool: &PgPool,
    actor: &Actor,
    board_id: Uuid,
    number: i32,
    input: &ResultInput,
    expected: Option<i32>,
) -> Result<ResultOutcome> {
    let (reported, red_fouls, black_fouls) = rounds::checked_result(input)?;
    let mut conn = pool.acquire().await?;
    let context = game_context(&mut conn, actor, board_id, number).await?;
    let outcome = rounds::record_result(
        &mut conn,
        Some(actor),
        &context,
        &Entered {
            reported,
            red_fouls,
            black_fouls,
            expected: expected.or(input.version),
            via: "desk",
            resolution: "superseded",
        },
    )
    .await?;
    drop(conn);
    rounds::follow_last_round(pool, Some(actor), &context).await?;
    Ok(outcome)
}

/// A whole match forfeited.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForfeitInput {
    /// The team that forfeits: `red` (the team with Red on board 1), `black`, or `both`.
    pub forfeits: String,
    /// The versions of the match's games as last read, board 1 first (optional): a game
    /// changed meanwhile refuses the whole forfeit (409), compared after the row lock.
    #[serde(default)]
    pub versions: Option<Vec<i32>>,
}

/// Forfeits every board of a match for one team (or both), each board's result through the
/// one way in, in one transaction.
pub async fn forfeit_match(
    pool: &PgPool,
    actor: &Actor,
    board_id: Uuid,
    input: &ForfeitInput,
) -> Result<MatchView> {
    let mut tx = pool.begin().await?;
    let first = game_context(&mut tx, actor, board_id, 1).await?;
    let side = match input.forfeits.trim() {
        "red" => Some(Side::Red),
        "black" => Some(Side::Black),
        "both" => None,
        _ => return Err(Error::invalid("forfeits", m::TEAM_FORFEIT_SIDE.msg())),
    };
    let games = db::team::games_of_match(&mut *tx, board_id).await?;
    let red_team = db::team::board_red(&mut *tx, board_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BOARD))?;
    for g in &games {
        let forfeiting = side.map(|s| {
            let team = if s == Side::Red {
                red_team
            } else if g.red_entrant_id == red_team {
                g.black_entrant_id
            } else {
                g.red_entrant_id
            };
            team == g.red_entrant_id
        });
        let result = match forfeiting {
            Some(true) => GameResult::RedForfeits,
            Some(false) => GameResult::BlackForfeits,
            None => GameResult::DoubleForfeit,
        };
        let context = db::team::game_context(&mut *tx, board_id, g.number)
            .await?
            .ok_or(Error::NotFound(m::NOT_FOUND_GAME))?;
        rounds::record_result(
            &mut tx,
            Some(actor),
            &context,
            &Entered {
                reported: result,
                red_fouls: 0,
                black_fouls: 0,
                expected: input.versions.as_ref().and_then(|v| {
                    usize::try_from(g.number - 1)
                        .ok()
                        .and_then(|i| v.get(i).copied())
                }),
                via: "match_forfeit",
                resolution: "superseded",
            },
        )
        .await?;
    }
    tx.commit().await?;
    rounds::follow_last_round(pool, Some(actor), &first).await?;
    get_match(pool, Some(actor), board_id).await
}

/// The teams' rounds as the core's team standings read them (team `i`: the `i`-th entrant
/// of the state by starting number).
pub(crate) fn team_rounds(
    state: &SectionState,
    settings: &Settings,
    games: &[TeamGameRow],
) -> Vec<Vec<TeamRound>> {
    let t = &state.tournament;
    let index: HashMap<Uuid, usize> = t
        .entrants
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            state
                .entrant_by_no(e.start_no)
                .map(|row| (row.entrant_id, i))
        })
        .collect();
    let scoring = team_scoring(state);
    let game_points = game_scoring();
    let mut by_board: HashMap<Uuid, Vec<&TeamGameRow>> = HashMap::new();
    for g in games {
        by_board.entry(g.board_id).or_default().push(g);
    }
    let rounds = state.rounds.len();
    let mut out = vec![vec![TeamRound::default(); rounds]; t.entrants.len()];
    let mut seen = vec![vec![false; rounds]; t.entrants.len()];
    for b in &state.boards {
        let r = (b.round - 1) as usize;
        let Some(&red) = index.get(&b.red_entrant_id) else {
            continue;
        };
        if r >= rounds {
            continue;
        }
        seen[red][r] = true;
        let Some(black_id) = b.black_entrant_id else {
            out[red][r] = TeamRound {
                match_points: t.scoring.pairing_bye,
                game_points: settings.bye_game_points,
                ..TeamRound::default()
            };
            continue;
        };
        let Some(&black) = index.get(&black_id) else {
            continue;
        };
        seen[black][r] = true;
        let mine = by_board.get(&b.board_id).map_or(&[][..], Vec::as_slice);
        for (me, other, my_id) in [(red, black, b.red_entrant_id), (black, red, black_id)] {
            let mut round = TeamRound {
                opponent: Some(other),
                ..TeamRound::default()
            };
            for g in mine {
                let (r_code, b_code) = result_codes(g.result);
                let (code, other_code, colour) = if g.red_entrant_id == my_id {
                    (r_code, b_code, Side::Red)
                } else {
                    (b_code, r_code, Side::Black)
                };
                round.pending |= g.result.is_none();
                round.game_points += game_points.points(code);
                round.opponent_game_points += game_points.points(other_code);
                round.boards.push(BoardGame {
                    board: g.number as u32,
                    player: 0,
                    opponent: 0,
                    colour: Some(colour),
                    result: code,
                });
            }
            if !round.pending && !mine.is_empty() {
                round.match_points =
                    if round.is_forfeited() && round.game_points > round.opponent_game_points {
                        t.scoring.forfeit_win
                    } else if round.is_forfeited() {
                        Points::ZERO
                    } else {
                        scoring.match_points(round.game_points, round.opponent_game_points)
                    };
            }
            out[me][r] = round;
        }
    }
    // Rounds without a match: requested byes and absences, worth the section's points.
    for (i, e) in t.entrants.iter().enumerate() {
        for (r, round) in out[i].iter_mut().enumerate() {
            if seen[i][r] {
                continue;
            }
            if let Some(rec) = e.round(r as u32 + 1) {
                round.match_points = t.scoring.points(rec.result);
            }
        }
    }
    out
}

/// The section's match points as the core's team scoring.
pub(crate) fn team_scoring(state: &SectionState) -> TeamScoring {
    let s = &state.tournament.scoring;
    TeamScoring {
        match_win: s.win,
        match_draw: s.draw,
        match_loss: s.loss,
        game: game_scoring(),
    }
}

/// One team in the team standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamStandingRow {
    /// Rank (teams tied after the whole chain share it).
    pub rank: u32,
    /// The team.
    pub team_id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// Club, province or federation.
    pub club: Option<String>,
    /// Match points (场分).
    pub match_points: f64,
    /// Board (game) points (局分).
    pub board_points: f64,
    /// One value per key of `keys` (DE: the place inside the group it separated, 0 when
    /// not applied).
    pub tiebreaks: Vec<f64>,
    /// Some match of the team still has a board without a result.
    pub provisional: bool,
}

/// A team section's standings: match points, then the section's team chain.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TeamStandingsView {
    /// The chain after match points (FIDE C.07 names).
    pub keys: Vec<String>,
    /// Rounds with every result in.
    pub rounds_completed: i32,
    /// Teams in ranking order.
    pub rows: Vec<TeamStandingRow>,
}

fn number(value: &TiebreakValue) -> f64 {
    match value {
        TiebreakValue::Points(p) => p.tenths() as f64 / 10.0,
        TiebreakValue::Hundredths(h) => *h as f64 / 100.0,
        TiebreakValue::Count(c) => *c as f64,
        TiebreakValue::Position(p) => f64::from(*p),
        TiebreakValue::Scores(list) => list.first().map_or(0.0, |p| p.tenths() as f64 / 10.0),
    }
}

/// The team standings of a team section as the public sees them (published rounds).
pub async fn standings(pool: &PgPool, section_id: Uuid) -> Result<TeamStandingsView> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    if section.entry_type != EntryType::Team {
        return Err(Error::conflict(m::TEAM_NOT_TEAM_SECTION.msg()));
    }
    let settings = teams::settings(&mut conn, section_id).await?;
    let state = state::load_public(&mut conn, section).await?;
    let games = db::team::games_of_section(&mut *conn, section_id).await?;
    let rounds = team_rounds(&state, &settings, &games);
    let ranked = arbiter_core::teams::standings(&rounds, &settings.chain, &team_scoring(&state));
    let rows = ranked
        .rows
        .iter()
        .filter_map(|row| {
            let core = state.tournament.entrants.get(row.team)?;
            let e = state.entrant_by_no(core.start_no)?;
            Some(TeamStandingRow {
                rank: row.rank,
                team_id: e.entrant_id,
                start_no: e.start_no,
                name: e.name.clone(),
                club: e.club.clone(),
                match_points: row.match_points.tenths() as f64 / 10.0,
                board_points: row.game_points.tenths() as f64 / 10.0,
                tiebreaks: row.values.iter().map(number).collect(),
                provisional: row.provisional,
            })
        })
        .collect();
    Ok(TeamStandingsView {
        keys: ranked.keys.iter().map(|k| k.name().to_string()).collect(),
        rounds_completed: state
            .rounds
            .iter()
            .filter(|r| r.status == RoundStatus::Completed)
            .count() as i32,
        rows,
    })
}

/// One player in a board ranking.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardRankingRow {
    /// Rank on this board among the qualified (ties share it); `null` below the minimum.
    pub rank: Option<u32>,
    /// The player.
    pub player_id: Uuid,
    /// Name.
    pub name: String,
    /// The player's team.
    pub team_id: Uuid,
    /// Team name.
    pub team: String,
    /// Games played over the board on this board (forfeits are not games).
    pub games: u32,
    /// Points in those games (1 / ½ / 0).
    pub points: f64,
    /// Points per game, in percent (one decimal).
    pub percent: f64,
    /// Performance rating against rated opponents (FIDE B.02 8.1), when any was rated.
    pub performance: Option<i32>,
    /// Played at least the minimum number of games.
    pub qualified: bool,
}

/// The players of one board of the matches.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardRanking {
    /// Board of the match (1 = top board).
    pub board: u32,
    /// Qualified players first (by percentage, then games, points, performance), then the
    /// others by games and points.
    pub rows: Vec<BoardRankingRow>,
}

/// Individual board rankings for board prizes.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardRankings {
    /// Fewest games to qualify.
    pub min_games: u32,
    /// One ranking per board on which a game was played.
    pub boards: Vec<BoardRanking>,
}

/// Individual board rankings of a team section (published rounds), by
/// `arbiter_core::teams::boards`: each player's games played over the board on each board,
/// ranked among those with at least `min_games` games (default: two thirds of the rounds
/// paired, rounded up).
pub async fn board_rankings(
    pool: &PgPool,
    section_id: Uuid,
    min_games: Option<u32>,
) -> Result<BoardRankings> {
    use arbiter_core::teams::boards::{self, BoardRankingOptions, BoardResult};
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    if section.entry_type != EntryType::Team {
        return Err(Error::conflict(m::TEAM_NOT_TEAM_SECTION.msg()));
    }
    let state = state::load_public(&mut conn, section).await?;
    let shown: std::collections::HashSet<Uuid> = state.boards.iter().map(|b| b.board_id).collect();
    let games = db::team::games_of_section(&mut *conn, section_id).await?;
    let members = db::entrant::members(&mut *conn, section_id).await?;
    let paired = state.rounds.len() as u32;
    let min_games = min_games.unwrap_or((paired * 2).div_ceil(3)).min(99);
    let scoring = game_scoring();
    // Players as the core's numbers: 1, 2, … in the order first met.
    let mut players: Vec<(Uuid, Uuid)> = Vec::new();
    let mut number = |player: Uuid, team: Uuid| -> StartNo {
        match players.iter().position(|(p, _)| *p == player) {
            Some(i) => i as StartNo + 1,
            None => {
                players.push((player, team));
                players.len() as StartNo
            }
        }
    };
    let rating = |player: Option<Uuid>| {
        player
            .and_then(|p| members.iter().find(|m| m.player_id == p))
            .and_then(|m| m.rating)
            .and_then(|r| u32::try_from(r).ok())
    };
    let mut results = Vec::new();
    for g in games.iter().filter(|g| shown.contains(&g.board_id)) {
        let (red, black) = result_codes(g.result);
        for (player, team, code, opponent) in [
            (g.red_player_id, g.red_entrant_id, red, g.black_player_id),
            (
                g.black_player_id,
                g.black_entrant_id,
                black,
                g.red_player_id,
            ),
        ] {
            let Some(player) = player else { continue };
            if g.result.is_none() {
                continue;
            }
            results.push(BoardResult {
                player: number(player, team),
                board: g.number as u32,
                points: scoring.points(code),
                played: code.is_played(),
                opponent_rating: rating(opponent),
            });
        }
    }
    let ranked = boards::board_rankings(
        &results,
        &BoardRankingOptions {
            min_games: min_games.max(1),
            ..BoardRankingOptions::default()
        },
    );
    let row = |r: &boards::BoardRow, qualified: bool| {
        let (player, team) = players[r.player as usize - 1];
        BoardRankingRow {
            rank: qualified.then_some(r.rank),
            player_id: player,
            name: members
                .iter()
                .find(|m| m.player_id == player)
                .map(|m| m.name.clone())
                .unwrap_or_default(),
            team_id: team,
            team: state
                .entrant(team)
                .map(|e| e.name.clone())
                .unwrap_or_default(),
            games: r.games,
            points: r.points.tenths() as f64 / 10.0,
            percent: f64::from(r.per_mille) / 10.0,
            performance: r.performance,
            qualified,
        }
    };
    Ok(BoardRankings {
        min_games,
        boards: ranked
            .iter()
            .map(|b| BoardRanking {
                board: b.board,
                rows: b
                    .rows
                    .iter()
                    .map(|r| row(r, true))
                    .chain(b.below_minimum.iter().map(|r| row(r, false)))
                    .collect(),
            })
            .collect(),
    })
}
