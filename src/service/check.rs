//! Input validation that collects every problem at once, field by field, so a form or a JSON
//! client learns everything to fix in one answer.

use super::{Error, FieldErrors, Result};
use crate::i18n::messages::{self as m, Msg};
use arbiter_core::text::{self, Lines};
use chrono::NaiveDate;

/// Collects field errors.
#[derive(Debug, Default)]
pub struct Check {
    fields: FieldErrors,
}

impl Check {
    /// No errors yet.
    pub fn new() -> Check {
        Check::default()
    }

    /// Records a problem with `field`.
    pub fn error(&mut self, field: &str, message: impl Into<Msg>) {
        self.fields
            .entry(field.to_string())
            .or_default()
            .push(message.into());
    }

    /// A required one-line text (a name, a club, a title), cleaned by
    /// [`arbiter_core::text::clean`]: NFC, trimmed, no control or direction characters,
    /// something visible, at most `max` characters.
    pub fn required_text(&mut self, field: &str, value: &str, max: usize) -> String {
        match text::clean_required(value, Lines::Single, max) {
            Ok(text) => text,
            Err(err) => {
                self.error(field, text_error(&err));
                value.trim().to_string()
            }
        }
    }

    /// An optional one-line text, cleaned as [`Check::required_text`]; empty becomes `None`.
    pub fn optional_text(
        &mut self,
        field: &str,
        value: Option<&str>,
        max: usize,
    ) -> Option<String> {
        self.cleaned(field, value, Lines::Single, max)
    }

    /// An optional multi-line text (a note): as [`Check::optional_text`], line breaks allowed.
    pub fn optional_note(
        &mut self,
        field: &str,
        value: Option<&str>,
        max: usize,
    ) -> Option<String> {
        self.cleaned(field, value, Lines::Multi, max)
    }

    fn cleaned(
        &mut self,
        field: &str,
        value: Option<&str>,
        lines: Lines,
        max: usize,
    ) -> Option<String> {
        match text::clean(value?, lines, max) {
            Ok(text) if text.is_empty() => None,
            Ok(text) => Some(text),
            Err(err) => {
                self.error(field, text_error(&err));
                None
            }
        }
    }

    /// An optional birth date: between 1900-01-01 and today.
    pub fn birth_date(&mut self, field: &str, value: Option<NaiveDate>) -> Option<NaiveDate> {
        let date = value?;
        let today = chrono::Utc::now().date_naive();
        let earliest = NaiveDate::from_ymd_opt(1900, 1, 1).unwrap_or(NaiveDate::MIN);
        if date < earliest || date > today {
            self.error(field, m::TEXT_OUT_RANGE_MUST_BETWEEN.with(&[&today]));
            return None;
        }
        Some(date)
    }

    /// A value that must be one of `allowed`.
    pub fn one_of(&mut self, field: &str, value: &str, allowed: &[&str]) -> String {
        if !allowed.contains(&value) {
            self.error(field, m::CHECK_ONE_OF.with(&[&allowed.join(", ")]));
        }
        value.to_string()
    }

    /// A word of a vocabulary (`crate::vocab`); `current` (kept) when it is none of `all`
    /// (`all` may be a part of the vocabulary, e.g. the results one can enter).
    pub fn word<T: Copy + PartialEq + std::str::FromStr + std::fmt::Display>(
        &mut self,
        field: &str,
        value: &str,
        all: &[T],
        current: T,
    ) -> T {
        match value.parse::<T>() {
            Ok(word) if all.contains(&word) => word,
            _ => {
                let allowed: Vec<String> = all.iter().map(|w| w.to_string()).collect();
                self.error(field, m::CHECK_ONE_OF.with(&[&allowed.join(", ")]));
                current
            }
        }
    }

    /// An integer within `min..=max`.
    pub fn range(&mut self, field: &str, value: i64, min: i64, max: i64) -> i32 {
        if value < min || value > max {
            self.error(field, m::CHECK_BETWEEN.with(&[&min, &max]));
            return min as i32;
        }
        value as i32
    }

    /// Takes `other`'s problems, each field named under `prefix` (`team.` + `roster[0].name`).
    pub fn absorb(&mut self, other: Check, prefix: &str) {
        for (field, messages) in other.fields {
            self.fields
                .entry(format!("{prefix}{field}"))
                .or_default()
                .extend(messages);
        }
    }

    /// Whether anything was recorded.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// `Ok` when nothing was recorded, else `Error::Invalid` with every message.
    pub fn finish(self) -> Result<()> {
        if self.fields.is_empty() {
            return Ok(());
        }
        let message = Msg::sentences(
            self.fields
                .iter()
                .map(|(field, messages)| Msg::field(field, Msg::list(messages.iter().cloned()))),
        );
        Err(Error::Invalid {
            message,
            fields: self.fields,
        })
    }
}

/// The message for a refused text (`arbiter_core::text` stays free of languages).
pub fn text_error(error: &text::TextError) -> Msg {
    use text::TextError;
    match error {
        TextError::Empty => m::CHECK_REQUIRED.msg(),
        TextError::TooLong(max) => m::CHECK_TOO_LONG.with(&[max]),
        TextError::Control(found) => m::TEXT_MUST_NOT_CONTAIN_CONTROL.with(&[found]),
        TextError::LineBreak => m::TEXT_MUST_SINGLE_LINE.msg(),
        TextError::Bidi(found) => m::TEXT_MUST_NOT_CONTAIN_TEXT.with(&[found]),
        TextError::Garbled(found) => m::TEXT_CONTAINS_GARBLED_CHARACTER_TYPE.with(&[found]),
    }
}

/// Points given as a decimal (`2`, `0.5`) to tenths; `None` unless exact in tenths and in range.
pub fn points_to_tenths(value: f64) -> Option<i32> {
    let tenths = (value * 10.0).round();
    ((value * 10.0 - tenths).abs() < 1e-6 && (0.0..=1000.0).contains(&tenths))
        .then_some(tenths as i32)
}
