//! The event itself (issue #15): edited after creation, its status following the event, its
//! time zone for the times entered and shown, its registration form linked.

use crate::support::{
    add_entrants, call, csrf_of, expect, location, token_for, tournament_with_section, Browser,
};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

async fn status_of(pool: &PgPool, token: &str, tid: &str, sid: &str) -> (String, String) {
    let t = expect(
        &call(
            pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}"),
            Some(token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let s = expect(
        &call(
            pool,
            "GET",
            &format!("/api/v1/sections/{sid}"),
            Some(token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    (
        t["status"].as_str().unwrap().to_string(),
        s["status"].as_str().unwrap().to_string(),
    )
}

async fn status_moves(pool: &PgPool, token: &str, tid: &str) -> Vec<(String, String, String)> {
    let log = expect(
        &call(
            pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/audit"),
            Some(token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    log.as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "status")
        .map(|e| {
            (
                e["entity"].as_str().unwrap().to_string(),
                e["after"]["status"].as_str().unwrap().to_string(),
                e["after"]["why"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[sqlx::test]
async fn the_status_follows_the_first_pairing_the_last_round_and_an_unpairing(pool: PgPool) {
    let token = token_for(&pool, "chief-status", "user").await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 1})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    assert_eq!(
        status_of(&pool, &token, &tid, &sid).await,
        ("draft".into(), "open".into())
    );
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
    assert_eq!(
        status_of(&pool, &token, &tid, &sid).await,
        ("running".into(), "running".into()),
        "the first pairing starts the event"
    );
    let boards: Vec<String> = round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(boards.len(), 2);
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{}/result", boards[0]),
            Some(&token),
            Some(json!({"result": "red_wins"})),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(
        status_of(&pool, &token, &tid, &sid).await,
        ("running".into(), "running".into()),
        "one result of the last round is missing"
    );
    let last = expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{}/result", boards[1]),
            Some(&token),
            Some(json!({"result": "draw"})),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(last["round_completed"], true);
    assert_eq!(
        status_of(&pool, &token, &tid, &sid).await,
        ("finished".into(), "finished".into()),
        "the last round of the last section finishes the event"
    );
    // Unpaired (results and all), the section has no round: open again, the event running.
    let unpaired = call(
        &pool,
        "DELETE",
        &format!("/api/v1/sections/{sid}/rounds/1?force=true"),
        Some(&token),
        None,
    )
    .await;
    assert!(unpaired.status.is_success(), "{}", unpaired.text);
    assert_eq!(
        status_of(&pool, &token, &tid, &sid).await,
        ("running".into(), "open".into())
    );
    let moves = status_moves(&pool, &token, &tid).await;
    for expected in [
        ("tournament", "running", "paired"),
        ("section", "running", "paired"),
        ("section", "finished", "settled"),
        ("tournament", "finished", "settled"),
        ("section", "open", "settled"),
        ("tournament", "running", "settled"),
    ] {
        assert!(
            moves
                .iter()
                .any(|(e, s, w)| (e.as_str(), s.as_str(), w.as_str()) == expected),
            "{expected:?} not in {moves:?}"
        );
    }
    // The arbiter may cancel; nothing moves a cancelled event by itself.
    expect(
        &call(
            &pool,
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            Some(&token),
            Some(json!({"status": "cancelled"})),
        )
        .await,
        StatusCode::OK,
    );
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
    assert_eq!(status_of(&pool, &token, &tid, &sid).await.0, "cancelled");
}

#[sqlx::test]
async fn a_second_section_keeps_the_event_running_until_it_finishes_too(pool: PgPool) {
    let token = token_for(&pool, "chief-two", "user").await;
    let (tid, first) =
        tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 1})).await;
    let second = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(&token),
            Some(json!({"name": "B", "rounds": 1})),
        )
        .await,
        StatusCode::CREATED,
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    for sid in [&first, &second] {
        add_entrants(&pool, &token, sid, 2).await;
    }
    let mut boards = Vec::new();
    for sid in [&first, &second] {
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
        crate::support::publish(&pool, &token, sid, round["number"].as_i64().unwrap()).await;
        boards.push(round["boards"][0]["id"].as_str().unwrap().to_string());
    }
    let enter = |board: String| {
        let pool = pool.clone();
        let token = token.clone();
        async move {
            expect(
                &call(
                    &pool,
                    "PUT",
                    &format!("/api/v1/boards/{board}/result"),
                    Some(&token),
                    Some(json!({"result": "black_wins"})),
                )
                .await,
                StatusCode::OK,
            );
        }
    };
    enter(boards[0].clone()).await;
    assert_eq!(
        status_of(&pool, &token, &tid, &first).await,
        ("running".into(), "finished".into())
    );
    enter(boards[1].clone()).await;
    assert_eq!(status_of(&pool, &token, &tid, &second).await.0, "finished");
}

#[sqlx::test]
async fn times_are_entered_and_shown_in_the_events_time_zone(pool: PgPool) {
    let token = token_for(&pool, "chief-zone", "user").await;
    let refused = call(
        &pool,
        "POST",
        "/api/v1/tournaments",
        Some(&token),
        Some(json!({"name": "Open", "game": "xiangqi", "time_zone": "Mars/Olympus"})),
    )
    .await;
    let body = expect(&refused, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body["errors"]["time_zone"][0]
        .as_str()
        .unwrap()
        .contains("IANA"));
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let t = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(t["time_zone"], "UTC", "the API's default");
    expect(
        &call(
            &pool,
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            Some(&token),
            Some(json!({"time_zone": "America/Toronto"})),
        )
        .await,
        StatusCode::OK,
    );
    // The settings page takes the registration window in Toronto's time (EST, UTC-5).
    let mut browser = Browser::new(&pool);
    browser.log_in("chief-zone", "a long password").await;
    let form = browser.get(&format!("/admin/s/{sid}/settings")).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.text.contains("America/Toronto"), "the zone is named");
    let zh = browser
        .get(&format!("/admin/s/{sid}/settings?lang=zh-Hant"))
        .await;
    assert!(zh.text.contains("多倫多 · America/Toronto"), "{}", zh.text);
    let saved = crate::dashboard_forms::post_settings(
        &mut browser,
        &sid,
        &[
            ("registration_opens_at", "2026-12-24T09:00"),
            ("registration_closes_at", "2027-01-02T18:30"),
        ],
    )
    .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    let section = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(section["registration_opens_at"], "2026-12-24T14:00:00Z");
    assert_eq!(section["registration_closes_at"], "2027-01-02T23:30:00Z");
    let again = browser.get(&format!("/admin/s/{sid}/settings")).await;
    assert!(
        again.text.contains("value=\"2026-12-24T09:00\""),
        "shown as entered"
    );
    assert!(again.text.contains("value=\"2027-01-02T18:30\""));
}

#[sqlx::test]
async fn the_event_is_edited_on_its_page_and_links_its_registration_form(pool: PgPool) {
    let token = token_for(&pool, "chief-edit", "user").await;
    let (tid, _) = tournament_with_section(&pool, &token, "jieqi", json!({})).await;
    let mut browser = Browser::new(&pool);
    browser.log_in("chief-edit", "a long password").await;
    let overview = browser.get(&format!("/admin/t/{tid}")).await;
    assert!(overview
        .text
        .contains(&format!("href=\"/admin/t/{tid}/edit\"")));
    assert!(overview
        .text
        .contains(&format!("href=\"/t/{tid}/register\"")));
    assert!(
        !overview.text.contains("<svg"),
        "no QR code before registration opens"
    );
    let form = browser.get(&format!("/admin/t/{tid}/edit")).await;
    assert_eq!(form.status, StatusCode::OK);
    let csrf = csrf_of(&form.text);
    let fields = |zone: &'static str| -> Vec<(&'static str, String)> {
        vec![
            ("csrf", csrf.clone()),
            ("name", "Toronto Jieqi Open".into()),
            ("game", "jieqi".into()),
            ("venue", "Scarborough Civic Centre".into()),
            ("time_zone", zone.into()),
            ("default_language", "zh-Hant".into()),
            ("status", "draft".into()),
        ]
    };
    let bad = fields("Somewhere/Else");
    let bad: Vec<(&str, &str)> = bad.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let refused = browser
        .post_form(&format!("/admin/t/{tid}/edit"), &bad)
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.text.contains("IANA"),
        "the message is next to the field"
    );
    assert!(
        refused.text.contains("Scarborough Civic Centre"),
        "what was typed stays"
    );
    let good = fields("America/Toronto");
    let good: Vec<(&str, &str)> = good.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let saved = browser
        .post_form(&format!("/admin/t/{tid}/edit"), &good)
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    assert_eq!(location(&saved), format!("/admin/t/{tid}?done=event"));
    let t: Value = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(t["name"], "Toronto Jieqi Open");
    assert_eq!(t["venue"], "Scarborough Civic Centre");
    assert_eq!(t["time_zone"], "America/Toronto");
    let log = expect(
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
    assert!(log
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["action"] == "update"
            && e["after"]["time_zone"] == "America/Toronto"
            && e["before"]["time_zone"] == "UTC"));
    // The public page does not link the form of a draft; opening registration links it, and
    // the dashboard shows the form's QR code for a poster.
    let public = browser.get(&format!("/t/{tid}")).await;
    assert!(!public.text.contains(&format!("/t/{tid}/register")));
    let overview = browser.get(&format!("/admin/t/{tid}")).await;
    let csrf = csrf_of(&overview.text);
    let opened = browser
        .post_form(
            &format!("/admin/t/{tid}/status"),
            &[("csrf", &csrf), ("status", "registration")],
        )
        .await;
    assert_eq!(opened.status, StatusCode::SEE_OTHER);
    let overview = browser.get(location(&opened)).await;
    assert!(overview.text.contains("<svg"), "the QR code");
    let public = browser.get(&format!("/t/{tid}")).await;
    assert!(public.text.contains(&format!("/t/{tid}/register")));
}

#[sqlx::test]
async fn the_number_of_rounds_comes_from_the_table_by_entries_at_round_one(pool: PgPool) {
    // Seed 004: "5–7 rounds by entries, announced on the day".
    let token = token_for(&pool, "chief-table", "user").await;
    let table = json!([
        {"min": 2, "max": 16, "rounds": 5},
        {"min": 17, "max": 32, "rounds": 6},
        {"min": 33, "max": null, "rounds": 7},
    ]);
    let (tid, small) = tournament_with_section(
        &pool,
        &token,
        "banqi",
        json!({"rounds": 7, "rounds_by_entries": table}),
    )
    .await;
    let section = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{small}"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(section["rounds_by_entries"], table);
    let large = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(&token),
            Some(json!({"name": "B", "rounds": 7, "rounds_by_entries": table})),
        )
        .await,
        StatusCode::CREATED,
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    add_entrants(&pool, &token, &small, 12).await;
    add_entrants(&pool, &token, &large, 20).await;
    for (sid, rounds) in [(&small, 5), (&large, 6)] {
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
        let section = expect(
            &call(
                &pool,
                "GET",
                &format!("/api/v1/sections/{sid}"),
                Some(&token),
                None,
            )
            .await,
            StatusCode::OK,
        );
        assert_eq!(section["rounds"], rounds, "fixed at round 1");
    }
    let log = expect(
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
    let fixed: Vec<&Value> = log
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "fix_rounds")
        .collect();
    assert_eq!(fixed.len(), 2);
    assert!(fixed.iter().any(|e| e["after"]["entries"] == 20
        && e["after"]["rounds"] == 6
        && e["before"]["rounds"] == 7));
    // A table that overlaps is refused row by row; one without a row for the field stops the
    // pairing with a message that says what to add.
    let refused = call(
        &pool,
        "POST",
        &format!("/api/v1/tournaments/{tid}/sections"),
        Some(&token),
        Some(json!({"name": "C", "rounds": 5, "rounds_by_entries": [
            {"min": 2, "max": 16, "rounds": 5}, {"min": 16, "max": null, "rounds": 6}]})),
    )
    .await;
    let body = expect(&refused, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        body["errors"]["rounds_by_entries[1].min"].is_array(),
        "{body}"
    );
    let gap = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(&token),
            Some(json!({"name": "D", "rounds": 5, "rounds_by_entries": [
                {"min": 10, "max": null, "rounds": 5}]})),
        )
        .await,
        StatusCode::CREATED,
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    add_entrants(&pool, &token, &gap, 4).await;
    let stopped = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{gap}/rounds"),
        Some(&token),
        None,
    )
    .await;
    let body = expect(&stopped, StatusCode::CONFLICT);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("no row for 4 entrants"),
        "{body}"
    );
    // The settings page writes and reads the table one row a line.
    let mut browser = Browser::new(&pool);
    browser.log_in("chief-table", "a long password").await;
    let saved = crate::dashboard_forms::post_settings(
        &mut browser,
        &gap,
        &[("rounds_by_entries", "2-8: 3\n9+: 4")],
    )
    .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    let section = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{gap}"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(
        section["rounds_by_entries"],
        json!([{"min": 2, "max": 8, "rounds": 3}, {"min": 9, "max": null, "rounds": 4}])
    );
    let page = browser.get(&format!("/admin/s/{gap}/settings")).await;
    assert!(page.text.contains("2-8: 3\n9+: 4"), "shown as typed");
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{gap}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
}
