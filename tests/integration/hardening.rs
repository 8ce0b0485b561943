//! What the API fuzzing (`scripts/api-fuzz`) found, one test per kind of bug: values the
//! database cannot store, rejections the OpenAPI document did not list, bodies of the wrong
//! shape, methods a path does not take, and tokens that are not sessions.

use crate::support::{admin_token, call, expect, get, send, tournament_with_section};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use sqlx::PgPool;

#[sqlx::test]
async fn text_with_a_nul_character_is_refused_with_422_not_500(pool: PgPool) {
    let token = admin_token(&pool).await;
    // A text column (22021 in PostgreSQL).
    let reply = call(
        &pool,
        "POST",
        "/api/v1/tournaments",
        Some(&token),
        Some(json!({"name": "Open\u{0}", "game": "xiangqi"})),
    )
    .await;
    let body = expect(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body["message"].as_str().unwrap().contains("NUL"), "{body}");

    // A JSON column (22P05): the fee tiers of a section.
    let (_, section) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let reply = call(
        &pool,
        "PATCH",
        &format!("/api/v1/sections/{section}"),
        Some(&token),
        Some(json!({"fee_tiers": [{"name": "member\u{0}", "amount": 10}]})),
    )
    .await;
    expect(&reply, StatusCode::UNPROCESSABLE_ENTITY);

    // Nothing was written by either.
    let tournaments: i64 = sqlx::query_scalar("select count(*) from tournament")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(tournaments, 1);
}

#[sqlx::test]
async fn dates_beyond_the_database_range_are_refused_with_422_not_500(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, section) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    for (uri, body) in [
        (
            format!("/api/v1/tournaments/{tid}"),
            json!({"starts_on": "-200000-01-01"}),
        ),
        (
            format!("/api/v1/sections/{section}"),
            json!({"registration_opens_at": "-200000-01-01T00:00:00Z"}),
        ),
        (
            format!("/api/v1/sections/{section}/entrants"),
            json!({"name": "Ancient", "birth_date": "-200000-01-01"}),
        ),
    ] {
        let method = if uri.ends_with("entrants") {
            "POST"
        } else {
            "PATCH"
        };
        let reply = call(&pool, method, &uri, Some(&token), Some(body)).await;
        let body = expect(&reply, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            body["message"].as_str().unwrap().contains("out of range"),
            "{uri}: {body}"
        );
    }
}

#[sqlx::test]
async fn a_method_the_path_does_not_take_gets_a_json_405_with_allow(pool: PgPool) {
    let reply = call(&pool, "PATCH", "/api/v1/tournaments", None, None).await;
    let body = expect(&reply, StatusCode::METHOD_NOT_ALLOWED);
    assert!(body["message"].as_str().unwrap().contains("method"));
    assert_eq!(body["errors"], json!({}));
    let allow = reply.headers["allow"].to_str().unwrap();
    assert!(allow.contains("GET") && allow.contains("POST"), "{allow}");
}

#[sqlx::test]
async fn bodies_over_the_limit_get_a_json_413(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, _) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let big = "a".repeat(3 * 1024 * 1024);
    for (uri, content_type) in [
        ("/api/v1/tournaments".to_string(), "application/json"),
        (
            format!("/api/v1/tournaments/{tid}/import.trf"),
            "text/plain",
        ),
    ] {
        let request = Request::post(uri.as_str())
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", content_type)
            .body(Body::from(big.clone()))
            .unwrap();
        let reply = send(&pool, request).await;
        let body = expect(&reply, StatusCode::PAYLOAD_TOO_LARGE);
        assert!(body["message"].is_string(), "{uri}: {body}");
    }
}

#[sqlx::test]
async fn logging_out_an_unknown_token_is_401(pool: PgPool) {
    let token = admin_token(&pool).await;
    let out = call(&pool, "POST", "/api/v1/auth/logout", Some(&token), None).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    // The same token again, and one that never was.
    for token in [token.as_str(), "not-a-token"] {
        let again = call(&pool, "POST", "/api/v1/auth/logout", Some(token), None).await;
        expect(&again, StatusCode::UNAUTHORIZED);
    }
}

/// The operations of the document, with their method.
fn operations(doc: &Value) -> Vec<(String, &Value)> {
    let mut all = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            all.push((format!("{} {path}", method.to_uppercase()), op));
        }
    }
    all
}

#[sqlx::test]
async fn the_openapi_document_lists_every_answer_a_request_can_get(pool: PgPool) {
    let doc = expect(&get(&pool, "/api/v1/openapi.json").await, StatusCode::OK);
    // Every body can be malformed or too large; a JSON one can come without its content type.
    for (name, op) in operations(&doc) {
        let Some(content) = op["requestBody"]["content"].as_object() else {
            continue;
        };
        let responses = op["responses"].as_object().unwrap();
        let mut needed = vec!["400", "413"];
        if content.contains_key("application/json") {
            needed.push("415");
        }
        for status in needed {
            let error = &responses[status]["content"]["application/json"]["schema"]["$ref"];
            assert_eq!(
                error, "#/components/schemas/ErrorBody",
                "{name} does not document {status}"
            );
        }
    }
    // A creation has no `before`, a deletion no `after`.
    let audit = &doc["components"]["schemas"]["AuditEvent"]["properties"];
    for field in ["before", "after"] {
        assert_eq!(audit[field]["type"], json!(["object", "null"]), "{field}");
    }
    // The CSV import's 422 is the row report, or the error body for an unreadable file.
    let csv = &doc["paths"]["/api/v1/sections/{id}/import.csv"]["post"]["responses"]["422"];
    let schema = &csv["content"]["application/json"]["schema"];
    let rejected = schema["$ref"].as_str().unwrap().rsplit('/').next().unwrap();
    let shapes = doc["components"]["schemas"][rejected]["oneOf"].to_string();
    assert!(
        shapes.contains("CsvImport") && shapes.contains("ErrorBody"),
        "{shapes}"
    );
}

#[sqlx::test]
async fn a_tiebreak_key_with_a_non_ascii_modifier_is_a_422_not_a_dropped_connection(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, _) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    // The core split the modifier after its first byte, inside a character, and panicked.
    for key in ["BH/𔙀1", "SB-é", "PS_中"] {
        let reply = call(
            &pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(&token),
            Some(json!({"name": key, "rounds": 5, "tiebreaks": [key]})),
        )
        .await;
        let body = expect(&reply, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(body["errors"]["tiebreaks"].is_array(), "{key}: {body}");
    }
}

#[tokio::test]
async fn a_panicking_handler_answers_a_json_500_instead_of_dropping_the_connection() {
    use axum::routing::get;
    use tower::ServiceExt;
    let app = axum::Router::new()
        .route(
            "/boom",
            get(|| async {
                let fail = true;
                if fail {
                    panic!("a bug");
                }
                "unreachable"
            }),
        )
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            arbiter::http::error::panic_response,
        ));
    let response = app
        .oneshot(
            axum::http::Request::get("/boom")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        axum::http::StatusCode::INTERNAL_SERVER_ERROR
    );
    let body = axum::body::to_bytes(response.into_body(), 1 << 16)
        .await
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(json["message"], "internal server error");
}
