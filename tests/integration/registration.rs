//! Registration: cap → waitlist → promotion, payment first, minimum → cancel, random split.

use crate::support::{add_entrants, admin_token, call, expect, get, tournament_with_section};
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

fn form(name: &str) -> serde_json::Value {
    json!({"name": name, "email": format!("{name}@example.org"), "phone": "555-0100", "gender": "f"})
}

#[sqlx::test]
async fn the_cap_waitlists_and_a_withdrawal_promotes_the_next_in_line(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "jieqi", json!({"cap": 2})).await;
    let uri = format!("/api/v1/sections/{sid}/registrations");
    let a = expect(
        &call(&pool, "POST", &uri, None, Some(form("a"))).await,
        StatusCode::CREATED,
    );
    let b = expect(
        &call(&pool, "POST", &uri, None, Some(form("b"))).await,
        StatusCode::CREATED,
    );
    let c = expect(
        &call(&pool, "POST", &uri, None, Some(form("c"))).await,
        StatusCode::CREATED,
    );
    assert_eq!(a["status"], "confirmed");
    assert_eq!(b["status"], "confirmed");
    assert_eq!(c["status"], "waitlisted");
    assert_eq!(c["waitlist_position"], 1);
    assert!(
        c.get("email").is_none(),
        "the public answer carries no contact data"
    );

    // The public list shows names and statuses only.
    let public = expect(&get(&pool, &uri).await, StatusCode::OK);
    assert!(!public.to_string().contains("example.org"));
    assert!(!public.to_string().contains("555-0100"));
    let private = expect(
        &call(&pool, "GET", &uri, Some(&token), None).await,
        StatusCode::OK,
    );
    assert_eq!(private[0]["email"], "a@example.org");

    // Confirming the waitlisted one is refused while full.
    let full = call(
        &pool,
        "POST",
        &format!(
            "/api/v1/registrations/{}/confirm",
            c["id"].as_str().unwrap()
        ),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(full.status, StatusCode::CONFLICT);

    // b pays, then withdraws: the fee is due back and c moves up.
    let paid = expect(
        &call(
            &pool,
            "POST",
            &format!(
                "/api/v1/registrations/{}/payment",
                b["id"].as_str().unwrap()
            ),
            Some(&token),
            Some(json!({"state": "paid", "method": "cash"})),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(paid["payment_state"], "paid");
    let gone = expect(
        &call(
            &pool,
            "POST",
            &format!(
                "/api/v1/registrations/{}/withdraw",
                b["id"].as_str().unwrap()
            ),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(gone["status"], "withdrawn");
    assert_eq!(gone["payment_state"], "refund_due");
    let list = expect(
        &call(&pool, "GET", &uri, Some(&token), None).await,
        StatusCode::OK,
    );
    let c_now = list
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == c["id"])
        .unwrap();
    assert_eq!(c_now["status"], "confirmed");
    let entrants = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/entrants")).await,
        StatusCode::OK,
    );
    let names: Vec<&str> = entrants
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["a", "c"]);
}

#[sqlx::test]
async fn with_payment_required_a_place_is_held_only_once_paid(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "jieqi",
        json!({"cap": 2, "payment_required": true, "fee_tiers": [{"name": "member", "amount": 10}, {"name": "guest", "amount": 20}]}),
    )
    .await;
    let uri = format!("/api/v1/sections/{sid}/registrations");
    let no_tier = expect(
        &call(&pool, "POST", &uri, None, Some(form("x"))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(no_tier["errors"]["fee_tier"][0]
        .as_str()
        .unwrap()
        .contains("choose"));
    let mut ids = Vec::new();
    for (name, tier) in [("a", "guest"), ("b", "member"), ("c", "member")] {
        let mut body = form(name);
        body["fee_tier"] = json!(tier);
        let r = expect(
            &call(&pool, "POST", &uri, None, Some(body)).await,
            StatusCode::CREATED,
        );
        // Unpaid registrations hold no place yet: all three wait for their payment.
        assert_eq!(r["status"], "pending");
        ids.push(r["id"].as_str().unwrap().to_string());
    }
    let reg = expect(
        &call(&pool, "GET", &uri, Some(&token), None).await,
        StatusCode::OK,
    );
    assert_eq!(reg[0]["fee_amount"], 20);
    let pay = |id: String| {
        let pool = pool.clone();
        let token = token.clone();
        async move {
            expect(
                &call(
                    &pool,
                    "POST",
                    &format!("/api/v1/registrations/{id}/payment"),
                    Some(&token),
                    Some(json!({"state": "paid"})),
                )
                .await,
                StatusCode::OK,
            )
        }
    };
    // First come, first served among those who pay: c and a take the two places, b waits.
    assert_eq!(pay(ids[2].clone()).await["status"], "confirmed");
    assert_eq!(pay(ids[0].clone()).await["status"], "confirmed");
    assert_eq!(pay(ids[1].clone()).await["status"], "waitlisted");
}

#[sqlx::test]
async fn a_section_below_its_minimum_is_cancelled_with_refunds_listed(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "jieqi",
        json!({"min_entries": 20, "fee_tiers": [{"name": "fee", "amount": 50}]}),
    )
    .await;
    let uri = format!("/api/v1/sections/{sid}/registrations");
    let a = expect(
        &call(&pool, "POST", &uri, None, Some(form("a"))).await,
        StatusCode::CREATED,
    );
    expect(
        &call(&pool, "POST", &uri, None, Some(form("b"))).await,
        StatusCode::CREATED,
    );
    expect(
        &call(
            &pool,
            "POST",
            &format!(
                "/api/v1/registrations/{}/payment",
                a["id"].as_str().unwrap()
            ),
            Some(&token),
            Some(json!({"state": "paid"})),
        )
        .await,
        StatusCode::OK,
    );
    let outcome = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/cancel"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(outcome["cancelled"], 2);
    assert_eq!(outcome["refunds"].as_array().unwrap().len(), 1);
    assert_eq!(outcome["refunds"][0]["amount"], 50);
    let list = expect(
        &call(&pool, "GET", &uri, Some(&token), None).await,
        StatusCode::OK,
    );
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["status"] == "cancelled"));
    let closed = expect(
        &call(&pool, "POST", &uri, None, Some(form("late"))).await,
        StatusCode::CONFLICT,
    );
    assert!(closed["message"].as_str().unwrap().contains("cancelled"));
}

#[sqlx::test]
async fn a_section_at_its_minimum_cannot_be_cancelled(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "jieqi", json!({"min_entries": 2})).await;
    add_entrants(&pool, &token, &sid, 2).await;
    let refused = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/cancel"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CONFLICT,
    );
    assert!(refused["message"].as_str().unwrap().contains("minimum"));
}

#[sqlx::test]
async fn the_waiver_and_the_registration_window_are_enforced(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "jieqi", json!({"registration_closes_at": "2000-01-01T00:00:00Z", "registration_opens_at": "1999-01-01T00:00:00Z"})).await;
    let closed = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/registrations"),
            None,
            Some(form("a")),
        )
        .await,
        StatusCode::CONFLICT,
    );
    assert_eq!(closed["message"], "registration is closed");
    expect(
        &call(
            &pool,
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            Some(&token),
            Some(json!({"waiver_text": "I play at my own risk."})),
        )
        .await,
        StatusCode::OK,
    );
    let s2 = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(&token),
            Some(json!({"name": "B", "rounds": 5})),
        )
        .await,
        StatusCode::CREATED,
    );
    let uri = format!(
        "/api/v1/sections/{}/registrations",
        s2["id"].as_str().unwrap()
    );
    let refused = expect(
        &call(&pool, "POST", &uri, None, Some(form("a"))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(refused["errors"].get("waiver_accepted").is_some());
    let mut body = form("a");
    body["waiver_accepted"] = json!(true);
    expect(
        &call(&pool, "POST", &uri, None, Some(body)).await,
        StatusCode::CREATED,
    );
}

#[sqlx::test]
async fn a_random_split_is_previewed_reproducibly_then_applied(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(
        &pool,
        &token,
        "banqi",
        json!({"name": "Pool", "pairing_system": "dutch"}),
    )
    .await;
    add_entrants(&pool, &token, &sid, 9).await;
    let uri = format!("/api/v1/tournaments/{tid}/split");
    let body = json!({"section_id": sid, "sections": ["Public 1", "Public 2"], "seed": 42});
    let first = expect(
        &call(&pool, "POST", &uri, Some(&token), Some(body.clone())).await,
        StatusCode::OK,
    );
    let again = expect(
        &call(&pool, "POST", &uri, Some(&token), Some(body.clone())).await,
        StatusCode::OK,
    );
    assert_eq!(first, again, "same seed, same split");
    assert_eq!(first["applied"], false);
    let sizes: Vec<usize> = first["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["entrants"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, vec![5, 4]);

    let mut apply = body.clone();
    apply["apply"] = json!(true);
    let applied = expect(
        &call(&pool, "POST", &uri, Some(&token), Some(apply)).await,
        StatusCode::OK,
    );
    assert_eq!(
        applied["sections"][0]["entrants"],
        first["sections"][0]["entrants"]
    );
    let new_id = applied["sections"][0]["section_id"].as_str().unwrap();
    let moved = expect(
        &get(&pool, &format!("/api/v1/sections/{new_id}/entrants")).await,
        StatusCode::OK,
    );
    assert_eq!(moved.as_array().unwrap().len(), 5);
    let numbers: Vec<i64> = moved
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["start_no"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, vec![1, 2, 3, 4, 5]);
    let new_section = expect(
        &get(&pool, &format!("/api/v1/sections/{new_id}")).await,
        StatusCode::OK,
    );
    assert_eq!(new_section["pairing_system"], "dutch");
    let left = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/entrants")).await,
        StatusCode::OK,
    );
    assert!(left.as_array().unwrap().is_empty());
    let too_few = call(
        &pool,
        "POST",
        &uri,
        Some(&token),
        Some(json!({"section_id": sid, "sections": ["Only"]})),
    )
    .await;
    assert_eq!(too_few.status, StatusCode::UNPROCESSABLE_ENTITY);
}
