//! Team sections played through the API (issue #41): a 16-team 3-board Chinese Swiss over
//! 7 rounds and an 8-team double round robin, with generated results, checked against an
//! independent computation of match points, board points and every team tie-break.

use crate::support::Client;
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;
use std::collections::{BTreeMap, BTreeSet};

/// One board of a match as played: the team with Red on it, and its result.
#[derive(Debug, Clone)]
pub struct Game {
    pub number: i64,
    pub red_team: String,
    pub result: String,
    /// The players (none: an empty seat).
    pub red_player: Option<String>,
    pub black_player: Option<String>,
}

/// One match as played.
#[derive(Debug, Clone)]
pub struct Match {
    pub round: i64,
    pub red: String,
    pub black: Option<String>,
    pub games: Vec<Game>,
}

/// A team section made through the API.
pub struct TeamEvent {
    pub client: Client,
    pub section: String,
    /// Team ids by starting order.
    pub teams: Vec<String>,
    /// Each team's roster (player ids in board order).
    pub rosters: BTreeMap<String, Vec<String>>,
}

/// Makes a tournament with one team section (`settings` over the team defaults) and `n`
/// teams of `players` players each (ratings descending).
pub async fn team_event(pool: &PgPool, n: usize, players: usize, settings: Value) -> TeamEvent {
    let client = Client::admin(pool).await;
    let t = client
        .expect(
            StatusCode::CREATED,
            "POST",
            "/api/v1/tournaments",
            Some(json!({"name": "Team championship", "game": "xiangqi"})),
        )
        .await;
    let mut body = json!({"name": "Teams", "entry_type": "team"});
    body.as_object_mut()
        .unwrap()
        .extend(settings.as_object().unwrap().clone());
    let s = client
        .expect(
            StatusCode::CREATED,
            "POST",
            &format!("/api/v1/tournaments/{}/sections", t["id"].as_str().unwrap()),
            Some(body),
        )
        .await;
    let section = s["id"].as_str().unwrap().to_string();
    let mut teams = Vec::new();
    let mut rosters = BTreeMap::new();
    for i in 0..n {
        let roster: Vec<Value> = (0..players)
            .map(|p| json!({"name": format!("T{}P{}", i + 1, p + 1), "rating": 2400 - (i * 10 + p) as i64}))
            .collect();
        let team = client
            .expect(
                StatusCode::CREATED,
                "POST",
                &format!("/api/v1/sections/{section}/teams"),
                Some(json!({
                    "name": format!("Team {}", i + 1), "club": format!("Club {}", i + 1),
                    "captain_position": 1, "roster": roster,
                })),
            )
            .await;
        let id = team["id"].as_str().unwrap().to_string();
        let players: Vec<String> = team["roster"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["player_id"].as_str().unwrap().to_string())
            .collect();
        rosters.insert(id.clone(), players);
        teams.push(id);
    }
    TeamEvent {
        client,
        section,
        teams,
        rosters,
    }
}

impl TeamEvent {
    /// Pairs the next round; its matches.
    pub async fn pair(&self) -> Value {
        self.client
            .expect(
                StatusCode::CREATED,
                "POST",
                &format!("/api/v1/sections/{}/rounds", self.section),
                None,
            )
            .await
    }

    pub async fn publish(&self, round: i64) {
        self.client
            .expect(
                StatusCode::OK,
                "POST",
                &format!("/api/v1/sections/{}/rounds/{round}/publish", self.section),
                None,
            )
            .await;
    }

    pub async fn matches(&self, round: i64) -> Vec<Value> {
        self.client
            .get(&format!(
                "/api/v1/sections/{}/rounds/{round}/matches",
                self.section
            ))
            .await
            .as_array()
            .unwrap()
            .clone()
    }

    pub async fn result(&self, board: &str, number: i64, result: &str) -> Value {
        self.client
            .expect(
                StatusCode::OK,
                "PUT",
                &format!("/api/v1/boards/{board}/games/{number}/result"),
                Some(json!({"result": result})),
            )
            .await
    }

    /// The team's key.
    pub async fn key_of(&self, team: &str) -> String {
        let keys = self
            .client
            .get(&format!("/api/v1/sections/{}/keys", self.section))
            .await;
        keys.as_array()
            .unwrap()
            .iter()
            .find(|k| k["entrant_id"] == team)
            .unwrap()["key"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The matches of a round as played (after their results are in).
    pub async fn played(&self, round: i64) -> Vec<Match> {
        self.matches(round)
            .await
            .iter()
            .map(|m| Match {
                round,
                red: m["red"]["id"].as_str().unwrap().to_string(),
                black: m["black"]["id"].as_str().map(str::to_string),
                games: m["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|g| Game {
                        number: g["number"].as_i64().unwrap(),
                        red_team: g["red_team_id"].as_str().unwrap().to_string(),
                        result: g["result"].as_str().unwrap().to_string(),
                        red_player: g["red"]["player_id"].as_str().map(str::to_string),
                        black_player: g["black"]["player_id"].as_str().map(str::to_string),
                    })
                    .collect(),
            })
            .collect()
    }
}

/// A generated result for board `number` of match `m` in round `round`.
pub fn generated(round: i64, m: i64, number: i64) -> &'static str {
    match (round * 7 + m * 3 + number * 5) % 7 {
        0 | 3 => "draw",
        1 | 4 | 6 => "red_wins",
        _ => "black_wins",
    }
}

/// Points (in halves) of one side of a game: (red, black), and whether it was played.
fn game_points(result: &str) -> (i64, i64, bool) {
    match result {
        "red_wins" => (2, 0, true),
        "black_wins" => (0, 2, true),
        "draw" => (1, 1, true),
        "red_forfeits" => (0, 2, false),
        "black_forfeits" => (2, 0, false),
        "double_forfeit" => (0, 0, false),
        "double_loss" => (0, 0, true),
        other => panic!("result {other}"),
    }
}

/// One team's round as the rules count it (points in halves for board points, whole match
/// points × 2 to stay in halves).
#[derive(Debug, Clone, Default)]
struct TeamRound {
    opponent: Option<String>,
    /// Board points scored and conceded (halves).
    gp: i64,
    ogp: i64,
    /// Match points (halves).
    mp: i64,
    forfeited: bool,
    /// Σ board points × board number (halves).
    bc: i64,
}

/// Match points 2 / 1 / 0, a bye 2 and every board won (`boards`).
fn rounds_of(matches: &[Match], boards: i64) -> BTreeMap<String, Vec<TeamRound>> {
    let mut out: BTreeMap<String, Vec<TeamRound>> = BTreeMap::new();
    for m in matches {
        let Some(black) = &m.black else {
            out.entry(m.red.clone()).or_default().push(TeamRound {
                mp: 4,
                gp: boards * 2,
                ..TeamRound::default()
            });
            continue;
        };
        for (me, other) in [(&m.red, black), (black, &m.red)] {
            let mut r = TeamRound {
                opponent: Some(other.clone()),
                forfeited: true,
                ..TeamRound::default()
            };
            for g in &m.games {
                let (red, blk, played) = game_points(&g.result);
                let (mine, theirs) = if &g.red_team == me {
                    (red, blk)
                } else {
                    (blk, red)
                };
                r.gp += mine;
                r.ogp += theirs;
                r.bc += mine * g.number;
                r.forfeited &= !played;
            }
            r.mp = match r.gp.cmp(&r.ogp) {
                std::cmp::Ordering::Greater => 4,
                std::cmp::Ordering::Equal if !r.forfeited => 2,
                _ => 0,
            };
            out.entry(me.clone()).or_default().push(r);
        }
    }
    out
}

/// The independent standings: per team its match points, board points and the value of
/// each key (halves, quarters for products), and the ranks.
pub struct Expected {
    pub rows: Vec<(String, f64, f64, Vec<f64>, u32)>,
}

/// Direct encounter (FIDE C.07 art. 6 with the Swiss rule 6.3): classes of `group`.
fn de_classes(group: &[String], rounds: &BTreeMap<String, Vec<TeamRound>>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest: Vec<String> = group.to_vec();
    loop {
        if rest.len() <= 1 {
            if !rest.is_empty() {
                out.push(rest);
            }
            return out;
        }
        let n = rest.len();
        // Match points (halves) scored against the others, averaged over repeated meetings
        // (× 2520 to stay whole), and how many of them each has met.
        let mut score = vec![0i64; n];
        let mut met = vec![0i64; n];
        let mut pairs = 0;
        for a in 0..n {
            for b in 0..n {
                if a == b {
                    continue;
                }
                let meetings: Vec<&TeamRound> = rounds[&rest[a]]
                    .iter()
                    .filter(|r| r.opponent.as_ref() == Some(&rest[b]) && !r.forfeited)
                    .collect();
                if meetings.is_empty() {
                    continue;
                }
                let sum: i64 = meetings.iter().map(|r| r.mp).sum();
                score[a] += sum * 2520 / meetings.len() as i64;
                met[a] += 1;
                if a < b {
                    pairs += 1;
                }
            }
        }
        if pairs == n * (n - 1) / 2 {
            let mut idx: Vec<usize> = (0..n).collect();
            idx.sort_by(|&a, &b| score[b].cmp(&score[a]).then(a.cmp(&b)));
            let mut split: Vec<Vec<String>> = Vec::new();
            for (k, &i) in idx.iter().enumerate() {
                if k > 0 && score[idx[k - 1]] == score[i] {
                    split.last_mut().unwrap().push(rest[i].clone());
                } else {
                    split.push(vec![rest[i].clone()]);
                }
            }
            if split.len() == 1 {
                out.push(rest);
            } else {
                for class in split {
                    out.extend(de_classes(&class, rounds));
                }
            }
            return out;
        }
        let win = 4 * 2520;
        let reach = |q: usize| score[q] + (n as i64 - 1 - met[q]) * win;
        match (0..n).find(|&p| (0..n).filter(|&q| q != p).all(|q| score[p] > reach(q))) {
            Some(p) => {
                out.push(vec![rest.remove(p)]);
            }
            None => {
                out.push(rest);
                return out;
            }
        }
    }
}

/// Computes the standings of `teams` (in starting order) from the matches as played, with
/// the chain `keys` after match points.
pub fn expected(teams: &[String], matches: &[Match], boards: i64, keys: &[&str]) -> Expected {
    let rounds = rounds_of(matches, boards);
    let empty = Vec::new();
    let of = |t: &String| rounds.get(t).unwrap_or(&empty);
    let mp = |t: &String| of(t).iter().map(|r| r.mp).sum::<i64>();
    let gp = |t: &String| of(t).iter().map(|r| r.gp).sum::<i64>();
    // Values in one unit each: halves for sums, quarters for products.
    let value = |key: &str, t: &String| -> f64 {
        let opp = || {
            of(t)
                .iter()
                .filter_map(|r| r.opponent.as_ref().map(|o| (r, o)))
        };
        match key {
            "GPTS" => gp(t) as f64 / 2.0,
            "BH:MP" => opp().map(|(_, o)| mp(o)).sum::<i64>() as f64 / 2.0,
            "BH:GP" => opp().map(|(_, o)| gp(o)).sum::<i64>() as f64 / 2.0,
            "SB:MP" => opp().map(|(r, o)| r.mp * mp(o)).sum::<i64>() as f64 / 4.0,
            "SB:GP" => opp().map(|(r, o)| r.mp * gp(o)).sum::<i64>() as f64 / 4.0,
            "EGGSB" => opp().map(|(r, o)| r.gp * gp(o)).sum::<i64>() as f64 / 4.0,
            "BC" => of(t).iter().map(|r| r.bc).sum::<i64>() as f64 / 2.0,
            "WON" => opp().filter(|(r, _)| r.gp > r.ogp).count() as f64,
            "DE" => 0.0,
            other => panic!("key {other}"),
        }
    };
    let mut values: BTreeMap<String, Vec<f64>> = teams
        .iter()
        .map(|t| (t.clone(), keys.iter().map(|k| value(k, t)).collect()))
        .collect();
    let position = |t: &String| teams.iter().position(|x| x == t).unwrap();
    let mut order: Vec<String> = teams.to_vec();
    order.sort_by(|a, b| mp(b).cmp(&mp(a)).then(position(a).cmp(&position(b))));
    // Groups still tied, as ranges of `order`.
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for i in 1..=order.len() {
        if i == order.len() || mp(&order[i]) != mp(&order[i - 1]) {
            groups.push((start, i));
            start = i;
        }
    }
    for (k, key) in keys.iter().enumerate() {
        let mut next = Vec::new();
        for (start, end) in groups {
            if end - start <= 1 {
                next.push((start, end));
                continue;
            }
            if *key == "DE" {
                let classes = de_classes(&order[start..end], &rounds);
                if classes.len() > 1 {
                    let mut at = start;
                    for mut class in classes {
                        class.sort_by_key(|t| position(t));
                        for t in &class {
                            values.get_mut(t).unwrap()[k] = (at - start + 1) as f64;
                        }
                        for (j, t) in class.iter().enumerate() {
                            order[at + j] = t.clone();
                        }
                        next.push((at, at + class.len()));
                        at += class.len();
                    }
                } else {
                    next.push((start, end));
                }
                continue;
            }
            let slice = &mut order[start..end];
            slice.sort_by(|a, b| {
                values[b][k]
                    .partial_cmp(&values[a][k])
                    .unwrap()
                    .then(position(a).cmp(&position(b)))
            });
            let mut s = start;
            for i in start + 1..=end {
                if i == end || values[&order[i]][k] != values[&order[i - 1]][k] {
                    next.push((s, i));
                    s = i;
                }
            }
        }
        groups = next;
    }
    let mut rows = Vec::new();
    for (start, end) in groups {
        for t in &order[start..end] {
            rows.push((
                t.clone(),
                mp(t) as f64 / 2.0,
                gp(t) as f64 / 2.0,
                values[t].clone(),
                start as u32 + 1,
            ));
        }
    }
    Expected { rows }
}

/// Compares the API's team standings with the independent ones.
pub fn check_standings(standings: &Value, expected: &Expected) {
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(rows.len(), expected.rows.len());
    for (row, (team, mp, gp, values, rank)) in rows.iter().zip(&expected.rows) {
        assert_eq!(row["team_id"], team.as_str(), "order: {standings}");
        assert_eq!(row["match_points"].as_f64().unwrap(), *mp, "{row}");
        assert_eq!(row["board_points"].as_f64().unwrap(), *gp, "{row}");
        let got: Vec<f64> = row["tiebreaks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(&got, values, "{row}");
        assert_eq!(row["rank"].as_u64().unwrap() as u32, *rank, "{row}");
    }
}

/// Board colours alternate inside each match: board 1's Red is the match's red team, board
/// 2's the other, …
fn check_colours(m: &Match) {
    for g in &m.games {
        assert_eq!(
            g.red_team == m.red,
            g.number % 2 == 1,
            "round {} board {} of {} vs {:?}",
            m.round,
            g.number,
            m.red,
            m.black
        );
    }
}

const SWISS_KEYS: [&str; 9] = [
    "GPTS", "BH:MP", "BH:GP", "SB:MP", "SB:GP", "EGGSB", "DE", "BC", "WON",
];

#[sqlx::test]
async fn sixteen_teams_play_a_chinese_swiss_of_seven_rounds(pool: PgPool) {
    let event = team_event(
        &pool,
        16,
        4,
        json!({"rounds": 7, "pairing_system": "chinese",
               "team": {"boards": 3, "reserves": 1, "tiebreaks": SWISS_KEYS}}),
    )
    .await;
    let s = &event.section;
    let first = &event.teams[0];
    let key = event.key_of(first).await;
    let roster = event.rosters[first].clone();
    let mut all = Vec::new();
    let mut met = BTreeSet::new();
    for round in 1..=7i64 {
        if round == 2 {
            // The captain puts the reserve in before the pairing: board 3 is the reserve.
            let lineup = event
                .client
                .expect(
                    StatusCode::OK,
                    "PUT",
                    &format!("/api/v1/keys/{key}/lineup"),
                    Some(json!({"round": 2, "players": [roster[0], roster[1], roster[3]]})),
                )
                .await;
            assert_eq!(lineup["entered_by"], "captain");
        }
        event.pair().await;
        if round == 3 {
            // The desk changes a paired draft's line-up: board 1 sits out.
            event
                .client
                .expect(
                    StatusCode::OK,
                    "PUT",
                    &format!("/api/v1/sections/{s}/rounds/3/lineups/{first}"),
                    Some(json!({"players": [roster[1], roster[2], roster[3]]})),
                )
                .await;
        }
        event.publish(round).await;
        if round == 3 {
            // After the publication the captain is too late.
            let late = event
                .client
                .send(
                    "PUT",
                    &format!("/api/v1/keys/{key}/lineup"),
                    Some(json!({"round": 3, "players": [roster[0], roster[1], roster[2]]})),
                )
                .await;
            assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.text);
        }
        let matches = event.matches(round).await;
        assert_eq!(matches.len(), 8);
        for (i, m) in matches.iter().enumerate() {
            let board = m["id"].as_str().unwrap();
            let (red, black) = (
                m["red"]["id"].as_str().unwrap(),
                m["black"]["id"].as_str().unwrap(),
            );
            assert!(
                met.insert((red.min(black).to_string(), red.max(black).to_string())),
                "rematch in round {round}"
            );
            // The line-ups as entered, else the first boards of the roster.
            for team in [red, black] {
                let want: Vec<&String> = match (round, team == first.as_str()) {
                    (2, true) => vec![&roster[0], &roster[1], &roster[3]],
                    (3, true) => vec![&roster[1], &roster[2], &roster[3]],
                    _ => event.rosters[team][..3].iter().collect(),
                };
                let seated: Vec<String> = m["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|g| {
                        let side = if g["red_team_id"] == team {
                            "red"
                        } else {
                            "black"
                        };
                        g[side]["player_id"].as_str().unwrap().to_string()
                    })
                    .collect();
                let want: Vec<String> = want.into_iter().cloned().collect();
                assert_eq!(seated, want, "round {round}, team {team}");
            }
            if round == 4 && i == 0 {
                // A whole match forfeited by the black team.
                let done = event
                    .client
                    .expect(
                        StatusCode::OK,
                        "POST",
                        &format!("/api/v1/boards/{board}/forfeit"),
                        Some(json!({"forfeits": "black"})),
                    )
                    .await;
                assert_eq!(done["red"]["match_points"].as_f64(), Some(2.0));
                assert_eq!(done["red"]["board_points"].as_f64(), Some(3.0));
                assert_eq!(done["black"]["match_points"].as_f64(), Some(0.0));
                continue;
            }
            for g in m["games"].as_array().unwrap() {
                let n = g["number"].as_i64().unwrap();
                let result = if round == 5 && i == 1 && n == 2 {
                    // One board forfeited: its Red did not come.
                    "red_forfeits"
                } else {
                    generated(round, i as i64, n)
                };
                event.result(board, n, result).await;
            }
        }
        let played = event.played(round).await;
        for m in &played {
            check_colours(m);
        }
        all.extend(played);
        let status = event
            .client
            .get(&format!("/api/v1/sections/{s}/rounds/{round}"))
            .await;
        assert_eq!(status["status"], "completed");
    }
    // The forfeited board is in: Red of round 5's second match, board 2, lost it unplayed.
    assert!(all
        .iter()
        .any(|m| m.round == 5 && m.games.iter().any(|g| g.result == "red_forfeits")));
    let standings = event
        .client
        .get(&format!("/api/v1/sections/{s}/team-standings"))
        .await;
    assert_eq!(
        standings["keys"],
        json!(SWISS_KEYS),
        "the section's chain: {standings}"
    );
    check_standings(&standings, &expected(&event.teams, &all, 3, &SWISS_KEYS));
    // Board rankings: each player's games played over the board and points, per board; at
    // least 5 games (two thirds of 7 rounds) to qualify, then by percentage.
    let mut tally: BTreeMap<(i64, String), (u64, i64)> = BTreeMap::new();
    for m in &all {
        for g in &m.games {
            let (red, black, played) = game_points(&g.result);
            if !played {
                continue;
            }
            for (player, halves) in [(&g.red_player, red), (&g.black_player, black)] {
                let entry = tally
                    .entry((g.number, player.clone().unwrap()))
                    .or_default();
                entry.0 += 1;
                entry.1 += halves;
            }
        }
    }
    let rankings = event
        .client
        .get(&format!("/api/v1/sections/{s}/board-rankings"))
        .await;
    assert_eq!(rankings["min_games"], 5);
    for board in rankings["boards"].as_array().unwrap() {
        let n = board["board"].as_i64().unwrap();
        let rows = board["rows"].as_array().unwrap();
        assert_eq!(
            rows.len(),
            tally.keys().filter(|(b, _)| *b == n).count(),
            "board {n}"
        );
        let mut last = f64::INFINITY;
        for row in rows {
            let (games, halves) = tally[&(n, row["player_id"].as_str().unwrap().to_string())];
            assert_eq!(row["games"].as_u64(), Some(games), "{row}");
            assert_eq!(row["points"].as_f64(), Some(halves as f64 / 2.0), "{row}");
            assert_eq!(row["qualified"].as_bool(), Some(games >= 5), "{row}");
            if games >= 5 {
                let percent = halves as f64 / 2.0 / games as f64;
                assert!(percent <= last, "board {n} not by percentage: {board}");
                last = percent;
            } else {
                assert!(row["rank"].is_null());
            }
        }
    }
    // Every team played seven matches: 7 × 8 matches × 2 match points.
    let total: f64 = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["match_points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 112.0);
}

/// Direct encounter right after match points: in a round robin every tied group has met.
const ROUND_ROBIN_KEYS: [&str; 6] = ["DE", "GPTS", "BH:MP", "SB:MP", "BC", "WON"];

#[sqlx::test]
async fn eight_teams_play_a_double_round_robin(pool: PgPool) {
    let event = team_event(
        &pool,
        8,
        2,
        json!({"rounds": 14, "pairing_system": "round_robin",
               "team": {"boards": 2, "tiebreaks": ROUND_ROBIN_KEYS}}),
    )
    .await;
    let mut all = Vec::new();
    for round in 1..=14i64 {
        event.pair().await;
        event.publish(round).await;
        for (i, m) in event.matches(round).await.iter().enumerate() {
            let board = m["id"].as_str().unwrap();
            for g in m["games"].as_array().unwrap() {
                let n = g["number"].as_i64().unwrap();
                // Many drawn matches: ties for the direct encounter to break.
                let result = if (round + i as i64) % 3 == 0 {
                    "draw"
                } else {
                    generated(round, i as i64, n)
                };
                event.result(board, n, result).await;
            }
        }
        let played = event.played(round).await;
        for m in &played {
            check_colours(m);
        }
        all.extend(played);
    }
    // Each pair meets twice, once in each cycle, with the board-1 colours swapped.
    let mut meetings: BTreeMap<(String, String), Vec<(i64, String)>> = BTreeMap::new();
    for m in &all {
        let black = m.black.clone().expect("no byes with 8 teams");
        let pair = (m.red.clone().min(black.clone()), m.red.clone().max(black));
        meetings
            .entry(pair)
            .or_default()
            .push((m.round, m.red.clone()));
    }
    assert_eq!(meetings.len(), 28);
    for ((a, b), list) in &meetings {
        assert_eq!(list.len(), 2, "{a} vs {b}: {list:?}");
        assert!(list[0].0 <= 7 && list[1].0 > 7, "{list:?}");
        assert_ne!(list[0].1, list[1].1, "colours not swapped: {list:?}");
    }
    let standings = event
        .client
        .get(&format!(
            "/api/v1/sections/{}/team-standings",
            event.section
        ))
        .await;
    check_standings(
        &standings,
        &expected(&event.teams, &all, 2, &ROUND_ROBIN_KEYS),
    );
    // The results leave teams level on match points: the direct encounter decides.
    assert!(
        standings["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["tiebreaks"][0].as_f64() != Some(0.0)),
        "DE never applied: {standings}"
    );
}
