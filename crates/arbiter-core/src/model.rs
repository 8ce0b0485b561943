//! The tournament model every engine shares: dense starting numbers, integer points, and
//! per-round records shaped like TRF-16 player lines (so that import, export and the engines
//! agree on one representation).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// Starting-rank number (序号), 1-based. Also the TRF pairing id and the engines' player id.
pub type StartNo = u32;

/// A score in **tenths of a point**, so that 1/½/0, 2/1/0 and 3/1/0 are all exact.
///
/// Never convert to `f64` for ranking or comparisons; only for display.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Points(pub i64);

impl Points {
    /// Zero points.
    pub const ZERO: Points = Points(0);

    /// Points from tenths (`15` is 1.5 points).
    pub const fn from_tenths(tenths: i64) -> Self {
        Points(tenths)
    }

    /// Whole points (`2` is 2.0 points).
    pub const fn whole(points: i64) -> Self {
        Points(points * 10)
    }

    /// The value in tenths.
    pub const fn tenths(self) -> i64 {
        self.0
    }

    /// Parses a decimal like `13.5`, `2`, `-0.5` or ` 1.0` (surrounding blanks allowed);
    /// at most one decimal digit is significant beyond which the value must be exact.
    pub fn parse(text: &str) -> Option<Points> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let (int_part, frac_part) = match digits.split_once('.') {
            Some((i, f)) => (i, f),
            None => (digits, ""),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        if !int_part.chars().all(|c| c.is_ascii_digit())
            || !frac_part.chars().all(|c| c.is_ascii_digit())
        {
            return None;
        }
        let whole: i64 = if int_part.is_empty() {
            0
        } else {
            int_part.parse().ok()?
        };
        let mut frac = frac_part.chars();
        let tenth = frac.next().map(|c| i64::from(c as u8 - b'0')).unwrap_or(0);
        // Anything after the first decimal must be zero: points are exact in tenths.
        if frac.any(|c| c != '0') {
            return None;
        }
        let value = whole.checked_mul(10)?.checked_add(tenth)?;
        Some(Points(if negative { -value } else { value }))
    }
}

impl fmt::Display for Points {
    /// Plain decimal: `14`, `13.5`, `-0.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        if abs % 10 == 0 {
            write!(f, "{sign}{}", abs / 10)
        } else {
            write!(f, "{sign}{}.{}", abs / 10, abs % 10)
        }
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, rhs: Points) -> Points {
        Points(self.0 + rhs.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, rhs: Points) {
        self.0 += rhs.0;
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, rhs: Points) -> Points {
        Points(self.0 - rhs.0)
    }
}

impl SubAssign for Points {
    fn sub_assign(&mut self, rhs: Points) {
        self.0 -= rhs.0;
    }
}

impl Neg for Points {
    type Output = Points;
    fn neg(self) -> Points {
        Points(-self.0)
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        Points(iter.map(|p| p.0).sum())
    }
}

/// The side of a game. Red (红/先手, moves first) ≙ White in TRF; Black (黑/后手) ≙ Black.
/// In Banqi "Red" means "moves first".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Red / White: moves first.
    Red,
    /// Black.
    Black,
}

impl Side {
    /// The other side.
    pub fn opposite(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    /// TRF colour letter (`w` / `b`).
    pub fn trf_letter(self) -> char {
        match self {
            Side::Red => 'w',
            Side::Black => 'b',
        }
    }
}

/// What one round meant for one entrant: the TRF-16 result codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultCode {
    /// `1`: won over the board.
    Win,
    /// `=`: drew over the board.
    Draw,
    /// `0`: lost over the board.
    Loss,
    /// `W`: won a game that lasted less than one move (played, unrated).
    UnratedWin,
    /// `D`: drew a game that lasted less than one move.
    UnratedDraw,
    /// `L`: lost a game that lasted less than one move.
    UnratedLoss,
    /// `+`: won by forfeit (弃权胜); the opponent and the scheduled colour are kept.
    ForfeitWin,
    /// `-`: lost by forfeit (弃权负); both sides `-` is a double forfeit.
    ForfeitLoss,
    /// `U`: pairing-allocated bye (轮空), at most one per round.
    PairingBye,
    /// `F`: full-point bye (requested or awarded).
    FullBye,
    /// `H`: half-point bye (requested).
    HalfBye,
    /// `Z`: zero-point bye or known absence (withdrawn players, late entrants' missed rounds).
    ZeroBye,
    /// Blank: no result yet. With an opponent it is a game still in progress; without one it
    /// reads as an absence worth nothing.
    Pending,
}

impl ResultCode {
    /// The TRF letter of this code (blank for [`ResultCode::Pending`]).
    pub fn trf_letter(self) -> char {
        match self {
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::UnratedWin => 'W',
            ResultCode::UnratedDraw => 'D',
            ResultCode::UnratedLoss => 'L',
            ResultCode::ForfeitWin => '+',
            ResultCode::ForfeitLoss => '-',
            ResultCode::PairingBye => 'U',
            ResultCode::FullBye => 'F',
            ResultCode::HalfBye => 'H',
            ResultCode::ZeroBye => 'Z',
            ResultCode::Pending => ' ',
        }
    }

    /// Reads a TRF result letter (case-insensitive).
    pub fn from_trf_letter(letter: char) -> Option<ResultCode> {
        Some(match letter.to_ascii_uppercase() {
            '1' => ResultCode::Win,
            '=' => ResultCode::Draw,
            '0' => ResultCode::Loss,
            'W' => ResultCode::UnratedWin,
            'D' => ResultCode::UnratedDraw,
            'L' => ResultCode::UnratedLoss,
            '+' => ResultCode::ForfeitWin,
            '-' => ResultCode::ForfeitLoss,
            'U' => ResultCode::PairingBye,
            'F' => ResultCode::FullBye,
            'H' => ResultCode::HalfBye,
            'Z' => ResultCode::ZeroBye,
            ' ' => ResultCode::Pending,
            _ => return None,
        })
    }

    /// A game actually played over the board (`1 = 0 W D L`): it counts for colour history,
    /// "already met" and over-the-board statistics.
    pub fn is_played(self) -> bool {
        matches!(
            self,
            ResultCode::Win
                | ResultCode::Draw
                | ResultCode::Loss
                | ResultCode::UnratedWin
                | ResultCode::UnratedDraw
                | ResultCode::UnratedLoss
        )
    }

    /// A scheduled game that was not played (`+` / `-`).
    pub fn is_forfeit(self) -> bool {
        matches!(self, ResultCode::ForfeitWin | ResultCode::ForfeitLoss)
    }

    /// A round with no scheduled opponent (`U F H Z`).
    pub fn is_bye(self) -> bool {
        matches!(
            self,
            ResultCode::PairingBye
                | ResultCode::FullBye
                | ResultCode::HalfBye
                | ResultCode::ZeroBye
        )
    }

    /// Worth a win's points (`1 W + U F`).
    pub fn is_win_valued(self) -> bool {
        matches!(
            self,
            ResultCode::Win
                | ResultCode::UnratedWin
                | ResultCode::ForfeitWin
                | ResultCode::PairingBye
                | ResultCode::FullBye
        )
    }
}

/// Points awarded per kind of round (TRF-26 `162`, JaVaFo `XXS`, bbpPairings `BB?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scoring {
    /// Won game (`1`, `W`).
    pub win: Points,
    /// Drawn game (`=`, `D`).
    pub draw: Points,
    /// Lost game (`0`, `L`).
    pub loss: Points,
    /// Forfeit win (`+`).
    pub forfeit_win: Points,
    /// Forfeit loss (`-`).
    pub forfeit_loss: Points,
    /// Pairing-allocated bye (`U`).
    pub pairing_bye: Points,
    /// Full-point bye (`F`).
    pub full_bye: Points,
    /// Half-point bye (`H`).
    pub half_bye: Points,
    /// Zero-point bye or absence (`Z`, blank).
    pub zero_bye: Points,
}

impl Scoring {
    /// FIDE's 1 / ½ / 0 with byes and forfeit wins worth a win.
    pub const fn one_half_zero() -> Scoring {
        Scoring::from_win_draw_loss(Points(10), Points(5), Points(0))
    }

    /// The Chinese 2 / 1 / 0 (CXA 2011 art. 13.1), byes and forfeit wins worth a win.
    pub const fn two_one_zero() -> Scoring {
        Scoring::from_win_draw_loss(Points(20), Points(10), Points(0))
    }

    /// A scheme from win / draw / loss values: byes and forfeit wins are worth a win, a
    /// half-point bye a draw, a zero-point bye and a forfeit loss nothing.
    pub const fn from_win_draw_loss(win: Points, draw: Points, loss: Points) -> Scoring {
        Scoring {
            win,
            draw,
            loss,
            forfeit_win: win,
            forfeit_loss: Points(0),
            pairing_bye: win,
            full_bye: win,
            half_bye: draw,
            zero_bye: Points(0),
        }
    }

    /// The points one round with this code is worth.
    pub fn points(&self, code: ResultCode) -> Points {
        match code {
            ResultCode::Win | ResultCode::UnratedWin => self.win,
            ResultCode::Draw | ResultCode::UnratedDraw => self.draw,
            ResultCode::Loss | ResultCode::UnratedLoss => self.loss,
            ResultCode::ForfeitWin => self.forfeit_win,
            ResultCode::ForfeitLoss => self.forfeit_loss,
            ResultCode::PairingBye => self.pairing_bye,
            ResultCode::FullBye => self.full_bye,
            ResultCode::HalfBye => self.half_bye,
            ResultCode::ZeroBye => self.zero_bye,
            ResultCode::Pending => Points::ZERO,
        }
    }
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring::one_half_zero()
    }
}

/// One entrant's record for one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundRecord {
    /// The scheduled opponent; `None` for byes and absences.
    pub opponent: Option<StartNo>,
    /// The colour played or scheduled; `None` when there was no opponent.
    pub colour: Option<Side>,
    /// What happened.
    pub result: ResultCode,
    /// Technical fouls (技术犯规) charged to this entrant in this round's game. Not in TRF.
    pub fouls: u32,
}

impl RoundRecord {
    /// A game against `opponent` with `colour` and `result`, no fouls.
    pub fn game(opponent: StartNo, colour: Side, result: ResultCode) -> RoundRecord {
        RoundRecord {
            opponent: Some(opponent),
            colour: Some(colour),
            result,
            fouls: 0,
        }
    }

    /// A round without opponent (bye or absence) with the given code.
    pub fn bye(result: ResultCode) -> RoundRecord {
        RoundRecord {
            opponent: None,
            colour: None,
            result,
            fouls: 0,
        }
    }
}

/// Who is paired: one player, or a doubles team playing as one (SPEC §2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// Starting-rank number (序号), the id everywhere in the engines.
    pub start_no: StartNo,
    /// Display name (any script).
    pub name: String,
    /// Sex as in TRF column 10 (`m` / `w`), if known.
    pub sex: Option<char>,
    /// Title (TRF columns 11–13), empty if none.
    pub title: String,
    /// Rating, if any.
    pub rating: Option<u32>,
    /// Federation (TRF columns 54–56), empty if none.
    pub federation: String,
    /// FIDE or national id (TRF columns 58–68), empty if none.
    pub fide_id: String,
    /// Birth date as written (TRF columns 70–79), empty if none.
    pub birth_date: String,
    /// The points column as read from a file (informational; engines recompute).
    pub declared_points: Option<Points>,
    /// The rank column as read from a file (informational).
    pub declared_rank: Option<u32>,
    /// Club, for same-club avoidance (not in TRF).
    pub club: Option<String>,
    /// Rounds 1..=n, index 0 is round 1. May be shorter than the number of rounds played.
    pub rounds: Vec<RoundRecord>,
}

impl Entrant {
    /// The record of round `round` (1-based), if present.
    pub fn round(&self, round: u32) -> Option<&RoundRecord> {
        let index = usize::try_from(round).ok()?.checked_sub(1)?;
        self.rounds.get(index)
    }

    /// Total points over all recorded rounds under `scoring`.
    pub fn points(&self, scoring: &Scoring) -> Points {
        self.rounds.iter().map(|r| scoring.points(r.result)).sum()
    }

    /// Points after the first `rounds` rounds.
    pub fn points_after(&self, scoring: &Scoring, rounds: u32) -> Points {
        self.rounds
            .iter()
            .take(rounds as usize)
            .map(|r| scoring.points(r.result))
            .sum()
    }

    /// Total fouls over the event (犯规).
    pub fn total_fouls(&self) -> u32 {
        self.rounds.iter().map(|r| r.fouls).sum()
    }
}

/// Players who must not be paired against each other (TRF `XXP` / `260`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForbiddenPairs {
    /// First round the restriction applies to (`None`: every round).
    pub first_round: Option<u32>,
    /// Last round the restriction applies to (`None`: every round).
    pub last_round: Option<u32>,
    /// No two of these may meet.
    pub entrants: Vec<StartNo>,
}

/// Fictitious acceleration points of one entrant (TRF `XXA` / `250`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Acceleration {
    /// Whose points.
    pub start_no: StartNo,
    /// Index 0 is round 1: points added to the entrant's score when pairing that round.
    pub points: Vec<Points>,
}

/// A whole tournament section as the engines see it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// Name (TRF `012`).
    pub name: String,
    /// Header lines other than the ones modelled below, kept in file order as
    /// (three-character code, text after column 4) so that a round trip loses nothing.
    pub headers: Vec<(String, String)>,
    /// Announced number of rounds (TRF `XXR` / `142`).
    pub rounds_total: Option<u32>,
    /// Colour of the top entrant in round 1 (TRF `XXC white1|black1` / `152`).
    pub initial_colour: Option<Side>,
    /// Points per kind of round.
    pub scoring: Scoring,
    /// Entrants, sorted by starting number.
    pub entrants: Vec<Entrant>,
    /// Forbidden pairs (`XXP` / `260`).
    pub forbidden: Vec<ForbiddenPairs>,
    /// Acceleration points (`XXA` / `250`).
    pub accelerations: Vec<Acceleration>,
}

impl Tournament {
    /// The entrant with starting number `start_no`.
    pub fn entrant(&self, start_no: StartNo) -> Option<&Entrant> {
        // Entrants are usually dense 1..=n; fall back to a search when they are not.
        let guess = usize::try_from(start_no).ok()?.checked_sub(1)?;
        match self.entrants.get(guess) {
            Some(e) if e.start_no == start_no => Some(e),
            _ => self.entrants.iter().find(|e| e.start_no == start_no),
        }
    }

    /// Number of rounds with at least one game or pairing-allocated bye recorded: the
    /// completed (or in-progress) rounds.
    pub fn rounds_played(&self) -> u32 {
        self.entrants
            .iter()
            .flat_map(|e| {
                e.rounds.iter().enumerate().filter_map(|(i, r)| {
                    (r.opponent.is_some() || r.result == ResultCode::PairingBye)
                        .then_some(i as u32 + 1)
                })
            })
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_parse_and_display_round_trip() {
        for (text, tenths, shown) in [
            ("13.5", 135, "13.5"),
            (" 1.0", 10, "1"),
            ("2", 20, "2"),
            ("-0.5", -5, "-0.5"),
            ("20.00", 200, "20"),
        ] {
            let p = Points::parse(text).expect(text);
            assert_eq!(p.tenths(), tenths);
            assert_eq!(p.to_string(), shown);
        }
        assert_eq!(Points::parse("1.25"), None);
        assert_eq!(Points::parse("abc"), None);
        assert_eq!(Points::parse(""), None);
    }

    #[test]
    fn two_one_zero_counts_a_bye_as_a_win() {
        let s = Scoring::two_one_zero();
        assert_eq!(s.points(ResultCode::PairingBye), Points::whole(2));
        assert_eq!(s.points(ResultCode::HalfBye), Points::whole(1));
        assert_eq!(s.points(ResultCode::ForfeitLoss), Points::ZERO);
    }

    #[test]
    fn result_letters_round_trip() {
        for c in "1=0WDL+-UFHZ ".chars() {
            let code = ResultCode::from_trf_letter(c).expect("known letter");
            assert_eq!(code.trf_letter(), c);
        }
        assert_eq!(ResultCode::from_trf_letter('x'), None);
    }
}
