use crate::support::get;
use axum::http::StatusCode;
use serde_json::json;
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use std::time::Duration;

#[sqlx::test]
async fn healthz_says_ok_when_the_database_answers(pool: PgPool) {
    let reply = get(&pool, "/healthz").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json(), json!({"status": "ok", "database": "ok"}));
    let ready = get(&pool, "/readyz").await;
    assert_eq!(ready.status, StatusCode::OK);
}

#[tokio::test]
async fn healthz_says_down_with_503_when_the_database_is_unreachable() {
    // Port 1 on loopback: nothing listens there, so every connection attempt fails fast.
    let pool = PgPoolOptions::new()
        .acquire_timeout(Duration::from_millis(500))
        .connect_lazy("postgres://nobody@127.0.0.1:1/none")
        .expect("lazy pool");
    let reply = get(&pool, "/healthz").await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(reply.json()["database"], "down");
    assert_eq!(
        get(&pool, "/readyz").await.status,
        StatusCode::SERVICE_UNAVAILABLE
    );
}

#[sqlx::test]
async fn the_home_page_shows_an_empty_state_then_lists_tournaments(pool: PgPool) {
    let reply = get(&pool, "/?lang=en").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.content_type.starts_with("text/html"));
    assert!(reply.text.contains(r#"<html lang="en">"#));
    assert!(reply.text.contains("No tournaments yet"), "{}", reply.text);

    sqlx::query(
        "insert into tournament (name, game) values ('<script>alert(1)</script> Open', 'jieqi')",
    )
    .execute(&pool)
    .await
    .unwrap();
    let reply = get(&pool, "/?lang=zh-Hant").await;
    assert!(reply.text.contains(r#"<html lang="zh-Hant">"#));
    assert!(
        reply
            .text
            .contains("&#60;script&#62;alert(1)&#60;/script&#62; Open")
            || reply
                .text
                .contains("&lt;script&gt;alert(1)&lt;/script&gt; Open"),
        "{}",
        reply.text
    );
    assert!(!reply.text.contains("<script>alert(1)"));
    assert!(reply.text.contains("揭棋"));
}

#[sqlx::test]
async fn unknown_paths_get_404_json_in_the_api_and_html_elsewhere(pool: PgPool) {
    let api = get(&pool, "/api/v1/no/such/thing").await;
    assert_eq!(api.status, StatusCode::NOT_FOUND);
    assert_eq!(api.json()["message"], "no such API endpoint");
    let page = get(&pool, "/no/such/page?lang=en").await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert!(page.text.contains("Page not found"));
}

#[sqlx::test]
async fn static_files_are_served(pool: PgPool) {
    let css = get(&pool, "/static/css/app.css").await;
    assert_eq!(css.status, StatusCode::OK);
    assert!(css.content_type.starts_with("text/css"));
}

#[sqlx::test]
async fn the_browsers_default_icon_path_leads_to_the_site_icon(pool: PgPool) {
    let reply = get(&pool, "/favicon.ico").await;
    assert_eq!(reply.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(reply.headers["location"], "/static/favicon.svg");
    let icon = get(&pool, "/static/favicon.svg").await;
    assert_eq!(icon.status, StatusCode::OK);
}

#[sqlx::test]
async fn metrics_parse_as_the_prometheus_text_format(pool: PgPool) {
    // Some traffic first: a page, an API call, an unknown path.
    assert_eq!(get(&pool, "/").await.status, StatusCode::OK);
    get(&pool, "/api/v1/tournaments").await;
    get(&pool, "/no/such/page").await;
    let reply = get(&pool, "/metrics").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        reply.content_type.contains("text"),
        "{}",
        reply.content_type
    );
    let lines = reply.text.lines().map(|l| Ok(l.to_string()));
    let scrape = prometheus_parse::Scrape::parse(lines).expect("the Prometheus text format");
    let value = |name: &str, label: Option<(&str, &str)>| {
        scrape
            .samples
            .iter()
            .filter(|s| s.metric == name)
            .filter(|s| label.is_none_or(|(k, v)| s.labels.get(k) == Some(v)))
            .map(|s| match s.value {
                prometheus_parse::Value::Counter(v)
                | prometheus_parse::Value::Gauge(v)
                | prometheus_parse::Value::Untyped(v) => v,
                _ => 0.0,
            })
            .sum::<f64>()
    };
    assert!(value("arbiter_http_requests_total", Some(("route", "/"))) >= 1.0);
    assert!(
        value(
            "arbiter_http_requests_total",
            Some(("route", "/api/v1/tournaments"))
        ) >= 1.0
    );
    // Unknown paths are counted under one label, never by their own path.
    assert!(value("arbiter_http_requests_total", Some(("route", "unmatched"))) >= 1.0);
    assert!(!reply.text.contains("/no/such/page"));
    // Latency histograms, pool gauges and the desk's queue are there.
    assert!(scrape
        .samples
        .iter()
        .any(|s| s.metric == "arbiter_http_request_duration_seconds"
            && matches!(s.value, prometheus_parse::Value::Histogram(_))));
    assert!(value("arbiter_db_pool_max_connections", None) >= 1.0);
    assert!(scrape
        .samples
        .iter()
        .any(|s| s.metric == "arbiter_reports_pending"));
    assert!(scrape.docs.contains_key("arbiter_pairing_duration_seconds"));
}
