//! Issue #15, entrants and money: corrections of an entrant (API and dashboard) in the audit
//! log, payments with a method, voids and refunds, the desk totals, desk entries with their
//! fee, and the public form's fee tier of the chosen section.

use crate::support::{
    admin_browser, call, csrf_of, expect, location, token_for, tournament_with_section, Browser,
    Reply,
};
use axum::body::Body;
use axum::http::{Request, StatusCode};
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
    reply.json()
}

/// A PATCH with an `If-Match` header.
async fn patch(pool: &PgPool, token: &str, uri: &str, version: &str, body: Value) -> Reply {
    let request = Request::builder()
        .method("PATCH")
        .uri(uri)
        .header("authorization", format!("Bearer {token}"))
        .header("if-match", format!("\"{version}\""))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    crate::support::send(pool, request).await
}

async fn audit(pool: &PgPool, token: &str, tid: &str) -> Vec<Value> {
    api(
        pool,
        token,
        "GET",
        &format!("/api/v1/tournaments/{tid}/audit"),
        None,
    )
    .await
    .as_array()
    .unwrap()
    .clone()
}

/// Posts a form of `page` (its CSRF token added).
async fn submit(browser: &mut Browser, page: &str, action: &str, fields: &[(&str, &str)]) -> Reply {
    let html = browser.get(page).await;
    assert_eq!(html.status, StatusCode::OK, "{}", html.text);
    let csrf = csrf_of(&html.text);
    let mut all = vec![("csrf", csrf.as_str())];
    all.extend_from_slice(fields);
    browser.post_form(action, &all).await
}

#[sqlx::test]
async fn an_entrant_is_corrected_through_the_api_with_its_version_and_audited(pool: PgPool) {
    let token = token_for(&pool, "chief", "admin").await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let e = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/entrants"),
        Some(json!({"name": "Chan Tai Man", "club": "Kowloon", "rating": 1500, "email": "c@example.org"})),
    )
    .await;
    let id = e["id"].as_str().unwrap();
    let version = e["version"].as_i64().unwrap().to_string();
    let uri = format!("/api/v1/entrants/{id}");

    let fixed = expect(
        &patch(
            &pool,
            &token,
            &uri,
            &version,
            json!({"name": "陳大文", "club": "HK Club", "rating": 1650, "gender": "m", "member": true}),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(fixed["name"], "陳大文");
    assert_eq!(fixed["club"], "HK Club");
    assert_eq!(fixed["rating"], 1650);
    assert_eq!(fixed["members"][0]["gender"], "m");
    assert_eq!(fixed["members"][0]["member"], true);
    assert_eq!(
        fixed["members"][0]["email"], "c@example.org",
        "absent fields stay"
    );
    assert_ne!(fixed["version"].as_i64().unwrap().to_string(), version);

    // The old version is stale now: 409, nothing changed.
    let stale = patch(&pool, &token, &uri, &version, json!({"name": "Someone"})).await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    // Bad input names its field.
    let bad = patch(
        &pool,
        &token,
        &uri,
        &fixed["version"].as_i64().unwrap().to_string(),
        json!({"rating": 9999, "name": " "}),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(
        bad.text.contains("rating") && bad.text.contains("name"),
        "{}",
        bad.text
    );
    // `null` clears the rating.
    let cleared = expect(
        &patch(&pool, &token, &uri, "*", json!({"rating": null})).await,
        StatusCode::OK,
    );
    assert!(cleared["rating"].is_null(), "{cleared}");
    assert_eq!(cleared["name"], "陳大文");

    // A scorer may not correct entrants.
    let scorer = token_for(&pool, "scorer1", "user").await;
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/tournaments/{tid}/staff"),
        Some(json!({"username": "scorer1", "role": "scorer"})),
    )
    .await;
    let refused = patch(&pool, &scorer, &uri, "*", json!({"name": "X"})).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);

    let edits: Vec<Value> = audit(&pool, &token, &tid)
        .await
        .into_iter()
        .filter(|a| a["action"] == "edit" && a["entity"] == "entrant")
        .collect();
    assert_eq!(edits.len(), 2, "{edits:?}");
    assert_eq!(edits[0]["entity_id"], id);
    assert_eq!(edits[0]["before"]["name"], "Chan Tai Man");
    assert_eq!(edits[0]["after"]["name"], "陳大文");
    assert_eq!(edits[0]["after"]["rating"], 1650);

    // The registration of the desk entry follows the player's corrected name.
    let desk = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/tournaments/{tid}/desk"),
        None,
    )
    .await;
    assert_eq!(desk["sections"][0]["registrations"][0]["name"], "陳大文");
}

#[sqlx::test]
async fn a_doubles_team_is_corrected_on_the_dashboard_and_audited(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (tid, sid) =
        tournament_with_section(&pool, &token, "jieqi", json!({"entry_type": "doubles"})).await;
    let e = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/entrants"),
        Some(
            json!({"members": [{"name": "Ann", "rating": 1400}, {"name": "Bob", "rating": 1600}]}),
        ),
    )
    .await;
    let id = e["id"].as_str().unwrap();
    assert_eq!(e["name"], "Ann / Bob");
    let page = format!("/admin/s/{sid}/entrants/{id}/edit");
    let section = browser
        .get(&format!("/admin/s/{sid}/entrants?lang=en"))
        .await;
    assert!(
        section.text.contains(&page),
        "the entrants table links the edit form"
    );
    let form = browser.get(&format!("{page}?lang=zh-Hant")).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.text);
    assert!(form.text.contains("members[1].name") && form.text.contains("Bob"));

    // A rating that is not a number comes back next to its field, values kept.
    let refused = submit(
        &mut browser,
        &page,
        &page,
        &[
            ("name", ""),
            ("members[0].name", "Ann Lee"),
            ("members[1].name", "Bob"),
            ("members[1].rating", "lots"),
        ],
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("members[1].rating-error"),
        "{}",
        refused.text
    );
    assert!(refused.text.contains("Ann Lee"));

    let saved = submit(
        &mut browser,
        &page,
        &page,
        &[
            ("name", "Ann / Bob"),
            ("club", "Tsuen Wan"),
            ("member", "on"),
            ("members[0].name", "Ann Lee"),
            ("members[0].rating", "1500"),
            ("members[0].gender", "f"),
            ("members[1].name", "Bob"),
            ("members[1].rating", "1700"),
        ],
    )
    .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    assert!(location(&saved).starts_with(&format!("/admin/s/{sid}/entrants?")));
    let list = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/entrants"),
        None,
    )
    .await;
    let team = &list[0];
    assert_eq!(team["members"][0]["name"], "Ann Lee");
    assert_eq!(team["members"][0]["gender"], "f");
    assert_eq!(team["members"][1]["member"], true);
    assert_eq!(team["club"], "Tsuen Wan");
    assert_eq!(
        team["rating"], 1600,
        "a team's rating is its players' average"
    );

    let edits: Vec<Value> = audit(&pool, &token, &tid)
        .await
        .into_iter()
        .filter(|a| a["action"] == "edit" && a["entity"] == "entrant")
        .collect();
    assert_eq!(
        edits.len(),
        1,
        "the refused form changed nothing: {edits:?}"
    );
    assert_eq!(edits[0]["before"]["members"][0]["name"], "Ann");
    assert_eq!(edits[0]["after"]["members"][0]["name"], "Ann Lee");
}

fn sum(v: &Value, field: &str) -> i64 {
    v[field].as_i64().unwrap()
}

#[sqlx::test]
async fn payments_are_voided_and_refunded_and_the_desk_totals_add_up(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let fees = json!({"fee_tiers": [{"name": "member", "amount": 10}, {"name": "non-member", "amount": 20}]});
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", fees).await;
    let reg = |name: &'static str, tier: &'static str| {
        let pool = pool.clone();
        let sid = sid.clone();
        async move {
            let r = call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{sid}/registrations"),
                None,
                Some(json!({"name": name, "fee_tier": tier})),
            )
            .await;
            expect(&r, StatusCode::CREATED)["id"]
                .as_str()
                .unwrap()
                .to_string()
        }
    };
    let a = reg("A", "non-member").await;
    let b = reg("B", "member").await;
    let c = reg("C", "member").await;

    // A pays 20 by transfer; B pays 10 cash by mistake twice; C pays nothing.
    let paid = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/registrations/{a}/payment"),
        Some(json!({"state": "paid", "method": "transfer"})),
    )
    .await;
    assert_eq!(paid["payment_state"], "paid");
    assert_eq!(paid["paid_amount"], 20);
    assert_eq!(paid["payments"][0]["method"], "transfer");
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/registrations/{b}/payment"),
        Some(json!({"state": "paid", "amount": 10, "method": "cash"})),
    )
    .await;
    let twice = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/registrations/{b}/payment"),
        Some(json!({"state": "paid", "amount": 10, "method": "cash"})),
    )
    .await;
    assert_eq!(twice["paid_amount"], 20);
    let second = twice["payments"][1]["id"].as_str().unwrap().to_string();

    // The second payment is voided (kept, no longer counted); voiding again is refused.
    let voided = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/payments/{second}/void"),
        Some(json!({"reason": "entered twice"})),
    )
    .await;
    assert_eq!(voided["paid_amount"], 10);
    assert_eq!(voided["payment_state"], "paid");
    assert_eq!(
        voided["payments"].as_array().unwrap().len(),
        2,
        "never deleted"
    );
    assert_eq!(voided["payments"][1]["voided"], true);
    let again = call(
        &pool,
        "POST",
        &format!("/api/v1/payments/{second}/void"),
        Some(&token),
        Some(json!({})),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);

    // A withdraws: 20 is due back; 5 is refunded in cash, then the rest by transfer.
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/registrations/{a}/withdraw"),
        None,
    )
    .await;
    let too_much = call(
        &pool,
        "POST",
        &format!("/api/v1/registrations/{a}/refund"),
        Some(&token),
        Some(json!({"amount": 25, "method": "cash"})),
    )
    .await;
    assert_eq!(too_much.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(too_much.text.contains("amount"), "{}", too_much.text);
    let part = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/registrations/{a}/refund"),
        Some(json!({"amount": 5, "method": "cash"})),
    )
    .await;
    assert_eq!(part["payment_state"], "refund_due");
    assert_eq!(part["paid_amount"], 15);

    // The desk list in the API: totals are the sums of the ledger.
    let desk = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/tournaments/{tid}/desk"),
        None,
    )
    .await;
    let t = &desk["totals"];
    assert_eq!(sum(t, "received"), 20 + 10, "{t}");
    assert_eq!(sum(t, "refunded"), 5);
    assert_eq!(sum(t, "paid"), 10);
    assert_eq!(sum(t, "refund_due"), 15);
    assert_eq!(sum(t, "due"), 10, "C's member fee");
    assert_eq!(
        sum(t, "received") - sum(t, "refunded"),
        sum(t, "paid") + sum(t, "refund_due")
    );
    let method = |name: &str| {
        t["by_method"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["method"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(method("transfer")["received"], 20);
    assert_eq!(
        method("cash")["received"],
        10,
        "the voided 10 is not counted"
    );
    assert_eq!(method("cash")["refunded"], 5);
    let tier = |name: &str| {
        t["by_tier"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["tier"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(tier("member")["entries"], 2);
    assert_eq!(tier("member")["paid"], 10);
    assert_eq!(tier("member")["due"], 10);
    assert_eq!(tier("non-member")["refund_due"], 15);

    // The rest goes back through the dashboard's form; the void of the refund by the form too.
    let page = format!("/admin/s/{sid}/registrations?lang=en");
    let refunded = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/registrations/{a}/refund"),
        &[("amount", ""), ("method", "transfer")],
    )
    .await;
    assert_eq!(refunded.status, StatusCode::SEE_OTHER, "{}", refunded.text);
    let list = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/registrations"),
        None,
    )
    .await;
    let a_row = list
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == a.as_str())
        .unwrap()
        .clone();
    assert_eq!(a_row["payment_state"], "refunded");
    assert_eq!(a_row["paid_amount"], 0);
    let first_refund = a_row["payments"][1]["id"].as_str().unwrap().to_string();
    let void_form = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/payments/{first_refund}/void"),
        &[("reason", "wrong amount")],
    )
    .await;
    assert_eq!(
        void_form.status,
        StatusCode::SEE_OTHER,
        "{}",
        void_form.text
    );
    let desk = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/tournaments/{tid}/desk"),
        None,
    )
    .await;
    let t = &desk["totals"];
    assert_eq!(sum(t, "refunded"), 15);
    assert_eq!(sum(t, "refund_due"), 5, "the voided refund is owed again");
    assert_eq!(
        sum(t, "received") - sum(t, "refunded"),
        sum(t, "paid") + sum(t, "refund_due")
    );

    // Audited: payments, the void with its reason, the refunds.
    let log = audit(&pool, &token, &tid).await;
    let voids: Vec<&Value> = log.iter().filter(|e| e["action"] == "void").collect();
    assert_eq!(voids.len(), 2);
    assert_eq!(voids[0]["entity"], "payment");
    assert_eq!(voids[0]["after"]["reason"], "entered twice");
    assert_eq!(log.iter().filter(|e| e["action"] == "refund").count(), 2);

    // The print shows the per-method table; the desk API is for the staff only.
    let print = browser
        .get(&format!("/admin/t/{tid}/desk/print?lang=en"))
        .await;
    assert!(print.text.contains("desk-by-method") && print.text.contains("desk-by-tier"));
    let anonymous = call(
        &pool,
        "GET",
        &format!("/api/v1/tournaments/{tid}/desk"),
        None,
        None,
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let _ = c;
}

#[sqlx::test]
async fn a_desk_entry_records_its_fee_tier_member_flag_and_payment_in_one_step(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let fees = json!({"fee_tiers": [{"name": "member", "amount": 10}, {"name": "non-member", "amount": 20}]});
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", fees).await;
    let page = format!("/admin/s/{sid}/entrants?lang=en");
    let form = browser.get(&page).await;
    assert!(
        form.text.contains(r#"name="fee_tier""#) && form.text.contains(r#"name="payment_method""#)
    );
    let added = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/entrants"),
        &[
            ("name", "Walk-in"),
            ("member", "on"),
            ("fee_tier", "member"),
            ("paid", "10"),
            ("payment_method", "cash"),
        ],
    )
    .await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text);
    // Through the API: a non-member who pays nothing yet.
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/entrants"),
        Some(json!({"name": "Late", "fee_tier": "non-member"})),
    )
    .await;
    // A tier the section lacks is refused, naming the field.
    let wrong = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{sid}/entrants"),
        Some(&token),
        Some(json!({"name": "X", "fee_tier": "vip"})),
    )
    .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong.text.contains("fee_tier"));

    let desk = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/tournaments/{tid}/desk"),
        None,
    )
    .await;
    let regs = desk["sections"][0]["registrations"].as_array().unwrap();
    assert_eq!(regs.len(), 2, "desk entries are on the desk list: {desk}");
    assert_eq!(regs[0]["name"], "Walk-in");
    assert_eq!(regs[0]["status"], "confirmed");
    assert_eq!(regs[0]["fee_tier"], "member");
    assert_eq!(regs[0]["payment_state"], "paid");
    assert_eq!(regs[0]["payments"][0]["method"], "cash");
    assert!(regs[0]["entrant_id"].is_string());
    assert_eq!(desk["totals"]["paid"], 10);
    assert_eq!(desk["totals"]["due"], 20);
    let entrants = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/entrants"),
        None,
    )
    .await;
    assert_eq!(entrants[0]["members"][0]["member"], true);
    // The print counts them too.
    let print = browser
        .get(&format!("/admin/t/{tid}/desk/print?lang=en"))
        .await;
    assert!(print.text.contains("Walk-in") && print.text.contains("Late"));
}

#[sqlx::test]
async fn the_public_form_records_the_chosen_sections_fee_tier(pool: PgPool) {
    let token = token_for(&pool, "chief", "admin").await;
    let (tid, single) = tournament_with_section(
        &pool,
        &token,
        "jieqi",
        json!({"fee_tiers": [{"name": "member", "amount": 0}, {"name": "non-member", "amount": 5}]}),
    )
    .await;
    let doubles = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/tournaments/{tid}/sections"),
        Some(
            json!({"name": "Doubles", "rounds": 5, "entry_type": "doubles",
            "fee_tiers": [{"name": "member", "amount": 10}, {"name": "non-member", "amount": 20}]}),
        ),
    )
    .await;
    let did = doubles["id"].as_str().unwrap().to_string();

    let mut visitor = Browser::new(&pool);
    let form = visitor.get(&format!("/t/{tid}/register?lang=en")).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.text);
    let member_of_doubles = format!("{did}:member");
    assert!(
        form.text.contains(&member_of_doubles),
        "each section's tiers are offered"
    );
    assert!(form.text.contains("(10)") && form.text.contains("(0)"));
    let csrf = csrf_of(&form.text);
    let sent = visitor
        .post_form(
            &format!("/t/{tid}/register"),
            &[
                ("csrf", csrf.as_str()),
                ("section_id", did.as_str()),
                ("name", "Ann"),
                ("partner_name", "Bob"),
                ("member", "on"),
                ("fee_tier", member_of_doubles.as_str()),
            ],
        )
        .await;
    assert!(
        sent.status.is_success() || sent.status.is_redirection(),
        "{} {}",
        sent.status,
        sent.text
    );
    // A tier of another section than the one chosen is refused next to the field.
    let csrf = csrf_of(
        &visitor
            .get(&format!("/t/{tid}/register?lang=en"))
            .await
            .text,
    );
    let other = format!("{single}:member");
    let refused = visitor
        .post_form(
            &format!("/t/{tid}/register?lang=en"),
            &[
                ("csrf", csrf.as_str()),
                ("section_id", did.as_str()),
                ("name", "Cy"),
                ("partner_name", "Di"),
                ("fee_tier", other.as_str()),
            ],
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert!(refused.text.contains("fee_tier-error"));

    let regs = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{did}/registrations"),
        None,
    )
    .await;
    assert_eq!(regs.as_array().unwrap().len(), 1, "{regs}");
    assert_eq!(regs[0]["fee_tier"], "member");
    assert_eq!(
        regs[0]["fee_amount"], 10,
        "the doubles section's member fee"
    );
}
