//! Issue #40, part A: knockout games with set-ups committed and revealed like the Swiss
//! rounds', per game or in duplicate per knockout round, and each round's rules (captured
//! pieces, time control, tiebreak games) shown on the bracket, its slips and the screen.

use crate::support::{call, csrf_of, expect, get, lower_number_wins, Browser, Event};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sha2::Digest as _;
use sqlx::PgPool;

fn match_at(bracket: &Value, round: i64, slot: i64) -> Value {
    bracket["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["round"] == round && m["slot"] == slot && m["third_place"] == false)
        .unwrap()
        .clone()
}

/// Records a game of a match: `winner` wins it, or a draw when `None`.
async fn game(pool: &PgPool, token: &str, m: &Value, winner: Option<&Value>) -> Value {
    let result = match winner {
        None => "draw",
        Some(w) if *w == m["next_red"] => "red_wins",
        Some(_) => "black_wins",
    };
    let id = m["id"].as_str().unwrap();
    expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/matches/{id}/games"),
            Some(token),
            Some(json!({"result": result})),
        )
        .await,
        StatusCode::OK,
    )
}

/// `sha256(setup:salt)` in hex.
fn commitment(setup: &Value) -> String {
    let text = format!(
        "{}:{}",
        setup["setup"].as_str().unwrap(),
        setup["salt"].as_str().unwrap()
    );
    hex::encode(sha2::Sha256::digest(text.as_bytes()))
}

async fn public_bracket(pool: &PgPool, sid: &str) -> Value {
    expect(
        &get(pool, &format!("/api/v1/sections/{sid}/knockout")).await,
        StatusCode::OK,
    )
}

#[sqlx::test]
async fn a_knockout_games_set_up_is_public_before_play_unchanged_after_and_revealed_with_the_match(
    pool: PgPool,
) {
    let event = Event::new(&pool)
        .game("jieqi")
        .section(json!({"rounds": 2, "setup_mode": "per_board"}))
        .entrants(4)
        .play(2, lower_number_wins)
        .await;
    let (token, sid) = (event.client.token.clone(), event.sections[0].to_string());
    let bracket = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            Some(json!({"size": 4, "best_of": 3, "third_place": false})),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(
        bracket["setup_mode"], "per_game",
        "as the Swiss (per board)"
    );
    let m = match_at(&bracket, 1, 1);
    let arbiter_setup = m["next_game"]["setup"].clone();
    assert!(arbiter_setup["setup"]
        .as_str()
        .unwrap()
        .starts_with("jieqi:"));

    // Before play: the commitment is public, the set-up is not.
    let public = public_bracket(&pool, &sid).await;
    let first = match_at(&public, 1, 1)["next_game"]["setup"].clone();
    let c1 = first["commitment"].as_str().unwrap().to_string();
    assert_eq!(c1, arbiter_setup["commitment"]);
    assert!(first.get("setup").is_none() && first.get("salt").is_none());
    let page = get(&pool, &format!("/s/{sid}/bracket")).await;
    assert!(page.text.contains(&c1), "the bracket shows the commitment");
    let print = get(&pool, &format!("/s/{sid}/bracket/print")).await;
    assert!(print.text.contains(&c1), "and its print");
    let slips = get(&pool, &format!("/s/{sid}/bracket/slips/1/print")).await;
    assert_eq!(slips.status, StatusCode::OK);
    assert!(slips.text.contains(&c1), "and the match slip");
    let listed = get(&pool, &format!("/s/{sid}/bracket/setups")).await;
    assert!(listed.text.contains(&c1) && !listed.text.contains("data-verify-text"));

    // Game 1 played: the same commitment, still secret while the match goes on; game 2 has
    // its own.
    let high = m["high"]["entrant_id"].clone();
    let after1 = game(&pool, &token, &m, Some(&high)).await;
    let public = public_bracket(&pool, &sid).await;
    let pm = match_at(&public, 1, 1);
    assert_eq!(pm["games"][0]["setup"]["commitment"], c1.as_str());
    assert!(pm["games"][0]["setup"].get("setup").is_none());
    assert_eq!(pm["setups_revealed"], false);
    let c2 = pm["next_game"]["setup"]["commitment"]
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(c1, c2, "each game its own set-up");

    // The match decided: both set-ups revealed, each matching the commitment shown before.
    game(&pool, &token, &after1, Some(&high)).await;
    let public = public_bracket(&pool, &sid).await;
    let pm = match_at(&public, 1, 1);
    assert_eq!(pm["setups_revealed"], true);
    for (n, c) in [(0, &c1), (1, &c2)] {
        let s = &pm["games"][n]["setup"];
        assert_eq!(s["commitment"], c.as_str(), "unchanged after the game");
        assert_eq!(&commitment(s), c, "the reveal verifies");
    }
    // The other semi-final's set-up stays secret.
    let other = match_at(&public, 1, 2);
    assert!(other["next_game"]["setup"].get("setup").is_none());
    let listed = get(&pool, &format!("/s/{sid}/bracket/setups")).await;
    assert!(listed
        .text
        .contains(&format!("data-verify-commitment=\"{c1}\"")));
    // The arbiter's sheet of the final's round is empty until its players are known; the
    // semi-finals' has the other match's next game.
    let mut browser = Browser::new(&pool);
    browser.log_in("chief", "a long password").await;
    let sheet = browser
        .get(&format!("/admin/s/{sid}/knockout/setups/1/print"))
        .await;
    assert_eq!(sheet.status, StatusCode::OK);
    let other_c = other["next_game"]["setup"]["commitment"].as_str().unwrap();
    assert!(sheet.text.contains(other_c));
    assert!(
        sheet.text.contains("class=\"board"),
        "the sheet draws the board"
    );
    // A replayed record of a decided match's game is public.
    let record = get(
        &pool,
        &format!("/s/{sid}/bracket/{}/games/1", m["id"].as_str().unwrap()),
    )
    .await;
    assert_ne!(record.status, StatusCode::INTERNAL_SERVER_ERROR);
}

#[sqlx::test]
async fn duplicate_knockout_set_ups_are_one_per_round_and_game_and_stage_rules_are_printed(
    pool: PgPool,
) {
    let event = Event::new(&pool)
        .game("jieqi")
        .section(json!({"rounds": 2, "setup_mode": "duplicate"}))
        .entrants(4)
        .play(2, lower_number_wins)
        .await;
    let (token, sid) = (event.client.token.clone(), event.sections[0].to_string());
    let bracket = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            Some(json!({"size": 4, "best_of": 3, "third_place": true})),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(bracket["setup_mode"], "duplicate", "as the Swiss rounds");
    let rounds: Vec<(i64, i64)> = bracket["round_setups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["round"].as_i64().unwrap(), r["game"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        rounds,
        [(1, 1), (1, 2), (1, 3)],
        "the regular games' drawn together"
    );
    let (a, b) = (match_at(&bracket, 1, 1), match_at(&bracket, 1, 2));
    assert_eq!(
        a["next_game"]["setup"]["commitment"], b["next_game"]["setup"]["commitment"],
        "every match of the round plays the same set-up"
    );

    // Rules per stage: the final's round has captured pieces face down.
    let bad = call(
        &pool,
        "PUT",
        &format!("/api/v1/sections/{sid}/knockout/stages/2"),
        Some(&token),
        Some(
            json!({"tiebreaks": [{"kind": "armageddon", "games": 1, "time_control": "5+3"},
            {"kind": "rapid", "games": 1, "time_control": "10+5"}]}),
        ),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    let no_round = call(
        &pool,
        "PUT",
        &format!("/api/v1/sections/{sid}/knockout/stages/3"),
        Some(&token),
        Some(json!({"capture_rule": "face_down"})),
    )
    .await;
    assert_eq!(no_round.status, StatusCode::UNPROCESSABLE_ENTITY);
    let set = expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/sections/{sid}/knockout/stages/2"),
            Some(&token),
            Some(json!({"capture_rule": "face_down", "time_control": "90+30",
                "tiebreaks": [{"kind": "rapid", "games": 2, "time_control": "15+10"},
                    {"kind": "armageddon", "games": 1, "time_control": "R6' B4'"}], "version": 0})),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(set["capture_rule"], "face_down");
    assert_eq!(set["version"], 1);
    let stale = call(
        &pool,
        "PUT",
        &format!("/api/v1/sections/{sid}/knockout/stages/2"),
        Some(&token),
        Some(json!({"time_control": "60", "version": 0})),
    )
    .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    let stages = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/knockout/stages")).await,
        StatusCode::OK,
    );
    assert_eq!(stages[0]["capture_rule"], "capturer_sees");
    assert_eq!(stages[1]["tiebreaks"][0]["games"], 2);

    // Round 1, match 1 decided 2–0: its set-ups stay secret while the round goes on.
    let high = a["high"]["entrant_id"].clone();
    let a1 = game(&pool, &token, &a, Some(&high)).await;
    game(&pool, &token, &a1, Some(&high)).await;
    let public = public_bracket(&pool, &sid).await;
    let pa = match_at(&public, 1, 1);
    assert_eq!(pa["setups_revealed"], false);
    assert!(pa["games"][0]["setup"].get("setup").is_none());
    // Match 2: three draws, then a rapid game with its own set-up, which decides.
    let mut m = b.clone();
    for _ in 0..3 {
        m = game(&pool, &token, &m, None).await;
    }
    assert_eq!(m["next_game"]["kind"], "rapid");
    let rapid_c = m["next_game"]["setup"]["commitment"].clone();
    assert_ne!(rapid_c, a["next_game"]["setup"]["commitment"]);
    // The first round's tiebreaks can no longer change once one is played.
    let winner = m["high"]["entrant_id"].clone();
    let m = game(&pool, &token, &m, Some(&winner)).await;
    assert_eq!(m["winner"], winner);
    let locked = call(
        &pool,
        "PUT",
        &format!("/api/v1/sections/{sid}/knockout/stages/1"),
        Some(&token),
        Some(json!({"tiebreaks": []})),
    )
    .await;
    assert_eq!(locked.status, StatusCode::CONFLICT, "{}", locked.text);
    // The round is over: every set-up of it is public and verifies.
    let public = public_bracket(&pool, &sid).await;
    let revealed: Vec<&Value> = public["round_setups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["round"] == 1)
        .collect();
    assert_eq!(revealed.len(), 4, "games 1–3 and the rapid game 4");
    for r in revealed {
        assert_eq!(r["revealed"], true);
        assert_eq!(
            commitment(&r["setup"]),
            r["setup"]["commitment"].as_str().unwrap()
        );
    }
    assert_eq!(
        match_at(&public, 1, 2)["games"][3]["setup"]["commitment"],
        rapid_c
    );

    // The final's slip prints its face-down rule, its time control and tiebreak games; the
    // bracket page shows them too.
    let slips = get(&pool, &format!("/s/{sid}/bracket/slips/2/print")).await;
    assert_eq!(slips.status, StatusCode::OK);
    // (The event's language, zh-Hant: "neither side may look".)
    assert!(
        slips.text.contains("capture-rule face-down"),
        "{}",
        slips.text
    );
    assert!(slips.text.contains("雙方均不能觀看"));
    assert!(slips.text.contains("90+30") && slips.text.contains("15+10"));
    let round1 = get(&pool, &format!("/s/{sid}/bracket/slips/1/print")).await;
    assert!(!round1.text.contains("face-down"));
    let page = get(&pool, &format!("/s/{sid}/bracket")).await;
    assert!(page.text.contains("stage-2 face-down"), "{}", page.text);
    assert!(page.text.contains("class=\"stage-1\""));

    // The dashboard's form sets a round's rules.
    let mut browser = Browser::new(&pool);
    browser.log_in("chief", "a long password").await;
    let desk = browser.get(&format!("/admin/s/{sid}/knockout")).await;
    assert!(desk.text.contains("stage-form"));
    let csrf = csrf_of(&desk.text);
    let posted = browser
        .post_form(
            &format!("/admin/s/{sid}/knockout/stages/1"),
            &[
                ("csrf", csrf.as_str()),
                ("capture_rule", "face_down"),
                ("time_control", "60+10"),
                ("tiebreaks", "rapid 1 10+5\narmageddon 1 R6' B4' +3\""),
                ("version", "0"),
            ],
        )
        .await;
    assert_eq!(posted.status, StatusCode::SEE_OTHER, "{}", posted.text);
    let stages = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/knockout/stages")).await,
        StatusCode::OK,
    );
    assert_eq!(stages[0]["capture_rule"], "face_down");
    assert_eq!(stages[0]["time_control"], "60+10");
    let garbled = browser
        .post_form(
            &format!("/admin/s/{sid}/knockout/stages/2"),
            &[("csrf", csrf.as_str()), ("tiebreaks", "rapid lots")],
        )
        .await;
    assert_eq!(garbled.status, StatusCode::UNPROCESSABLE_ENTITY);

    // The big screen shows the bracket and the matches in play.
    let screen = get(&pool, &format!("/s/{sid}/screen?slide=0")).await;
    assert!(
        screen.text.contains("data-kind=\"bracket\""),
        "{}",
        screen.text
    );
    let screen = get(&pool, &format!("/s/{sid}/screen?slide=1")).await;
    assert!(screen.text.contains("data-kind=\"ko_in_play\""));
}

#[sqlx::test]
async fn a_banqi_knockout_game_is_committed_before_and_revealed_after(pool: PgPool) {
    let event = Event::new(&pool)
        .game("banqi")
        .section(json!({"rounds": 2, "setup_mode": "per_board"}))
        .entrants(4)
        .play(2, lower_number_wins)
        .await;
    let (token, sid) = (event.client.token.clone(), event.sections[0].to_string());
    let bracket = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            Some(json!({"size": 2, "best_of": 1, "third_place": false})),
        )
        .await,
        StatusCode::CREATED,
    );
    let m = match_at(&bracket, 1, 1);
    let arbiter_setup = m["next_game"]["setup"].clone();
    assert!(
        arbiter_setup["setup"]
            .as_str()
            .unwrap()
            .starts_with("banqi:"),
        "{arbiter_setup}"
    );
    let public = public_bracket(&pool, &sid).await;
    let shown = match_at(&public, 1, 1)["next_game"]["setup"].clone();
    let c = shown["commitment"].as_str().unwrap().to_string();
    assert_eq!(c, arbiter_setup["commitment"]);
    assert!(shown.get("setup").is_none() && shown.get("salt").is_none());
    let page = get(&pool, &format!("/s/{sid}/bracket")).await;
    assert!(page.text.contains(&c));

    let high = m["high"]["entrant_id"].clone();
    game(&pool, &token, &m, Some(&high)).await;
    let public = public_bracket(&pool, &sid).await;
    let pm = match_at(&public, 1, 1);
    assert_eq!(pm["setups_revealed"], true, "{pm}");
    let revealed = &pm["games"][0]["setup"];
    assert_eq!(
        revealed["commitment"],
        c.as_str(),
        "unchanged after the game"
    );
    assert_eq!(commitment(revealed), c, "the reveal verifies");
}
