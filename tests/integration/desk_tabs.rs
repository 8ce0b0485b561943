//! The section's desk in tabs (issue #15): each tab at its own address with its own content
//! and the one tab bar marking it; every action lands on its tab with its message; the
//! overview keeps the old anchors; the pages under a tab show the bar too.

use crate::support::submit;
use crate::support::{
    add_entrants, call, location, token_for, tournament_with_section, Browser, Reply, PASSWORD,
};
use axum::http::StatusCode;
use sqlx::PgPool;

/// The tabs: (address below `/admin/s/{id}`, the tab bar's id, text only that tab shows).
const TABS: &[(&str, &str, &str)] = &[
    ("", "tab-overview", r#"id="overview-entrants""#),
    ("/entrants", "tab-entrants", r#"id="checkin-no""#),
    (
        "/registrations",
        "tab-registrations",
        r#"<section id="registrations">"#,
    ),
    ("/byes", "tab-byes", r#"class="form narrow pair-form""#),
    ("/rounds", "tab-rounds", "Pair the next round"),
    ("/standings", "tab-standings", r#"id="ties-link""#),
    (
        "/knockout",
        "tab-knockout",
        r#"/knockout" class="form narrow""#,
    ),
    ("/prizes", "tab-prizes", r#"/prizes" class="prizes""#),
    ("/settings", "tab-settings", "settings-form"),
];

async fn desk(pool: &PgPool) -> (String, String, Browser) {
    let token = token_for(pool, "chief", "admin").await;
    let (_tid, sid) = tournament_with_section(pool, &token, "xiangqi", serde_json::json!({})).await;
    let mut browser = Browser::new(pool);
    browser.log_in("chief", PASSWORD).await;
    (token, sid, browser)
}

/// The tab bar of a page: its `<nav>`.
fn tab_bar(html: &str) -> &str {
    let start = html.find(r#"<nav class="tabs desk-tabs""#).unwrap_or(0);
    let end = html[start..]
        .find("</nav>")
        .map_or(html.len(), |e| start + e);
    &html[start..end]
}

/// The `aria-current` of the tab link `id` in `bar`, if any.
fn current_of<'a>(bar: &'a str, id: &str) -> Option<&'a str> {
    let at = bar.find(&format!(r#"id="{id}""#))?;
    let tag_end = bar[at..].find('>')? + at;
    let tag = &bar[at..tag_end];
    let value = tag.split(r#"aria-current=""#).nth(1)?;
    value.split('"').next()
}

#[sqlx::test]
async fn each_tab_has_its_address_its_content_and_is_marked_in_the_one_tab_bar(pool: PgPool) {
    let (token, sid, mut browser) = desk(&pool).await;
    add_entrants(&pool, &token, &sid, 4).await;
    for (path, id, own) in TABS {
        let page = browser.get(&format!("/admin/s/{sid}{path}?lang=en")).await;
        assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.text);
        assert!(page.text.contains(own), "{path} shows {own}: {}", page.text);
        let bar = tab_bar(&page.text);
        for (other_path, other, _) in TABS {
            let href = format!(r#"href="/admin/s/{sid}{other_path}""#);
            assert!(bar.contains(&href), "{path}: the bar links {other_path}");
            let expected = (other == id).then_some("page");
            assert_eq!(current_of(bar, other), expected, "{path}: {other}");
        }
        // What belongs to another tab is not here.
        for (other_path, _, other_own) in TABS {
            if other_path != path && !own.contains(other_own) && !other_own.contains(own) {
                assert!(
                    !page.text.contains(other_own),
                    "{path} shows {other_path}'s {other_own}"
                );
            }
        }
    }
    // The entrants are listed on their tab only (the overview counts them).
    let overview = browser.get(&format!("/admin/s/{sid}?lang=en")).await;
    assert!(
        overview.text.contains("In the list: 4"),
        "{}",
        overview.text
    );
    assert!(overview.text.contains("Present: 0 / 4"));
    assert!(!overview.text.contains("p1@example.org"));
    let entrants = browser
        .get(&format!("/admin/s/{sid}/entrants?lang=en"))
        .await;
    assert!(entrants.text.contains("p1@example.org"));

    // In Chinese the tab bar has no English.
    let zh = browser
        .get(&format!("/admin/s/{sid}/rounds?lang=zh-Hant"))
        .await;
    let bar = tab_bar(&zh.text);
    for word in [
        "Overview",
        "Entrants",
        "Rounds",
        "Standings",
        "Settings",
        "Byes",
    ] {
        assert!(!bar.contains(word), "{word} in {bar}");
    }
    assert!(bar.contains("概覽") && bar.contains("輪次與成績"), "{bar}");
    let zh = browser.get(&format!("/admin/s/{sid}?lang=zh-Hans")).await;
    assert!(tab_bar(&zh.text).contains("概览"));
}

#[sqlx::test]
async fn every_action_lands_on_its_tab_with_its_message(pool: PgPool) {
    let (token, sid, mut browser) = desk(&pool).await;
    let ids = add_entrants(&pool, &token, &sid, 4).await;
    let base = format!("/admin/s/{sid}");
    let follow = |reply: &Reply, tab: &str| {
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text);
        // The address without its fragment (an add lands on the form: `#add-entrant`).
        let to = location(reply)
            .split('#')
            .next()
            .unwrap_or_default()
            .to_string();
        assert!(
            to.starts_with(&format!("{base}/{tab}?")),
            "{to} is not on the {tab} tab"
        );
        to
    };
    let check = |page: &Reply, tab: &str, message: &str| {
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        assert!(page.text.contains(message), "{message}: {}", page.text);
        assert_eq!(
            current_of(tab_bar(&page.text), &format!("tab-{tab}")),
            Some("page")
        );
    };

    // Entrants: added, checked in by number, withdrawn (with its undo).
    let entrants = format!("{base}/entrants?lang=en");
    let added = submit(
        &mut browser,
        &entrants,
        &format!("{base}/entrants"),
        &[("name", "Late")],
    )
    .await;
    let to = follow(&added, "entrants");
    check(
        &browser.get(&format!("{to}&lang=en")).await,
        "entrants",
        "Added: Late",
    );
    let checked = submit(
        &mut browser,
        &entrants,
        &format!("{base}/check-in/number"),
        &[("no", "1")],
    )
    .await;
    let to = follow(&checked, "entrants");
    let page = browser.get(&format!("{to}&lang=en")).await;
    check(&page, "entrants", "is checked in.");
    assert!(page.text.contains(r#"id="checkin-no" name="no" inputmode="numeric" autocomplete="off" class="checkin-no" autofocus"#));
    let withdrawn = submit(
        &mut browser,
        &entrants,
        &format!("{base}/entrants/{}/withdraw", ids[3]),
        &[],
    )
    .await;
    let to = follow(&withdrawn, "entrants");
    let page = browser.get(&format!("{to}&lang=en")).await;
    check(&page, "entrants", "is withdrawn.");
    assert!(page.text.contains(r#"id="undo-button""#));

    // A refused form shows its tab again, with the values and the message (422).
    let refused = submit(
        &mut browser,
        &entrants,
        &format!("{base}/entrants"),
        &[("name", ""), ("rating", "high")],
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.text.contains(r#"id="rating-error""#));
    assert_eq!(
        current_of(tab_bar(&refused.text), "tab-entrants"),
        Some("page")
    );

    // Byes and forbidden pairs.
    let byes = format!("{base}/byes?lang=en");
    let bye = submit(
        &mut browser,
        &byes,
        &format!("{base}/byes"),
        &[
            ("bye_entrant", &ids[0]),
            ("bye_round", "2"),
            ("bye_kind", "half"),
        ],
    )
    .await;
    let to = follow(&bye, "byes");
    check(
        &browser.get(&format!("{to}&lang=en")).await,
        "byes",
        "Bye recorded.",
    );
    let pair = submit(
        &mut browser,
        &byes,
        &format!("{base}/forbidden-pairs"),
        &[("pair_a", &ids[0]), ("pair_b", &ids[1])],
    )
    .await;
    let to = follow(&pair, "byes");
    check(
        &browser.get(&format!("{to}&lang=en")).await,
        "byes",
        "will not be paired together",
    );
    let same = submit(
        &mut browser,
        &byes,
        &format!("{base}/forbidden-pairs"),
        &[("pair_a", &ids[0]), ("pair_b", "")],
    )
    .await;
    assert_eq!(same.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(current_of(tab_bar(&same.text), "tab-byes"), Some("page"));

    // Rounds: paired, a refusal (409) on the rounds tab, a result from the board form.
    let rounds = format!("{base}/rounds?lang=en");
    let paired = submit(&mut browser, &rounds, &format!("{base}/rounds"), &[]).await;
    let to = follow(&paired, "rounds");
    let page = browser.get(&format!("{to}&lang=en")).await;
    check(&page, "rounds", "The next round is paired.");
    let again = submit(&mut browser, &rounds, &format!("{base}/rounds"), &[]).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(again.text.contains("without a result"), "{}", again.text);
    assert_eq!(current_of(tab_bar(&again.text), "tab-rounds"), Some("page"));
    // Results are taken once the round is published (issue #35).
    crate::support::publish(&pool, &token, &sid, 1).await;
    let page = browser.get(&format!("{to}&lang=en")).await;
    // The first board's form on the rounds tab: its board and the version it was read at.
    let form = page
        .text
        .split(r#"action="/admin/boards/"#)
        .nth(1)
        .unwrap()
        .to_string();
    let board_id = form.split('/').next().unwrap().to_string();
    let version = form
        .split(r#"name="version" value=""#)
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let saved = submit(
        &mut browser,
        &rounds,
        &format!("/admin/boards/{board_id}/result"),
        &[
            ("section_id", &sid),
            ("version", &version),
            ("result", "red_wins"),
            ("red_fouls", "0"),
            ("black_fouls", "0"),
        ],
    )
    .await;
    let to = follow(&saved, "rounds");
    check(
        &browser.get(&format!("{to}&lang=en")).await,
        "rounds",
        "Result saved.",
    );

    // Registrations: a payment recorded.
    let body = serde_json::json!({"name": "Reg A", "email": "reg@example.org"});
    let reg = crate::support::expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/registrations"),
            None,
            Some(body),
        )
        .await,
        StatusCode::CREATED,
    );
    let rid = reg["id"].as_str().unwrap();
    let registrations = format!("{base}/registrations?lang=en");
    let paid = submit(
        &mut browser,
        &registrations,
        &format!("{base}/registrations/{rid}/payment"),
        &[("state", "paid"), ("method", "cash")],
    )
    .await;
    let to = follow(&paid, "registrations");
    check(
        &browser.get(&format!("{to}&lang=en")).await,
        "registrations",
        "Registration updated.",
    );

    // Settings: saved, the message on the settings tab.
    let saved =
        crate::dashboard_forms::post_settings(&mut browser, &sid, &[("name", "Open A")]).await;
    let to = follow(&saved, "settings");
    check(
        &browser.get(&format!("{to}&lang=en")).await,
        "settings",
        "Settings saved.",
    );
}

#[sqlx::test]
async fn the_overview_keeps_the_old_anchors_and_the_pages_under_a_tab_show_the_bar(pool: PgPool) {
    let (token, sid, mut browser) = desk(&pool).await;
    add_entrants(&pool, &token, &sid, 2).await;
    let base = format!("/admin/s/{sid}");
    let overview = browser.get(&format!("{base}?lang=en")).await;
    for (anchor, tab) in [
        ("rounds", "/rounds"),
        ("entrants", "/entrants"),
        ("registrations", "/registrations"),
        ("byes", "/byes"),
        ("forbidden", "/byes#forbidden"),
    ] {
        let at = overview
            .text
            .find(&format!(r#"<section id="{anchor}""#))
            .unwrap_or_else(|| panic!("#{anchor} on the overview"));
        let part = &overview.text[at..];
        let part = &part[..part.find("</section>").unwrap_or(part.len())];
        assert!(
            part.contains(&format!(r#"href="{base}{tab}""#)),
            "#{anchor}: {part}"
        );
    }
    submit(
        &mut browser,
        &format!("{base}/rounds"),
        &format!("{base}/rounds"),
        &[],
    )
    .await;
    let overview = browser.get(&format!("{base}?lang=en")).await;
    assert!(overview.text.contains("Round 1"), "{}", overview.text);
    assert!(
        overview.text.contains("Results: 0 / 1"),
        "{}",
        overview.text
    );
    assert!(overview
        .text
        .contains(&format!("/s/{sid}/pairings/1/print")));

    // Pages under a tab mark it as the current one of the set; the tab pages as the page.
    for (path, tab, how) in [
        ("/rounds/1/results", "tab-rounds", "true"),
        ("/rounds/1/report", "tab-rounds", "true"),
        ("/ties", "tab-standings", "true"),
        ("/import", "tab-entrants", "true"),
        ("/settings", "tab-settings", "page"),
        ("/knockout", "tab-knockout", "page"),
        ("/prizes", "tab-prizes", "page"),
    ] {
        let page = browser.get(&format!("{base}{path}?lang=en")).await;
        assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.text);
        assert_eq!(current_of(tab_bar(&page.text), tab), Some(how), "{path}");
    }
}

#[sqlx::test]
async fn the_tabs_need_a_sign_in_and_the_tournament(pool: PgPool) {
    let (_token, sid, _browser) = desk(&pool).await;
    let mut visitor = Browser::new(&pool);
    token_for(&pool, "other", "user").await;
    let mut other = Browser::new(&pool);
    other.log_in("other", PASSWORD).await;
    for (path, _, _) in TABS {
        let uri = format!("/admin/s/{sid}{path}");
        let reply = visitor.get(&uri).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{uri}");
        assert!(location(&reply).starts_with("/login?next="), "{uri}");
        let reply = other.get(&uri).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{uri}: {}", reply.text);
    }
}
