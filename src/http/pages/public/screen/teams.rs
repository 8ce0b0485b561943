//! The big screen of a team section (issue #41): the round's matches with their board points
//! and each board's result, then the team standings, rotating as the slides of individuals.

use super::{Body, Slide};
use crate::http::pages::public::team_pages::{match_lines, MatchLine};
use crate::http::pages::shared::format_number;
use crate::service::screen::{SectionScreen, TeamScreen};

/// One team's standings line.
#[derive(Debug, Clone)]
pub struct TeamRankLine {
    /// Rank.
    pub rank: u32,
    /// Name.
    pub name: String,
    /// Match points.
    pub match_points: String,
    /// Board points.
    pub board_points: String,
}

/// The team section's slides: its matches (as many on a slide as `rows` lines hold, a match
/// taking one line and one per board), then the team standings' top `rows`.
pub(super) fn slides(
    screen: &SectionScreen,
    team: &TeamScreen,
    rows: usize,
    slide: &dyn Fn(&'static str, usize, usize, Body) -> Slide,
) -> Vec<Slide> {
    let mut out = Vec::new();
    if screen.round.is_some() {
        let lines = match_lines(&team.matches);
        let boards = lines.iter().map(|m| m.games.len()).max().unwrap_or(1);
        let per_slide = (rows / (boards + 1)).max(1);
        let pages = lines.len().div_ceil(per_slide);
        for (i, chunk) in lines.chunks(per_slide).enumerate() {
            out.push(slide(
                "screen.team_matches",
                i + 1,
                pages,
                Body::Matches(chunk.to_vec()),
            ));
        }
    }
    let ranks: Vec<TeamRankLine> = team
        .standings
        .rows
        .iter()
        .take(rows)
        .map(|r| TeamRankLine {
            rank: r.rank,
            name: r.name.clone(),
            match_points: format_number(r.match_points),
            board_points: format_number(r.board_points),
        })
        .collect();
    let mut standings = slide("screen.team_standings", 1, 1, Body::TeamStandings(ranks));
    standings.round = team.standings.rounds_completed;
    out.push(standings);
    out
}

impl Slide {
    /// A team section's matches (empty for other slides).
    pub fn team_matches(&self) -> &[MatchLine] {
        match &self.body {
            Body::Matches(lines) => lines,
            _ => &[],
        }
    }

    /// A team section's standings (empty for other slides).
    pub fn team_ranks(&self) -> &[TeamRankLine] {
        match &self.body {
            Body::TeamStandings(lines) => lines,
            _ => &[],
        }
    }
}
