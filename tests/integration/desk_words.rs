//! The desk's words (issue #39 item 8), asserted one by one in the page's language: fouls
//! with their sides, a stale result naming the change numbers, the opponent's report shown
//! to the opponent as theirs to confirm, the fee labels, invitation expiry in the event's
//! time zone, and a used or expired invitation said as such.

use crate::support::{
    add_entrants, admin_token, call, csrf_of, expect, get, tournament_with_section, Browser,
};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// A section of two with round 1 published; (tournament, section, board).
async fn one_board(pool: &PgPool, token: &str) -> (String, String, Value) {
    let (tid, sid) = tournament_with_section(pool, token, "xiangqi", json!({"rounds": 3})).await;
    add_entrants(pool, token, &sid, 2).await;
    let round = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    crate::support::publish(pool, token, &sid, 1).await;
    (tid, sid, round["boards"][0].clone())
}

#[sqlx::test]
async fn fouls_name_their_sides_and_a_stale_result_names_both_changes(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid, board) = one_board(&pool, &token).await;
    let mut desk = Browser::new(&pool);
    desk.log_in("chief", "a long password").await;
    let results = format!("/admin/s/{sid}/rounds/1/results");
    let page = desk.get(&format!("{results}?lang=zh-Hant")).await;
    let csrf = csrf_of(&page.text);
    let saved = desk
        .post_form(
            &format!("{results}?lang=zh-Hant"),
            &[
                ("csrf", csrf.as_str()),
                ("board", "1"),
                ("version", "0"),
                ("result", "draw"),
                ("red_fouls", "1"),
                ("black_fouls", "0"),
            ],
        )
        .await;
    assert!(
        saved.status.is_success() || saved.status.is_redirection(),
        "{}",
        saved.text
    );
    let page = desk.get(&format!("{results}?lang=zh-Hant")).await;
    assert!(page.text.contains("犯規：紅方 1、黑方 0"), "{}", page.text);
    assert!(!page.text.contains("犯規 1 / 犯規 0"), "{}", page.text);
    let en = desk.get(&format!("{results}?lang=en")).await;
    assert!(en.text.contains("fouls: Red 1, Black 0"), "{}", en.text);

    // A second desk still holding change 0 is told both change numbers, in words.
    let stale = desk
        .post_form(
            &format!("{results}?lang=zh-Hant"),
            &[
                ("csrf", csrf.as_str()),
                ("board", "1"),
                ("version", "0"),
                ("result", "red_wins"),
                ("red_fouls", "0"),
                ("black_fouls", "0"),
            ],
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    assert!(
        stale.text.contains("目前為第 1 次修改，你看到的是第 0 次"),
        "{}",
        stale.text
    );
    assert!(!stale.text.contains("版本 1"), "{}", stale.text);
    let board_id = board["id"].as_str().unwrap();
    let round = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/rounds/1")).await,
        StatusCode::OK,
    );
    assert_eq!(round["boards"][0]["id"], board_id);
    assert_eq!(
        round["boards"][0]["result"], "draw",
        "the stale change was not written"
    );
}

#[sqlx::test]
async fn the_opponent_sees_a_report_as_theirs_to_confirm(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid, board) = one_board(&pool, &token).await;
    let keys = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/keys"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let key_of = |name: &str| {
        keys.as_array()
            .unwrap()
            .iter()
            .find(|k| k["name"] == name)
            .map(|k| k["key"].as_str().unwrap().to_string())
            .unwrap()
    };
    let red = key_of(board["red"]["name"].as_str().unwrap());
    let black = key_of(board["black"]["name"].as_str().unwrap());
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/keys/{red}/report"),
            None,
            Some(json!({"result": "red_wins"})),
        )
        .await,
        StatusCode::OK,
    );
    let mine = get(&pool, &format!("/k/{red}?lang=zh-Hant")).await;
    assert!(
        mine.text.contains("等待對手確認"),
        "the reporter waits: {}",
        mine.text
    );
    let theirs = get(&pool, &format!("/k/{black}?lang=zh-Hant")).await;
    assert!(
        theirs
            .text
            .contains("對手已回報此局：請確認，或回報實際結果。"),
        "{}",
        theirs.text
    );
    assert!(!theirs.text.contains("等待對手確認"), "{}", theirs.text);
}

#[sqlx::test]
async fn the_desk_names_the_fee_tier_and_the_fee_due_apart(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "xiangqi",
        json!({"rounds": 3, "fee_tiers": [{"name": "Member", "amount": 10}]}),
    )
    .await;
    add_entrants(&pool, &token, &sid, 2).await;
    let mut desk = Browser::new(&pool);
    desk.log_in("chief", "a long password").await;
    let print = desk
        .get(&format!("/admin/s/{sid}/desk/print?lang=zh-Hant"))
        .await;
    if print.status == StatusCode::OK {
        assert!(print.text.contains("收費級別"), "{}", print.text);
        assert!(print.text.contains("應繳金額"), "{}", print.text);
        assert!(print.text.matches("報名費").count() <= 1, "{}", print.text);
    } else {
        panic!("the desk print: {} {}", print.status, print.text);
    }
}

#[sqlx::test]
async fn invitations_expire_in_the_events_zone_and_say_when_used_or_expired(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, _) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
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
    let made = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/invitations"),
            Some(&token),
            Some(json!({"role": "scorer"})),
        )
        .await,
        StatusCode::CREATED,
    );
    let expires = chrono::DateTime::parse_from_rfc3339(made["expires_at"].as_str().unwrap())
        .unwrap()
        .with_timezone(&chrono_tz::America::Toronto);
    let mut desk = Browser::new(&pool);
    desk.log_in("chief", "a long password").await;
    let staff = desk.get(&format!("/admin/t/{tid}/staff?lang=en")).await;
    let local = format!("{} America/Toronto", expires.format("%Y-%m-%d %H:%M"));
    assert!(staff.text.contains(&local), "{local} in {}", staff.text);

    // Used: the page says so (409), in the visitor's language.
    let used_token = made["token"].as_str().unwrap();
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/invitations/{used_token}"),
            None,
            Some(json!({"username": "scorer", "password": "a long password"})),
        )
        .await,
        StatusCode::CREATED,
    );
    let again = get(&pool, &format!("/invite/{used_token}?lang=zh-Hant")).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert!(again.text.contains("此邀請連結已被使用"), "{}", again.text);

    // Expired: said as expired, not as unknown.
    let old = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/invitations"),
            Some(&token),
            Some(json!({"role": "arbiter"})),
        )
        .await,
        StatusCode::CREATED,
    );
    sqlx::query(
        "update staff_invitation set expires_at = now() - interval '1 hour' where used_at is null",
    )
    .execute(&pool)
    .await
    .unwrap();
    let expired_token = old["token"].as_str().unwrap();
    let page = get(&pool, &format!("/invite/{expired_token}?lang=en")).await;
    assert_eq!(page.status, StatusCode::CONFLICT, "{}", page.text);
    assert!(
        page.text.contains("this invitation link has expired"),
        "{}",
        page.text
    );
    let api = call(
        &pool,
        "POST",
        &format!("/api/v1/invitations/{expired_token}"),
        None,
        Some(json!({"username": "late", "password": "a long password"})),
    )
    .await;
    assert_eq!(api.status, StatusCode::CONFLICT, "{}", api.text);
    assert!(api.text.contains("expired"), "{}", api.text);
}
