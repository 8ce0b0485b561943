//! The printouts of issue 8 that carry private data or come last: the set-up sheet and the desk
//! list (staff only), the public prize list; and the cheap revalidation of the live pages.

use crate::support::{
    add_entrants, admin_browser, call, expect, location, token_for, tournament_with_section,
    Browser, PASSWORD,
};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use sqlx::PgPool;

/// `<script>alert(1)</script>` as askama escapes it: shown as text.
const EVIL_HTML: &str = "&#60;script&#62;alert(1)&#60;/script&#62;";

async fn api(pool: &PgPool, token: &str, method: &str, uri: &str, body: Option<Value>) -> Value {
    let reply = call(pool, method, uri, Some(token), body).await;
    assert!(
        reply.status.is_success(),
        "{method} {uri}: {} {}",
        reply.status,
        reply.text
    );
    if reply.text.is_empty() {
        Value::Null
    } else {
        reply.json()
    }
}

/// Plays every board of the section's next round: Red wins.
async fn play_round(pool: &PgPool, token: &str, sid: &str) {
    crate::support::play_round(pool, token, sid, |_| "red_wins").await;
}

/// The text of `<dd class="{class}">…</dd>` occurrences, in page order.
fn dd_values(html: &str, class: &str) -> Vec<String> {
    let open = format!(r#"<dd class="{class}">"#);
    html.split(&open)
        .skip(1)
        .map(|rest| rest.split('<').next().unwrap_or("").to_string())
        .collect()
}

#[sqlx::test]
async fn staff_prints_send_visitors_to_the_login_page_and_refuse_strangers(pool: PgPool) {
    let token = token_for(&pool, "chief", "admin").await;
    let (tid, sid) = tournament_with_section(&pool, &token, "jieqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    let prints = [
        format!("/admin/s/{sid}/rounds/1/setup/print"),
        format!("/admin/t/{tid}/desk/print"),
        format!("/admin/s/{sid}/desk/print"),
    ];
    let mut visitor = Browser::new(&pool);
    for uri in &prints {
        let reply = visitor.get(uri).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{uri}");
        assert!(
            location(&reply).starts_with("/login?next=%2Fadmin%2F"),
            "{uri}"
        );
        assert!(
            !reply.text.contains("jieqi:"),
            "{uri}: nothing of the sheet"
        );
    }
    // An arbiter of another event may log in but not read these.
    token_for(&pool, "other", "user").await;
    let mut stranger = Browser::new(&pool);
    stranger.log_in("other", PASSWORD).await;
    for uri in &prints {
        let reply = stranger.get(uri).await;
        assert!(
            reply.status == StatusCode::FORBIDDEN || reply.status == StatusCode::NOT_FOUND,
            "{uri}: {}",
            reply.status
        );
        assert!(!reply.text.contains("jieqi:"), "{uri}");
    }
    let mut chief = Browser::new(&pool);
    chief.log_in("chief", PASSWORD).await;
    for uri in &prints {
        assert_eq!(chief.get(uri).await.status, StatusCode::OK, "{uri}");
    }
    // Jieqi's default is the duplicate set-up: one sheet for every board.
    let sheet = chief.get(&format!("{}?lang=en", prints[0])).await;
    assert_eq!(
        sheet
            .text
            .matches(r#"<table class="board board-jieqi">"#)
            .count(),
        1
    );
    assert!(sheet.text.contains("Every board (duplicate set-up)"));
    assert!(sheet.text.contains("Same set-up on every board"));
    assert_eq!(
        chief
            .get(&format!("/admin/s/{sid}/rounds/9/setup/print"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[sqlx::test]
async fn the_set_up_sheet_draws_each_board_with_its_commitment(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) =
        tournament_with_section(&pool, &token, "jieqi", json!({"setup_mode": "per_board"})).await;
    for name in ["陳大文", "李小龍", "張三", "<script>alert(1)</script>"] {
        api(
            &pool,
            &token,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(json!({"name": name})),
        )
        .await;
    }
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    let setups = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/rounds/1/setup"),
        None,
    )
    .await;
    let page = browser
        .get(&format!("/admin/s/{sid}/rounds/1/setup?lang=en"))
        .await;
    assert!(page
        .text
        .contains(&format!("/admin/s/{sid}/rounds/1/setup/print")));
    let sheet = browser
        .get(&format!("/admin/s/{sid}/rounds/1/setup/print?lang=zh-Hant"))
        .await;
    assert_eq!(sheet.status, StatusCode::OK, "{}", sheet.text);
    assert!(sheet.text.contains(r#"<html lang="zh-Hant">"#));
    assert!(sheet.text.contains("布局表"));
    // Two boards, two sheets (a page each), each with its diagram and its own commitment.
    assert_eq!(
        sheet
            .text
            .matches(r#"class="print-section setup-sheet""#)
            .count(),
        2
    );
    assert_eq!(
        sheet
            .text
            .matches(r#"<table class="board board-jieqi">"#)
            .count(),
        2
    );
    for s in setups["setups"].as_array().unwrap() {
        let commitment = s["commitment"].as_str().unwrap();
        assert!(
            sheet.text.contains(commitment),
            "commitment {commitment} printed"
        );
        let text = s["setup"].as_str().unwrap();
        assert!(sheet.text.contains(text), "set-up {text} printed");
    }
    // 15 + 1 pieces a side on every diagram; the generals are 帥 and 將, as the pieces are
    // written (traditional forms, like 俥 and 傌, on every page).
    assert_eq!(sheet.text.matches(r#"class="piece red""#).count(), 32);
    assert_eq!(sheet.text.matches(r#"class="piece black""#).count(), 32);
    assert_eq!(sheet.text.matches(">將<").count(), 2);
    // The boards' players are named, CJK as written and the script as text.
    assert!(sheet.text.contains("陳大文"));
    assert!(sheet.text.contains(EVIL_HTML));
    assert!(!sheet.text.contains("<script>alert(1)"));
    assert!(
        !sheet.text.contains(r#"class="site""#),
        "no navigation chrome"
    );
}

#[sqlx::test]
async fn the_desk_list_totals_paid_due_and_refunds_per_section_and_overall(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let fees = json!({"fee_tiers": [{"name": "會員", "amount": 10}, {"name": "non-member", "amount": 20}], "cap": 3});
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", fees.clone()).await;
    let mut second = fees.clone();
    second["name"] = json!("B組");
    second["rounds"] = json!(5);
    let other = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/tournaments/{tid}/sections"),
        Some(second),
    )
    .await;
    let sid2 = other["id"].as_str().unwrap().to_string();

    let register = |section: String, name: &'static str, tier: &'static str| {
        let pool = pool.clone();
        async move {
            let body = json!({"name": name, "fee_tier": tier, "email": "secret@example.org"});
            let r = call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{section}/registrations"),
                None,
                Some(body),
            )
            .await;
            expect(&r, StatusCode::CREATED)["id"]
                .as_str()
                .unwrap()
                .to_string()
        }
    };
    // Section A: paid 20 (cash), paid 10 then withdrawn (refund due 10), unpaid 10 (due),
    // and a waitlisted one that owes nothing yet.
    let a1 = register(sid.clone(), "陳大文", "non-member").await;
    let a2 = register(sid.clone(), "李小龍", "會員").await;
    let _a3 = register(sid.clone(), "張三", "會員").await;
    let _a4 = register(sid.clone(), "<script>alert(1)</script>", "non-member").await;
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/registrations/{a1}/payment"),
        Some(json!({"state": "paid", "method": "現金"})),
    )
    .await;
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/registrations/{a2}/payment"),
        Some(json!({"state": "paid", "method": "transfer"})),
    )
    .await;
    // The waitlisted one takes the freed place: it owes its 20 now.
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/registrations/{a2}/withdraw"),
        None,
    )
    .await;
    let _late = register(sid.clone(), "王五", "會員").await;
    // Section B: one unpaid 20.
    register(sid2.clone(), "趙六", "non-member").await;

    let listed = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/registrations"),
        None,
    )
    .await;
    let states: Vec<(&str, &str)> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["status"].as_str().unwrap(),
                r["payment_state"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        states,
        [
            ("confirmed", "paid"),
            ("withdrawn", "refund_due"),
            ("confirmed", "unpaid"),
            ("confirmed", "unpaid"),
            ("waitlisted", "unpaid"),
        ],
        "{listed}"
    );

    let overview = browser.get(&format!("/admin/t/{tid}?lang=en")).await;
    assert!(overview
        .text
        .contains(&format!("/admin/t/{tid}/desk/print")));
    let section = browser.get(&format!("/admin/s/{sid}?lang=en")).await;
    assert!(section.text.contains(&format!("/admin/s/{sid}/desk/print")));

    let desk = browser
        .get(&format!("/admin/t/{tid}/desk/print?lang=en"))
        .await;
    assert_eq!(desk.status, StatusCode::OK, "{}", desk.text);
    // Per section: A paid 20, due 10 + 20, refunds 10; B due 20.
    assert_eq!(dd_values(&desk.text, "paid"), ["20", "0"]);
    assert_eq!(dd_values(&desk.text, "due"), ["30", "20"]);
    assert_eq!(dd_values(&desk.text, "refund-due"), ["10", "0"]);
    let total = desk
        .text
        .split(r#"<tr id="desk-total">"#)
        .nth(1)
        .expect("total row");
    let total = total.split("</tr>").next().unwrap();
    let cells: Vec<&str> = total
        .split(r#"<td class="num">"#)
        .skip(1)
        .map(|c| c.split('<').next().unwrap())
        .collect();
    assert_eq!(cells, ["20", "50", "10"], "paid, due, refunds due overall");
    for shown in [
        "陳大文",
        "王五",
        "B組",
        "現金",
        // A method from the list by its name in the page's language; one typed by hand as typed.
        "Transfer",
        "refund due",
        "Still due",
        "on the waitlist",
    ] {
        assert!(desk.text.contains(shown), "{shown}");
    }
    assert!(desk.text.contains(EVIL_HTML));
    assert!(!desk.text.contains("<script>alert(1)"));
    assert!(
        !desk.text.contains("secret@example.org"),
        "no contact data on paper"
    );

    // One section only.
    let one = browser
        .get(&format!("/admin/s/{sid2}/desk/print?lang=zh-Hans"))
        .await;
    assert_eq!(one.status, StatusCode::OK);
    assert!(one.text.contains("趙六") && !one.text.contains("陳大文"));
    assert!(one.text.contains("柜台名单"));
    assert_eq!(dd_values(&one.text, "due"), ["20"]);
}

#[sqlx::test]
async fn the_prize_list_names_the_winners_once_the_ranking_is_final(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 1})).await;
    for (name, gender) in [
        ("陳大文", "m"),
        ("李小龍", "m"),
        ("王美玲", "f"),
        ("<script>alert(1)</script>", "m"),
    ] {
        api(
            &pool,
            &token,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(json!({"name": name, "gender": gender, "email": "secret@example.org"})),
        )
        .await;
    }
    let standings = browser.get(&format!("/s/{sid}/standings?lang=en")).await;
    assert!(
        !standings.text.contains("/prizes/print"),
        "no prizes, no link"
    );
    api(
        &pool,
        &token,
        "PUT",
        &format!("/api/v1/sections/{sid}/prizes"),
        Some(json!({"prizes": [
            {"place_from": 1, "award": "冠軍 300", "amount": 300},
            {"place_from": 2, "award": "<b>200</b>", "amount": 200},
            {"category": "female", "award": "Best woman cup", "amount": 100}
        ]})),
    )
    .await;
    let standings = browser.get(&format!("/s/{sid}/standings?lang=en")).await;
    assert!(standings
        .text
        .contains(&format!(r#"href="/s/{sid}/prizes/print""#)));
    let dashboard = browser.get(&format!("/admin/s/{sid}/prizes?lang=en")).await;
    assert!(dashboard
        .text
        .contains(&format!(r#"href="/s/{sid}/prizes/print""#)));

    // Before the last round: the table without winners.
    let early = Browser::new(&pool)
        .get(&format!("/s/{sid}/prizes/print?lang=en"))
        .await;
    assert_eq!(early.status, StatusCode::OK, "{}", early.text);
    assert!(early.text.contains("The final ranking is not known yet"));
    assert!(early.text.contains("冠軍 300") && early.text.contains("Best woman"));
    assert!(!early.text.contains("陳大文"));

    play_round(&pool, &token, &sid).await;
    crate::support::keep_tied_order(&pool, &token, &sid).await;
    let awarded = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/prizes/awarded"),
        None,
    )
    .await;
    // Who wins is the service's rule (a prize nobody is eligible for has no name).
    let winners: Vec<String> = awarded
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["name"].as_str().map(str::to_string))
        .collect();
    assert!(winners.len() >= 2, "{awarded}");
    let list = Browser::new(&pool)
        .get(&format!("/s/{sid}/prizes/print?lang=zh-Hant"))
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    assert!(list.text.contains("得獎名單"));
    assert!(!list.text.contains("The final ranking"));
    assert!(list.text.contains("第1名") && list.text.contains("最佳女子"));
    // The winners, in the service's order, each once (one prize per person).
    let mut at = 0;
    for name in &winners {
        let shown = askama_escape(name);
        let found = list.text[at..]
            .find(&shown)
            .unwrap_or_else(|| panic!("{name} listed in order"));
        at += found + shown.len();
        assert_eq!(list.text.matches(&shown).count(), 1, "{name} once");
    }
    assert!(
        list.text.contains("&#60;b&#62;200&#60;/b&#62;"),
        "awards are text"
    );
    assert!(!list.text.contains("secret@example.org"), "no contact data");
    assert!(!list.text.contains("<script>alert(1)"));
}

/// How askama writes `text` into HTML.
fn askama_escape(text: &str) -> String {
    text.replace('&', "&#38;")
        .replace('<', "&#60;")
        .replace('>', "&#62;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}

#[sqlx::test]
async fn live_pages_answer_304_until_something_changes(pool: PgPool) {
    let token = token_for(&pool, "chief", "admin").await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    let round = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    // Published: a paired round is the arbiters' draft.
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds/1/publish"),
        None,
    )
    .await;
    let mut browser = Browser::new(&pool);
    // The first visit sets the anonymous cookie the page's CSRF token (and so its tag) uses.
    browser.get(&format!("/s/{sid}/standings")).await;
    for path in [
        format!("/s/{sid}/standings"),
        format!("/s/{sid}/pairings/1"),
        format!("/s/{sid}/crosstable"),
        format!("/s/{sid}/entrants"),
        format!("/s/{sid}/bracket"),
        format!("/s/{sid}/now"),
        format!("/s/{sid}/p/1"),
    ] {
        let first = browser.get(&path).await;
        assert_eq!(first.status, StatusCode::OK, "{path}");
        let tag = first
            .headers
            .get("etag")
            .expect("an ETag")
            .to_str()
            .unwrap()
            .to_string();
        // Anonymous: shared with every other visitor and with proxies for a few seconds.
        assert!(
            first
                .headers
                .get("cache-control")
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("public"),
            "{path}"
        );
        let again = conditional(&browser, &path, &tag).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{path}");
        assert!(again.text.is_empty());
        // Another language is another page.
        let english = conditional(&browser, &format!("{path}?lang=en"), &tag).await;
        assert_eq!(english.status, StatusCode::OK, "{path}?lang=en");
    }
    let path = format!("/s/{sid}/standings");
    let before = browser.get(&path).await;
    let tag = before
        .headers
        .get("etag")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let board = round["boards"][0]["id"].as_str().unwrap();
    api(
        &pool,
        &token,
        "PUT",
        &format!("/api/v1/boards/{board}/result"),
        Some(json!({"result": "draw"})),
    )
    .await;
    let after = conditional(&browser, &path, &tag).await;
    assert_eq!(after.status, StatusCode::OK, "a result changes the page");
    assert_ne!(after.headers.get("etag").unwrap().to_str().unwrap(), tag);
    assert_ne!(after.text, before.text);
    // Print views are not live: no tag.
    assert!(browser
        .get(&format!("{path}/print"))
        .await
        .headers
        .get("etag")
        .is_none());
}

async fn conditional(browser: &Browser, uri: &str, tag: &str) -> crate::support::Reply {
    let request = Request::get(uri)
        .header("cookie", browser.cookie_header())
        .header("if-none-match", tag)
        .body(Body::empty())
        .unwrap();
    crate::support::send(&browser.pool, request).await
}

#[sqlx::test]
async fn the_pairing_sheet_shows_points_before_the_round_and_no_internal_status(pool: PgPool) {
    let token = token_for(&pool, "chief", "admin").await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    let pair = |pool: PgPool, token: String, sid: String| async move {
        let round = expect(
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
        let n = round["number"].as_i64().unwrap();
        crate::support::publish(&pool, &token, &sid, n).await;
        round
    };
    let round1 = pair(pool.clone(), token.clone(), sid.clone()).await;
    for b in round1["boards"].as_array().unwrap() {
        assert_eq!(b["red"]["points"], 0.0, "nothing before round 1");
        expect(
            &call(
                &pool,
                "PUT",
                &format!("/api/v1/boards/{}/result", b["id"].as_str().unwrap()),
                Some(&token),
                Some(json!({"result": "red_wins"})),
            )
            .await,
            StatusCode::OK,
        );
    }
    let round2 = pair(pool.clone(), token.clone(), sid.clone()).await;
    let mut points: Vec<f64> = round2["boards"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| {
            [
                b["red"]["points"].as_f64().unwrap(),
                b["black"]["points"].as_f64().unwrap(),
            ]
        })
        .collect();
    points.sort_by(f64::total_cmp);
    assert_eq!(
        points,
        [0.0, 0.0, 2.0, 2.0],
        "the winners of round 1 have 2 points"
    );
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds/2/publish"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let sheet = crate::support::get(&pool, &format!("/s/{sid}/pairings/2/print?lang=en")).await;
    assert_eq!(sheet.status, StatusCode::OK);
    assert!(
        sheet.text.contains("Points before this round"),
        "{}",
        sheet.text
    );
    assert_eq!(
        sheet
            .text
            .matches("<td class=\"num points\">2</td>")
            .count(),
        2,
        "{}",
        sheet.text
    );
    assert!(
        !sheet.text.contains(">Published<"),
        "no internal status on the sheet"
    );
    // The screen page keeps the round's status.
    let screen = crate::support::get(&pool, &format!("/s/{sid}/pairings/2?lang=en")).await;
    assert!(screen.text.contains("Published"));
}
