//! Reading TRF text into the model. Every field is read by **character** column; nothing here
//! indexes bytes, so no input can make it panic.

use super::{HeaderProblem, TrfError, TrfErrorKind};
use crate::model::{
    Acceleration, Entrant, ForbiddenPairs, Points, ResultCode, RoundRecord, Scoring, Side, StartNo,
    Tournament,
};
use std::collections::BTreeMap;

/// Highest round number a header may name (`240`, `250`, `260`): keeps a malformed file from
/// making us allocate millions of empty rounds.
const MAX_ROUND: u32 = 999;

/// Parses a TRF-16 / TRF-26 / TRF(x) file (LF, CRLF or CR line ends, UTF-8, optional BOM).
///
/// Player lines `001` become [`Entrant`]s sorted by starting number; `012` is the name;
/// `142`/`XXR`, `152`/`XXC`, `162`/`XXS`/`BB?`, `250`/`XXA` and `260`/`XXP` fill the matching
/// fields; `240` and `XXZ` byes become bye records in that round's column (`XXZ` is for the
/// round to be paired, [`Tournament::rounds_played`] + 1). Any other line is kept verbatim in
/// [`Tournament::headers`].
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut t = Tournament::default();
    let mut scoring = ScoringBuilder::default();
    let mut entrants: Vec<(usize, Entrant)> = Vec::new();
    let mut opponent_refs: Vec<(usize, usize, StartNo)> = Vec::new();
    let mut deferred: Vec<(usize, Vec<char>)> = Vec::new();

    for (index, raw) in lines(text).into_iter().enumerate() {
        let number = index + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let chars: Vec<char> = raw.chars().collect();
        let code: String = chars.iter().take(3).collect();
        // Every record starts with a three-character code followed by a blank (column 4).
        if code.chars().count() < 3 || code.chars().any(char::is_whitespace) {
            return Err(error(number, 1, TrfErrorKind::MalformedLine));
        }
        if chars.get(3).is_some_and(|c| !c.is_whitespace()) {
            return Err(error(number, 4, TrfErrorKind::MalformedLine));
        }
        let rest = text_after_col4(&chars);
        match code.as_str() {
            "001" => {
                let (entrant, refs) = read_player(number, &chars)?;
                opponent_refs.extend(refs.into_iter().map(|(col, opp)| (number, col, opp)));
                entrants.push((number, entrant));
            }
            "012" => t.name = rest,
            "142" | "XXR" => t.rounds_total = Some(read_whole(number, 5, &code, &rest)?),
            "152" => {
                t.initial_colour = Some(match rest.trim().chars().next() {
                    Some('W' | 'w') => Side::Red,
                    Some('B' | 'b') => Side::Black,
                    _ => return Err(header_error(number, 5, &code, HeaderProblem::ExpectedWOrB)),
                })
            }
            "XXC" => {
                let mut others = Vec::new();
                for (_, token) in tokens(&chars, 4) {
                    match token.to_ascii_lowercase().as_str() {
                        "white1" => t.initial_colour = Some(Side::Red),
                        "black1" => t.initial_colour = Some(Side::Black),
                        _ => others.push(token),
                    }
                }
                // `XXC rank` has no field in the model: keep it for the round trip.
                if !others.is_empty() {
                    t.headers.push((code, others.join(" ")));
                }
            }
            "162" => scoring.read_162(number, &chars)?,
            "XXS" => scoring.read_xxs(number, &chars)?,
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                scoring.read_bb(number, &code, &chars)?
            }
            "240" | "XXZ" | "250" | "XXA" | "260" | "XXP" => deferred.push((number, chars)),
            "013" | "310" => {
                // Team records stay in the headers (a round trip keeps them as written);
                // their player numbers are checked once every player line is read.
                deferred.push((number, chars));
                t.headers.push((code, rest));
            }
            "###" if super::settings::is_arbiter_line(&rest) => {
                super::settings::check_line(number, &tokens(&chars, 4))?;
                t.headers.push((code, rest));
            }
            _ => t.headers.push((code, rest)),
        }
    }

    t.scoring = scoring.finish()?;

    entrants.sort_by_key(|(_, e)| e.start_no);
    for pair in entrants.windows(2) {
        if pair[0].1.start_no == pair[1].1.start_no {
            let line = pair[0].0.max(pair[1].0);
            return Err(error(
                line,
                5,
                TrfErrorKind::DuplicateStartNo(pair[0].1.start_no),
            ));
        }
    }
    let player_lines: BTreeMap<StartNo, usize> =
        entrants.iter().map(|(l, e)| (e.start_no, *l)).collect();
    t.entrants = entrants.into_iter().map(|(_, e)| e).collect();
    for (line, column, opponent) in opponent_refs {
        if t.entrant(opponent).is_none() {
            return Err(error(line, column, TrfErrorKind::UnknownPlayer(opponent)));
        }
    }
    // Both lines of every game must tell the same game; a round has at most one PAB.
    super::validate::check_games(&t, &player_lines)?;

    let next_round = t.rounds_played() + 1;
    let mut on_team: BTreeMap<StartNo, usize> = BTreeMap::new();
    for (number, chars) in deferred {
        let code: String = chars.iter().take(3).collect();
        match code.as_str() {
            "013" | "310" => {
                // TRF-16 `013`: players from column 37; TRF-2026 `310`: from column 74.
                let skip = if code == "013" { 36 } else { 73 };
                for (col, token) in tokens(&chars, skip) {
                    let start_no = read_player_number(&t, number, col, &token)?;
                    if on_team.insert(start_no, number).is_some() {
                        return Err(error(number, col, TrfErrorKind::TwoTeams(start_no)));
                    }
                }
            }
            "240" => read_240(&mut t, number, &chars)?,
            "XXZ" => {
                for (col, token) in tokens(&chars, 4) {
                    let start_no = read_player_number(&t, number, col, &token)?;
                    set_bye(
                        &mut t,
                        number,
                        col,
                        start_no,
                        next_round,
                        ResultCode::ZeroBye,
                    )?;
                }
            }
            "250" => read_250(&mut t, number, &chars)?,
            "XXA" => read_xxa(&mut t, number, &chars)?,
            "260" => {
                let first_round = read_optional_round(number, 5, &code, &field(&chars, 5, 7))?;
                let last_round = read_optional_round(number, 9, &code, &field(&chars, 9, 11))?;
                let mut list = Vec::new();
                for (col, token) in tokens(&chars, 11) {
                    list.push(read_player_number(&t, number, col, &token)?);
                }
                t.forbidden.push(ForbiddenPairs {
                    first_round,
                    last_round,
                    entrants: list,
                });
            }
            _ => {
                // "XXP": players who must never meet.
                let mut list = Vec::new();
                for (col, token) in tokens(&chars, 4) {
                    list.push(read_player_number(&t, number, col, &token)?);
                }
                t.forbidden.push(ForbiddenPairs {
                    first_round: None,
                    last_round: None,
                    entrants: list,
                });
            }
        }
    }
    Ok(t)
}

/// Splits on LF, CRLF or a lone CR (old Mac files; RULES §4.4 even suggests CR).
fn lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                out.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&text[start..]);
    out
}

fn error(line: usize, column: usize, kind: TrfErrorKind) -> TrfError {
    TrfError { line, column, kind }
}

fn header_error(line: usize, column: usize, code: &str, reason: HeaderProblem) -> TrfError {
    error(
        line,
        column,
        TrfErrorKind::InvalidHeader {
            code: code.to_string(),
            reason,
        },
    )
}

/// Characters `from..=to` (1-based, inclusive); missing characters read as blanks.
pub(super) fn field(chars: &[char], from: usize, to: usize) -> String {
    (from..=to)
        .map(|col| chars.get(col - 1).copied().unwrap_or(' '))
        .collect()
}

/// The free text of a header line: everything after column 4, without trailing blanks.
fn text_after_col4(chars: &[char]) -> String {
    let text: String = chars.iter().skip(4).collect();
    text.trim_end().to_string()
}

/// Whitespace-separated tokens after the first `skip` characters, with their 1-based column.
pub(super) fn tokens(chars: &[char], skip: usize) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, &c) in chars.iter().enumerate().skip(skip) {
        if c.is_whitespace() {
            if let Some(token) = current.take() {
                out.push(token);
            }
        } else {
            current
                .get_or_insert_with(|| (i + 1, String::new()))
                .1
                .push(c);
        }
    }
    out.extend(current);
    out
}

/// A non-empty run of ASCII digits as a number (no sign, no blanks inside).
pub(super) fn digits(text: &str) -> Option<u32> {
    if text.is_empty() || !text.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn read_whole(line: usize, column: usize, code: &str, text: &str) -> Result<u32, TrfError> {
    digits(text.trim())
        .ok_or_else(|| header_error(line, column, code, HeaderProblem::ExpectedWholeNumber))
}

fn read_points(line: usize, column: usize, text: &str) -> Result<Points, TrfError> {
    Points::parse(text).ok_or_else(|| {
        error(
            line,
            column,
            TrfErrorKind::InvalidPoints(text.trim().to_string()),
        )
    })
}

fn read_round(line: usize, column: usize, code: &str, text: &str) -> Result<u32, TrfError> {
    match digits(text.trim()) {
        Some(round) if (1..=MAX_ROUND).contains(&round) => Ok(round),
        _ => Err(header_error(
            line,
            column,
            code,
            HeaderProblem::ExpectedRound,
        )),
    }
}

fn read_optional_round(
    line: usize,
    column: usize,
    code: &str,
    text: &str,
) -> Result<Option<u32>, TrfError> {
    if text.trim().is_empty() {
        Ok(None)
    } else {
        read_round(line, column, code, text).map(Some)
    }
}

/// The teams of a parsed file: from its TRF-2026 `310` records when it has them (by team
/// number; name in columns 9–40, players from column 74), else from its `013` records
/// (TRF-16: the name in columns 5–36, then the players' starting numbers in board order,
/// 4-digit fields from column 37), in file order. [`parse`] has checked the player numbers;
/// a field that is not a number is skipped here.
pub fn teams(t: &Tournament) -> Vec<crate::teams::Team> {
    let from_310 = super::team_records::rosters_310(t);
    if !from_310.is_empty() {
        return from_310.into_iter().map(|(_, team)| team).collect();
    }
    t.headers
        .iter()
        .filter(|(code, _)| code == "013")
        .map(|(_, rest)| {
            // `rest` starts at column 5.
            let chars: Vec<char> = rest.chars().collect();
            let name: String = chars.iter().take(32).collect();
            let roster = tokens(&chars, 32)
                .into_iter()
                .filter_map(|(_, token)| digits(&token).filter(|&n| n > 0))
                .collect();
            crate::teams::Team {
                name: name.trim().to_string(),
                roster,
            }
        })
        .collect()
}

/// A starting-rank number in a list line; it must belong to a player.
fn read_player_number(
    t: &Tournament,
    line: usize,
    column: usize,
    text: &str,
) -> Result<StartNo, TrfError> {
    let start_no = digits(text)
        .filter(|&n| n > 0)
        .ok_or_else(|| error(line, column, TrfErrorKind::InvalidPlayerNumber(text.into())))?;
    if t.entrant(start_no).is_none() {
        return Err(error(line, column, TrfErrorKind::UnknownPlayer(start_no)));
    }
    Ok(start_no)
}

/// Reads a `001` line. Returns the entrant and the (column, opponent) references to check once
/// every player is known.
fn read_player(line: usize, chars: &[char]) -> Result<(Entrant, Vec<(usize, StartNo)>), TrfError> {
    let start_text = field(chars, 5, 8);
    let start_no = digits(start_text.trim())
        .filter(|&n| n > 0)
        .ok_or_else(|| {
            error(
                line,
                5,
                TrfErrorKind::InvalidStartNo(start_text.trim().to_string()),
            )
        })?;
    let sex = chars.get(9).copied().filter(|c| !c.is_whitespace());
    let rating_text = field(chars, 49, 52);
    let rating = if rating_text.trim().is_empty() {
        None
    } else {
        Some(digits(rating_text.trim()).ok_or_else(|| {
            error(
                line,
                49,
                TrfErrorKind::InvalidRating(rating_text.trim().to_string()),
            )
        })?)
    };
    let points_text = field(chars, 81, 84);
    let declared_points = if points_text.trim().is_empty() {
        None
    } else {
        Some(read_points(line, 81, &points_text)?)
    };
    let rank_text = field(chars, 86, 89);
    let declared_rank = if rank_text.trim().is_empty() {
        None
    } else {
        Some(digits(rank_text.trim()).ok_or_else(|| {
            error(
                line,
                86,
                TrfErrorKind::InvalidRank(rank_text.trim().to_string()),
            )
        })?)
    };

    let mut rounds = Vec::new();
    let mut blank_blocks = 0usize;
    let mut refs = Vec::new();
    let mut base = 92;
    while base <= chars.len() {
        let block = field(chars, base, base + 7);
        if block.trim().is_empty() {
            // A fully blank block: nothing recorded. Kept as an empty absence only when a later
            // round has something (trailing blanks are just the end of the line).
            blank_blocks += 1;
        } else {
            rounds.extend(std::iter::repeat_n(
                RoundRecord::bye(ResultCode::Pending),
                blank_blocks,
            ));
            blank_blocks = 0;
            rounds.push(read_round_block(line, chars, base, start_no, &mut refs)?);
        }
        base += 10;
    }

    let entrant = Entrant {
        start_no,
        name: field(chars, 15, 47).trim().to_string(),
        sex,
        title: field(chars, 11, 13).trim().to_string(),
        rating,
        federation: field(chars, 54, 56).trim().to_string(),
        fide_id: field(chars, 58, 68).trim().to_string(),
        birth_date: field(chars, 70, 79).trim().to_string(),
        declared_points,
        declared_rank,
        club: None,
        rounds,
    };
    Ok((entrant, refs))
}

/// One round block `OOOO C R` starting at column `base`.
fn read_round_block(
    line: usize,
    chars: &[char],
    base: usize,
    start_no: StartNo,
    refs: &mut Vec<(usize, StartNo)>,
) -> Result<RoundRecord, TrfError> {
    let opponent_text = field(chars, base, base + 3);
    let opponent_text = opponent_text.trim();
    let opponent = if opponent_text.is_empty() {
        None
    } else {
        match digits(opponent_text) {
            Some(0) => None,
            Some(n) if n == start_no => {
                return Err(error(line, base, TrfErrorKind::SelfOpponent(n)));
            }
            Some(n) => {
                refs.push((base, n));
                Some(n)
            }
            None => {
                return Err(error(
                    line,
                    base,
                    TrfErrorKind::InvalidOpponent(opponent_text.to_string()),
                ))
            }
        }
    };
    let colour_char = chars.get(base + 4).copied().unwrap_or(' ');
    let colour = match colour_char {
        'w' | 'W' => Some(Side::Red),
        'b' | 'B' => Some(Side::Black),
        ' ' | '-' => None,
        other => return Err(error(line, base + 5, TrfErrorKind::InvalidColour(other))),
    };
    let result_char = chars.get(base + 6).copied().unwrap_or(' ');
    let result = ResultCode::from_trf_letter(result_char)
        .ok_or_else(|| error(line, base + 7, TrfErrorKind::InvalidResult(result_char)))?;
    // A bye has no opponent; a game result needs one (TRF-16: `+`/`-` and blank may stand
    // alone, for a forfeit or an absence).
    if opponent.is_some() && result.is_bye() {
        return Err(error(
            line,
            base + 7,
            TrfErrorKind::ByeWithOpponent(result.trf_letter()),
        ));
    }
    if opponent.is_none() && result.is_played() {
        return Err(error(
            line,
            base + 7,
            TrfErrorKind::GameWithoutOpponent(result.trf_letter()),
        ));
    }
    Ok(RoundRecord {
        opponent,
        colour,
        result,
        fouls: 0,
    })
}

/// Puts a bye record into `round`'s column of `start_no`, padding earlier missing rounds with
/// empty absences. A blank record may be replaced; the same bye again is accepted.
fn set_bye(
    t: &mut Tournament,
    line: usize,
    column: usize,
    start_no: StartNo,
    round: u32,
    code: ResultCode,
) -> Result<(), TrfError> {
    let Some(entrant) = t.entrants.iter_mut().find(|e| e.start_no == start_no) else {
        return Err(error(line, column, TrfErrorKind::UnknownPlayer(start_no)));
    };
    let index = round.saturating_sub(1) as usize;
    let bye = RoundRecord::bye(code);
    if entrant.rounds.len() <= index {
        entrant
            .rounds
            .resize(index, RoundRecord::bye(ResultCode::Pending));
        entrant.rounds.push(bye);
        return Ok(());
    }
    let existing = &mut entrant.rounds[index];
    if existing.opponent.is_none() && existing.result == ResultCode::Pending {
        *existing = bye;
        Ok(())
    } else if existing.opponent.is_none() && existing.result == code {
        Ok(())
    } else {
        Err(error(
            line,
            column,
            TrfErrorKind::ByeConflict { start_no, round },
        ))
    }
}

/// `240 T RRR IIII IIII …`: byes of type `F`/`H`/`Z` for one round.
fn read_240(t: &mut Tournament, line: usize, chars: &[char]) -> Result<(), TrfError> {
    let list = tokens(chars, 4);
    let mut it = list.into_iter();
    let code = match it.next() {
        Some((_, kind)) => match kind.to_ascii_uppercase().as_str() {
            "F" => ResultCode::FullBye,
            "H" => ResultCode::HalfBye,
            "Z" => ResultCode::ZeroBye,
            _ => return Err(header_error(line, 5, "240", HeaderProblem::ByeType)),
        },
        None => return Err(header_error(line, 5, "240", HeaderProblem::MissingByeType)),
    };
    let (round_col, round_text) = it
        .next()
        .ok_or_else(|| header_error(line, 7, "240", HeaderProblem::MissingRound))?;
    let round = read_round(line, round_col, "240", &round_text)?;
    for (col, token) in it {
        let start_no = read_player_number(t, line, col, &token)?;
        set_bye(t, line, col, start_no, round, code)?;
    }
    Ok(())
}

fn acceleration_of(t: &mut Tournament, start_no: StartNo) -> &mut Acceleration {
    let index = match t.accelerations.iter().position(|a| a.start_no == start_no) {
        Some(i) => i,
        None => {
            t.accelerations.push(Acceleration {
                start_no,
                points: Vec::new(),
            });
            t.accelerations.len() - 1
        }
    };
    &mut t.accelerations[index]
}

/// `250 [MMMM] GGGG RRR RRR PPPP PPPP`: `GGGG` acceleration points in rounds `RRR..=RRR` for
/// players `PPPP..=PPPP` (match points, for team events, must be blank or zero).
fn read_250(t: &mut Tournament, line: usize, chars: &[char]) -> Result<(), TrfError> {
    let list = tokens(chars, 4);
    let fields: Vec<(usize, String)> = match list.len() {
        5 => list,
        6 => {
            let (col, text) = &list[0];
            if read_points(line, *col, text)? != Points::ZERO {
                return Err(header_error(line, *col, "250", HeaderProblem::MatchPoints));
            }
            list[1..].to_vec()
        }
        _ => {
            return Err(header_error(
                line,
                5,
                "250",
                HeaderProblem::AccelerationFields,
            ))
        }
    };
    let points = read_points(line, fields[0].0, &fields[0].1)?;
    let first_round = read_round(line, fields[1].0, "250", &fields[1].1)?;
    let last_round = read_round(line, fields[2].0, "250", &fields[2].1)?;
    let first_player = digits(&fields[3].1).ok_or_else(|| {
        error(
            line,
            fields[3].0,
            TrfErrorKind::InvalidPlayerNumber(fields[3].1.clone()),
        )
    })?;
    let last_player = digits(&fields[4].1).ok_or_else(|| {
        error(
            line,
            fields[4].0,
            TrfErrorKind::InvalidPlayerNumber(fields[4].1.clone()),
        )
    })?;
    if first_round > last_round || first_player > last_player {
        return Err(header_error(line, 5, "250", HeaderProblem::BackwardsRange));
    }
    // Only players that exist: the range is a convenience, not a list of ids.
    let players: Vec<StartNo> = t
        .entrants
        .iter()
        .map(|e| e.start_no)
        .filter(|n| (first_player..=last_player).contains(n))
        .collect();
    for start_no in players {
        let acc = acceleration_of(t, start_no);
        if acc.points.len() < last_round as usize {
            acc.points.resize(last_round as usize, Points::ZERO);
        }
        for slot in &mut acc.points[first_round as usize - 1..last_round as usize] {
            *slot = points;
        }
    }
    Ok(())
}

/// `XXA NNNN pp.p pp.p …`: acceleration points of one player, round 1 first, in 4-character
/// slots at columns 10, 15, 20, … (a blank slot is zero).
fn read_xxa(t: &mut Tournament, line: usize, chars: &[char]) -> Result<(), TrfError> {
    let id_text = field(chars, 5, 8);
    let start_no = read_player_number(t, line, 5, id_text.trim())?;
    let mut values = Vec::new();
    let mut col = 10;
    while col <= chars.len() {
        let slot = field(chars, col, col + 3);
        values.push(if slot.trim().is_empty() {
            Points::ZERO
        } else {
            read_points(line, col, &slot)?
        });
        col += 5;
    }
    let acc = acceleration_of(t, start_no);
    if acc.points.len() < values.len() {
        acc.points.resize(values.len(), Points::ZERO);
    }
    acc.points[..values.len()].copy_from_slice(&values);
    Ok(())
}

/// Scoring assembled from `162`, `XXS` and `BB?` lines, in file order. Win, draw and loss are
/// kept per colour because `XXS` can set them apart (which the model cannot represent).
#[derive(Default)]
struct ScoringBuilder {
    win: [Option<Points>; 2],
    draw: [Option<Points>; 2],
    loss: [Option<Points>; 2],
    forfeit_win: Option<Points>,
    forfeit_loss: Option<Points>,
    pairing_bye: Option<Points>,
    full_bye: Option<Points>,
    half_bye: Option<Points>,
    zero_bye: Option<Points>,
    /// A `162` or `BB?` line was read: there the PAB follows the win unless given.
    pab_follows_win: bool,
    /// A line where scoring was read, to report colour-dependent values.
    last_line: usize,
}

impl ScoringBuilder {
    fn set(&mut self, code: &str, value: Points) -> bool {
        match code {
            "W" => {
                self.win = [Some(value); 2];
                self.forfeit_win = Some(value);
                self.full_bye = Some(value);
            }
            "D" => {
                self.draw = [Some(value); 2];
                self.half_bye = Some(value);
            }
            "L" => self.loss = [Some(value); 2],
            "WW" => self.win[0] = Some(value),
            "BW" => self.win[1] = Some(value),
            "WD" => self.draw[0] = Some(value),
            "BD" => self.draw[1] = Some(value),
            "WL" => self.loss[0] = Some(value),
            "BL" => self.loss[1] = Some(value),
            "ZPB" => self.zero_bye = Some(value),
            "HPB" => self.half_bye = Some(value),
            "FPB" => self.full_bye = Some(value),
            "PAB" => self.pairing_bye = Some(value),
            "FW" => self.forfeit_win = Some(value),
            "FL" => self.forfeit_loss = Some(value),
            _ => return false,
        }
        true
    }

    /// `162  W 2.0    D 1.0 …`: symbol / points pairs (`W D L A P`, `X` ignored).
    fn read_162(&mut self, line: usize, chars: &[char]) -> Result<(), TrfError> {
        self.last_line = line;
        self.pab_follows_win = true;
        let list = tokens(chars, 4);
        let mut i = 0;
        while i < list.len() {
            let (col, token) = &list[i];
            let mut symbol_chars = token.chars();
            let symbol = symbol_chars.next().map(|c| c.to_ascii_uppercase());
            let attached: String = symbol_chars.collect();
            let (value_col, value_text) = if attached.is_empty() {
                i += 1;
                match list.get(i) {
                    Some((c, v)) => (*c, v.clone()),
                    None => {
                        return Err(header_error(
                            line,
                            *col,
                            "162",
                            HeaderProblem::SymbolNeedsPoints,
                        ))
                    }
                }
            } else {
                (col + 1, attached)
            };
            let value = read_points(line, value_col, &value_text)?;
            match symbol {
                Some('W') => {
                    self.set("W", value);
                }
                Some('D') => {
                    self.set("D", value);
                }
                Some('L') => {
                    self.set("L", value);
                }
                Some('A') => {
                    self.zero_bye = Some(value);
                    self.forfeit_loss = Some(value);
                }
                Some('P') => self.pairing_bye = Some(value),
                Some('X') => {}
                _ => {
                    return Err(header_error(
                        line,
                        *col,
                        "162",
                        HeaderProblem::UnknownSymbol,
                    ))
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// `XXS CODE=VALUE …` (JaVaFo).
    fn read_xxs(&mut self, line: usize, chars: &[char]) -> Result<(), TrfError> {
        self.last_line = line;
        for (col, token) in tokens(chars, 4) {
            let Some((code, value)) = token.split_once('=') else {
                return Err(header_error(
                    line,
                    col,
                    "XXS",
                    HeaderProblem::ExpectedCodeValue,
                ));
            };
            let value = read_points(line, col + code.chars().count() + 1, value)?;
            if !self.set(&code.to_ascii_uppercase(), value) {
                return Err(header_error(
                    line,
                    col,
                    "XXS",
                    HeaderProblem::UnknownScoringCode,
                ));
            }
        }
        Ok(())
    }

    /// `BBW pp.p` and friends (bbpPairings).
    fn read_bb(&mut self, line: usize, code: &str, chars: &[char]) -> Result<(), TrfError> {
        self.last_line = line;
        self.pab_follows_win = true;
        let list = tokens(chars, 3);
        let [(col, text)] = list.as_slice() else {
            return Err(header_error(
                line,
                5,
                code,
                HeaderProblem::ExpectedOnePoints,
            ));
        };
        let value = read_points(line, *col, text)?;
        match code {
            "BBW" => {
                self.set("W", value);
            }
            "BBD" => {
                self.set("D", value);
            }
            "BBL" => {
                self.set("L", value);
            }
            "BBZ" => self.zero_bye = Some(value),
            "BBF" => self.forfeit_loss = Some(value),
            _ => self.pairing_bye = Some(value),
        }
        Ok(())
    }

    fn finish(self) -> Result<Scoring, TrfError> {
        let one = |pair: [Option<Points>; 2], default: Points| match pair {
            [Some(a), Some(b)] if a != b => None,
            [a, b] => Some(a.or(b).unwrap_or(default)),
        };
        let conflict = || error(self.last_line, 1, TrfErrorKind::ColourDependentScoring);
        let win = one(self.win, Points(10)).ok_or_else(conflict)?;
        let draw = one(self.draw, Points(5)).ok_or_else(conflict)?;
        let loss = one(self.loss, Points(0)).ok_or_else(conflict)?;
        // JaVaFo's `W` does not cover the PAB; TRF-26 `P` and bbpPairings default it to a win.
        let pab_default = if self.pab_follows_win || self.win == [None, None] {
            win
        } else {
            Points(10)
        };
        Ok(Scoring {
            win,
            draw,
            loss,
            forfeit_win: self.forfeit_win.unwrap_or(win),
            forfeit_loss: self.forfeit_loss.unwrap_or(Points::ZERO),
            pairing_bye: self.pairing_bye.unwrap_or(pab_default),
            full_bye: self.full_bye.unwrap_or(win),
            half_bye: self.half_bye.unwrap_or(draw),
            zero_bye: self.zero_bye.unwrap_or(Points::ZERO),
        })
    }
}
