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

/// The `action`s of the POST forms of a page.
fn post_actions(html: &str) -> Vec<String> {
    html.split("<form")
        .skip(1)
        .filter(|form| {
            let tag = form.split('>').next().unwrap_or_default();
            tag.contains(r#"method="post""#)
        })
        .filter_map(|form| {
            let rest = form.split(r#"action=""#).nth(1)?;
            Some(rest.split('"').next()?.to_string())
        })
        .collect()
}

#[sqlx::test]
async fn a_scorers_desk_offers_result_entry_and_no_arbiters_form(pool: PgPool) {
    let chief_token = token_for(&pool, "chief", "user").await;
    let (tid, sid) = tournament_with_section(&pool, &chief_token, "xiangqi", json!({})).await;
    crate::support::add_entrants(&pool, &chief_token, &sid, 4).await;
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(&chief_token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    crate::support::publish(&pool, &chief_token, &sid, 1).await;
    token_for(&pool, "deputy", "user").await;
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/staff"),
            Some(&chief_token),
            Some(json!({"username": "deputy", "role": "scorer"})),
        )
        .await,
        StatusCode::OK,
    );
    let pages = [
        format!("/admin/t/{tid}"),
        format!("/admin/s/{sid}"),
        format!("/admin/s/{sid}/entrants"),
        format!("/admin/s/{sid}/registrations"),
        format!("/admin/s/{sid}/byes"),
        format!("/admin/s/{sid}/rounds"),
        format!("/admin/s/{sid}/settings"),
        format!("/admin/s/{sid}/prizes"),
        format!("/admin/s/{sid}/knockout"),
        format!("/admin/t/{tid}/playoff"),
        format!("/admin/t/{tid}/playoff/prizes"),
    ];
    // What only an arbiter may send: each must be on the chief's pages (so that the check
    // below cannot pass on pages that lost their forms) and on none of the scorer's.
    let arbiters = [
        format!("/admin/t/{tid}/sections"),
        format!("/admin/t/{tid}/import-trf"),
        format!("/admin/s/{sid}/entrants"),
        format!("/admin/s/{sid}/check-in/number"),
        format!("/admin/s/{sid}/check-in"),
        format!("/admin/s/{sid}/byes"),
        format!("/admin/s/{sid}/forbidden-pairs"),
        format!("/admin/s/{sid}/rounds/1/clock"),
        format!("/admin/s/{sid}/settings"),
        format!("/admin/s/{sid}/prizes"),
        format!("/admin/s/{sid}/knockout"),
        format!("/admin/t/{tid}/playoff"),
        format!("/admin/t/{tid}/playoff/prizes"),
    ];
    let mut chief = Browser::new(&pool);
    chief.log_in("chief", PASSWORD).await;
    let mut scorer = Browser::new(&pool);
    scorer.log_in("deputy", PASSWORD).await;
    let (mut chiefs, mut scorers) = (Vec::new(), Vec::new());
    for page in &pages {
        let seen = chief.get(&format!("{page}?lang=en")).await;
        assert_eq!(seen.status, StatusCode::OK, "{page}: {}", seen.text);
        chiefs.extend(post_actions(&seen.text));
        let seen = scorer.get(&format!("{page}?lang=en")).await;
        assert_eq!(seen.status, StatusCode::OK, "{page}: {}", seen.text);
        if page.ends_with("/settings") || page.ends_with("/prizes") {
            assert!(
                seen.text.contains("You are a scorer here"),
                "{page} does not say why nothing can be changed"
            );
        }
        scorers.extend(post_actions(&seen.text));
    }
    for action in &arbiters {
        assert!(
            chiefs.contains(action),
            "the chief has no form for {action}"
        );
        assert!(
            !scorers.contains(action),
            "a scorer is offered {action}: {scorers:?}"
        );
    }
    assert!(
        !scorers.iter().any(|a| a.contains("/registrations/")
            || a.contains("/entrants/")
            || a.contains("/status")),
        "{scorers:?}"
    );
    // The scorer keeps what a scorer does: the round's result forms.
    assert!(
        scorers.iter().any(|a| a.starts_with("/admin/boards/")),
        "no result form for the scorer: {scorers:?}"
    );
    let rounds = scorer.get(&format!("/admin/s/{sid}/rounds?lang=en")).await;
    assert!(!rounds.text.contains(r#"id="unpair-1""#));
    assert!(!rounds.text.contains(r#"/rounds/1/edit""#));
}
