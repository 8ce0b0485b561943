//! The dashboard forms for what the API offered alone (issue 8): section settings, requested
//! byes, forbidden pairs, manual re-pairing, the champions' playoff, imports by file upload.
//! Each: success, a refused input next to its field with the values kept, CSRF refusal.

use crate::support::{
    add_entrants, admin_browser, call, csrf_of, location, tournament_with_section, Browser, Reply,
};
use crate::support::{api, submit};
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

const EVIL: &str = "<script>alert(1)</script>";

/// Whether `html` shows `text` escaped (askama writes `<` as `&#60;`).
fn shows_escaped(html: &str, text: &str) -> bool {
    let numeric = text
        .replace('&', "&#38;")
        .replace('<', "&#60;")
        .replace('>', "&#62;");
    let named = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    (html.contains(&numeric) || html.contains(&named)) && !html.contains(text)
}

/// The settings form as the page shows it, with `changes` over it (a browser posts every
/// field; unticked checkboxes are absent).
fn settings_form(html: &str, changes: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = Vec::new();
    for piece in html.split("<input ").skip(1) {
        let tag = piece.split('>').next().unwrap_or("");
        let attr = |name: &str| {
            tag.split(&format!(" {name}=\""))
                .nth(1)
                .or_else(|| tag.strip_prefix(&format!("{name}=\"")))
                .and_then(|rest| rest.split('"').next())
                .map(str::to_string)
        };
        let (Some(name), kind) = (attr("name"), attr("type").unwrap_or_default()) else {
            continue;
        };
        if kind == "checkbox" && !tag.contains(" checked") {
            continue;
        }
        fields.push((name, attr("value").unwrap_or_default()));
    }
    for piece in html.split("<select ").skip(1) {
        let name = piece
            .split("name=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("")
            .to_string();
        let body = piece.split("</select>").next().unwrap_or("");
        let value = body
            .split("<option ")
            .find(|o| o.contains(" selected"))
            .and_then(|o| o.split("value=\"").nth(1))
            .and_then(|r| r.split('"').next())
            .unwrap_or("")
            .to_string();
        fields.push((name, value));
    }
    for piece in html.split("<textarea ").skip(1) {
        let name = piece
            .split("name=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("")
            .to_string();
        let value = piece
            .split_once('>')
            .map(|(_, rest)| rest.split("</textarea>").next().unwrap_or(""))
            .unwrap_or("")
            .to_string();
        fields.push((name, value));
    }
    // The logout form repeats `csrf`: a field appears once (a repeated `csrf` is refused).
    let mut seen = std::collections::HashSet::new();
    fields.retain(|(n, _)| seen.insert(n.clone()));
    for (name, value) in changes {
        fields.retain(|(n, _)| n != name);
        if !value.is_empty() || !name.ends_with("_checkbox") {
            fields.push((name.to_string(), value.to_string()));
        }
    }
    fields
}

pub(crate) async fn post_settings(
    browser: &mut Browser,
    sid: &str,
    changes: &[(&str, &str)],
) -> Reply {
    let page = browser
        .get(&format!("/admin/s/{sid}/settings?lang=en"))
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    let fields = settings_form(&page.text, changes);
    let pairs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    browser
        .post_form(&format!("/admin/s/{sid}/settings"), &pairs)
        .await
}

#[sqlx::test]
async fn section_settings_are_edited_with_refusals_next_to_their_fields(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let section_page = browser.get(&format!("/admin/s/{sid}?lang=en")).await;
    assert!(section_page
        .text
        .contains(&format!("/admin/s/{sid}/settings")));

    // The page shows the stored settings.
    let page = browser
        .get(&format!("/admin/s/{sid}/settings?lang=en"))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text
            .contains(r#"id="rounds" name="rounds" type="number" value="5""#),
        "{}",
        page.text
    );
    assert!(
        page.text.contains(r#"<option value="OPP" title="OPP" data-desc="the sum of the opponents&#39; scores (Chinese rules)" selected>"#),
        "the stored chain: {}",
        page.text
    );

    // Malformed values: errors next to their fields, everything typed kept, nothing saved.
    let bad = post_settings(
        &mut browser,
        &sid,
        &[
            ("name", EVIL),
            ("rounds", "seven"),
            ("draw", "half"),
            ("fee_tiers", "Member: ten"),
        ],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    for field in ["rounds", "draw", "fee_tiers"] {
        assert!(
            bad.text.contains(&format!(r#"id="{field}-error""#)),
            "{field}: {}",
            bad.text
        );
    }
    assert!(bad.text.contains(r#"value="seven""#));
    assert!(bad.text.contains("Member: ten"));
    assert!(
        shows_escaped(&bad.text, EVIL),
        "the name is escaped: {}",
        bad.text
    );
    // Refused by the service: an unknown tiebreak key, min above cap.
    let bad = post_settings(
        &mut browser,
        &sid,
        &[
            ("tiebreak_1", "OPP"),
            ("tiebreak_2", "NOPE"),
            ("cap", "4"),
            ("min_entries", "6"),
        ],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains(r#"id="tiebreaks-error""#), "{}", bad.text);
    assert!(
        bad.text.contains(r#"id="min_entries-error""#),
        "{}",
        bad.text
    );
    // The chain as entered: the unknown key is kept in its row, named by its code.
    assert!(
        bad.text
            .contains(r#"<option value="NOPE" title="NOPE" data-desc="Tiebreak (see the event rules)" selected>NOPE</option>"#),
        "{}",
        bad.text
    );
    let stored = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}"),
        None,
    )
    .await;
    assert_eq!(stored["rounds"], 5, "nothing saved");
    assert_eq!(stored["name"], "A");

    // Saved: rounds, scoring, chain, cap, times, fees, a checkbox.
    let done = post_settings(
        &mut browser,
        &sid,
        &[
            ("name", "Open A"),
            ("rounds", "7"),
            ("win", "1"),
            ("draw", "0.5"),
            ("loss", "0"),
            ("bye_points", ""),
            ("forfeit_win", ""),
            ("tiebreak_1", "BH"),
            ("tiebreak_2", "SB"),
            ("tiebreak_3", ""),
            ("tiebreak_4", ""),
            ("tiebreak_5", ""),
            ("tiebreak_6", ""),
            ("tiebreak_7", ""),
            ("tiebreak_8", ""),
            ("unplayed", "fide2026"),
            ("cap", "30"),
            ("min_entries", "4"),
            ("registration_opens_at", "2026-05-01T09:00"),
            ("registration_closes_at", "2026-05-20T18:30"),
            ("fee_tiers", "Member: 10\nGuest: 20"),
            ("avoid_same_club", "on"),
        ],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert!(location(&done).contains("done=settings"));
    let stored = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}"),
        None,
    )
    .await;
    assert_eq!(stored["name"], "Open A");
    assert_eq!(stored["rounds"], 7);
    assert_eq!(stored["scoring"]["draw"], 0.5);
    assert_eq!(stored["scoring"]["bye"], 1.0, "an empty bye value is a win");
    assert_eq!(stored["tiebreaks"], json!(["BH", "SB"]));
    assert_eq!(stored["unplayed"], "fide2026");
    assert_eq!(stored["cap"], 30);
    assert_eq!(stored["min_entries"], 4);
    assert_eq!(stored["avoid_same_club"], true);
    assert_eq!(stored["registration_opens_at"], "2026-05-01T09:00:00Z");
    assert_eq!(
        stored["fee_tiers"],
        json!([{"name": "Member", "amount": 10}, {"name": "Guest", "amount": 20}])
    );
    // Saved: back on the settings tab, with the message (issue #15).
    assert!(location(&done).starts_with(&format!("/admin/s/{sid}/settings?")));
    let shown = browser
        .get(&format!("/admin/s/{sid}/settings?done=settings&lang=en"))
        .await;
    assert!(shown.text.contains("Settings saved."));
    // A preset replaces the chain.
    let done = post_settings(&mut browser, &sid, &[("preset", "cxa2011_prog")]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let stored = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}"),
        None,
    )
    .await;
    assert_ne!(stored["tiebreaks"], json!(["BH", "SB"]));

    // After round 1 the pairing system is fixed: said next to the field, the choice kept.
    add_entrants(&pool, &token, &sid, 4).await;
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    let refused = post_settings(
        &mut browser,
        &sid,
        &[("pairing_system", "dutch"), ("rounds", "0")],
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains(r#"id="rounds-error""#),
        "{}",
        refused.text
    );
    let refused = post_settings(&mut browser, &sid, &[("pairing_system", "dutch")]).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains(r#"id="pairing_system-error""#),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("once round 1 is paired"),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains(r#"<option value="dutch" selected>"#),
        "{}",
        refused.text
    );
    let stored = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}"),
        None,
    )
    .await;
    assert_eq!(stored["pairing_system"], "chinese");

    // No CSRF token, no change.
    let forged = browser
        .post_form(
            &format!("/admin/s/{sid}/settings"),
            &[("name", "Forged"), ("rounds", "9")],
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    let stored = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}"),
        None,
    )
    .await;
    assert_eq!(stored["name"], "Open A");
}

#[sqlx::test]
async fn requested_byes_are_recorded_listed_and_cancelled(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let ids = add_entrants(&pool, &token, &sid, 4).await;
    api(
        &pool,
        &token,
        "PATCH",
        &format!("/api/v1/sections/{sid}"),
        Some(json!({"name": EVIL})),
    )
    .await;
    let evil = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/entrants"),
        Some(json!({"name": EVIL})),
    )
    .await;
    let page = format!("/admin/s/{sid}/byes?lang=en");
    let action = format!("/admin/s/{sid}/byes");
    let shown = browser.get(&page).await;
    assert!(shown.text.contains("No byes requested."));
    assert!(
        shows_escaped(&shown.text, EVIL),
        "names in the selects are escaped"
    );

    let done = submit(
        &mut browser,
        &page,
        &action,
        &[
            ("bye_entrant", &ids[0]),
            ("bye_round", "1"),
            ("bye_kind", "half"),
        ],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert!(location(&done).contains("done=bye"));
    let done = submit(
        &mut browser,
        &page,
        &action,
        &[
            ("bye_entrant", evil["id"].as_str().unwrap()),
            ("bye_round", "2"),
            ("bye_kind", "zero"),
        ],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let listed = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/byes"),
        None,
    )
    .await;
    assert_eq!(listed.as_array().map(Vec::len), Some(2), "{listed}");
    let shown = browser.get(&page).await;
    assert!(shown.text.contains("half-point bye") && shown.text.contains("zero-point bye"));
    assert!(shows_escaped(&shown.text, EVIL));

    // A second half-point bye: refused next to the kind, the entrant and round kept.
    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[
            ("bye_entrant", &ids[0]),
            ("bye_round", "3"),
            ("bye_kind", "half"),
        ],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains(r#"id="bye_kind-error""#), "{}", bad.text);
    assert!(bad.text.contains("only one half- or full-point bye"));
    assert!(
        bad.text
            .contains(&format!(r#"<option value="{}" selected>"#, ids[0])),
        "{}",
        bad.text
    );
    assert!(bad
        .text
        .contains(r#"id="bye_round" name="bye_round" type="number" value="3""#));
    // A round out of range, a missing entrant.
    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[
            ("bye_entrant", ""),
            ("bye_round", "x"),
            ("bye_kind", "half"),
        ],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad.text.contains(r#"id="bye_entrant-error""#)
            && bad.text.contains(r#"id="bye_round-error""#)
    );
    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[
            ("bye_entrant", &ids[1]),
            ("bye_round", "99"),
            ("bye_kind", "half"),
        ],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains(r#"id="bye_round-error""#), "{}", bad.text);

    // Cancelled before its round is paired.
    let cancel = format!(
        "/admin/s/{sid}/byes/{}/2/cancel",
        evil["id"].as_str().unwrap()
    );
    let done = submit(&mut browser, &page, &cancel, &[]).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let listed = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/byes"),
        None,
    )
    .await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1));

    // Round 1 paired: the bye is used, shown so, and can no longer be cancelled (409).
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    let shown = browser.get(&page).await;
    assert!(shown.text.contains("round paired"), "{}", shown.text);
    let refused = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/byes/{}/1/cancel", ids[0]),
        &[],
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert!(refused.text.contains("already paired"));

    // The API cancels the same way: once, then there is nothing to cancel.
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/entrants/{}/byes", ids[3]),
        Some(json!({"round": 3, "kind": "zero"})),
    )
    .await;
    let uri = format!("/api/v1/entrants/{}/byes/3", ids[3]);
    let gone = call(&pool, "DELETE", &uri, Some(&token), None).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.text);
    let again = call(&pool, "DELETE", &uri, Some(&token), None).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND, "{}", again.text);

    // No CSRF token, no bye.
    let forged = browser
        .post_form(&action, &[("bye_entrant", &ids[2]), ("bye_round", "2")])
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    let listed = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/byes"),
        None,
    )
    .await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
}

#[sqlx::test]
async fn forbidden_pairs_are_added_and_removed_on_the_section_page(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let ids = add_entrants(&pool, &token, &sid, 3).await;
    let evil = api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/entrants"),
        Some(json!({"name": EVIL})),
    )
    .await;
    let evil_id = evil["id"].as_str().unwrap();
    let page = format!("/admin/s/{sid}/byes?lang=en");
    let action = format!("/admin/s/{sid}/forbidden-pairs");

    let done = submit(
        &mut browser,
        &page,
        &action,
        &[("pair_a", &ids[0]), ("pair_b", evil_id)],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert!(location(&done).contains("done=forbidden"));
    let listed = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/forbidden-pairs"),
        None,
    )
    .await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    let shown = browser.get(&page).await;
    assert!(shown.text.contains("forbidden-pairs/remove"));
    assert!(shows_escaped(&shown.text, EVIL), "{}", shown.text);

    // The same entrant twice: refused next to the second select, both choices kept.
    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[("pair_a", &ids[1]), ("pair_b", &ids[1])],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains(r#"id="pair_b-error""#), "{}", bad.text);
    assert_eq!(
        bad.text
            .matches(&format!(r#"<option value="{}" selected>"#, ids[1]))
            .count(),
        2
    );
    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[("pair_a", &ids[1]), ("pair_b", "")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains(r#"id="pair_b-error""#));
    // An entrant of another section.
    let (_t2, other) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let stranger = add_entrants(&pool, &token, &other, 1).await;
    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[("pair_a", &ids[1]), ("pair_b", &stranger[0])],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains(r#"id="pair_b-error""#), "{}", bad.text);

    // Removed again.
    let done = submit(
        &mut browser,
        &page,
        &format!("/admin/s/{sid}/forbidden-pairs/remove"),
        &[("a", evil_id), ("b", &ids[0])],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let listed = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/forbidden-pairs"),
        None,
    )
    .await;
    assert_eq!(listed.as_array().map(Vec::len), Some(0));

    // The refusal in the visitor's language.
    let bad = submit(
        &mut browser,
        &format!("/admin/s/{sid}/byes?lang=zh-Hant"),
        &action,
        &[("pair_a", &ids[1]), ("pair_b", &ids[1])],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains("須與另一位參賽者不同"), "{}", bad.text);

    let forged = browser
        .post_form(&action, &[("pair_a", &ids[0]), ("pair_b", &ids[1])])
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    let listed = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/sections/{sid}/forbidden-pairs"),
        None,
    )
    .await;
    assert_eq!(listed.as_array().map(Vec::len), Some(0));
}

/// Boards of round `n` as (red id, black id or "").
async fn boards_of(pool: &PgPool, token: &str, sid: &str, n: i32) -> Vec<(String, String)> {
    let round = api(
        pool,
        token,
        "GET",
        &format!("/api/v1/sections/{sid}/rounds/{n}"),
        None,
    )
    .await;
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["red"]["entrant_id"].as_str().unwrap().to_string(),
                b["black"]["entrant_id"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn edit_form(boards: &[(String, String)]) -> Vec<(String, String)> {
    let mut form = vec![("rows".to_string(), (boards.len() + 1).to_string())];
    for (i, (red, black)) in boards.iter().enumerate() {
        form.push((format!("red_{}", i + 1), red.clone()));
        form.push((format!("black_{}", i + 1), black.clone()));
    }
    form
}

async fn post_edit(browser: &mut Browser, sid: &str, form: &[(String, String)]) -> Reply {
    let mut pairs: Vec<(&str, &str)> = form.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    pairs.retain(|(n, _)| *n != "csrf");
    submit(
        browser,
        &format!("/admin/s/{sid}/rounds/1/edit?lang=en"),
        &format!("/admin/s/{sid}/rounds/1/edit"),
        &pairs,
    )
    .await
}

#[sqlx::test]
async fn a_paired_round_is_re_paired_by_hand_with_apply_anyway_for_broken_rules(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/entrants"),
        Some(json!({"name": EVIL})),
    )
    .await;
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    let section = browser.get(&format!("/admin/s/{sid}/rounds?lang=en")).await;
    assert!(section
        .text
        .contains(&format!("/admin/s/{sid}/rounds/1/edit")));
    let page = browser
        .get(&format!("/admin/s/{sid}/rounds/1/edit?lang=en"))
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains(r#"id="red_1""#) && page.text.contains(r#"id="black_3""#));
    assert!(shows_escaped(&page.text, EVIL), "{}", page.text);
    let before = boards_of(&pool, &token, &sid, 1).await;
    assert_eq!(before.len(), 3, "two games and the bye: {before:?}");
    assert_eq!(before[2].1, "", "the bye is last");

    // Colours swapped on board 1, the bye moved to board 2's Black.
    let mut boards = before.clone();
    boards[0] = (before[0].1.clone(), before[0].0.clone());
    boards[1].1 = before[2].0.clone();
    boards[2].0 = before[1].1.clone();
    let done = post_edit(&mut browser, &sid, &edit_form(&boards)).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert!(location(&done).contains("done=repaired"));
    assert_eq!(boards_of(&pool, &token, &sid, 1).await, boards);

    // A Black without a Red: refused next to that row's Red.
    let mut form = edit_form(&boards);
    form.retain(|(n, _)| n != "red_2");
    let bad = post_edit(&mut browser, &sid, &form).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains(r#"id="red_2-error""#), "{}", bad.text);

    // A player against themselves: refused next to Black, even with "apply anyway".
    let mut form = edit_form(&boards);
    form.retain(|(n, _)| n != "black_1");
    form.push(("black_1".into(), boards[0].0.clone()));
    form.push(("confirm".into(), "1".into()));
    let bad = post_edit(&mut browser, &sid, &form).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains(r#"id="black_1-error""#), "{}", bad.text);
    assert_eq!(boards_of(&pool, &token, &sid, 1).await, boards);

    // A forbidden pair on a board: the broken rule is listed, the choices kept, "apply anyway".
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/forbidden-pairs"),
        Some(json!({"a": boards[0].0, "b": boards[1].0})),
    )
    .await;
    let mut broken = boards.clone();
    broken[0].1 = boards[1].0.clone();
    broken[1].0 = boards[0].1.clone();
    let bad = post_edit(&mut browser, &sid, &edit_form(&broken)).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains(r#"id="broken-rules""#), "{}", bad.text);
    assert!(
        bad.text.contains(r#"name="confirm""#),
        "apply anyway offered"
    );
    assert!(bad
        .text
        .contains(&format!(r#"<option value="{}" selected>"#, broken[0].1)));
    assert_eq!(
        boards_of(&pool, &token, &sid, 1).await,
        boards,
        "nothing applied yet"
    );
    let mut form = edit_form(&broken);
    form.push(("confirm".into(), "1".into()));
    let done = post_edit(&mut browser, &sid, &form).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert_eq!(boards_of(&pool, &token, &sid, 1).await, broken);

    // Published: no longer editable (the page says so; a post gets 409).
    api(
        &pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds/1/publish"),
        None,
    )
    .await;
    let page = browser
        .get(&format!("/admin/s/{sid}/rounds/1/edit?lang=en"))
        .await;
    assert!(
        page.text.contains("can no longer be edited"),
        "{}",
        page.text
    );
    let csrf = csrf_of(&page.text);
    let mut form = edit_form(&boards);
    form.push(("csrf".into(), csrf));
    let pairs: Vec<(&str, &str)> = form.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let refused = browser
        .post_form(&format!("/admin/s/{sid}/rounds/1/edit"), &pairs)
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);

    let forged = browser
        .post_form(&format!("/admin/s/{sid}/rounds/1/edit"), &[("rows", "1")])
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
}

/// A finished one-round section with two entrants; returns its id.
async fn finished_section(
    pool: &PgPool,
    token: &str,
    tid: &str,
    name: &str,
    players: [&str; 2],
) -> String {
    let s = api(
        pool,
        token,
        "POST",
        &format!("/api/v1/tournaments/{tid}/sections"),
        Some(json!({"name": name, "rounds": 1})),
    )
    .await;
    let sid = s["id"].as_str().unwrap().to_string();
    for (i, p) in players.iter().enumerate() {
        api(
            pool,
            token,
            "POST",
            &format!("/api/v1/sections/{sid}/entrants"),
            Some(json!({"name": p, "rating": 2000 - i as i64})),
        )
        .await;
    }
    let round = api(
        pool,
        token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await;
    crate::support::publish(pool, token, &sid, 1).await;
    let board = round["boards"][0]["id"].as_str().unwrap().to_string();
    api(
        pool,
        token,
        "PUT",
        &format!("/api/v1/boards/{board}/result"),
        Some(json!({"result": "red_wins"})),
    )
    .await;
    sid
}

#[sqlx::test]
async fn the_champions_playoff_is_created_and_played_from_the_dashboard(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let t = api(
        &pool,
        &token,
        "POST",
        "/api/v1/tournaments",
        Some(json!({"name": "Finals", "game": "xiangqi"})),
    )
    .await;
    let tid = t["id"].as_str().unwrap().to_string();
    let a = finished_section(&pool, &token, &tid, "Men", [EVIL, "Bob"]).await;
    let b = finished_section(&pool, &token, &tid, "Women", ["Cat", "Di"]).await;
    let overview = browser.get(&format!("/admin/t/{tid}?lang=en")).await;
    assert!(overview.text.contains(&format!("/admin/t/{tid}/playoff")));
    let page = format!("/admin/t/{tid}/playoff?lang=en");
    let action = format!("/admin/t/{tid}/playoff");
    let shown = browser.get(&page).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text);
    assert!(shown.text.contains(&format!(r#"id="seed_{a}""#)));

    // A seed that is no number; a single section; best of 12.
    let seed_a = format!("seed_{a}");
    let seed_b = format!("seed_{b}");
    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[(&seed_a, "first"), (&seed_b, "2")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(
        bad.text.contains(&format!(r#"id="seed_{a}-error""#)),
        "{}",
        bad.text
    );
    assert!(bad.text.contains(r#"value="first""#));
    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[(&seed_a, "1"), ("best_of", "1")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains(r#"id="sections-error""#), "{}", bad.text);
    let bad = submit(
        &mut browser,
        &page,
        &action,
        &[(&seed_a, "1"), (&seed_b, "2"), ("best_of", "12")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains(r#"id="best_of-error""#), "{}", bad.text);
    assert!(bad.text.contains(r#"value="12""#));

    // Created: Women seeded first.
    let done = submit(
        &mut browser,
        &page,
        &action,
        &[(&seed_a, "2"), (&seed_b, "1"), ("best_of", "1")],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let playoff = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/tournaments/{tid}/playoff"),
        None,
    )
    .await;
    assert_eq!(
        playoff["matches"].as_array().map(Vec::len),
        Some(1),
        "{playoff}"
    );
    let high = playoff["matches"][0]["high"]["name"].as_str().unwrap();
    assert!(
        ["Cat", "Di"].contains(&high),
        "the Women's champion is seed 1: {playoff}"
    );
    let shown = browser.get(&page).await;
    assert!(shows_escaped(&shown.text, EVIL), "{}", shown.text);
    let match_id = playoff["matches"][0]["id"].as_str().unwrap();
    let game = format!("/admin/t/{tid}/playoff/matches/{match_id}/games");
    assert!(shown.text.contains(&game));

    // A second playoff is refused (409), shown on the page.
    let again = browser
        .post_form(
            &action,
            &[
                ("csrf", &csrf_of(&shown.text)),
                (&seed_a, "1"),
                (&seed_b, "2"),
            ],
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert!(again.text.contains("already has a playoff"));

    // The game recorded decides the final.
    let done = submit(
        &mut browser,
        &page,
        &game,
        &[
            ("result", "red_wins"),
            ("red_fouls", "0"),
            ("black_fouls", "0"),
        ],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let playoff = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/tournaments/{tid}/playoff"),
        None,
    )
    .await;
    assert!(playoff["champion"].is_string(), "{playoff}");

    // The grand final's prizes, set on their own page: a row without a first place is refused
    // next to what was typed; then the champion is shown with their section.
    let prizes_page = format!("/admin/t/{tid}/playoff/prizes?lang=zh-Hant");
    let prizes_action = format!("/admin/t/{tid}/playoff/prizes");
    assert!(browser.get(&page).await.text.contains(&prizes_action));
    let bad = submit(
        &mut browser,
        &prizes_page,
        &prizes_action,
        &[("p0_from", ""), ("p0_award", "總冠軍獎金")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains("須介於 1 與 64 之間"), "{}", bad.text);
    assert!(bad.text.contains("總冠軍獎金"));
    let saved = submit(
        &mut browser,
        &prizes_page,
        &prizes_action,
        &[
            ("p0_from", "1"),
            ("p0_award", "10000"),
            ("p0_amount", "10000"),
        ],
    )
    .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    let shown = browser.get(&prizes_page).await;
    assert!(
        shown.text.contains(r#"id="playoff-awards""#),
        "{}",
        shown.text
    );
    let champion = playoff["champion"].as_str().unwrap();
    let name = [
        &playoff["matches"][0]["high"],
        &playoff["matches"][0]["low"],
    ]
    .into_iter()
    .find(|side| side["entrant_id"] == champion)
    .and_then(|side| side["name"].as_str())
    .unwrap();
    // The champion is whoever won the one game: the Men's (a name that must come escaped) or
    // the Women's (a plain name).
    let named = if name == EVIL {
        shows_escaped(&shown.text, name)
    } else {
        shown.text.contains(name)
    };
    assert!(named, "{name} is not on the page: {}", shown.text);

    let forged = browser.post_form(&game, &[("result", "draw")]).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
}

async fn count_entrants(pool: &PgPool, token: &str, sid: &str) -> usize {
    api(
        pool,
        token,
        "GET",
        &format!("/api/v1/sections/{sid}/entrants"),
        None,
    )
    .await
    .as_array()
    .map(Vec::len)
    .unwrap_or(0)
}

#[sqlx::test]
async fn imports_take_an_uploaded_file_with_a_preview_and_explain_bad_files(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let page = format!("/admin/s/{sid}/import?lang=en");
    let action = format!("/admin/s/{sid}/import");
    let shown = browser.get(&page).await;
    assert!(shown.text.contains(r#"enctype="multipart/form-data""#));
    assert!(shown.text.contains(r#"type="file""#));
    let csrf = csrf_of(&shown.text);

    // A file with a row error: the preview lists it, nothing is written, no Import button.
    let file = "\u{feff}name,rating\nAnn,1500\nBob,high\n";
    let bad = browser
        .post_multipart(
            &action,
            &[("csrf", &csrf), ("csv", "")],
            Some(("file", "players.csv", file.as_bytes())),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains("rating"), "{}", bad.text);
    assert!(!bad.text.contains(r#"name="apply""#));

    // A good file: previewed (its text now in the box), then imported from the box.
    let file = format!("name,club\n{EVIL},Club\nBob,Club\n");
    let preview = browser
        .post_multipart(
            &action,
            &[("csrf", &csrf), ("csv", ""), ("apply", "1")],
            Some(("file", "players.csv", file.as_bytes())),
        )
        .await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text);
    assert!(preview.text.contains("2 row(s) read"), "{}", preview.text);
    assert!(preview.text.contains(r#"name="apply""#));
    assert!(shows_escaped(&preview.text, EVIL), "{}", preview.text);
    assert_eq!(
        count_entrants(&pool, &token, &sid).await,
        0,
        "a preview writes nothing"
    );
    let applied = browser
        .post_multipart(
            &action,
            &[("csrf", &csrf), ("csv", &file), ("apply", "1")],
            Some(("file", "", b"".as_slice())),
        )
        .await;
    assert_eq!(applied.status, StatusCode::SEE_OTHER, "{}", applied.text);
    assert_eq!(count_entrants(&pool, &token, &sid).await, 2);

    // Bad files: empty, binary, another encoding, too large, none at all.
    let cases: [(&[u8], &str); 4] = [
        (b"", "The file is empty."),
        (b"PK\x03\x04\x00\x00binary", "not a text file"),
        (b"name\n\xb3\xaf\xa4j\xa4\xe5\n", "not a text file"),
        (b"", "Choose a file or paste its text."),
    ];
    for (i, (content, message)) in cases.iter().enumerate() {
        let name = if i == 3 { "" } else { "bad.csv" };
        let bad = browser
            .post_multipart(
                &action,
                &[("csrf", &csrf), ("csv", "")],
                Some(("file", name, *content)),
            )
            .await;
        assert_eq!(
            bad.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{message}: {}",
            bad.text
        );
        assert!(bad.text.contains(r#"id="file-error""#), "{}", bad.text);
        assert!(bad.text.contains(message), "{message}: {}", bad.text);
    }
    let big = vec![b'a'; 1024 * 1024 + 1];
    let bad = browser
        .post_multipart(
            &action,
            &[("csrf", &csrf)],
            Some(("file", "big.csv", &big[..])),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains("too large"), "{}", bad.text);
    assert_eq!(count_entrants(&pool, &token, &sid).await, 2);

    // Beyond the server's body limit: a 413 page that says why.
    let huge = vec![b'a'; 3 * 1024 * 1024];
    let bad = browser
        .post_multipart(
            &action,
            &[("csrf", &csrf)],
            Some(("file", "huge.csv", &huge[..])),
        )
        .await;
    assert_eq!(bad.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", bad.text);
    assert!(bad.text.contains("too large"), "{}", bad.text);

    // Without the CSRF token: refused.
    let forged = browser
        .post_multipart(&action, &[("apply", "1"), ("csv", "name\nEve\n")], None)
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert_eq!(count_entrants(&pool, &token, &sid).await, 2);

    // TRF: a section's export uploaded as a file becomes a new section; a bad one is explained.
    let trf = crate::support::get(&pool, &format!("/api/v1/sections/{sid}/export.trf")).await;
    assert_eq!(trf.status, StatusCode::OK);
    let overview = format!("/admin/t/{tid}?lang=en");
    let csrf = csrf_of(&browser.get(&overview).await.text);
    let trf_action = format!("/admin/t/{tid}/import-trf");
    let done = browser
        .post_multipart(
            &trf_action,
            &[("csrf", &csrf), ("name", "Copy"), ("trf", "")],
            Some(("file", "open.trf", trf.text.as_bytes())),
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert!(location(&done).starts_with("/admin/s/"));
    let bad = browser
        .post_multipart(
            &trf_action,
            &[("csrf", &csrf), ("name", "Bad"), ("trf", "")],
            Some(("file", "open.trf", b"\xff\xfe\x00b\x00a\x00d".as_slice())),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains("not a text file"), "{}", bad.text);
    let bad = browser
        .post_multipart(
            &trf_action,
            &[("csrf", &csrf), ("name", "Bad"), ("trf", "")],
            Some((
                "file",
                "open.trf",
                b"012 not really a tournament".as_slice(),
            )),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    let forged = browser
        .post_multipart(
            &trf_action,
            &[("name", "Forged")],
            Some(("file", "open.trf", trf.text.as_bytes())),
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    let sections = api(
        &pool,
        &token,
        "GET",
        &format!("/api/v1/tournaments/{tid}/sections"),
        None,
    )
    .await;
    assert_eq!(
        sections.as_array().map(Vec::len),
        Some(2),
        "only the good file made a section"
    );
}

#[sqlx::test]
async fn presets_and_the_chain_are_named_in_the_page_language(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let page = browser
        .get(&format!("/admin/s/{sid}/settings?lang=zh-Hant"))
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    // Presets by name with their chains; the key only as the option's value.
    assert!(
        page.text
            .contains(r#"<option value="cxa2011_opp">中國象棋競賽規則 2011（對手分優先）: 對手分"#),
        "{}",
        page.text
    );
    assert!(!page.text.contains(">seed002_main<"), "{}", page.text);
    // The stored chain in words, and what each tiebreak counts; codes only as tooltips.
    assert!(
        page.text
            .contains(r#"<li title="OPP">對手分: 所有對手積分之和"#),
        "{}",
        page.text
    );
    assert!(
        page.text
            .contains(r#"<dt title="FOULS">犯規（少者在前）</dt><dd>技術犯規次數，少者在前</dd>"#),
        "{}",
        page.text
    );
    // The chain edited as rows of names, each explained, with spare rows to add one.
    assert!(
        page.text
            .contains(r#"<label for="tiebreak_1">第 1 對比分</label>"#),
        "{}",
        page.text
    );
    assert!(
        page.text.contains(r#"title="BH/C1" data-desc="所有對手積分之和（FIDE 規則；未賽輪次依競賽規程計）">布赫茲分，去掉最低 1 名對手</option>"#),
        "{}",
        page.text
    );
    assert!(!page.text.contains("<code>"), "no code as visible text");
}
