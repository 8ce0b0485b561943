//! TRF and CSV interchange, and the audit log.

use crate::support::{
    add_entrants, admin_token, call, expect, get, send, token_for, tournament_with_section,
};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;
use sqlx::PgPool;

async fn post_text(
    pool: &PgPool,
    uri: &str,
    token: &str,
    content_type: &str,
    body: &str,
) -> crate::support::Reply {
    let request = Request::post(uri)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", content_type)
        .body(Body::from(body.to_string()))
        .unwrap();
    send(pool, request).await
}

#[sqlx::test]
async fn a_section_exported_as_trf_imports_back_with_the_same_standings(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(
        &pool,
        &token,
        "jieqi",
        json!({"rounds": 3, "pairing_system": "dutch"}),
    )
    .await;
    add_entrants(&pool, &token, &sid, 7).await;
    for round in 1..=2 {
        let r = expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{sid}/rounds"),
                Some(&token),
                None,
            )
            .await,
            StatusCode::CREATED,
        );
        for (i, b) in r["boards"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| !b["black"].is_null())
            .enumerate()
        {
            let result = ["red_wins", "draw", "black_wins", "red_forfeits"][(i + round) % 4];
            let id = b["id"].as_str().unwrap();
            expect(
                &call(
                    &pool,
                    "PUT",
                    &format!("/api/v1/boards/{id}/result"),
                    Some(&token),
                    Some(json!({"result": result})),
                )
                .await,
                StatusCode::OK,
            );
        }
    }
    let trf = get(&pool, &format!("/api/v1/sections/{sid}/export.trf")).await;
    assert_eq!(trf.status, StatusCode::OK);
    assert!(trf.content_type.starts_with("text/plain"));
    assert!(
        trf.text.contains("\n142 3\n")
            && trf.text.contains("XXR 3")
            && trf.text.contains("192 FIDE_DUTCH_2026"),
        "{}",
        trf.text
    );
    assert!(trf.text.contains("162  W 2.0"), "{}", trf.text);
    assert!(
        !trf.text.contains("example.org"),
        "no contact data in exports"
    );

    let imported = expect(
        &post_text(
            &pool,
            &format!("/api/v1/tournaments/{tid}/import.trf?name=Copy"),
            &token,
            "text/plain",
            &trf.text,
        )
        .await,
        StatusCode::CREATED,
    );
    let copy = imported["id"].as_str().unwrap();
    let original = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    let copied = expect(
        &get(&pool, &format!("/api/v1/sections/{copy}/standings")).await,
        StatusCode::OK,
    );
    let table = |v: &serde_json::Value| -> Vec<(i64, i64, f64)> {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["rank"].as_i64().unwrap(),
                    r["start_no"].as_i64().unwrap(),
                    r["points"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(table(&original), table(&copied));
    // The copy goes on: round 3 pairs.
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{copy}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );

    let broken = expect(
        &post_text(
            &pool,
            &format!("/api/v1/tournaments/{tid}/import.trf"),
            &token,
            "text/plain",
            "001 x\n",
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(
        broken["errors"]["file"][0]
            .as_str()
            .unwrap()
            .starts_with("line 1, column 5"),
        "{broken}"
    );
}

#[sqlx::test]
async fn a_csv_import_reports_every_bad_row_before_writing_anything(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let uri = format!("/api/v1/sections/{sid}/import.csv?apply=true");
    let bad = "name,rating,email,gender\n張三,1800,zhang@example.org,男\n,abc,not-an-email,m\nLi Si,2100,,f\n";
    let report = expect(
        &post_text(&pool, &uri, &token, "text/csv", bad).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert_eq!(report["rows"], 3);
    assert_eq!(report["applied"], false);
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["line"], 3);
    for field in ["name", "rating", "email"] {
        assert!(
            errors[0]["errors"].get(field).is_some(),
            "{field}: {report}"
        );
    }
    assert!(expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/entrants")).await,
        StatusCode::OK
    )
    .as_array()
    .unwrap()
    .is_empty());

    let good = "name,rating,email,gender\n張三,1800,zhang@example.org,男\nLi Si,2100,,f\n";
    let preview = expect(
        &post_text(
            &pool,
            &format!("/api/v1/sections/{sid}/import.csv"),
            &token,
            "text/csv",
            good,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(preview["applied"], false);
    let done = expect(
        &post_text(&pool, &uri, &token, "text/csv", good).await,
        StatusCode::OK,
    );
    assert_eq!(done["applied"], true);
    let entrants = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/entrants")).await,
        StatusCode::OK,
    );
    assert_eq!(entrants.as_array().unwrap().len(), 2);
    assert_eq!(entrants[0]["name"], "張三");
}

#[sqlx::test]
async fn standings_export_as_csv(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) =
        tournament_with_section(&pool, &token, "xiangqi", json!({"preset": "seed004_tw"})).await;
    add_entrants(&pool, &token, &sid, 3).await;
    let csv = get(&pool, &format!("/api/v1/sections/{sid}/standings.csv")).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(
        csv.text
            .starts_with("rank,start_no,name,club,points,OPP,DE,FOULS\n"),
        "{}",
        csv.text
    );
    assert_eq!(csv.text.lines().count(), 4);
}

#[sqlx::test]
async fn the_audit_log_records_who_did_what_and_is_for_arbiters_only(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 2).await;
    let log = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/audit"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let actions: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, vec!["create", "create", "create", "create"]);
    assert_eq!(log[0]["entity"], "tournament");
    assert_eq!(log[0]["actor"], "chief");
    assert!(log[2]["after"]["members"][0]["email"].is_string());
    let page = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/audit?after={}", log[1]["id"]),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(page.as_array().unwrap().len(), 2);
    assert_eq!(
        call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/audit"),
            None,
            None
        )
        .await
        .status,
        StatusCode::UNAUTHORIZED
    );
    let outsider = token_for(&pool, "outsider", "user").await;
    assert_eq!(
        call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/audit"),
            Some(&outsider),
            None
        )
        .await
        .status,
        StatusCode::FORBIDDEN
    );
}
