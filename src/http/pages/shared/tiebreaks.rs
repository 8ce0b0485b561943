//! Tiebreaks by name: the standings' column heads and the player's page say what each number
//! is in the page's language, the chain's code only as a secondary label.

use crate::i18n::Tr;

/// The tiebreaks the catalogue names (`tiebreak.name.<KEY>`, `tiebreak.short.<KEY>`,
/// `tiebreak.desc.<KEY>`): every key the core knows, without its `/C1`-like modifier.
const NAMED: [&str; 14] = [
    "BH",
    "BPG",
    "BWG",
    "CUT_EARLY",
    "DE",
    "FOULS",
    "LOT",
    "OPP",
    "PREV",
    "PS",
    "RTNG",
    "SB",
    "WIN",
    "WON",
];

/// The catalogue's part of a key (`BH/C1` → `BH`), if it names it.
fn base(key: &str) -> Option<&'static str> {
    let base = key.split('/').next().unwrap_or(key);
    NAMED.iter().copied().find(|named| *named == base)
}

/// The translated name of a tiebreak key (`BH/C1` → Buchholz), or empty for one unknown.
pub fn name(tr: Tr, key: &str) -> String {
    base(key)
        .map(|b| tr.t(&format!("tiebreak.name.{b}")).to_string())
        .unwrap_or_default()
}

/// The keys the chain editor offers, in the order of its choices: every base key, and the
/// cut and median variants clubs use (a stored key outside this list is offered too).
pub const CHOICES: &[&str] = &[
    "OPP",
    "BH",
    "BH/C1",
    "BH/C2",
    "BH/M1",
    "SB",
    "SB/C1",
    "PS",
    "PS/C1",
    "CUT_EARLY",
    "WIN",
    "WON",
    "BPG",
    "BWG",
    "DE",
    "FOULS",
    "PREV",
    "RTNG",
    "LOT",
];

/// A key's modifier in words (`BH/C1` → "without the lowest 1"), if it has one.
fn modifier_words(tr: Tr, key: &str) -> Option<String> {
    let (base, modifier) = key.split_once('/')?;
    let count: u32 = modifier.get(1..)?.parse().ok()?;
    Some(match (base, modifier.chars().next()?) {
        // A progressive score's cut drops its first rounds, not its lowest opponents.
        ("PS", 'C') => tr.fmt("tiebreak.mod.first", count),
        (_, 'C') => tr.fmt("tiebreak.mod.cut", count),
        (_, 'M') => tr.fmt("tiebreak.mod.median", count),
        _ => return None,
    })
}

/// The translated name of a key with its modifier in words ("Buchholz, without the lowest
/// 1"); the key itself for one the catalogue does not name.
pub fn full_name(tr: Tr, key: &str) -> String {
    let plain = name(tr, key);
    if plain.is_empty() {
        return key.to_string();
    }
    match modifier_words(tr, key) {
        Some(words) => {
            let separator = match tr.lang {
                crate::i18n::Lang::En => ", ",
                _ => "，",
            };
            format!("{plain}{separator}{words}")
        }
        None => plain,
    }
}

/// A standings column head: a short name, and the full name with its explanation and code
/// as the tooltip.
pub struct TiebreakHead {
    /// The code in the chain (`OPP`, `BH/C1`).
    pub key: String,
    /// The head: a short name in the page's language (the code for one unknown).
    pub short: String,
    /// "Name (CODE): what it counts".
    pub title: String,
    /// The full name with the modifier in words (the key for one unknown).
    pub name: String,
    /// What it counts (the general tiebreak help for one unknown).
    pub desc: String,
}

/// The column heads of a chain.
pub fn heads(tr: Tr, keys: &[String]) -> Vec<TiebreakHead> {
    keys.iter()
        .map(|key| match base(key) {
            Some(b) => {
                // A modifier (`/C1`: without the lowest opponent) stays visible on the head.
                let modifier = key.split_once('/').map(|(_, m)| format!(" /{m}"));
                TiebreakHead {
                    key: key.clone(),
                    short: format!(
                        "{}{}",
                        tr.t(&format!("tiebreak.short.{b}")),
                        modifier.unwrap_or_default()
                    ),
                    title: format!(
                        "{} ({key}): {}",
                        tr.t(&format!("tiebreak.name.{b}")),
                        tr.t(&format!("tiebreak.desc.{b}"))
                    ),
                    name: full_name(tr, key),
                    desc: tr.t(&format!("tiebreak.desc.{b}")).to_string(),
                }
            }
            None => TiebreakHead {
                key: key.clone(),
                short: key.clone(),
                title: tr.t("tiebreak.help").to_string(),
                name: key.clone(),
                desc: tr.t("tiebreak.help").to_string(),
            },
        })
        .collect()
}

/// Every tiebreak the catalogue names, as heads (for a legend next to the chain's field).
pub fn legend(tr: Tr) -> Vec<TiebreakHead> {
    let keys: Vec<String> = NAMED.iter().map(|k| (*k).to_string()).collect();
    heads(tr, &keys)
}

/// The chain editor's choices: [`CHOICES`], then any of `keys` not among them (a stored
/// or submitted key stays selectable, and the service says what is wrong with it).
pub fn choices(tr: Tr, keys: &[String]) -> Vec<TiebreakHead> {
    let mut all: Vec<String> = CHOICES.iter().map(|k| (*k).to_string()).collect();
    for key in keys {
        if !all.contains(key) {
            all.push(key.clone());
        }
    }
    heads(tr, &all)
}

/// The named chains a section may take instead of its own (the core's presets), the empty
/// choice first ("as chosen below" or "keep the chain").
pub const PRESETS: &[&str] = &[
    "",
    "cxa2011_opp",
    "cxa2011_prog",
    "seed002_main",
    "seed002_supp",
    "seed004_tw",
    "fide_swiss",
];

/// A preset as a form offers it: its name, then its chain by name ("CXA 2011, opponents'
/// score first: Opponents' scores, Wins, …"); the word itself for one the core lacks.
pub fn preset_label(tr: Tr, word: &str) -> String {
    match word.parse::<arbiter_core::standings::Preset>() {
        Ok(preset) => {
            let chain: Vec<String> = preset
                .chain()
                .iter()
                .map(|key| {
                    let key = key.to_string();
                    match name(tr, &key) {
                        n if n.is_empty() => key,
                        n => n,
                    }
                })
                .collect();
            let separator = match tr.lang {
                crate::i18n::Lang::En => ", ",
                _ => "、",
            };
            format!(
                "{}: {}",
                tr.t(&format!("adm.preset.{word}")),
                chain.join(separator)
            )
        }
        Err(_) => word.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn every_named_tiebreak_has_a_name_a_head_and_an_explanation_in_every_language() {
        for lang in [Lang::En, Lang::ZhHant, Lang::ZhHans] {
            let tr = Tr { lang };
            for key in NAMED {
                for part in ["name", "short", "desc"] {
                    assert_ne!(
                        tr.t(&format!("tiebreak.{part}.{key}")),
                        "?",
                        "tiebreak.{part}.{key} in {lang:?}"
                    );
                }
            }
            assert!(name(tr, "BH/C1").len() > 1);
            assert_eq!(name(tr, "XYZ"), "");
            let heads = heads(tr, &["BH/C1".to_string(), "XYZ".to_string()]);
            assert!(heads[0].short.ends_with(" /C1"), "{}", heads[0].short);
            assert!(heads[0].title.contains("(BH/C1)"), "{}", heads[0].title);
            assert_eq!(heads[1].short, "XYZ");
            for key in CHOICES {
                let full = full_name(tr, key);
                assert!(!full.contains('?') && !full.contains(key), "{key}: {full}");
                assert!(
                    key.parse::<arbiter_core::standings::TiebreakKey>().is_ok(),
                    "{key}"
                );
            }
            assert_ne!(full_name(tr, "BH/C1"), full_name(tr, "BH/M1"));
            assert_eq!(choices(tr, &["XYZ".to_string()]).len(), CHOICES.len() + 1);
            for preset in PRESETS.iter().filter(|p| !p.is_empty()) {
                let label = preset_label(tr, preset);
                assert!(!label.contains('?') && !label.contains(preset), "{label}");
            }
        }
    }
}
