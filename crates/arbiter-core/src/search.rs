//! Finding a person by name across scripts (找人): the find-me box of the public pages.
//!
//! Players of one section come from Hong Kong, Taiwan and the mainland and type their own
//! script, and players from abroad type pinyin. A name and a query are both folded to forms
//! that meet:
//!
//! - **letters**: NFKD, combining marks dropped (`é` → `e`, `ǚ` → `u`), lower case, so Latin
//!   names match without case or accents and pinyin with tone marks matches without;
//! - **script**: Han characters in their simplified form (`陳` → `陈`, `黃` → `黄`, `國` →
//!   `国`), so traditional and simplified meet whichever side is typed (character_converter,
//!   MIT, OpenCC's tables);
//! - **pinyin**: a name's Han characters also read as their pinyin syllables without tones
//!   (`chen da wen`, `chendawen`) and as their initials (`cdw`); characters with several
//!   readings (曾 zeng/ceng, 单 shan/dan) give every reading, up to [`MAX_READINGS`] forms.
//!
//! Tone numbers in a query (`chen2 da4 wen2`) are dropped, and a `v` of typed pinyin stands
//! for `ü` (`lv` finds 吕 as `lu` does). Spaces count only inside a form: `chen da` and
//! `chenda` both find 陈大文. A match is ranked: the whole form ([`Rank::Exact`]), its start
//! ([`Rank::Prefix`]), or a part inside it ([`Rank::Substring`]).

use pinyin::ToPinyinMulti as _;
use std::borrow::Cow;
use unicode_normalization::UnicodeNormalization as _;

/// How well a query fits a name: a better match orders first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// The query is one of the name's forms.
    Exact,
    /// The query starts one of the name's forms.
    Prefix,
    /// The query is inside one of the name's forms.
    Substring,
}

/// The most pinyin readings a name is spelled in (each character with several readings
/// multiplies them; names are short, this only bounds a pathological one).
pub const MAX_READINGS: usize = 16;

/// A name prepared for searching: its forms, each without spaces and as words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameKey {
    forms: Vec<String>,
}

/// Letters folded: NFKD, marks dropped, lower case, full-width forms made half-width.
fn fold_letters(text: &str) -> String {
    text.nfkd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

fn is_han(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{3134F}')
}

/// Han characters in simplified form, character by character (a name is no phrase: a
/// phrase table could merge a surname with the given name).
fn simplified(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut buf = [0u8; 4];
    for c in text.chars() {
        if is_han(c) {
            let one: &str = c.encode_utf8(&mut buf);
            let s: Cow<str> = character_converter::traditional_to_simplified(one);
            out.push_str(&s);
        } else {
            out.push(c);
        }
    }
    out
}

/// The script- and letter-folded text: what a query and a name are compared in.
fn fold(text: &str) -> String {
    simplified(&fold_letters(text))
}

/// Collapses runs of white space and separators to one space, trimmed.
fn words(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || matches!(c, '·' | '・' | '-' | '.' | ',' | '_'))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

impl NameKey {
    /// The forms of `name` (a person's or a team's).
    pub fn new(name: &str) -> NameKey {
        let folded = words(&fold(name));
        let mut forms = vec![folded.clone(), folded.replace(' ', "")];
        // Pinyin readings: each Han character's readings, other characters kept as they are.
        let mut readings: Vec<(Vec<String>, Vec<String>)> = vec![(Vec::new(), Vec::new())];
        let mut has_han = false;
        for c in folded.chars() {
            let syllables: Vec<String> = match c.to_pinyin_multi() {
                Some(multi) if is_han(c) => {
                    has_han = true;
                    let mut all: Vec<String> =
                        multi.into_iter().map(|p| fold_letters(p.plain())).collect();
                    all.dedup();
                    all
                }
                _ => vec![c.to_string()],
            };
            let mut next = Vec::new();
            for (full, initials) in &readings {
                for s in &syllables {
                    if next.len() >= MAX_READINGS {
                        break;
                    }
                    let mut full = full.clone();
                    let mut initials = initials.clone();
                    if s != " " {
                        full.push(s.clone());
                        if let Some(first) = s.chars().next() {
                            initials.push(first.to_string());
                        }
                    }
                    next.push((full, initials));
                }
            }
            readings = next;
        }
        if has_han {
            for (full, initials) in readings {
                forms.push(full.join(" "));
                forms.push(full.concat());
                forms.push(initials.concat());
            }
        }
        forms.retain(|f| !f.is_empty());
        forms.sort();
        forms.dedup();
        NameKey { forms }
    }

    /// How well `query` (as [`Query::new`] made it) fits this name, if at all.
    pub fn rank(&self, query: &Query) -> Option<Rank> {
        let mut best: Option<Rank> = None;
        for form in &self.forms {
            for q in &query.forms {
                let rank = if form == q {
                    Rank::Exact
                } else if form.starts_with(q.as_str()) {
                    Rank::Prefix
                } else if form.contains(q.as_str()) {
                    Rank::Substring
                } else {
                    continue;
                };
                best = Some(best.map_or(rank, |b| b.min(rank)));
            }
        }
        best
    }
}

/// A query prepared for searching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    forms: Vec<String>,
}

impl Query {
    /// The forms of what was typed; `None` when nothing searchable is left.
    pub fn new(text: &str) -> Option<Query> {
        let folded = words(&fold(text));
        let has_letters = folded.chars().any(|c| c.is_alphabetic());
        // Tone numbers typed after syllables (`chen2`) are dropped; a query of digits only
        // is a start number, which the caller handles.
        let folded = if has_letters {
            words(&folded.replace(|c: char| c.is_ascii_digit(), " "))
        } else {
            folded
        };
        if folded.is_empty() {
            return None;
        }
        let mut forms = vec![folded.clone(), folded.replace(' ', "")];
        // Typed pinyin writes ü as v (lv, nv); a Latin name with v is found by the first forms.
        if folded.contains('v') {
            forms.push(folded.replace('v', "u"));
            forms.push(folded.replace('v', "u").replace(' ', ""));
        }
        forms.sort();
        forms.dedup();
        Some(Query { forms })
    }
}

/// The best rank of `query` over several names (a team's and its members').
pub fn best_rank<'a>(query: &Query, names: impl IntoIterator<Item = &'a str>) -> Option<Rank> {
    names
        .into_iter()
        .filter_map(|n| NameKey::new(n).rank(query))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(query: &str, name: &str) -> Option<Rank> {
        NameKey::new(name).rank(&Query::new(query).expect("a query"))
    }

    /// At least 30 pairs across scripts, pinyin forms, case and accents: (query, name, rank).
    const PAIRS: &[(&str, &str, Rank)] = &[
        ("陈大文", "陳大文", Rank::Exact),
        ("陳大文", "陈大文", Rank::Exact),
        ("黄", "黃秀英", Rank::Prefix),
        ("黃", "黄秀英", Rank::Prefix),
        ("秀英", "黃秀英", Rank::Substring),
        ("国", "張國榮", Rank::Substring),
        ("張国荣", "张國榮", Rank::Exact),
        ("刘", "劉德華", Rank::Prefix),
        ("德华", "劉德華", Rank::Substring),
        ("吴", "吳宗憲", Rank::Prefix),
        ("郑", "鄭伊健", Rank::Prefix),
        ("钟", "鍾鎮濤", Rank::Prefix),
        ("谢霆锋", "謝霆鋒", Rank::Exact),
        ("chen da wen", "陳大文", Rank::Exact),
        ("chendawen", "陈大文", Rank::Exact),
        ("cdw", "陳大文", Rank::Exact),
        ("Chen", "陳大文", Rank::Prefix),
        ("dawen", "陳大文", Rank::Substring),
        ("chén dà wén", "陈大文", Rank::Exact),
        ("chen2 da4 wen2", "陈大文", Rank::Exact),
        ("huang xiu ying", "黃秀英", Rank::Exact),
        ("hxy", "黄秀英", Rank::Exact),
        ("huang", "黃秀英", Rank::Prefix),
        ("zhang guo rong", "張國榮", Rank::Exact),
        ("zgr", "张国荣", Rank::Exact),
        ("liu de hua", "劉德華", Rank::Exact),
        ("lv", "吕建国", Rank::Prefix),
        ("lu jian guo", "呂建國", Rank::Exact),
        ("ceng", "曾志伟", Rank::Prefix),
        ("zeng zhi wei", "曾志偉", Rank::Exact),
        ("jose", "José García", Rank::Prefix),
        ("garcia", "José García", Rank::Substring),
        ("JOSÉ GARCÍA", "José García", Rank::Exact),
        ("muller", "Thomas Müller", Rank::Substring),
        ("nguyen van an", "Nguyễn Văn An", Rank::Exact),
        ("tran", "Trần Thị Bích", Rank::Prefix),
        ("wang li", "Wang Li", Rank::Exact),
        ("wangli", "Wang Li", Rank::Exact),
        ("ｗａｎｇ", "Wang Li", Rank::Prefix),
    ];

    #[test]
    fn names_are_found_across_scripts_and_pinyin() {
        assert!(PAIRS.len() >= 30);
        for &(query, name, expected) in PAIRS {
            assert_eq!(rank(query, name), Some(expected), "{query:?} in {name:?}");
        }
    }

    #[test]
    fn unrelated_names_are_not_found() {
        for (query, name) in [
            ("陈大文", "黃秀英"),
            ("李", "陳大文"),
            ("zhang", "陳大文"),
            ("cdx", "陳大文"),
            ("garcia", "Wang Li"),
            ("黄", "王小明"),
        ] {
            assert_eq!(rank(query, name), None, "{query:?} in {name:?}");
        }
    }

    #[test]
    fn ranks_order_exact_prefix_substring() {
        assert!(Rank::Exact < Rank::Prefix && Rank::Prefix < Rank::Substring);
        let q = Query::new("chen").expect("a query");
        let exact = NameKey::new("陳").rank(&q);
        let prefix = NameKey::new("陳大文").rank(&q);
        let inside = NameKey::new("王晨").rank(&q);
        assert_eq!(exact, Some(Rank::Exact));
        assert_eq!(prefix, Some(Rank::Prefix));
        assert_eq!(inside, Some(Rank::Substring));
    }

    #[test]
    fn empty_and_separator_queries_find_nothing() {
        assert_eq!(Query::new("   "), None);
        assert_eq!(Query::new(" · - "), None);
    }

    #[test]
    fn a_long_name_of_many_readings_stays_bounded() {
        let key = NameKey::new("行长行长行长行长行长");
        assert!(key.forms.len() <= 2 + 3 * MAX_READINGS);
    }

    #[test]
    fn best_rank_takes_the_best_of_a_team() {
        let q = Query::new("hxy").expect("a query");
        assert_eq!(
            best_rank(&q, ["Team A", "陳大文", "黃秀英"]),
            Some(Rank::Exact)
        );
        assert_eq!(best_rank(&q, ["Team A"]), None);
    }
}
