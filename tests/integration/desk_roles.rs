//! The desk by role (issue #39, item 1): a scorer who reaches an arbiter's action is told who
//! is signed in and what role it needs, on a page that shows them signed in (not the sign-in
//! form).

use crate::support::{call, expect, submit, token_for, tournament_with_section, Browser, PASSWORD};
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

#[sqlx::test]
async fn a_scorers_403_page_names_who_is_signed_in_and_the_role_needed(pool: PgPool) {
    let chief = token_for(&pool, "chief", "user").await;
    let (tid, sid) = tournament_with_section(&pool, &chief, "xiangqi", json!({})).await;
    token_for(&pool, "deputy", "user").await;
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/staff"),
            Some(&chief),
            Some(json!({"username": "deputy", "role": "scorer"})),
        )
        .await,
        StatusCode::OK,
    );
    let mut scorer = Browser::new(&pool);
    scorer.log_in("deputy", PASSWORD).await;
    // Pairing is an arbiter's action: the scorer's attempt is refused, and the page says why.
    let refused = submit(
        &mut scorer,
        &format!("/admin/s/{sid}?lang=en"),
        &format!("/admin/s/{sid}/rounds"),
        &[],
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert!(
        refused.text.contains("You are signed in as deputy"),
        "{}",
        refused.text
    );
    assert!(
        refused
            .text
            .contains("needs an arbiter or the chief arbiter"),
        "{}",
        refused.text
    );
    assert!(
        !refused.text.contains(r#"href="/login""#),
        "the 403 page offers the sign-in form to a signed-in scorer"
    );
    assert!(refused.text.contains(r#"action="/logout""#));
}
