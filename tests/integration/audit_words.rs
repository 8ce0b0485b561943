//! The trail for disputes (issue #39 item 2): every audit line names what it touched in words
//! (section, round, board, players) at the event's local time, and the pairing report marks
//! boards changed by hand and who changed them.

use crate::support::{add_entrants, api, call, expect, publish, token_for, Browser, PASSWORD};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

#[sqlx::test]
async fn audit_lines_name_section_round_board_and_players_at_local_time(pool: PgPool) {
    let token = token_for(&pool, "chief", "user").await;
    let t = api(
        &pool,
        &token,
        "POST",
        "/api/v1/tournaments",
        Some(json!({"name": "Toronto Open", "game": "xiangqi", "time_zone": "America/Toronto"})),
    )
    .await;
    let tid = t["id"].as_str().unwrap().to_string();
    let s = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/tournaments/{tid}/sections"),
        Some(json!({"name": "Jieqi Open", "rounds": 3})),
    )
    .await;
    let sid = s["id"].as_str().unwrap().to_string();
    let ids = add_entrants(&pool, &token, &sid, 4).await;
    let round = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    // The arbiter swaps two players between the boards before publishing.
    let boards = round["boards"].as_array().unwrap();
    let (b1, b2) = (&boards[0], &boards[1]);
    let id = |side: &Value| side["entrant_id"].as_str().unwrap().to_string();
    let swapped = json!({
        "boards": [
            {"red": id(&b1["red"]), "black": id(&b2["black"])},
            {"red": id(&b2["red"]), "black": id(&b1["black"])},
        ],
        "confirm": true,
    });
    api(
        &pool,
        &token,
        "PUT",
        &format!("/api/v1/sections/{sid}/rounds/1/boards"),
        Some(swapped),
    )
    .await;
    publish(&pool, &token, &sid, 1).await;
    let now = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/rounds/1"),
        None,
    )
    .await;
    let board = &now["boards"][0];
    let name = |side: &Value| side["name"].as_str().unwrap().to_string();
    let no = |side: &Value| side["start_no"].as_i64().unwrap();
    let (red, black) = (&board["red"], &board["black"]);
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{}/result", board["id"].as_str().unwrap()),
            Some(&token),
            Some(json!({"result": "black_wins"})),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(ids.len(), 4);

    let mut chief = Browser::new(&pool);
    chief.log_in("chief", PASSWORD).await;
    let log = chief.get(&format!("/admin/t/{tid}/audit?lang=en")).await;
    assert_eq!(log.status, StatusCode::OK, "{}", log.text);
    assert!(log.text.contains("When (America/Toronto)"), "{}", log.text);
    let line = log
        .text
        .split("<tr>")
        .find(|row| row.contains("Result entered"))
        .unwrap_or_else(|| panic!("no result line: {}", log.text));
    let place = format!(
        "Jieqi Open · Round 1 · board 1 · Red: {} {} – Black: {} {}",
        no(red),
        name(red),
        no(black),
        name(black)
    );
    assert!(line.contains(&place), "{place} not in {line}");
    // The time is Toronto's (UTC−5 in December, UTC−4 in summer), not UTC.
    let utc = chrono::Utc::now();
    let local = utc.with_timezone(&chrono_tz::America::Toronto);
    let hour = |t: String| t;
    let local_hour = hour(local.format("%Y-%m-%d %H:").to_string());
    let utc_hour = hour(utc.format("%Y-%m-%d %H:").to_string());
    assert!(
        line.contains(&local_hour) && !line.contains(&utc_hour),
        "not at Toronto's time ({local_hour}): {line}"
    );
    // The other lines say where too.
    assert!(log
        .text
        .split("<tr>")
        .any(|row| row.contains("Pairing edited by hand") && row.contains("Jieqi Open · Round 1")));
    assert!(log
        .text
        .split("<tr>")
        .any(|row| row.contains("Entrant added") && row.contains("Jieqi Open · 1 P1")));
    // The API carries the same place.
    let events = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/tournaments/{tid}/audit"),
        None,
    )
    .await;
    let result = events
        .as_array()
        .or_else(|| events["events"].as_array())
        .unwrap()
        .iter()
        .find(|e| e["action"] == "result")
        .cloned()
        .unwrap();
    assert_eq!(result["place"]["board"], 1);
    assert_eq!(result["place"]["round"], 1);
    assert_eq!(result["place"]["red"], red["name"]);

    // The pairing report marks the boards that are no longer the engine's, and who changed them.
    let report = chief
        .get(&format!("/admin/s/{sid}/rounds/1/report?lang=en"))
        .await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    assert!(
        report.text.contains(r#"id="hand-edited""#),
        "{}",
        report.text
    );
    assert!(report
        .text
        .contains("changed by hand after pairing, by chief"));
    assert_eq!(
        report.text.matches(r#"class="by-hand""#).count(),
        2,
        "{}",
        report.text
    );
    assert!(report.text.contains(&format!(
        "✎ changed by hand: now {} {} – {} {}",
        no(red),
        name(red),
        no(black),
        name(black)
    )));
}

#[sqlx::test]
async fn a_report_of_a_round_nobody_edited_marks_nothing(pool: PgPool) {
    let token = token_for(&pool, "chief", "user").await;
    let (_tid, sid) =
        crate::support::tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    let mut chief = Browser::new(&pool);
    chief.log_in("chief", PASSWORD).await;
    let report = chief
        .get(&format!("/admin/s/{sid}/rounds/1/report?lang=en"))
        .await;
    assert_eq!(report.status, StatusCode::OK);
    assert!(!report.text.contains("hand-edited"));
    assert!(!report.text.contains("by-hand"));
}
