//! Team sections' bad input and edges (issue #41): rosters, line-ups, deadlines, a team's
//! bye, and the event file carrying teams and line-ups.

use crate::teams_events::team_event;
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

#[sqlx::test]
async fn bad_rosters_and_line_ups_get_field_errors(pool: PgPool) {
    let event = team_event(
        &pool,
        2,
        3,
        json!({"rounds": 3, "team": {"boards": 3, "reserves": 1}}),
    )
    .await;
    let s = &event.section;
    let c = &event.client;
    // A team is added with its roster, not as an entrant or a player's registration.
    let single = c
        .send(
            "POST",
            &format!("/api/v1/sections/{s}/entrants"),
            Some(json!({"name": "Solo"})),
        )
        .await;
    assert_eq!(single.status, StatusCode::CONFLICT, "{}", single.text);
    let online = c
        .send(
            "POST",
            &format!("/api/v1/sections/{s}/registrations"),
            Some(json!({"name": "Online", "email": "o@example.org", "waiver_accepted": true})),
        )
        .await;
    // A player's registration is a team's on a team section (its roster; issue #41).
    assert_eq!(
        online.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        online.text
    );
    assert_eq!(
        online.json()["field_codes"]["team"][0],
        "team.registration_needs_team"
    );
    // Too short a roster.
    let short = c
        .send(
            "POST",
            &format!("/api/v1/sections/{s}/teams"),
            Some(json!({"name": "Short", "roster": [{"name": "A"}, {"name": "B"}]})),
        )
        .await;
    assert_eq!(
        short.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        short.text
    );
    assert_eq!(
        short.json()["field_codes"]["roster"][0],
        "team.roster_too_few"
    );
    // Too long: boards + reserves.
    let long = c
        .send(
            "POST",
            &format!("/api/v1/sections/{s}/teams"),
            Some(json!({"name": "Long", "roster": (0..5).map(|i| json!({"name": format!("L{i}")})).collect::<Vec<_>>()})),
        )
        .await;
    assert_eq!(
        long.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        long.text
    );
    // A player already on another team.
    let taken = &event.rosters[&event.teams[0]][1];
    let twice = c
        .send(
            "POST",
            &format!("/api/v1/sections/{s}/teams"),
            Some(json!({"name": "Poacher", "roster": [
                {"name": "X"}, {"player_id": taken}, {"name": "Y"}]})),
        )
        .await;
    assert_eq!(
        twice.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        twice.text
    );
    assert_eq!(
        twice.json()["field_codes"]["roster[1]"][0],
        "team.player_twice"
    );
    // Boards outside 2–10 and an unknown team tie-break.
    let tournament = c.get(&format!("/api/v1/sections/{s}")).await["tournament_id"]
        .as_str()
        .unwrap()
        .to_string();
    let bad = c
        .send(
            "POST",
            &format!("/api/v1/tournaments/{tournament}/sections"),
            Some(json!({"name": "Bad", "rounds": 3, "entry_type": "team",
                        "team": {"boards": 11, "tiebreaks": ["GPTS", "XYZ"]}})),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    let codes = bad.json()["field_codes"].clone();
    assert!(codes.get("team.boards").is_some(), "{codes}");
    assert!(codes.get("team.tiebreaks[1]").is_some(), "{codes}");

    let team = &event.teams[0];
    let roster = event.rosters[team].clone();
    // A line-up out of roster order (the reserve above a player listed before it).
    let order = c
        .send(
            "PUT",
            &format!("/api/v1/sections/{s}/rounds/1/lineups/{team}"),
            Some(json!({"players": [roster[2], roster[0], roster[1]]})),
        )
        .await;
    assert_eq!(
        order.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        order.text
    );
    assert_eq!(
        order.json()["field_codes"]["players"][0],
        "team.lineup_order"
    );
    // Another team's player.
    let other = &event.rosters[&event.teams[1]][0];
    let foreign = c
        .send(
            "PUT",
            &format!("/api/v1/sections/{s}/rounds/1/lineups/{team}"),
            Some(json!({"players": [other]})),
        )
        .await;
    assert_eq!(
        foreign.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        foreign.text
    );
    // A short line-up leaves its last board empty: forfeited when the round is paired.
    c.expect(
        StatusCode::OK,
        "PUT",
        &format!("/api/v1/sections/{s}/rounds/1/lineups/{team}"),
        Some(json!({"players": [roster[0], roster[1]]})),
    )
    .await;
    event.pair().await;
    // The empty seat's forfeit is no result entered: the round unpairs without `force`, and
    // the line-up stays for the next pairing.
    let unpaired = c
        .send("DELETE", &format!("/api/v1/sections/{s}/rounds/1"), None)
        .await;
    assert_eq!(unpaired.status, StatusCode::NO_CONTENT, "{}", unpaired.text);
    event.pair().await;
    // The draft round with its forfeited empty seat travels in the event file.
    let file = c
        .get(&format!("/api/v1/tournaments/{tournament}/export.json"))
        .await;
    let imported = c
        .send("POST", "/api/v1/tournaments/import", Some(file))
        .await;
    assert!(imported.status.is_success(), "{}", imported.text);
    let matches = event.matches(1).await;
    let game3 = &matches[0]["games"][2];
    let empty_side = if game3["red_team_id"] == team.as_str() {
        "red"
    } else {
        "black"
    };
    assert!(game3[empty_side].is_null(), "{game3}");
    assert_eq!(game3["result"], format!("{empty_side}_forfeits"));
    // Results wait for the publication; then the captain's key is too late.
    let board = matches[0]["id"].as_str().unwrap();
    let early = c
        .send(
            "PUT",
            &format!("/api/v1/boards/{board}/games/1/result"),
            Some(json!({"result": "draw"})),
        )
        .await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.text);
    event.publish(1).await;
    let key = event.key_of(team).await;
    let late = c
        .send(
            "PUT",
            &format!("/api/v1/keys/{key}/lineup"),
            Some(json!({"round": 1, "players": [roster[0], roster[1], roster[2]]})),
        )
        .await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.text);
    assert_eq!(late.json()["code"], "team.lineup_closed");
    // A wrong key.
    let wrong = c
        .send(
            "PUT",
            "/api/v1/keys/ZZZZZZZZZZZZZZZZ/lineup",
            Some(json!({"round": 2, "players": []})),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND, "{}", wrong.text);
    // The whole match cannot take a board's result path, and a board it has not.
    let whole = c
        .send(
            "PUT",
            &format!("/api/v1/boards/{board}/result"),
            Some(json!({"result": "red_wins"})),
        )
        .await;
    assert_eq!(whole.status, StatusCode::CONFLICT, "{}", whole.text);
    let fourth = c
        .send(
            "PUT",
            &format!("/api/v1/boards/{board}/games/4/result"),
            Some(json!({"result": "red_wins"})),
        )
        .await;
    assert_eq!(fourth.status, StatusCode::CONFLICT, "{}", fourth.text);
    // A stale version is refused.
    event.result(board, 1, "draw").await;
    let stale = c
        .send(
            "PUT",
            &format!("/api/v1/boards/{board}/games/1/result"),
            Some(json!({"result": "red_wins", "version": 0})),
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    // Once the match has a result the desk cannot change its line-up either.
    let played = c
        .send(
            "PUT",
            &format!("/api/v1/sections/{s}/rounds/1/lineups/{team}"),
            Some(json!({"players": [roster[0], roster[1], roster[2]]})),
        )
        .await;
    assert_eq!(played.status, StatusCode::CONFLICT, "{}", played.text);
    // A team that has played is withdrawn, not deleted.
    let delete = c
        .send("DELETE", &format!("/api/v1/teams/{team}"), None)
        .await;
    assert_eq!(delete.status, StatusCode::CONFLICT, "{}", delete.text);
}

#[sqlx::test]
async fn a_team_bye_scores_the_sections_bye_and_every_board(pool: PgPool) {
    let event = team_event(&pool, 3, 2, json!({"rounds": 2, "team": {"boards": 2}})).await;
    event.pair().await;
    // A manual re-pairing seats the new matches' games from the line-ups.
    let t = &event.teams;
    c_edit(
        &event,
        json!({"boards": [{"red": t[2], "black": t[0]}, {"red": t[1], "black": null}],
                          "confirm": true}),
    )
    .await;
    let edited = event.matches(1).await;
    assert_eq!(edited[0]["red"]["id"], t[2].as_str());
    assert_eq!(edited[0]["games"].as_array().unwrap().len(), 2);
    assert_eq!(
        edited[0]["games"][0]["red"]["player_id"],
        event.rosters[&t[2]][0].as_str()
    );
    assert_eq!(
        edited[0]["games"][1]["red"]["player_id"],
        event.rosters[&t[0]][1].as_str()
    );
    event.publish(1).await;
    let matches = event.matches(1).await;
    let bye = matches
        .iter()
        .find(|m| m["black"].is_null())
        .expect("a bye with three teams");
    assert_eq!(bye["red"]["match_points"].as_f64(), Some(2.0));
    assert_eq!(bye["red"]["board_points"].as_f64(), Some(2.0));
    let game = matches.iter().find(|m| !m["black"].is_null()).unwrap();
    let board = game["id"].as_str().unwrap();
    event.result(board, 1, "red_wins").await;
    event.result(board, 2, "draw").await;
    let standings = event
        .client
        .get(&format!(
            "/api/v1/sections/{}/team-standings",
            event.section
        ))
        .await;
    let row = |team: &str| {
        standings["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["team_id"] == team)
            .unwrap()
            .clone()
    };
    let bye_team = row(bye["red"]["id"].as_str().unwrap());
    assert_eq!(bye_team["match_points"].as_f64(), Some(2.0));
    assert_eq!(bye_team["board_points"].as_f64(), Some(2.0));
    // Board 1's Red is the match's red team; board 2's Red its opponent's player: the red
    // team won board 1 and drew board 2, 1½ – ½, a won match.
    let red = row(game["red"]["id"].as_str().unwrap());
    assert_eq!(red["match_points"].as_f64(), Some(2.0));
    assert_eq!(red["board_points"].as_f64(), Some(1.5));
    let black = row(game["black"]["id"].as_str().unwrap());
    assert_eq!(black["match_points"].as_f64(), Some(0.0));
    assert_eq!(black["board_points"].as_f64(), Some(0.5));
}

#[sqlx::test]
async fn teams_pair_by_the_dutch_system_with_forbidden_pairs_withdrawals_and_byes(pool: PgPool) {
    let event = team_event(
        &pool,
        6,
        2,
        json!({"rounds": 4, "pairing_system": "dutch", "team": {"boards": 2}}),
    )
    .await;
    let c = &event.client;
    let t = &event.teams;
    c.send(
        "POST",
        &format!("/api/v1/sections/{}/forbidden-pairs", event.section),
        Some(json!({"a": t[0], "b": t[1]})),
    )
    .await;
    let mut byes = Vec::new();
    for round in 1..=4i64 {
        if round == 2 {
            c.expect(
                StatusCode::OK,
                "POST",
                &format!("/api/v1/entrants/{}/withdraw", t[5]),
                None,
            )
            .await;
        }
        event.pair().await;
        event.publish(round).await;
        for (i, m) in event.matches(round).await.iter().enumerate() {
            let red = m["red"]["id"].as_str().unwrap();
            let Some(black) = m["black"]["id"].as_str() else {
                byes.push(red.to_string());
                continue;
            };
            let pair = [red, black];
            assert!(
                !(pair.contains(&t[0].as_str()) && pair.contains(&t[1].as_str())),
                "forbidden pair met in round {round}"
            );
            if round >= 2 {
                assert!(!pair.contains(&t[5].as_str()), "withdrawn team paired");
            }
            // Board colours alternate: board 1's Red is the red team's, board 2's the other's.
            assert_eq!(m["games"][0]["red_team_id"], red);
            assert_eq!(m["games"][1]["red_team_id"], black);
            let board = m["id"].as_str().unwrap();
            for n in 1..=2 {
                event
                    .result(board, n, crate::teams_events::generated(round, i as i64, n))
                    .await;
            }
        }
    }
    // Five teams from round 2: a bye each round, never twice to the same team.
    assert_eq!(byes.len(), 3, "{byes:?}");
    let distinct: std::collections::BTreeSet<&String> = byes.iter().collect();
    assert_eq!(distinct.len(), 3, "{byes:?}");
    let standings = event
        .client
        .get(&format!(
            "/api/v1/sections/{}/team-standings",
            event.section
        ))
        .await;
    for team in &byes {
        let row = standings["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["team_id"] == team.as_str())
            .unwrap()
            .clone();
        assert!(row["match_points"].as_f64().unwrap() >= 2.0, "{row}");
    }
}

async fn c_edit(event: &crate::teams_events::TeamEvent, body: serde_json::Value) {
    let reply = event
        .client
        .send(
            "PUT",
            &format!("/api/v1/sections/{}/rounds/1/boards", event.section),
            Some(body),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}
