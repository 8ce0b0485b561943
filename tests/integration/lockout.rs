//! Lock-out that an attacker cannot trigger against the owner (issue #35, item 5; OWASP's
//! device cookies): strangers' wrong passwords lock the account out for strangers, but the
//! owner on a device that signed in before (page: the device cookie; API: the `device`
//! proof) still signs in. Guesses of the current password at `PUT /me/password` are limited
//! too (item 11).

use crate::support::{admin_browser, csrf_of, send, Browser, Reply};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use sqlx::PgPool;
use std::net::SocketAddr;

const PASSWORD: &str = "a long password";

fn from(ip: &str) -> ConnectInfo<SocketAddr> {
    ConnectInfo(format!("{ip}:40000").parse().unwrap())
}

/// `POST /api/v1/auth/login` from `ip`, with a device proof or none.
async fn api_login(pool: &PgPool, ip: &str, password: &str, device: Option<&str>) -> Reply {
    let mut body = json!({"username": "chief", "password": password});
    if let Some(device) = device {
        body["device"] = Value::from(device);
    }
    let mut request = Request::post("/api/v1/auth/login")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    request.extensions_mut().insert(from(ip));
    send(pool, request).await
}

/// Strangers from eleven addresses guess wrong eleven times.
async fn strangers_guess(pool: &PgPool) {
    for i in 1..=11 {
        let reply = api_login(pool, &format!("198.51.100.{i}"), "wrong guess", None).await;
        assert!(
            reply.status == StatusCode::UNAUTHORIZED
                || reply.status == StatusCode::TOO_MANY_REQUESTS,
            "{}: {}",
            reply.status,
            reply.text
        );
    }
    // The account is locked for strangers now, the right password too.
    let stranger = api_login(pool, "198.51.100.99", PASSWORD, None).await;
    assert_eq!(
        stranger.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        stranger.text
    );
}

/// The browser's form sign-in; the status.
async fn page_login(browser: &mut Browser, password: &str) -> StatusCode {
    let form = browser.get("/login").await;
    let csrf = csrf_of(&form.text);
    browser
        .post_form(
            "/login",
            &[
                ("csrf", &csrf),
                ("username", "chief"),
                ("password", password),
            ],
        )
        .await
        .status
}

#[sqlx::test]
async fn strangers_lock_the_account_out_for_strangers_but_not_for_the_owners_devices(pool: PgPool) {
    // The owner signed in before: in a browser (device cookie) and through the API (proof).
    let (_, mut owner_browser) = admin_browser(&pool).await;
    assert!(
        owner_browser.cookies.contains_key("arbiter_device"),
        "no device cookie after a sign-in: {:?}",
        owner_browser.cookies.keys()
    );
    let first = api_login(&pool, "192.0.2.10", PASSWORD, None).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let device = first.json()["device"].as_str().unwrap().to_string();
    assert_eq!(device.len(), 64);

    strangers_guess(&pool).await;

    // A new browser (no device cookie) is a stranger.
    let mut new_browser = Browser::new(&pool);
    assert_eq!(
        page_login(&mut new_browser, PASSWORD).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // The owner's browser signs in.
    owner_browser
        .cookies
        .retain(|name, _| name == "arbiter_device" || name.contains("csrf"));
    assert_eq!(
        page_login(&mut owner_browser, PASSWORD).await,
        StatusCode::SEE_OTHER
    );
    // The owner's API client signs in with its proof, and keeps it.
    let again = api_login(&pool, "192.0.2.10", PASSWORD, Some(&device)).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json()["device"], device.as_str());
    // A proof is not a free pass: its own wrong guesses are limited like the account's.
    let mut last = StatusCode::OK;
    for _ in 0..11 {
        last = api_login(&pool, "192.0.2.10", "wrong guess", Some(&device))
            .await
            .status;
    }
    assert_eq!(last, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        api_login(&pool, "192.0.2.10", PASSWORD, Some(&device))
            .await
            .status,
        StatusCode::TOO_MANY_REQUESTS
    );
    // A made-up proof counts as none.
    let made_up = "ab".repeat(32);
    assert_eq!(
        api_login(&pool, "192.0.2.11", PASSWORD, Some(&made_up))
            .await
            .status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[sqlx::test]
async fn guesses_of_the_current_password_are_limited(pool: PgPool) {
    let token = crate::support::admin_token(&pool).await;
    let change = |current: &str| {
        let mut request = Request::put("/api/v1/me/password")
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"))
            .body(Body::from(
                json!({"current_password": current, "new_password": "another long password"})
                    .to_string(),
            ))
            .unwrap();
        request.extensions_mut().insert(from("192.0.2.20"));
        send(&pool, request)
    };
    let mut statuses = Vec::new();
    for i in 0..11 {
        statuses.push(change(&format!("guess number {i}")).await.status);
    }
    assert!(
        statuses[..10]
            .iter()
            .all(|s| *s == StatusCode::UNPROCESSABLE_ENTITY),
        "{statuses:?}"
    );
    let locked = change("guess number 11").await;
    assert_eq!(
        locked.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        locked.text
    );
    // Locked out, the right password too; the password is unchanged.
    assert_eq!(change(PASSWORD).await.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        arbiter::service::users::login(&pool, "chief", PASSWORD, "api")
            .await
            .is_ok()
    );
}

/// Issue #35 item 11: the sign-in page's 429, like the API's, says when to come back.
#[sqlx::test]
async fn a_locked_out_sign_in_page_says_when_to_come_back(pool: PgPool) {
    let _ = admin_browser(&pool).await;
    strangers_guess(&pool).await;
    let mut browser = Browser::new(&pool);
    let form = browser.get("/login").await;
    let csrf = csrf_of(&form.text);
    let reply = browser
        .post_form(
            "/login",
            &[
                ("csrf", &csrf),
                ("username", "chief"),
                ("password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(
        reply.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        reply.text
    );
    let seconds: u64 = reply
        .headers
        .get("retry-after")
        .expect("Retry-After on the page's 429")
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&seconds), "{seconds}");
    let api = api_login(&pool, "198.51.100.98", PASSWORD, None).await;
    assert_eq!(api.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(api.headers.get("retry-after").is_some());
}
