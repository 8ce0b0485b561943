//! Walk-ins at the desk (issue #39 item 6): after an add the desk lands on the form again,
//! its first field focused, with what was added said there; start numbers never change by
//! themselves (pairing round 1 keeps them, a gap too); renumbering is the desk's explicit
//! action before round 1, audited, with a warning that printed numbers change; a section
//! numbered by rating or lot asks for it before round 1 instead of renumbering silently.

use crate::support::{admin_browser, call, csrf_of, expect, tournament_with_section};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

async fn api(pool: &PgPool, token: &str, method: &str, uri: &str, body: Option<Value>) -> Value {
    let reply = call(pool, method, uri, Some(token), body).await;
    assert!(
        reply.status.is_success(),
        "{method} {uri}: {} {}",
        reply.status,
        reply.text
    );
    serde_json::from_str(&reply.text).unwrap_or(Value::Null)
}

async fn numbers(pool: &PgPool, token: &str, sid: &str) -> Vec<(String, i64)> {
    let list = api(
        pool,
        token,
        "GET",
        &format!("/api/v1/sections/{sid}/entrants"),
        None,
    )
    .await;
    let mut numbers: Vec<(String, i64)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                e["start_no"].as_i64().unwrap(),
            )
        })
        .collect();
    numbers.sort_by_key(|(_, n)| *n);
    numbers
}

#[sqlx::test]
async fn an_add_lands_on_the_form_focused_and_numbers_survive_round_one(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "xiangqi",
        json!({"fee_tiers": [{"name": "Member", "amount": 10, "currency": "CAD"}]}),
    )
    .await;
    // Two online registrations; the first withdraws before round 1 (its entrant goes: #1 is free).
    let mut first = None;
    for name in ["Online One", "Online Two"] {
        let r = expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{sid}/registrations"),
                None,
                Some(json!({"name": name})),
            )
            .await,
            StatusCode::CREATED,
        );
        first.get_or_insert(r["id"].as_str().unwrap().to_string());
    }
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/registrations/{}/withdraw", first.unwrap()),
        None,
    )
    .await;
    // Walk-ins at the desk's form.
    let tab = format!("/admin/s/{sid}/entrants?lang=en");
    for name in ["Walk One", "Walk Two", "Walk Three"] {
        let page = browser.get(&tab).await;
        let added = browser
            .post_form(
                &format!("/admin/s/{sid}/entrants"),
                &[
                    ("csrf", &csrf_of(&page.text)),
                    ("name", name),
                    ("fee_tier", "Member"),
                    ("paid", "10"),
                    ("payment_method", "cash"),
                ],
            )
            .await;
        assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text);
        let to = added.headers["location"].to_str().unwrap().to_string();
        assert!(to.contains("/entrants?added=") && !to.contains('#'), "{to}");
        let back = browser
            .get(&format!("{}&lang=en", to.split('#').next().unwrap()))
            .await;
        assert!(
            back.text.contains(&format!("Added: {name}")),
            "the add is said by the form"
        );
        let form = back.text.split("id=\"add-entrant-form\"").nth(1).unwrap();
        let name_input = form.split("<input id=\"name\"").nth(1).unwrap();
        assert!(
            name_input.split('>').next().unwrap().contains("autofocus"),
            "the name field has the focus: {name_input}"
        );
        assert!(
            back.text
                .contains(r#"data-fee-amounts="{&quot;Member&quot;:10}""#)
                || back
                    .text
                    .contains("data-fee-amounts=\"{&#34;Member&#34;:10}\""),
            "the form carries the tiers' amounts"
        );
    }
    let before = numbers(&pool, &token, &sid).await;
    assert_eq!(
        before.iter().map(|(_, n)| *n).collect::<Vec<_>>(),
        vec![2, 3, 4, 5],
        "{before:?}"
    );
    // Pairing round 1 keeps every number, the gap too.
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    assert_eq!(numbers(&pool, &token, &sid).await, before);
    // And renumbering is refused once round 1 is paired.
    let page = browser.get(&tab).await;
    assert!(!page.text.contains("renumber-link"));
    let refused = browser
        .post_form(
            &format!("/admin/s/{sid}/renumber"),
            &[("csrf", &csrf_of(&page.text))],
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert!(refused.text.contains("fixed once round 1 is paired"));
}

#[sqlx::test]
async fn renumbering_is_an_explicit_audited_desk_action_before_round_one(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_, sid) =
        tournament_with_section(&pool, &token, "xiangqi", json!({"round1_order": "rating"})).await;
    for (name, rating) in [("Low", 1500), ("High", 2100), ("Mid", 1800), ("Unrated", 0)] {
        let mut body = json!({"name": name});
        if rating > 0 {
            body["rating"] = json!(rating);
        }
        api(
            &pool,
            &token,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(body),
        )
        .await;
    }
    let before = numbers(&pool, &token, &sid).await;
    // Round 1 by rating with numbers in registration order: refused, saying to renumber.
    let refused = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert!(refused.text.contains("renumber"), "{}", refused.text);
    assert_eq!(
        numbers(&pool, &token, &sid).await,
        before,
        "nothing renumbered"
    );

    // The desk asks first: the warning, and every change.
    let tab = browser
        .get(&format!("/admin/s/{sid}/entrants?lang=en"))
        .await;
    assert!(tab.text.contains(&format!("/admin/s/{sid}/renumber")));
    let ask = browser
        .get(&format!("/admin/s/{sid}/renumber?lang=en"))
        .await;
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.text);
    assert!(ask.text.contains("Printed numbers change"));
    assert!(
        ask.text.contains("High: No. 2 becomes No. 1"),
        "{}",
        ask.text
    );
    let done = browser
        .post_form(
            &format!("/admin/s/{sid}/renumber"),
            &[("csrf", &csrf_of(&ask.text))],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let after = numbers(&pool, &token, &sid).await;
    assert_eq!(
        after,
        vec![
            ("High".to_string(), 1),
            ("Mid".to_string(), 2),
            ("Low".to_string(), 3),
            ("Unrated".to_string(), 4)
        ]
    );
    let audit: Value = sqlx::query_scalar(
        "select after from audit_event where action = 'renumber' and entity_id = $1::uuid",
    )
    .bind(&sid)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(audit["order"], "rating");
    assert_eq!(audit["changes"].as_array().unwrap().len(), 3, "{audit}");
    // Now round 1 pairs, and the numbers stay.
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    assert_eq!(numbers(&pool, &token, &sid).await, after);
}

#[sqlx::test]
async fn a_section_numbered_by_lot_draws_at_the_desk_before_round_one(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_, sid) =
        tournament_with_section(&pool, &token, "xiangqi", json!({"round1_order": "lot"})).await;
    crate::support::add_entrants(&pool, &token, &sid, 6).await;
    let refused = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert!(refused.text.contains("drawn by lot"));
    let ask = browser
        .get(&format!("/admin/s/{sid}/renumber?lang=en"))
        .await;
    let done = browser
        .post_form(
            &format!("/admin/s/{sid}/renumber"),
            &[("csrf", &csrf_of(&ask.text))],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let drawn = numbers(&pool, &token, &sid).await;
    let seed: Value =
        sqlx::query_scalar("select after -> 'lot_seed' from audit_event where action = 'renumber'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(seed.is_u64(), "the draw's seed is kept: {seed}");
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    assert_eq!(numbers(&pool, &token, &sid).await, drawn);
}
