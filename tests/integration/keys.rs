//! Every player has a key (issue 36): a key reports for its own side of its own board only,
//! agreement needs both sides' credentials, a dispute stays the desk's, re-issued keys stop
//! working, self check-in keeps to its window, a desk entry in a checked-in-only section is
//! paired, a right key or code always works from an address locked out for guesses, and the
//! key is in no audit row or public page.

use crate::support::{add_entrants, admin_token, call, expect, get, tournament_with_section};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// A Xiangqi section of 6 with round 1 paired and published; (section id, token, boards).
async fn published(pool: &PgPool, settings: Value) -> (String, String, Vec<Value>) {
    let token = admin_token(pool).await;
    let (_, sid) = tournament_with_section(pool, &token, "xiangqi", settings).await;
    add_entrants(pool, &token, &sid, 6).await;
    let round = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds/1/publish"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    (sid, token, round["boards"].as_array().unwrap().clone())
}

/// The key of an entrant, as the desk's list gives it.
async fn key_of(pool: &PgPool, token: &str, sid: &str, entrant_id: &str) -> String {
    let keys = expect(
        &call(
            pool,
            "GET",
            &format!("/api/v1/sections/{sid}/keys"),
            Some(token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let key = keys
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["entrant_id"] == entrant_id)
        .unwrap_or_else(|| panic!("no key for {entrant_id}: {keys}"));
    assert_eq!(key["path"], format!("/k/{}", key["key"].as_str().unwrap()));
    key["key"].as_str().unwrap().to_string()
}

/// The keys of a board's Red and Black.
async fn side_keys(pool: &PgPool, token: &str, sid: &str, board: &Value) -> (String, String) {
    let red = board["red"]["entrant_id"]
        .as_str()
        .or_else(|| board["red"]["id"].as_str())
        .unwrap_or_else(|| panic!("no red id: {board}"));
    let black = board["black"]["entrant_id"]
        .as_str()
        .or_else(|| board["black"]["id"].as_str())
        .unwrap_or_else(|| panic!("no black id: {board}"));
    (
        key_of(pool, token, sid, red).await,
        key_of(pool, token, sid, black).await,
    )
}

async fn key_report(pool: &PgPool, key: &str, body: Value) -> crate::support::Reply {
    call(
        pool,
        "POST",
        &format!("/api/v1/keys/{key}/report"),
        None,
        Some(body),
    )
    .await
}

async fn code_report(pool: &PgPool, code: &str, body: Value) -> crate::support::Reply {
    call(
        pool,
        "POST",
        &format!("/api/v1/reports/{code}"),
        None,
        Some(body),
    )
    .await
}

async fn codes_of(pool: &PgPool, board_id: &str) -> (String, String) {
    sqlx::query_as::<_, (String, String)>(
        "select report_code, black_code from board where board_id = $1::uuid",
    )
    .bind(board_id)
    .fetch_one(pool)
    .await
    .unwrap()
}

async fn result_of(pool: &PgPool, sid: &str, board_no: usize) -> Value {
    let round = expect(
        &get(pool, &format!("/api/v1/sections/{sid}/rounds/1")).await,
        StatusCode::OK,
    );
    round["boards"][board_no]["result"].clone()
}

#[sqlx::test]
async fn one_key_or_code_never_reports_for_both_sides(pool: PgPool) {
    let (sid, token, boards) = published(&pool, json!({"self_report": "agreement"})).await;
    let (red_key, black_key) = side_keys(&pool, &token, &sid, &boards[0]).await;
    let board_id = boards[0]["id"].as_str().unwrap();
    let (red_code, black_code) = codes_of(&pool, board_id).await;

    // The key opens its own board with its own side.
    let view = expect(
        &get(&pool, &format!("/api/v1/keys/{red_key}")).await,
        StatusCode::OK,
    );
    assert_eq!(view["board"]["board_id"], board_id);
    assert_eq!(view["board"]["side"], "red");
    assert_eq!(view["can_report"], true);

    // Red's key reports Red's side; it cannot name Black's (422), nor can Red's code.
    let one = expect(
        &key_report(&pool, &red_key, json!({"result": "red_wins"})).await,
        StatusCode::OK,
    );
    assert_eq!(one["board"]["side"], "red");
    assert_eq!(one["accepted"], false);
    let forged = key_report(
        &pool,
        &red_key,
        json!({"side": "black", "result": "red_wins"}),
    )
    .await;
    assert_eq!(
        forged.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        forged.text
    );
    let forged = code_report(
        &pool,
        &red_code,
        json!({"side": "black", "result": "red_wins"}),
    )
    .await;
    assert_eq!(
        forged.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        forged.text
    );
    // Red's code and key again: still only Red's report, still waiting, nothing recorded.
    let again = expect(
        &code_report(&pool, &red_code, json!({"result": "red_wins"})).await,
        StatusCode::OK,
    );
    assert_eq!(again["board"]["agreement"], "waiting");
    assert_eq!(again["accepted"], false);
    assert!(result_of(&pool, &sid, 0).await.is_null());

    // Black's own code agrees: accepted on agreement.
    let agreed = expect(
        &code_report(&pool, &black_code, json!({"result": "red_wins"})).await,
        StatusCode::OK,
    );
    assert_eq!(agreed["accepted"], true);
    assert_eq!(result_of(&pool, &sid, 0).await, "red_wins");

    // Board 2 by both keys.
    let (red2, black2) = side_keys(&pool, &token, &sid, &boards[1]).await;
    expect(
        &key_report(&pool, &red2, json!({"result": "draw"})).await,
        StatusCode::OK,
    );
    let done = expect(
        &key_report(&pool, &black2, json!({"side": "black", "result": "draw"})).await,
        StatusCode::OK,
    );
    assert_eq!(done["accepted"], true);
    assert_eq!(result_of(&pool, &sid, 1).await, "draw");
    // Black's key of board 1 cannot report again once the result is in.
    let late = key_report(&pool, &black_key, json!({"result": "black_wins"})).await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.text);
}

#[sqlx::test]
async fn a_key_reports_only_its_own_board(pool: PgPool) {
    let (sid, token, boards) = published(&pool, json!({})).await;
    let (red_key, _) = side_keys(&pool, &token, &sid, &boards[1]).await;
    expect(
        &key_report(&pool, &red_key, json!({"result": "red_wins"})).await,
        StatusCode::OK,
    );
    let queue = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/reports"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let queue = queue.as_array().unwrap();
    assert_eq!(queue.len(), 1);
    assert_eq!(queue[0]["board_id"], boards[1]["id"]);

    // A late entrant has no board in round 1: nothing to report (409).
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
    let late_key = key_of(&pool, &token, &sid, late["id"].as_str().unwrap()).await;
    let view = expect(
        &get(&pool, &format!("/api/v1/keys/{late_key}")).await,
        StatusCode::OK,
    );
    assert!(view["board"].is_null(), "{view}");
    let refused = key_report(&pool, &late_key, json!({"result": "red_wins"})).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);

    // A key of another section reports in its own section only: it does not reach this one.
    let (_, other) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let ids = add_entrants(&pool, &token, &other, 2).await;
    let stranger = key_of(&pool, &token, &other, &ids[0]).await;
    let refused = key_report(&pool, &stranger, json!({"result": "black_wins"})).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    let view = expect(
        &get(&pool, &format!("/api/v1/keys/{stranger}")).await,
        StatusCode::OK,
    );
    assert_eq!(view["section_id"], other);
}

#[sqlx::test]
async fn a_disputed_board_stays_disputed_until_the_desk_decides(pool: PgPool) {
    let (sid, token, boards) = published(&pool, json!({"self_report": "agreement"})).await;
    let (red_key, black_key) = side_keys(&pool, &token, &sid, &boards[0]).await;
    let board_id = boards[0]["id"].as_str().unwrap();
    let (red_code, black_code) = codes_of(&pool, board_id).await;
    expect(
        &key_report(&pool, &red_key, json!({"result": "red_wins"})).await,
        StatusCode::OK,
    );
    let disputed = expect(
        &key_report(&pool, &black_key, json!({"result": "black_wins"})).await,
        StatusCode::OK,
    );
    assert_eq!(disputed["board"]["agreement"], "disputed");
    // Neither side can turn it into an agreement, by key or by code.
    for reply in [
        key_report(&pool, &red_key, json!({"result": "black_wins"})).await,
        key_report(&pool, &black_key, json!({"result": "red_wins"})).await,
        code_report(&pool, &red_code, json!({"result": "black_wins"})).await,
        code_report(&pool, &black_code, json!({"result": "red_wins"})).await,
    ] {
        assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.text);
    }
    let view = expect(
        &get(&pool, &format!("/api/v1/keys/{red_key}")).await,
        StatusCode::OK,
    );
    assert_eq!(view["board"]["agreement"], "disputed");
    assert_eq!(view["can_report"], false);
    assert!(result_of(&pool, &sid, 0).await.is_null());

    // The desk dismisses: the players may report again.
    let dismissed = call(
        &pool,
        "POST",
        &format!("/api/v1/boards/{board_id}/reports/dismiss"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(
        dismissed.status,
        StatusCode::NO_CONTENT,
        "{}",
        dismissed.text
    );
    expect(
        &key_report(&pool, &red_key, json!({"result": "draw"})).await,
        StatusCode::OK,
    );
    let agreed = expect(
        &key_report(&pool, &black_key, json!({"result": "draw"})).await,
        StatusCode::OK,
    );
    assert_eq!(agreed["accepted"], true);
}

#[sqlx::test]
async fn a_reissued_key_replaces_the_old_one(pool: PgPool) {
    let (sid, token, boards) = published(&pool, json!({})).await;
    let red = boards[0]["red"]["id"]
        .as_str()
        .or_else(|| boards[0]["red"]["entrant_id"].as_str())
        .unwrap()
        .to_string();
    let old = key_of(&pool, &token, &sid, &red).await;
    let issued = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/entrants/{red}/key"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let new = issued["key"].as_str().unwrap();
    assert_ne!(new, old);
    assert_eq!(new.len(), 16);
    let gone = get(&pool, &format!("/api/v1/keys/{old}")).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text);
    let refused = key_report(&pool, &old, json!({"result": "red_wins"})).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    expect(
        &get(&pool, &format!("/api/v1/keys/{new}")).await,
        StatusCode::OK,
    );
    // A wrong key and an old key answer alike: one message.
    let wrong = get(&pool, "/api/v1/keys/ZZZZZZZZZZZZZZZZ").await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND);
    assert_eq!(wrong.text, gone.text);
    // Audited, without the key.
    let audit: Vec<String> = sqlx::query_scalar(
        "select coalesce(after::text, '') || coalesce(before::text, '') from audit_event
         where action = 'reissue_key'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(audit.len(), 1);
    assert!(!audit[0].contains(new) && !audit[0].contains(&old));
}

async fn put_window(pool: &PgPool, token: &str, sid: &str, body: Value) -> crate::support::Reply {
    call(
        pool,
        "PUT",
        &format!("/api/v1/sections/{sid}/check-in-settings"),
        Some(token),
        Some(body),
    )
    .await
}

#[sqlx::test]
async fn self_check_in_keeps_to_its_window(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    // A registration confirmed at once answers with the player's key page, once.
    let registered = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/registrations"),
            None,
            Some(json!({"name": "Wong Ka Ho"})),
        )
        .await,
        StatusCode::CREATED,
    );
    let path = registered["key_path"]
        .as_str()
        .unwrap_or_else(|| panic!("{registered}"));
    let key = path.strip_prefix("/k/").unwrap().to_string();
    let listed = get(&pool, &format!("/api/v1/sections/{sid}/registrations")).await;
    assert!(!listed.text.contains(&key));
    let check_in = |method: &'static str| {
        let pool = pool.clone();
        let key = key.clone();
        async move {
            call(
                &pool,
                method,
                &format!("/api/v1/keys/{key}/check-in"),
                None,
                None,
            )
            .await
        }
    };

    // Self check-in off: 409.
    assert_eq!(check_in("POST").await.status, StatusCode::CONFLICT);
    // A window in the past: 409.
    let now = chrono::Utc::now();
    let hour = chrono::Duration::hours(1);
    expect(
        &put_window(
            &pool,
            &token,
            &sid,
            json!({"self_check_in": true, "check_in_opens_at": now - hour * 3,
                   "check_in_closes_at": now - hour}),
        )
        .await,
        StatusCode::OK,
    );
    let closed = check_in("POST").await;
    assert_eq!(closed.status, StatusCode::CONFLICT, "{}", closed.text);
    // A window that closes before it opens is refused.
    let bad = put_window(
        &pool,
        &token,
        &sid,
        json!({"self_check_in": true, "check_in_opens_at": now + hour,
               "check_in_closes_at": now - hour}),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    // Inside the window: in, and the desk sees who checked in themselves; then out.
    expect(
        &put_window(
            &pool,
            &token,
            &sid,
            json!({"self_check_in": true, "check_in_opens_at": now - hour,
                   "check_in_closes_at": now + hour}),
        )
        .await,
        StatusCode::OK,
    );
    let state = expect(&check_in("POST").await, StatusCode::OK);
    assert_eq!(state["checked_in"], true);
    assert_eq!(state["by_self"], true);
    let entrants = expect(
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
    assert_eq!(entrants[0]["checked_in"], true);
    assert_eq!(entrants[0]["checked_in_by_self"], true, "{entrants}");
    let actor: String =
        sqlx::query_scalar("select actor from audit_event where action = 'check_in'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(actor, "player");
    let state = expect(&check_in("DELETE").await, StatusCode::OK);
    assert_eq!(state["checked_in"], false);
}

#[sqlx::test]
async fn a_desk_entry_in_a_checked_in_only_section_is_paired(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "xiangqi",
        json!({"pair_checked_in_only": true}),
    )
    .await;
    // Three registered online and checked in at the desk, one late entrant added at the desk.
    for name in ["A One", "B Two", "C Three"] {
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
        let key = r["key_path"]
            .as_str()
            .unwrap()
            .strip_prefix("/k/")
            .unwrap()
            .to_string();
        let view = expect(
            &get(&pool, &format!("/api/v1/keys/{key}")).await,
            StatusCode::OK,
        );
        let id = view["entrant"]["id"].as_str().unwrap().to_string();
        expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/entrants/{id}/check-in"),
                Some(&token),
                None,
            )
            .await,
            StatusCode::OK,
        );
    }
    let late = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&token),
            Some(json!({"name": "D Late"})),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(late["checked_in"], true);
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
    assert!(round.to_string().contains("D Late"), "{round}");
}

#[sqlx::test]
async fn wrong_keys_from_an_address_do_not_stop_a_right_key_or_code(pool: PgPool) {
    let (sid, token, boards) = published(&pool, json!({})).await;
    let (red_key, _) = side_keys(&pool, &token, &sid, &boards[0]).await;
    let (_, black_code) = codes_of(&pool, boards[0]["id"].as_str().unwrap()).await;
    let mut statuses = Vec::new();
    for i in 0..32u64 {
        let guess = format!("ZZZZZZZZZZZZ{:04}", i);
        statuses.push(get(&pool, &format!("/api/v1/keys/{guess}")).await.status);
    }
    assert!(
        statuses[..30].iter().all(|s| *s == StatusCode::NOT_FOUND),
        "{statuses:?}"
    );
    assert_eq!(statuses[31], StatusCode::TOO_MANY_REQUESTS);
    // The address is locked out for guesses, yet the right key and the right code work.
    expect(
        &get(&pool, &format!("/api/v1/keys/{red_key}")).await,
        StatusCode::OK,
    );
    expect(
        &key_report(&pool, &red_key, json!({"result": "red_wins"})).await,
        StatusCode::OK,
    );
    expect(
        &get(&pool, &format!("/api/v1/reports/{black_code}")).await,
        StatusCode::OK,
    );
    expect(
        &code_report(&pool, &black_code, json!({"result": "red_wins"})).await,
        StatusCode::OK,
    );
    // A wrong guess is still refused.
    assert_eq!(
        get(&pool, "/api/v1/keys/ZZZZZZZZZZZZ9999").await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

/// `GET uri` from `ip`, through a router whose wrong-key limit across all addresses is
/// `space` guesses.
async fn get_from(pool: &PgPool, uri: &str, ip: &str, space: i32) -> StatusCode {
    use axum::extract::ConnectInfo;
    use tower::ServiceExt;
    let mut state = crate::support::state(pool);
    let mut security = (*state.security).clone();
    security.limits.report_space.limit = space;
    state.security = std::sync::Arc::new(security);
    let mut request = axum::http::Request::get(uri)
        .body(axum::body::Body::empty())
        .expect("request");
    let addr: std::net::SocketAddr = format!("{ip}:40000").parse().expect("address");
    request.extensions_mut().insert(ConnectInfo(addr));
    arbiter::http::app(state)
        .oneshot(request)
        .await
        .expect("router is infallible")
        .status()
}

#[sqlx::test]
async fn guesses_spread_over_many_addresses_meet_the_key_space_limit(pool: PgPool) {
    let (sid, token, boards) = published(&pool, json!({})).await;
    let (red_key, _) = side_keys(&pool, &token, &sid, &boards[0]).await;
    let (red_code, _) = codes_of(&pool, boards[0]["id"].as_str().unwrap()).await;
    // Forty addresses, two guesses each: no address comes near its own limit of 30, but the
    // key space's limit (here 50) stops the guessing.
    let mut statuses = Vec::new();
    for i in 0..40u64 {
        for j in 0..2u64 {
            let guess = format!("ZZZZZZZZZZZZ{:02}{:02}", i, j);
            let ip = format!("198.51.100.{}", i + 1);
            statuses.push(get_from(&pool, &format!("/api/v1/keys/{guess}"), &ip, 50).await);
        }
    }
    assert!(
        statuses[..50].iter().all(|s| *s == StatusCode::NOT_FOUND),
        "{statuses:?}"
    );
    assert!(
        statuses[51..]
            .iter()
            .all(|s| *s == StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    // A fresh address's wrong code is refused as well: the space is locked, not the address.
    assert_eq!(
        get_from(&pool, "/api/v1/reports/ZZZZZZZZZZZZ", "203.0.113.9", 50).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // The right key and the right code still open, from a guessing address and a fresh one.
    for ip in ["198.51.100.1", "203.0.113.9"] {
        assert_eq!(
            get_from(&pool, &format!("/api/v1/keys/{red_key}"), ip, 50).await,
            StatusCode::OK
        );
        assert_eq!(
            get_from(&pool, &format!("/api/v1/reports/{red_code}"), ip, 50).await,
            StatusCode::OK
        );
    }
}

#[sqlx::test]
async fn an_ipv6_prefix_is_one_guesser(pool: PgPool) {
    published(&pool, json!({})).await;
    // Thirty-one addresses of one /64: each guesses once, the prefix is locked after 30.
    let mut statuses = Vec::new();
    for i in 0..31u64 {
        let ip = format!("[2001:db8:5:6::{:x}]", i + 1);
        let guess = format!("ZZZZZZZZZZZZ{:04}", i);
        statuses.push(get_from(&pool, &format!("/api/v1/keys/{guess}"), &ip, 10_000).await);
    }
    assert!(
        statuses[..30].iter().all(|s| *s == StatusCode::NOT_FOUND),
        "{statuses:?}"
    );
    assert_eq!(statuses[30], StatusCode::TOO_MANY_REQUESTS);
    // Another prefix guesses on.
    assert_eq!(
        get_from(
            &pool,
            "/api/v1/keys/ZZZZZZZZZZZZ9999",
            "[2001:db8:5:7::1]",
            10_000
        )
        .await,
        StatusCode::NOT_FOUND
    );
}

#[sqlx::test]
async fn the_key_is_in_no_audit_row_log_or_public_page(pool: PgPool) {
    let (sid, token, boards) = published(&pool, json!({})).await;
    expect(
        &put_window(&pool, &token, &sid, json!({"self_check_in": true})).await,
        StatusCode::OK,
    );
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
    let keys: Vec<String> = keys
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["key"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(keys.len(), 6);
    let (red_key, _) = side_keys(&pool, &token, &sid, &boards[0]).await;
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/keys/{red_key}/check-in"),
            None,
            None,
        )
        .await,
        StatusCode::OK,
    );
    expect(
        &key_report(&pool, &red_key, json!({"result": "red_wins"})).await,
        StatusCode::OK,
    );
    let audit: Vec<String> = sqlx::query_scalar(
        "select concat_ws(' ', actor, action, entity, before::text, after::text) from audit_event",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(audit.len() > 5);
    let tid: String =
        sqlx::query_scalar("select tournament_id::text from section where section_id = $1::uuid")
            .bind(&sid)
            .fetch_one(&pool)
            .await
            .unwrap();
    let mut pages = Vec::new();
    for path in [
        format!("/s/{sid}"),
        format!("/s/{sid}/entrants"),
        format!("/s/{sid}/pairings/1"),
        format!("/s/{sid}/now"),
        format!("/s/{sid}/standings"),
        format!("/t/{tid}"),
        format!("/api/v1/sections/{sid}/entrants"),
        format!("/api/v1/sections/{sid}/rounds/1"),
    ] {
        pages.push((path.clone(), get(&pool, &path).await.text));
    }
    for key in &keys {
        for row in &audit {
            assert!(!row.contains(key.as_str()), "key in the audit log: {row}");
        }
        for (path, text) in &pages {
            assert!(!text.contains(key.as_str()), "key on {path}");
        }
    }
    // The player's own page carries it, privately.
    let page = get(&pool, &format!("/k/{red_key}")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    let cache = page
        .headers
        .get("cache-control")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(
        cache.contains("no-store") && cache.contains("private"),
        "{cache}"
    );
    assert_eq!(
        page.headers
            .get("referrer-policy")
            .and_then(|v| v.to_str().ok()),
        Some("no-referrer")
    );
    // The request log shows no key.
    let uri = format!("/k/{red_key}").parse::<axum::http::Uri>().unwrap();
    assert!(!arbiter::http::redacted_uri(&uri).contains(&red_key));
}

#[sqlx::test]
async fn only_the_tournament_s_arbiters_list_keys(pool: PgPool) {
    let chief = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &chief, "xiangqi", json!({})).await;
    add_entrants(&pool, &chief, &sid, 2).await;
    let other = crate::support::token_for(&pool, "stranger", "user").await;
    let path = format!("/api/v1/sections/{sid}/keys");
    assert_eq!(
        call(&pool, "GET", &path, None, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        call(&pool, "GET", &path, Some(&other), None).await.status,
        StatusCode::FORBIDDEN
    );
    let keys = expect(
        &call(&pool, "GET", &path, Some(&chief), None).await,
        StatusCode::OK,
    );
    assert_eq!(keys.as_array().unwrap().len(), 2);
}

#[sqlx::test]
async fn the_desk_prints_key_cards_and_reissues_a_key(pool: PgPool) {
    use crate::support::{csrf_of, Browser};
    let chief = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &chief, "xiangqi", json!({})).await;
    let ids = add_entrants(&pool, &chief, &sid, 3).await;
    let old = key_of(&pool, &chief, &sid, &ids[0]).await;
    let anonymous = get(&pool, &format!("/admin/s/{sid}/keys/print")).await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
    let mut desk = Browser::new(&pool);
    desk.log_in("chief", "a long password").await;
    let cards = desk.get(&format!("/admin/s/{sid}/keys/print")).await;
    assert_eq!(cards.status, StatusCode::OK, "{}", cards.text);
    assert_eq!(cards.text.matches("class=\"key-card\"").count(), 3);
    let printed = format!(
        "{}-{}-{}-{}",
        &old[..4],
        &old[4..8],
        &old[8..12],
        &old[12..]
    );
    assert!(cards.text.contains(&printed), "{}", cards.text);
    assert!(cards.text.contains(&format!("/k/{old}")));
    let edit = desk
        .get(&format!("/admin/s/{sid}/entrants/{}/edit", ids[0]))
        .await;
    let csrf = csrf_of(&edit.text);
    let reissued = desk
        .post_form(
            &format!("/admin/s/{sid}/entrants/{}/key", ids[0]),
            &[("csrf", &csrf)],
        )
        .await;
    assert_eq!(reissued.status, StatusCode::SEE_OTHER, "{}", reissued.text);
    let new = key_of(&pool, &chief, &sid, &ids[0]).await;
    assert_ne!(new, old);
    let one = desk
        .get(&format!("/admin/s/{sid}/entrants/{}/key/print", ids[0]))
        .await;
    assert_eq!(one.text.matches("class=\"key-card\"").count(), 1);
    assert!(one.text.contains(&format!("/k/{new}")) && !one.text.contains(&old));
}
