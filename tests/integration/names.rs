//! One rule for names (issue #35, item 10, entrant part): a name made only of characters that
//! show nothing (a variation selector, combining marks, U+17B4, tag characters) is refused as
//! empty; zero-width and tag characters inside a name are removed.

use crate::support::{admin_token, call, tournament_with_section};
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

#[sqlx::test]
async fn entrant_names_that_show_nothing_are_refused_and_hidden_characters_removed(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let uri = format!("/api/v1/sections/{sid}/entrants");
    for blank in [
        "\u{FE0F}",
        "\u{0301}\u{0308}",
        "\u{17B4}",
        "\u{E0041}\u{E0042}",
    ] {
        let reply = call(
            &pool,
            "POST",
            &uri,
            Some(&token),
            Some(json!({"name": blank})),
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{blank:?}: {}",
            reply.text
        );
    }
    let reply = call(
        &pool,
        "POST",
        &uri,
        Some(&token),
        Some(json!({"name": "Wang\u{200B}Li\u{E0041}"})),
    )
    .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    assert_eq!(reply.json()["name"], "WangLi");
}

/// Issue #35 item 10, usernames: no spaces or invisible characters, and no account whose name
/// looks like another's (case, full-width letters, a Cyrillic а for a Latin a: one UTS #39
/// skeleton).
#[sqlx::test]
async fn usernames_refuse_invisible_characters_and_look_alikes(pool: PgPool) {
    let token = admin_token(&pool).await;
    let create = |name: &str| {
        let body = json!({"username": name, "password": "a long enough password", "role": "user"});
        let pool = pool.clone();
        let token = token.clone();
        async move { call(&pool, "POST", "/api/v1/users", Some(&token), Some(body)).await }
    };
    let first = create("chiefA").await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    for name in [
        "ChiefA",
        "chiefa",
        "chief\u{0430}",
        "ｃｈｉｅｆＡ",
        "chief\u{200B}A",
        "chief\u{202E}A",
        "chief\u{3164}",
        "chi\u{00AD}efA",
        "chief A",
        "\u{3164}",
    ] {
        let reply = create(name).await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name:?}: {}",
            reply.text
        );
        assert!(reply.text.contains("username"), "{name:?}: {}", reply.text);
    }
    let other = create("chiefB").await;
    assert_eq!(other.status, StatusCode::CREATED, "{}", other.text);
    let users: Vec<String> = sqlx::query_scalar("select username from app_user order by username")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert!(users.contains(&"chiefA".to_string()) && users.contains(&"chiefB".to_string()));
    assert!(!users
        .iter()
        .any(|u| u.eq_ignore_ascii_case("chiefa") && u != "chiefA"));
}
