//! HTML pages: login and sessions, CSRF, forms, languages, escaping.

use crate::support::{csrf_of, location, send, Browser, Reply};
use arbiter::service;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use sqlx::PgPool;

fn set_cookie(reply: &Reply, name: &str) -> Option<String> {
    reply
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|v| v.starts_with(&format!("{name}=")))
}

#[sqlx::test]
async fn the_dashboard_sends_visitors_to_the_login_page_and_back(pool: PgPool) {
    service::users::create_user(&pool, "chief-a", "correct horse", "admin")
        .await
        .unwrap();
    let mut browser = Browser::new(&pool);
    let away = browser.get("/admin?tab=1").await;
    assert_eq!(away.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&away), "/login?next=%2Fadmin%3Ftab%3D1");
    let anonymous = set_cookie(&away, "arbiter_csrf").expect("anonymous CSRF cookie");
    assert!(anonymous.contains("HttpOnly") && anonymous.contains("SameSite=Lax"));

    let form = browser.get(location(&away)).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.content_type.starts_with("text/html"));
    assert!(form.text.contains(r#"name="next" value="/admin?tab=1""#));
    let csrf = csrf_of(&form.text);
    assert_eq!(csrf.len(), 64);
    assert!(
        set_cookie(&form, "arbiter_csrf").is_none(),
        "kept, not renewed"
    );

    let done = browser
        .post_form(
            "/login",
            &[
                ("csrf", &csrf),
                ("username", "chief-a"),
                ("password", "correct horse"),
                ("next", "/admin?tab=1"),
            ],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert_eq!(location(&done), "/admin?tab=1");
    let session = set_cookie(&done, "arbiter_session").expect("session cookie");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(session.contains(attribute), "{session} lacks {attribute}");
    }
    let stored: i64 =
        sqlx::query_scalar("select count(*) from user_session where kind = 'browser'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(stored, 1);

    let dashboard = browser.get("/admin").await;
    assert_eq!(dashboard.status, StatusCode::OK);
    assert!(dashboard.text.contains("chief-a"));
    assert!(dashboard.text.contains(r#"action="/logout""#));
    // Logged in, the login page sends the user on.
    assert_eq!(browser.get("/login").await.status, StatusCode::SEE_OTHER);
}

#[sqlx::test]
async fn logging_out_ends_the_session_and_clears_the_cookie(pool: PgPool) {
    service::users::create_user(&pool, "chief-b", "correct horse", "user")
        .await
        .unwrap();
    let mut browser = Browser::new(&pool);
    browser.log_in("chief-b", "correct horse").await;
    let token = browser.cookies["arbiter_session"].clone();
    let dashboard = browser.get("/admin").await;
    let csrf = csrf_of(&dashboard.text);

    let out = browser.post_form("/logout", &[("csrf", &csrf)]).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&out), "/");
    assert!(set_cookie(&out, "arbiter_session")
        .unwrap()
        .contains("Max-Age=0"));
    assert!(service::users::authenticate(&pool, &token)
        .await
        .unwrap()
        .is_none());
    assert_eq!(browser.get("/admin").await.status, StatusCode::SEE_OTHER);
}

#[sqlx::test]
async fn a_failed_login_shows_the_message_next_to_the_field_and_keeps_the_username(pool: PgPool) {
    service::users::create_user(&pool, "chief-c", "correct horse", "admin")
        .await
        .unwrap();
    let mut browser = Browser::new(&pool);
    let form = browser.get("/login?lang=en").await;
    let csrf = csrf_of(&form.text);
    let wrong = browser
        .post_form(
            "/login",
            &[
                ("csrf", &csrf),
                ("username", "chief-c"),
                ("password", "nope"),
            ],
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong.text.contains(r#"value="chief-c""#));
    assert!(wrong
        .text
        .contains(r#"<p class="field-error" id="password-error">Wrong username or password.</p>"#));
    assert!(set_cookie(&wrong, "arbiter_session").is_none());

    let empty = browser
        .post_form(
            "/login",
            &[("csrf", &csrf), ("username", " "), ("password", "x")],
        )
        .await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(empty
        .text
        .contains(r#"id="username-error">Enter your username."#));
}

#[sqlx::test]
async fn logins_are_rate_limited_per_username(pool: PgPool) {
    service::users::create_user(&pool, "chief-limited", "correct horse", "admin")
        .await
        .unwrap();
    let mut browser = Browser::new(&pool);
    let csrf = csrf_of(&browser.get("/login?lang=en").await.text);
    for _ in 0..10 {
        let reply = browser
            .post_form(
                "/login",
                &[
                    ("csrf", &csrf),
                    ("username", "chief-limited"),
                    ("password", "guess"),
                ],
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    // Even the right password is refused until the window has passed.
    let blocked = browser
        .post_form(
            "/login",
            &[
                ("csrf", &csrf),
                ("username", "chief-limited"),
                ("password", "correct horse"),
            ],
        )
        .await;
    assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(blocked.text.contains("Too many attempts"));
    assert!(set_cookie(&blocked, "arbiter_session").is_none());
}

#[sqlx::test]
async fn forms_without_a_valid_csrf_token_get_a_403_page(pool: PgPool) {
    service::users::create_user(&pool, "chief-d", "correct horse", "admin")
        .await
        .unwrap();
    let mut browser = Browser::new(&pool);
    browser.get("/login?lang=en").await;
    for csrf in [
        "",
        "0000000000000000000000000000000000000000000000000000000000000000",
    ] {
        let reply = browser
            .post_form(
                "/login",
                &[
                    ("csrf", csrf),
                    ("username", "chief-d"),
                    ("password", "correct horse"),
                ],
            )
            .await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN);
        assert!(reply.content_type.starts_with("text/html"));
        assert!(reply.text.contains("This form has expired"));
        assert!(set_cookie(&reply, "arbiter_session").is_none());
    }

    // A token is bound to the session: another browser's token does not log this one out.
    browser.log_in("chief-d", "correct horse").await;
    let mut other = Browser::new(&pool);
    let foreign = csrf_of(&other.get("/login").await.text);
    let reply = browser.post_form("/logout", &[("csrf", &foreign)]).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
    assert_eq!(browser.get("/admin").await.status, StatusCode::OK);
}

#[sqlx::test]
async fn malformed_forms_get_an_html_4xx_not_plain_text(pool: PgPool) {
    let mut browser = Browser::new(&pool);
    browser.get("/login").await;
    let request = Request::post("/login?lang=en")
        .header("cookie", browser.cookie_header())
        .header("content-type", "application/json")
        .body(Body::from("{}"))
        .unwrap();
    let reply = send(&pool, request).await;
    assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(reply.content_type.starts_with("text/html"));
    assert!(reply.text.contains("application/x-www-form-urlencoded"));

    let request = Request::post("/login?lang=en")
        .header("cookie", browser.cookie_header())
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("x".repeat(300 * 1024)))
        .unwrap();
    let reply = send(&pool, request).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(reply.text.contains("too large"));
}

#[sqlx::test]
async fn only_local_next_targets_are_followed(pool: PgPool) {
    service::users::create_user(&pool, "chief-e", "correct horse", "admin")
        .await
        .unwrap();
    let mut browser = Browser::new(&pool);
    let csrf = csrf_of(&browser.get("/login?next=//evil.example/").await.text);
    let reply = browser
        .post_form(
            "/login",
            &[
                ("csrf", &csrf),
                ("username", "chief-e"),
                ("password", "correct horse"),
                ("next", "https://evil.example/"),
            ],
        )
        .await;
    assert_eq!(location(&reply), "/admin");
}

#[sqlx::test]
async fn the_language_comes_from_the_query_then_the_cookie_then_accept_language(pool: PgPool) {
    let mut browser = Browser::new(&pool);
    browser.accept_language = Some("zh-CN,zh;q=0.9".to_string());
    let page = browser.get("/").await;
    assert!(page.text.contains(r#"<html lang="zh-Hans">"#));
    assert!(page.text.contains("赛事"));

    let page = browser.get("/?lang=en").await;
    assert!(page.text.contains(r#"<html lang="en">"#));
    assert!(set_cookie(&page, "lang").unwrap().starts_with("lang=en;"));
    // The choice sticks without the query.
    let page = browser.get("/login").await;
    assert!(page.text.contains(r#"<html lang="en">"#));
    assert!(page.text.contains("Arbiter login"));
    // The switch keeps the other query parameters.
    let page = browser.get("/login?next=%2Fadmin").await;
    assert!(
        page.text
            .contains(r#"href="/login?next=%2Fadmin&#38;lang=zh-Hant""#),
        "{}",
        page.text
    );
    assert!(page.text.contains(r#"aria-current="true">EN</a>"#));

    let anonymous = browser.get("/?lang=zh-Hant").await;
    assert!(anonymous.text.contains(r#"<html lang="zh-Hant">"#));
    // An unknown tag is ignored, not stored.
    let odd = browser.get("/?lang=xx").await;
    assert!(set_cookie(&odd, "lang").is_none());
    assert!(odd.text.contains(r#"<html lang="zh-Hant">"#));
}

#[sqlx::test]
async fn user_text_is_escaped_everywhere(pool: PgPool) {
    // Open for registration: the home page lists no drafts.
    sqlx::query("insert into tournament (name, venue, status) values ($1, $2, 'registration')")
        .bind("<script>alert(1)</script>")
        .bind("\"><img src=x onerror=alert(2)>")
        .execute(&pool)
        .await
        .unwrap();
    service::users::create_user(&pool, "<b>chief</b>", "correct horse", "admin")
        .await
        .unwrap();
    let mut browser = Browser::new(&pool);
    for uri in ["/", "/admin"] {
        if uri == "/admin" {
            browser.log_in("<b>chief</b>", "correct horse").await;
        }
        let page = browser.get(uri).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(
            page.text
                .contains("&#60;script&#62;alert(1)&#60;/script&#62;")
                || page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;")
        );
        assert!(!page.text.contains("<script>"));
        assert!(!page.text.contains("<img"));
        assert!(!page.text.contains("<b>chief"));
    }
    // A reflected `next` is escaped in the attribute too.
    let page = Browser::new(&pool)
        .get("/login?next=/%22%3E%3Cscript%3E")
        .await;
    assert!(!page.text.contains("\"><script>"));
}

#[sqlx::test]
async fn pages_carry_security_headers(pool: PgPool) {
    let page = Browser::new(&pool).get("/").await;
    let csp = page.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'self'"));
    assert_eq!(page.headers["x-frame-options"], "DENY");
    assert_eq!(page.headers["x-content-type-options"], "nosniff");
}

// ---------------------------------------------------------------- public pages

use crate::support::{add_entrants, admin_token, call, expect, tournament_with_section};
use serde_json::{json, Value};

/// A section with 5 entrants (one named like a script), round 1 paired and board 1 decided.
async fn played_section(pool: &PgPool) -> (String, String, Value) {
    let token = admin_token(pool).await;
    let (tid, sid) = tournament_with_section(pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_entrants(pool, &token, &sid, 4).await;
    expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&token),
            Some(json!({"name": "<script>alert(1)</script>", "club": "<b>club</b>", "email": "secret@example.org"})),
        )
        .await,
        StatusCode::CREATED,
    );
    let round = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    crate::support::publish(pool, &token, &sid, 1).await;
    let board = round["boards"][0]["id"].as_str().unwrap().to_string();
    expect(
        &call(
            pool,
            "PUT",
            &format!("/api/v1/boards/{board}/result"),
            Some(&token),
            Some(json!({"result": "red_wins", "black_fouls": 1})),
        )
        .await,
        StatusCode::OK,
    );
    (tid, sid, round)
}

fn assert_escaped(page: &Reply) {
    assert!(!page.text.contains("<script>"), "unescaped: {}", page.text);
    assert!(!page.text.contains("<b>club"), "unescaped club");
    assert!(
        !page.text.contains("secret@example.org"),
        "contact data leaked"
    );
}

#[sqlx::test]
async fn the_public_pages_show_a_section_from_the_services(pool: PgPool) {
    let (tid, sid, round) = played_section(&pool).await;
    let mut browser = Browser::new(&pool);

    let home = browser.get(&format!("/t/{tid}?lang=en")).await;
    assert_eq!(home.status, StatusCode::OK, "{}", home.text);
    assert!(home.text.contains("<h1>Open</h1>"));
    assert!(
        home.text
            .contains(&format!(r#"<a href="/s/{sid}/now">A</a>"#)),
        "a running section opens on its /now page"
    );
    assert!(home.text.contains("Chinese Swiss"));

    let entrants = browser.get(&format!("/s/{sid}/entrants")).await;
    assert_eq!(entrants.status, StatusCode::OK);
    for name in [
        "P1",
        "P2",
        "P3",
        "P4",
        "&#60;script&#62;alert(1)&#60;/script&#62;",
    ] {
        assert!(
            entrants.text.contains(name),
            "{name} missing: {}",
            entrants.text
        );
    }
    assert!(
        !entrants.text.contains("p1@example.org"),
        "contact data leaked"
    );
    assert!(entrants.text.contains("5 entrants"));
    assert_escaped(&entrants);

    let pairings = browser.get(&format!("/s/{sid}/pairings/1")).await;
    assert_eq!(pairings.status, StatusCode::OK);
    let red = round["boards"][0]["red"]["name"].as_str().unwrap();
    assert!(pairings.text.contains(red));
    assert!(pairings.text.contains("Red wins"), "result shown");
    // The list by name is on the page too, every player once (5 entrants, one bye).
    let by_name = &pairings.text[pairings.text.find(r#"<details class="by-name">"#).unwrap()..];
    assert_eq!(by_name.matches("<tr><td>").count(), 5, "{by_name}");
    assert!(pairings.text.contains("1 foul(s)"), "fouls shown");
    assert!(
        pairings.text.contains(">bye<"),
        "the bye of the odd entrant"
    );
    assert!(pairings.text.contains(r#"aria-current="page">Round 1</a>"#));
    assert_escaped(&pairings);

    let standings = browser.get(&format!("/s/{sid}/standings")).await;
    assert_eq!(standings.status, StatusCode::OK);
    assert!(standings.text.contains("After round 1"));
    assert!(
        standings.text.contains("provisional"),
        "results are missing"
    );
    assert!(standings.text.contains("<abbr"), "tiebreak columns");
    assert_escaped(&standings);

    let crosstable = browser.get(&format!("/s/{sid}/crosstable")).await;
    assert_eq!(crosstable.status, StatusCode::OK);
    // Cells in the section's scoring, as the totals (a win is worth 2 here).
    assert!(
        crosstable.text.contains("R 2"),
        "the winner's cell: {}",
        crosstable.text
    );
    assert!(crosstable.text.contains("B 0"), "the loser's cell");
    assert!(!crosstable.text.contains("½"), "no chess half points");
    assert_escaped(&crosstable);

    for print in [
        format!("/s/{sid}/entrants/print"),
        format!("/s/{sid}/pairings/1/print"),
        format!("/s/{sid}/standings/print"),
        format!("/s/{sid}/crosstable/print"),
    ] {
        let page = browser.get(&print).await;
        assert_eq!(page.status, StatusCode::OK, "{print}");
        assert!(page.text.contains("/static/css/sheet.css"), "{print}");
        assert!(!page.text.contains(r#"<header class="site">"#), "{print}");
        assert!(page.text.contains(r#"<table class="grid"#), "{print}");
        assert_escaped(&page);
    }
}

#[sqlx::test]
async fn an_arbiter_sees_no_contact_data_on_public_pages_either(pool: PgPool) {
    let (_, sid, _) = played_section(&pool).await;
    // The section's admin is "chief" (support's admin_token) with this password.
    let mut browser = Browser::new(&pool);
    browser.log_in("chief", "a long password").await;
    let entrants = browser.get(&format!("/s/{sid}/entrants")).await;
    assert!(entrants.text.contains("chief"), "logged in");
    assert!(!entrants.text.contains("@example.org"));
}

#[sqlx::test]
async fn public_pages_answer_404_pages_for_unknown_or_malformed_ids(pool: PgPool) {
    let (_, sid, _) = played_section(&pool).await;
    let mut browser = Browser::new(&pool);
    for uri in [
        "/t/not-a-uuid".to_string(),
        format!("/t/{}", uuid::Uuid::new_v4()),
        format!("/s/{}/standings", uuid::Uuid::new_v4()),
        format!("/s/{sid}/pairings/9"),
        format!("/s/{sid}/pairings/x"),
        format!("/s/{sid}/pairings/1/print/x"),
    ] {
        let page = browser.get(&format!("{uri}?lang=en")).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{uri}");
        assert!(page.content_type.starts_with("text/html"), "{uri}");
        assert!(
            page.text.contains("not found") || page.text.contains("Page not found"),
            "{uri}: {}",
            page.text
        );
    }
}

#[sqlx::test]
async fn event_pages_fall_back_to_the_event_language(pool: PgPool) {
    let token = admin_token(&pool).await;
    let t = expect(
        &call(
            &pool,
            "POST",
            "/api/v1/tournaments",
            Some(&token),
            Some(json!({"name": "Open", "game": "banqi", "default_language": "en"})),
        )
        .await,
        StatusCode::CREATED,
    );
    let tid = t["id"].as_str().unwrap();
    let mut browser = Browser::new(&pool);
    let page = browser.get(&format!("/t/{tid}")).await;
    assert!(page.text.contains(r#"<html lang="en">"#));
    // The site's own pages keep the site default.
    assert!(browser
        .get("/")
        .await
        .text
        .contains(r#"<html lang="zh-Hant">"#));
    // A visitor's choice beats the event default.
    browser.accept_language = Some("zh-CN".to_string());
    let page = browser.get(&format!("/t/{tid}")).await;
    assert!(page.text.contains(r#"<html lang="zh-Hans">"#));
}

// ---------------------------------------------------------------- registration form

/// Submits the registration form of tournament `tid` with `fields` (the CSRF token added).
async fn register(browser: &mut Browser, tid: &str, fields: &[(&str, &str)]) -> Reply {
    let form = browser.get(&format!("/t/{tid}/register?lang=en")).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.text);
    let csrf = csrf_of(&form.text);
    let mut all = vec![("csrf", csrf.as_str())];
    all.extend_from_slice(fields);
    browser.post_form(&format!("/t/{tid}/register"), &all).await
}

#[sqlx::test]
async fn a_player_registers_through_the_public_form(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) =
        tournament_with_section(&pool, &token, "jieqi", json!({"rounds": 5, "cap": 2})).await;
    let mut browser = Browser::new(&pool);
    let form = browser.get(&format!("/t/{tid}/register?lang=en")).await;
    assert!(form
        .text
        .contains(&format!(r#"<option value="{sid}" selected>A</option>"#)));
    assert!(form.text.contains(r#"name="csrf""#));

    let done = register(
        &mut browser,
        &tid,
        &[
            ("section_id", &sid),
            ("name", "<script>alert(1)</script>"),
            ("email", "player@example.org"),
            ("club", "Toronto"),
            ("gender", "f"),
            ("member", "yes"),
        ],
    )
    .await;
    assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
    assert!(done.text.contains("confirmed"));
    assert!(done.text.contains("&#60;script&#62;"));
    assert!(!done.text.contains("<script>"));

    let entrants = browser.get(&format!("/s/{sid}/entrants")).await;
    assert!(entrants
        .text
        .contains("&#60;script&#62;alert(1)&#60;/script&#62;"));
    assert!(!entrants.text.contains("player@example.org"));

    // The cap is 2: the third one waits.
    let second = register(
        &mut browser,
        &tid,
        &[("section_id", &sid), ("name", "Second")],
    )
    .await;
    assert_eq!(second.status, StatusCode::CREATED);
    let waiting = register(
        &mut browser,
        &tid,
        &[("section_id", &sid), ("name", "Third")],
    )
    .await;
    assert_eq!(waiting.status, StatusCode::CREATED);
    assert!(
        waiting.text.contains("on the waitlist (waitlist place 1)"),
        "{}",
        waiting.text
    );
}

#[sqlx::test]
async fn registration_errors_show_next_to_the_field_with_the_values_kept(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "jieqi", json!({"rounds": 5})).await;
    expect(
        &call(
            &pool,
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            Some(&token),
            Some(json!({"waiver_text": "No refunds.\nPhotos may be taken."})),
        )
        .await,
        StatusCode::OK,
    );
    let mut browser = Browser::new(&pool);
    let form = browser.get(&format!("/t/{tid}/register")).await;
    assert!(form.text.contains("No refunds."), "the waiver is shown");

    let reply = register(
        &mut browser,
        &tid,
        &[
            ("section_id", &sid),
            ("name", " "),
            ("club", "Kept Club"),
            ("rating", "abc"),
        ],
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        reply
            .text
            .contains(r#"id="rating-error">Enter a whole number."#),
        "{}",
        reply.text
    );
    assert!(reply.text.contains(r#"value="Kept Club""#));

    let reply = register(
        &mut browser,
        &tid,
        &[("section_id", &sid), ("name", " "), ("club", "Kept Club")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reply.text.contains(r#"id="name-error""#), "{}", reply.text);
    assert!(reply.text.contains(r#"id="waiver_accepted-error""#));
    assert!(reply.text.contains(r#"value="Kept Club""#));

    // The services' messages show in the visitor's language.
    browser
        .get(&format!("/t/{tid}/register?lang=zh-Hant"))
        .await;
    let form = browser.get(&format!("/t/{tid}/register")).await;
    let zh = browser
        .post_form(
            &format!("/t/{tid}/register"),
            &[
                ("csrf", &csrf_of(&form.text)),
                ("section_id", &sid),
                ("name", " "),
            ],
        )
        .await;
    assert_eq!(zh.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        zh.text.contains(r#"id="name-error">必填</p>"#),
        "{}",
        zh.text
    );
    assert!(zh.text.contains("須同意免責聲明方可報名"), "{}", zh.text);

    let reply = register(&mut browser, &tid, &[("name", "No Section")]).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reply
        .text
        .contains(r#"id="section_id-error">Choose a section."#));

    let reply = register(
        &mut browser,
        &tid,
        &[
            ("section_id", &sid),
            ("name", "Ann"),
            ("waiver_accepted", "yes"),
        ],
    )
    .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);

    // Without the token the form is refused.
    let forged = browser
        .post_form(
            &format!("/t/{tid}/register"),
            &[("section_id", &sid), ("name", "Forged")],
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
}

// ---------------------------------------------------------------- bracket

#[sqlx::test]
async fn the_bracket_page_shows_the_knockout_stage_or_says_there_is_none(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "jieqi", json!({"rounds": 1})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    let mut browser = Browser::new(&pool);
    let none = browser.get(&format!("/s/{sid}/bracket?lang=en")).await;
    assert_eq!(none.status, StatusCode::OK);
    assert!(none.text.contains("no knockout stage"));

    crate::support::play_round(&pool, &token, &sid, |_| "red_wins").await;
    let bracket = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            Some(json!({"size": 4, "best_of": 1, "third_place": true})),
        )
        .await,
        StatusCode::CREATED,
    );
    let semi = &bracket["matches"][0];
    let mid = semi["id"].as_str().unwrap();
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/matches/{mid}/games"),
            Some(&token),
            Some(json!({"result": "red_wins"})),
        )
        .await,
        StatusCode::OK,
    );
    let page = browser.get(&format!("/s/{sid}/bracket")).await;
    assert_eq!(page.status, StatusCode::OK);
    for text in [
        "Semi-finals",
        "Final",
        "3rd-place match",
        "best of 1",
        r#"class="winner""#,
        "to be decided",
    ] {
        assert!(page.text.contains(text), "{text} missing: {}", page.text);
    }
    // The seeded entrants' names link to their player pages (issue #16).
    assert!(page.text.contains(&format!(r#"href="/s/{sid}/p/"#)));
    let print = browser.get(&format!("/s/{sid}/bracket/print")).await;
    assert_eq!(print.status, StatusCode::OK);
    assert!(print.text.contains("Semi-finals"));
}

// ---------------------------------------------------------------- the desk

/// The id at the end of a redirect's location.
/// The id in a redirect to `/admin/t/{id}` or `/admin/s/{id}/…` (a new section opens on its
/// entrants tab).
fn id_in(reply: &Reply) -> String {
    location(reply).split('/').nth(3).unwrap().to_string()
}

#[sqlx::test]
async fn an_arbiter_runs_a_round_from_the_desk(pool: PgPool) {
    service::users::create_user(&pool, "desk", "correct horse", "admin")
        .await
        .unwrap();
    let mut browser = Browser::new(&pool);
    // Anonymous posts go to the login page, not to the service.
    let anonymous = browser
        .post_form("/admin/tournaments", &[("name", "X")])
        .await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
    assert!(location(&anonymous).starts_with("/login"));

    browser.log_in("desk", "correct horse").await;
    let form = browser.get("/admin/tournaments/new?lang=en").await;
    assert_eq!(form.status, StatusCode::OK);
    let csrf = csrf_of(&form.text);
    let created = browser
        .post_form(
            "/admin/tournaments",
            &[
                ("csrf", &csrf),
                ("name", "Desk Open"),
                ("game", "jieqi"),
                ("starts_on", "2026-12-05"),
                ("default_language", "en"),
            ],
        )
        .await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.text);
    let tid = id_in(&created);

    let refused = browser
        .post_form(
            &format!("/admin/t/{tid}/sections"),
            &[("csrf", &csrf), ("name", "A"), ("rounds", "0")],
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.text.contains("rounds"), "{}", refused.text);
    let section = browser
        .post_form(
            &format!("/admin/t/{tid}/sections"),
            &[
                ("csrf", &csrf),
                ("name", "A"),
                ("rounds", "3"),
                ("pairing_system", "chinese"),
                ("entry_type", "individual"),
            ],
        )
        .await;
    assert_eq!(section.status, StatusCode::SEE_OTHER, "{}", section.text);
    let sid = id_in(&section);

    for name in ["P1", "P2", "P3", "P4"] {
        let added = browser
            .post_form(
                &format!("/admin/s/{sid}/entrants"),
                &[("csrf", &csrf), ("name", name), ("club", "Club")],
            )
            .await;
        assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text);
    }
    let paired = browser
        .post_form(&format!("/admin/s/{sid}/rounds"), &[("csrf", &csrf)])
        .await;
    assert_eq!(paired.status, StatusCode::SEE_OTHER, "{}", paired.text);
    let desk = browser.get(&format!("/admin/s/{sid}/rounds")).await;
    assert!(desk.text.contains("Round 1"));
    assert!(desk.text.contains("Paired (not yet published)"));
    let board = desk
        .text
        .split(r#"action="/admin/boards/"#)
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_string();

    let published = browser
        .post_form(
            &format!("/admin/s/{sid}/rounds/1/publish"),
            &[("csrf", &csrf)],
        )
        .await;
    assert_eq!(published.status, StatusCode::SEE_OTHER);

    let entered = browser
        .post_form(
            &format!("/admin/boards/{board}/result"),
            &[
                ("csrf", &csrf),
                ("section_id", &sid),
                ("result", "red_wins"),
                ("red_fouls", "0"),
                ("black_fouls", "1"),
                ("version", ""),
            ],
        )
        .await;
    assert_eq!(entered.status, StatusCode::SEE_OTHER, "{}", entered.text);
    let public = browser.get(&format!("/s/{sid}/pairings/1")).await;
    assert!(public.text.contains("Red wins"));

    // Pairing again while a board has no result is refused with the service's message.
    let early = browser
        .post_form(&format!("/admin/s/{sid}/rounds"), &[("csrf", &csrf)])
        .await;
    assert_eq!(early.status, StatusCode::CONFLICT);
    assert!(early.text.contains("without a result"), "{}", early.text);

    // A stale version is refused, not applied.
    let stale = browser
        .post_form(
            &format!("/admin/boards/{board}/result"),
            &[
                ("csrf", &csrf),
                ("section_id", &sid),
                ("result", "draw"),
                ("version", "0"),
            ],
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    let bad = browser
        .post_form(
            &format!("/admin/boards/{board}/result"),
            &[("csrf", &csrf), ("section_id", &sid), ("result", "")],
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
}

#[sqlx::test]
async fn result_slips_and_the_list_by_name_print_every_board_and_player(pool: PgPool) {
    let (_, sid, round) = played_section(&pool).await;
    let slips = crate::support::get(&pool, &format!("/s/{sid}/slips/1/print?lang=en")).await;
    assert_eq!(slips.status, StatusCode::OK);
    assert_escaped(&slips);
    let games = round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["black"].is_null())
        .count();
    assert_eq!(
        slips
            .text
            .matches("<section class=\"slip report-slip public-slip\">")
            .count(),
        games
    );
    assert!(slips.text.contains("Signature") && slips.text.contains("Fouls"));

    let by_name = crate::support::get(
        &pool,
        &format!("/s/{sid}/pairings/1/by-name/print?lang=zh-Hant"),
    )
    .await;
    assert_eq!(by_name.status, StatusCode::OK);
    assert_escaped(&by_name);
    assert!(by_name.text.contains("對陣表（依姓名）"));
    // Every one of the five entrants has a line: four on boards, one with the bye.
    assert_eq!(
        by_name.text.matches("<tr><td>").count(),
        5,
        "{}",
        by_name.text
    );
    let missing = crate::support::get(&pool, &format!("/s/{sid}/slips/9/print")).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[sqlx::test]
async fn the_pairing_sheet_carries_a_qr_code_to_the_sections_now_page(pool: PgPool) {
    let (_, sid, _) = played_section(&pool).await;
    let request = |host: &str| {
        axum::http::Request::get(format!("/s/{sid}/pairings/1/print"))
            .header("host", host)
            .body(axum::body::Body::empty())
            .unwrap()
    };
    let sheet = crate::support::send(&pool, request("arbiter.example:8080")).await;
    assert_eq!(sheet.status, StatusCode::OK);
    assert!(sheet.text.contains("<svg"), "no QR code");
    assert!(sheet
        .text
        .contains(&format!("http://arbiter.example:8080/s/{sid}/now")));
    // A forged Host header is not printed: the sheet falls back to the path.
    let forged = crate::support::send(&pool, request("evil\"><script>")).await;
    assert!(!forged.text.contains("evil"));
    assert!(forged
        .text
        .contains(&format!("<figcaption>/s/{sid}/now</figcaption>")));
}

#[sqlx::test]
async fn a_paired_round_stays_the_arbiters_draft_until_it_is_published(pool: PgPool) {
    use crate::support::{add_entrants, admin_token, call, expect, tournament_with_section};
    let token = admin_token(&pool).await;
    let (_, sid) =
        tournament_with_section(&pool, &token, "xiangqi", serde_json::json!({"rounds": 3})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    let rounds = format!("/api/v1/sections/{sid}/rounds");
    expect(
        &call(&pool, "POST", &rounds, Some(&token), None).await,
        StatusCode::CREATED,
    );

    let mut visitor = Browser::new(&pool);
    let hidden = visitor.get(&format!("/s/{sid}/pairings/1?lang=en")).await;
    assert_eq!(hidden.status, StatusCode::NOT_FOUND, "{}", hidden.text);
    for print in [
        "pairings/1/print",
        "pairings/1/by-name/print",
        "slips/1/print",
    ] {
        let reply = visitor.get(&format!("/s/{sid}/{print}")).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{print}");
    }
    let standings = visitor.get(&format!("/s/{sid}/standings?lang=en")).await;
    assert_eq!(standings.status, StatusCode::OK);
    assert!(
        !standings.text.contains(&format!("/s/{sid}/pairings/1")),
        "the section's navigation links the draft"
    );

    // The arbiter prints the sheets before publishing.
    service::users::create_user(&pool, "desk", "a long password", "admin")
        .await
        .unwrap();
    let mut arbiter = Browser::new(&pool);
    arbiter.log_in("desk", "a long password").await;
    let draft = arbiter.get(&format!("/s/{sid}/pairings/1/print")).await;
    assert_eq!(draft.status, StatusCode::OK, "{}", draft.text);

    // The TRF export: without the draft for the public, with it for the arbiters (the API
    // with a token, the dashboard with the session).
    let rounds_in = |text: &str| {
        let t = arbiter_core::trf::parse(text).expect("an exported TRF parses");
        t.entrants.iter().map(|e| e.rounds.len()).max().unwrap_or(0)
    };
    let export = format!("/api/v1/sections/{sid}/export.trf");
    let public = visitor.get(&export).await;
    assert_eq!(public.status, StatusCode::OK);
    assert_eq!(rounds_in(&public.text), 0, "{}", public.text);
    let with_token = call(&pool, "GET", &export, Some(&token), None).await;
    assert_eq!(rounds_in(&with_token.text), 1, "{}", with_token.text);
    let dashboard = arbiter.get(&format!("/admin/s/{sid}/export.trf")).await;
    assert_eq!(dashboard.status, StatusCode::OK, "{}", dashboard.text);
    assert_eq!(dashboard.text, with_token.text);
    let refused = visitor.get(&format!("/admin/s/{sid}/export.trf")).await;
    assert_eq!(
        refused.status,
        StatusCode::SEE_OTHER,
        "visitors are sent to log in"
    );

    expect(
        &call(
            &pool,
            "POST",
            &format!("{rounds}/1/publish"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let shown = visitor.get(&format!("/s/{sid}/pairings/1?lang=en")).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text);
}

#[sqlx::test]
async fn set_ups_are_committed_before_the_round_and_revealed_with_their_salt_after(pool: PgPool) {
    use crate::support::{add_entrants, admin_token, call, expect, tournament_with_section};
    use sha2::Digest as _;
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "jieqi",
        serde_json::json!({"rounds": 2, "setup_mode": "duplicate"}),
    )
    .await;
    add_entrants(&pool, &token, &sid, 4).await;
    let rounds = format!("/api/v1/sections/{sid}/rounds");
    let round = expect(
        &call(&pool, "POST", &rounds, Some(&token), None).await,
        StatusCode::CREATED,
    );
    let mut visitor = Browser::new(&pool);
    let page = format!("/s/{sid}/setups/1?lang=en");
    assert_eq!(
        visitor.get(&page).await.status,
        StatusCode::NOT_FOUND,
        "a draft"
    );
    expect(
        &call(
            &pool,
            "POST",
            &format!("{rounds}/1/publish"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let secret: serde_json::Value = expect(
        &call(
            &pool,
            "GET",
            &format!("{rounds}/1/setup"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let setup = secret["setup"].as_str().unwrap().to_string();
    let salt = secret["salt"].as_str().unwrap().to_string();
    let commitment = secret["commitment"].as_str().unwrap().to_string();

    // During the round: the commitment only, even for a logged-in arbiter on the public page.
    service::users::create_user(&pool, "desk", "a long password", "admin")
        .await
        .unwrap();
    let mut arbiter = Browser::new(&pool);
    arbiter.log_in("desk", "a long password").await;
    for reply in [visitor.get(&page).await, arbiter.get(&page).await] {
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert!(reply.text.contains(&commitment));
        assert!(!reply.text.contains(&salt), "the salt leaked");
        assert!(!reply.text.contains(&setup), "the set-up leaked");
    }
    let pairings = visitor.get(&format!("/s/{sid}/pairings/1?lang=en")).await;
    assert!(pairings.text.contains(&format!("/s/{sid}/setups/1")));

    for board in round["boards"].as_array().unwrap() {
        expect(
            &call(
                &pool,
                "PUT",
                &format!("/api/v1/boards/{}/result", board["id"].as_str().unwrap()),
                Some(&token),
                Some(serde_json::json!({"result": "draw"})),
            )
            .await,
            StatusCode::OK,
        );
    }
    let revealed = visitor.get(&page).await;
    assert_eq!(revealed.status, StatusCode::OK);
    for part in [&commitment, &salt, &setup] {
        assert!(revealed.text.contains(part.as_str()), "{part} missing");
    }
    assert!(revealed
        .text
        .contains(r#"<table class="board board-jieqi">"#));
    let digest = hex::encode(sha2::Sha256::digest(format!("{setup}:{salt}")));
    assert_eq!(digest, commitment, "the page's verification recipe holds");
    assert!(revealed
        .text
        .contains(&format!(r#"data-verify-text="{setup}:{salt}""#)));
}
