//! What a slide of the big screen shows, for its template, and the clocks' readings.

use super::{Body, KoMatchLine, KoRoundLine, NameLine, RankLine, ResultLine, Slide};

impl Slide {
    /// The lines of a pairing slide split into its two columns.
    pub fn columns(&self) -> Vec<Vec<NameLine>> {
        match &self.body {
            Body::Pairings(lines) => {
                let half = lines.len().div_ceil(2).max(1);
                lines.chunks(half).map(<[NameLine]>::to_vec).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Result lines (empty for other slides).
    pub fn results(&self) -> &[ResultLine] {
        match &self.body {
            Body::Results(lines) => lines,
            _ => &[],
        }
    }

    /// Standings lines (empty for other slides).
    pub fn ranks(&self) -> &[RankLine] {
        match &self.body {
            Body::Standings(lines) => lines,
            _ => &[],
        }
    }

    /// The bracket's rounds (empty for other slides).
    pub fn ko_rounds(&self) -> &[KoRoundLine] {
        match &self.body {
            Body::Bracket(rounds) => rounds,
            _ => &[],
        }
    }

    /// The matches in play (empty for other slides).
    pub fn ko_matches(&self) -> &[KoMatchLine] {
        match &self.body {
            Body::InPlay(lines) => lines,
            _ => &[],
        }
    }

    /// The podium's places (empty for other slides).
    pub fn podium(&self) -> &[RankLine] {
        match &self.body {
            Body::Podium(lines) => lines,
            _ => &[],
        }
    }

    /// The kind, for the template and the tests.
    pub fn kind(&self) -> &'static str {
        match self.body {
            Body::Pairings(_) => "pairings",
            Body::Results(_) => "results",
            Body::Standings(_) => "standings",
            Body::Podium(_) => "podium",
            Body::Bracket(_) => "bracket",
            Body::InPlay(_) => "ko_in_play",
            Body::Matches(_) => "team_matches",
            Body::TeamStandings(_) => "team_standings",
        }
    }
}

pub(super) fn clock_text(started: chrono::DateTime<chrono::Utc>) -> String {
    let secs = (chrono::Utc::now() - started).num_seconds().max(0);
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

pub(super) fn countdown_text(start: chrono::DateTime<chrono::Utc>) -> String {
    let secs = (start - chrono::Utc::now()).num_seconds().max(0);
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}
