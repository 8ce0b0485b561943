//! A section's rules for players (issue 36, issue #39 items 6 and 9): the self check-in switch
//! and window edited on the dashboard's settings form in the event's time zone; the absence
//! rule (withdrawn from pairing, seen and undone by the desk, audited); the registration
//! confirmation with the section, the fee due, how to pay and the player's key once.

use crate::dashboard_forms::post_settings;
use crate::support::{admin_browser, call, expect, get, tournament_with_section};
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

#[sqlx::test]
async fn the_check_in_window_is_set_on_the_settings_form_in_the_event_s_time_zone(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    api(
        &pool,
        &token,
        "PATCH",
        &format!("/api/v1/tournaments/{tid}"),
        Some(json!({"time_zone": "America/Toronto"})),
    )
    .await;
    let saved = post_settings(
        &mut browser,
        &sid,
        &[
            ("self_check_in", "on"),
            ("check_in_opens_at", "2026-05-02T08:00"),
            ("check_in_closes_at", "2026-05-02T09:15"),
            ("absent_withdraw_after", "2"),
            (
                "payment_instructions",
                "Cash at the desk, or e-transfer to pay@club.ca",
            ),
        ],
    )
    .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    // Stored in UTC (Toronto is UTC−4 in May), as the API shows it.
    let window = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/check-in-settings")).await,
        StatusCode::OK,
    );
    assert_eq!(window["self_check_in"], true);
    assert_eq!(
        window["check_in_opens_at"], "2026-05-02T12:00:00Z",
        "{window}"
    );
    assert_eq!(window["check_in_closes_at"], "2026-05-02T13:15:00Z");
    // The form shows them again in the event's time zone.
    let page = browser
        .get(&format!("/admin/s/{sid}/settings?lang=en"))
        .await;
    assert!(
        page.text.contains(r#"value="2026-05-02T08:00""#),
        "the opening time shown in Toronto's time"
    );
    assert!(page.text.contains(r#"value="2026-05-02T09:15""#));
    assert!(page.text.contains("e-transfer to pay@club.ca"));
    // Audited with the section's change.
    let audit: Value = sqlx::query_scalar(
        "select after from audit_event where entity = 'section' and action = 'update' order by audit_id desc limit 1",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(audit["self_check_in"], true, "{audit}");
    assert_eq!(audit["absent_withdraw_after"], 2);

    // A window that closes before it opens comes back next to its field, as entered.
    let refused = post_settings(
        &mut browser,
        &sid,
        &[
            ("self_check_in", "on"),
            ("check_in_opens_at", "2026-05-02T10:00"),
            ("check_in_closes_at", "2026-05-02T09:00"),
        ],
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.text.contains("check_in_closes_at-error") || refused.text.contains("aria-invalid"),
        "{}",
        refused.text
    );
    assert!(refused.text.contains(r#"value="2026-05-02T10:00""#));
    // Emptied boxes remove the window; an unticked switch turns self check-in off.
    let cleared = post_settings(
        &mut browser,
        &sid,
        &[
            ("self_check_in", ""),
            ("check_in_opens_at", ""),
            ("check_in_closes_at", ""),
        ],
    )
    .await;
    assert_eq!(cleared.status, StatusCode::SEE_OTHER, "{}", cleared.text);
    let window = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/check-in-settings")).await,
        StatusCode::OK,
    );
    assert_eq!(window["self_check_in"], false, "{window}");
    assert_eq!(window["check_in_opens_at"], Value::Null);
    assert_eq!(window["check_in_closes_at"], Value::Null);
}

#[sqlx::test]
async fn the_registration_confirmation_states_section_fee_how_to_pay_and_the_key_once(
    pool: PgPool,
) {
    let token = crate::support::admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(
        &pool,
        &token,
        "xiangqi",
        json!({"name": "揭棋公開賽", "fee_tiers": [{"name": "Member", "amount": 10, "currency": "CAD"},
                                               {"name": "Non-member", "amount": 20, "currency": "CAD"}],
               "payment_instructions": "E-transfer to pay@club.ca, or cash at the desk"}),
    )
    .await;
    // The API's answer: the key once, the section, the fee due and how to pay.
    let answer = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/registrations"),
            None,
            Some(json!({"name": "Lee Wing", "fee_tier": "Non-member"})),
        )
        .await,
        StatusCode::CREATED,
    );
    assert!(answer["key_path"].as_str().unwrap().starts_with("/k/"));
    let c = &answer["confirmation"];
    assert_eq!(c["section_name"], "揭棋公開賽", "{answer}");
    assert_eq!(c["fee_tier"], "Non-member");
    assert_eq!(c["fee_amount"], 20);
    assert_eq!(c["currency"], "CAD");
    assert_eq!(
        c["payment_instructions"],
        "E-transfer to pay@club.ca, or cash at the desk"
    );
    // Not in the list afterwards.
    let listed = get(&pool, &format!("/api/v1/sections/{sid}/registrations")).await;
    assert!(!listed.text.contains("key_path") && !listed.text.contains("confirmation"));

    // The page: the same, with the key's address and QR code, not cached, no referrer.
    let mut browser = crate::support::Browser::new(&pool);
    let form = browser.get(&format!("/t/{tid}/register?lang=en")).await;
    let csrf = crate::support::csrf_of(&form.text);
    let page = browser
        .post_form(
            &format!("/t/{tid}/register?lang=en"),
            &[
                ("csrf", &csrf),
                ("section_id", &sid),
                ("name", "Chan Siu Ming"),
                ("fee_tier", &format!("{sid}:Member")),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::CREATED, "{}", page.text);
    assert!(page.text.contains("揭棋公開賽"));
    assert!(page.text.contains("Member: 10 CAD"), "{}", page.text);
    assert!(page.text.contains("E-transfer to pay@club.ca"));
    let key = page
        .text
        .split("/k/")
        .nth(1)
        .map(|rest| rest.chars().take(16).collect::<String>())
        .expect("the key's address on the page");
    assert!(page.text.contains("<svg"), "the key's QR code");
    assert_eq!(page.headers["cache-control"], "no-store, private");
    assert_eq!(page.headers["referrer-policy"], "no-referrer");
    let view = expect(
        &get(&pool, &format!("/api/v1/keys/{key}")).await,
        StatusCode::OK,
    );
    assert_eq!(view["entrant"]["name"], "Chan Siu Ming");
}

/// The result that makes `absent` forfeit its games (the others: Red wins).
fn forfeit_by(absent: &'static str) -> impl Fn(&Value) -> &'static str {
    move |board: &Value| {
        if board["red"]["name"] == absent {
            "red_forfeits"
        } else if board["black"]["name"] == absent {
            "black_forfeits"
        } else {
            "red_wins"
        }
    }
}

fn names_in(round: &Value) -> Vec<String> {
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| [b["red"]["name"].as_str(), b["black"]["name"].as_str()])
        .flatten()
        .map(str::to_string)
        .collect()
}

#[sqlx::test]
async fn an_entrant_absent_without_notice_from_n_rounds_is_withdrawn_and_the_desk_can_undo_it(
    pool: PgPool,
) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "xiangqi",
        json!({"absent_withdraw_after": 2, "rounds": 5}),
    )
    .await;
    let ids = crate::support::add_entrants(&pool, &token, &sid, 6).await;
    let absent_id = &ids[0];
    // P2 asks for a bye in round 2 (notice): not an absence.
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/entrants/{}/byes", ids[1]),
        Some(json!({"round": 2, "kind": "zero"})),
    )
    .await;
    let r1 = crate::support::play_round(&pool, &token, &sid, forfeit_by("P1")).await;
    assert!(names_in(&r1).contains(&"P1".to_string()));
    let rounds_tab = browser.get(&format!("/admin/s/{sid}/rounds?lang=en")).await;
    assert!(
        rounds_tab.text.contains("No one is at the limit."),
        "one absence is below the rule"
    );
    let r2 = crate::support::play_round(&pool, &token, &sid, forfeit_by("P1")).await;
    assert!(
        names_in(&r2).contains(&"P1".to_string()),
        "one absence: still paired"
    );
    assert!(!names_in(&r2).contains(&"P2".to_string()), "P2's bye");
    // The desk sees who the next pairing withdraws.
    let rounds_tab = browser.get(&format!("/admin/s/{sid}/rounds?lang=en")).await;
    let due = rounds_tab
        .text
        .split("absent-due")
        .nth(1)
        .unwrap_or_else(|| panic!("{}", rounds_tab.text));
    assert!(due.contains("P1") && due.contains("2 absence(s)"), "{due}");
    assert!(!due.contains("P2"));

    // Round 3: P1 is withdrawn from pairing, named in the report and audited.
    let r3 = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    assert!(!names_in(&r3).contains(&"P1".to_string()), "{r3}");
    assert!(
        names_in(&r3).contains(&"P2".to_string()),
        "a bye asked for is notice"
    );
    assert_eq!(
        r3["report"]["withdrawn_for_absence"][0]["name"], "P1",
        "{}",
        r3["report"]
    );
    let audit: Value = sqlx::query_scalar(
        "select after from audit_event where action = 'withdraw_absent' and entity_id = $1::uuid",
    )
    .bind(absent_id)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(audit["from_round"], 3);
    assert_eq!(audit["absences"], 2);
    let rounds_tab = browser.get(&format!("/admin/s/{sid}/rounds?lang=en")).await;
    let withdrawn = rounds_tab
        .text
        .split("absent-withdrawn")
        .nth(1)
        .unwrap_or_else(|| panic!("{}", rounds_tab.text));
    assert!(withdrawn.contains("P1") && withdrawn.contains("withdrawn from round 3"));
    assert!(withdrawn.contains(&format!("/entrants/{absent_id}/readmit")));

    // The desk undoes it before the round is played: unpair, re-admit, pair again.
    let unpaired = call(
        &pool,
        "DELETE",
        &format!("/api/v1/sections/{sid}/rounds/3"),
        Some(&token),
        None,
    )
    .await;
    assert!(unpaired.status.is_success(), "{}", unpaired.text);
    let csrf = crate::support::csrf_of(&rounds_tab.text);
    let readmitted = browser
        .post_form(
            &format!("/admin/s/{sid}/entrants/{absent_id}/readmit"),
            &[("csrf", &csrf)],
        )
        .await;
    assert!(
        readmitted.status.is_redirection() || readmitted.status.is_success(),
        "{}",
        readmitted.text
    );
    let again = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    assert!(
        names_in(&again).contains(&"P1".to_string()),
        "re-admitted: paired, the absences forgiven"
    );
    let rounds_tab = browser.get(&format!("/admin/s/{sid}/rounds?lang=en")).await;
    assert!(rounds_tab.text.contains("No one is at the limit."));
}
