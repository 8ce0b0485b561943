//! The desk's quick result line (`3 1`: board 3, Red wins), read by the individual result
//! page (`results.rs`) and, after a match number and a dot, by a team round's
//! (`team_results.rs`: `3.2 1`).

use crate::vocab::GameResult;

/// The result for a key of the quick line.
pub fn result_of_key(key: char) -> Option<GameResult> {
    match key {
        '1' => Some(GameResult::RedWins),
        '=' => Some(GameResult::Draw),
        '0' => Some(GameResult::BlackWins),
        '+' => Some(GameResult::BlackForfeits),
        '-' => Some(GameResult::RedForfeits),
        _ => None,
    }
}

/// A parsed quick line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickLine {
    /// Board number.
    pub board: i32,
    /// The result.
    pub result: GameResult,
    /// Fouls of Red.
    pub red_fouls: Option<i64>,
    /// Fouls of Black.
    pub black_fouls: Option<i64>,
}

/// Reads `BOARD RESULT [RED_FOULS BLACK_FOULS]`: the board's digits, optional spaces, one of
/// `1 = 0 + -`, then optionally two numbers. `1` and `0` need a space after the board number
/// (`31` is board 31); `=`, `+`, `-` do not.
pub fn parse_quick(line: &str) -> Option<QuickLine> {
    let line = line.trim();
    let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
    let board: i32 = digits.parse().ok()?;
    let rest = line[digits.len()..].trim_start();
    let mut chars = rest.chars();
    let result = result_of_key(chars.next()?)?;
    let fouls: Vec<&str> = chars
        .as_str()
        .split(|c: char| c.is_whitespace() || c == '/' || c == ',')
        .filter(|s| !s.is_empty())
        .collect();
    let (red_fouls, black_fouls) = match fouls.as_slice() {
        [] => (None, None),
        [r, b] => (Some(r.parse().ok()?), Some(b.parse().ok()?)),
        _ => return None,
    };
    Some(QuickLine {
        board,
        result,
        red_fouls,
        black_fouls,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_lines_read_board_result_and_fouls() {
        let q = |board, result, fouls: Option<(i64, i64)>| {
            Some(QuickLine {
                board,
                result,
                red_fouls: fouls.map(|f| f.0),
                black_fouls: fouls.map(|f| f.1),
            })
        };
        assert_eq!(parse_quick("3 1"), q(3, GameResult::RedWins, None));
        assert_eq!(parse_quick(" 12 0 "), q(12, GameResult::BlackWins, None));
        assert_eq!(parse_quick("7="), q(7, GameResult::Draw, None));
        assert_eq!(parse_quick("4+"), q(4, GameResult::BlackForfeits, None));
        assert_eq!(parse_quick("5 -"), q(5, GameResult::RedForfeits, None));
        assert_eq!(
            parse_quick("3 1 2 0"),
            q(3, GameResult::RedWins, Some((2, 0)))
        );
        assert_eq!(parse_quick("3=1/1"), q(3, GameResult::Draw, Some((1, 1))));
        assert_eq!(parse_quick("31"), None, "board 31 without a result");
        assert_eq!(parse_quick("= 3"), None);
        assert_eq!(parse_quick("3 x"), None);
        assert_eq!(parse_quick("3 1 2"), None, "both fouls or none");
        assert_eq!(parse_quick(""), None);
    }
}
