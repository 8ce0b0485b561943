//! A hall of phones (issue #17): every anonymous visitor of a live page shares one entity tag
//! and one rendered body per data version; proxies may keep it briefly; a change shows within
//! the refresh interval on every instance, at once for the desk that made it. While results
//! arrive (issue #38), a page is rendered at most once per interval and process, and every
//! other phone gets the last body meanwhile (stale-while-revalidate).

use crate::support::{add_entrants, call, expect, state, token_for, tournament_with_section};
use arbiter::http::app;
use arbiter::http::cache::REFRESH;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt as _;
use serde_json::json;
use sqlx::PgPool;
use std::time::{Duration, Instant};
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

/// Polls `path` anonymously (with `If-None-Match: tag`) until it changes: the new page, at
/// most one refresh interval and a little later.
async fn changed(router: &Router, path: &str, tag: &str) -> Got {
    let deadline = std::time::Instant::now() + REFRESH + Duration::from_millis(500);
    loop {
        let got = fetch(router, path, &[("if-none-match", tag)]).await;
        if got.status != StatusCode::NOT_MODIFIED {
            return got;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{path} still shows {tag} a refresh interval later"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
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
    // A result entered through this instance shows within the refresh interval.
    enter(&router, &token, &board, "red_wins").await;
    let after = changed(&router, &path, &etag(&first)).await;
    assert_eq!(after.status, StatusCode::OK, "the change shows");
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
    tokio::time::sleep(arbiter::http::cache::VERSION_TTL.max(REFRESH) + Duration::from_millis(100))
        .await;
    let after = fetch(&here, &path, &[("if-none-match", &etag(&before))]).await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(etag(&after), etag(&before));
    assert_ne!(after.text, before.text);
}

/// Audit ids are drawn when a change is written, not when it commits: a change committed after
/// a later-numbered one must still move the data version, or every page and table kept under
/// it would miss that change until the next one.
#[sqlx::test]
async fn a_change_committed_after_a_later_numbered_one_moves_the_version(pool: PgPool) {
    let (_, section, _) = event(&pool).await;
    let section: uuid::Uuid = section.parse().unwrap();
    let tournament: uuid::Uuid =
        sqlx::query_scalar("select tournament_id from section where section_id = $1")
            .bind(section)
            .fetch_one(&pool)
            .await
            .unwrap();
    let audit = "insert into audit_event (tournament_id, actor, action, entity)
                 values ($1, 'test', 'update', 'game')";
    // More entries than the version's window holds (a large event's results): the late
    // commit must move the version although the window stays full.
    sqlx::query(
        "insert into audit_event (tournament_id, actor, action, entity)
         select $1, 'test', 'update', 'game' from generate_series(1, $2)",
    )
    .bind(tournament)
    .bind(arbiter::db::audit::RECENT + 100)
    .execute(&pool)
    .await
    .unwrap();
    let mut first = pool.begin().await.unwrap();
    sqlx::query(audit)
        .bind(tournament)
        .execute(&mut *first)
        .await
        .unwrap();
    let mut second = pool.begin().await.unwrap();
    sqlx::query(audit)
        .bind(tournament)
        .execute(&mut *second)
        .await
        .unwrap();
    second.commit().await.unwrap();
    let version = |pool: PgPool| async move {
        arbiter::service::sections::data_version(&pool, section)
            .await
            .unwrap()
    };
    let with_the_later = version(pool.clone()).await;
    first.commit().await.unwrap();
    let with_both = version(pool.clone()).await;
    assert!(
        with_both > with_the_later,
        "{with_both:?} after {with_the_later:?}"
    );
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
    // A result changes the version: the writer's next poll (their token) gets the new
    // standings at once, everyone else's within the refresh interval.
    enter(&router, &token, &board, "red_wins").await;
    let own = fetch(
        &router,
        &path,
        &[
            ("if-none-match", &etag(&first)),
            ("authorization", &format!("Bearer {token}")),
        ],
    )
    .await;
    assert_eq!(own.status, StatusCode::OK, "the writer sees it at once");
    let after = changed(&router, &path, &etag(&first)).await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(etag(&after), etag(&first));
    assert_eq!(etag(&after), etag(&own));
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

/// A published round 1 of `n` entrants; returns (token, section, the boards with two players).
async fn round_of(pool: &PgPool, username: &str, n: usize) -> (String, String, Vec<String>) {
    let token = token_for(pool, username, "user").await;
    let (_, section) = tournament_with_section(pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_entrants(pool, &token, &section, n).await;
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
    crate::support::publish(pool, &token, &section, 1).await;
    let boards = round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["black"].is_null())
        .map(|b| b["id"].as_str().unwrap().to_string())
        .collect();
    (token, section, boards)
}

#[sqlx::test]
async fn an_anonymous_page_lags_a_result_by_at_most_the_interval_the_desk_not_at_all(pool: PgPool) {
    // Issue #38: one result while phones poll. The desk (signed in, on the same process)
    // sees it on its next page; a phone right after may still get the last body, and gets
    // the new one within the refresh interval; then its polls are 304 while nothing changes.
    let (token, section, boards) = round_of(&pool, "chief-lag", 8).await;
    let state = state(&pool);
    let router = app(state.clone());
    let path = format!("/s/{section}/standings");
    let mut desk = crate::support::Browser::new(&pool);
    desk.log_in("chief-lag", "a long password").await;
    let desk_cookie = desk.cookie_header();
    let desk_before = fetch(&router, &path, &[("cookie", &desk_cookie)]).await;
    assert_eq!(desk_before.status, StatusCode::OK);

    let phone_before = fetch(&router, &path, &[]).await;
    assert_eq!(phone_before.status, StatusCode::OK);
    let entered_at = Instant::now();
    enter(&router, &token, &boards[0], "red_wins").await;
    let entered = Instant::now();

    // The desk's next page shows it (its tag and body changed).
    let desk_after = fetch(&router, &path, &[("cookie", &desk_cookie)]).await;
    assert_eq!(desk_after.status, StatusCode::OK);
    assert_ne!(etag(&desk_after), etag(&desk_before));
    assert_ne!(
        desk_after.text, desk_before.text,
        "the desk sees its result"
    );

    // A phone just after gets the last body: it was rendered less than an interval ago.
    let phone_now = fetch(&router, &path, &[]).await;
    if entered.duration_since(entered_at) < REFRESH / 2 {
        assert_eq!(
            etag(&phone_now),
            etag(&phone_before),
            "served stale while the interval runs"
        );
    }
    let phone_after = changed(&router, &path, &etag(&phone_before)).await;
    let lag = entered.elapsed();
    assert_eq!(phone_after.status, StatusCode::OK);
    assert!(
        lag <= REFRESH + Duration::from_millis(300),
        "an anonymous page lagged {lag:?}"
    );
    assert_ne!(phone_after.text, phone_before.text);

    // Nothing changes: polls stay 304 across several intervals (each check finds the same
    // version), and nothing is rendered again.
    let renders = state.live.renders();
    let until = Instant::now() + REFRESH * 2 + Duration::from_millis(200);
    while Instant::now() < until {
        let poll = fetch(&router, &path, &[("if-none-match", &etag(&phone_after))]).await;
        assert_eq!(poll.status, StatusCode::NOT_MODIFIED);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(state.live.renders(), renders);
}

#[sqlx::test]
async fn a_burst_of_results_renders_a_page_at_most_once_per_interval(pool: PgPool) {
    // Issue #38: results arrive faster than the refresh interval while phones poll the
    // standings; each version forgets this process's remembered version, but the page is
    // rendered at most once per interval, and the phones get the last body meanwhile.
    let (token, section, boards) = round_of(&pool, "chief-burst", 32).await;
    assert_eq!(boards.len(), 16);
    let state = state(&pool);
    let router = app(state.clone());
    let path = format!("/s/{section}/standings");
    let first = fetch(&router, &path, &[]).await;
    assert_eq!(first.status, StatusCode::OK);
    let renders_before = state.live.renders();
    let started = Instant::now();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let phones: Vec<_> = (0..4)
        .map(|_| {
            let router = router.clone();
            let path = path.clone();
            let stop = stop.clone();
            tokio::spawn(async move {
                let mut tags = std::collections::BTreeSet::new();
                let mut polls = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let got = fetch(&router, &path, &[]).await;
                    assert_eq!(got.status, StatusCode::OK);
                    tags.insert(etag(&got));
                    polls += 1;
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                (tags, polls)
            })
        })
        .collect();
    for (i, board) in boards.iter().enumerate() {
        let result = ["red_wins", "draw", "black_wins"][i % 3];
        enter(&router, &token, board, result).await;
        tokio::time::sleep(Duration::from_millis(120)).await;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut polls = 0;
    let mut tags = std::collections::BTreeSet::new();
    for phone in phones {
        let (seen, n) = phone.await.unwrap();
        polls += n;
        tags.extend(seen);
    }
    let took = started.elapsed();
    let renders = state.live.renders() - renders_before;
    let most = took.as_secs_f64() / REFRESH.as_secs_f64() + 1.0;
    assert!(
        (renders as f64) <= most.floor(),
        "{renders} renders in {took:?} for 16 versions ({polls} polls)"
    );
    assert!(renders >= 1, "the page followed the results");
    assert!(tags.len() as u64 <= renders + 1);
    // The render counter is also in /metrics.
    let metrics = arbiter::metrics::metrics().render();
    assert!(
        metrics.contains("arbiter_live_page_renders_total"),
        "{metrics}"
    );
    // Within an interval of the last result, the phones see the final standings: the same
    // page the writer's own next visit gets (its version, rendered for it at once).
    tokio::time::sleep(REFRESH + Duration::from_millis(100)).await;
    let phone = fetch(&router, &path, &[]).await;
    let writer = fetch(&router, &path, &[("cookie", "arbiter_wrote=1")]).await;
    assert_eq!(etag(&writer), etag(&phone));
    assert_eq!(writer.text, phone.text);
}

#[sqlx::test]
async fn only_the_servers_own_writer_cookie_skips_the_shared_body_and_writers_render_once(
    pool: PgPool,
) {
    // Issue #38: the anonymous writer's cookie is signed, so a client cannot forge it to make
    // every poll render; a burst of real writers after a change renders the page once.
    let (token, section, boards) = round_of(&pool, "chief-wrote", 8).await;
    let state = state(&pool);
    let router = app(state.clone());
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/sections/{section}/check-in-settings"),
            Some(&token),
            Some(json!({"self_check_in": true})),
        )
        .await,
        StatusCode::OK,
    );
    let keys = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{section}/keys"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let key = keys[0]["key"].as_str().unwrap().to_string();
    let path = format!("/s/{section}/standings");

    // An anonymous write (a player checks in with the key) is answered with a signed cookie.
    let response = router
        .clone()
        .oneshot(
            Request::post(format!("/api/v1/keys/{key}/check-in"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert!(response.status().is_success(), "{:?}", response.status());
    let set_cookie = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("arbiter_wrote="))
        .expect("the writer's cookie")
        .to_string();
    let cookie = set_cookie.split(';').next().unwrap().to_string();
    assert_ne!(cookie, "arbiter_wrote=1", "signed, not a bare flag");

    // The desk enters a result; within the interval the hall still gets the old body.
    let before = fetch(&router, &path, &[]).await;
    let old_tag = etag(&before);
    enter(&router, &token, &boards[0], "red_wins").await;
    let renders = state.live.renders();
    for forged in [
        "arbiter_wrote=1",
        "arbiter_wrote=99999999999.00000000000000000000000000000000",
    ] {
        for _ in 0..5 {
            let got = fetch(&router, &path, &[("cookie", forged)]).await;
            assert_eq!(etag(&got), old_tag, "a forged cookie gets the shared body");
        }
    }
    assert_eq!(
        state.live.renders(),
        renders,
        "forged cookies rendered nothing"
    );

    // Eight requests of the real writer at once: the current version, rendered once.
    let writers: Vec<_> = (0..8)
        .map(|_| {
            let router = router.clone();
            let path = path.clone();
            let cookie = cookie.clone();
            tokio::spawn(async move { fetch(&router, &path, &[("cookie", cookie.as_str())]).await })
        })
        .collect();
    let mut tags = std::collections::BTreeSet::new();
    for writer in writers {
        let got = writer.await.unwrap();
        assert_eq!(got.status, StatusCode::OK);
        tags.insert(etag(&got));
    }
    assert_eq!(tags.len(), 1, "{tags:?}");
    assert!(
        !tags.contains(&old_tag),
        "the writer sees the change at once"
    );
    assert_eq!(
        state.live.renders() - renders,
        1,
        "one render for eight writers"
    );
}

/// The standings are computed from the rows kept at the last data version with only the
/// games changed since read again (issue #38): after every kind of change they equal the
/// standings read from scratch.
#[sqlx::test]
async fn standings_from_kept_rows_equal_standings_read_afresh(pool: PgPool) {
    use crate::support::{lower_number_wins, play_round};
    use arbiter::service::standings::{compute, compute_from_scratch};
    let token = token_for(&pool, "chief-kept", "user").await;
    let (_, section) =
        tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 4})).await;
    let ids = add_entrants(&pool, &token, &section, 13).await;
    let id: uuid::Uuid = section.parse().unwrap();
    let same = |step: &'static str| {
        let pool = pool.clone();
        async move {
            let kept = serde_json::to_value(compute(&pool, id).await.unwrap()).unwrap();
            let fresh =
                serde_json::to_value(compute_from_scratch(&pool, id).await.unwrap()).unwrap();
            assert_eq!(kept, fresh, "after {step}");
            kept
        }
    };
    let first = play_round(&pool, &token, &section, lower_number_wins).await;
    same("round 1").await;
    let second = play_round(&pool, &token, &section, |_| "draw").await;
    let before = same("round 2").await;
    let board = |round: &serde_json::Value, k: usize| {
        round["boards"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| !b["black"].is_null())
            .nth(k)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let put = |board: String, body: serde_json::Value| {
        let (pool, token) = (pool.clone(), token.clone());
        async move {
            expect(
                &call(
                    &pool,
                    "PUT",
                    &format!("/api/v1/boards/{board}/result"),
                    Some(&token),
                    Some(body),
                )
                .await,
                StatusCode::OK,
            )
        }
    };
    // A result of a completed round corrected: only that game is read again.
    put(board(&first, 0), json!({"result": "black_wins"})).await;
    let corrected = same("a corrected result of round 1").await;
    assert_ne!(corrected, before, "the correction shows");
    // Fouls with a result (two lose the game), twice in a row.
    put(
        board(&second, 1),
        json!({"result": "draw", "red_fouls": 2, "black_fouls": 0}),
    )
    .await;
    put(board(&second, 2), json!({"result": "red_wins"})).await;
    same("fouls and a second result").await;
    // Not a game: a withdrawal reads everything again.
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/entrants/{}/withdraw", ids[0]),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    same("a withdrawal").await;
    // A new round paired, published and played, then a result taken back.
    let third = play_round(&pool, &token, &section, lower_number_wins).await;
    same("round 3").await;
    put(board(&third, 3), json!({"result": "draw"})).await;
    let last = same("a result of round 3 corrected").await;
    assert_eq!(last["round"], 3);
}
