//! TRF (FIDE Tournament Report File) import and export: TRF-16, TRF-26 and the pairing
//! engines' extensions (JaVaFo TRF(x) `XX?` lines, bbpPairings `BB?` lines), RULES.md §4.
//!
//! - [`parse`] reads a file into the shared [`Tournament`] model. Columns are counted in
//!   **characters**, not bytes, so names in any script (汉字 included) keep the fixed columns.
//!   Header lines the model does not cover are kept in [`Tournament::headers`] so that a round
//!   trip loses nothing. Byes announced by `240` / `XXZ` lines become bye records in that
//!   round's column (the form the pairing engines read).
//! - Team sections ([`write_teams`], [`team_section`], [`teams`]): TRF-2026 `310` `320`
//!   `330` `352` `362` records (TRF-16: `013`), layouts in `team_records.rs`.
//! - [`write`] emits TRF-16 player lines plus `012`, the TRF-26 `142`/`152`/`162` headers and
//!   JaVaFo's `XXR`/`XXC`, forbidden pairs and accelerations; UTF-8 with LF line ends.
//!
//! - Both lines of every game must tell the same game, or [`parse`] rejects the file at the
//!   first contradiction (by line, then column; a clash between two lines is reported on the
//!   later one): the opponent's line names the player back in that round (nobody plays twice
//!   in a round), the colours are `w` against `b` (or none on both sides), and the results
//!   agree: `1`/`0`, `=`/`=`, `0`/`0` (both lost, e.g. both reached the foul limit),
//!   `W`/`L`, `D`/`D`, `+`/`-`, `-`/`-` (double forfeit), or blank on both sides (not finished).
//!   A bye code (`U F H Z`) has no opponent, a game result (`1 = 0 W D L`) needs one (`+`, `-`
//!   and blank may stand alone, as TRF-16 allows), and a round has at most one `U`.
//! - **Private extension lines.** A section's settings that no TRF record carries travel in
//!   TRF-26 comment lines, which other programs skip: `### arbiter KEY=VALUE` with the keys
//!   `pairing_system` (`chinese`, `dutch`, `round_robin`), `tiebreaks` (comma-separated key
//!   names, e.g. `OPP,PS,WIN`), `unplayed` (`cxa`, `fide2023`, `fide2026`, `none`),
//!   `foul_threshold` (1–99) and `forfeit_counts_as_met` (`true`/`false`); see
//!   [`SectionSettings`]. They are checked on reading (an unknown key or a bad value is an
//!   error with its position) and kept in [`Tournament::headers`]. Rounds, scoring and the
//!   first board's colour use the standard `142`/`XXR`, `162`/`XXS` and `152`/`XXC` records.
//!
//! Round-trip contract: `parse(&write(&t)) == Ok(t)` for every tournament whose fields fit the
//! fixed columns (numbers up to 9999, names up to 33 characters without surrounding blanks or
//! line breaks, points below 100) and that has no information TRF cannot carry (fouls, clubs).
//! The points column (81–84) is written from [`Entrant::declared_points`] when present, and
//! otherwise from the points over the completed rounds ([`Tournament::rounds_played`]), which
//! is what pairing engines expect; reading always fills `declared_points` from the column.
//!
//! [`Entrant::declared_points`]: crate::model::Entrant::declared_points

mod read;
mod settings;
mod team_records;
mod validate;
mod write;

pub use read::{parse, teams};
pub use settings::{SectionSettings, PAIRING_SYSTEMS};
pub use team_records::{
    team_records, team_section, write_teams, ForfeitWinner, ForfeitedMatch, MatchScoring,
    TeamExport, TeamFormat, TeamLine, TeamPab, TeamRecordError, TeamSection,
};
pub use write::write;

#[cfg(test)]
use crate::model::Tournament;

/// A TRF file that could not be read: where, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct TrfError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: TrfErrorKind,
}

/// The reasons a TRF file is rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrfErrorKind {
    /// Occurs when a non-blank line does not start with a three-character record code
    /// (`001`, `012`, `XXR`, `###`, …) followed by a blank in column 4.
    #[error("a line must start with a three-character record code and a blank")]
    MalformedLine,
    /// Occurs when a player line's starting-rank number (columns 5–8) is missing, not a number
    /// or zero.
    #[error("invalid starting-rank number {0:?}")]
    InvalidStartNo(String),
    /// Occurs when two player lines carry the same starting-rank number.
    #[error("starting-rank number {0} appears twice")]
    DuplicateStartNo(u32),
    /// Occurs when the rating field (columns 49–52) is not a whole number.
    #[error("invalid rating {0:?}")]
    InvalidRating(String),
    /// Occurs when the points field (columns 81–84) or a points value in a header is not a
    /// decimal with at most one significant decimal digit.
    #[error("invalid points {0:?}")]
    InvalidPoints(String),
    /// Occurs when the rank field (columns 86–89) is not a whole number.
    #[error("invalid rank {0:?}")]
    InvalidRank(String),
    /// Occurs when a round's opponent field is neither blank, `0000` nor a starting-rank
    /// number.
    #[error("invalid opponent {0:?}")]
    InvalidOpponent(String),
    /// Occurs when a player is listed as his own opponent.
    #[error("player {0} is paired against himself")]
    SelfOpponent(u32),
    /// Occurs when a round's colour is not `w`, `b`, `-` or blank.
    #[error("invalid colour {0:?} (expected w, b, - or blank)")]
    InvalidColour(char),
    /// Occurs when a round's result is not one of the TRF codes `1 = 0 + - W D L H F U Z` or
    /// blank.
    #[error("invalid result code {0:?}")]
    InvalidResult(char),
    /// Occurs when an opponent field, a bye line, an absence line, a forbidden-pairs line or an
    /// acceleration line names a starting-rank number that has no player line.
    #[error("no player has starting-rank number {0}")]
    UnknownPlayer(u32),
    /// Occurs when a player is named by two team records (`013`).
    #[error("player {0} is on two teams")]
    TwoTeams(u32),
    /// Occurs when a list of players (`XXZ`, `XXP`, `240`, `260`, `250`, `XXA`) holds
    /// something that is not a starting-rank number.
    #[error("invalid player number {0:?}")]
    InvalidPlayerNumber(String),
    /// Occurs when a header the model reads (`142`, `152`, `162`, `XXR`, `XXC`, `XXS`, `BB?`,
    /// `240`, `250`, `260`) has a value it cannot understand.
    #[error("invalid {code} record: {reason}")]
    InvalidHeader {
        /// The record's three-character code.
        code: String,
        /// What is wrong with it.
        reason: HeaderProblem,
    },
    /// Occurs when the scoring lines give a win, draw or loss different points for White and
    /// for Black (e.g. `XXS WD=1 BD=2`): the model has one value per result.
    #[error("colour-dependent scoring is not supported")]
    ColourDependentScoring,
    /// Occurs when a round block with an opponent carries a bye code (`U`, `F`, `H`, `Z`):
    /// a bye has opponent `0000`.
    #[error("result code {0:?} is a bye, which has no opponent (write 0000 - {0})")]
    ByeWithOpponent(char),
    /// Occurs when a round block without an opponent (`0000` or blank) carries a game result
    /// (`1 = 0 W D L`): a round without a game is a bye (`U F H Z`), a forfeit (`+`, `-`) or
    /// blank.
    #[error(
        "result code {0:?} needs an opponent; a round without one takes U, F, H, Z, +, - or blank"
    )]
    GameWithoutOpponent(char),
    /// Occurs when a player's line names an opponent whose line, in that round, names nobody
    /// or someone else.
    #[error("player {start_no} meets {opponent} in round {round}, but {opponent}'s line {}", match named { Some(n) => format!("names {n} in that round"), None => "has no game in that round".to_string() })]
    OneSidedGame {
        /// The player whose line names the opponent.
        start_no: u32,
        /// The opponent named.
        opponent: u32,
        /// The round (1-based).
        round: u32,
        /// Whom the opponent's line names instead, if anyone.
        named: Option<u32>,
    },
    /// Occurs when a player appears in two games of one round: his own line and another
    /// player's line both name him, with different opponents.
    #[error(
        "player {start_no} plays twice in round {round}: against {first} and against {second}"
    )]
    PairedTwice {
        /// The player who appears twice.
        start_no: u32,
        /// The round (1-based).
        round: u32,
        /// The opponent his own line names.
        first: u32,
        /// The other player whose line names him.
        second: u32,
    },
    /// Occurs when the two sides of a game do not have opposite colours (`w` against `b`), or
    /// one side has a colour and the other none.
    #[error("round {round}: player {start_no} has colour {colour} against {opponent}, whose line {opponent_line} has {opponent_colour}; one must be w and the other b")]
    ColourMismatch {
        /// The round (1-based).
        round: u32,
        /// The player of the reported line.
        start_no: u32,
        /// His colour letter (`-` for none).
        colour: char,
        /// The opponent.
        opponent: u32,
        /// The opponent's colour letter.
        opponent_colour: char,
        /// The opponent's line number.
        opponent_line: usize,
    },
    /// Occurs when the two sides of a game report results that cannot both be true (both
    /// won, a win against a draw, a forfeit against a game played, a result against blank…).
    #[error("round {round}: player {start_no} has result {result:?} against {opponent}, whose line {opponent_line} has {opponent_result:?}; the two results contradict each other")]
    ResultMismatch {
        /// The round (1-based).
        round: u32,
        /// The player of the reported line.
        start_no: u32,
        /// His result letter.
        result: char,
        /// The opponent.
        opponent: u32,
        /// The opponent's result letter.
        opponent_result: char,
        /// The opponent's line number.
        opponent_line: usize,
    },
    /// Occurs when a second player has the pairing-allocated bye (`U`) in one round.
    #[error("round {round}: player {start_no} has the pairing-allocated bye (U), which player {first} already has; a round has at most one")]
    SecondPairingBye {
        /// The second player with `U`.
        start_no: u32,
        /// The round (1-based).
        round: u32,
        /// The first player with `U`.
        first: u32,
    },
    /// Occurs when a `240` or `XXZ` line declares a bye for a round in which the player already
    /// has a game or a different bye.
    #[error("player {start_no} already has a record in round {round}")]
    ByeConflict {
        /// The player.
        start_no: u32,
        /// The round (1-based).
        round: u32,
    },
}

#[cfg(test)]
mod tests;

/// Convenience for tests elsewhere in the crate: parse, panicking with the error's position.
#[cfg(test)]
pub(crate) fn parse_ok(text: &str) -> Tournament {
    match parse(text) {
        Ok(t) => t,
        Err(e) => panic!("TRF should parse: {e}"),
    }
}

/// What is wrong with a header record ([`TrfErrorKind::InvalidHeader`]): the values, not a
/// sentence (the server words them in each language; `Display` is the English).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderProblem {
    /// `XXC`'s colour is not `W` or `B`.
    #[error("expected W or B")]
    ExpectedWOrB,
    /// A number field is not a whole number.
    #[error("expected a whole number")]
    ExpectedWholeNumber,
    /// A round number outside 1–999.
    #[error("expected a round number from 1 to 999")]
    ExpectedRound,
    /// A `240` bye type other than `F`, `H`, `Z`.
    #[error("bye type must be F, H or Z")]
    ByeType,
    /// A `240` line without its bye type.
    #[error("missing bye type")]
    MissingByeType,
    /// A `240` line without its round.
    #[error("missing round")]
    MissingRound,
    /// A `250` line with match points.
    #[error("match points must be empty")]
    MatchPoints,
    /// A `250` line without its fields.
    #[error("expected points, first and last round, first and last player")]
    AccelerationFields,
    /// A `250` range that ends before it starts.
    #[error("a range ends before it starts")]
    BackwardsRange,
    /// A `162` symbol without its points.
    #[error("a symbol needs points")]
    SymbolNeedsPoints,
    /// A `162` symbol other than `W D L A P X`.
    #[error("symbol must be W, D, L, A, P or X")]
    UnknownSymbol,
    /// An `XXS` word that is not `CODE=VALUE`.
    #[error("expected CODE=VALUE")]
    ExpectedCodeValue,
    /// An `XXS` code the model does not know.
    #[error("unknown scoring code")]
    UnknownScoringCode,
    /// A `BB?` line without exactly one value.
    #[error("expected one points value")]
    ExpectedOnePoints,
    /// A `### arbiter` word that is not `KEY=VALUE`.
    #[error("expected KEY=VALUE")]
    ExpectedKeyValue,
    /// `pairing_system` is not one of [`PAIRING_SYSTEMS`].
    #[error("pairing_system must be one of {}", PAIRING_SYSTEMS.join(", "))]
    PairingSystem,
    /// A tie-break of `tiebreaks` is unknown.
    #[error("tiebreaks: {0}")]
    Tiebreak(crate::standings::KeyError),
    /// `unplayed` is not a mode (the value, trimmed and in lower case).
    #[error("unknown unplayed-round mode {0:?} (known: cxa, fide2023, fide2026, none)")]
    Unplayed(String),
    /// `foul_threshold` is not 1–99.
    #[error("foul_threshold must be a whole number from 1 to 99")]
    FoulThreshold,
    /// `forfeit_counts_as_met` is not `true` or `false`.
    #[error("forfeit_counts_as_met must be true or false")]
    ForfeitCountsAsMet,
    /// An unknown key.
    #[error(
        "unknown key {0:?} (known: pairing_system, tiebreaks, unplayed, foul_threshold, \
         forfeit_counts_as_met)"
    )]
    UnknownKey(String),
}
