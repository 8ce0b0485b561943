//! Self-reports on team matches (issue #41 with issue 36's side-bound codes): each game of a
//! match has two codes, one per side, printed per board on the staff's match slips; a player
//! reports their board with their side's code, the other side confirms; the captain's team
//! key reports any board of the team as the team's side there; the match result follows
//! from its boards.

use crate::support::{Browser, PASSWORD};
use crate::teams_events::team_event;
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// The two codes of game `number` of match `board`.
async fn codes(pool: &PgPool, board: &str, number: i32) -> (String, String) {
    sqlx::query_as::<_, (String, String)>(
        "select red_code, black_code from game where board_id = $1::uuid and number = $2",
    )
    .bind(board)
    .bind(number)
    .fetch_one(pool)
    .await
    .unwrap()
}

fn shown(code: &str) -> String {
    arbiter::service::reports::display_code(code)
}

#[sqlx::test(migrations = "./migrations")]
async fn players_report_their_own_board_of_a_team_match_with_side_bound_codes(pool: PgPool) {
    let event = team_event(
        &pool,
        4,
        3,
        json!({"rounds": 3, "self_report": "agreement", "team": {"boards": 3}}),
    )
    .await;
    let s = &event.section;
    let c = &event.client;
    event.pair().await;
    event.publish(1).await;
    let matches = event.matches(1).await;
    let board = matches[0]["id"].as_str().unwrap().to_string();
    let report = |code: String, body: Value| {
        let pool = pool.clone();
        async move {
            crate::support::call(
                &pool,
                "POST",
                &format!("/api/v1/reports/{code}"),
                None,
                Some(body),
            )
            .await
        }
    };

    // Board 1: Red reports, the opponent's own code confirms: the result counts.
    let (red1, black1) = codes(&pool, &board, 1).await;
    let first = report(red1.clone(), json!({"result": "red_wins"})).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let first = first.json();
    assert_eq!(first["accepted"], false);
    assert_eq!(first["board"]["game"], 1);
    assert_eq!(first["board"]["side"], "red");
    assert_eq!(first["board"]["agreement"], "waiting");
    // One code cannot confirm for the other side.
    let other_side = report(red1.clone(), json!({"result": "red_wins", "side": "black"})).await;
    assert_eq!(other_side.status, StatusCode::UNPROCESSABLE_ENTITY);
    let second = report(black1.clone(), json!({"result": "red_wins"})).await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    assert_eq!(second.json()["accepted"], true, "{}", second.text);
    let m = c.get(&format!("/api/v1/boards/{board}/games")).await;
    assert_eq!(m["games"][0]["result"], "red_wins", "{m}");
    assert!(m["games"][1]["result"].is_null());
    // The code of a board with its result is closed.
    let late = report(black1.clone(), json!({"result": "draw"})).await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.text);

    // Board 2: the sides disagree: nothing counts, the desk's queue shows the dispute.
    let (red2, black2) = codes(&pool, &board, 2).await;
    report(red2.clone(), json!({"result": "red_wins"})).await;
    let disputed = report(black2.clone(), json!({"result": "black_wins"})).await;
    assert_eq!(disputed.status, StatusCode::OK, "{}", disputed.text);
    assert_eq!(disputed.json()["board"]["agreement"], "disputed");
    assert_eq!(disputed.json()["accepted"], false);
    let queue = c.get(&format!("/api/v1/sections/{s}/reports")).await;
    let item = queue
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["game"] == 2)
        .unwrap_or_else(|| panic!("{queue}"));
    assert_eq!(item["agreement"], "disputed");
    assert_eq!(item["board_id"], board.as_str());
    let m = c.get(&format!("/api/v1/boards/{board}/games")).await;
    assert!(m["games"][1]["result"].is_null(), "{m}");
    // The desk settles it with the board's result; the reports are closed.
    event.result(&board, 2, "draw").await;
    let queue = c.get(&format!("/api/v1/sections/{s}/reports")).await;
    assert!(queue.as_array().unwrap().iter().all(|i| i["game"] != 2));

    // A code opens only its own game: not another board's, and a match's board-level code
    // (the individual board's) opens nothing.
    let (red3, black3) = codes(&pool, &board, 3).await;
    let named = report(red3.clone(), json!({"result": "draw", "game": 2})).await;
    assert_eq!(
        named.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        named.text
    );
    assert!(
        named.json()["errors"].get("game").is_some(),
        "{}",
        named.text
    );
    let board_code: String =
        sqlx::query_scalar("select black_code from board where board_id = $1::uuid")
            .bind(&board)
            .fetch_one(&pool)
            .await
            .unwrap();
    let whole = report(board_code, json!({"result": "draw"})).await;
    assert_eq!(
        whole.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        whole.text
    );

    // Board 3 with the captains' team keys: each reports as its team's side on that board.
    let red_team = matches[0]["red"]["id"].as_str().unwrap();
    let black_team = matches[0]["black"]["id"].as_str().unwrap();
    let red_key = event.key_of(red_team).await;
    let black_key = event.key_of(black_team).await;
    let by_key = |key: String, body: Value| {
        let pool = pool.clone();
        async move {
            crate::support::call(
                &pool,
                "POST",
                &format!("/api/v1/keys/{key}/report"),
                None,
                Some(body),
            )
            .await
        }
    };
    let view = crate::support::call(&pool, "GET", &format!("/api/v1/keys/{red_key}"), None, None)
        .await
        .json();
    assert_eq!(view["team_games"].as_array().unwrap().len(), 3, "{view}");
    // Board 3: the red team of the match has Red on odd boards.
    assert_eq!(view["team_games"][2]["side"], "red", "{view}");
    // The key's page asks which board it reports.
    let page = crate::support::get(&pool, &format!("/k/{red_key}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("name=\"game\""), "{}", page.text);
    let unnamed = by_key(red_key.clone(), json!({"result": "draw"})).await;
    assert_eq!(unnamed.status, StatusCode::UNPROCESSABLE_ENTITY);
    let a = by_key(red_key.clone(), json!({"result": "black_wins", "game": 3})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json()["board"]["side"], "red");
    // The same team's key again is still Red's report: no agreement with itself.
    let again = by_key(red_key.clone(), json!({"result": "black_wins", "game": 3})).await;
    assert_eq!(again.json()["accepted"], false, "{}", again.text);
    let b = by_key(
        black_key.clone(),
        json!({"result": "black_wins", "game": 3}),
    )
    .await;
    assert_eq!(b.status, StatusCode::OK, "{}", b.text);
    assert_eq!(b.json()["accepted"], true, "{}", b.text);
    let _ = (red3, black3);
    // The match's result follows from its boards: 1 + ½ + 0 for the red team = a draw.
    let m = c.get(&format!("/api/v1/boards/{board}/games")).await;
    assert_eq!(m["games"][2]["result"], "black_wins", "{m}");
    assert_eq!(m["result"], "draw", "{m}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_staffs_match_slip_prints_each_boards_side_codes(pool: PgPool) {
    let event = team_event(&pool, 2, 2, json!({"rounds": 1, "team": {"boards": 2}})).await;
    let s = &event.section;
    event.pair().await;
    event.publish(1).await;
    let board = event.matches(1).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut staff = Browser::new(&pool);
    staff.log_in("chief", PASSWORD).await;
    let slip = staff.get(&format!("/s/{s}/match-slips/1/print")).await;
    assert_eq!(slip.status, StatusCode::OK, "{}", slip.text);
    for n in 1..=2 {
        let (red, black) = codes(&pool, &board, n).await;
        assert!(
            slip.text.contains(&shown(&red)),
            "board {n} red: {}",
            slip.text
        );
        assert!(slip.text.contains(&shown(&black)), "board {n} black");
    }
    assert!(slip.text.contains("data-board=\"2\""));
    assert_eq!(
        slip.headers.get("cache-control").unwrap(),
        "no-store",
        "codes are kept by no cache"
    );
    // The public's print has no codes.
    let public = crate::support::get(&pool, &format!("/s/{s}/match-slips/1/print")).await;
    assert_eq!(public.status, StatusCode::OK);
    let (red, _) = codes(&pool, &board, 1).await;
    assert!(!public.text.contains(&shown(&red)));
}
