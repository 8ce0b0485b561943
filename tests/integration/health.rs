use crate::support::{get, send};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
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
        "insert into tournament (name, game, status)
         values ('<script>alert(1)</script> Open', 'jieqi', 'registration')",
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
    let reply = scrape(&pool, "127.0.0.1:40000", None).await;
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

/// `GET /metrics` from `peer`, with a bearer token or none.
async fn scrape(pool: &PgPool, peer: &str, token: Option<&str>) -> crate::support::Reply {
    let peer: std::net::SocketAddr = peer.parse().unwrap();
    let mut request = Request::get("/metrics");
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    let mut request = request.body(Body::empty()).unwrap();
    request.extensions_mut().insert(ConnectInfo(peer));
    send(pool, request).await
}

#[sqlx::test]
async fn random_method_names_add_at_most_one_series(pool: PgPool) {
    use rand_chacha::rand_core::{RngCore as _, SeedableRng as _};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(35);
    for _ in 0..100 {
        let method: String = (0..12)
            .map(|_| char::from(b'A' + (rng.next_u32() % 26) as u8))
            .collect();
        let request = Request::builder()
            .method(method.as_str())
            .uri("/healthz")
            .body(Body::empty())
            .unwrap();
        send(&pool, request).await;
    }
    let text = scrape(&pool, "127.0.0.1:40000", None).await.text;
    let standard = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE",
    ];
    let odd: std::collections::BTreeSet<&str> = text
        .lines()
        .filter(|l| l.starts_with("arbiter_http_requests_total{"))
        .filter(|l| l.contains("route=\"/healthz\""))
        .filter(|l| {
            !standard
                .iter()
                .any(|m| l.contains(&format!("method=\"{m}\"")))
        })
        .collect();
    assert!(
        odd.len() <= 1,
        "{} series for 100 random methods: {odd:?}",
        odd.len()
    );
    assert!(
        odd.iter().all(|l| l.contains("method=\"other\"")),
        "{odd:?}"
    );
}

#[sqlx::test]
async fn metrics_are_for_this_machine_or_the_token_holder(pool: PgPool) {
    // Without ConnectInfo or from another address: not there.
    assert_eq!(get(&pool, "/metrics").await.status, StatusCode::NOT_FOUND);
    let outside = scrape(&pool, "203.0.113.9:5000", None).await;
    assert_eq!(outside.status, StatusCode::NOT_FOUND);
    assert!(!outside.text.contains("arbiter_http_requests_total"));
    assert_eq!(
        scrape(&pool, "[::1]:5000", None).await.status,
        StatusCode::OK
    );
    // With a token configured, a scraper elsewhere with the token reads them; a wrong token
    // does not.
    let token = "a-scraper-token-0123456789";
    let mut state = crate::support::state(&pool);
    let mut security = (*state.security).clone();
    security.metrics_token = Some(token.to_string());
    state.security = std::sync::Arc::new(security);
    let call = |auth: Option<&str>| {
        let mut request = Request::get("/metrics");
        if let Some(auth) = auth {
            request = request.header("Authorization", format!("Bearer {auth}"));
        }
        let mut request = request.body(Body::empty()).unwrap();
        request.extensions_mut().insert(ConnectInfo(
            "203.0.113.9:5000".parse::<std::net::SocketAddr>().unwrap(),
        ));
        use tower::ServiceExt as _;
        arbiter::http::app(state.clone()).oneshot(request)
    };
    assert_eq!(call(Some(token)).await.unwrap().status(), StatusCode::OK);
    assert_eq!(
        call(Some("a-scraper-token-0123456780"))
            .await
            .unwrap()
            .status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(call(None).await.unwrap().status(), StatusCode::NOT_FOUND);
}
