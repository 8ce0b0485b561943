//! arbiter's private extension lines: the settings of a section that no TRF record carries,
//! as TRF-26 comment lines (`###`), which every other program skips.
//!
//! ```text
//! ### arbiter pairing_system=chinese
//! ### arbiter tiebreaks=OPP,PS,WIN
//! ### arbiter unplayed=cxa
//! ### arbiter foul_threshold=2
//! ### arbiter forfeit_counts_as_met=true
//! ```
//!
//! One `KEY=VALUE` per line (several on one line, separated by blanks, are read too). The
//! number of rounds, the scoring and the first board's colour already have standard records
//! (`142`/`XXR`, `162`/`XXS`, `152`/`XXC`) and are not repeated here. The lines are checked
//! when the file is read: an unknown key or a bad value is an error with its line and column.

use super::{HeaderProblem, TrfError, TrfErrorKind};
use crate::model::Tournament;
use crate::standings::{TiebreakKey, UnplayedMode};

/// The word after `###` that marks arbiter's lines.
const MARK: &str = "arbiter";

/// The pairing systems a section can have.
pub const PAIRING_SYSTEMS: [&str; 3] = ["chinese", "dutch", "round_robin"];

/// Section settings carried by `### arbiter` lines; `None` where the file says nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SectionSettings {
    /// `pairing_system`: `chinese`, `dutch` or `round_robin`.
    pub pairing_system: Option<String>,
    /// `tiebreaks`: the chain after points, canonical key names (`BH/C1`), comma-separated in
    /// the file; empty for none.
    pub tiebreaks: Option<Vec<String>>,
    /// `unplayed`: unplayed rounds in Buchholz-like keys (`cxa`, `fide2023`, `fide2026`,
    /// `none`).
    pub unplayed: Option<String>,
    /// `foul_threshold`: fouls in one game that lose it (1–99).
    pub foul_threshold: Option<u32>,
    /// `forfeit_counts_as_met`: whether a forfeited pairing counts as having met.
    pub forfeit_counts_as_met: Option<bool>,
}

impl SectionSettings {
    /// The settings in `t`'s kept header lines (a file read by [`parse`](super::parse), whose
    /// `### arbiter` lines were checked then). Later lines win.
    pub fn of(t: &Tournament) -> SectionSettings {
        let mut settings = SectionSettings::default();
        for (code, text) in &t.headers {
            if code != "###" {
                continue;
            }
            let mut words = text.split_whitespace();
            if words.next() != Some(MARK) {
                continue;
            }
            for word in words {
                if let Some((key, value)) = word.split_once('=') {
                    // Already checked when read; a bad pair (a hand-built model) is skipped.
                    let _ = settings.set(key, value);
                }
            }
        }
        settings
    }

    /// The header lines (`("###", "arbiter KEY=VALUE")`) for the settings that are given, to
    /// append to [`Tournament::headers`] before writing.
    pub fn headers(&self) -> Vec<(String, String)> {
        let mut lines = Vec::new();
        let mut push = |key: &str, value: String| {
            lines.push(("###".to_string(), format!("{MARK} {key}={value}")));
        };
        if let Some(system) = &self.pairing_system {
            push("pairing_system", system.clone());
        }
        if let Some(keys) = &self.tiebreaks {
            push("tiebreaks", keys.join(","));
        }
        if let Some(mode) = &self.unplayed {
            push("unplayed", mode.clone());
        }
        if let Some(n) = self.foul_threshold {
            push("foul_threshold", n.to_string());
        }
        if let Some(flag) = self.forfeit_counts_as_met {
            push("forfeit_counts_as_met", flag.to_string());
        }
        lines
    }

    /// Sets one key; the error says what is wrong with the value (or that the key is unknown).
    fn set(&mut self, key: &str, value: &str) -> Result<(), HeaderProblem> {
        match key {
            "pairing_system" => {
                if !PAIRING_SYSTEMS.contains(&value) {
                    return Err(HeaderProblem::PairingSystem);
                }
                self.pairing_system = Some(value.to_string());
            }
            "tiebreaks" => {
                let mut keys = Vec::new();
                for name in value.split(',').filter(|k| !k.is_empty()) {
                    let key = name
                        .parse::<TiebreakKey>()
                        .map_err(HeaderProblem::Tiebreak)?;
                    keys.push(key.name());
                }
                self.tiebreaks = Some(keys);
            }
            "unplayed" => {
                value
                    .parse::<UnplayedMode>()
                    .map_err(|_| HeaderProblem::Unplayed(value.trim().to_ascii_lowercase()))?;
                self.unplayed = Some(value.to_ascii_lowercase());
            }
            "foul_threshold" => match value.parse::<u32>() {
                Ok(n) if (1..=99).contains(&n) => self.foul_threshold = Some(n),
                _ => return Err(HeaderProblem::FoulThreshold),
            },
            "forfeit_counts_as_met" => match value {
                "true" => self.forfeit_counts_as_met = Some(true),
                "false" => self.forfeit_counts_as_met = Some(false),
                _ => return Err(HeaderProblem::ForfeitCountsAsMet),
            },
            _ => return Err(HeaderProblem::UnknownKey(key.to_string())),
        }
        Ok(())
    }
}

/// Whether a `###` line's text (after column 4) is one of arbiter's.
pub(super) fn is_arbiter_line(text: &str) -> bool {
    text.split_whitespace().next() == Some(MARK)
}

/// Checks one `### arbiter …` line: every word after the mark is a known `KEY=VALUE`.
/// `tokens` are the line's words after column 4 with their 1-based columns.
pub(super) fn check_line(line: usize, tokens: &[(usize, String)]) -> Result<(), TrfError> {
    let mut scratch = SectionSettings::default();
    for (column, word) in tokens.iter().skip(1) {
        let Some((key, value)) = word.split_once('=') else {
            return Err(invalid(line, *column, HeaderProblem::ExpectedKeyValue));
        };
        let value_column = column + key.chars().count() + 1;
        scratch.set(key, value).map_err(|reason| {
            let at = if matches!(reason, HeaderProblem::UnknownKey(_)) {
                *column
            } else {
                value_column
            };
            invalid(line, at, reason)
        })?;
    }
    Ok(())
}

fn invalid(line: usize, column: usize, reason: HeaderProblem) -> TrfError {
    TrfError {
        line,
        column,
        kind: TrfErrorKind::InvalidHeader {
            code: "### arbiter".into(),
            reason,
        },
    }
}
