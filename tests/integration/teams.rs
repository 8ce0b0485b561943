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

/// The WXF and Chinese team rankings of an individual section equal a computation from the
/// section's standings in the test; the page shows them in the visitor's language.
#[sqlx::test]
async fn team_rankings_of_an_individual_section(pool: PgPool) {
    use crate::support::{get, lower_number_wins, play_round, tournament_with_section};
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 4})).await;
    // Twelve entrants: clubs A, B, C with three members each, D with one, two without a club.
    let clubs = ["A", "B", "C", "A", "B", "C", "D", "A", "B", "C", "", ""];
    for (i, club) in clubs.iter().enumerate() {
        let mut body = json!({"name": format!("P{}", i + 1), "rating": 2000 - i as i64});
        if !club.is_empty() {
            body["club"] = json!(club);
        }
        expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{sid}/entrants"),
                Some(&token),
                Some(body),
            )
            .await,
            StatusCode::CREATED,
        );
    }
    for _ in 0..3 {
        play_round(&pool, &token, &sid, lower_number_wins).await;
    }
    let standings = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    // Independent computation: (club, places, points) of the best `n` members.
    let best = |n: usize| {
        let mut teams: Vec<(String, Vec<(u64, f64)>)> = Vec::new();
        for (i, row) in standings["rows"].as_array().unwrap().iter().enumerate() {
            let Some(club) = row["club"].as_str().filter(|c| !c.is_empty()) else {
                continue;
            };
            let place = (i + 1) as u64;
            let points = row["points"].as_f64().unwrap();
            match teams.iter_mut().find(|(c, _)| c == club) {
                Some((_, list)) => list.push((place, points)),
                None => teams.push((club.to_string(), vec![(place, points)])),
            }
        }
        teams
            .into_iter()
            .map(|(club, list)| {
                let complete = list.len() >= n;
                let counted = &list[..list.len().min(n)];
                let places: u64 = counted.iter().map(|(p, _)| p).sum();
                let points: f64 = counted.iter().map(|(_, p)| p).sum();
                (club, places, points, complete, counted[0].0)
            })
            .collect::<Vec<_>>()
    };
    // WXF, two members: complete teams first, lower sum of places, then the better best place.
    let mut wxf = best(2);
    wxf.sort_by(|a, b| b.3.cmp(&a.3).then(a.1.cmp(&b.1)).then(a.4.cmp(&b.4)));
    let got = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/team-ranking")).await,
        StatusCode::OK,
    );
    assert_eq!(got["rule"], "wxf");
    assert_eq!(got["members"], 2);
    let rows = got["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "{got}");
    for (row, want) in rows.iter().zip(&wxf) {
        assert_eq!(row["team"], want.0.as_str(), "{got}");
        assert_eq!(row["places"], want.1, "{got}");
        assert_eq!(row["complete"], want.3, "{got}");
        assert_eq!(
            row["counted"].as_array().unwrap().len(),
            if want.3 { 2 } else { 1 }
        );
    }
    assert_eq!(rows[3]["team"], "D");
    // Chinese, three members: higher total first, then lower sum of places.
    let mut chinese = best(3);
    chinese.sort_by(|a, b| {
        b.3.cmp(&a.3)
            .then(b.2.partial_cmp(&a.2).unwrap())
            .then(a.1.cmp(&b.1))
            .then(a.4.cmp(&b.4))
    });
    let got = expect(
        &get(
            &pool,
            &format!("/api/v1/sections/{sid}/team-ranking?rule=chinese&members=3"),
        )
        .await,
        StatusCode::OK,
    );
    let rows = got["rows"].as_array().unwrap();
    for (row, want) in rows.iter().zip(&chinese) {
        assert_eq!(row["team"], want.0.as_str(), "{got}");
        assert_eq!(row["points"].as_f64().unwrap(), want.2, "{got}");
        assert_eq!(row["places"], want.1, "{got}");
    }
    // Bad input says what to fix.
    for query in ["rule=elo", "members=0", "members=11"] {
        let reply = get(
            &pool,
            &format!("/api/v1/sections/{sid}/team-ranking?{query}"),
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}: {}",
            reply.text
        );
    }
    // The page, in English and in Chinese.
    let page = get(&pool, &format!("/s/{sid}/teams?lang=en")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("Team ranking"), "{}", page.text);
    assert!(page.text.contains(&format!(">{}<", wxf[0].0)) || page.text.contains(&wxf[0].0));
    let page = get(
        &pool,
        &format!("/s/{sid}/teams?rule=chinese&members=3&lang=zh-Hans"),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("团体排名"), "{}", page.text);
    let page = get(&pool, &format!("/s/{sid}/teams?rule=elo")).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
}
