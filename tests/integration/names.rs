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
