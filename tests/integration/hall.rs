//! A hall of phones (issue #17): every anonymous visitor of a live page shares one entity tag
//! and one rendered body per data version; proxies may keep it briefly; a change shows at once
//! on the instance that made it and within the version's time to live on another.

use crate::support::{add_entrants, call, expect, state, token_for, tournament_with_section};
use arbiter::http::app;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt as _;
use serde_json::json;
use sqlx::PgPool;
use tower::ServiceExt as _;

struct Got {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    text: String,
}

async fn fetch(router: &Router, uri: &str, headers: &[(&str, &str)]) -> Got {
    let mut request = Request::get(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = router
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Got {
        status,
        headers,
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

fn etag(got: &Got) -> String {
    got.headers
        .get("etag")
        .expect("an ETag")
        .to_str()
        .unwrap()
        .to_string()
}

/// A published round 1 of four entrants; returns (token, section, first board).
async fn event(pool: &PgPool) -> (String, String, String) {
    let token = token_for(pool, "chief-hall", "user").await;
    let (_, section) = tournament_with_section(pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_entrants(pool, &token, &section, 4).await;
    let round = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{section}/rounds"),
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
            &format!("/api/v1/sections/{section}/rounds/1/publish"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let board = round["boards"][0]["id"].as_str().unwrap().to_string();
    (token, section, board)
}

async fn enter(router: &Router, token: &str, board: &str, result: &str) {
    let response = router
        .clone()
        .oneshot(
            Request::put(format!("/api/v1/boards/{board}/result"))
                .header("authorization", format!("Bearer {token}"))
                .header("content-type", "application/json")
                .body(Body::from(json!({"result": result}).to_string()))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[sqlx::test]
async fn anonymous_visitors_share_one_tag_and_one_body(pool: PgPool) {
    let (token, section, board) = event(&pool).await;
    let router = app(state(&pool));
    let path = format!("/s/{section}/standings");
    let first = fetch(&router, &path, &[]).await;
    assert_eq!(first.status, StatusCode::OK);
    // Nothing of the visitor's own: no cookie set, a tag and a body every phone shares.
    assert!(
        first.headers.get("set-cookie").is_none(),
        "{:?}",
        first.headers
    );
    assert!(!first.text.contains("name=\"csrf\""));
    let cache_control = first
        .headers
        .get("cache-control")
        .unwrap()
        .to_str()
        .unwrap();
    assert!(cache_control.starts_with("public"), "{cache_control}");
    assert!(
        cache_control.contains("stale-while-revalidate"),
        "{cache_control}"
    );
    // Another phone, with its own anonymous cookie: the same tag, the same bytes.
    let other = fetch(
        &router,
        &path,
        &[("cookie", "arbiter_csrf=0123456789abcdef0123456789abcdef")],
    )
    .await;
    assert_eq!(etag(&other), etag(&first));
    assert_eq!(other.text, first.text);
    let poll = fetch(&router, &path, &[("if-none-match", &etag(&first))]).await;
    assert_eq!(poll.status, StatusCode::NOT_MODIFIED);
    // The language is part of the page.
    let english = fetch(&router, &format!("{path}?lang=en"), &[]).await;
    assert_ne!(etag(&english), etag(&first));
    // A result entered through this instance shows on the next poll.
    enter(&router, &token, &board, "red_wins").await;
    let after = fetch(&router, &path, &[("if-none-match", &etag(&first))]).await;
    assert_eq!(after.status, StatusCode::OK, "the change shows at once");
    assert_ne!(etag(&after), etag(&first));
    assert_ne!(after.text, first.text);
    // A signed-in arbiter's page is theirs alone (their name and token are in it).
    let mut browser = crate::support::Browser::new(&pool);
    browser.log_in("chief-hall", "a long password").await;
    let signed_in = browser.get(&path).await;
    assert_eq!(signed_in.status, StatusCode::OK);
    assert_eq!(
        signed_in.headers.get("cache-control").unwrap(),
        "private, no-cache"
    );
    assert_ne!(signed_in.headers.get("etag").unwrap(), &etag(&after));
}

#[sqlx::test]
async fn a_change_on_another_instance_shows_within_the_version_lifetime(pool: PgPool) {
    let (token, section, board) = event(&pool).await;
    let here = app(state(&pool));
    let there = app(state(&pool));
    let path = format!("/s/{section}/standings");
    let before = fetch(&here, &path, &[]).await;
    enter(&there, &token, &board, "draw").await;
    tokio::time::sleep(arbiter::http::cache::VERSION_TTL + std::time::Duration::from_millis(100))
        .await;
    let after = fetch(&here, &path, &[("if-none-match", &etag(&before))]).await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(etag(&after), etag(&before));
    assert_ne!(after.text, before.text);
}

#[sqlx::test]
async fn results_entered_side_by_side_complete_the_round(pool: PgPool) {
    // Results of one section are entered concurrently (the section is share-locked): the
    // last of them to commit must still complete the round, every time.
    let token = token_for(&pool, "chief-hall", "user").await;
    let (_, section) =
        tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_entrants(&pool, &token, &section, 24).await;
    let router = app(state(&pool));
    for round in 1..=3 {
        let view = expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{section}/rounds"),
                Some(&token),
                None,
            )
            .await,
            StatusCode::CREATED,
        );
        crate::support::publish(&pool, &token, &section, round).await;
        let boards: Vec<String> = view["boards"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| !b["black"].is_null())
            .map(|b| b["id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(boards.len(), 12);
        let desks: Vec<_> = boards
            .into_iter()
            .enumerate()
            .map(|(i, board)| {
                let router = router.clone();
                let token = token.clone();
                tokio::spawn(async move {
                    let result = ["red_wins", "draw", "black_wins"][i % 3];
                    enter(&router, &token, &board, result).await;
                })
            })
            .collect();
        for desk in desks {
            desk.await.unwrap();
        }
        let status: String = sqlx::query_scalar(
            "select r.status from round r where r.section_id = $1::uuid and r.number = $2",
        )
        .bind(&section)
        .bind(round)
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(status, "completed", "round {round}");
    }
}

/// A game of a round: (game, version, section, round, tournament).
type RoundGame = (uuid::Uuid, i32, uuid::Uuid, uuid::Uuid, uuid::Uuid);

/// Stores `game`'s result as `store_result` does for a desk, on `conn` (in its transaction):
/// (the new version, the round's status when this result settled it).
async fn store(conn: &mut sqlx::PgConnection, game: &RoundGame) -> (Option<i32>, Option<String>) {
    let (game_id, version, section_id, round_id, tournament_id) = *game;
    sqlx::query_as(
        "select stored_version, round_status from store_result($1, $2, 'draw', 'draw', 0, 0,
             'superseded', $3, null, 'test', 'result', 'game', $1, null, null, $4,
             (select foul_threshold from section where section_id = $4), $5,
             (select rounds from section where section_id = $4))",
    )
    .bind(game_id)
    .bind(version)
    .bind(tournament_id)
    .bind(section_id)
    .bind(round_id)
    .fetch_one(conn)
    .await
    .unwrap()
}

/// A section of six entrants with round 1 paired and published (a result never publishes a
/// round): its three games in board order.
async fn three_games(pool: &PgPool, username: &str) -> Vec<RoundGame> {
    let token = token_for(pool, username, "user").await;
    let (_, section) = tournament_with_section(pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_entrants(pool, &token, &section, 6).await;
    expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{section}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    crate::support::publish(pool, &token, &section, 1).await;
    let games: Vec<RoundGame> = sqlx::query_as(
        "select g.game_id, g.version, s.section_id, r.round_id, s.tournament_id
         from game g join board b using (board_id) join round r using (round_id)
              join section s using (section_id)
         where s.section_id = $1::uuid order by b.number",
    )
    .bind(&section)
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(games.len(), 3);
    games
}

async fn round_status(pool: &PgPool, round_id: uuid::Uuid) -> String {
    sqlx::query_scalar("select status from round where round_id = $1")
        .bind(round_id)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test]
async fn a_result_settles_its_round_in_its_own_transaction_only_when_no_free_game_is_left(
    pool: PgPool,
) {
    // A result settles the round's status in its own transaction (so a crash after the
    // commit leaves no round with every result in and its status open) only when no other
    // game of the round without a result is free: a free one is locked until the commit, so
    // its writer waits, then sees this result, and settles. Three games: the first two
    // results leave a free game, the last settles; two results at once, the first locks the
    // other's game.
    let games = three_games(&pool, "chief-settle").await;

    // The first result leaves two free games: it does not settle the round.
    let mut first = pool.acquire().await.unwrap();
    assert_eq!(store(&mut first, &games[0]).await.1.as_deref(), None);
    assert_eq!(round_status(&pool, games[0].3).await, "published");

    // Two results at once: the first sees the third game free and locks it; the second
    // waits for that lock, then sees both other results and completes the round.
    let mut second = pool.begin().await.unwrap();
    let (version, settled) = store(&mut second, &games[1]).await;
    assert!(version.is_some());
    assert_eq!(settled, None, "the third game is still free");
    let last = games[2];
    let third = {
        let pool = pool.clone();
        tokio::spawn(async move {
            let mut conn = pool.acquire().await.unwrap();
            store(&mut conn, &last).await
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        !third.is_finished(),
        "the third result waits for the second's commit"
    );
    second.commit().await.unwrap();
    let (version, settled) = third.await.unwrap();
    assert!(version.is_some());
    assert_eq!(
        settled.as_deref(),
        Some("completed"),
        "the last result completes the round"
    );
    assert_eq!(round_status(&pool, games[2].3).await, "completed");
}

#[sqlx::test]
async fn of_two_last_results_at_once_the_later_commit_completes_the_round(pool: PgPool) {
    // The two last results of a round written at the same moment: each has its game locked
    // before the other looks for a free one, so both settle. The first takes the round's
    // settle lock and sees the other game still open; the second waits for that lock until
    // the first commits, and then sees both results, in its own transaction.
    let games = three_games(&pool, "chief-last-two").await;
    let mut first = pool.acquire().await.unwrap();
    assert_eq!(store(&mut first, &games[0]).await.1.as_deref(), None);

    // The third game's writer has locked its row (as its update does) but not looked yet.
    let mut third = pool.begin().await.unwrap();
    sqlx::query("select 1 from game where game_id = $1 for no key update")
        .bind(games[2].0)
        .execute(&mut *third)
        .await
        .unwrap();
    let mut second = pool.begin().await.unwrap();
    let (version, settled) = store(&mut second, &games[1]).await;
    assert!(version.is_some());
    assert_eq!(
        settled.as_deref(),
        Some("published"),
        "the third game is still open"
    );
    let last = games[2];
    let third = tokio::spawn(async move {
        let stored = store(&mut third, &last).await;
        third.commit().await.unwrap();
        stored
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        !third.is_finished(),
        "the third result waits for the second's settle lock"
    );
    assert_eq!(round_status(&pool, games[1].3).await, "published");
    second.commit().await.unwrap();
    let (version, settled) = third.await.unwrap();
    assert!(version.is_some());
    assert_eq!(settled.as_deref(), Some("completed"));
    assert_eq!(round_status(&pool, games[1].3).await, "completed");
}

#[sqlx::test]
async fn phones_that_take_gzip_get_it_with_a_tag_of_its_own(pool: PgPool) {
    let (_, section, _) = event(&pool).await;
    let router = app(state(&pool));
    let path = format!("/s/{section}/standings");
    let plain = fetch(&router, &path, &[]).await;
    let zipped = fetch(&router, &path, &[("accept-encoding", "gzip, deflate, br")]).await;
    assert_eq!(zipped.status, StatusCode::OK);
    assert_eq!(zipped.headers.get("content-encoding").unwrap(), "gzip");
    assert!(zipped
        .headers
        .get("vary")
        .unwrap()
        .to_str()
        .unwrap()
        .contains("Accept-Encoding"));
    assert_ne!(etag(&zipped), etag(&plain));
    let response = router
        .clone()
        .oneshot(
            Request::get(&path)
                .header("accept-encoding", "gzip")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let mut html = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut html)
        .unwrap();
    assert_eq!(html, plain.text, "the same page, compressed");
    // Either tag answers a poll.
    for tag in [etag(&plain), etag(&zipped)] {
        let poll = fetch(
            &router,
            &path,
            &[("if-none-match", &tag), ("accept-encoding", "gzip")],
        )
        .await;
        assert_eq!(poll.status, StatusCode::NOT_MODIFIED);
    }
}

#[sqlx::test]
async fn the_json_standings_are_computed_once_per_version_and_shared(pool: PgPool) {
    let (token, section, board) = event(&pool).await;
    let router = app(state(&pool));
    let path = format!("/api/v1/sections/{section}/standings");
    let first = fetch(&router, &path, &[]).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(
        first.headers.get("content-type").unwrap(),
        "application/json"
    );
    assert!(first
        .headers
        .get("cache-control")
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("public"));
    let standings: serde_json::Value = serde_json::from_str(&first.text).unwrap();
    assert_eq!(
        standings["rows"].as_array().map(Vec::len),
        Some(4),
        "{standings}"
    );
    // Another client, signed in or not, gets the same tag and bytes (nothing per visitor).
    let other = fetch(
        &router,
        &path,
        &[("authorization", &format!("Bearer {token}"))],
    )
    .await;
    assert_eq!(etag(&other), etag(&first));
    assert_eq!(other.text, first.text);
    let poll = fetch(&router, &path, &[("if-none-match", &etag(&first))]).await;
    assert_eq!(poll.status, StatusCode::NOT_MODIFIED);
    assert!(poll.text.is_empty());
    // Gzipped on request, with its own tag that answers a poll too.
    let zipped = fetch(&router, &path, &[("accept-encoding", "gzip")]).await;
    assert_eq!(zipped.headers.get("content-encoding").unwrap(), "gzip");
    assert_ne!(etag(&zipped), etag(&first));
    let poll = fetch(
        &router,
        &path,
        &[
            ("if-none-match", &etag(&zipped)),
            ("accept-encoding", "gzip"),
        ],
    )
    .await;
    assert_eq!(poll.status, StatusCode::NOT_MODIFIED);
    // A result changes the version: the next poll gets the new standings.
    enter(&router, &token, &board, "red_wins").await;
    let after = fetch(&router, &path, &[("if-none-match", &etag(&first))]).await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(etag(&after), etag(&first));
    let standings: serde_json::Value = serde_json::from_str(&after.text).unwrap();
    let points: Vec<f64> = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|row| row["points"].as_f64())
        .collect();
    assert!(points.iter().any(|&p| p > 0.0), "{standings}");
    // An unknown section is still a 404 with a JSON error, and is not kept.
    let missing = fetch(
        &router,
        &format!("/api/v1/sections/{}/standings", uuid::Uuid::new_v4()),
        &[],
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.text.contains("error"), "{}", missing.text);
}
