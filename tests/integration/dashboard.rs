//! The arbiter dashboard below /admin: tournament and section pages, the desk actions, fast
//! result entry, the pairing report; login, access, CSRF and escaping.

use crate::support::submit;
use crate::support::{
    add_entrants, admin_browser, call, csrf_of, location, token_for, tournament_with_section,
    Browser, PASSWORD,
};
use axum::http::StatusCode;
use sqlx::PgPool;

#[sqlx::test]
async fn visitors_are_sent_to_the_login_page(pool: PgPool) {
    let mut browser = Browser::new(&pool);
    let id = uuid::Uuid::new_v4();
    for uri in [
        format!("/admin/t/{id}"),
        format!("/admin/s/{id}"),
        format!("/admin/s/{id}/entrants"),
        format!("/admin/s/{id}/rounds"),
        format!("/admin/s/{id}/standings"),
        format!("/admin/s/{id}/rounds/1/results"),
        "/admin/tournaments/new".to_string(),
    ] {
        let reply = browser.get(&uri).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{uri}");
        assert!(
            location(&reply).starts_with("/login?next=%2Fadmin"),
            "{uri}"
        );
    }
    // A form post without a session goes to the login page too, and changes nothing.
    let csrf = csrf_of(&browser.get("/login").await.text);
    let reply = browser
        .post_form(&format!("/admin/s/{id}/rounds"), &[("csrf", &csrf)])
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert!(location(&reply).starts_with("/login"));
}

#[sqlx::test]
async fn an_arbiter_creates_a_tournament_and_a_section_through_the_forms(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let dashboard = browser.get("/admin?lang=en").await;
    assert!(dashboard.text.contains(r#"href="/admin/tournaments/new""#));

    // Errors next to the field, values kept, 422.
    let bad = submit(
        &mut browser,
        "/admin/tournaments/new",
        "/admin/tournaments",
        &[
            ("name", ""),
            ("game", "xiangqi"),
            ("venue", "Hall <B>"),
            ("starts_on", "soon"),
        ],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains(r#"id="starts_on-error""#), "{}", bad.text);
    assert!(bad.text.contains("YYYY-MM-DD"));
    assert!(
        bad.text.contains(r#"value="Hall &#60;B&#62;""#)
            || bad.text.contains(r#"value="Hall &lt;B&gt;""#),
        "{}",
        bad.text
    );
    let bad = submit(
        &mut browser,
        "/admin/tournaments/new",
        "/admin/tournaments",
        &[("name", " "), ("game", "xiangqi")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains(r#"id="name-error""#), "{}", bad.text);

    let done = submit(
        &mut browser,
        "/admin/tournaments/new",
        "/admin/tournaments",
        &[
            ("name", "Spring Open"),
            ("game", "jieqi"),
            ("starts_on", "2026-05-01"),
            ("default_language", "en"),
        ],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let page_uri = location(&done).to_string();
    assert!(page_uri.starts_with("/admin/t/"));
    let page = browser.get(&page_uri).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("Spring Open") && page.text.contains("2026-05-01"));
    let tid = page_uri
        .trim_start_matches("/admin/t/")
        .split('?')
        .next()
        .unwrap()
        .to_string();

    let action = format!("/admin/t/{tid}/sections");
    let bad = submit(
        &mut browser,
        &page_uri,
        &action,
        &[("name", "Open A"), ("rounds", "seven")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains(r#"id="rounds-error""#), "{}", bad.text);
    assert!(bad.text.contains(r#"value="Open A""#), "value kept");
    let bad = submit(
        &mut browser,
        &page_uri,
        &action,
        &[
            ("name", "Open A"),
            ("rounds", "5"),
            ("pairing_system", "swiss-ish"),
        ],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad.text.contains(r#"id="pairing_system-error""#),
        "{}",
        bad.text
    );

    // Fees (with a currency) and the rounds by entries are set with the section (issue #15);
    // a bad currency or row is refused in the box, in the page's language.
    let bad = submit(
        &mut browser,
        &page_uri,
        &action,
        &[
            ("name", "Open A"),
            ("rounds", "5"),
            ("fee_tiers", "Member: 10 CAD\nGuest: 20 dollars"),
            ("rounds_by_entries", "2-16: 5\nmany: 7"),
        ],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(
        bad.text.contains(r#"id="rounds_by_entries-error""#),
        "{}",
        bad.text
    );
    let bad = submit(
        &mut browser,
        &format!("/admin/t/{tid}?lang=zh-Hant"),
        &action,
        &[
            ("name", "Open A"),
            ("rounds", "5"),
            ("fee_tiers", "Member: 10 CAD\nGuest: 20 dollars"),
        ],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(
        bad.text
            .contains("須為三個字母的貨幣代碼，例如 CAD、HKD 或 TWD"),
        "{}",
        bad.text
    );
    assert!(bad.text.contains(r#"id="fee_tiers-error""#), "{}", bad.text);
    let done = submit(
        &mut browser,
        &page_uri,
        &action,
        &[
            ("name", "Open A"),
            ("rounds", "5"),
            ("pairing_system", "chinese"),
            ("setup_mode", "duplicate"),
            ("fee_tiers", "Member: 10 cad\nGuest: 20"),
            ("rounds_by_entries", "2-16: 5\n17+: 7"),
        ],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert!(location(&done).starts_with("/admin/s/"));
    let section = browser.get(location(&done)).await;
    assert_eq!(section.status, StatusCode::OK);
    assert!(section.text.contains("Open A"));
    let overview = browser.get(&format!("/admin/t/{tid}")).await;
    assert!(overview.text.contains("Open A"));
    let sid = location(&done)
        .trim_start_matches("/admin/s/")
        .split(['?', '/'])
        .next()
        .unwrap_or_default()
        .to_string();
    let stored = crate::support::call(
        &pool,
        "GET",
        &format!("/api/v1/sections/{sid}"),
        Some(&token),
        None,
    )
    .await
    .json();
    assert_eq!(
        stored["fee_tiers"],
        serde_json::json!([
            {"name": "Member", "amount": 10, "currency": "CAD"},
            {"name": "Guest", "amount": 20}
        ])
    );
    assert_eq!(stored["rounds_by_entries"][1]["rounds"], 7);
    // The desk form offers the tiers with their currency.
    let entrants = browser
        .get(&format!("/admin/s/{sid}/entrants?lang=en"))
        .await;
    assert!(
        entrants.text.contains(">Member (10 CAD)</option>"),
        "{}",
        entrants.text
    );
}

#[sqlx::test]
async fn the_section_page_pairs_publishes_reports_and_unpairs(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) =
        tournament_with_section(&pool, &token, "xiangqi", serde_json::json!({})).await;
    let page = format!("/admin/s/{sid}?lang=en");
    // The entrants and the rounds each have their tab (issue #15).
    let entrants_tab = format!("/admin/s/{sid}/entrants?lang=en");
    let rounds_tab = format!("/admin/s/{sid}/rounds?lang=en");

    // An entrant added at the desk, with a name that must come out escaped.
    let added = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/entrants"),
        &[
            ("name", "<script>alert(1)</script>"),
            ("club", "Club & Co"),
            ("rating", "1800"),
        ],
    )
    .await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text);
    let bad = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/entrants"),
        &[("name", ""), ("rating", "high")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains(r#"id="rating-error""#), "{}", bad.text);
    add_entrants(&pool, &token, &sid, 3).await;
    let shown = browser.get(&entrants_tab).await;
    assert_eq!(shown.status, StatusCode::OK);
    assert!(
        shown
            .text
            .contains("&#60;script&#62;alert(1)&#60;/script&#62;")
            || shown.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{}",
        shown.text
    );
    assert!(!shown.text.contains("<script>alert(1)"));
    assert!(
        shown.text.contains("p1@example.org"),
        "arbiters see contact data"
    );

    // Pair round 1 from the page.
    let paired = submit(&mut browser, &page, &format!("/admin/s/{sid}/rounds"), &[]).await;
    assert_eq!(paired.status, StatusCode::SEE_OTHER, "{}", paired.text);
    assert!(location(&paired).contains("done=paired"));
    let shown = browser.get(&rounds_tab).await;
    assert!(shown.text.contains("Round 1"));
    assert!(shown
        .text
        .contains(&format!("/admin/s/{sid}/rounds/1/results")));
    assert!(shown
        .text
        .contains(&format!("/admin/s/{sid}/rounds/1/publish")));

    // Pairing again while results are missing: the page says why (409).
    let again = submit(&mut browser, &page, &format!("/admin/s/{sid}/rounds"), &[]).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(again.text.contains("without a result"), "{}", again.text);

    let published = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/rounds/1/publish"),
        &[],
    )
    .await;
    assert_eq!(published.status, StatusCode::SEE_OTHER);
    let round = crate::support::expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/rounds/1"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(round["status"], "published");

    // The pairing report, readably.
    let report = browser
        .get(&format!("/admin/s/{sid}/rounds/1/report?lang=en"))
        .await;
    assert_eq!(report.status, StatusCode::OK);
    assert!(report.text.contains("Score groups"), "{}", report.text);
    assert!(report.text.contains("Boards and colours"));
    // In words in every language: the system's name and how colours were decided, no codes
    // outside the JSON behind "details".
    let report = browser
        .get(&format!("/admin/s/{sid}/rounds/1/report?lang=zh-Hant"))
        .await;
    let shown = report.text.split("<details>").next().unwrap_or_default();
    assert!(shown.contains("積分編排"), "{shown}");
    assert!(shown.contains("第一輪規則"), "{shown}");
    for code in ["chinese", "round_one_pattern", ">red", ">black"] {
        assert!(!shown.contains(code), "{code} in {shown}");
    }

    // A result, then unpair: needs the confirmation, then works.
    let results = format!("/admin/s/{sid}/rounds/1/results?lang=en");
    let saved = submit(
        &mut browser,
        &results,
        &format!("/admin/s/{sid}/rounds/1/results"),
        &[("line", "1 1")],
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    // The desk's Unpair links to its confirmation page, which has the box (issue #15).
    let shown = browser
        .get(&format!("/admin/s/{sid}/rounds/1/unpair"))
        .await;
    assert!(
        shown.text.contains(r#"name="force""#),
        "confirmation box shown"
    );
    let refused = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/rounds/1/unpair"),
        &[],
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(refused.text.contains("force"), "{}", refused.text);
    let unpaired = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/rounds/1/unpair"),
        &[("force", "on")],
    )
    .await;
    assert_eq!(unpaired.status, StatusCode::SEE_OTHER);
    let shown = browser.get(&rounds_tab).await;
    assert!(!shown
        .text
        .contains(&format!("/admin/s/{sid}/rounds/1/results")));
}

#[sqlx::test]
async fn results_are_entered_by_board_and_key_with_stale_edits_refused(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) =
        tournament_with_section(&pool, &token, "xiangqi", serde_json::json!({})).await;
    add_entrants(&pool, &token, &sid, 6).await;
    crate::support::expect(
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
    crate::support::publish(&pool, &token, &sid, 1).await;
    let page = format!("/admin/s/{sid}/rounds/1/results?lang=en");
    let action = format!("/admin/s/{sid}/rounds/1/results");

    let shown = browser.get(&page).await;
    assert_eq!(shown.status, StatusCode::OK);
    assert!(shown.text.contains(r#"name="line""#) && shown.text.contains("autofocus"));
    assert!(shown.text.contains(r#"name="v1" value="0""#));
    assert!(shown.text.contains("3 game(s) without a result"));
    // A board without a result preselects none; sent unchosen, the form asks for one.
    assert!(
        shown.text.contains(
            r#"<select id="result-1" name="result">
          <option value="">–</option>"#
        ),
        "{}",
        shown.text
    );
    assert!(!shown.text.contains(r#"value="red_wins" selected"#));
    let unchosen = submit(
        &mut browser,
        &page,
        &action,
        &[("board", "1"), ("result", ""), ("version", "0")],
    )
    .await;
    assert_eq!(
        unchosen.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        unchosen.text
    );
    assert!(
        unchosen.text.contains("Choose the result first."),
        "{}",
        unchosen.text
    );

    // Quick line: board 1, Red wins.
    let saved = submit(&mut browser, &page, &action, &[("line", "1 1")]).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert!(saved.text.contains("Board 1: Red wins"), "{}", saved.text);
    assert!(saved.text.contains("2 game(s) without a result"));
    // Typing the same again changes nothing and asks nothing; a different result for a board
    // that has one asks first, and the line comes back with `!` so a second Enter replaces it.
    let again = submit(&mut browser, &page, &action, &[("line", "1 1")]).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    let asked = submit(&mut browser, &page, &action, &[("line", "1 0")]).await;
    assert_eq!(asked.status, StatusCode::CONFLICT, "{}", asked.text);
    assert!(asked.text.contains("Board 1 already has"), "{}", asked.text);
    assert!(asked.text.contains(r#"value="1 0!""#), "{}", asked.text);
    let replaced = submit(&mut browser, &page, &action, &[("line", "1 0!")]).await;
    assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.text);
    let back = submit(&mut browser, &page, &action, &[("line", "1 1!")]).await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.text);
    // Draw with fouls reaching the threshold (2): the foul rule turns it into a loss.
    let converted = submit(&mut browser, &page, &action, &[("line", "2= 2 0")]).await;
    assert_eq!(converted.status, StatusCode::OK, "{}", converted.text);
    // Retyped, the same line (converted as before) asks nothing either.
    let retyped = submit(&mut browser, &page, &action, &[("line", "2= 2 0")]).await;
    assert_eq!(retyped.status, StatusCode::OK, "{}", retyped.text);
    assert!(
        converted.text.contains("Foul rule applied"),
        "{}",
        converted.text
    );
    let round = crate::support::expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/rounds/1"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(round["boards"][0]["result"], "red_wins");
    assert_eq!(round["boards"][1]["result"], "black_wins");

    // The plain per-board form (no script): a correction of board 1 with the version seen.
    let version = round["boards"][0]["version"].as_i64().unwrap().to_string();
    let corrected = submit(
        &mut browser,
        &page,
        &action,
        &[
            ("board", "1"),
            ("result", "draw"),
            ("red_fouls", "0"),
            ("black_fouls", "0"),
            ("version", &version),
        ],
    )
    .await;
    assert_eq!(corrected.status, StatusCode::OK, "{}", corrected.text);
    // The same stale version again: refused with a clear message (409).
    let stale = submit(
        &mut browser,
        &page,
        &action,
        &[
            ("board", "1"),
            ("result", "black_wins"),
            ("version", &version),
        ],
    )
    .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    assert!(
        stale.text.contains("Someone changed this result meanwhile"),
        "{}",
        stale.text
    );
    // A quick line sent from a page read before the correction is stale too.
    let stale = browser
        .post_form(
            &action,
            &[
                ("csrf", &csrf_of(&stale.text)),
                ("line", "1 0"),
                ("v1", &version),
            ],
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);

    // Unreadable lines and unknown boards are explained, the line kept.
    let bad = submit(&mut browser, &page, &action, &[("line", "31")]).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains(r#"value="31""#));
    assert!(bad.text.contains("Type the board number"));
    let missing = submit(&mut browser, &page, &action, &[("line", "9 1")]).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.text.contains("no board 9"));
    let forfeit_fouls = submit(&mut browser, &page, &action, &[("line", "3+ 1 0")]).await;
    assert_eq!(forfeit_fouls.status, StatusCode::UNPROCESSABLE_ENTITY);
    let forfeit = submit(&mut browser, &page, &action, &[("line", "3+")]).await;
    assert_eq!(forfeit.status, StatusCode::OK);
    assert!(
        forfeit.text.contains("0 game(s) without a result"),
        "{}",
        forfeit.text
    );

    // In another language.
    let zh = browser
        .get(&format!("/admin/s/{sid}/rounds/1/results?lang=zh-Hant"))
        .await;
    assert!(zh.text.contains("快速登錄"));
}

#[sqlx::test]
async fn dashboard_forms_need_the_csrf_token_and_pages_need_access(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", serde_json::json!({})).await;
    add_entrants(&pool, &token, &sid, 4).await;

    let forged = browser
        .post_form(
            &format!("/admin/s/{sid}/rounds"),
            &[("csrf", &"0".repeat(64))],
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    let missing = browser
        .post_form(
            &format!("/admin/t/{tid}/sections"),
            &[("name", "B"), ("rounds", "3")],
        )
        .await;
    assert_eq!(missing.status, StatusCode::FORBIDDEN);
    let rounds = crate::support::expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/rounds"),
            None,
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(rounds.as_array().map(Vec::len), Some(0), "nothing paired");

    // An arbiter of another tournament sees a 403 page, and cannot act.
    token_for(&pool, "other", "user").await;
    let mut other = Browser::new(&pool);
    other.log_in("other", PASSWORD).await;
    for uri in [
        format!("/admin/t/{tid}"),
        format!("/admin/s/{sid}"),
        format!("/admin/s/{sid}/entrants"),
        format!("/admin/s/{sid}/registrations"),
        format!("/admin/s/{sid}/byes"),
        format!("/admin/s/{sid}/rounds"),
        format!("/admin/s/{sid}/standings"),
        format!("/admin/s/{sid}/rounds/1/results"),
    ] {
        let reply = other.get(&uri).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{uri}: {}", reply.text);
        assert!(reply.content_type.starts_with("text/html"));
    }
    let csrf = csrf_of(&other.get("/admin").await.text);
    let refused = other
        .post_form(&format!("/admin/s/{sid}/rounds"), &[("csrf", &csrf)])
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);

    // Unknown and malformed ids: 404 pages.
    assert_eq!(
        browser
            .get(&format!("/admin/s/{}", uuid::Uuid::new_v4()))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        browser.get("/admin/s/not-a-uuid").await.status,
        StatusCode::NOT_FOUND
    );
}

#[sqlx::test]
async fn entrants_and_registrations_are_handled_at_the_desk(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) =
        tournament_with_section(&pool, &token, "xiangqi", serde_json::json!({"cap": 2})).await;
    let uri = format!("/api/v1/sections/{sid}/registrations");
    let mut regs = Vec::new();
    for name in ["Reg A", "Reg B", "Reg C"] {
        let body = serde_json::json!({"name": name, "email": "reg@example.org"});
        let r = crate::support::expect(
            &call(&pool, "POST", &uri, None, Some(body)).await,
            StatusCode::CREATED,
        );
        regs.push(r["id"].as_str().unwrap().to_string());
    }
    let page = format!("/admin/s/{sid}/registrations?lang=en");
    let shown = browser.get(&page).await;
    assert!(shown.text.contains("waitlist place 1"), "{}", shown.text);
    assert!(shown.text.contains("reg@example.org"));

    // Withdrawing A promotes C from the waitlist.
    let reg = format!("/admin/s/{sid}/registrations");
    let out = submit(
        &mut browser,
        &page,
        &format!("{reg}/{}/withdraw", regs[0]),
        &[],
    )
    .await;
    assert_eq!(out.status, StatusCode::SEE_OTHER, "{}", out.text);
    let listed = crate::support::expect(
        &call(&pool, "GET", &uri, Some(&token), None).await,
        StatusCode::OK,
    );
    assert_eq!(listed[2]["status"], "confirmed", "{listed}");
    let paid = submit(
        &mut browser,
        &page,
        &format!("{reg}/{}/payment", regs[1]),
        &[("state", "paid")],
    )
    .await;
    assert_eq!(paid.status, StatusCode::SEE_OTHER, "{}", paid.text);
    assert!(browser.get(&page).await.text.contains(">paid<"));
    let bad = submit(
        &mut browser,
        &page,
        &format!("{reg}/{}/payment", regs[1]),
        &[("state", "free")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);

    // Entrants (the confirmed registrations): check-in, withdraw, re-admit.
    let entrants = crate::support::expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let first = entrants[0]["id"].as_str().unwrap().to_string();
    let base = format!("/admin/s/{sid}/entrants/{first}");
    let checked = submit(&mut browser, &page, &format!("{base}/check-in"), &[]).await;
    assert_eq!(checked.status, StatusCode::SEE_OTHER);
    let entrants_tab = format!("/admin/s/{sid}/entrants?lang=en");
    assert!(browser.get(&entrants_tab).await.text.contains("checked in"));
    let withdrawn = submit(&mut browser, &page, &format!("{base}/withdraw"), &[]).await;
    assert_eq!(withdrawn.status, StatusCode::SEE_OTHER);
    let again = submit(&mut browser, &page, &format!("{base}/withdraw"), &[]).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(again.text.contains("already withdrawn"));
    let back = submit(&mut browser, &page, &format!("{base}/readmit"), &[]).await;
    assert_eq!(back.status, StatusCode::SEE_OTHER);
    let unknown = submit(&mut browser, &page, &format!("{base}/promote"), &[]).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

#[sqlx::test]
async fn the_audit_log_lists_the_changes_made_through_the_pages(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", serde_json::json!({})).await;
    let page = format!("/admin/s/{sid}?lang=en");
    let added = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/entrants"),
        &[("name", "<b>Desk</b> entry")],
    )
    .await;
    assert_eq!(added.status, StatusCode::SEE_OTHER);
    let audit = browser.get(&format!("/admin/t/{tid}/audit?lang=en")).await;
    assert_eq!(audit.status, StatusCode::OK, "{}", audit.text);
    assert!(audit.text.contains("Entrant added"), "{}", audit.text);
    assert!(!audit.text.contains("<b>Desk</b>"), "escaped");
    // Readable lines in the page's language; the JSON only behind "details".
    let audit = browser
        .get(&format!("/admin/t/{tid}/audit?lang=zh-Hant"))
        .await;
    for line in ["新增參賽者", "建立組別", "建立賽事"] {
        assert!(audit.text.contains(line), "{line}: {}", audit.text);
    }
    let rows: String = audit
        .text
        .split("<details>")
        .map(|part| part.split("</details>").last().unwrap_or_default())
        .collect();
    for code in ["create entrant", "create section", "create tournament"] {
        assert!(!rows.contains(code), "{code} shown: {rows}");
    }
    token_for(&pool, "stranger", "user").await;
    let mut other = Browser::new(&pool);
    other.log_in("stranger", PASSWORD).await;
    assert_eq!(
        other.get(&format!("/admin/t/{tid}/audit")).await.status,
        StatusCode::FORBIDDEN
    );
}

#[sqlx::test]
async fn the_knockout_stage_is_created_and_played_from_the_dashboard(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) =
        tournament_with_section(&pool, &token, "xiangqi", serde_json::json!({"rounds": 1})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    let page = format!("/admin/s/{sid}/knockout?lang=en");
    let action = format!("/admin/s/{sid}/knockout");
    let shown = browser.get(&page).await;
    assert_eq!(shown.status, StatusCode::OK);
    assert!(shown.text.contains("No knockout stage yet"));

    // Before the Swiss stage is over: refused with the service's message.
    let early = submit(
        &mut browser,
        &page,
        &action,
        &[("size", "4"), ("best_of", "3")],
    )
    .await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.text);
    let bad = submit(&mut browser, &page, &action, &[("size", "four")]).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains(r#"id="size-error""#), "{}", bad.text);

    crate::support::play_round(&pool, &token, &sid, |_| "red_wins").await;
    let created = submit(
        &mut browser,
        &page,
        &action,
        &[("size", "4"), ("best_of", "1"), ("third_place", "on")],
    )
    .await;
    assert_eq!(created.status, StatusCode::SEE_OTHER, "{}", created.text);
    let shown = browser.get(&page).await;
    assert!(shown.text.contains("Next game: Red"), "{}", shown.text);
    let game_action = shown
        .text
        .split(&format!(r#"action="/admin/s/{sid}/knockout/matches/"#))
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let played = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/knockout/matches/{game_action}"),
        &[
            ("result", "red_wins"),
            ("red_fouls", "0"),
            ("black_fouls", "0"),
        ],
    )
    .await;
    assert_eq!(played.status, StatusCode::SEE_OTHER, "{}", played.text);
    let bracket = crate::support::expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let decided = bracket["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m["winner"].is_null())
        .count();
    assert_eq!(decided, 1, "{bracket}");
}

#[sqlx::test]
async fn the_prize_table_is_edited_on_its_page(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) =
        tournament_with_section(&pool, &token, "xiangqi", serde_json::json!({})).await;
    let page = format!("/admin/s/{sid}/prizes?lang=en");
    let action = format!("/admin/s/{sid}/prizes");
    let shown = browser.get(&page).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text);
    assert!(shown.text.contains(r#"name="p0_award""#));
    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[("p0_from", "first"), ("p0_award", "Cup")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains(r#"value="first""#), "typed values kept");
    let saved = submit(
        &mut browser,
        &page,
        &action,
        &[
            ("p0_from", "1"),
            ("p0_to", ""),
            ("p0_award", "<i>Cup</i>"),
            ("p0_amount", "300"),
            ("p1_category", "female"),
            ("p1_award", "Best woman"),
            ("p1_amount", "100"),
            ("p2_award", ""),
        ],
    )
    .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    let table = crate::support::expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/prizes"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(table["prizes"].as_array().map(Vec::len), Some(2), "{table}");
    let shown = browser.get(&page).await;
    assert!(!shown.text.contains("<i>Cup</i>"), "escaped");
    assert!(shown.text.contains("Best woman"));
}

#[sqlx::test]
async fn players_are_imported_from_csv_after_a_preview_and_bad_trf_is_explained(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", serde_json::json!({})).await;
    let page = format!("/admin/s/{sid}/import?lang=en");
    let action = format!("/admin/s/{sid}/import");
    assert_eq!(browser.get(&page).await.status, StatusCode::OK);

    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[("csv", "name,rating\nAnn,1500\nBob,high\n")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains("rating"), "{}", bad.text);
    assert!(
        !bad.text.contains(r#"name="apply""#),
        "no import while rows have errors"
    );

    let csv = "name,club\nAnn,<b>Club</b>\nBob,Club\n";
    let preview = submit(&mut browser, &page, &action, &[("csv", csv)]).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text);
    assert!(preview.text.contains(r#"name="apply""#));
    assert!(preview.text.contains("2 row(s) read"), "{}", preview.text);
    let none = crate::support::expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(
        none.as_array().map(Vec::len),
        Some(0),
        "a preview writes nothing"
    );
    let applied = submit(
        &mut browser,
        &page,
        &action,
        &[("csv", csv), ("apply", "1")],
    )
    .await;
    assert_eq!(applied.status, StatusCode::SEE_OTHER, "{}", applied.text);
    let two = crate::support::expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(two.as_array().map(Vec::len), Some(2));

    let overview = format!("/admin/t/{tid}?lang=en");
    let trf = submit(
        &mut browser,
        &overview,
        &format!("/admin/t/{tid}/import-trf"),
        &[("trf", "012 not really a tournament"), ("name", "Imported")],
    )
    .await;
    assert_eq!(trf.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", trf.text);
    assert!(trf.text.contains("file"), "{}", trf.text);
}

#[sqlx::test]
async fn the_arbiter_sees_the_set_up_of_a_jieqi_round(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "jieqi", serde_json::json!({})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    crate::support::expect(
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
    let section = browser.get(&format!("/admin/s/{sid}/rounds?lang=en")).await;
    assert!(section
        .text
        .contains(&format!("/admin/s/{sid}/rounds/1/setup")));
    let page = browser
        .get(&format!("/admin/s/{sid}/rounds/1/setup?lang=en"))
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains("Commitment (SHA-256)"));
    // The board drawn as the print draws it, not the API's text diagram with its English
    // legend (issue #39 item 8).
    assert!(!page.text.contains("Legend:") && !page.text.contains("chariot"));
    assert!(
        page.text.contains(r#"<table class="board board-jieqi">"#),
        "{}",
        page.text
    );
    assert!(page.text.contains("Salt"));
    assert_eq!(
        browser
            .get(&format!("/admin/s/{sid}/rounds/2/setup"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}
