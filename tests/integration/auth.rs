use crate::support::{post_json, post_raw};
use arbiter::service;
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

#[sqlx::test]
async fn a_user_logs_in_with_the_right_password_only(pool: PgPool) {
    service::users::create_user(&pool, "chief", "correct horse", "admin")
        .await
        .unwrap();
    let ok = post_json(
        &pool,
        "/api/v1/auth/login",
        &json!({"username": "chief", "password": "correct horse"}),
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK);
    let token = ok.json()["token"].as_str().unwrap().to_string();
    assert_eq!(token.len(), 64);
    let actor = service::users::authenticate(&pool, &token)
        .await
        .unwrap()
        .expect("valid token");
    assert_eq!(actor.username, "chief");

    let bad = post_json(
        &pool,
        "/api/v1/auth/login",
        &json!({"username": "chief", "password": "wrong"}),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNAUTHORIZED);
    assert_eq!(bad.json()["message"], "wrong username or password");
}

#[sqlx::test]
async fn malformed_json_gets_a_4xx_json_body_not_plain_text(pool: PgPool) {
    let broken = post_raw(
        &pool,
        "/api/v1/auth/login",
        "application/json",
        "{\"username\": ",
    )
    .await;
    assert_eq!(broken.status, StatusCode::BAD_REQUEST);
    assert!(broken.json()["message"]
        .as_str()
        .unwrap()
        .starts_with("invalid JSON body"));

    let wrong_shape = post_json(&pool, "/api/v1/auth/login", &json!({"username": 5})).await;
    assert_eq!(wrong_shape.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong_shape.json()["message"]
        .as_str()
        .unwrap()
        .contains("username"));

    let no_type = post_raw(&pool, "/api/v1/auth/login", "text/plain", "{}").await;
    assert_eq!(no_type.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(no_type.json()["message"]
        .as_str()
        .unwrap()
        .contains("Content-Type"));
}

#[sqlx::test]
async fn duplicate_usernames_and_short_passwords_are_refused_with_field_errors(pool: PgPool) {
    service::users::create_user(&pool, "chief", "long enough", "admin")
        .await
        .unwrap();
    match service::users::create_user(&pool, "chief", "long enough", "admin").await {
        Err(service::Error::Invalid { fields, .. }) => {
            assert!(fields["username"][0].to_string().contains("already exists"))
        }
        other => panic!("expected a field error, got {other:?}"),
    }
    match service::users::create_user(&pool, "deputy", "short", "user").await {
        Err(service::Error::Invalid { fields, .. }) => assert!(fields.contains_key("password")),
        other => panic!("expected a field error, got {other:?}"),
    }
}

#[sqlx::test]
async fn logging_in_removes_expired_sessions_but_keeps_live_ones(pool: PgPool) {
    service::users::create_user(&pool, "chief", "correct horse", "admin")
        .await
        .unwrap();
    let live = service::users::login(&pool, "chief", "correct horse", "api")
        .await
        .unwrap();
    sqlx::query(
        "insert into user_session (token_hash, user_id, kind, expires_at)
         select '\\x00'::bytea, user_id, 'browser', now() - interval '1 hour' from app_user",
    )
    .execute(&pool)
    .await
    .unwrap();
    let count = || async {
        sqlx::query_scalar::<_, i64>("select count(*) from user_session")
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    assert_eq!(count().await, 2);

    service::users::login(&pool, "chief", "correct horse", "browser")
        .await
        .unwrap();
    assert_eq!(
        count().await,
        2,
        "the expired session is gone, the new one added"
    );
    assert!(service::users::authenticate(&pool, &live)
        .await
        .unwrap()
        .is_some());
}
