//! Team rankings inside an individual section: entrants carry a team label (their club,
//! province or nation) and a team is ranked from its members' individual results.
//!
//! - [`TeamRule::Wxf`]: the sum of the places of the team's `counted` best members (the WXF
//!   championships count two), **lower first**; a tie goes to the team whose best member is
//!   placed higher.
//! - [`TeamRule::Chinese`]: the total points of the team's `counted` best members (队员总分),
//!   **higher first**; a tie goes to the lower sum of those members' places, then to the team
//!   whose best member is placed higher.
//!
//! The best members are the ones placed highest in the individual standings (so ties of the
//! individual ranking are already broken by its chain). A team with fewer members than
//! `counted` is ranked after every complete team (by the same rule over the members it has).
//! Entrants without a label are in no team.

use crate::model::{Points, StartNo};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// How teams are ranked from their members.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamRule {
    /// Sum of the best members' places, lower first.
    Wxf,
    /// Total of the best members' points, higher first.
    Chinese,
}

/// One entrant of the individual standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Starting number.
    pub start_no: StartNo,
    /// Place in the individual standings (1 = first; its order is the standings' order).
    pub place: u32,
    /// Points.
    pub points: Points,
    /// The team label (club, province, nation), `None` for none.
    pub team: Option<String>,
}

/// One team of the team ranking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamPlace {
    /// Rank, 1-based; teams equal on every criterion share it.
    pub rank: u32,
    /// The team label.
    pub team: String,
    /// The counted members, best first.
    pub counted: Vec<StartNo>,
    /// The other members, in standings order.
    pub others: Vec<StartNo>,
    /// Sum of the counted members' places.
    pub places: u32,
    /// Total of the counted members' points.
    pub points: Points,
    /// The team has at least `counted` members.
    pub complete: bool,
}

/// Ranks the teams of `members` (given in standings order, or any order: they are sorted by
/// place) under `rule`, counting each team's `counted` best members (at least 1).
pub fn rank(members: &[Member], rule: TeamRule, counted: usize) -> Vec<TeamPlace> {
    let counted = counted.max(1);
    let mut sorted: Vec<&Member> = members.iter().collect();
    sorted.sort_by_key(|m| (m.place, m.start_no));
    let mut by_team: BTreeMap<String, Vec<&Member>> = BTreeMap::new();
    for m in sorted {
        if let Some(team) = m.team.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
            by_team.entry(team.to_string()).or_default().push(m);
        }
    }
    let mut out: Vec<TeamPlace> = by_team
        .into_iter()
        .map(|(team, list)| {
            let (best, rest) = list.split_at(list.len().min(counted));
            TeamPlace {
                rank: 0,
                team,
                counted: best.iter().map(|m| m.start_no).collect(),
                others: rest.iter().map(|m| m.start_no).collect(),
                places: best.iter().map(|m| m.place).sum(),
                points: best.iter().map(|m| m.points).sum(),
                complete: best.len() == counted,
            }
        })
        .collect();
    let best_place = |t: &TeamPlace, members: &[Member]| {
        t.counted
            .first()
            .and_then(|no| members.iter().find(|m| m.start_no == *no))
            .map_or(u32::MAX, |m| m.place)
    };
    let cmp = |a: &TeamPlace, b: &TeamPlace| -> Ordering {
        b.complete
            .cmp(&a.complete)
            .then_with(|| match rule {
                TeamRule::Wxf => a.places.cmp(&b.places),
                TeamRule::Chinese => b.points.cmp(&a.points).then(a.places.cmp(&b.places)),
            })
            .then_with(|| best_place(a, members).cmp(&best_place(b, members)))
    };
    out.sort_by(|a, b| cmp(a, b).then_with(|| a.team.cmp(&b.team)));
    for i in 0..out.len() {
        out[i].rank = if i > 0 && cmp(&out[i - 1], &out[i]) == Ordering::Equal {
            out[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten entrants in standings order; places 4 and 5 share rank 4 in the individual table
    /// but are distinct places here (the standings' order).
    fn field() -> Vec<Member> {
        let rows: [(u32, i64, Option<&str>); 10] = [
            (1, 130, Some("CHN")),
            (2, 120, Some("VIE")),
            (3, 110, Some("MAS")),
            (4, 100, Some("VIE")),
            (5, 100, Some("CHN")),
            (6, 90, Some("MAS")),
            (7, 80, None),
            (8, 70, Some("GER")),
            (9, 60, Some("CHN")),
            (10, 50, Some(" ")),
        ];
        rows.iter()
            .map(|&(place, tenths, team)| Member {
                start_no: 100 + place,
                place,
                points: Points::from_tenths(tenths),
                team: team.map(str::to_string),
            })
            .collect()
    }

    fn table(rows: &[TeamPlace]) -> Vec<(u32, &str, u32, i64, bool)> {
        rows.iter()
            .map(|t| {
                (
                    t.rank,
                    t.team.as_str(),
                    t.places,
                    t.points.tenths(),
                    t.complete,
                )
            })
            .collect()
    }

    #[test]
    fn wxf_sums_the_two_best_places() {
        // By hand: CHN 1+5 = 6, VIE 2+4 = 6 (tie: CHN's best is 1st), MAS 3+6 = 9, GER
        // (one member, 8) after the complete teams.
        let rows = rank(&field(), TeamRule::Wxf, 2);
        assert_eq!(
            table(&rows),
            [
                (1, "CHN", 6, 230, true),
                (2, "VIE", 6, 220, true),
                (3, "MAS", 9, 200, true),
                (4, "GER", 8, 70, false),
            ]
        );
        assert_eq!(rows[0].counted, [101, 105]);
        assert_eq!(rows[0].others, [109]);
    }

    #[test]
    fn chinese_totals_the_best_members_points() {
        // By hand, N = 2: CHN 13+10 = 23, VIE 12+10 = 22, MAS 11+9 = 20, GER 7 (incomplete).
        let rows = rank(&field(), TeamRule::Chinese, 2);
        assert_eq!(
            table(&rows),
            [
                (1, "CHN", 6, 230, true),
                (2, "VIE", 6, 220, true),
                (3, "MAS", 9, 200, true),
                (4, "GER", 8, 70, false),
            ]
        );
        // N = 3: only CHN is complete (13+10+6 = 29); VIE 22 before MAS 20 before GER 7.
        let rows = rank(&field(), TeamRule::Chinese, 3);
        assert_eq!(
            table(&rows),
            [
                (1, "CHN", 15, 290, true),
                (2, "VIE", 6, 220, false),
                (3, "MAS", 9, 200, false),
                (4, "GER", 8, 70, false),
            ]
        );
    }

    #[test]
    fn equal_teams_share_a_rank_and_points_ties_go_to_places() {
        let m = |start_no, place, tenths, team: &str| Member {
            start_no,
            place,
            points: Points::from_tenths(tenths),
            team: Some(team.to_string()),
        };
        // A: places 1, 4 (points 10 + 6); B: places 2, 3 (points 8 + 8): equal totals 16,
        // equal place sums 5, A's best member is first.
        let members = [
            m(1, 1, 100, "A"),
            m(2, 2, 80, "B"),
            m(3, 3, 80, "B"),
            m(4, 4, 60, "A"),
        ];
        let rows = rank(&members, TeamRule::Chinese, 2);
        assert_eq!(rows[0].team, "A");
        assert_eq!((rows[0].rank, rows[1].rank), (1, 2));
        // Two teams equal on everything share the rank.
        let members = [m(1, 1, 100, "A"), m(2, 1, 100, "B")];
        let rows = rank(&members, TeamRule::Wxf, 1);
        assert_eq!((rows[0].rank, rows[1].rank), (1, 1));
    }
}
