//! The JSON API end to end: success and error paths, auth, privacy, pairing, results, fouls,
//! standings.

use crate::support::{
    add_entrants, admin_token, call, expect, get, token_for, tournament_with_section,
};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

#[sqlx::test]
async fn tournaments_are_created_read_and_changed_with_clear_errors(pool: PgPool) {
    let token = admin_token(&pool).await;
    let created = expect(
        &call(
            &pool,
            "POST",
            "/api/v1/tournaments",
            Some(&token),
            Some(json!({"name": "多倫多揭棋公開賽", "game": "jieqi", "time_control": "10+10"})),
        )
        .await,
        StatusCode::CREATED,
    );
    let id = created["id"].as_str().unwrap();
    assert_eq!(created["status"], "draft");
    let listed = expect(&get(&pool, "/api/v1/tournaments").await, StatusCode::OK);
    assert_eq!(listed.as_array().unwrap().len(), 1);
    let patched = expect(
        &call(
            &pool,
            "PATCH",
            &format!("/api/v1/tournaments/{id}"),
            Some(&token),
            Some(json!({"venue": "Toronto", "status": "registration"})),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(patched["venue"], "Toronto");
    assert_eq!(patched["name"], "多倫多揭棋公開賽");

    let bad = expect(
        &call(
            &pool,
            "POST",
            "/api/v1/tournaments",
            Some(&token),
            Some(json!({"name": " ", "game": "chess"})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert_eq!(bad["errors"]["name"][0], "is required");
    assert!(bad["errors"]["game"][0]
        .as_str()
        .unwrap()
        .contains("xiangqi"));

    let unknown = expect(
        &call(
            &pool,
            "POST",
            "/api/v1/tournaments",
            Some(&token),
            Some(json!({"name": "X", "game": "jieqi", "colour": 1})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(unknown["message"].as_str().unwrap().contains("colour"));

    let bad_uuid = expect(
        &get(&pool, "/api/v1/tournaments/not-a-uuid").await,
        StatusCode::BAD_REQUEST,
    );
    assert!(bad_uuid["message"]
        .as_str()
        .unwrap()
        .starts_with("invalid path"));
    let missing = expect(
        &get(
            &pool,
            "/api/v1/tournaments/00000000-0000-0000-0000-000000000000",
        )
        .await,
        StatusCode::NOT_FOUND,
    );
    assert_eq!(missing["message"], "tournament not found");
}

#[sqlx::test]
async fn writes_need_a_token_and_an_assigned_arbiter(pool: PgPool) {
    let admin = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &admin, "xiangqi", json!({})).await;
    let anonymous = expect(
        &call(
            &pool,
            "POST",
            "/api/v1/tournaments",
            None,
            Some(json!({"name": "X", "game": "banqi"})),
        )
        .await,
        StatusCode::UNAUTHORIZED,
    );
    assert!(anonymous["message"].as_str().unwrap().contains("Bearer"));
    let forged = call(
        &pool,
        "POST",
        "/api/v1/tournaments",
        Some("deadbeef"),
        Some(json!({"name": "X", "game": "banqi"})),
    )
    .await;
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED);

    // An arbiter not assigned to this tournament may read but not write.
    let outsider = token_for(&pool, "outsider", "user").await;
    let denied = call(
        &pool,
        "PATCH",
        &format!("/api/v1/tournaments/{tid}"),
        Some(&outsider),
        Some(json!({"venue": "x"})),
    )
    .await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
    let denied = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{sid}/entrants"),
        Some(&outsider),
        Some(json!({"name": "X"})),
    )
    .await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
    assert_eq!(
        get(&pool, &format!("/api/v1/sections/{sid}")).await.status,
        StatusCode::OK
    );

    // The arbiter who creates a tournament may write to it.
    let own = expect(
        &call(
            &pool,
            "POST",
            "/api/v1/tournaments",
            Some(&outsider),
            Some(json!({"name": "Mine", "game": "banqi"})),
        )
        .await,
        StatusCode::CREATED,
    );
    let patched = call(
        &pool,
        "PATCH",
        &format!("/api/v1/tournaments/{}", own["id"].as_str().unwrap()),
        Some(&outsider),
        Some(json!({"venue": "Taipei"})),
    )
    .await;
    assert_eq!(patched.status, StatusCode::OK);
}

#[sqlx::test]
async fn sections_validate_their_settings(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(
        &pool,
        &token,
        "jieqi",
        json!({"preset": "seed002_main", "cap": 30, "min_entries": 20}),
    )
    .await;
    let section = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}")).await,
        StatusCode::OK,
    );
    assert_eq!(
        section["tiebreaks"],
        json!(["OPP", "PS", "WIN", "FOULS", "PREV"])
    );
    assert_eq!(section["scoring"]["win"], 2.0);
    assert_eq!(section["setup_mode"], "duplicate");
    let bad = expect(
        &call(&pool, "POST", &format!("/api/v1/tournaments/{tid}/sections"), Some(&token), Some(json!({
            "name": "A", "rounds": 0, "pairing_system": "monrad", "tiebreaks": ["XYZ"], "scoring": {"win": 1.25, "draw": 0.5, "loss": 0}
        }))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    for field in ["rounds", "pairing_system", "tiebreaks", "scoring.win"] {
        assert!(
            bad["errors"].get(field).is_some(),
            "no error for {field}: {bad}"
        );
    }
    let xiangqi = tournament_with_section(&pool, &token, "xiangqi", json!({"name": "B"})).await;
    let s = expect(
        &get(&pool, &format!("/api/v1/sections/{}", xiangqi.1)).await,
        StatusCode::OK,
    );
    assert_eq!(s["setup_mode"], "none");
}

#[sqlx::test]
async fn contact_data_is_shown_only_to_the_tournaments_arbiters(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 2).await;
    let public = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/entrants")).await,
        StatusCode::OK,
    );
    assert!(!public.to_string().contains("example.org"), "{public}");
    let private = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(private[0]["members"][0]["email"], "p1@example.org");
    let outsider = token_for(&pool, "outsider", "user").await;
    let other = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&outsider),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert!(!other.to_string().contains("example.org"));
}

async fn enter(pool: &PgPool, token: &str, board: &Value, result: &str) -> Value {
    let id = board["id"].as_str().unwrap();
    expect(
        &call(
            pool,
            "PUT",
            &format!("/api/v1/boards/{id}/result"),
            Some(token),
            Some(json!({"result": result})),
        )
        .await,
        StatusCode::OK,
    )
}

#[sqlx::test]
async fn a_chinese_swiss_section_pairs_records_results_and_ranks(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "jieqi", json!({"rounds": 3})).await;
    add_entrants(&pool, &token, &sid, 9).await;

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
    assert_eq!(r1["number"], 1);
    let boards = r1["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 5);
    // 拦腰: board 1 is 1 v 5 (n = 9, the bye to the highest number), Red to the lower number.
    assert_eq!(boards[0]["red"]["start_no"], 1);
    assert_eq!(boards[0]["black"]["start_no"], 5);
    assert_eq!(
        boards[1]["red"]["start_no"], 6,
        "even boards give Red to the higher number"
    );
    assert_eq!(boards[4]["black"], Value::Null, "the bye is last");
    assert_eq!(boards[4]["red"]["start_no"], 9);

    // Pairing again before every result is in is refused.
    let early = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CONFLICT,
    );
    assert!(early["message"]
        .as_str()
        .unwrap()
        .contains("without a result"));
    // A bye has no result to enter.
    let bye = boards[4]["id"].as_str().unwrap();
    let refused = call(
        &pool,
        "PUT",
        &format!("/api/v1/boards/{bye}/result"),
        Some(&token),
        Some(json!({"result": "draw"})),
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);

    for b in &boards[..4] {
        enter(&pool, &token, b, "red_wins").await;
    }
    let standings = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    assert_eq!(standings["round"], 1);
    assert_eq!(standings["final"], true);
    assert_eq!(
        standings["tiebreaks"],
        json!(["OPP", "WIN", "FOULS", "BPG", "PREV"])
    );
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    let winners: Vec<i64> = rows
        .iter()
        .filter(|r| r["points"] == 2.0)
        .map(|r| r["start_no"].as_i64().unwrap())
        .collect();
    assert_eq!(winners.len(), 5, "four winners and the bye: {standings}");
    assert!(winners.contains(&9));

    let r2 = expect(
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
    crate::support::publish(&pool, &token, &sid, r2["number"].as_i64().unwrap()).await;
    assert_eq!(r2["number"], 2);
    let bye2: Vec<&Value> = r2["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["black"].is_null())
        .collect();
    assert_eq!(bye2.len(), 1);
    assert_ne!(
        bye2[0]["red"]["start_no"], 9,
        "no second bye for the same entrant"
    );

    // Provisional standings while round 2 is in progress.
    enter(&pool, &token, &r2["boards"][0], "draw").await;
    let live = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    assert_eq!(live["final"], false);

    // The public round view has no pairing report; the arbiter's has.
    let public = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/rounds/2")).await,
        StatusCode::OK,
    );
    assert!(public.get("report").is_none());
    let arbiter = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/rounds/2"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(arbiter["report"]["system"], "chinese");

    // Unpairing round 2 needs force once a result exists.
    let refused = expect(
        &call(
            &pool,
            "DELETE",
            &format!("/api/v1/sections/{sid}/rounds/2"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CONFLICT,
    );
    assert!(refused["message"].as_str().unwrap().contains("force=true"));
    let not_last = call(
        &pool,
        "DELETE",
        &format!("/api/v1/sections/{sid}/rounds/1?force=true"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(not_last.status, StatusCode::CONFLICT);
    let gone = call(
        &pool,
        "DELETE",
        &format!("/api/v1/sections/{sid}/rounds/2?force=true"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    assert_eq!(
        get(&pool, &format!("/api/v1/sections/{sid}/rounds/2"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let audit: i64 = sqlx::query_scalar("select count(*) from audit_event where action = 'unpair'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(audit, 1);
}

#[sqlx::test]
async fn the_second_foul_loses_the_game_and_the_answer_says_so(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "jieqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 4).await;
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
    let b0 = r1["boards"][0]["id"].as_str().unwrap().to_string();
    let b1 = r1["boards"][1]["id"].as_str().unwrap().to_string();
    let one = expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{b0}/result"),
            Some(&token),
            Some(json!({"result": "red_wins", "red_fouls": 2, "black_fouls": 1})),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(one["result"], "black_wins");
    assert_eq!(one["reported_result"], "red_wins");
    assert_eq!(one["converted"], true);
    assert!(one["message"]
        .as_str()
        .unwrap()
        .contains("Red reached 2 fouls"));
    let both = expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{b1}/result"),
            Some(&token),
            Some(json!({"result": "draw", "red_fouls": 2, "black_fouls": 3})),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(both["result"], "double_loss");
    let standings = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    let fouls: i64 = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["tiebreaks"]["FOULS"].as_i64().unwrap())
        .sum();
    assert_eq!(fouls, 8);
    let points: f64 = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_f64().unwrap())
        .sum();
    assert_eq!(points, 2.0, "one win, one double loss");
    let conversions: i64 = sqlx::query_scalar(
        "select count(*) from audit_event where after->>'foul_rule' is not null",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(conversions, 2);
}

#[sqlx::test]
async fn a_stale_result_edit_is_rejected_with_409(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 2).await;
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
    let board = r1["boards"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(r1["boards"][0]["version"], 0);
    let uri = format!("/api/v1/boards/{board}/result");
    let first = expect(
        &call(
            &pool,
            "PUT",
            &uri,
            Some(&token),
            Some(json!({"result": "draw", "version": 0})),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(first["version"], 1);
    // A second desk still holding version 0 is refused, and nothing changes.
    let stale = expect(
        &call(
            &pool,
            "PUT",
            &uri,
            Some(&token),
            Some(json!({"result": "red_wins", "version": 0})),
        )
        .await,
        StatusCode::CONFLICT,
    );
    assert!(stale["message"]
        .as_str()
        .unwrap()
        .contains("changed meanwhile"));
    let round = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/rounds/1")).await,
        StatusCode::OK,
    );
    assert_eq!(round["boards"][0]["result"], "draw");
    let ok = call(
        &pool,
        "PUT",
        &uri,
        Some(&token),
        Some(json!({"result": "red_wins", "version": 1})),
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK);
    let bad = expect(
        &call(
            &pool,
            "PUT",
            &uri,
            Some(&token),
            Some(json!({"result": "red_forfeits", "red_fouls": 1})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(bad["errors"]["result"][0]
        .as_str()
        .unwrap()
        .contains("forfeit"));
}

#[sqlx::test]
async fn withdrawals_late_entries_and_requested_byes_shape_the_next_round(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 4})).await;
    let ids = add_entrants(&pool, &token, &sid, 6).await;
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
    for b in r1["boards"].as_array().unwrap() {
        enter(&pool, &token, b, "draw").await;
    }
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/entrants/{}/withdraw", ids[0]),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let again = call(
        &pool,
        "POST",
        &format!("/api/v1/entrants/{}/withdraw", ids[0]),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    let bye = call(
        &pool,
        "POST",
        &format!("/api/v1/entrants/{}/byes", ids[1]),
        Some(&token),
        Some(json!({"round": 2, "kind": "half"})),
    )
    .await;
    assert_eq!(bye.status, StatusCode::NO_CONTENT);
    let past = call(
        &pool,
        "POST",
        &format!("/api/v1/entrants/{}/byes", ids[1]),
        Some(&token),
        Some(json!({"round": 1})),
    )
    .await;
    assert_eq!(past.status, StatusCode::UNPROCESSABLE_ENTITY);
    let late = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&token),
            Some(json!({"name": "Late"})),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(late["start_no"], 7);
    assert_eq!(late["joined_round"], 2);

    let r2 = expect(
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
    crate::support::publish(&pool, &token, &sid, r2["number"].as_i64().unwrap()).await;
    let paired: Vec<i64> = r2["boards"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| {
            [
                b["red"]["start_no"].as_i64(),
                b["black"]["start_no"].as_i64(),
            ]
        })
        .flatten()
        .collect();
    assert!(!paired.contains(&1), "withdrawn entrant paired: {r2}");
    assert!(
        !paired.contains(&2),
        "entrant with a requested bye paired: {r2}"
    );
    assert!(paired.contains(&7), "late entrant not paired: {r2}");
    let absences = r2["absences"].as_array().unwrap();
    assert!(absences
        .iter()
        .any(|a| a["start_no"] == 2 && a["kind"] == "half"));
    for b in r2["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["black"].is_null())
    {
        enter(&pool, &token, b, "red_wins").await;
    }
    let standings = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    let late_row = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["start_no"] == 7)
        .unwrap()
        .clone();
    let half_row = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["start_no"] == 2)
        .unwrap()
        .clone();
    assert_eq!(
        half_row["points"], 2.0,
        "draw (1) + half-point bye (1): {half_row}"
    );
    assert!(late_row["points"].as_f64().unwrap() <= 2.0);
}

#[sqlx::test]
async fn a_doubles_section_takes_teams_of_two(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) =
        tournament_with_section(&pool, &token, "jieqi", json!({"entry_type": "doubles"})).await;
    let team = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&token),
            Some(json!({
                "members": [{"name": "張三", "gender": "m"}, {"name": "李四", "gender": "f"}]
            })),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(team["name"], "張三 / 李四");
    assert_eq!(team["members"].as_array().unwrap().len(), 2);
    let single = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&token),
            Some(json!({"name": "Solo"})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(single["errors"]["members"][0]
        .as_str()
        .unwrap()
        .contains("two"));
}

#[sqlx::test]
async fn a_dutch_section_pairs_by_the_fide_system(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "banqi",
        json!({"pairing_system": "dutch", "rounds": 3}),
    )
    .await;
    add_entrants(&pool, &token, &sid, 8).await;
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
    let first: Vec<(i64, i64)> = r1["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["red"]["start_no"].as_i64().unwrap(),
                b["black"]["start_no"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(first, vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
    let standings = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    assert_eq!(standings["tiebreaks"][0], "BH/C1");
}

#[sqlx::test]
async fn the_openapi_document_describes_the_api(pool: PgPool) {
    let doc = expect(&get(&pool, "/api/v1/openapi.json").await, StatusCode::OK);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    for path in [
        "/api/v1/tournaments",
        "/api/v1/sections/{id}/rounds",
        "/api/v1/boards/{id}/result",
        "/api/v1/sections/{id}/standings",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} missing");
    }
    assert!(doc["components"]["securitySchemes"].get("bearer").is_some());
}

#[sqlx::test]
async fn a_manual_pairing_lists_the_rules_it_breaks_and_needs_confirmation(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3})).await;
    let ids = add_entrants(&pool, &token, &sid, 4).await;
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
    for b in r1["boards"].as_array().unwrap() {
        enter(&pool, &token, b, "red_wins").await;
    }
    let r2 = expect(
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
    // Round 1 was 1 v 3 and 4 v 2: pairing them again is a rematch.
    let rematch =
        json!({"boards": [{"red": ids[2], "black": ids[0]}, {"red": ids[1], "black": ids[3]}]});
    let uri = format!("/api/v1/sections/{sid}/rounds/2/boards");
    let refused = expect(
        &call(&pool, "PUT", &uri, Some(&token), Some(rematch.clone())).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    let warnings = refused["errors"]["boards"].as_array().unwrap();
    assert_eq!(warnings.len(), 2, "{refused}");
    assert!(
        warnings.iter().all(|w| w.as_str().unwrap().contains("P")),
        "{refused}"
    );
    // A paired round is a draft: the public does not see it, its arbiters do.
    expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/rounds/2")).await,
        StatusCode::NOT_FOUND,
    );
    let listed = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/rounds")).await,
        StatusCode::OK,
    );
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    let unchanged = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/rounds/2"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(unchanged["boards"], r2["boards"]);

    let mut confirmed = rematch.clone();
    confirmed["confirm"] = json!(true);
    let applied = expect(
        &call(&pool, "PUT", &uri, Some(&token), Some(confirmed)).await,
        StatusCode::OK,
    );
    assert_eq!(applied["warnings"].as_array().unwrap().len(), 2);
    assert_eq!(applied["round"]["boards"][0]["red"]["start_no"], 3);
    let missing = json!({"boards": [{"red": ids[0], "black": ids[1]}]});
    let incomplete = expect(
        &call(&pool, "PUT", &uri, Some(&token), Some(missing)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(!incomplete["errors"]["boards"]
        .as_array()
        .unwrap()
        .is_empty());
    // The same entrant on two boards cannot be confirmed away.
    let twice = json!({"confirm": true, "boards": [
        {"red": ids[0], "black": ids[1]},
        {"red": ids[2], "black": ids[0]},
    ]});
    let doubled = expect(
        &call(&pool, "PUT", &uri, Some(&token), Some(twice)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert_eq!(
        doubled["errors"]["boards[1].black"][0], "is already on another board",
        "{doubled}"
    );
    let stranger =
        json!({"boards": [{"red": ids[0], "black": "00000000-0000-0000-0000-000000000001"}]});
    let unknown = expect(
        &call(&pool, "PUT", &uri, Some(&token), Some(stranger)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(unknown["errors"]["boards[0].black"][0]
        .as_str()
        .unwrap()
        .contains("not an entrant"));
    // Once published (or with results) the round is no longer editable.
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds/2/publish"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let late = call(&pool, "PUT", &uri, Some(&token), Some(rematch)).await;
    assert_eq!(late.status, StatusCode::CONFLICT);
}
