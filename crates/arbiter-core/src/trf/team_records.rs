//! TRF team records (issue #41): a team section's teams, byes, forfeited matches, board
//! colours and match scoring, written after the players' `001` lines and read back.
//!
//! TRF-2026 layouts (columns 1-based, counted in characters; FIDE's TRF-2026 text is not in
//! this repository: the columns are the ones FIDE TEC's reference reader, TieBreakServer
//! `trf2json.py`, reads and its tests write, RULES.md §4.3):
//!
//! | record | columns |
//! |---|---|
//! | `310` team | 5–7 team pairing number, 9–40 name, (42–46 nickname, 48–53 strength: left blank), 55–60 match points, 62–67 game points, 69–71 rank, then the players' starting numbers in board order, 4 wide, at 74–77, 79–82, 84–87, … |
//! | `320` pairing-allocated bye, one per file | 5–8 match points of the bye, 10–13 its game points, then per round the team with the bye, 3 wide (`000`: none) at 15–17, 19–21, 23–25, … |
//! | `330` forfeited match | 5–6 the result (`+-` the first team won by forfeit, `-+` the second, `--` neither), 8–10 round, 12–14 the team with White (Red) on board 1, 16–18 the other |
//! | `352` board colours | from column 5, one letter per board: the colours of the team with White on board 1 (`WBWB…`: they alternate) |
//! | `362` match scoring | as `162`: symbol at 6, points at 7–10, further pairs at 15/16–19, 24/25–28, …; `W` `D` `L` match points of a won, drawn, lost match, `A` of a forfeited one, `P` of the pairing-allocated bye |
//!
//! TRF-16 keeps its `013` record (name at 5–36, players at 37–40, 42–45, …). `300` (a team
//! out of its board order) is never needed — a line-up keeps roster order — and `801`/`802`
//! (informative team records) are not written: their layout is not specified here.
//!
//! [`write_teams`] is what the server calls to export a team section; [`parse`](super::parse)
//! then [`team_section`] read it back, and [`teams`](super::teams) reads the rosters of
//! either `310` or `013` records.

use super::read::{digits, field, tokens};
use super::write::{one_decimal, pad_left, pad_right, push_line};
use crate::model::{Points, ResultCode, Side, StartNo, Tournament};
use crate::teams::{matches, standings, Team, TeamError, TeamKey, TeamRound, TeamScoring};
use serde::{Deserialize, Serialize};

/// Which team records to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TeamFormat {
    /// TRF-16: `013` records only.
    Trf16,
    /// TRF-2026: `352`, `362` before the players, `310`, `320`, `330` after them.
    #[default]
    Trf26,
}

/// A team section as its records carry it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamSection {
    /// One per team (`310`, or `013` in TRF-16, where only numbers, names and rosters are
    /// known), by team number.
    pub teams: Vec<TeamLine>,
    /// `352`: the colours of the team with White (Red) on board 1, board by board.
    pub board_colours: Vec<Side>,
    /// `362`: match points.
    pub match_scoring: Option<MatchScoring>,
    /// `320`: the pairing-allocated byes.
    pub pab: Option<TeamPab>,
    /// `330`: the matches forfeited as a whole, by round.
    pub forfeits: Vec<ForfeitedMatch>,
}

/// A team's `310` record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamLine {
    /// Team pairing number (1–999).
    pub number: u32,
    /// Name (at most 32 characters are written).
    pub name: String,
    /// Match points.
    pub match_points: Points,
    /// Game points.
    pub game_points: Points,
    /// Rank, when the section has results.
    pub rank: Option<u32>,
    /// Players' starting numbers in board order.
    pub roster: Vec<StartNo>,
}

/// Match points per kind of match (`362`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchScoring {
    /// `W`: a won match.
    pub win: Points,
    /// `D`: a drawn match.
    pub draw: Points,
    /// `L`: a lost match.
    pub loss: Points,
    /// `A`: a match lost by forfeit, an absence.
    pub absent: Points,
    /// `P`: the pairing-allocated bye.
    pub pairing_bye: Points,
}

impl MatchScoring {
    /// The match points of `scoring` (a bye is worth a won match, a forfeit a lost one).
    pub fn of(scoring: &TeamScoring) -> MatchScoring {
        MatchScoring {
            win: scoring.match_win,
            draw: scoring.match_draw,
            loss: scoring.match_loss,
            absent: scoring.match_loss,
            pairing_bye: scoring.match_win,
        }
    }
}

/// The pairing-allocated byes (`320`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamPab {
    /// Match points of the bye.
    pub match_points: Points,
    /// Game points of the bye.
    pub game_points: Points,
    /// Per round (index 0 is round 1): the team number with the bye.
    pub teams: Vec<Option<u32>>,
}

/// Who won a match forfeited as a whole (`330`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForfeitWinner {
    /// `+-`: the team with White on board 1.
    White,
    /// `-+`: the other team.
    Black,
    /// `--`: neither (both lost by forfeit).
    Neither,
}

impl ForfeitWinner {
    fn letters(self) -> &'static str {
        match self {
            ForfeitWinner::White => "+-",
            ForfeitWinner::Black => "-+",
            ForfeitWinner::Neither => "--",
        }
    }
}

/// A match forfeited as a whole (`330`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForfeitedMatch {
    /// Round, 1-based.
    pub round: u32,
    /// Team number with White (Red) on board 1.
    pub white: u32,
    /// The other team.
    pub black: u32,
    /// Who won it.
    pub winner: ForfeitWinner,
}

/// What a team section is exported from: the teams in team-number order (team `i` has number
/// `i + 1`, as in [`crate::teams::pairing`]), the boards of a match, the points and the
/// ranking chain (for the rank column).
#[derive(Clone, Copy, Debug)]
pub struct TeamExport<'a> {
    /// Teams, team number `i + 1` at index `i`.
    pub teams: &'a [Team],
    /// Boards per match (the length of `352`).
    pub boards: u32,
    /// Match and game points.
    pub scoring: &'a TeamScoring,
    /// The tie-break chain after match points (ranks in `310`).
    pub chain: &'a [TeamKey],
}

/// Why team records cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TeamRecordError {
    /// Occurs when a field of a team record is not what its columns hold.
    #[error("record {code}, columns {columns}: {text:?} is not valid")]
    Field {
        /// The record code.
        code: String,
        /// The columns of the field (`"5-7"`).
        columns: String,
        /// What was there.
        text: String,
    },
    /// Occurs when two `310` records have one team number.
    #[error("team number {0} has two 310 records")]
    DuplicateTeam(u32),
    /// Occurs when a `320` or `330` record names a team number no `310` record has.
    #[error("record {code} names team {team}, which has no 310 record")]
    UnknownTeam {
        /// The record code.
        code: String,
        /// The team number.
        team: u32,
    },
    /// Occurs when a record that may appear once appears twice (`320`, `352`, `362`).
    #[error("record {0} appears twice")]
    Repeated(String),
}

/// The team section's records, computed from the players' games: match and game points and
/// ranks from [`matches`] and [`standings`], the pairing-allocated byes, the matches forfeited
/// as a whole, alternating board colours, the match scoring.
pub fn team_records(players: &Tournament, export: &TeamExport) -> Result<TeamSection, TeamError> {
    let rounds = matches(players, export.teams, export.scoring)?;
    let played = rounds.iter().any(|r| !r.is_empty());
    let ranks: Vec<Option<u32>> = if played {
        let table = standings(&rounds, export.chain, export.scoring);
        let mut ranks = vec![None; export.teams.len()];
        for row in &table.rows {
            ranks[row.team] = Some(row.rank);
        }
        ranks
    } else {
        vec![None; export.teams.len()]
    };
    let teams = export
        .teams
        .iter()
        .zip(&rounds)
        .enumerate()
        .map(|(i, (team, list))| TeamLine {
            number: i as u32 + 1,
            name: team.name.clone(),
            match_points: list.iter().map(|m| m.match_points).sum(),
            game_points: list.iter().map(|m| m.game_points).sum(),
            rank: ranks[i],
            roster: team.roster.clone(),
        })
        .collect();
    Ok(TeamSection {
        teams,
        board_colours: crate::teams::roster::board_colours(Side::Red, export.boards),
        match_scoring: Some(MatchScoring::of(export.scoring)),
        pab: pab(&rounds),
        forfeits: forfeits(&rounds),
    })
}

fn pab(rounds: &[Vec<TeamRound>]) -> Option<TeamPab> {
    let count = rounds.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = TeamPab {
        teams: vec![None; count],
        ..TeamPab::default()
    };
    let mut any = false;
    for r in 0..count {
        for (i, list) in rounds.iter().enumerate() {
            let Some(m) = list.get(r) else { continue };
            if m.bye == Some(ResultCode::PairingBye) && out.teams[r].is_none() {
                if !any {
                    out.match_points = m.match_points;
                    out.game_points = m.game_points;
                    any = true;
                }
                out.teams[r] = Some(i as u32 + 1);
            }
        }
    }
    any.then_some(out)
}

fn forfeits(rounds: &[Vec<TeamRound>]) -> Vec<ForfeitedMatch> {
    let count = rounds.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = Vec::new();
    for r in 0..count {
        for (i, list) in rounds.iter().enumerate() {
            let Some(m) = list.get(r) else { continue };
            let Some(j) = m.opponent else { continue };
            // The team with Red on board 1 tells the match (else the lower number does).
            let white = match m.boards.first().and_then(|b| b.colour) {
                Some(Side::Red) => true,
                Some(Side::Black) => false,
                None => i < j,
            };
            if !white || m.pending || !m.is_forfeited() {
                continue;
            }
            let all = |code: ResultCode| m.boards.iter().all(|b| b.result == code);
            let theirs = rounds.get(j).and_then(|l| l.get(r));
            let all_theirs = |code: ResultCode| {
                theirs.is_some_and(|t| {
                    !t.boards.is_empty() && t.boards.iter().all(|b| b.result == code)
                })
            };
            let winner = if all(ResultCode::ForfeitWin) {
                ForfeitWinner::White
            } else if all(ResultCode::ForfeitLoss) && all_theirs(ResultCode::ForfeitWin) {
                ForfeitWinner::Black
            } else if all(ResultCode::ForfeitLoss) && all_theirs(ResultCode::ForfeitLoss) {
                ForfeitWinner::Neither
            } else {
                // Boards forfeited both ways: the players' records tell it board by board.
                continue;
            };
            out.push(ForfeitedMatch {
                round: r as u32 + 1,
                white: i as u32 + 1,
                black: j as u32 + 1,
                winner,
            });
        }
    }
    out
}

/// Writes a team section: the players' file ([`super::write`]) with the team records of
/// `format`. TRF-2026: `082`, `352` and `362` with the headers, then after the players'
/// lines one `310` per team, `320` (when a team had a pairing-allocated bye) and one `330`
/// per match forfeited as a whole. TRF-16: `082` and one `013` per team.
pub fn write_teams(
    players: &Tournament,
    export: &TeamExport,
    format: TeamFormat,
) -> Result<String, TeamError> {
    let section = team_records(players, export)?;
    let mut head = players.clone();
    head.headers
        .retain(|(code, _)| !TEAM_CODES.contains(&code.as_str()));
    head.headers
        .push(("082".into(), section.teams.len().to_string()));
    if format == TeamFormat::Trf26 {
        head.headers.extend(header_records(&section));
    }
    let mut out = super::write(&head);
    match format {
        TeamFormat::Trf16 => {
            for team in &section.teams {
                let mut line = String::from("013 ");
                pad_right(&mut line, &team.name, 32);
                for (k, p) in team.roster.iter().enumerate() {
                    if k > 0 {
                        line.push(' ');
                    }
                    pad_left(&mut line, &p.to_string(), 4);
                }
                push_line(&mut out, &line);
            }
        }
        TeamFormat::Trf26 => {
            for line in body_records(&section) {
                push_line(&mut out, &line);
            }
        }
    }
    Ok(out)
}

/// The team records a players' file may hold; [`write_teams`] replaces them.
const TEAM_CODES: [&str; 10] = [
    "013", "082", "300", "310", "320", "330", "352", "362", "801", "802",
];

/// `352` and `362`, as (code, text after column 4) header pairs.
fn header_records(section: &TeamSection) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if !section.board_colours.is_empty() {
        let letters: String = section
            .board_colours
            .iter()
            .map(|s| match s {
                Side::Red => 'W',
                Side::Black => 'B',
            })
            .collect();
        out.push(("352".into(), letters));
    }
    if let Some(s) = section.match_scoring {
        // As `162`: the symbol at column 6, points at 7–10, the next pair 9 columns on.
        let mut text = String::new();
        for (symbol, points) in [
            ('W', s.win),
            ('D', s.draw),
            ('L', s.loss),
            ('A', s.absent),
            ('P', s.pairing_bye),
        ] {
            text.push(' ');
            text.push(symbol);
            pad_left(&mut text, &one_decimal(points), 4);
            text.push_str("   ");
        }
        out.push(("362".into(), text.trim_end().to_string()));
    }
    out
}

/// The `310`, `320` and `330` lines.
fn body_records(section: &TeamSection) -> Vec<String> {
    let mut out = Vec::new();
    for team in &section.teams {
        let mut line = String::from("310 ");
        pad_left(&mut line, &team.number.to_string(), 3);
        line.push(' ');
        pad_right(&mut line, &team.name, 32);
        // 41 blank, 42–46 nickname, 47 blank, 48–53 strength, 54 blank: all left blank.
        line.push_str(&" ".repeat(14));
        pad_left(&mut line, &one_decimal(team.match_points), 6);
        line.push(' ');
        pad_left(&mut line, &one_decimal(team.game_points), 6);
        line.push(' ');
        pad_left(
            &mut line,
            &team.rank.map(|r| r.to_string()).unwrap_or_default(),
            3,
        );
        line.push_str("  ");
        for (k, p) in team.roster.iter().enumerate() {
            if k > 0 {
                line.push(' ');
            }
            pad_left(&mut line, &p.to_string(), 4);
        }
        out.push(line);
    }
    if let Some(pab) = &section.pab {
        let mut line = String::from("320 ");
        pad_left(&mut line, &one_decimal(pab.match_points), 4);
        line.push(' ');
        pad_left(&mut line, &one_decimal(pab.game_points), 4);
        for team in &pab.teams {
            line.push_str(&format!(" {:03}", team.unwrap_or(0)));
        }
        out.push(line);
    }
    for f in &section.forfeits {
        out.push(format!(
            "330 {} {:>3} {:>3} {:>3}",
            f.winner.letters(),
            f.round,
            f.white,
            f.black
        ));
    }
    out
}

/// Reads the team records of a parsed file ([`super::parse`] keeps them in
/// [`Tournament::headers`]): `310` (or, without them, `013` with numbers by position),
/// `320`, `330`, `352`, `362`. `None` when the file has no team record.
pub fn team_section(t: &Tournament) -> Result<Option<TeamSection>, TeamRecordError> {
    let mut section = TeamSection::default();
    let mut any = false;
    let mut seen_once: Vec<&str> = Vec::new();
    for (code, rest) in &t.headers {
        // `chars[c - 1]` is column c, as on the line.
        let chars: Vec<char> = format!("{code} {rest}").chars().collect();
        match code.as_str() {
            "310" => {
                any = true;
                let number = number(&chars, code, 5, 7)?;
                if section.teams.iter().any(|team| team.number == number) {
                    return Err(TeamRecordError::DuplicateTeam(number));
                }
                let rank = field(&chars, 69, 71);
                section.teams.push(TeamLine {
                    number,
                    name: field(&chars, 9, 40).trim().to_string(),
                    match_points: points(&chars, code, 55, 60)?,
                    game_points: points(&chars, code, 62, 67)?,
                    rank: if rank.trim().is_empty() {
                        None
                    } else {
                        Some(number_in(&rank, code, 69, 71)?)
                    },
                    roster: roster(&chars, code, 73)?,
                });
            }
            "320" | "352" | "362" if seen_once.contains(&code.as_str()) => {
                return Err(TeamRecordError::Repeated(code.clone()));
            }
            "320" => {
                any = true;
                seen_once.push("320");
                let mut teams = Vec::new();
                let mut column = 15;
                while column <= chars.len() {
                    let text = field(&chars, column, column + 2);
                    let team = number_in(&text, code, column, column + 2)?;
                    teams.push((team > 0).then_some(team));
                    column += 4;
                }
                section.pab = Some(TeamPab {
                    match_points: points(&chars, code, 5, 8)?,
                    game_points: points(&chars, code, 10, 13)?,
                    teams,
                });
            }
            "330" => {
                any = true;
                let letters = field(&chars, 5, 6);
                let winner = match letters.as_str() {
                    "+-" | "10" | "WL" | "WZ" => ForfeitWinner::White,
                    "-+" | "01" | "LW" | "ZW" => ForfeitWinner::Black,
                    "--" | "00" | "LL" | "ZZ" => ForfeitWinner::Neither,
                    _ => return Err(field_error(code, 5, 6, &letters)),
                };
                section.forfeits.push(ForfeitedMatch {
                    round: number(&chars, code, 8, 10)?,
                    white: number(&chars, code, 12, 14)?,
                    black: number(&chars, code, 16, 18)?,
                    winner,
                });
            }
            "352" => {
                any = true;
                seen_once.push("352");
                section.board_colours = rest
                    .trim()
                    .chars()
                    .enumerate()
                    .map(|(k, c)| match c.to_ascii_uppercase() {
                        'W' => Ok(Side::Red),
                        'B' => Ok(Side::Black),
                        _ => Err(field_error(code, k + 5, k + 5, &c.to_string())),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "362" => {
                any = true;
                seen_once.push("362");
                section.match_scoring = Some(match_scoring(&chars, code)?);
            }
            _ => {}
        }
    }
    if section.teams.is_empty() {
        section.teams = super::teams(t)
            .into_iter()
            .enumerate()
            .map(|(i, team)| TeamLine {
                number: i as u32 + 1,
                name: team.name,
                roster: team.roster,
                ..TeamLine::default()
            })
            .collect();
        any |= !section.teams.is_empty();
    }
    section.teams.sort_by_key(|team| team.number);
    let known = |team: u32| section.teams.iter().any(|line| line.number == team);
    if let Some(team) = section
        .pab
        .iter()
        .flat_map(|p| p.teams.iter().flatten())
        .find(|&&team| !known(team))
    {
        return Err(TeamRecordError::UnknownTeam {
            code: "320".into(),
            team: *team,
        });
    }
    if let Some(team) = section
        .forfeits
        .iter()
        .flat_map(|f| [f.white, f.black])
        .find(|&team| !known(team))
    {
        return Err(TeamRecordError::UnknownTeam {
            code: "330".into(),
            team,
        });
    }
    Ok(any.then_some(section))
}

/// The rosters of `310` records, by team number (for [`super::teams`]).
pub(super) fn rosters_310(t: &Tournament) -> Vec<(u32, Team)> {
    let mut out: Vec<(u32, Team)> = t
        .headers
        .iter()
        .filter(|(code, _)| code == "310")
        .map(|(code, rest)| {
            let chars: Vec<char> = format!("{code} {rest}").chars().collect();
            let number = digits(field(&chars, 5, 7).trim()).unwrap_or(0);
            let roster = tokens(&chars, 73)
                .into_iter()
                .filter_map(|(_, token)| digits(&token).filter(|&n| n > 0))
                .collect();
            (
                number,
                Team {
                    name: field(&chars, 9, 40).trim().to_string(),
                    roster,
                },
            )
        })
        .collect();
    out.sort_by_key(|(number, _)| *number);
    out
}

fn field_error(code: &str, from: usize, to: usize, text: &str) -> TeamRecordError {
    TeamRecordError::Field {
        code: code.to_string(),
        columns: format!("{from}-{to}"),
        text: text.trim().to_string(),
    }
}

fn number(chars: &[char], code: &str, from: usize, to: usize) -> Result<u32, TeamRecordError> {
    let text = field(chars, from, to);
    match digits(text.trim()) {
        Some(n) if n > 0 => Ok(n),
        _ => Err(field_error(code, from, to, &text)),
    }
}

/// A number that may be 0 (`320`'s "no team", a rank).
fn number_in(text: &str, code: &str, from: usize, to: usize) -> Result<u32, TeamRecordError> {
    digits(text.trim()).ok_or_else(|| field_error(code, from, to, text))
}

fn points(chars: &[char], code: &str, from: usize, to: usize) -> Result<Points, TeamRecordError> {
    let text = field(chars, from, to);
    if text.trim().is_empty() {
        return Ok(Points::ZERO);
    }
    Points::parse(&text).ok_or_else(|| field_error(code, from, to, &text))
}

fn roster(chars: &[char], code: &str, skip: usize) -> Result<Vec<StartNo>, TeamRecordError> {
    tokens(chars, skip)
        .into_iter()
        .map(|(col, token)| {
            digits(&token)
                .filter(|&n| n > 0)
                .ok_or_else(|| field_error(code, col, col + token.chars().count() - 1, &token))
        })
        .collect()
}

fn match_scoring(chars: &[char], code: &str) -> Result<MatchScoring, TeamRecordError> {
    let mut s = MatchScoring::of(&TeamScoring::default());
    let mut pab = None;
    let mut absent = None;
    let mut column = 6;
    while column <= chars.len() {
        let symbol = chars[column - 1];
        if !symbol.is_whitespace() {
            let value = points(chars, code, column + 1, column + 4)?;
            match symbol.to_ascii_uppercase() {
                'W' => s.win = value,
                'D' => s.draw = value,
                'L' => s.loss = value,
                'A' => absent = Some(value),
                'P' => pab = Some(value),
                'X' => {}
                _ => return Err(field_error(code, column, column, &symbol.to_string())),
            }
        }
        column += 9;
    }
    // As in `162`: the bye defaults to a win, an absence to nothing.
    s.pairing_bye = pab.unwrap_or(s.win);
    s.absent = absent.unwrap_or(Points::ZERO);
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Entrant, RoundRecord};
    use crate::pairing::round_robin::berger_schedule;
    use proptest::prelude::*;

    fn players(n: u32) -> Tournament {
        Tournament {
            name: "Team event".into(),
            entrants: (1..=n)
                .map(|no| Entrant {
                    start_no: no,
                    name: format!("Player {no}"),
                    ..Entrant::default()
                })
                .collect(),
            ..Tournament::default()
        }
    }

    fn push(t: &mut Tournament, no: StartNo, round: u32, record: RoundRecord) {
        let e = &mut t.entrants[no as usize - 1];
        e.rounds
            .resize(round as usize - 1, RoundRecord::bye(ResultCode::ZeroBye));
        e.rounds.push(record);
    }

    /// Plays one match: `results[k]` is board k+1's result for the player of `red_team`'s
    /// line-up on it (the board colours alternate, `red_team` Red on board 1).
    fn play_match(
        t: &mut Tournament,
        round: u32,
        red_team: &[StartNo],
        black_team: &[StartNo],
        results: &[ResultCode],
    ) {
        let boards = crate::teams::pairing::match_boards(red_team, black_team);
        for (k, (board, &result)) in boards.iter().zip(results).enumerate() {
            let red_result = if k % 2 == 0 { result } else { opposite(result) };
            push(
                t,
                board.red,
                round,
                RoundRecord::game(board.black, Side::Red, red_result),
            );
            push(
                t,
                board.black,
                round,
                RoundRecord::game(board.red, Side::Black, opposite(red_result)),
            );
        }
    }

    fn opposite(r: ResultCode) -> ResultCode {
        match r {
            ResultCode::Win => ResultCode::Loss,
            ResultCode::Loss => ResultCode::Win,
            ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
            ResultCode::ForfeitLoss => ResultCode::ForfeitWin,
            other => other,
        }
    }

    /// Three teams of two boards (team 3 with a reserve, player 7): round 1 team 1 beats
    /// team 2 1½–½, team 3 has the bye; round 2 team 3 (Red on board 1) wins against team 1
    /// by forfeit on both boards, team 2 has the bye.
    fn three_teams() -> (Tournament, Vec<Team>) {
        let mut t = players(7);
        let teams = vec![
            Team {
                name: "Red Dragons 紅龍".into(),
                roster: vec![1, 2],
            },
            Team {
                name: "Blue".into(),
                roster: vec![3, 4],
            },
            Team {
                name: "Green".into(),
                roster: vec![5, 6, 7],
            },
        ];
        play_match(
            &mut t,
            1,
            &[1, 2],
            &[3, 4],
            &[ResultCode::Win, ResultCode::Draw],
        );
        push(&mut t, 5, 1, RoundRecord::bye(ResultCode::PairingBye));
        push(&mut t, 6, 1, RoundRecord::bye(ResultCode::PairingBye));
        play_match(
            &mut t,
            2,
            &[5, 6],
            &[1, 2],
            &[ResultCode::ForfeitWin, ResultCode::ForfeitWin],
        );
        push(&mut t, 3, 2, RoundRecord::bye(ResultCode::PairingBye));
        push(&mut t, 4, 2, RoundRecord::bye(ResultCode::PairingBye));
        (t, teams)
    }

    fn export<'a>(teams: &'a [Team], scoring: &'a TeamScoring) -> TeamExport<'a> {
        TeamExport {
            teams,
            boards: 2,
            scoring,
            chain: &[TeamKey::Gpts],
        }
    }

    #[test]
    fn trf26_team_records_have_their_columns() {
        let (t, teams) = three_teams();
        let scoring = TeamScoring::default();
        let text = write_teams(&t, &export(&teams, &scoring), TeamFormat::Trf26).expect("write");
        let lines: Vec<&str> = text.lines().collect();
        let team_lines: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| ["082", "310", "320", "330", "352", "362"].contains(&&l[..3]))
            .collect();
        // Team 1: 2 match points (the win), 1½ game points; team 3: a bye (2, 2) and the
        // forfeit win (2, 2): 4 and 4, first; team 2: its bye 2 + ½, second on game points.
        assert_eq!(
            team_lines,
            [
                "082 3",
                "352 WB",
                "362  W 2.0    D 1.0    L 0.0    A 0.0    P 2.0",
                "310   1 Red Dragons 紅龍                                   2.0    1.5   3     1    2",
                "310   2 Blue                                             2.0    2.5   2     3    4",
                "310   3 Green                                            4.0    4.0   1     5    6    7",
                "320  2.0  2.0 003 002",
                "330 +-   2   3   1",
            ]
        );
        // Columns by character: the name at 9–40, match points at 55–60, rank at 69–71,
        // the first player at 74–77.
        let first: Vec<char> = team_lines[3].chars().collect();
        let at = |from: usize, to: usize| first[from - 1..to].iter().collect::<String>();
        assert_eq!(at(9, 40).trim_end(), "Red Dragons 紅龍");
        assert_eq!(at(55, 60), "   2.0");
        assert_eq!(at(62, 67), "   1.5");
        assert_eq!(at(69, 71), "  3");
        assert_eq!(at(74, 77), "   1");
        assert_eq!(at(79, 82), "   2");
        // The records sit after the players' lines, the headers before.
        let last_player = lines
            .iter()
            .rposition(|l| l.starts_with("001"))
            .expect("001");
        let first_team = lines
            .iter()
            .position(|l| l.starts_with("310"))
            .expect("310");
        assert!(first_team > last_player);
        assert!(lines.iter().position(|l| l.starts_with("352")) < Some(last_player));
    }

    #[test]
    fn trf26_team_records_read_back() {
        let (t, teams) = three_teams();
        let scoring = TeamScoring::default();
        let export = export(&teams, &scoring);
        let text = write_teams(&t, &export, TeamFormat::Trf26).expect("write");
        let parsed = crate::trf::parse(&text).expect("parses");
        assert_eq!(crate::trf::teams(&parsed), teams);
        let expected = team_records(&t, &export).expect("records");
        assert_eq!(team_section(&parsed), Ok(Some(expected.clone())));
        assert_eq!(
            expected.forfeits,
            [ForfeitedMatch {
                round: 2,
                white: 3,
                black: 1,
                winner: ForfeitWinner::White
            }]
        );
        assert_eq!(
            expected.pab,
            Some(TeamPab {
                match_points: Points::whole(2),
                game_points: Points::whole(2),
                teams: vec![Some(3), Some(2)],
            })
        );
        // The games read back the same.
        assert_eq!(
            matches(&parsed, &teams, &scoring),
            matches(&t, &teams, &scoring)
        );
        // Writing the parsed file again gives the same text (its team records replaced,
        // not doubled).
        assert_eq!(
            write_teams(&parsed, &export, TeamFormat::Trf26).expect("write"),
            text
        );
    }

    #[test]
    fn trf16_keeps_013_records() {
        let (t, teams) = three_teams();
        let scoring = TeamScoring::default();
        let text = write_teams(&t, &export(&teams, &scoring), TeamFormat::Trf16).expect("write");
        let team_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("013")).collect();
        assert_eq!(
            team_lines,
            [
                "013 Red Dragons 紅龍                     1    2",
                "013 Blue                               3    4",
                "013 Green                              5    6    7",
            ]
        );
        assert!(!text
            .lines()
            .any(|l| l.starts_with("310") || l.starts_with("352")));
        let parsed = crate::trf::parse(&text).expect("parses");
        assert_eq!(crate::trf::teams(&parsed), teams);
        let section = team_section(&parsed).expect("reads").expect("has teams");
        assert_eq!(section.teams[2].number, 3);
        assert_eq!(section.teams[2].roster, [5, 6, 7]);
    }

    #[test]
    fn records_as_the_reference_reader_writes_them() {
        // Lines in the layout of TieBreakServer's fixtures and tests.
        let t = Tournament {
            headers: vec![
                (
                    "310".into(),
                    "  1 Team 1                                   2285   14.0   13.5   1     1    2"
                        .into(),
                ),
                (
                    "310".into(),
                    "  2 Team 2                                   2065    9.0   10.5   3  1001 1002"
                        .into(),
                ),
                ("320".into(), " 1.0  1.0 000 000 002".into()),
                ("330".into(), "-+   2   1   2".into()),
                ("352".into(), "WB".into()),
                ("362".into(), " W 2.0    D 1.0".into()),
            ],
            ..Tournament::default()
        };
        let section = team_section(&t).expect("reads").expect("teams");
        assert_eq!(section.teams.len(), 2);
        let one = &section.teams[0];
        assert_eq!(
            (
                one.number,
                one.name.as_str(),
                one.match_points,
                one.game_points
            ),
            (1, "Team 1", Points(140), Points(135))
        );
        assert_eq!((one.rank, one.roster.clone()), (Some(1), vec![1, 2]));
        assert_eq!(section.teams[1].roster, [1001, 1002]);
        assert_eq!(
            section.pab,
            Some(TeamPab {
                match_points: Points::whole(1),
                game_points: Points::whole(1),
                teams: vec![None, None, Some(2)],
            })
        );
        assert_eq!(section.forfeits[0].winner, ForfeitWinner::Black);
        assert_eq!(section.board_colours, [Side::Red, Side::Black]);
        let s = section.match_scoring.expect("362");
        assert_eq!((s.win, s.draw, s.loss), (Points(20), Points(10), Points(0)));
        assert_eq!((s.pairing_bye, s.absent), (Points(20), Points(0)));
        assert_eq!(crate::trf::teams(&t)[1].roster, [1001, 1002]);
    }

    #[test]
    fn bad_team_records_say_what_is_wrong() {
        let with = |headers: &[(&str, &str)]| Tournament {
            headers: headers
                .iter()
                .map(|(c, r)| (c.to_string(), r.to_string()))
                .collect(),
            ..Tournament::default()
        };
        let team = |n: u32| format!("{n:>3} T{n}");
        assert_eq!(
            team_section(&with(&[("310", &team(1)), ("310", &team(1))])),
            Err(TeamRecordError::DuplicateTeam(1))
        );
        assert_eq!(
            team_section(&with(&[("310", &team(1)), ("330", "+-   1   1   4")])),
            Err(TeamRecordError::UnknownTeam {
                code: "330".into(),
                team: 4
            })
        );
        assert_eq!(
            team_section(&with(&[("310", &team(1)), ("330", "x+   1   1   4")])),
            Err(TeamRecordError::Field {
                code: "330".into(),
                columns: "5-6".into(),
                text: "x+".into()
            })
        );
        assert_eq!(
            team_section(&with(&[("352", "WB"), ("352", "WB")])),
            Err(TeamRecordError::Repeated("352".into()))
        );
        assert_eq!(team_section(&Tournament::default()), Ok(None));
        // A 310 record naming a player the file does not have is refused by the parser.
        let text = "001    1      A                                                                 0.0\n\
                    310   1 T1                                                                  1    9\n";
        let error = crate::trf::parse(text).expect_err("player 9 is unknown");
        assert_eq!(error.kind, crate::trf::TrfErrorKind::UnknownPlayer(9));
        assert_eq!((error.line, error.column), (2, 82));
    }

    /// A random team section: `n` teams of `boards` boards (and a reserve on odd teams)
    /// playing `rounds` rounds of a round robin, with results, whole-match forfeits and the
    /// byes of an odd field.
    fn section() -> impl Strategy<Value = (Tournament, Vec<Team>, u32)> {
        (3u32..=8, 2u32..=4)
            .prop_flat_map(|(n, boards)| {
                let names = proptest::collection::vec(
                    "[A-Za-z0-9甲乙丙丁]{1,12}( [A-Za-z象棋]{1,12})?",
                    n as usize,
                );
                let rounds = 0..=(n - 1 + n % 2).min(5);
                let results = proptest::collection::vec(0u8..9, 64);
                (Just(n), Just(boards), names, rounds, results)
            })
            .prop_map(|(n, boards, names, rounds, results)| {
                let mut next = 1;
                let teams: Vec<Team> = names
                    .into_iter()
                    .enumerate()
                    .map(|(i, name)| {
                        let size = boards + (i as u32 % 2);
                        let roster = (next..next + size).collect();
                        next += size;
                        Team { name, roster }
                    })
                    .collect();
                let mut t = players(next - 1);
                let schedule = berger_schedule(n, false).expect("schedule");
                let mut draw = results.into_iter().cycle();
                for (r, pairing) in schedule.iter().take(rounds as usize).enumerate() {
                    let round = r as u32 + 1;
                    for m in &pairing.boards {
                        let red = &teams[m.red as usize - 1].roster[..boards as usize];
                        let black = &teams[m.black as usize - 1].roster[..boards as usize];
                        let kind = draw.next().unwrap_or(0);
                        let results: Vec<ResultCode> = (0..boards)
                            .map(|_| match (kind, draw.next().unwrap_or(0)) {
                                (0, _) => ResultCode::ForfeitWin,
                                (1, _) => ResultCode::ForfeitLoss,
                                (_, 0..=2) => ResultCode::Win,
                                (_, 3..=5) => ResultCode::Draw,
                                (_, 6..=7) => ResultCode::Loss,
                                _ => ResultCode::ForfeitWin,
                            })
                            .collect();
                        play_match(&mut t, round, red, black, &results);
                    }
                    if let Some(bye) = pairing.bye {
                        for &p in &teams[bye as usize - 1].roster[..boards as usize] {
                            push(&mut t, p, round, RoundRecord::bye(ResultCode::PairingBye));
                        }
                    }
                }
                (t, teams, boards)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// What the writer writes, the reader reads: rosters, the team records and the games.
        #[test]
        fn team_records_round_trip((t, teams, boards) in section()) {
            let scoring = TeamScoring::default();
            let chain = [TeamKey::Gpts, TeamKey::BhMp];
            let export = TeamExport { teams: &teams, boards, scoring: &scoring, chain: &chain };
            for format in [TeamFormat::Trf26, TeamFormat::Trf16] {
                let text = write_teams(&t, &export, format).expect("write");
                let parsed = crate::trf::parse(&text).expect("the written file parses");
                prop_assert_eq!(&crate::trf::teams(&parsed), &teams);
                prop_assert_eq!(
                    matches(&parsed, &teams, &scoring),
                    matches(&t, &teams, &scoring)
                );
                let section = team_section(&parsed).expect("reads").expect("teams");
                if format == TeamFormat::Trf26 {
                    prop_assert_eq!(section, team_records(&t, &export).expect("records"));
                } else {
                    prop_assert_eq!(section.teams.len(), teams.len());
                }
            }
        }
    }
}
