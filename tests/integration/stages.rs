//! Stages that overlap (issue #40), played through the HTTP API with generated results: the
//! AXF format (a knockout of the top four after round 5 while the others play rounds 6–7) and
//! the WXF format (the top two after round 8 play a final on board 1 of round 9).

use crate::support::{
    add_entrants, call, expect, get, keep_tied_order, lower_number_wins, play_round,
    tournament_with_section, Client, Event,
};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;
use std::collections::HashSet;

/// A generated result for a board: a hash of the seed, the round and the two starting numbers
/// decides it, the lower number a little more likely to win, a draw one time in five.
fn generated(seed: u64) -> impl Fn(&Value) -> &'static str {
    move |board: &Value| {
        let red = board["red"]["start_no"].as_u64().unwrap_or(0);
        let black = board["black"]["start_no"].as_u64().unwrap_or(0);
        let mut x = seed ^ (red << 20) ^ (black << 8) ^ board["number"].as_u64().unwrap_or(0);
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^= x >> 31;
        let roll = (x % 100) as i64;
        let edge = (black as i64 - red as i64).clamp(-20, 20);
        if roll < 20 {
            "draw"
        } else if roll < 60 + edge {
            "red_wins"
        } else {
            "black_wins"
        }
    }
}

/// Everyone on a round's boards (byes included), checking nobody is there twice.
fn players_of(round: &Value) -> HashSet<String> {
    let mut seen = HashSet::new();
    for b in round["boards"].as_array().expect("boards") {
        for side in ["red", "black"] {
            if let Some(id) = b[side]["entrant_id"].as_str() {
                assert!(
                    seen.insert(id.to_string()),
                    "{id} is paired twice in round {}",
                    round["number"]
                );
            }
        }
    }
    seen
}

/// The Swiss order of a section's standings (entrant ids).
async fn standings_order(pool: &PgPool, sid: &str) -> Vec<String> {
    let standings = expect(
        &get(pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    standings["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["entrant_id"].as_str().expect("id").to_string())
        .collect()
}

/// Plays every due game of a bracket's matches, Red winning each.
async fn play_knockout_round(client: &Client, sid: &str) -> Value {
    let bracket = client
        .get(&format!("/api/v1/sections/{sid}/knockout"))
        .await;
    for m in bracket["matches"].as_array().expect("matches") {
        if m["next_game"].is_null() {
            continue;
        }
        let id = m["id"].as_str().expect("match id");
        client
            .expect(
                StatusCode::OK,
                "POST",
                &format!("/api/v1/matches/{id}/games"),
                Some(json!({"result": "red_wins"})),
            )
            .await;
    }
    client
        .get(&format!("/api/v1/sections/{sid}/knockout"))
        .await
}

async fn axf(pool: PgPool, system: &str) {
    let event = Event::new(&pool)
        .section(json!({"rounds": 7, "pairing_system": system}))
        .entrants(34)
        .await;
    let client = event.client.clone();
    let sid = event.sections[0].to_string();
    // A knockout seeded after the last round is no overlap; a round robin has none.
    let bad = client
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            "PUT",
            &format!("/api/v1/sections/{sid}/stages"),
            Some(json!({"format": "knockout_after_round", "after_round": 7, "qualifiers": 4})),
        )
        .await;
    assert!(bad["errors"]["after_round"].is_array(), "{bad}");
    let stages = client
        .expect(
            StatusCode::OK,
            "PUT",
            &format!("/api/v1/sections/{sid}/stages"),
            Some(json!({"format": "knockout_after_round", "after_round": 5, "qualifiers": 4})),
        )
        .await;
    assert_eq!(stages["format"], "knockout_after_round");
    assert_eq!(stages["editable"], true);
    for _ in 0..5 {
        play_round(&pool, &client.token, &sid, generated(40)).await;
    }
    // Round 6 waits for the knockout.
    let early = client
        .expect(
            StatusCode::CONFLICT,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            None,
        )
        .await;
    assert!(
        early["message"]
            .as_str()
            .unwrap()
            .contains("seed the knockout"),
        "{early}"
    );
    keep_tied_order(&pool, &client.token, &sid).await;
    let after_five = standings_order(&pool, &sid).await;
    let top4: Vec<String> = after_five[..4].to_vec();
    let wrong_size = client
        .expect(
            StatusCode::UNPROCESSABLE_ENTITY,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(json!({"size": 8})),
        )
        .await;
    assert!(wrong_size["errors"]["size"].is_array());
    let bracket = client
        .expect(
            StatusCode::CREATED,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(json!({"size": 4, "best_of": 1, "third_place": false})),
        )
        .await;
    let seeded: HashSet<String> = bracket["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["round"] == 1)
        .flat_map(|m| {
            [
                m["high"]["entrant_id"].as_str().unwrap().to_string(),
                m["low"]["entrant_id"].as_str().unwrap().to_string(),
            ]
        })
        .collect();
    assert_eq!(seeded, top4.iter().cloned().collect::<HashSet<_>>());
    let stages = client.get(&format!("/api/v1/sections/{sid}/stages")).await;
    assert_eq!(
        stages["left_out"],
        json!(top4),
        "the qualifiers in seed order"
    );
    assert_eq!(stages["editable"], false);
    // Rounds 6 and 7: the 30 others, 15 boards, nobody twice, no qualifier; the knockout
    // plays its semi-finals and final alongside.
    for n in 6..=7 {
        let round = play_round(&pool, &client.token, &sid, generated(41)).await;
        assert_eq!(round["number"], n);
        let players = players_of(&round);
        assert_eq!(players.len(), 30, "round {n}: the 30 others");
        assert_eq!(round["boards"].as_array().unwrap().len(), 15, "no bye");
        for q in &top4 {
            assert!(
                !players.contains(q),
                "qualifier {q} in the Swiss of round {n}"
            );
            assert!(
                !round["absences"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|a| a["entrant_id"] == q.as_str()),
                "qualifier {q} counted absent in round {n}"
            );
        }
        let bracket = play_knockout_round(&client, &sid).await;
        for m in bracket["matches"].as_array().unwrap() {
            if m["round"] == n - 5 {
                assert!(!m["winner"].is_null(), "knockout round {} decided", n - 5);
            }
        }
    }
    let bracket = client
        .get(&format!("/api/v1/sections/{sid}/knockout"))
        .await;
    let champion = bracket["champion"].as_str().expect("champion").to_string();
    let final_match = bracket["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["round"] == 2)
        .unwrap();
    let runner_up = [&final_match["high"], &final_match["low"]]
        .iter()
        .map(|s| s["entrant_id"].as_str().unwrap().to_string())
        .find(|id| *id != champion)
        .unwrap();
    // The semi-final losers by their standing after round 5 (their seeds).
    let mut semi_losers: Vec<(i64, String)> = bracket["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["round"] == 1)
        .map(|m| {
            let loser = if m["winner"] == m["high"]["entrant_id"] {
                &m["low"]
            } else {
                &m["high"]
            };
            (
                loser["seed"].as_i64().unwrap(),
                loser["entrant_id"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    semi_losers.sort();
    keep_tied_order(&pool, &client.token, &sid).await;
    let swiss = standings_order(&pool, &sid).await;
    let ranking = client.get(&format!("/api/v1/sections/{sid}/ranking")).await;
    assert_eq!(ranking["final"], true, "{ranking}");
    let places: Vec<String> = ranking["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["entrant_id"].as_str().unwrap().to_string())
        .collect();
    let mut expected = vec![
        champion,
        runner_up,
        semi_losers[0].1.clone(),
        semi_losers[1].1.clone(),
    ];
    expected.extend(swiss.into_iter().filter(|id| !top4.contains(id)));
    assert_eq!(
        places, expected,
        "the knockout's places, then the others by the Swiss"
    );
    assert_eq!(places.len(), 34);
    let sources: Vec<&str> = ranking["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["source"].as_str().unwrap())
        .collect();
    assert!(
        sources[..4].iter().all(|s| *s == "knockout") && sources[4..].iter().all(|s| *s == "swiss")
    );
    // The round reports say who was left out, and the stages can no longer change.
    let round6 = client
        .get(&format!("/api/v1/sections/{sid}/rounds/6"))
        .await;
    assert_eq!(
        round6["report"]["stages"]["left_out"],
        json!(top4),
        "{}",
        round6["report"]
    );
    client
        .expect(
            StatusCode::CONFLICT,
            "PUT",
            &format!("/api/v1/sections/{sid}/stages"),
            Some(json!({"format": "swiss"})),
        )
        .await;
}

#[sqlx::test]
async fn axf_top_four_play_a_knockout_while_thirty_play_on_chinese(pool: PgPool) {
    axf(pool, "chinese").await;
}

#[sqlx::test]
async fn axf_top_four_play_a_knockout_while_thirty_play_on_dutch(pool: PgPool) {
    axf(pool, "dutch").await;
}

/// The WXF format over 9 rounds with results from `seed`: returns the section and client
/// after round 8, the top two, and whether they met.
async fn wxf_after_eight(
    pool: &PgPool,
    client: &Client,
    seed: u64,
    colours: &str,
) -> (String, Vec<String>, bool) {
    let (_, sid) = tournament_with_section(
        pool,
        &client.token,
        "xiangqi",
        json!({"rounds": 9, "pairing_system": "chinese"}),
    )
    .await;
    add_entrants(pool, &client.token, &sid, 20).await;
    client
        .expect(
            StatusCode::OK,
            "PUT",
            &format!("/api/v1/sections/{sid}/stages"),
            Some(json!({"format": "final_last_round", "final_colours": colours})),
        )
        .await;
    let mut met = HashSet::new();
    for _ in 0..8 {
        let round = play_round(pool, &client.token, &sid, generated(seed)).await;
        for b in round["boards"].as_array().unwrap() {
            if let (Some(r), Some(k)) = (
                b["red"]["entrant_id"].as_str(),
                b["black"]["entrant_id"].as_str(),
            ) {
                met.insert((r.to_string(), k.to_string()));
                met.insert((k.to_string(), r.to_string()));
            }
        }
    }
    keep_tied_order(pool, &client.token, &sid).await;
    let order = standings_order(pool, &sid).await;
    let top2 = order[..2].to_vec();
    let have_met = met.contains(&(top2[0].clone(), top2[1].clone()));
    (sid, top2, have_met)
}

#[sqlx::test]
async fn wxf_the_top_two_after_round_eight_play_the_final_on_board_one(pool: PgPool) {
    let client = Client::admin(&pool).await;
    let (sid, top2, met) = wxf_after_eight(&pool, &client, 17, "higher_seed").await;
    assert!(!met, "seed 17's leaders have not met (the test's premise)");
    let round = client
        .expect(
            StatusCode::CREATED,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            None,
        )
        .await;
    let boards = round["boards"].as_array().unwrap();
    assert_eq!(boards[0]["number"], 1);
    assert_eq!(
        boards[0]["red"]["entrant_id"], top2[0],
        "the leader has Red (higher seed)"
    );
    assert_eq!(boards[0]["black"]["entrant_id"], top2[1]);
    let players = players_of(&round);
    assert_eq!(players.len(), 20);
    for b in &boards[1..] {
        for side in ["red", "black"] {
            assert!(
                !top2.iter().any(|t| b[side]["entrant_id"] == t.as_str()),
                "a finalist on board {}",
                b["number"]
            );
        }
    }
    assert_eq!(round["report"]["stages"]["final"]["red"], top2[0]);
    let stages = client.get(&format!("/api/v1/sections/{sid}/stages")).await;
    assert_eq!(stages["final"]["black"], top2[1]);
    // The runner-up wins the final: first place, whatever the points say.
    crate::support::publish(&pool, &client.token, &sid, 9).await;
    for b in boards {
        let id = b["id"].as_str().unwrap();
        let result = if b["number"] == 1 {
            "black_wins"
        } else {
            lower_number_wins(b)
        };
        client
            .expect(
                StatusCode::OK,
                "PUT",
                &format!("/api/v1/boards/{id}/result"),
                Some(json!({"result": result})),
            )
            .await;
    }
    keep_tied_order(&pool, &client.token, &sid).await;
    let swiss = standings_order(&pool, &sid).await;
    let ranking = client.get(&format!("/api/v1/sections/{sid}/ranking")).await;
    assert_eq!(ranking["final"], true);
    let rows = ranking["rows"].as_array().unwrap();
    assert_eq!(rows[0]["entrant_id"], top2[1]);
    assert_eq!(rows[1]["entrant_id"], top2[0]);
    assert_eq!(rows[0]["source"], "final");
    let rest: Vec<&str> = rows[2..]
        .iter()
        .map(|r| r["entrant_id"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = swiss
        .iter()
        .map(String::as_str)
        .filter(|id| !top2.iter().any(|t| t == id))
        .collect();
    assert_eq!(rest, expected, "places 3– by the Swiss");
}

#[sqlx::test]
async fn wxf_no_final_when_the_top_two_have_met(pool: PgPool) {
    let client = Client::admin(&pool).await;
    let (sid, top2, met) = wxf_after_eight(&pool, &client, 3, "lot").await;
    assert!(met, "seed 3's leaders have met (the test's premise)");
    let round = client
        .expect(
            StatusCode::CREATED,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            None,
        )
        .await;
    assert_eq!(
        players_of(&round).len(),
        20,
        "everyone paired by the engine"
    );
    for b in round["boards"].as_array().unwrap() {
        let pair = [
            b["red"]["entrant_id"].as_str(),
            b["black"]["entrant_id"].as_str(),
        ];
        assert!(
            !(pair.contains(&Some(top2[0].as_str())) && pair.contains(&Some(top2[1].as_str()))),
            "the top two are not paired again"
        );
    }
    assert_eq!(
        round["report"]["stages"]["final_not_formed"], true,
        "{}",
        round["report"]
    );
    let stages = client.get(&format!("/api/v1/sections/{sid}/stages")).await;
    assert!(stages["final"].is_null());
    assert_eq!(stages["final_not_formed"], true);
    // Unpaired, the round pairs again the same way: nothing was stored for the final.
    let again = call(
        &pool,
        "DELETE",
        &format!("/api/v1/sections/{sid}/rounds/9"),
        Some(&client.token),
        None,
    )
    .await;
    assert!(again.status.is_success(), "{}", again.text);
}
