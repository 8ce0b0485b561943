//! Tie-break keys, their names (FIDE descriptor syntax and Chinese aliases) and presets.

use std::fmt;
use std::str::FromStr;

/// A Cut or Median modifier of a Buchholz-like key (FIDE C.07 art. 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// No modifier.
    None,
    /// `/Cn`: drop the `n` least significant values.
    Cut(u8),
    /// `/Mn`: drop the `n` least and the `n` most significant values.
    Median(u8),
}

/// One tie-break of a ranking chain. Points (积分, `PTS`) always come first and are not a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TiebreakKey {
    /// `OPP` 对手分: sum of the opponents' final scores, played or forfeited; a bye counts as an
    /// opponent with the configured bye score (CXA 2011 art. 14.4). Never FIDE-adjusted.
    Opp,
    /// `BH`, `BH/C1`, `BH/M1`, …: Buchholz under the chosen unplayed-round mode.
    Buchholz(Modifier),
    /// `SB`, `SB/C1`: Sonneborn-Berger (小分), opponent score × points scored against him.
    SonnebornBerger(Modifier),
    /// `PS`, `PS/C1`: sum of progressive scores (累进分); `/Cn` drops the first `n` terms.
    Progressive(u8),
    /// `WIN`: rounds worth a win, played or not (胜局, byes and forfeit wins included).
    Win,
    /// `WON`: games won over the board.
    Won,
    /// `BPG`: games played over the board with Black (后走局数).
    Bpg,
    /// `BWG`: games won over the board with Black (后胜局).
    Bwg,
    /// `DE`: direct encounter (直胜 / 雙方勝負), FIDE C.07 art. 6 with the Swiss rule 6.3.
    De,
    /// `FOULS`: total technical fouls (犯规); **fewer ranks higher**.
    Fouls,
    /// `PREV`: compare the score after round n−1, then n−2, … (比较上一轮, reading A).
    Prev,
    /// `CUT_EARLY`: compare PS − S₁, then PS − S₁ − S₂, … (去除第一轮…, CXA 2011 14.3.2).
    CutEarly,
    /// `RTNG`: rating, higher first.
    Rating,
    /// `LOT`: drawing of lots from a seed; ends the chain.
    Lot,
}

impl TiebreakKey {
    /// The canonical name in FIDE descriptor syntax (`BH/C1`, `OPP`, `CUT_EARLY`).
    pub fn name(self) -> String {
        let modifier = |m: Modifier| match m {
            Modifier::None => String::new(),
            Modifier::Cut(n) => format!("/C{n}"),
            Modifier::Median(n) => format!("/M{n}"),
        };
        match self {
            TiebreakKey::Opp => "OPP".into(),
            TiebreakKey::Buchholz(m) => format!("BH{}", modifier(m)),
            TiebreakKey::SonnebornBerger(m) => format!("SB{}", modifier(m)),
            TiebreakKey::Progressive(0) => "PS".into(),
            TiebreakKey::Progressive(n) => format!("PS/C{n}"),
            TiebreakKey::Win => "WIN".into(),
            TiebreakKey::Won => "WON".into(),
            TiebreakKey::Bpg => "BPG".into(),
            TiebreakKey::Bwg => "BWG".into(),
            TiebreakKey::De => "DE".into(),
            TiebreakKey::Fouls => "FOULS".into(),
            TiebreakKey::Prev => "PREV".into(),
            TiebreakKey::CutEarly => "CUT_EARLY".into(),
            TiebreakKey::Rating => "RTNG".into(),
            TiebreakKey::Lot => "LOT".into(),
        }
    }
}

impl fmt::Display for TiebreakKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A tie-break name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// Occurs when the name is not a known tie-break (see [`TiebreakKey`] for the list).
    #[error("unknown tie-break {0:?} (known: OPP, BH, BH/C1, BH/C2, BH/M1, SB, SB/C1, PS, PS/C1, WIN, WON, BPG, BWG, DE, FOULS, PREV, CUT_EARLY, RTNG, LOT)")]
    Unknown(String),
    /// Occurs when a modifier (`/C1`, `/M1`) is not valid for the key or is malformed.
    #[error("tie-break {name:?}: modifier {modifier:?} is not supported")]
    BadModifier {
        /// The name as given.
        name: String,
        /// The modifier that was rejected.
        modifier: String,
    },
    /// Occurs when the preset name is unknown.
    #[error("unknown preset {0:?} (known: cxa2011_opp, cxa2011_prog, seed002_main, seed002_supp, seed004_tw, fide_swiss)")]
    UnknownPreset(String),
}

impl FromStr for TiebreakKey {
    type Err = KeyError;

    /// Reads FIDE descriptor syntax (`BH/C1`, also `BH_C1`, `BH-C1`, lower case), the
    /// `OTHER_…` names of RULES §3.2 and the Chinese terms (对手分, 累进分, 小分, 中间分 = BH/M1,
    /// 胜局, 犯规, 后走局数, 后胜局, 直胜).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let trimmed = text.trim();
        let chinese = match trimmed {
            "对手分" | "對手分" => Some(TiebreakKey::Opp),
            "累进分" | "累進分" => Some(TiebreakKey::Progressive(0)),
            "小分" => Some(TiebreakKey::SonnebornBerger(Modifier::None)),
            "中间分" | "中間分" => Some(TiebreakKey::Buchholz(Modifier::Median(1))),
            "胜局" | "勝局" | "赢棋数" => Some(TiebreakKey::Win),
            "犯规" | "犯規" => Some(TiebreakKey::Fouls),
            "后走局数" | "後走局數" | "后手局" => Some(TiebreakKey::Bpg),
            "后胜局" | "後勝局" => Some(TiebreakKey::Bwg),
            "直胜" | "直勝" | "雙方勝負" => Some(TiebreakKey::De),
            _ => None,
        };
        if let Some(key) = chinese {
            return Ok(key);
        }
        let upper = trimmed.to_ascii_uppercase();
        let upper = upper.strip_prefix("OTHER_").unwrap_or(&upper);
        if matches!(upper, "CUT_EARLY" | "CUTEARLY") {
            return Ok(TiebreakKey::CutEarly);
        }
        let mut parts = upper.split(['/', '_', '-']);
        let base = parts.next().unwrap_or_default();
        let modifiers: Vec<&str> = parts.collect();
        let bad = |m: &str| KeyError::BadModifier {
            name: trimmed.to_string(),
            modifier: m.to_string(),
        };
        let modifier = match modifiers.as_slice() {
            [] => Modifier::None,
            [m] => {
                let (kind, n) = m.split_at(m.len().min(1));
                let n: u8 = n
                    .parse()
                    .ok()
                    .filter(|n| (1..=9).contains(n))
                    .ok_or_else(|| bad(m))?;
                match kind {
                    "C" => Modifier::Cut(n),
                    "M" => Modifier::Median(n),
                    _ => return Err(bad(m)),
                }
            }
            [_, second, ..] => return Err(bad(second)),
        };
        let plain = |key: TiebreakKey| match modifier {
            Modifier::None => Ok(key),
            _ => Err(bad(modifiers.first().copied().unwrap_or_default())),
        };
        match base {
            "BH" => Ok(TiebreakKey::Buchholz(modifier)),
            "SB" => Ok(TiebreakKey::SonnebornBerger(modifier)),
            "PS" => match modifier {
                Modifier::None => Ok(TiebreakKey::Progressive(0)),
                Modifier::Cut(n) => Ok(TiebreakKey::Progressive(n)),
                Modifier::Median(_) => Err(bad(modifiers.first().copied().unwrap_or_default())),
            },
            "OPP" => plain(TiebreakKey::Opp),
            "WIN" => plain(TiebreakKey::Win),
            "WON" => plain(TiebreakKey::Won),
            "BPG" => plain(TiebreakKey::Bpg),
            "BWG" => plain(TiebreakKey::Bwg),
            "DE" => plain(TiebreakKey::De),
            "FOULS" => plain(TiebreakKey::Fouls),
            "PREV" => plain(TiebreakKey::Prev),
            "RTNG" | "RATING" => plain(TiebreakKey::Rating),
            "LOT" => plain(TiebreakKey::Lot),
            _ => Err(KeyError::Unknown(trimmed.to_string())),
        }
    }
}

/// How unplayed rounds enter Buchholz-like keys (RULES §3.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UnplayedMode {
    /// Chinese practice (default): no adjustments; the actual final scores of the opponents,
    /// played or forfeited; a pairing-allocated or full-point bye counts as an opponent with
    /// the bye score; other rounds without an opponent count 0. BH equals OPP.
    #[default]
    Cxa,
    /// FIDE C.07 Sep-2023 to Feb-2026: adjusted opponent scores (16.3), a dummy worth the
    /// player's own score for each own unplayed round (16.4), the VUR cut rule (16.5).
    Fide2023,
    /// FIDE C.07 from Mar-2026: as `Fide2023`, with the dummy capped (16.4.1, 16.4.2).
    Fide2026,
    /// No handling at all: opponents' actual scores; rounds without an opponent count 0.
    None,
}

impl FromStr for UnplayedMode {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "cxa" => Ok(UnplayedMode::Cxa),
            "fide2023" | "fide2024" => Ok(UnplayedMode::Fide2023),
            "fide2026" => Ok(UnplayedMode::Fide2026),
            "none" => Ok(UnplayedMode::None),
            other => Err(format!(
                "unknown unplayed-round mode {other:?} (known: cxa, fide2023, fide2026, none)"
            )),
        }
    }
}

/// The score a bye (轮空) counts as in its receiver's 对手分 (RULES §1.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ByeOpponentScore {
    /// The lowest final score among entrants with more than zero points (CXA 2011 14.4).
    #[default]
    MinPositive,
    /// The lowest final score of all entrants.
    MinAll,
    /// Zero.
    Zero,
    /// The receiver's own score (FIDE's dummy).
    FideDummy,
}

impl FromStr for ByeOpponentScore {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "min_positive" => Ok(ByeOpponentScore::MinPositive),
            "min_all" => Ok(ByeOpponentScore::MinAll),
            "zero" => Ok(ByeOpponentScore::Zero),
            "fide_dummy" => Ok(ByeOpponentScore::FideDummy),
            other => Err(format!(
                "unknown bye opponent score {other:?} (known: min_positive, min_all, zero, fide_dummy)"
            )),
        }
    }
}

/// The reading of 比较上一轮 / 比较前一轮成绩 that `PREV` uses (RULES §1.7, "The 比较上一轮
/// ambiguity").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PrevReading {
    /// Reading A (default, MBP): the score after round n−1, then n−2, … higher first.
    #[default]
    Cumulative,
    /// Reading B: the rank in the standings after round n−1 (same chain without `PREV` and
    /// `LOT`), then after n−2, … lower first.
    PreviousStandings,
    /// Reading C (对手分逆减): OPP minus the last-round opponent's score, then minus the last
    /// two, … higher first.
    OpponentsReverse,
}

impl FromStr for PrevReading {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "a" | "cumulative" => Ok(PrevReading::Cumulative),
            "b" | "previous_standings" => Ok(PrevReading::PreviousStandings),
            "c" | "opponents_reverse" => Ok(PrevReading::OpponentsReverse),
            other => Err(format!("unknown PREV reading {other:?} (known: a, b, c)")),
        }
    }
}

/// The ranking chains of RULES §1.7 [D] Presets, plus a FIDE-typical Swiss chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// CXA 2011 14.3.1: PTS, OPP, WIN, FOULS, BPG, PREV.
    Cxa2011Opp,
    /// CXA 2011 14.3.2: PTS, PS, WIN, FOULS, BPG, CUT_EARLY.
    Cxa2011Prog,
    /// Seed document 002, main text: PTS, OPP, PS, WIN, FOULS, PREV.
    Seed002Main,
    /// Seed document 002, supplementary rules: PTS, OPP, WIN, FOULS, PREV.
    Seed002Supp,
    /// Seed document 004 (Taiwan Banqi): PTS, OPP, DE, FOULS.
    Seed004Tw,
    /// FIDE-typical Swiss: PTS, BH/C1, BH, SB, PS, DE, WIN (with FIDE 2026 unplayed rounds).
    FideSwiss,
}

impl Preset {
    /// The keys after PTS.
    pub fn chain(self) -> Vec<TiebreakKey> {
        use TiebreakKey::*;
        match self {
            Preset::Cxa2011Opp => vec![Opp, Win, Fouls, Bpg, Prev],
            Preset::Cxa2011Prog => vec![Progressive(0), Win, Fouls, Bpg, CutEarly],
            Preset::Seed002Main => vec![Opp, Progressive(0), Win, Fouls, Prev],
            Preset::Seed002Supp => vec![Opp, Win, Fouls, Prev],
            Preset::Seed004Tw => vec![Opp, De, Fouls],
            Preset::FideSwiss => vec![
                Buchholz(Modifier::Cut(1)),
                Buchholz(Modifier::None),
                SonnebornBerger(Modifier::None),
                Progressive(0),
                De,
                Win,
            ],
        }
    }

    /// The unplayed-round mode that goes with the preset when none is given.
    pub fn unplayed_mode(self) -> UnplayedMode {
        match self {
            Preset::FideSwiss => UnplayedMode::Fide2026,
            _ => UnplayedMode::Cxa,
        }
    }
}

impl FromStr for Preset {
    type Err = KeyError;
    fn from_str(text: &str) -> Result<Self, KeyError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "cxa2011_opp" => Ok(Preset::Cxa2011Opp),
            "cxa2011_prog" => Ok(Preset::Cxa2011Prog),
            "seed002_main" => Ok(Preset::Seed002Main),
            "seed002_supp" => Ok(Preset::Seed002Supp),
            "seed004_tw" => Ok(Preset::Seed004Tw),
            "fide_swiss" => Ok(Preset::FideSwiss),
            _ => Err(KeyError::UnknownPreset(text.trim().to_string())),
        }
    }
}
