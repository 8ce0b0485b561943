//! Data that stays right: compare-and-set under concurrent writers, ties the arbiter decides,
//! hostile text, spreadsheet-safe exports, constraints that never become a 500.

use crate::support::{
    add_entrants, admin_token, call, csrf_of, expect, get, lower_number_wins, play_round, send,
    tournament_with_section, Browser, Event, Reply,
};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use sqlx::PgPool;
use std::sync::Arc;
use tokio::sync::Barrier;
use uuid::Uuid;

/// A request with a token, a JSON body and an `If-Match` version.
fn request(method: &str, uri: &str, token: &str, version: i64, body: &Value) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .header("if-match", format!("\"{version}\""))
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// Sends two requests at the same moment (both wait on a barrier first) and returns both
/// replies, in the order given.
async fn race(pool: &PgPool, a: Request<Body>, b: Request<Body>) -> (Reply, Reply) {
    let barrier = Arc::new(Barrier::new(2));
    let spawn = |request: Request<Body>| {
        let (pool, barrier) = (pool.clone(), barrier.clone());
        tokio::spawn(async move {
            barrier.wait().await;
            send(&pool, request).await
        })
    };
    let (a, b) = (spawn(a), spawn(b));
    (a.await.unwrap(), b.await.unwrap())
}

/// Exactly one of the two wins; returns whether it was the first.
#[track_caller]
fn one_winner(a: &Reply, b: &Reply) -> bool {
    let statuses = [a.status, b.status];
    assert!(
        statuses.contains(&StatusCode::OK) && statuses.contains(&StatusCode::CONFLICT),
        "expected one 200 and one 409, got {statuses:?}: {} / {}",
        a.text,
        b.text
    );
    a.status == StatusCode::OK
}

async fn audit_count(pool: &PgPool, entity_id: Uuid) -> i64 {
    sqlx::query_scalar::<_, i64>("select count(*) from audit_event where entity_id = $1")
        .bind(entity_id)
        .fetch_one(pool)
        .await
        .unwrap()
}

fn uuid(v: &Value) -> Uuid {
    v.as_str().unwrap().parse().unwrap()
}

#[sqlx::test]
async fn of_two_result_writers_with_the_same_version_exactly_one_wins(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 1})).await;
    add_entrants(&pool, &token, &sid, 2).await;
    let round = expect(
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
    crate::support::publish(&pool, &token, &sid, round["number"].as_i64().unwrap()).await;
    let board = round["boards"][0]["id"].as_str().unwrap().to_string();
    let game: Uuid = sqlx::query_scalar("select game_id from game where board_id = $1")
        .bind(board.parse::<Uuid>().unwrap())
        .fetch_one(&pool)
        .await
        .unwrap();
    let uri = format!("/api/v1/boards/{board}/result");
    for attempt in 0..50 {
        let version: i32 = sqlx::query_scalar("select version from game where game_id = $1")
            .bind(game)
            .fetch_one(&pool)
            .await
            .unwrap();
        let before = audit_count(&pool, game).await;
        let (a, b) = race(
            &pool,
            request(
                "PUT",
                &uri,
                &token,
                version.into(),
                &json!({"result": "red_wins"}),
            ),
            request(
                "PUT",
                &uri,
                &token,
                version.into(),
                &json!({"result": "black_wins", "red_fouls": 1}),
            ),
        )
        .await;
        let first = one_winner(&a, &b);
        assert_eq!(
            audit_count(&pool, game).await,
            before + 1,
            "attempt {attempt}"
        );
        let stored: (Option<String>, i32) =
            sqlx::query_as("select result, version from game where game_id = $1")
                .bind(game)
                .fetch_one(&pool)
                .await
                .unwrap();
        let winner = if first { "red_wins" } else { "black_wins" };
        assert_eq!(stored, (Some(winner.to_string()), version + 1));
        let loser = if first { &b } else { &a };
        assert!(loser.json()["message"]
            .as_str()
            .unwrap()
            .contains("changed meanwhile"));
        // The audit event says what was actually replaced.
        let before_json: Option<Value> = sqlx::query_scalar(
            "select before from audit_event where entity_id = $1 order by audit_id desc limit 1",
        )
        .bind(game)
        .fetch_one(&pool)
        .await
        .unwrap();
        if attempt > 0 {
            assert_eq!(before_json.unwrap()["version"], json!(version));
        }
    }
}

#[sqlx::test]
async fn of_two_settings_writers_with_the_same_version_exactly_one_wins(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 5})).await;
    let uri = format!("/api/v1/sections/{sid}");
    let section_id: Uuid = sid.parse().unwrap();
    for attempt in 0..50 {
        let current = expect(&get(&pool, &uri).await, StatusCode::OK);
        let version = current["version"].as_i64().unwrap();
        let before = audit_count(&pool, section_id).await;
        let (a, b) = race(
            &pool,
            request(
                "PATCH",
                &uri,
                &token,
                version,
                &json!({"foul_threshold": 3, "rounds": 6}),
            ),
            request(
                "PATCH",
                &uri,
                &token,
                version,
                &json!({"foul_threshold": 4, "rounds": 7}),
            ),
        )
        .await;
        let first = one_winner(&a, &b);
        assert_eq!(
            audit_count(&pool, section_id).await,
            before + 1,
            "attempt {attempt}"
        );
        let now = expect(&get(&pool, &uri).await, StatusCode::OK);
        assert_eq!(now["version"].as_i64().unwrap(), version + 1);
        let (threshold, rounds) = if first { (3, 6) } else { (4, 7) };
        assert_eq!(
            (now["foul_threshold"].as_i64(), now["rounds"].as_i64()),
            (Some(threshold), Some(rounds))
        );
    }
    // Without a version the change goes through (the last writer wins, as before).
    expect(
        &call(
            &pool,
            "PATCH",
            &uri,
            Some(&token),
            Some(json!({"foul_threshold": 2})),
        )
        .await,
        StatusCode::OK,
    );
}

#[sqlx::test]
async fn of_two_knockout_game_writers_with_the_same_version_exactly_one_wins(pool: PgPool) {
    let event = Event::new(&pool)
        .section(json!({"rounds": 1}))
        .entrants(16)
        .play(1, lower_number_wins)
        .await;
    assert_eq!(event.entrants[0].len(), 16);
    let (token, sid) = (event.client.token.clone(), event.sections[0].to_string());
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            Some(json!({"size": 16, "best_of": 9})),
        )
        .await,
        StatusCode::CREATED,
    );
    let mut races = 0;
    while races < 50 {
        let bracket = expect(
            &get(&pool, &format!("/api/v1/sections/{sid}/knockout")).await,
            StatusCode::OK,
        );
        let Some(m) = bracket["matches"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| !m["next_red"].is_null() && m["winner"].is_null())
        else {
            panic!("no game is due after {races} races");
        };
        let match_id = uuid(&m["id"]);
        let version = m["version"].as_i64().unwrap();
        let uri = format!("/api/v1/matches/{match_id}/games");
        let before = audit_count(&pool, match_id).await;
        // Draws keep the matches going; the fouls tell the two writers apart.
        let (a, b) = race(
            &pool,
            request("POST", &uri, &token, version, &json!({"result": "draw"})),
            request(
                "POST",
                &uri,
                &token,
                version,
                &json!({"result": "draw", "red_fouls": 1}),
            ),
        )
        .await;
        let first = one_winner(&a, &b);
        assert_eq!(audit_count(&pool, match_id).await, before + 1);
        let games: Vec<(i32, i64)> = sqlx::query_as(
            "select g.number, (select count(*) from foul f where f.game_id = g.game_id)
             from game g where g.match_id = $1 order by g.number",
        )
        .bind(match_id)
        .fetch_all(&pool)
        .await
        .unwrap();
        assert_eq!(
            games.len() as i64,
            version + 1,
            "one game recorded, not two"
        );
        assert_eq!(games.last().unwrap().1, if first { 0 } else { 1 });
        races += 1;
    }
}

/// A section of four where every game of the one round is drawn: all four tie, whatever the
/// chain (it is empty here).
async fn four_tied(
    pool: &PgPool,
    token: &str,
    name: &str,
    tid: Option<&str>,
) -> (String, String, Vec<String>) {
    let (tid, sid) = match tid {
        None => {
            tournament_with_section(
                pool,
                token,
                "xiangqi",
                json!({"name": name, "rounds": 1, "tiebreaks": []}),
            )
            .await
        }
        Some(tid) => {
            let s = expect(
                &call(
                    pool,
                    "POST",
                    &format!("/api/v1/tournaments/{tid}/sections"),
                    Some(token),
                    Some(json!({"name": name, "rounds": 1, "tiebreaks": []})),
                )
                .await,
                StatusCode::CREATED,
            );
            (tid.to_string(), s["id"].as_str().unwrap().to_string())
        }
    };
    let ids = add_entrants(pool, token, &sid, 4).await;
    play_round(pool, token, &sid, |_| "draw").await;
    (tid, sid, ids)
}

#[sqlx::test]
async fn a_knockout_cut_inside_a_tie_waits_for_a_drawing_of_lots(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid, ids) = four_tied(&pool, &token, "A", None).await;
    let knockout = format!("/api/v1/sections/{sid}/knockout");
    let refused = expect(
        &call(
            &pool,
            "POST",
            &knockout,
            Some(&token),
            Some(json!({"size": 2})),
        )
        .await,
        StatusCode::CONFLICT,
    );
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains("knockout cut-off"), "{message}");
    for name in ["P1", "P2", "P3", "P4"] {
        assert!(message.contains(name), "{message} names {name}");
    }
    let ties = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/ties")).await,
        StatusCode::OK,
    );
    assert_eq!(ties.as_array().unwrap().len(), 1);
    assert!(ties[0]["decision"].is_null());
    // Not the whole group: refused.
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/ties"),
            Some(&token),
            Some(json!({"method": "lot", "entrants": [ids[0], ids[1]]})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    let drawn = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/ties"),
            Some(&token),
            Some(json!({"method": "lot", "entrants": ids})),
        )
        .await,
        StatusCode::OK,
    );
    let seed = drawn["decision"]["seed"].as_str().unwrap().to_string();
    assert_eq!(seed.len(), 64);
    let order: Vec<String> = drawn["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["entrant_id"].as_str().unwrap().to_string())
        .collect();
    // The draw replays from its seed: the entrants by starting number, shuffled.
    let mut seed_bytes = [0u8; 32];
    hex::decode_to_slice(&seed, &mut seed_bytes).unwrap();
    let by_number: Vec<Uuid> = ids.iter().map(|i| i.parse().unwrap()).collect();
    let replay: Vec<String> = arbiter::service::ties::draw(&by_number, seed_bytes)
        .iter()
        .map(Uuid::to_string)
        .collect();
    assert_eq!(order, replay);
    // The standings show the decided order with distinct ranks and say how it was decided.
    let standings = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(
        rows.iter()
            .map(|r| r["rank"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert_eq!(
        rows.iter()
            .map(|r| r["entrant_id"].as_str().unwrap().to_string())
            .collect::<Vec<_>>(),
        order
    );
    assert!(rows.iter().all(|r| r["tie_decided_by"] == "lot"));
    // The audit log keeps the seed.
    let audit = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/audit"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert!(audit
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["action"] == "resolve_tie" && e["after"]["seed"] == json!(seed)));
    let bracket = expect(
        &call(
            &pool,
            "POST",
            &knockout,
            Some(&token),
            Some(json!({"size": 2})),
        )
        .await,
        StatusCode::CREATED,
    );
    let finalists: Vec<&str> = [
        &bracket["matches"][0]["high"],
        &bracket["matches"][0]["low"],
    ]
    .iter()
    .map(|s| s["entrant_id"].as_str().unwrap())
    .collect();
    assert_eq!(finalists, [order[0].as_str(), order[1].as_str()]);
}

#[sqlx::test]
async fn prize_places_inside_a_tie_wait_for_the_arbiters_order(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid, ids) = four_tied(&pool, &token, "A", None).await;
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/sections/{sid}/prizes"),
            Some(&token),
            Some(json!({"prizes": [
                {"place_from": 1, "award": "gold", "amount": 100},
                {"place_from": 2, "award": "silver", "amount": 50}
            ]})),
        )
        .await,
        StatusCode::OK,
    );
    let awards = format!("/api/v1/sections/{sid}/prizes/awarded");
    let refused = expect(&get(&pool, &awards).await, StatusCode::CONFLICT);
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("prize places 1–4"),
        "{refused}"
    );
    // A manual order, best first.
    let order = [
        ids[2].clone(),
        ids[0].clone(),
        ids[3].clone(),
        ids[1].clone(),
    ];
    let decided = expect(
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
    assert_eq!(decided["decision"]["method"], "manual");
    let awarded = expect(&get(&pool, &awards).await, StatusCode::OK);
    let winner_of = |award: &str| {
        awarded
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["award"] == award)
            .unwrap()["entrant_id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(winner_of("gold"), order[0]);
    assert_eq!(winner_of("silver"), order[1]);
}

#[sqlx::test]
async fn a_tied_section_champion_cannot_go_to_the_grand_final_until_decided(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, a, a_ids) = four_tied(&pool, &token, "A", None).await;
    let b = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(&token),
            Some(json!({"name": "B", "rounds": 1, "tiebreaks": []})),
        )
        .await,
        StatusCode::CREATED,
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    add_entrants(&pool, &token, &b, 2).await;
    play_round(&pool, &token, &b, lower_number_wins).await;
    let playoff = format!("/api/v1/tournaments/{tid}/playoff");
    let refused = expect(
        &call(
            &pool,
            "POST",
            &playoff,
            Some(&token),
            Some(json!({"sections": [a, b]})),
        )
        .await,
        StatusCode::CONFLICT,
    );
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("champion of section \"A\""),
        "{refused}"
    );
    let order = [
        a_ids[3].clone(),
        a_ids[1].clone(),
        a_ids[0].clone(),
        a_ids[2].clone(),
    ];
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{a}/ties"),
            Some(&token),
            Some(json!({"method": "manual", "entrants": order})),
        )
        .await,
        StatusCode::OK,
    );
    let bracket = expect(
        &call(
            &pool,
            "POST",
            &playoff,
            Some(&token),
            Some(json!({"sections": [a, b]})),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(bracket["matches"][0]["high"]["entrant_id"], json!(order[0]));
}

#[sqlx::test]
async fn hostile_text_is_refused_with_the_field_named(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let uri = format!("/api/v1/sections/{sid}/entrants");
    for (body, field) in [
        (json!({"name": "A\u{1}B"}), "name"),
        (json!({"name": "A\u{7f}"}), "name"),
        (json!({"name": "A\rB"}), "name"),
        (json!({"name": "\u{202E}evil"}), "name"),
        (json!({"name": "\u{200B}"}), "name"),
        (json!({"name": " \u{3000} "}), "name"),
        (json!({"name": "Ok", "club": "x\u{2066}y"}), "club"),
        (
            json!({"name": "Ok", "birth_date": "9999-12-31"}),
            "birth_date",
        ),
        (
            json!({"name": "Ok", "birth_date": "1850-01-01"}),
            "birth_date",
        ),
        (json!({"name": "x".repeat(201)}), "name"),
    ] {
        let reply = expect(
            &call(&pool, "POST", &uri, Some(&token), Some(body.clone())).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        );
        assert!(reply["errors"][field].is_array(), "{body} → {reply}");
    }
    // Normalised to NFC and trimmed.
    let ok = expect(
        &call(
            &pool,
            "POST",
            &uri,
            Some(&token),
            Some(json!({"name": "  Rene\u{301} "})),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(ok["name"], "Ren\u{e9}");
}

#[sqlx::test]
async fn a_form_that_is_not_utf8_is_a_400_and_nothing_is_stored(pool: PgPool) {
    let _ = admin_token(&pool).await;
    let mut browser = Browser::new(&pool);
    browser.log_in("chief", "a long password").await;
    let page = browser.get("/admin/tournaments/new").await;
    let csrf = csrf_of(&page.text);
    let request = Request::post("/admin/tournaments")
        .header("cookie", browser.cookie_header())
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(format!("csrf={csrf}&name=%FF%FE&game=xiangqi")))
        .unwrap();
    let reply = send(&pool, request).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
    let count: i64 = sqlx::query_scalar("select count(*) from tournament")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(count, 0);
}

#[sqlx::test]
async fn no_cell_of_a_csv_export_begins_with_a_formula_character(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 1})).await;
    for (name, club) in [
        ("=HYPERLINK(\"http://x\")", "@SUM(A1)"),
        ("+1+cmd", "-2"),
        ("Plain", "=1+1"),
        ("@x", "+y"),
    ] {
        expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{sid}/entrants"),
                Some(&token),
                Some(json!({"name": name, "club": club})),
            )
            .await,
            StatusCode::CREATED,
        );
    }
    play_round(&pool, &token, &sid, lower_number_wins).await;
    let csv = get(&pool, &format!("/api/v1/sections/{sid}/standings.csv")).await;
    assert_eq!(csv.status, StatusCode::OK);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.text.as_bytes());
    let mut cells = 0;
    for record in reader.records() {
        for cell in record.unwrap().iter() {
            cells += 1;
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "cell {cell:?} of {}",
                csv.text
            );
        }
    }
    assert!(cells > 20);
    assert!(csv.text.contains("'=HYPERLINK"));
}

#[sqlx::test]
async fn csv_import_refuses_broken_quoting_and_nul_row_by_row(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let import = |apply: bool, text: &'static str| {
        let pool = pool.clone();
        let token = token.clone();
        let sid = sid.clone();
        async move {
            let request = Request::post(format!("/api/v1/sections/{sid}/import.csv?apply={apply}"))
                .header("authorization", format!("Bearer {token}"))
                .header("content-type", "text/csv")
                .body(Body::from(text))
                .unwrap();
            send(&pool, request).await
        }
    };
    let unterminated = "name,club\nAlice,\"Club\nBob,C\n";
    let preview = import(false, unterminated).await.json();
    assert_eq!(preview["errors"][0]["line"], 2, "{preview}");
    assert!(!preview["names"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().contains('\n')));
    let applied = import(true, unterminated).await;
    assert_eq!(
        applied.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        applied.text
    );
    assert_eq!(applied.json()["applied"], json!(false));
    let nul = "name,club\nAlice,A\nB\u{0}ob,C\n";
    let preview = import(false, nul).await.json();
    assert_eq!(preview["errors"][0]["line"], 3, "{preview}");
    let stray = "name,club\nAl\"ice,A\n";
    let preview = import(false, stray).await.json();
    assert_eq!(preview["errors"][0]["line"], 2, "{preview}");
    let entrants = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/entrants")).await,
        StatusCode::OK,
    );
    assert_eq!(entrants.as_array().unwrap().len(), 0, "nothing was written");
}

#[sqlx::test]
async fn deleting_a_tournament_leaves_its_audit_log_alone(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, _) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let tid: Uuid = tid.parse().unwrap();
    let before: i64 =
        sqlx::query_scalar("select count(*) from audit_event where tournament_id = $1")
            .bind(tid)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(before > 0);
    // The append-only trigger used to refuse the cascade: a 500 waiting for the first delete.
    sqlx::query("delete from tournament where tournament_id = $1")
        .bind(tid)
        .execute(&pool)
        .await
        .unwrap();
    let after: i64 =
        sqlx::query_scalar("select count(*) from audit_event where tournament_id = $1")
            .bind(tid)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(after, before);
}

#[sqlx::test]
async fn a_constraint_no_use_case_mapped_is_a_4xx(pool: PgPool) {
    // The fallback, through the service error type: a unique violation is a 409, a check
    // violation a 422 naming the field.
    let unique =
        sqlx::query("insert into app_user (username, password_hash) values ('u', 'x'), ('u', 'y')")
            .execute(&pool)
            .await
            .unwrap_err();
    let error = arbiter::service::Error::from(unique);
    assert!(
        matches!(error, arbiter::service::Error::Conflict(_)),
        "{error:?}"
    );
    let check = sqlx::query(
        "insert into app_user (username, password_hash, role) values ('v', 'x', 'king')",
    )
    .execute(&pool)
    .await
    .unwrap_err();
    match arbiter::service::Error::from(check) {
        arbiter::service::Error::Invalid { fields, .. } => {
            assert!(fields.contains_key("role"), "{fields:?}")
        }
        other => panic!("{other:?}"),
    }
}
