//! One validation for human text: names, clubs, titles, notes (人名、棋会、备注).
//!
//! Everything a person types and another person later reads goes through [`clean`]. The rules
//! exist because such text ends up on printed pairing sheets, in spreadsheets and in other
//! programs' files, where an invisible character does real harm:
//!
//! - the text is normalised to NFC, so `é` typed two ways is one name (and one sort key);
//! - leading and trailing white space is trimmed;
//! - control characters are refused (C0, DEL, C1), except a line break in multi-line text,
//!   where `\r\n` and a lone `\r` become `\n`;
//! - bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are
//!   refused: a right-to-left override makes a printed name read backwards;
//! - line and paragraph separators (U+2028, U+2029) are refused in single-line text;
//! - U+FFFD (the replacement character) and non-characters are refused: they only appear when
//!   text was garbled on the way;
//! - a text that is empty once white space and zero-width characters are removed counts as
//!   empty (a name made of one zero-width space is no name);
//! - zero-width spaces (U+200B), word joiners and invisible operators (U+2060–U+2064), the
//!   byte-order mark (U+FEFF), soft hyphens (U+00AD) and tag characters (U+E0000–U+E007F)
//!   inside a text are removed: they make two names that look the same differ, and hide
//!   text; joiners (U+200C, U+200D), which some scripts and emoji need, are kept;
//! - a text with nothing visible — only invisible characters, combining marks, variation
//!   selectors (U+FE00–U+FE0F, U+E0100–U+E01EF), tag characters or the Khmer inherent vowels
//!   (U+17B4, U+17B5) — counts as empty: such a name prints as a blank;
//! - the length is counted in characters after normalisation.

use unicode_normalization::UnicodeNormalization as _;

/// Whether a text may span several lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// One line: names, clubs, titles.
    Single,
    /// Notes: line breaks allowed.
    Multi,
}

/// Why a text was refused. The messages are written to be shown next to the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Occurs when nothing visible is left.
    #[error("is required")]
    Empty,
    /// Occurs when the text is longer than the field allows.
    #[error("must be at most {0} characters")]
    TooLong(usize),
    /// Occurs on a control character (given as U+XXXX).
    #[error("must not contain control characters (found {0})")]
    Control(String),
    /// Occurs on a line break in a single-line field.
    #[error("must be a single line")]
    LineBreak,
    /// Occurs on a bidirectional override, embedding or isolate.
    #[error("must not contain text-direction control characters (found {0})")]
    Bidi(String),
    /// Occurs on U+FFFD or a non-character.
    #[error("contains a garbled character ({0}); type the text again")]
    Garbled(String),
}

fn code(c: char) -> String {
    if c == '\0' {
        // PostgreSQL cannot store it at all; name it plainly.
        return "U+0000 NUL".to_string();
    }
    format!("U+{:04X}", u32::from(c))
}

/// Zero-width and blank-looking characters that do not make a text visible.
pub fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}'
                | '\u{2060}'..='\u{2064}'
                | '\u{FEFF}'
                | '\u{180E}'
                | '\u{034F}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{3164}'
                | '\u{FFA0}'
                | '\u{2800}'
                | '\u{00AD}'
        )
}

/// Characters removed wherever they are (see the module's rules).
fn is_stripped(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}' | '\u{E0000}'..='\u{E007F}'
    )
}

/// Characters that show nothing by themselves: a text made only of them is blank.
pub fn shows_nothing(c: char) -> bool {
    is_invisible(c)
        || unicode_normalization::char::is_combining_mark(c)
        || matches!(
            c,
            '\u{FE00}'..='\u{FE0F}'
                | '\u{E0100}'..='\u{E01EF}'
                | '\u{E0000}'..='\u{E007F}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200C}'
                | '\u{200D}'
        )
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn is_noncharacter(c: char) -> bool {
    let n = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&n) || (n & 0xFFFE) == 0xFFFE
}

/// Validates and normalises a human text of at most `max` characters. An empty result (after
/// trimming) is `Ok("")`: callers decide whether the field is required (see [`clean_required`]).
pub fn clean(value: &str, lines: Lines, max: usize) -> Result<String, TextError> {
    let unified;
    let value = if lines == Lines::Multi && value.contains('\r') {
        unified = value.replace("\r\n", "\n").replace('\r', "\n");
        unified.as_str()
    } else {
        value
    };
    for c in value.chars() {
        if c == '\n' {
            if lines == Lines::Single {
                return Err(TextError::LineBreak);
            }
        } else if c == '\u{2028}' || c == '\u{2029}' {
            return Err(TextError::LineBreak);
        } else if c.is_control() {
            if matches!(c, '\r' | '\u{0085}') && lines == Lines::Single {
                return Err(TextError::LineBreak);
            }
            return Err(TextError::Control(code(c)));
        } else if is_bidi_control(c) {
            return Err(TextError::Bidi(code(c)));
        } else if c == '\u{FFFD}' || is_noncharacter(c) {
            return Err(TextError::Garbled(code(c)));
        }
    }
    let normal: String = value.chars().filter(|c| !is_stripped(*c)).nfc().collect();
    let trimmed = normal.trim_matches(is_invisible);
    if trimmed.chars().all(shows_nothing) {
        return Ok(String::new());
    }
    let text = if lines == Lines::Multi {
        // Trailing blanks on each line are noise in a note.
        trimmed
            .split('\n')
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        trimmed.to_string()
    };
    if text.chars().count() > max {
        return Err(TextError::TooLong(max));
    }
    Ok(text)
}

/// Like [`clean`], but an empty text is an error.
pub fn clean_required(value: &str, lines: Lines, max: usize) -> Result<String, TextError> {
    let text = clean(value, lines, max)?;
    if text.is_empty() {
        return Err(TextError::Empty);
    }
    Ok(text)
}

/// Why a username was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UsernameError {
    /// Occurs when the name breaks the human-text rules ([`clean`]).
    #[error("{0}")]
    Text(TextError),
    /// Occurs on a space or an invisible, zero-width, formatting or combining-only character
    /// (U+200B, U+00AD, U+3164, …): two names that look the same must not be two accounts.
    #[error("must not contain spaces or invisible characters ({0})")]
    Invisible(String),
}

/// The longest username, in characters.
pub const USERNAME_MAX: usize = 64;

/// Validates a username: the human-text rules, then no white space and no character that
/// shows nothing or only formats (general category Cf: zero-width, soft hyphen, tags, bidi
/// marks; the Hangul fillers). Returns it trimmed and in NFC.
pub fn username(value: &str) -> Result<String, UsernameError> {
    let name = clean_required(value, Lines::Single, USERNAME_MAX).map_err(UsernameError::Text)?;
    // `clean` strips some invisible characters silently; a username must not differ from
    // what was typed by characters nobody sees, so they are refused on the typed text.
    for c in value.trim().chars().chain(name.chars()) {
        if c.is_whitespace() || is_invisible(c) || is_stripped(c) || is_format(c) {
            return Err(UsernameError::Invisible(code(c)));
        }
    }
    if name.chars().all(shows_nothing) {
        return Err(UsernameError::Text(TextError::Empty));
    }
    Ok(name)
}

/// General category Cf (format) characters that can hide in a name.
fn is_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}'
        | '\u{E0000}'..='\u{E007F}' | '\u{3164}' | '\u{FFA0}' | '\u{115F}' | '\u{1160}'
        | '\u{FE00}'..='\u{FE0F}' | '\u{034F}')
}

/// What two usernames are compared by: the UTS #39 confusable skeleton of the name in NFKC
/// and lower case, so `ChiefA`, `chiefa` and `chiefа` (Cyrillic а) are one name.
pub fn username_skeleton(name: &str) -> String {
    let folded: String = name.nfkc().flat_map(char::to_lowercase).collect();
    let skeleton: String = unicode_security::confusable_detection::skeleton(&folded).collect();
    skeleton.chars().flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn usernames_refuse_what_nobody_sees_and_look_alikes_share_a_skeleton() {
        assert_eq!(username(" chiefA ").as_deref(), Ok("chiefA"));
        assert_eq!(username("裁判長").as_deref(), Ok("裁判長"));
        for bad in [
            "chief\u{200B}A",
            "chief\u{202E}A",
            "chief\u{3164}",
            "\u{3164}",
            "chi\u{00AD}efA",
            "chief A",
            "chief\u{FE0F}",
            "\u{0301}",
            "chief\u{E0041}",
        ] {
            assert!(username(bad).is_err(), "{bad:?}");
        }
        let chief = username_skeleton("chiefA");
        assert_eq!(username_skeleton("ChiefA"), chief);
        assert_eq!(username_skeleton("chiefa"), chief);
        assert_eq!(username_skeleton("chief\u{0430}"), chief, "Cyrillic a");
        assert_eq!(username_skeleton("ｃｈｉｅｆＡ"), chief, "full-width");
        assert_ne!(username_skeleton("chiefB"), chief);
        assert_eq!(username_skeleton("rn"), username_skeleton("m"));
    }

    #[test]
    fn examples() {
        assert_eq!(
            clean_required("  王小明 ", Lines::Single, 10).as_deref(),
            Ok("王小明")
        );
        assert_eq!(
            clean_required("\u{200B}", Lines::Single, 10),
            Err(TextError::Empty)
        );
        assert_eq!(
            clean_required(" \u{3000}\u{FEFF} ", Lines::Single, 10),
            Err(TextError::Empty)
        );
        assert!(matches!(
            clean("a\u{1}b", Lines::Single, 10),
            Err(TextError::Control(_))
        ));
        assert!(matches!(
            clean("a\u{7f}b", Lines::Single, 10),
            Err(TextError::Control(_))
        ));
        assert!(matches!(
            clean("a\u{9b}b", Lines::Multi, 10),
            Err(TextError::Control(_))
        ));
        assert_eq!(clean("a\rb", Lines::Single, 10), Err(TextError::LineBreak));
        assert_eq!(clean("a\nb", Lines::Single, 10), Err(TextError::LineBreak));
        assert_eq!(
            clean("a\r\nb\rc ", Lines::Multi, 10).as_deref(),
            Ok("a\nb\nc")
        );
        assert!(matches!(
            clean("evil\u{202E}gpj.exe", Lines::Single, 99),
            Err(TextError::Bidi(_))
        ));
        assert!(matches!(
            clean("x\u{2067}y", Lines::Single, 99),
            Err(TextError::Bidi(_))
        ));
        assert!(matches!(
            clean("\u{FFFD}\u{FFFD}", Lines::Single, 99),
            Err(TextError::Garbled(_))
        ));
        // NFC: e + combining acute is é; the length counts the composed form.
        assert_eq!(clean("e\u{301}", Lines::Single, 1).as_deref(), Ok("\u{e9}"));
        assert_eq!(clean("abcd", Lines::Single, 3), Err(TextError::TooLong(3)));
        assert_eq!(clean("", Lines::Single, 3).as_deref(), Ok(""));
        // Joiners inside a name (emoji sequences, Indic scripts) are kept.
        assert_eq!(
            clean("a\u{200D}b", Lines::Single, 9).as_deref(),
            Ok("a\u{200D}b")
        );
    }

    #[test]
    fn texts_that_show_nothing_are_empty_and_hidden_characters_go() {
        for blank in [
            "\u{FE0F}",
            "\u{FE0F}\u{FE0F}\u{FE0E}",
            "\u{0301}",
            "\u{0301}\u{0308}",
            "\u{17B4}",
            "\u{17B4}\u{17B5}",
            "\u{E0041}\u{E0042}",
            "\u{200D}\u{FE0F}",
            "\u{3164}",
            "\u{00AD}",
        ] {
            assert_eq!(
                clean_required(blank, Lines::Single, 20),
                Err(TextError::Empty),
                "{blank:?}"
            );
        }
        assert_eq!(
            clean("Wang\u{200B}Li", Lines::Single, 20).as_deref(),
            Ok("WangLi")
        );
        assert_eq!(
            clean("Li\u{E0041}\u{E007F}n", Lines::Single, 20).as_deref(),
            Ok("Lin")
        );
        assert_eq!(
            clean("so\u{00AD}ft", Lines::Single, 20).as_deref(),
            Ok("soft")
        );
        // A visible letter with marks and selectors stays as typed.
        assert_eq!(
            clean("\u{2764}\u{FE0F}", Lines::Single, 20).as_deref(),
            Ok("\u{2764}\u{FE0F}")
        );
        // Removal before normalisation: the mark composes with its letter.
        assert_eq!(
            clean("e\u{200B}\u{0301}", Lines::Single, 1).as_deref(),
            Ok("\u{e9}")
        );
    }

    fn forbidden(c: char, lines: Lines) -> bool {
        (c.is_control() && !(c == '\n' && lines == Lines::Multi))
            || is_bidi_control(c)
            || c == '\u{FFFD}'
            || is_noncharacter(c)
            || c == '\u{2028}'
            || c == '\u{2029}'
    }

    proptest! {
        #[test]
        fn accepted_text_is_clean(s in "\\PC{0,40}|[\\x00-\\x7f\u{200b}\u{202e}\u{2066}\u{fe0f}\u{301}\u{17b4}\u{e0041}\u{ad} \n\r]{0,20}", multi in any::<bool>()) {
            let lines = if multi { Lines::Multi } else { Lines::Single };
            match clean(&s, lines, 30) {
                Ok(text) => {
                    prop_assert!(text.chars().count() <= 30);
                    prop_assert!(!text.chars().any(|c| forbidden(c, lines)));
                    prop_assert!(!text.starts_with(is_invisible) && !text.ends_with(is_invisible));
                    prop_assert!(text.is_empty() || text.chars().any(|c| !shows_nothing(c)));
                    prop_assert!(!text.chars().any(is_stripped));
                    prop_assert_eq!(text.nfc().collect::<String>(), text.clone());
                    // Cleaning is idempotent.
                    prop_assert_eq!(clean(&text, lines, 30), Ok(text.clone()));
                }
                Err(TextError::TooLong(_)) => prop_assert!(s.nfc().count() > 30),
                Err(_) => {
                    let unified = s.replace("\r\n", "\n").replace('\r', "\n");
                    let probe = if multi { unified.as_str() } else { s.as_str() };
                    prop_assert!(probe.chars().any(|c| forbidden(c, lines)), "refused {:?}", s);
                }
            }
        }

        #[test]
        fn a_bidi_control_anywhere_is_refused(a in "\\PC{0,10}", b in "\\PC{0,10}", i in 0usize..4) {
            let c = ['\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}'][i];
            let s = format!("{a}{c}{b}");
            prop_assert!(matches!(clean(&s, Lines::Multi, 100), Err(TextError::Bidi(_)) | Err(TextError::Control(_)) | Err(TextError::Garbled(_)) | Err(TextError::LineBreak)));
        }
    }
}
