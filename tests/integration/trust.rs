//! Issue #35: a result never publishes a round (3), the audit log by role (7), a 503 is a
//! rollback (8), the desk is not the anonymous public (12), and the small items of 11
//! (`Retry-After`, `nosniff`, HSTS, the tiebreak chain's length, a TRF's `142`, a complete
//! TRF import).

use crate::support::{
    add_entrants, admin_token, call, expect, get, play_round, token_for, tournament_with_section,
    Browser, Reply,
};
use arbiter::http::{app, AppState, Security};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt as _;
use serde_json::{json, Value};
use sqlx::PgPool;
use std::time::Duration;
use tower::ServiceExt as _;

/// One request to a router over `state` (the real limits unless the caller changes them).
async fn send_to(
    state: AppState,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let mut builder = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        builder = builder.header("authorization", format!("Bearer {token}"));
    }
    let request = match body {
        Some(body) => builder
            .header("content-type", "application/json")
            .body(Body::from(body.to_string())),
        None => builder.body(Body::empty()),
    }
    .unwrap();
    let response = app(state).oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        content_type,
        headers,
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

fn state_with(pool: &PgPool, security: Security) -> AppState {
    let mut state = AppState::new(pool.clone());
    state.security = std::sync::Arc::new(security);
    state
}

/// A chief arbiter, an arbiter and a scorer of one tournament with a section of 6; returns
/// (chief, arbiter, scorer, tournament id, section id).
async fn staffed(pool: &PgPool) -> (String, String, String, String, String) {
    let chief = token_for(pool, "chief-t", "user").await;
    let arbiter = token_for(pool, "arbiter-t", "user").await;
    let scorer = token_for(pool, "scorer-t", "user").await;
    let (tid, sid) = tournament_with_section(pool, &chief, "xiangqi", json!({"rounds": 3})).await;
    for (name, role) in [("arbiter-t", "arbiter"), ("scorer-t", "scorer")] {
        expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/tournaments/{tid}/staff"),
                Some(&chief),
                Some(json!({"username": name, "role": role})),
            )
            .await,
            StatusCode::OK,
        );
    }
    (chief, arbiter, scorer, tid, sid)
}

async fn pair(pool: &PgPool, token: &str, sid: &str) -> Value {
    expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(token),
            None,
        )
        .await,
        StatusCode::CREATED,
    )
}

// ------------------------------------------------------------------------------ item 3

#[sqlx::test]
async fn a_result_on_a_paired_round_is_refused_and_publishes_nothing(pool: PgPool) {
    let (chief, _, scorer, _, sid) = staffed(&pool).await;
    add_entrants(&pool, &chief, &sid, 6).await;
    let round = pair(&pool, &chief, &sid).await;
    let board = round["boards"][0]["id"].as_str().unwrap();
    for token in [&scorer, &chief] {
        let refused = call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{board}/result"),
            Some(token),
            Some(json!({"result": "red_wins"})),
        )
        .await;
        assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
        assert_eq!(refused.json()["code"], "state.publish_round_before_results");
    }
    let status: String = sqlx::query_scalar("select status from round where number = 1")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(status, "paired");
    let results: i64 = sqlx::query_scalar("select count(result) from game")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(results, 0);
    // Nothing public: the round is still the arbiters' draft.
    let public = get(&pool, &format!("/api/v1/sections/{sid}/rounds/1")).await;
    assert_eq!(public.status, StatusCode::NOT_FOUND, "{}", public.text);
    // The settling itself never publishes a draft, whatever calls it.
    let settled: String =
        sqlx::query_scalar("select settle_round(round_id) from round where number = 1")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(settled, "paired");
    // Published, the same result is taken.
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds/1/publish"),
            Some(&chief),
            None,
        )
        .await,
        StatusCode::OK,
    );
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{board}/result"),
            Some(&scorer),
            Some(json!({"result": "red_wins"})),
        )
        .await,
        StatusCode::OK,
    );
}

// ------------------------------------------------------------------------------ item 7

#[sqlx::test]
async fn scorers_see_no_contact_data_in_the_audit_log(pool: PgPool) {
    let (chief, arbiter, scorer, tid, sid) = staffed(&pool).await;
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&chief),
            Some(json!({
                "name": "Contact Person", "email": "private@example.org", "phone": "+1 555 0100",
                "address": "1 Secret Street", "birth_date": "2001-02-03",
            })),
        )
        .await,
        StatusCode::CREATED,
    );
    let private = [
        "private@example.org",
        "555 0100",
        "Secret Street",
        "2001-02-03",
    ];
    let log = |token: String| {
        let pool = pool.clone();
        let tid = tid.clone();
        async move {
            expect(
                &call(
                    &pool,
                    "GET",
                    &format!("/api/v1/tournaments/{tid}/audit"),
                    Some(&token),
                    None,
                )
                .await,
                StatusCode::OK,
            )
            .to_string()
        }
    };
    // Arbiters see what they see elsewhere.
    for token in [&chief, &arbiter] {
        let text = log(token.clone()).await;
        for value in private {
            assert!(text.contains(value), "{value}: {text}");
        }
    }
    let text = log(scorer.clone()).await;
    assert!(text.contains("Contact Person"), "{text}");
    for value in private {
        assert!(!text.contains(value), "{value}: {text}");
    }
    // The page too.
    let mut browser = Browser::new(&pool);
    browser.log_in("scorer-t", "a long password").await;
    let page = browser.get(&format!("/admin/t/{tid}/audit?lang=en")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    for value in private {
        assert!(!page.text.contains(value), "{value}: {}", page.text);
    }
}

// ------------------------------------------------------------------------------ item 8

#[sqlx::test]
async fn a_result_past_its_deadline_is_either_stored_and_said_or_not_stored(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 2).await;
    let round = pair(&pool, &token, &sid).await;
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds/1/publish"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let board = round["boards"][0]["id"].as_str().unwrap().to_string();
    let version = || async {
        sqlx::query_scalar::<_, i32>("select version from game where board_id = $1::uuid")
            .bind(&board)
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    let before = version().await;
    // Another connection holds the game's row past the request's deadline (1 s).
    let mut lock = pool.begin().await.unwrap();
    sqlx::query("select 1 from game where board_id = $1::uuid for update")
        .bind(&board)
        .execute(&mut *lock)
        .await
        .unwrap();
    let state = state_with(
        &pool,
        Security {
            request_timeout: Duration::from_secs(1),
            ..Security::default()
        },
    );
    let request = tokio::spawn({
        let (token, board) = (token.clone(), board.clone());
        async move {
            send_to(
                state,
                "PUT",
                &format!("/api/v1/boards/{board}/result"),
                Some(&token),
                Some(json!({"result": "draw"})),
            )
            .await
        }
    });
    tokio::time::sleep(Duration::from_secs(3)).await;
    lock.commit().await.unwrap();
    let reply = request.await.unwrap();
    // Long enough for a statement that ran on to have committed.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after = version().await;
    match reply.status {
        StatusCode::SERVICE_UNAVAILABLE => {
            assert_eq!(after, before, "answered 503, yet the result was stored")
        }
        StatusCode::OK => {
            assert_eq!(after, before + 1);
            assert_eq!(reply.json()["version"], after, "{}", reply.text);
        }
        other => panic!("{other}: {}", reply.text),
    }
}

// ------------------------------------------------------------------------------ item 12

async fn register(state: AppState, sid: &str, token: Option<&str>, i: usize) -> Reply {
    send_to(
        state,
        "POST",
        &format!("/api/v1/sections/{sid}/registrations"),
        token,
        Some(json!({"name": format!("Walk-in {i}"), "email": format!("w{i}@example.org")})),
    )
    .await
}

#[sqlx::test]
async fn the_desk_entering_walk_ins_is_not_counted_as_the_public(pool: PgPool) {
    let (chief, arbiter, _, tid, sid) = staffed(&pool).await;
    expect(
        &call(
            &pool,
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            Some(&chief),
            Some(json!({"status": "registration"})),
        )
        .await,
        StatusCode::OK,
    );
    // The real limits: 20 registrations an hour per address and section.
    let state = state_with(&pool, Security::default());
    for i in 0..25 {
        let reply = register(state.clone(), &sid, Some(&arbiter), i).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{i}: {}", reply.text);
    }
    for i in 0..20 {
        let reply = register(state.clone(), &sid, None, 100 + i).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{i}: {}", reply.text);
    }
    let refused = register(state.clone(), &sid, None, 200).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text
    );
    // 11: the answer says when to come back (the lockout is an hour).
    let retry: u64 = refused
        .headers
        .get("retry-after")
        .expect("Retry-After")
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((3500..=3600).contains(&retry), "{retry}");
}

// ------------------------------------------------------------------------------ item 11

#[sqlx::test]
async fn answers_say_nosniff_and_hsts_with_an_https_public_address(pool: PgPool) {
    let plain = send_to(
        state_with(&pool, Security::default()),
        "GET",
        "/api/v1/tournaments",
        None,
        None,
    )
    .await;
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.headers["x-content-type-options"], "nosniff");
    assert!(plain.headers.get("strict-transport-security").is_none());
    let error = send_to(
        state_with(&pool, Security::default()),
        "GET",
        "/api/v1/nothing",
        None,
        None,
    )
    .await;
    assert_eq!(error.headers["x-content-type-options"], "nosniff");
    let https = send_to(
        state_with(
            &pool,
            Security {
                public_url: Some("https://arbiter.example".into()),
                ..Security::default()
            },
        ),
        "GET",
        "/",
        None,
        None,
    )
    .await;
    assert!(
        https.headers["strict-transport-security"]
            .to_str()
            .unwrap()
            .starts_with("max-age="),
        "{:?}",
        https.headers
    );
    assert_eq!(https.headers["x-content-type-options"], "nosniff");
}

#[sqlx::test]
async fn a_tiebreak_chain_is_limited(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let chain = |n: usize| json!({"tiebreaks": vec!["BH"; n]});
    let long = call(
        &pool,
        "PATCH",
        &format!("/api/v1/sections/{sid}"),
        Some(&token),
        Some(chain(10_000)),
    )
    .await;
    assert_eq!(
        long.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        long.text
    );
    assert_eq!(
        long.json()["field_codes"]["tiebreaks"][0],
        "check.too_many_tiebreaks",
        "{}",
        long.text
    );
    let over = call(
        &pool,
        "PATCH",
        &format!("/api/v1/sections/{sid}"),
        Some(&token),
        Some(chain(21)),
    )
    .await;
    assert_eq!(
        over.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        over.text
    );
}

/// A section of 6 with both its rounds played, exported as TRF.
async fn played_trf(pool: &PgPool, token: &str) -> (String, String) {
    let (tid, sid) = tournament_with_section(pool, token, "xiangqi", json!({"rounds": 2})).await;
    add_entrants(pool, token, &sid, 6).await;
    for _ in 0..2 {
        play_round(pool, token, &sid, crate::support::lower_number_wins).await;
    }
    let trf = get(pool, &format!("/api/v1/sections/{sid}/export.trf")).await;
    assert_eq!(trf.status, StatusCode::OK);
    (tid, trf.text)
}

async fn import(pool: &PgPool, token: &str, tid: &str, name: &str, text: &str) -> Reply {
    let request = Request::post(format!("/api/v1/tournaments/{tid}/import.trf?name={name}"))
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "text/plain")
        .body(Body::from(text.to_string()))
        .unwrap();
    crate::support::send(pool, request).await
}

#[sqlx::test]
async fn a_trf_whose_142_is_below_its_games_is_refused_naming_both(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, text) = played_trf(&pool, &token).await;
    assert!(text.contains("\n142 2\n"), "{text}");
    let lying = text
        .replace("\n142 2\n", "\n142 1\n")
        .replace("XXR 2", "XXR 1");
    let refused = import(&pool, &token, &tid, "Lying", &lying).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    let message = refused.json()["errors"]["file"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        message.contains("says 1 rounds") && message.contains("reach round 2"),
        "{message}"
    );
    let sections: i64 = sqlx::query_scalar("select count(*) from section where name = 'Lying'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(sections, 0);
}

#[sqlx::test]
async fn a_complete_trf_import_leaves_its_section_finished(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, text) = played_trf(&pool, &token).await;
    let imported = import(&pool, &token, &tid, "Copy", &text).await;
    let body = expect(&imported, StatusCode::CREATED);
    assert_eq!(body["status"], "finished", "{body}");
    let status: String = sqlx::query_scalar("select status from section where name = 'Copy'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(status, "finished");
}
