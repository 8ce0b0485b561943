//! A team section out and back in (issue #41): its TRF export carries the TRF-2026 team
//! records (`310` teams with rosters and points, `320` the pairing-allocated byes, `330` a
//! match forfeited as a whole, `352` board colours, `362` match points), and read back with
//! the core's reader gives the teams, rosters, match results and board colours played through
//! the API; the event file carries a played team event whose copy has the same standings
//! (equal to an independent computation), crosstable, matches, line-ups and TRF.

use crate::support::{call, expect};
use crate::teams_events::{check_standings, expected, generated, team_event, Match, TeamEvent};
use arbiter_core::model::{ResultCode, Side};
use arbiter_core::teams::{Team, TeamScoring};
use arbiter_core::trf::ForfeitWinner;
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// Boards of the test events, and their chain.
const BOARDS: i64 = 3;
const KEYS: [&str; 2] = ["GPTS", "BH:MP"];

/// Five teams of four (three boards, one reserve) play a three-round Chinese Swiss: team 1
/// puts its reserve on board 3 in round 1, round 2's first match is forfeited whole by its
/// black team, round 3's first match has board 2 forfeited by Black; the other boards get
/// generated results. Every round has a pairing-allocated bye (five teams).
pub async fn played_team_event(pool: &PgPool) -> (TeamEvent, Vec<Match>) {
    let event = team_event(
        pool,
        5,
        4,
        json!({"rounds": 3, "pairing_system": "chinese",
               "team": {"boards": BOARDS, "reserves": 1, "tiebreaks": KEYS}}),
    )
    .await;
    let s = event.section.clone();
    let first = event.teams[0].clone();
    let roster = event.rosters[&first].clone();
    let mut all = Vec::new();
    for round in 1..=3i64 {
        event.pair().await;
        if round == 1 {
            event
                .client
                .expect(
                    StatusCode::OK,
                    "PUT",
                    &format!("/api/v1/sections/{s}/rounds/1/lineups/{first}"),
                    Some(json!({"players": [roster[0], roster[1], roster[3]]})),
                )
                .await;
        }
        event.publish(round).await;
        let matches = event.matches(round).await;
        let mut played_match = 0;
        for m in &matches {
            if m["black"].is_null() {
                continue;
            }
            let board = m["id"].as_str().unwrap();
            if round == 2 && played_match == 0 {
                event
                    .client
                    .expect(
                        StatusCode::OK,
                        "POST",
                        &format!("/api/v1/boards/{board}/forfeit"),
                        Some(json!({"forfeits": "black"})),
                    )
                    .await;
            } else {
                for n in 1..=BOARDS {
                    let result = if round == 3 && played_match == 0 && n == 2 {
                        "black_forfeits"
                    } else {
                        generated(round, m["number"].as_i64().unwrap(), n)
                    };
                    event.result(board, n, result).await;
                }
            }
            played_match += 1;
        }
        all.extend(event.played(round).await);
    }
    (event, all)
}

/// The section's TRF as `token` (none: the public) downloads it.
async fn trf_of(pool: &PgPool, token: Option<&str>, section: &str) -> String {
    let reply = call(
        pool,
        "GET",
        &format!("/api/v1/sections/{section}/export.trf"),
        token,
        None,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.text
}

/// A team's name by id, and a player's name by id, from the API.
async fn names(event: &TeamEvent) -> (Vec<(String, String)>, Vec<(String, String)>) {
    let list = event
        .client
        .get(&format!("/api/v1/sections/{}/teams", event.section))
        .await;
    let mut teams = Vec::new();
    let mut players = Vec::new();
    for t in list["teams"].as_array().unwrap() {
        teams.push((
            t["id"].as_str().unwrap().to_string(),
            t["name"].as_str().unwrap().to_string(),
        ));
        for p in t["roster"].as_array().unwrap() {
            players.push((
                p["player_id"].as_str().unwrap().to_string(),
                p["name"].as_str().unwrap().to_string(),
            ));
        }
    }
    (teams, players)
}

fn name_of<'a>(list: &'a [(String, String)], id: &str) -> &'a str {
    &list.iter().find(|(i, _)| i == id).unwrap().1
}

#[sqlx::test]
async fn a_team_sections_trf_has_the_team_records_and_reads_back_as_played(pool: PgPool) {
    let (event, all) = played_team_event(&pool).await;
    let (team_names, player_names) = names(&event).await;
    let text = trf_of(&pool, None, &event.section).await;
    for code in ["082 ", "352 ", "362 ", "310 ", "320 ", "330 "] {
        assert!(
            text.lines().any(|l| l.starts_with(code)),
            "{code}in:\n{text}"
        );
    }
    let t = arbiter_core::trf::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let section = arbiter_core::trf::team_section(&t)
        .unwrap()
        .expect("team records");
    // The teams in starting order, each roster in board order (the reserve last).
    let want_teams: Vec<&str> = event
        .teams
        .iter()
        .map(|id| name_of(&team_names, id))
        .collect();
    let got_teams: Vec<&str> = section.teams.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(got_teams, want_teams);
    let player = |no: u32| t.entrant(no).unwrap().name.clone();
    for (line, id) in section.teams.iter().zip(&event.teams) {
        let want: Vec<&str> = event.rosters[id]
            .iter()
            .map(|p| name_of(&player_names, p))
            .collect();
        let got: Vec<String> = line.roster.iter().map(|&no| player(no)).collect();
        assert_eq!(got, want, "roster of {}", line.name);
    }
    // Board colours alternate, Red (TRF White) on board 1; match points 2 / 1 / 0.
    assert_eq!(
        section.board_colours,
        vec![Side::Red, Side::Black, Side::Red]
    );
    let scoring = section.match_scoring.expect("362");
    assert_eq!(
        (
            scoring.win.tenths(),
            scoring.draw.tenths(),
            scoring.loss.tenths()
        ),
        (20, 10, 0)
    );
    // Every game: both players' records name each other, with the colours and results played.
    let number_of = |name: &str| t.entrants.iter().find(|e| e.name == name).unwrap().start_no;
    let codes = |result: &str| match result {
        "red_wins" => (ResultCode::Win, ResultCode::Loss),
        "black_wins" => (ResultCode::Loss, ResultCode::Win),
        "draw" => (ResultCode::Draw, ResultCode::Draw),
        "red_forfeits" => (ResultCode::ForfeitLoss, ResultCode::ForfeitWin),
        "black_forfeits" => (ResultCode::ForfeitWin, ResultCode::ForfeitLoss),
        other => panic!("{other}"),
    };
    for m in &all {
        for g in &m.games {
            let red = number_of(name_of(&player_names, g.red_player.as_ref().unwrap()));
            let black = number_of(name_of(&player_names, g.black_player.as_ref().unwrap()));
            let (rc, bc) = codes(&g.result);
            let rec = t.entrant(red).unwrap().round(m.round as u32).unwrap();
            assert_eq!(
                (rec.opponent, rec.colour, rec.result),
                (Some(black), Some(Side::Red), rc)
            );
            let rec = t.entrant(black).unwrap().round(m.round as u32).unwrap();
            assert_eq!(
                (rec.opponent, rec.colour, rec.result),
                (Some(red), Some(Side::Black), bc)
            );
        }
    }
    // The matches the core reads from the file: opponents and board points as played.
    let teams: Vec<Team> = section
        .teams
        .iter()
        .map(|l| Team {
            name: l.name.clone(),
            roster: l.roster.clone(),
        })
        .collect();
    let read = arbiter_core::teams::matches(&t, &teams, &TeamScoring::default()).unwrap();
    let index = |id: &str| event.teams.iter().position(|t| t == id).unwrap();
    let mut byes = vec![None; 3];
    for m in &all {
        let r = m.round as usize - 1;
        let red = index(&m.red);
        let Some(black) = &m.black else {
            byes[r] = Some(red as u32 + 1);
            continue;
        };
        let black = index(black);
        let (mut red_halves, mut black_halves) = (0, 0);
        for g in &m.games {
            let (a, b) = match g.result.as_str() {
                "red_wins" | "black_forfeits" => (2, 0),
                "black_wins" | "red_forfeits" => (0, 2),
                _ => (1, 1),
            };
            if g.red_team == m.red {
                red_halves += a;
                black_halves += b;
            } else {
                red_halves += b;
                black_halves += a;
            }
        }
        let mine = &read[red][r];
        assert_eq!(mine.opponent, Some(black), "round {}", m.round);
        assert_eq!(mine.game_points.tenths(), red_halves * 5);
        assert_eq!(read[black][r].game_points.tenths(), black_halves * 5);
        // The red team's board-1 player had Red, its board-2 player Black, …
        let colours: Vec<Option<Side>> = mine.boards.iter().map(|b| b.colour).collect();
        assert_eq!(
            colours,
            vec![Some(Side::Red), Some(Side::Black), Some(Side::Red)]
        );
    }
    // `320`: the pairing-allocated byes, worth a won match and every board.
    let pab = section.pab.expect("320");
    assert_eq!(pab.teams, byes);
    assert_eq!(
        (pab.match_points.tenths(), pab.game_points.tenths()),
        (20, 30)
    );
    // `330`: round 2's first match, forfeited whole by its black team.
    let forfeited = all
        .iter()
        .find(|m| m.round == 2 && m.black.is_some())
        .unwrap();
    assert_eq!(section.forfeits.len(), 1, "{:?}", section.forfeits);
    let f = section.forfeits[0];
    assert_eq!(
        (f.round, f.white, f.black, f.winner),
        (
            2,
            index(&forfeited.red) as u32 + 1,
            index(forfeited.black.as_ref().unwrap()) as u32 + 1,
            ForfeitWinner::White
        )
    );
    // `310`: match points, game points and ranks as the independent standings have them.
    let want = expected(&event.teams, &all, BOARDS, &KEYS);
    let standings = event
        .client
        .get(&format!(
            "/api/v1/sections/{}/team-standings",
            event.section
        ))
        .await;
    check_standings(&standings, &want);
    for (team, mp, gp, _, rank) in &want.rows {
        let line = &section.teams[index(team)];
        assert_eq!(
            line.match_points.tenths() as f64 / 10.0,
            *mp,
            "{}",
            line.name
        );
        assert_eq!(
            line.game_points.tenths() as f64 / 10.0,
            *gp,
            "{}",
            line.name
        );
        assert_eq!(line.rank, Some(*rank), "{}", line.name);
    }
}

/// `value` without ids (the copy's differ).
fn without_ids(value: &Value) -> Value {
    match value {
        Value::String(s) if s.len() == 36 && uuid::Uuid::parse_str(s).is_ok() => json!("<id>"),
        Value::Array(items) => Value::Array(items.iter().map(without_ids).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "version")
                .map(|(k, v)| (k.clone(), without_ids(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[sqlx::test]
async fn a_played_team_event_moved_by_event_file_keeps_its_standings_matches_and_line_ups(
    pool: PgPool,
) {
    let (event, all) = played_team_event(&pool).await;
    let s = &event.section;
    let sections = |tid: &str| format!("/api/v1/tournaments/{tid}/sections");
    let section = event.client.get(&format!("/api/v1/sections/{s}")).await;
    let tid = section["tournament_id"].as_str().unwrap().to_string();
    let file = event
        .client
        .get(&format!("/api/v1/tournaments/{tid}/export.json"))
        .await;
    for table in ["entrant_member", "team_lineup", "game"] {
        assert!(
            !file["tables"][table].as_array().unwrap().is_empty(),
            "{table} travels"
        );
    }
    let imported = expect(
        &event
            .client
            .send("POST", "/api/v1/tournaments/import", Some(file))
            .await,
        StatusCode::CREATED,
    );
    let new_tid = imported["id"].as_str().unwrap();
    let copy = event.client.get(&sections(new_tid)).await;
    let copy = copy.as_array().unwrap()[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(&copy, s);
    // The copy's standings equal the independent computation from the matches as played.
    let want = expected(&event.teams, &all, BOARDS, &KEYS);
    let standings = event
        .client
        .get(&format!("/api/v1/sections/{copy}/team-standings"))
        .await;
    let original = event
        .client
        .get(&format!("/api/v1/sections/{s}/team-standings"))
        .await;
    check_standings(&original, &want);
    assert_eq!(without_ids(&standings), without_ids(&original));
    let names = |v: &Value| -> Vec<String> {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&standings), names(&original));
    // Matches board by board, line-ups, the crosstable and the TRF are the same.
    for path in [
        "team-crosstable",
        "rounds/1/matches",
        "rounds/2/matches",
        "rounds/3/matches",
        "rounds/1/lineups",
        "rounds/3/lineups",
        "board-rankings",
    ] {
        let a = event
            .client
            .get(&format!("/api/v1/sections/{s}/{path}"))
            .await;
        let b = event
            .client
            .get(&format!("/api/v1/sections/{copy}/{path}"))
            .await;
        assert_eq!(without_ids(&a), without_ids(&b), "{path}");
    }
    // The reserve's round-1 line-up travelled.
    let lineups = event
        .client
        .get(&format!("/api/v1/sections/{copy}/rounds/1/lineups"))
        .await;
    assert!(lineups.to_string().contains("T1P4"), "{lineups}");
    // The copy's TRF is the original's (its `012` name aside).
    let token = Some(event.client.token.as_str());
    let body = |text: String| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("012 "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        body(trf_of(&pool, token, &copy).await),
        body(trf_of(&pool, token, s).await)
    );
}
