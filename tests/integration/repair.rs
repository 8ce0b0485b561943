//! The manual pairing editor (issue #15): each chosen player's points before the round, colours
//! and opponents beside the select (in the page's language); a swap of two players chosen by
//! name, shown and not saved until the arbiter saves; refusals said by board (1-based) and
//! name, never by the service's field path.

use crate::support::api;
use crate::support::{
    add_entrants, admin_browser, csrf_of, tournament_with_section, Browser, Reply,
};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// Pairs the next round; returns its view.
async fn pair(pool: &PgPool, token: &str, sid: &str) -> Value {
    api(
        pool,
        token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        None,
    )
    .await
}

async fn round(pool: &PgPool, token: &str, sid: &str, n: i32) -> Value {
    api(
        pool,
        token,
        "GET",
        &format!("/api/v1/sections/{sid}/rounds/{n}"),
        None,
    )
    .await
}

/// (Red, Black) entrant ids of each board ("" for the bye's Black).
fn seats(round: &Value) -> Vec<(String, String)> {
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

/// "5. P5": how the page names a board side.
fn label(side: &Value) -> String {
    format!(
        "{}. {}",
        side["start_no"].as_i64().unwrap(),
        side["name"].as_str().unwrap()
    )
}

fn edit_form(boards: &[(String, String)]) -> Vec<(String, String)> {
    let mut form = vec![("rows".to_string(), (boards.len() + 1).to_string())];
    for (i, (red, black)) in boards.iter().enumerate() {
        form.push((format!("red_{}", i + 1), red.clone()));
        form.push((format!("black_{}", i + 1), black.clone()));
    }
    form
}

/// Posts the editor of round `n` in `lang` (its CSRF token added).
async fn post_edit(
    browser: &mut Browser,
    sid: &str,
    n: i32,
    lang: &str,
    form: &[(String, String)],
) -> Reply {
    let page = browser
        .get(&format!("/admin/s/{sid}/rounds/{n}/edit?lang={lang}"))
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    let csrf = csrf_of(&page.text);
    let mut pairs: Vec<(&str, &str)> = vec![("csrf", csrf.as_str())];
    pairs.extend(form.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    browser
        .post_form(
            &format!("/admin/s/{sid}/rounds/{n}/edit?lang={lang}"),
            &pairs,
        )
        .await
}

/// The HTML of one select's cell: from `id="{field}"` to the end of its table cell.
fn cell<'a>(html: &'a str, field: &str) -> &'a str {
    let start = html
        .find(&format!(r#"<select id="{field}""#))
        .unwrap_or_else(|| panic!("no {field} in {html}"));
    let rest = &html[start..];
    &rest[..rest.find("</td>").unwrap_or(rest.len())]
}

/// The value chosen in a select.
fn chosen(html: &str, field: &str) -> String {
    let cell = cell(html, field);
    cell.split("<option ")
        .find(|o| o.contains(" selected>"))
        .and_then(|o| o.strip_prefix("value=\""))
        .and_then(|o| o.split('"').next())
        .unwrap_or("")
        .to_string()
}

/// Four entrants, round 1 played (board 1 won by Red, board 2 drawn), round 2 paired.
/// Returns (token, browser, section id, round 1, round 2).
async fn second_round(pool: &PgPool) -> (String, Browser, String, Value, Value) {
    let (token, browser) = admin_browser(pool).await;
    let (_tid, sid) = tournament_with_section(pool, &token, "xiangqi", json!({})).await;
    add_entrants(pool, &token, &sid, 4).await;
    let first = pair(pool, &token, &sid).await;
    api(
        pool,
        &token,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds/1/publish"),
        None,
    )
    .await;
    for (board, result) in first["boards"]
        .as_array()
        .unwrap()
        .iter()
        .zip(["red_wins", "draw"])
    {
        let id = board["id"].as_str().unwrap();
        api(
            pool,
            &token,
            "PUT",
            &format!("/api/v1/boards/{id}/result"),
            Some(json!({ "result": result })),
        )
        .await;
    }
    let first = round(pool, &token, &sid, 1).await;
    let second = pair(pool, &token, &sid).await;
    let second = round(
        pool,
        &token,
        &sid,
        second["number"].as_i64().unwrap() as i32,
    )
    .await;
    (token, browser, sid, first, second)
}

#[sqlx::test]
async fn the_pairing_editor_shows_points_colours_and_opponents_in_the_page_language(pool: PgPool) {
    let (_token, mut browser, sid, first, second) = second_round(&pool).await;
    // Round 1 as each player saw it: entrant id → (colour word, opponent's number and name).
    let mut met = std::collections::HashMap::new();
    for b in first["boards"].as_array().unwrap() {
        let (red, black) = (&b["red"], &b["black"]);
        met.insert(
            red["entrant_id"].as_str().unwrap(),
            ("紅", "Red", label(black)),
        );
        met.insert(
            black["entrant_id"].as_str().unwrap(),
            ("黑", "Black", label(red)),
        );
    }
    for lang in ["zh-Hant", "en"] {
        let page = browser
            .get(&format!("/admin/s/{sid}/rounds/2/edit?lang={lang}"))
            .await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        for (i, b) in second["boards"].as_array().unwrap().iter().enumerate() {
            for side in ["red", "black"] {
                let player = &b[side];
                let cell = cell(&page.text, &format!("{side}_{}", i + 1));
                let points = player["points"].as_f64().unwrap();
                let points = if points.fract() == 0.0 {
                    format!("{points:.0}")
                } else {
                    format!("{points}")
                };
                assert!(
                    cell.contains(&format!(r#"<strong class="points">{points}</strong>"#)),
                    "{lang}: points before the round in {cell}"
                );
                let (zh, en, opponent) = &met[player["entrant_id"].as_str().unwrap()];
                let number = opponent.split('.').next().unwrap();
                if lang == "zh-Hant" {
                    assert!(
                        cell.contains(&format!("先後手 {zh}</span>")),
                        "colours in words of the page: {cell}"
                    );
                    assert!(
                        cell.contains(&format!("已遇對手 {number}</span>")),
                        "{cell}"
                    );
                    assert!(cell.contains(&format!("第 1 輪：{opponent}")), "{cell}");
                    assert!(cell.contains(&format!("第 1 輪：{zh}方")), "{cell}");
                    let note = &cell[cell.find("seat-note").unwrap()..];
                    for english in ["Colours", "Opponents", "Points", "Round", "Red", "Black"] {
                        assert!(!note.contains(english), "no English in {note}");
                    }
                    assert!(!note.contains(" R<") && !note.contains(" B<"), "{note}");
                } else {
                    let short = &en[..1];
                    assert!(cell.contains(&format!("Colours {short}</span>")), "{cell}");
                    assert!(
                        cell.contains(&format!("Opponents {number}</span>")),
                        "{cell}"
                    );
                    assert!(cell.contains(&format!("Round 1: {opponent}")), "{cell}");
                }
            }
        }
    }
}

#[sqlx::test]
async fn two_players_chosen_by_name_swap_seats_and_the_swap_is_saved_with_the_boards(pool: PgPool) {
    let (token, mut browser, sid, _first, second) = second_round(&pool).await;
    let before = seats(&second);
    let boards = second["boards"].as_array().unwrap();
    let (a, b) = (&boards[0]["red"], &boards[1]["black"]);
    let (a_id, b_id) = (
        a["entrant_id"].as_str().unwrap(),
        b["entrant_id"].as_str().unwrap(),
    );
    let mut form = edit_form(&before);
    form.push(("version".into(), second["version"].to_string()));
    form.extend([
        ("action".to_string(), "swap".to_string()),
        ("swap_a".to_string(), a_id.to_string()),
        ("swap_b".to_string(), b_id.to_string()),
    ]);
    let shown = post_edit(&mut browser, &sid, 2, "en", &form).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text);
    assert!(
        shown.text.contains(&format!(
            "Swapped {} and {}. Not saved yet",
            label(a),
            label(b)
        )),
        "{}",
        shown.text
    );
    assert_eq!(chosen(&shown.text, "red_1"), b_id);
    assert_eq!(chosen(&shown.text, "black_2"), a_id);
    assert_eq!(chosen(&shown.text, "black_1"), before[0].1, "the rest kept");
    assert_eq!(chosen(&shown.text, "red_2"), before[1].0);
    // The note follows the player: the swapped-in Black's points now beside Red 1.
    assert!(cell(&shown.text, "red_1").contains(&format!(
        r#"<strong class="points">{}</strong>"#,
        b["points"].as_f64().unwrap()
    )));
    assert_eq!(
        seats(&round(&pool, &token, &sid, 2).await),
        before,
        "nothing saved by a swap"
    );

    // The same player twice: refused next to the swap, the boards as they were.
    let mut same = edit_form(&before);
    same.extend([
        ("action".to_string(), "swap".to_string()),
        ("swap_a".to_string(), a_id.to_string()),
        ("swap_b".to_string(), a_id.to_string()),
    ]);
    let refused = post_edit(&mut browser, &sid, 2, "en", &same).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.text.contains(r#"id="swap-error""#));
    assert!(refused.text.contains("Choose two different players."));

    // Saved as shown (rules a swap may break applied anyway), with the round's version.
    let mut swapped = before.clone();
    swapped[0].0 = b_id.to_string();
    swapped[1].1 = a_id.to_string();
    let mut save = edit_form(&swapped);
    save.push(("version".into(), second["version"].to_string()));
    save.push(("confirm".into(), "1".into()));
    let done = post_edit(&mut browser, &sid, 2, "en", &save).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    assert_eq!(seats(&round(&pool, &token, &sid, 2).await), swapped);
}

#[sqlx::test]
async fn a_player_on_two_boards_is_refused_by_board_number_and_name(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 14).await;
    let first = pair(&pool, &token, &sid).await;
    let first = round(
        &pool,
        &token,
        &sid,
        first["number"].as_i64().unwrap() as i32,
    )
    .await;
    let before = seats(&first);
    assert_eq!(before.len(), 7);
    // Board 3's Red also put on board 7 as Black: the service's boards[6].black.
    let twice = &first["boards"][2]["red"];
    let mut boards = before.clone();
    boards[6].1 = twice["entrant_id"].as_str().unwrap().to_string();
    let form = edit_form(&boards);

    let bad = post_edit(&mut browser, &sid, 1, "en", &form).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    let sentence = format!("Board 7: {} is already on board 3.", label(twice));
    let field = cell(&bad.text, "black_7");
    assert!(
        field.contains(&format!(r#"id="black_7-error">{sentence}</p>"#)),
        "{field}"
    );
    let top = &bad.text[bad.text.find(r#"id="problems""#).unwrap()..];
    assert!(
        top.contains(&format!(r##"<a href="#black_7">{sentence}</a>"##)),
        "{top}"
    );
    assert!(!bad.text.contains("boards["), "no field path: {}", bad.text);
    assert_eq!(chosen(&bad.text, "black_7"), boards[6].1, "the choice kept");

    let bad = post_edit(&mut browser, &sid, 1, "zh-Hant", &form).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let sentence = format!("第 7 台：{} 已在第 3 台。", label(twice));
    assert!(bad.text.contains(&sentence), "{}", bad.text);
    assert!(!bad.text.contains("already on"), "{}", bad.text);
    assert!(!bad.text.contains("boards["), "{}", bad.text);
    assert_eq!(seats(&round(&pool, &token, &sid, 1).await), before);

    // A player against themselves: said once, by board and name.
    let mut boards = before.clone();
    boards[1].1 = boards[1].0.clone();
    let bad = post_edit(&mut browser, &sid, 1, "en", &edit_form(&boards)).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let who = label(&first["boards"][1]["red"]);
    assert!(
        bad.text
            .contains(&format!("Board 2: {who} cannot play against themselves.")),
        "{}",
        bad.text
    );
    assert!(!bad.text.contains("another board"), "{}", bad.text);

    // Two byes: the one not last is named by its board and its Red.
    let mut boards = before.clone();
    boards[0].1.clear();
    boards[1].1.clear();
    let bad = post_edit(&mut browser, &sid, 1, "zh-Hans", &edit_form(&boards)).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let who = label(&first["boards"][0]["red"]);
    assert!(
        bad.text.contains(&format!(
            "第 1 台：{who} 没有对手，只有最后一台可以是轮空。"
        )),
        "{}",
        bad.text
    );
    assert_eq!(seats(&round(&pool, &token, &sid, 1).await), before);
}
