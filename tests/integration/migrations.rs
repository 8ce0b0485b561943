use sqlx::PgPool;

#[sqlx::test]
async fn migrations_create_every_table_of_the_event_model(pool: PgPool) {
    let tables: Vec<String> = sqlx::query_scalar(
        "select table_name::text from information_schema.tables where table_schema = 'public' order by 1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for expected in [
        "app_user",
        "audit_event",
        "board",
        "entrant",
        "entrant_member",
        "forbidden_pair",
        "foul",
        "game",
        "game_record",
        "knockout_bracket",
        "knockout_match",
        "player",
        "prize",
        "registration",
        "requested_bye",
        "round",
        "section",
        "setup",
        "tournament",
        "tournament_staff",
        "staff_invitation",
        "password_reset",
        "sign_in_throttle",
        "user_session",
    ] {
        assert!(
            tables.iter().any(|t| t == expected),
            "missing table {expected}: {tables:?}"
        );
    }
}

#[sqlx::test]
async fn named_check_constraints_reject_invalid_rows(pool: PgPool) {
    let err = sqlx::query("insert into tournament (name, game) values ('Open', 'chess')")
        .execute(&pool)
        .await
        .unwrap_err();
    assert_eq!(
        err.as_database_error().unwrap().constraint(),
        Some("tournament_game_check")
    );

    let tournament: uuid::Uuid =
        sqlx::query_scalar("insert into tournament (name) values ('Open') returning tournament_id")
            .fetch_one(&pool)
            .await
            .unwrap();
    let err = sqlx::query("insert into section (tournament_id, name, rounds) values ($1, 'A', 0)")
        .bind(tournament)
        .execute(&pool)
        .await
        .unwrap_err();
    assert_eq!(
        err.as_database_error().unwrap().constraint(),
        Some("section_rounds_check")
    );
}

#[sqlx::test]
async fn the_audit_log_is_append_only(pool: PgPool) {
    sqlx::query(
        "insert into audit_event (actor, action, entity) values ('test', 'create', 'tournament')",
    )
    .execute(&pool)
    .await
    .unwrap();
    let update = sqlx::query("update audit_event set action = 'forged'")
        .execute(&pool)
        .await;
    assert!(update.unwrap_err().to_string().contains("append-only"));
    let delete = sqlx::query("delete from audit_event").execute(&pool).await;
    assert!(delete.unwrap_err().to_string().contains("append-only"));
}
