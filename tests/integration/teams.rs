//! Team competitions (issue #41): TRF files with `013` team records; team rankings inside
//! individual sections.

use crate::support::{admin_token, call, expect, send};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;
use sqlx::PgPool;

async fn post_trf(pool: &PgPool, uri: &str, token: &str, body: &str) -> crate::support::Reply {
    let request = Request::post(uri)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "text/plain")
        .body(Body::from(body.to_string()))
        .unwrap();
    send(pool, request).await
}

fn team_fixture(name: &str) -> String {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/fixtures/teams"
    ))
    .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the team fixtures are missing at {}: {e}", path.display()))
}

#[sqlx::test]
async fn a_trf_with_team_records_imports_and_a_bad_one_is_refused(pool: PgPool) {
    let token = admin_token(&pool).await;
    let t = expect(
        &call(
            &pool,
            "POST",
            "/api/v1/tournaments",
            Some(&token),
            Some(json!({"name": "Teams", "game": "xiangqi"})),
        )
        .await,
        StatusCode::CREATED,
    );
    let tid = t["id"].as_str().unwrap();
    let uri = format!("/api/v1/tournaments/{tid}/import.trf");
    let text = team_fixture("team01_00_t10_b3_r7.trf");
    let section = expect(
        &post_trf(&pool, &uri, &token, &text).await,
        StatusCode::CREATED,
    );
    assert_eq!(section["rounds"], 7);
    // A team record naming a player the file does not have: refused with its place.
    let bad = text.replacen(
        "013 Team 01                            1    2    3    4",
        "013 Team 01                            1    2    3   99",
        1,
    );
    assert_ne!(bad, text);
    let reply = post_trf(&pool, &uri, &token, &bad).await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.text
    );
    assert!(reply.text.contains("line 42, column 54"), "{}", reply.text);
    assert!(reply.text.contains("99"), "{}", reply.text);
}
