//! The knockout stage, the playoff between sections, prizes and hidden-piece set-ups.

use crate::support::{
    add_entrants, admin_token, call, expect, get, lower_number_wins, play_round,
    tournament_with_section, Event,
};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// Plays a Swiss section to the end: on every board the lower starting number wins, so the
/// standings order is predictable.
async fn play_swiss(pool: &PgPool, token: &str, sid: &str, rounds: usize) {
    for _ in 0..rounds {
        play_round(pool, token, sid, lower_number_wins).await;
    }
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

fn match_at(bracket: &Value, round: i64, slot: i64, third: bool) -> &Value {
    bracket["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["round"] == round && m["slot"] == slot && m["third_place"] == third)
        .unwrap()
}

#[sqlx::test]
async fn a_snake_seeded_best_of_three_knockout_runs_to_a_final_ranking_and_prizes(pool: PgPool) {
    let event = Event::new(&pool)
        .game("jieqi")
        .section(json!({"rounds": 4}))
        .entrants(10)
        .await;
    let (token, sid) = (event.client.token, event.sections[0].to_string());
    let early = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            Some(json!({"size": 8})),
        )
        .await,
        StatusCode::CONFLICT,
    );
    assert!(early["message"]
        .as_str()
        .unwrap()
        .contains("Swiss stage is not complete"));
    play_swiss(&pool, &token, &sid, 4).await;
    let standings = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    let seed_ids: Vec<Value> = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .take(8)
        .map(|r| r["entrant_id"].clone())
        .collect();

    let bad = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            Some(json!({"size": 6})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(bad["errors"]["size"][0]
        .as_str()
        .unwrap()
        .contains("power of two"));
    let bracket = expect(
        &call(&pool, "POST", &format!("/api/v1/sections/{sid}/knockout"), Some(&token),
            Some(json!({"size": 8, "best_of": 3, "third_place": true, "game1_colour": "lot", "decide_by": "points"}))).await,
        StatusCode::CREATED,
    );
    // Snake order: slot 1 = 1 v 8, slot 2 = 4 v 5, slot 3 = 2 v 7, slot 4 = 3 v 6.
    for (slot, (high, low)) in [(1, (1, 8)), (2, (4, 5)), (3, (2, 7)), (4, (3, 6))] {
        let m = match_at(&bracket, 1, slot, false);
        assert_eq!(m["high"]["seed"], high);
        assert_eq!(m["low"]["seed"], low);
        assert_eq!(
            m["high"]["entrant_id"],
            seed_ids[high as usize - 1],
            "seeded from the standings"
        );
        assert!(
            m["next_red"] == m["high"]["entrant_id"] || m["next_red"] == m["low"]["entrant_id"]
        );
        assert_eq!(m["next_game"]["kind"], "regular");
        assert!(
            m["next_game"]["setup"]["commitment"].is_string(),
            "the next game's set-up is committed"
        );
    }
    assert!(
        match_at(&bracket, 2, 1, false)["high"].is_null(),
        "later rounds wait for winners"
    );
    let again = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{sid}/knockout"),
        Some(&token),
        Some(json!({})),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT);

    // 1 v 8 decided 2–0.
    let m = match_at(&bracket, 1, 1, false).clone();
    let high = m["high"]["entrant_id"].clone();
    let after1 = game(&pool, &token, &m, Some(&high)).await;
    assert_ne!(after1["next_red"], m["next_red"], "game 2 swaps colours");
    let done = game(&pool, &token, &after1, Some(&high)).await;
    assert_eq!(done["winner"], high);
    assert_eq!(done["score"]["high_points"], 4);
    assert_eq!(done["decided_by"], "regular");
    let closed = call(
        &pool,
        "POST",
        &format!("/api/v1/matches/{}/games", m["id"].as_str().unwrap()),
        Some(&token),
        Some(json!({"result": "draw"})),
    )
    .await;
    assert_eq!(closed.status, StatusCode::CONFLICT);

    // 4 v 5 decided in game 3 (the lower seed wins it).
    let m = match_at(&bracket, 1, 2, false).clone();
    let (high45, low45) = (
        m["high"]["entrant_id"].clone(),
        m["low"]["entrant_id"].clone(),
    );
    let g1 = game(&pool, &token, &m, Some(&high45)).await;
    let g2 = game(&pool, &token, &g1, Some(&low45)).await;
    assert!(g2["winner"].is_null());
    assert_eq!(g2["next_game"]["number"], 3);
    let g3 = game(&pool, &token, &g2, Some(&low45)).await;
    assert_eq!(g3["winner"], low45);
    assert_eq!(g3["games"].as_array().unwrap().len(), 3);

    // 2 v 7 tied 3–3 → rapid (drawn) → armageddon: a draw counts for Black.
    let mut m = match_at(&bracket, 1, 3, false).clone();
    for _ in 0..3 {
        m = game(&pool, &token, &m, None).await;
    }
    assert_eq!(m["next_game"]["kind"], "rapid");
    m = game(&pool, &token, &m, None).await;
    assert_eq!(m["next_game"]["kind"], "armageddon");
    let black = if m["next_red"] == m["high"]["entrant_id"] {
        m["low"]["entrant_id"].clone()
    } else {
        m["high"]["entrant_id"].clone()
    };
    m = game(&pool, &token, &m, None).await;
    assert_eq!(m["winner"], black);
    assert_eq!(m["decided_by"], "armageddon");
    assert_eq!(m["games"][4]["kind"], "armageddon");

    // 3 v 6: the higher seed.
    let mut m = match_at(&bracket, 1, 4, false).clone();
    let h = m["high"]["entrant_id"].clone();
    for _ in 0..2 {
        m = game(&pool, &token, &m, Some(&h)).await;
    }
    // Semi-finals and final: the higher seed always wins; the 3rd-place match too.
    for (round, slots) in [(2, vec![1, 2]), (3, vec![1])] {
        let bracket = expect(
            &get(&pool, &format!("/api/v1/sections/{sid}/knockout")).await,
            StatusCode::OK,
        );
        for slot in slots {
            let mut m = match_at(&bracket, round, slot, false).clone();
            assert!(
                !m["high"].is_null(),
                "round {round} slot {slot} filled from the winners"
            );
            let h = m["high"]["entrant_id"].clone();
            while m["winner"].is_null() {
                m = game(&pool, &token, &m, Some(&h)).await;
            }
        }
    }
    let ranking_before = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/ranking")).await,
        StatusCode::OK,
    );
    assert_eq!(
        ranking_before["final"], false,
        "the 3rd-place match is still to play"
    );
    let bracket = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/knockout")).await,
        StatusCode::OK,
    );
    let mut third = match_at(&bracket, 3, 1, true).clone();
    let third_winner = third["low"]["entrant_id"].clone();
    while third["winner"].is_null() {
        third = game(&pool, &token, &third, Some(&third_winner)).await;
    }
    let bracket = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/knockout")).await,
        StatusCode::OK,
    );
    let ranking = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/ranking")).await,
        StatusCode::OK,
    );
    assert_eq!(ranking["final"], true);
    let rows = ranking["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 10);
    assert_eq!(rows[0]["entrant_id"], bracket["champion"]);
    assert_eq!(rows[0]["entrant_id"], seed_ids[0]);
    assert_eq!(
        rows[2]["entrant_id"], third_winner,
        "3rd from the 3rd-place match"
    );
    assert_eq!(rows[8]["source"], "swiss");
    assert_eq!(rows[8]["entrant_id"], standings["rows"][8]["entrant_id"]);

    // Prizes: 1st 300, 2nd 200, 3rd–6th 100; best woman 150 — one prize per person, the larger.
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/sections/{sid}/prizes"),
            Some(&token),
            Some(json!({"prizes": [
                {"place_from": 1, "award": "300", "amount": 300},
                {"place_from": 2, "award": "200", "amount": 200},
                {"place_from": 3, "place_to": 6, "award": "100", "amount": 100},
                {"category": "female", "award": "Best woman 150", "amount": 150}
            ]})),
        )
        .await,
        StatusCode::OK,
    );
    let awards = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/prizes/awarded")).await,
        StatusCode::OK,
    );
    let awards = awards.as_array().unwrap();
    assert_eq!(awards.len(), 7);
    let winners: Vec<&Value> = awards
        .iter()
        .map(|a| &a["entrant_id"])
        .filter(|e| !e.is_null())
        .collect();
    let unique: std::collections::HashSet<String> = winners.iter().map(|w| w.to_string()).collect();
    assert_eq!(unique.len(), winners.len(), "one prize per person");
    assert_eq!(awards[0]["entrant_id"], rows[0]["entrant_id"]);
    let bad = expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/sections/{sid}/prizes"),
            Some(&token),
            Some(json!({"prizes": [{"category": "tallest", "award": "x"}]})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(bad["errors"]["prizes[0].category"].is_array());
}

#[sqlx::test]
async fn a_best_woman_prize_passes_down_when_she_wins_a_larger_one(pool: PgPool) {
    let token = admin_token(&pool).await;
    // PTS, OPP, DE, FOULS: Ada and Bob stay tied and keep starting-number order.
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "xiangqi",
        json!({"rounds": 1, "preset": "seed004_tw"}),
    )
    .await;
    for (name, gender) in [("Ada", "f"), ("Bob", "m"), ("Cleo", "f"), ("Dan", "m")] {
        expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{sid}/entrants"),
                Some(&token),
                Some(json!({"name": name, "gender": gender})),
            )
            .await,
            StatusCode::CREATED,
        );
    }
    let none_yet = call(
        &pool,
        "GET",
        &format!("/api/v1/sections/{sid}/prizes/awarded"),
        None,
        None,
    )
    .await;
    assert_eq!(none_yet.status, StatusCode::CONFLICT);
    play_swiss(&pool, &token, &sid, 1).await;
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/sections/{sid}/prizes"),
            Some(&token),
            Some(json!({"prizes": [
                {"place_from": 1, "award": "Gold", "amount": 100},
                {"category": "female", "award": "Best woman", "amount": 50}
            ]})),
        )
        .await,
        StatusCode::OK,
    );
    // Ada and Bob are tied for the gold: the arbiter keeps starting-number order.
    let tied = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/prizes/awarded")).await,
        StatusCode::CONFLICT,
    );
    assert!(
        tied["message"].as_str().unwrap().contains("Ada, Bob"),
        "{tied}"
    );
    let ties = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/ties")).await,
        StatusCode::OK,
    );
    let order: Vec<Value> = ties[0]["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["entrant_id"].clone())
        .collect();
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/ties"),
            Some(&token),
            Some(json!({"method": "manual", "entrants": order})),
        )
        .await,
        StatusCode::OK,
    );
    let awards = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/prizes/awarded")).await,
        StatusCode::OK,
    );
    // Ada (1) beats Cleo (3) and Bob (2) beats Dan (4): Ada takes the gold, Cleo the woman's prize.
    assert_eq!(awards[0]["name"], "Ada");
    assert_eq!(awards[1]["name"], "Cleo");
}

#[sqlx::test]
async fn a_grand_final_is_played_between_two_section_champions(pool: PgPool) {
    let event = Event::new(&pool)
        .game("banqi")
        .section(json!({"rounds": 2, "name": "Public 1"}))
        .section(json!({"rounds": 2, "name": "Public 2"}))
        .entrants(4)
        .await;
    let token = event.client.token.clone();
    let tid = event.tournament.to_string();
    let (s1, s2) = (event.sections[0].to_string(), event.sections[1].to_string());
    play_swiss(&pool, &token, &s1, 2).await;
    let unfinished = call(
        &pool,
        "POST",
        &format!("/api/v1/tournaments/{tid}/playoff"),
        Some(&token),
        Some(json!({"sections": [s1, s2]})),
    )
    .await;
    assert_eq!(unfinished.status, StatusCode::CONFLICT);
    play_swiss(&pool, &token, &s2, 2).await;
    // The grand final's prizes can be set before the playoff exists; bad rows are refused
    // field by field and change nothing.
    let prizes_uri = format!("/api/v1/tournaments/{tid}/playoff/prizes");
    let bad = call(
        &pool,
        "PUT",
        &prizes_uri,
        Some(&token),
        Some(json!({"prizes": [{"place_from": 0, "award": "x"}, {"place_from": 2, "place_to": 1, "award": "y"}]})),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains("prizes[0].place_from") && bad.text.contains("prizes[1].place_to"));
    let table = json!({"prizes": [
        {"place_from": 1, "award": "10000", "amount": 10000},
        {"place_from": 2, "award": "Trophy"}]});
    expect(
        &call(&pool, "PUT", &prizes_uri, Some(&token), Some(table)).await,
        StatusCode::OK,
    );
    let stored = expect(&get(&pool, &prizes_uri).await, StatusCode::OK);
    assert_eq!(stored["prizes"][0]["award"], "10000");
    assert_eq!(stored["prizes"][1]["place_to"], 2);
    let awarded_uri = format!("/api/v1/tournaments/{tid}/playoff/prizes/awarded");
    assert_eq!(
        get(&pool, &awarded_uri).await.status,
        StatusCode::CONFLICT,
        "no playoff yet"
    );
    // No playoff yet: the public home page does not link one, its page is a 404.
    let home = get(&pool, &format!("/t/{tid}?lang=en")).await;
    assert!(
        !home.text.contains(&format!("/t/{tid}/playoff")),
        "{}",
        home.text
    );
    assert_eq!(
        get(&pool, &format!("/t/{tid}/playoff?lang=en"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let playoff = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/playoff"),
            Some(&token),
            Some(json!({"sections": [s1, s2], "best_of": 1})),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(playoff["kind"], "playoff");
    let m = playoff["matches"][0].clone();
    let c1 = event
        .client
        .get(&format!("/api/v1/sections/{s1}/standings"))
        .await["rows"][0]["entrant_id"]
        .clone();
    let c2 = event
        .client
        .get(&format!("/api/v1/sections/{s2}/standings"))
        .await["rows"][0]["entrant_id"]
        .clone();
    assert_eq!(m["high"]["entrant_id"], c1);
    assert_eq!(m["low"]["entrant_id"], c2);
    // One drawn game: tied → rapid → armageddon decides.
    let mut m = game(&pool, &token, &m, None).await;
    assert_eq!(m["next_game"]["kind"], "rapid");
    m = game(&pool, &token, &m, Some(&c2)).await;
    assert_eq!(m["winner"], c2);
    let shown = expect(
        &get(&pool, &format!("/api/v1/tournaments/{tid}/playoff")).await,
        StatusCode::OK,
    );
    assert_eq!(shown["champion"], c2);
    // The champion takes place 1's prize, on top of their section's; the runner-up place 2's.
    let awards = expect(&get(&pool, &awarded_uri).await, StatusCode::OK);
    assert_eq!(awards[0]["place"], 1);
    assert_eq!(awards[0]["amount"], 10000);
    assert_eq!(awards[0]["winners"][0]["entrant_id"], c2);
    assert_eq!(awards[0]["winners"][0]["section"], "Public 2");
    assert_eq!(awards[1]["winners"][0]["entrant_id"], c1);
    assert_eq!(awards[1]["winners"].as_array().map(Vec::len), Some(1));
    // The public side (issue #15): the home page links the grand final, whose page shows
    // the match and who won each prize, in the visitor's language.
    let home = get(&pool, &format!("/t/{tid}?lang=en")).await;
    assert!(
        home.text.contains(&format!(r#"href="/t/{tid}/playoff""#)),
        "{}",
        home.text
    );
    let page = get(&pool, &format!("/t/{tid}/playoff?lang=zh-Hant")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains("<h1>總決賽</h1>"), "{}", page.text);
    let champion = awards[0]["winners"][0]["name"].as_str().unwrap_or_default();
    let runner_up = awards[1]["winners"][0]["name"].as_str().unwrap_or_default();
    assert!(
        page.text.contains(&format!(
            "<td>第1名</td><td>10000</td><td class=\"num\">10,000</td><td>{champion} (Public 2)</td>"
        )),
        "{}",
        page.text
    );
    assert!(
        page.text.contains(&format!(
            "<td>第2名</td><td>Trophy</td><td class=\"num\"></td><td>{runner_up} (Public 1)</td>"
        )),
        "{}",
        page.text
    );
    assert!(
        page.text.contains("<strong>"),
        "the champion is named over the bracket"
    );
}

#[sqlx::test]
async fn a_duplicate_set_up_is_committed_before_the_round_and_verifiable_after(pool: PgPool) {
    let event = Event::new(&pool)
        .game("jieqi")
        .section(json!({"rounds": 2}))
        .entrants(4)
        .await;
    let (token, sid) = (event.client.token.clone(), event.sections[0].to_string());
    let r1 = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    crate::support::publish(&pool, &token, &sid, r1["number"].as_i64().unwrap()).await;
    let uri = format!("/api/v1/sections/{sid}/rounds/1/setup");
    let hidden = expect(&get(&pool, &uri).await, StatusCode::OK);
    assert_eq!(hidden["mode"], "duplicate");
    assert_eq!(hidden["revealed"], false);
    let commitment = hidden["commitment"].as_str().unwrap().to_string();
    assert_eq!(commitment.len(), 64);
    assert!(
        hidden.get("setup").is_none() && hidden.get("salt").is_none(),
        "{hidden}"
    );
    let arbiter = expect(
        &call(&pool, "GET", &uri, Some(&token), None).await,
        StatusCode::OK,
    );
    assert!(arbiter["setup"].as_str().unwrap().starts_with("jieqi:"));
    assert!(arbiter["setups"][0]["diagram"]
        .as_str()
        .unwrap()
        .contains("river"));

    for b in r1["boards"].as_array().unwrap() {
        let id = b["id"].as_str().unwrap();
        expect(
            &call(
                &pool,
                "PUT",
                &format!("/api/v1/boards/{id}/result"),
                Some(&token),
                Some(json!({"result": "draw"})),
            )
            .await,
            StatusCode::OK,
        );
    }
    let revealed = expect(&get(&pool, &uri).await, StatusCode::OK);
    assert_eq!(revealed["revealed"], true);
    let setup = revealed["setup"].as_str().unwrap();
    let salt = revealed["salt"].as_str().unwrap();
    use sha2::Digest as _;
    let digest = hex::encode(sha2::Sha256::digest(format!("{setup}:{salt}").as_bytes()));
    assert_eq!(
        digest, commitment,
        "sha256(setup + \":\" + salt) == commitment"
    );
    assert_eq!(
        get(&pool, &format!("/api/v1/sections/{sid}/rounds/2/setup"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    let (_, plain) = tournament_with_section(&pool, &token, "xiangqi", json!({"name": "X"})).await;
    add_entrants(&pool, &token, &plain, 2).await;
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{plain}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(
        get(&pool, &format!("/api/v1/sections/{plain}/rounds/1/setup"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[sqlx::test]
async fn per_board_set_ups_differ_by_board(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) =
        tournament_with_section(&pool, &token, "banqi", json!({"setup_mode": "per_board"})).await;
    add_entrants(&pool, &token, &sid, 5).await;
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    let setups = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/rounds/1/setup"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(setups["mode"], "per_board");
    let list = setups["setups"].as_array().unwrap();
    assert_eq!(list.len(), 2, "two games, the bye has none");
    assert_ne!(list[0]["setup"], list[1]["setup"]);
    assert!(list[0]["setup"].as_str().unwrap().starts_with("banqi:"));
}
