//! The arbiter's desk with care (issue #15): destructive actions ask first on a page of their
//! own (no JavaScript needed) and a withdrawal offers its undo; each round links its prints;
//! check-in by search, by number and by a selection at once.

use crate::support::api;
use crate::support::{
    add_entrants, call, csrf_of, expect, location, token_for, tournament_with_section, Browser,
    Reply,
};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

async fn admin_browser(pool: &PgPool) -> (String, Browser) {
    let (token, mut browser) = crate::support::admin_browser(pool).await;
    browser.accept_language = Some("en".into());
    (token, browser)
}

/// Posts the form of `page` whose action is `action` (its CSRF token added).
async fn submit(browser: &mut Browser, page: &str, action: &str, fields: &[(&str, &str)]) -> Reply {
    let html = browser.get(page).await;
    assert_eq!(html.status, StatusCode::OK, "{page}: {}", html.text);
    assert!(
        html.text.contains(&format!("action=\"{action}\"")),
        "{page} has no form posting to {action}"
    );
    let csrf = csrf_of(&html.text);
    let mut all = vec![("csrf", csrf.as_str())];
    all.extend_from_slice(fields);
    browser.post_form(action, &all).await
}

async fn entrant(pool: &PgPool, token: &str, sid: &str, id: &str) -> Value {
    let list = api(
        pool,
        token,
        "GET",
        &format!("/api/v1/sections/{sid}/entrants"),
        None,
    )
    .await;
    list.as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .cloned()
        .unwrap()
}

async fn audit_actions(pool: &PgPool, action: &str) -> i64 {
    sqlx::query_scalar("select count(*) from audit_event where action = $1")
        .bind(action)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test]
async fn a_withdrawal_asks_first_and_its_message_offers_the_readmission(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let ids = add_entrants(&pool, &token, &sid, 4).await;
    let e = &ids[1];
    let desk = format!("/admin/s/{sid}");
    let withdraw = format!("/admin/s/{sid}/entrants/{e}/withdraw");

    // The entrants tab links to the confirmation page; no form on it posts the withdrawal.
    let page = browser.get(&format!("{desk}/entrants")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains(&format!("href=\"{withdraw}\"")));
    assert!(!page.text.contains(&format!("action=\"{withdraw}\"")));

    // The confirmation page names the entrant and their number; looking changes nothing.
    let ask = browser.get(&withdraw).await;
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.text);
    assert!(ask.text.contains("Withdraw P2 (No. 2)?"), "{}", ask.text);
    // Cancel goes back to the entrants tab.
    assert!(ask.text.contains(&format!("href=\"{desk}/entrants\"")));
    assert_eq!(entrant(&pool, &token, &sid, e).await["status"], "active");
    browser.accept_language = Some("zh-Hant".into());
    let ask = browser.get(&withdraw).await;
    assert!(
        ask.text.contains("確定讓 P2（2 號）退賽？")
            || ask.text.contains("確定讓 P2 (2 號) 退賽？"),
        "{}",
        ask.text
    );
    browser.accept_language = Some("en".into());

    // Confirmed: withdrawn, and the message offers the undo.
    let done = submit(&mut browser, &withdraw, &withdraw, &[]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert_eq!(entrant(&pool, &token, &sid, e).await["status"], "withdrawn");
    let back = browser.get(location(&done)).await;
    assert!(
        back.text.contains("P2 (No. 2) is withdrawn."),
        "{}",
        back.text
    );
    let readmit = format!("/admin/s/{sid}/entrants/{e}/readmit");
    assert!(back.text.contains("Undo: re-admit"));
    let undone = submit(&mut browser, location(&done), &readmit, &[]).await;
    assert_eq!(undone.status, StatusCode::SEE_OTHER, "{}", undone.text);
    assert_eq!(entrant(&pool, &token, &sid, e).await["status"], "active");
    assert_eq!(audit_actions(&pool, "withdraw").await, 1);
    assert_eq!(audit_actions(&pool, "readmit").await, 1);
    // Once re-admitted, the old message no longer offers the undo.
    let again = browser.get(location(&done)).await;
    assert!(!again.text.contains(&format!("action=\"{readmit}\"")));

    // Other actions have no confirmation page; a stranger's entrant is not found.
    let other = browser
        .get(&format!("/admin/s/{sid}/entrants/{e}/check-in"))
        .await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
    let stranger = browser
        .get(&format!(
            "/admin/s/{sid}/entrants/{}/withdraw",
            uuid::Uuid::new_v4()
        ))
        .await;
    assert_eq!(stranger.status, StatusCode::NOT_FOUND);
}

#[sqlx::test]
async fn publishing_and_unpairing_go_through_their_confirmation_pages(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    let desk = format!("/admin/s/{sid}");
    let paired = submit(
        &mut browser,
        &format!("{desk}/rounds"),
        &format!("{desk}/rounds"),
        &[],
    )
    .await;
    assert_eq!(paired.status, StatusCode::SEE_OTHER, "{}", paired.text);
    let publish = format!("{desk}/rounds/1/publish");
    let unpair = format!("{desk}/rounds/1/unpair");
    let page = browser.get(&format!("{desk}/rounds")).await;
    for action in [&publish, &unpair] {
        assert!(
            page.text.contains(&format!("href=\"{action}\"")),
            "{action}"
        );
        assert!(
            !page.text.contains(&format!("action=\"{action}\"")),
            "{action}"
        );
    }

    let ask = browser.get(&publish).await;
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.text);
    assert!(ask.text.contains("Publish round 1?"));
    assert!(ask.text.contains("2 board(s)"), "{}", ask.text);
    let done = submit(&mut browser, &publish, &publish, &[]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let round = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/rounds/1"),
        None,
    )
    .await;
    assert_eq!(round["status"], "published");

    // Without results the page asks plainly; with one it asks to delete it too.
    let ask = browser.get(&unpair).await;
    assert!(ask.text.contains("Unpair round 1?"));
    assert!(!ask.text.contains("name=\"force\""));
    let board = round["boards"][0]["id"].as_str().unwrap().to_string();
    api(
        &pool,
        &token,
        "PUT",
        &format!("/api/v1/boards/{board}/result"),
        Some(json!({"result": "red_wins", "version": 0})),
    )
    .await;
    let ask = browser.get(&unpair).await;
    assert!(ask.text.contains("name=\"force\""), "{}", ask.text);
    assert!(ask.text.contains("Also delete its 1 result(s)"));
    let refused = submit(&mut browser, &unpair, &unpair, &[]).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    let done = submit(&mut browser, &unpair, &unpair, &[("force", "on")]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let rounds = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    assert_eq!(rounds.as_array().map(Vec::len), Some(0), "{rounds}");
}

#[sqlx::test]
async fn byes_forbidden_pairs_registrations_and_payments_ask_before_they_go(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let fees = json!({"fee_tiers": [{"name": "member", "amount": 10}]});
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", fees).await;
    let ids = add_entrants(&pool, &token, &sid, 2).await;
    let desk = format!("/admin/s/{sid}");

    // A requested bye.
    let (a, b) = (&ids[0], &ids[1]);
    let made = submit(
        &mut browser,
        &format!("{desk}/byes"),
        &format!("{desk}/byes"),
        &[("bye_entrant", a), ("bye_round", "3"), ("bye_kind", "half")],
    )
    .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.text);
    let cancel = format!("{desk}/byes/{a}/3/cancel");
    assert!(browser
        .get(&format!("{desk}/byes"))
        .await
        .text
        .contains(&format!("href=\"{cancel}\"")));
    let ask = browser.get(&cancel).await;
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.text);
    assert!(
        ask.text
            .contains("Cancel the requested bye of P1 (No. 1) · Round 3?"),
        "{}",
        ask.text
    );
    let done = submit(&mut browser, &cancel, &cancel, &[]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);

    // A forbidden pair.
    let made = submit(
        &mut browser,
        &format!("{desk}/byes"),
        &format!("{desk}/forbidden-pairs"),
        &[("pair_a", a), ("pair_b", b)],
    )
    .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.text);
    let remove = format!("{desk}/forbidden-pairs/remove");
    let ask = browser.get(&format!("{remove}?a={a}&b={b}")).await;
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.text);
    assert!(
        ask.text.contains("Allow P1 – P2 to meet again?")
            || ask.text.contains("Allow P2 – P1 to meet again?"),
        "{}",
        ask.text
    );
    let done = submit(
        &mut browser,
        &format!("{remove}?a={a}&b={b}"),
        &remove,
        &[("a", a), ("b", b)],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let pairs = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/forbidden-pairs"),
        None,
    )
    .await;
    assert_eq!(pairs.as_array().map(Vec::len), Some(0), "{pairs}");

    // A registration with a payment: voiding the payment, then withdrawing it.
    let r = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{sid}/registrations"),
        None,
        Some(json!({"name": "陳大文", "fee_tier": "member"})),
    )
    .await;
    let r = expect(&r, StatusCode::CREATED)["id"]
        .as_str()
        .unwrap()
        .to_string();
    let paid = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/registrations/{r}/payment"),
        Some(json!({"state": "paid", "amount": 10, "method": "cash"})),
    )
    .await;
    let payment = paid["payments"][0]["id"].as_str().unwrap().to_string();
    let void = format!("{desk}/payments/{payment}/void");
    assert!(browser
        .get(&format!("{desk}/registrations"))
        .await
        .text
        .contains(&format!("href=\"{void}\"")));
    let ask = browser.get(&void).await;
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.text);
    assert!(
        ask.text
            .contains("Void this ledger entry: paid 10 · Cash · 陳大文?"),
        "{}",
        ask.text
    );
    let withdraw = format!("{desk}/registrations/{r}/withdraw");
    let ask = browser.get(&withdraw).await;
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.text);
    assert!(
        ask.text.contains("Withdraw the registration of 陳大文?"),
        "{}",
        ask.text
    );
    assert!(ask.text.contains("10 was paid on it"), "{}", ask.text);
    let done = submit(&mut browser, &withdraw, &withdraw, &[]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let done = submit(&mut browser, &void, &void, &[]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
}

#[sqlx::test]
async fn each_round_on_the_desk_links_its_pairing_sheet_list_by_name_and_slips(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    let desk = format!("/admin/s/{sid}");
    let before = browser.get(&format!("{desk}/rounds")).await;
    assert!(!before.text.contains("/pairings/1/print"));
    submit(
        &mut browser,
        &format!("{desk}/rounds"),
        &format!("{desk}/rounds"),
        &[],
    )
    .await;
    let publish = format!("{desk}/rounds/1/publish");
    submit(&mut browser, &publish, &publish, &[]).await;
    let page = browser.get(&format!("{desk}/rounds")).await;
    for print in [
        format!("/s/{sid}/pairings/1/print"),
        format!("/s/{sid}/pairings/1/by-name/print"),
        format!("/s/{sid}/slips/1/print"),
    ] {
        assert!(page.text.contains(&format!("href=\"{print}\"")), "{print}");
        let sheet = browser.get(&print).await;
        assert_eq!(sheet.status, StatusCode::OK, "{print}: {}", sheet.text);
        // No internal status word on a print.
        assert!(!sheet.text.contains("published"), "{print}");
        assert!(!sheet.text.contains(">Published<"), "{print}");
    }
    assert!(page.text.contains("Pairing sheet"));
    let sheet = browser.get(&format!("/s/{sid}/pairings/1/print")).await;
    assert!(sheet.text.contains("class=\"num points\""));
}

/// The reply with its text cut to the entrants' part of the desk (the registrations list
/// names the same people).
fn table(mut reply: Reply) -> Reply {
    let start = reply.text.find("<section id=\"entrants\">").unwrap();
    let end = reply.text.find("<h3 id=\"add-entrant\">").unwrap();
    reply.text = reply.text[start..end].to_string();
    reply
}

#[sqlx::test]
async fn check_in_finds_by_name_number_and_club_and_takes_a_number_or_a_selection(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let mut ids = Vec::new();
    for (name, club) in [
        ("張三豐", "台北象棋會"),
        ("李四", "Toronto XQ"),
        ("王五", "台北象棋會"),
        ("Zhao Liu", "Vancouver"),
        ("陳七", "Toronto XQ"),
    ] {
        let e = api(
            &pool,
            &token,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(json!({"name": name, "club": club})),
        )
        .await;
        ids.push(e["id"].as_str().unwrap().to_string());
    }
    let desk = format!("/admin/s/{sid}");

    // Search: a CJK substring of a name, a club in any case, a start number.
    let found = table(browser.get(&format!("{desk}/entrants?q=%E4%B8%89")).await); // 三
    assert_eq!(found.status, StatusCode::OK);
    assert!(found.text.contains("張三豐") && !found.text.contains(">李四<"));
    assert!(found.text.contains("Present: 0 / 1"), "{}", found.text);
    let found = table(browser.get(&format!("{desk}/entrants?q=toronto")).await);
    assert!(found.text.contains(">李四<") && found.text.contains(">陳七<"));
    assert!(!found.text.contains(">王五<"));
    let found = table(
        browser
            .get(&format!("{desk}/entrants?q=%E5%8F%B0%E5%8C%97"))
            .await,
    ); // 台北
    assert!(found.text.contains(">張三豐<") && found.text.contains(">王五<"));
    assert!(!found.text.contains(">Zhao Liu<"));
    let found = table(browser.get(&format!("{desk}/entrants?q=4")).await);
    assert!(found.text.contains(">Zhao Liu<") && !found.text.contains(">陳七<"));
    let none = browser.get(&format!("{desk}/entrants?q=nobody")).await;
    assert!(none.text.contains("No entrant matches this search."));

    // By number and Enter: checked in, the message names them, the box has the focus again.
    let number = format!("{desk}/check-in/number");
    let done = submit(
        &mut browser,
        &format!("{desk}/entrants"),
        &number,
        &[("no", "2")],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert_eq!(
        entrant(&pool, &token, &sid, &ids[1]).await["checked_in"],
        true
    );
    let back = browser.get(location(&done)).await;
    assert!(
        back.text.contains("李四 (No. 2) is checked in."),
        "{}",
        back.text
    );
    assert!(back.text.contains("autofocus"));
    assert!(back.text.contains("Present: 1 / 5"));
    // Full-width digits, as a Chinese input method types them, are the same number.
    let again = submit(
        &mut browser,
        &format!("{desk}/entrants"),
        &number,
        &[("no", "２")],
    )
    .await;
    let back = browser.get(location(&again)).await;
    assert!(
        back.text.contains("李四 (No. 2) was already checked in."),
        "{}",
        back.text
    );
    assert_eq!(audit_actions(&pool, "check_in").await, 1);
    let missing = submit(
        &mut browser,
        &format!("{desk}/entrants"),
        &number,
        &[("no", "99")],
    )
    .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        missing.text.contains("沒有編號 99 的參賽者"),
        "{}",
        missing.text
    );
    // (Posts go without Accept-Language: the refusals are in the default language.)
    // Text that is no number searches.
    let search = submit(
        &mut browser,
        &format!("{desk}/entrants"),
        &number,
        &[("no", "Zhao")],
    )
    .await;
    assert_eq!(search.status, StatusCode::SEE_OTHER);
    assert!(
        location(&search).contains("q=Zhao"),
        "{}",
        location(&search)
    );

    // A selection at once, the search kept.
    let bulk = format!("{desk}/check-in");
    let page = browser.get(&format!("{desk}/entrants?q=toronto")).await;
    assert!(page
        .text
        .contains(&format!("value=\"{}\" form=\"bulk-check-in\"", ids[4])));
    let csrf = csrf_of(&page.text);
    let done = browser
        .post_form(
            &bulk,
            &[
                ("csrf", &csrf),
                ("q", "toronto"),
                ("entrant[]", &ids[0]),
                ("entrant[]", &ids[4]),
            ],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert!(location(&done).contains("q=toronto"));
    let back = browser.get(location(&done)).await;
    assert!(
        back.text.contains("Entrants checked in now: 2."),
        "{}",
        back.text
    );
    for i in [0, 4] {
        assert_eq!(
            entrant(&pool, &token, &sid, &ids[i]).await["checked_in"],
            true
        );
    }
    assert_eq!(audit_actions(&pool, "check_in").await, 3);

    // One transaction: a withdrawn entrant in the selection refuses it all.
    let withdraw = format!("{desk}/entrants/{}/withdraw", ids[3]);
    submit(&mut browser, &withdraw, &withdraw, &[]).await;
    let refused = browser
        .post_form(
            &bulk,
            &[("csrf", &csrf), ("entrant", &ids[2]), ("entrant", &ids[3])],
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert!(refused.text.contains("Zhao Liu 已退賽"), "{}", refused.text);
    assert_eq!(
        entrant(&pool, &token, &sid, &ids[2]).await["checked_in"],
        false
    );
    let empty = browser.post_form(&bulk, &[("csrf", &csrf)]).await;
    assert_eq!(
        empty.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        empty.text
    );
    assert!(
        empty.text.contains("請至少選擇一名參賽者報到"),
        "{}",
        empty.text
    );
}

#[sqlx::test]
async fn the_api_checks_in_a_selection_at_once_or_nobody(pool: PgPool) {
    let token = token_for(&pool, "chief", "admin").await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let (_, other) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let ids = add_entrants(&pool, &token, &sid, 4).await;
    let stranger = add_entrants(&pool, &token, &other, 1).await.remove(0);
    let bulk = format!("/api/v1/sections/{sid}/check-in");
    let present = |ids: &[String]| {
        let (pool, token, sid, ids) = (pool.clone(), token.clone(), sid.clone(), ids.to_vec());
        async move {
            let mut marks = Vec::new();
            for id in &ids {
                marks.push(entrant(&pool, &token, &sid, id).await["checked_in"] == true);
            }
            marks
        }
    };

    let done = api(
        &pool,
        &token,
        "POST",
        &bulk,
        Some(json!({"entrants": [ids[0], ids[1], ids[1]]})),
    )
    .await;
    assert_eq!(done, json!({"checked_in": 2}));
    // Those already present are not counted again.
    let done = api(
        &pool,
        &token,
        "POST",
        &bulk,
        Some(json!({"entrants": [ids[1], ids[2]]})),
    )
    .await;
    assert_eq!(done, json!({"checked_in": 1}));
    assert_eq!(present(&ids).await, [true, true, true, false]);

    // Nobody is marked when one of the selection is of another section, or withdrawn.
    let refused = call(
        &pool,
        "POST",
        &bulk,
        Some(&token),
        Some(json!({"entrants": [ids[3], stranger]})),
    )
    .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.text);
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/entrants/{}/withdraw", ids[0]),
        None,
    )
    .await;
    let refused = call(
        &pool,
        "POST",
        &bulk,
        Some(&token),
        Some(json!({"entrants": [ids[3], ids[0]]})),
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert!(refused.text.contains("withdrawn"), "{}", refused.text);
    assert_eq!(present(&ids[3..]).await, [false]);
    let empty = call(
        &pool,
        "POST",
        &bulk,
        Some(&token),
        Some(json!({"entrants": []})),
    )
    .await;
    assert_eq!(
        empty.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        empty.text
    );
    assert!(
        empty.text.contains("choose at least one entrant"),
        "{}",
        empty.text
    );
}

#[sqlx::test]
async fn removing_staff_and_deleting_an_account_ask_first(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (tid, _sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    token_for(&pool, "deputy", "user").await;
    let assigned = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/tournaments/{tid}/staff"),
        Some(json!({"username": "deputy", "role": "scorer"})),
    )
    .await;
    let deputy = assigned["user_id"]
        .as_str()
        .or_else(|| assigned["id"].as_str())
        .map(str::to_string)
        .unwrap_or_else(|| panic!("{assigned}"));

    // The staff page links to the confirmation page, which names the member and their role.
    let staff = format!("/admin/t/{tid}/staff");
    let remove = format!("{staff}/{deputy}/remove");
    let page = browser.get(&staff).await;
    assert!(
        page.text.contains(&format!("href=\"{remove}\"")),
        "{}",
        page.text
    );
    assert!(!page.text.contains(&format!("action=\"{remove}\"")));
    let ask = browser.get(&remove).await;
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.text);
    assert!(
        ask.text.contains("Remove deputy (scorer) from the staff?"),
        "{}",
        ask.text
    );
    let done = submit(&mut browser, &remove, &remove, &[]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let left = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/tournaments/{tid}/staff"),
        None,
    )
    .await;
    assert!(!left.to_string().contains("deputy"), "{left}");

    // An invitation link: withdrawn through its page.
    let made = call(
        &pool,
        "POST",
        &format!("/api/v1/tournaments/{tid}/invitations"),
        Some(&token),
        Some(json!({"role": "scorer"})),
    )
    .await;
    let made = expect(&made, StatusCode::CREATED);
    let invitation = made["invitation"]["id"]
        .as_str()
        .or_else(|| made["id"].as_str())
        .map(str::to_string)
        .unwrap_or_else(|| panic!("{made}"));
    let withdraw = format!("/admin/t/{tid}/invitations/{invitation}/withdraw");
    let page = browser.get(&staff).await;
    assert!(
        page.text.contains(&format!("href=\"{withdraw}\"")),
        "{}",
        page.text
    );
    let ask = browser.get(&withdraw).await;
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.text);
    assert!(
        ask.text.contains("Withdraw the invitation link (scorer"),
        "{}",
        ask.text
    );
    let done = submit(&mut browser, &withdraw, &withdraw, &[]).await;
    assert!(done.status.is_redirection(), "{}", done.text);
    let page = browser.get(&staff).await;
    assert!(!page.text.contains(&withdraw));

    // An account: the users page links to the confirmation; only its form deletes.
    token_for(&pool, "spare", "user").await;
    let users = api(&pool, &token, "GET", "/api/v1/users", None).await;
    let spare = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["username"] == "spare")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let delete = format!("/admin/users/{spare}/delete");
    let page = browser.get("/admin/users").await;
    assert!(page.text.contains(&format!("href=\"{delete}\"")));
    assert!(!page.text.contains(&format!("action=\"{delete}\"")));
    let ask = browser.get(&delete).await;
    assert_eq!(ask.status, StatusCode::OK, "{}", ask.text);
    assert!(
        ask.text.contains("Delete the account spare?"),
        "{}",
        ask.text
    );
    let users = api(&pool, &token, "GET", "/api/v1/users", None).await;
    assert!(
        users.to_string().contains("spare"),
        "looking deletes nothing"
    );
    let done = submit(&mut browser, &delete, &delete, &[]).await;
    assert!(
        done.status.is_redirection() || done.status == StatusCode::OK,
        "{}",
        done.text
    );
    let users = api(&pool, &token, "GET", "/api/v1/users", None).await;
    assert!(!users.to_string().contains("\"spare\""), "{users}");
}
