//! Exports for a Chinese organiser's spreadsheet (issue #39 item 7): the standings CSV with a
//! UTF-8 byte-order mark and heads in the page's language (machine heads on request, and in
//! the API), every export a download with a sensible file name (RFC 6266/5987).

use crate::seeds::{play, Dice};
use crate::support::{admin_browser, call, Reply};
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

fn disposition(reply: &Reply) -> String {
    reply
        .headers
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

#[sqlx::test]
async fn exports_are_downloads_and_the_csv_opens_in_a_chinese_spreadsheet(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let t = crate::support::api(
        &pool,
        &token,
        "POST",
        "/api/v1/tournaments",
        Some(json!({"name": "象棋公開賽", "game": "xiangqi"})),
    )
    .await;
    let tid = t["id"].as_str().unwrap();
    let section = crate::support::api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/tournaments/{tid}/sections"),
        Some(json!({"name": "甲組", "rounds": 3, "tiebreaks": ["BH", "SB"]})),
    )
    .await;
    let sid = section["id"].as_str().unwrap().to_string();
    crate::support::add_entrants(&pool, &token, &sid, 4).await;
    play(&pool, &token, &sid, 1, &mut Dice(2)).await;

    // The page's CSV: BOM, heads in the page's language, a download named after the event.
    browser.accept_language = Some("zh-TW".into());
    let csv = browser.get(&format!("/s/{sid}/standings.csv")).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(
        csv.content_type.starts_with("text/csv"),
        "{}",
        csv.content_type
    );
    assert!(csv.text.starts_with('\u{FEFF}'), "a UTF-8 byte-order mark");
    let head = csv
        .text
        .trim_start_matches('\u{FEFF}')
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert!(head.starts_with("名次,序號,姓名,單位,積分,"), "{head}");
    assert!(!head.contains("BH") && !head.contains("start_no"), "{head}");
    let how = disposition(&csv);
    assert!(how.starts_with("attachment;"), "{how}");
    assert!(
        how.contains("filename=\""),
        "an ASCII name for old clients: {how}"
    );
    // 象棋公開賽-甲組-排名.csv in UTF-8, percent-encoded (RFC 5987).
    assert!(
        how.contains("filename*=UTF-8''%E8%B1%A1%E6%A3%8B%E5%85%AC%E9%96%8B%E8%B3%BD-%E7%94%B2%E7%B5%84-%E6%8E%92%E5%90%8D.csv"),
        "{how}"
    );
    // The same in simplified Chinese and English.
    let zh_hans = browser
        .get(&format!("/s/{sid}/standings.csv?lang=zh-Hans"))
        .await;
    assert!(zh_hans
        .text
        .trim_start_matches('\u{FEFF}')
        .starts_with("名次,序号,"));
    let en = browser
        .get(&format!("/s/{sid}/standings.csv?lang=en"))
        .await;
    assert!(en
        .text
        .trim_start_matches('\u{FEFF}')
        .starts_with("Rank,No.,Name,Club,Points,"));
    // Machine heads on request.
    let machine = browser
        .get(&format!("/s/{sid}/standings.csv?headers=machine"))
        .await;
    assert!(machine
        .text
        .starts_with("\u{FEFF}rank,start_no,name,club,points,BH,SB"));
    // The desk links the spreadsheet's CSV.
    let desk = browser.get(&format!("/admin/s/{sid}/standings")).await;
    assert!(
        desk.text.contains(&format!("/s/{sid}/standings.csv")),
        "linked"
    );

    // The API keeps machine heads without a BOM (programs read it), also as a download.
    let api = call(
        &pool,
        "GET",
        &format!("/api/v1/sections/{sid}/standings.csv"),
        None,
        None,
    )
    .await;
    assert!(
        api.text.starts_with("rank,start_no,name,club,points,BH,SB"),
        "{}",
        api.text
    );
    assert!(disposition(&api).starts_with("attachment;"));

    // The TRF downloads instead of opening as text: the desk's and the API's.
    let trf = browser.get(&format!("/admin/s/{sid}/export.trf")).await;
    assert_eq!(trf.status, StatusCode::OK);
    let how = disposition(&trf);
    assert!(
        how.starts_with("attachment;") && how.contains(".trf"),
        "{how}"
    );
    assert!(
        how.contains("%E7%94%B2%E7%B5%84.trf"),
        "named after the section: {how}"
    );
    let trf = call(
        &pool,
        "GET",
        &format!("/api/v1/sections/{sid}/export.trf"),
        None,
        None,
    )
    .await;
    assert!(disposition(&trf).starts_with("attachment;"));

    // The event file: named after the event.
    let file = browser.get(&format!("/admin/t/{tid}/export.json")).await;
    let how = disposition(&file);
    assert!(
        how.starts_with("attachment;") && how.contains("-event.json"),
        "{how}"
    );
    assert!(how.contains("%E8%B1%A1%E6%A3%8B"), "{how}");
}

#[sqlx::test]
async fn an_admin_downloads_a_backup_of_the_whole_server_from_the_dashboard(pool: PgPool) {
    use crate::support::{csrf_of, state, token_for, Browser};
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let (_, mut admin) = admin_browser(&pool).await;
    let dashboard = admin.get("/admin").await;
    assert!(
        dashboard.text.contains("action=\"/admin/backup\""),
        "the admin's button"
    );
    let csrf = csrf_of(&dashboard.text);
    // The server's database (the throwaway cluster's), as `arbiter serve` would be given.
    let mut app_state = state(&pool);
    let mut security = (*app_state.security).clone();
    security.backup = Some(arbiter::backup::Source {
        database_url: std::env::var("DATABASE_URL").ok(),
        data_dir: std::env::temp_dir(),
    });
    app_state.security = std::sync::Arc::new(security);
    let post = |cookie: String, csrf: String| {
        let app_state = app_state.clone();
        async move {
            let request = Request::post("/admin/backup")
                .header("cookie", cookie)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Body::from(format!("csrf={csrf}")))
                .unwrap();
            let response = arbiter::http::app(app_state)
                .oneshot(request)
                .await
                .unwrap();
            let status = response.status();
            let headers = response.headers().clone();
            let body = response.into_body().collect().await.unwrap().to_bytes();
            (status, headers, body)
        }
    };
    let (status, headers, body) = post(admin.cookie_header(), csrf).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    let how = headers["content-disposition"].to_str().unwrap();
    assert!(
        how.starts_with("attachment;") && how.contains(".dump"),
        "{how}"
    );
    assert!(body.starts_with(b"PGDMP"), "pg_dump's custom format");
    assert!(body.len() > 1_000, "a whole dump: {} bytes", body.len());

    // Anyone else: no button, and 403.
    token_for(&pool, "nobody", "user").await;
    let mut user = Browser::new(&pool);
    user.log_in("nobody", "a long password").await;
    let dashboard = user.get("/admin").await;
    assert!(!dashboard.text.contains("/admin/backup"));
    let csrf = csrf_of(&dashboard.text);
    let (status, _, body) = post(user.cookie_header(), csrf).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(!body.starts_with(b"PGDMP"));
}
