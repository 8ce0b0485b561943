//! The players' pages (issue #16): the player page's history, the find-me box, `/now` in each
//! state of a section, names in the visitor's collation, names linked everywhere, and nothing
//! private on the player page.

use crate::support::{
    admin_token, call, expect, get, location, tournament_with_section, Browser, Reply,
};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;
use std::collections::HashMap;

/// Adds entrants with these names (each with contact data the public must never see).
async fn add_named(pool: &PgPool, token: &str, sid: &str, names: &[&str]) {
    for (i, name) in names.iter().enumerate() {
        expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/sections/{sid}/entrants"),
                Some(token),
                Some(json!({
                    "name": name,
                    "rating": 2000 - i as i64,
                    "email": format!("secret{i}@example.org"),
                    "phone": format!("+852 5555 010{i}"),
                })),
            )
            .await,
            StatusCode::CREATED,
        );
    }
}

async fn pair(pool: &PgPool, token: &str, sid: &str) -> Value {
    expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(token),
            None,
        )
        .await,
        StatusCode::CREATED,
    )
}

async fn publish(pool: &PgPool, token: &str, sid: &str, n: i64) {
    expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds/{n}/publish"),
            Some(token),
            None,
        )
        .await,
        StatusCode::OK,
    );
}

async fn result(pool: &PgPool, token: &str, board_id: &str, result: &str) {
    expect(
        &call(
            pool,
            "PUT",
            &format!("/api/v1/boards/{board_id}/result"),
            Some(token),
            Some(json!({ "result": result })),
        )
        .await,
        StatusCode::OK,
    );
}

/// The body rows of the table with class `class` (the header row left out).
fn rows(html: &str, class: &str) -> Vec<String> {
    let start = html
        .find(&format!(r#"class="{class}""#))
        .unwrap_or_else(|| panic!("no table {class}: {html}"));
    let table = &html[start..];
    let table = &table[..table.find("</table>").unwrap()];
    let body = &table[table.find("<tbody>").unwrap()..];
    body.split("<tr>").skip(1).map(str::to_string).collect()
}

fn format_points(tenths: i64) -> String {
    let text = format!("{:.2}", tenths as f64 / 10.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What one entrant's row of a round should show.
struct Expected {
    opponent: String,
    colour: &'static str,
    /// The points of the game in the section's scoring (the notation of the running points).
    outcome: String,
    running: i64,
}

#[sqlx::test]
async fn the_player_page_shows_every_round_with_running_points_and_the_board_now(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 4})).await;
    add_named(
        &pool,
        &token,
        &sid,
        &[
            "王小明",
            "李四",
            "Alice",
            "Bob",
            "Carol",
            "Dan",
            "Eve",
            "Fay",
        ],
    )
    .await;
    let section = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let tenths = |v: &Value| (v.as_f64().unwrap() * 10.0).round() as i64;
    let (win, draw, loss) = (
        tenths(&section["scoring"]["win"]),
        tenths(&section["scoring"]["draw"]),
        tenths(&section["scoring"]["loss"]),
    );

    // Three rounds played: board 1 a win for Red, board 2 a draw.
    let mut expected: HashMap<i64, Vec<Expected>> = HashMap::new();
    let mut running: HashMap<i64, i64> = HashMap::new();
    for _ in 1..=3 {
        let round = pair(&pool, &token, &sid).await;
        publish(&pool, &token, &sid, round["number"].as_i64().unwrap()).await;
        for board in round["boards"].as_array().unwrap() {
            let red_no = board["red"]["start_no"].as_i64().unwrap();
            let black_no = board["black"]["start_no"].as_i64().unwrap();
            let red_wins = board["number"].as_i64() == Some(1);
            result(
                &pool,
                &token,
                board["id"].as_str().unwrap(),
                if red_wins { "red_wins" } else { "draw" },
            )
            .await;
            let (red_points, black_points) = if red_wins { (win, loss) } else { (draw, draw) };
            let (red_sym, black_sym) = (format_points(red_points), format_points(black_points));
            for (me, opponent, colour, points, outcome) in [
                (red_no, &board["black"], "Red", red_points, red_sym),
                (black_no, &board["red"], "Black", black_points, black_sym),
            ] {
                let total = running.entry(me).or_default();
                *total += points;
                expected.entry(me).or_default().push(Expected {
                    opponent: opponent["name"].as_str().unwrap().to_string(),
                    colour,
                    outcome,
                    running: *total,
                });
            }
        }
    }
    assert_eq!(expected.len(), 8);

    for (no, rounds) in &expected {
        let page = get(&pool, &format!("/s/{sid}/p/{no}?lang=en")).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        let lines = rows(&page.text, "list player-rounds");
        assert_eq!(lines.len(), 3, "three rounds for {no}");
        for (line, want) in lines.iter().zip(rounds) {
            assert!(line.contains(&want.opponent), "{no}: {line}");
            assert!(
                line.contains(&format!("<td>{}</td>", want.colour)),
                "{no}: {line}"
            );
            assert!(
                line.contains(&format!(r#"<td class="center">{}</td>"#, want.outcome)),
                "{no}: {line}"
            );
            assert!(
                line.contains(&format!("<strong>{}</strong>", format_points(want.running))),
                "{no}: {line}"
            );
            // The opponent is linked to their own page.
            assert!(line.contains(&format!(r#"href="/s/{sid}/p/"#)), "{line}");
        }
        // Every round is completed: no round is being played.
        assert!(page.text.contains("No round is being played."));
        // The standings line with the tiebreaks, as the standings page names them.
        assert!(page.text.contains("Standing and tiebreaks"));
        assert!(page.text.contains("<abbr"), "tiebreak keys");
        // Nothing private.
        assert!(!page.text.contains("@example.org"), "contact data leaked");
        assert!(!page.text.contains("5555"), "phone leaked");
    }

    // Round 4 published, no result yet: the page says where to sit.
    let round = pair(&pool, &token, &sid).await;
    publish(&pool, &token, &sid, 4).await;
    let board = &round["boards"][0];
    let red_no = board["red"]["start_no"].as_i64().unwrap();
    let page = get(&pool, &format!("/s/{sid}/p/{red_no}?lang=en")).await;
    let now = &page.text[page.text.find(r#"class="board-now""#).unwrap()..];
    let now = &now[..now.find("</p>").unwrap()];
    assert!(now.contains("Round 4"), "{now}");
    assert!(
        now.contains(r#"<strong class="board-no">1</strong>"#),
        "{now}"
    );
    assert!(now.contains("Red"), "{now}");
    assert!(
        now.contains(board["black"]["name"].as_str().unwrap()),
        "{now}"
    );
    assert_eq!(rows(&page.text, "list player-rounds").len(), 4);

    // Unknown numbers and malformed ones are 404 pages.
    assert_eq!(
        get(&pool, &format!("/s/{sid}/p/99")).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&pool, &format!("/s/{sid}/p/x")).await.status,
        StatusCode::NOT_FOUND
    );
}

#[sqlx::test]
async fn the_player_page_hides_a_draft_round_from_the_public(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_named(&pool, &token, &sid, &["A1", "A2", "A3", "A4"]).await;
    pair(&pool, &token, &sid).await;
    let page = get(&pool, &format!("/s/{sid}/p/1?lang=en")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains("No round published yet."));
    assert!(!page.text.contains("Round 1"), "the draft shows");

    // The arbiter sees the draft, marked.
    let mut arbiter = Browser::new(&pool);
    arbiter.log_in("chief", "a long password").await;
    let page = arbiter.get(&format!("/s/{sid}/p/1?lang=en")).await;
    assert!(page.text.contains("Round 1"), "{}", page.text);
    assert!(page.text.contains("not yet published"));
}

fn query(q: &str) -> String {
    serde_urlencoded::to_string([("q", q)]).unwrap()
}

#[sqlx::test]
async fn the_find_me_box_finds_by_number_and_by_name(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_named(
        &pool,
        &token,
        &sid,
        &["王小明", "王大明", "李四", "Alice Wong"],
    )
    .await;
    let find = |q: &str| format!("/s/{sid}/find?{}&lang=en", query(q));

    // Every section page carries the box.
    let entrants = get(&pool, &format!("/s/{sid}/entrants?lang=en")).await;
    assert!(entrants
        .text
        .contains(&format!(r#"action="/s/{sid}/find""#)));
    assert!(entrants.text.contains(r#"name="q""#));

    // A number goes straight to the page.
    let by_number = get(&pool, &find("3")).await;
    assert_eq!(
        by_number.status,
        StatusCode::SEE_OTHER,
        "{}",
        by_number.text
    );
    assert_eq!(location(&by_number), format!("/s/{sid}/p/3"));

    // A CJK substring with one match.
    let one = get(&pool, &find("小明")).await;
    assert_eq!(one.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&one), format!("/s/{sid}/p/1"));
    // Case does not matter.
    let latin = get(&pool, &find("wONG")).await;
    assert_eq!(location(&latin), format!("/s/{sid}/p/4"));

    // Several: a list of links, the box again with the query.
    let several = get(&pool, &find("王")).await;
    assert_eq!(several.status, StatusCode::OK);
    assert!(several.text.contains("Several entrants match"));
    assert!(several
        .text
        .contains(&format!(r#"<a href="/s/{sid}/p/1">王小明</a>"#)));
    assert!(several
        .text
        .contains(&format!(r#"<a href="/s/{sid}/p/2">王大明</a>"#)));
    assert!(!several.text.contains("李四</a></li>"));
    assert!(several.text.contains(r#"value="王""#));

    // None.
    let none = get(&pool, &find("張")).await;
    assert_eq!(none.status, StatusCode::OK);
    assert!(none.text.contains("No entrant matches this search."));
    assert!(none.text.contains(r#"name="q""#));
    let no_number = get(&pool, &find("42")).await;
    assert_eq!(no_number.status, StatusCode::OK);
    assert!(no_number.text.contains("No entrant matches this search."));

    // Too long: a 422 page that says so.
    let long = get(&pool, &find(&"王".repeat(101))).await;
    assert_eq!(long.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(long.text.contains("The search is too long"));
    assert!(long.text.contains(r#"name="q""#));
    let exactly = get(&pool, &find(&"王".repeat(100))).await;
    assert_eq!(exactly.status, StatusCode::OK);

    // Empty: the box asks for something.
    let empty = get(&pool, &format!("/s/{sid}/find?lang=en")).await;
    assert_eq!(empty.status, StatusCode::OK);
    assert!(empty.text.contains("Type a name or a starting number."));

    // An unknown section is a 404 page.
    let unknown = get(&pool, "/s/00000000-0000-0000-0000-000000000000/find?q=1").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

#[sqlx::test]
async fn the_find_me_box_crosses_scripts_and_pinyin_and_ranks_exact_first(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_named(
        &pool,
        &token,
        &sid,
        &["陳大文", "黃秀英", "張國榮", "Zoë Müller", "王晨", "陈"],
    )
    .await;
    let find = |q: &str| format!("/s/{sid}/find?{}&lang=en", query(q));
    // One match: straight to the player's page, whichever script or spelling was typed.
    for (q, no) in [
        ("陈大文", 1),
        ("黄", 2),
        ("黄秀英", 2),
        ("张国荣", 3),
        ("cdw", 1),
        ("chen da wen", 1),
        ("chén dà wén", 1),
        ("huang xiu ying", 2),
        ("zgr", 3),
        ("zoe", 4),
        ("MULLER", 4),
    ] {
        let page = get(&pool, &find(q)).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{q}: {}", page.text);
        assert_eq!(location(&page), format!("/s/{sid}/p/{no}"), "{q}");
    }
    // Several: the exact name first, then names starting with it, then names holding it.
    let several = get(&pool, &find("chen")).await;
    assert_eq!(several.status, StatusCode::OK);
    let at = |name: &str| {
        several
            .text
            .find(&format!("{name}</a>"))
            .unwrap_or_else(|| panic!("{name} listed"))
    };
    assert!(at("陈") < at("陳大文"));
    assert!(at("陳大文") < at("王晨"));
    assert!(!several.text.contains("黃秀英</a>"));
}

fn heading(page: &Reply) -> String {
    let text = &page.text[page.text.find(r#"<div class="bar">"#).unwrap()..];
    let text = &text[text.find("<h2>").unwrap() + 4..];
    text[..text.find("</h2>").unwrap()].to_string()
}

#[sqlx::test]
async fn now_shows_the_round_being_played_else_the_standings_else_the_entrants(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 2})).await;
    add_named(&pool, &token, &sid, &["A1", "A2", "A3", "A4"]).await;
    let now = format!("/s/{sid}/now?lang=en");

    // Before round 1: the entrants, with the Now tab current.
    let page = get(&pool, &now).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert_eq!(heading(&page), "Entrants");
    assert!(page.text.contains(&format!(
        r#"<a href="/s/{sid}/now" aria-current="page">Now</a>"#
    )));

    // Paired but not published: still the entrants for the public.
    let round = pair(&pool, &token, &sid).await;
    assert_eq!(heading(&get(&pool, &now).await), "Entrants");

    // Published: the round's pairings, the same table as the pairing page.
    publish(&pool, &token, &sid, 1).await;
    let page = get(&pool, &now).await;
    assert_eq!(heading(&page), "Round 1");
    let pairings = get(&pool, &format!("/s/{sid}/pairings/1?lang=en")).await;
    let table = |p: &Reply| {
        let t = &p.text[p.text.find(r#"<table class="list pairings">"#).unwrap()..];
        t[..t.find("</table>").unwrap()].to_string()
    };
    assert_eq!(table(&page), table(&pairings));

    // Between rounds: the standings.
    for board in round["boards"].as_array().unwrap() {
        result(&pool, &token, board["id"].as_str().unwrap(), "red_wins").await;
    }
    assert_eq!(heading(&get(&pool, &now).await), "Standings");

    // Round 2 played, then finished: the round, then the standings.
    let round = pair(&pool, &token, &sid).await;
    publish(&pool, &token, &sid, 2).await;
    assert_eq!(heading(&get(&pool, &now).await), "Round 2");
    for board in round["boards"].as_array().unwrap() {
        result(&pool, &token, board["id"].as_str().unwrap(), "draw").await;
    }
    assert_eq!(heading(&get(&pool, &now).await), "Standings");

    // The printed sheets point at /now, so one code stays right all day.
    for print in ["pairings/2/print", "pairings/2/by-name/print"] {
        let sheet = get(&pool, &format!("/s/{sid}/{print}")).await;
        assert_eq!(sheet.status, StatusCode::OK, "{print}");
        assert!(sheet.text.contains("<svg"), "{print}: no QR code");
        assert!(
            sheet
                .text
                .contains(&format!("<figcaption>/s/{sid}/now</figcaption>")),
            "{print}"
        );
    }
}

#[sqlx::test]
async fn names_sort_by_the_visitors_collation(pool: PgPool) {
    use arbiter::service::players::name_order;
    let sorted = |lang: &'static str, names: &[&str]| {
        let pool = pool.clone();
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        async move {
            let order = name_order(&pool, lang, &names).await.unwrap();
            order
                .into_iter()
                .map(|i| names[i].clone())
                .collect::<Vec<_>>()
        }
    };
    // zh-Hant by stroke count: 丁 2, 王 4, 李 7, 張 11.
    assert_eq!(
        sorted("zh-Hant", &["張", "李", "丁", "王"]).await,
        ["丁", "王", "李", "張"]
    );
    // zh-Hans by pinyin: an, bai, chen, zhang.
    assert_eq!(
        sorted("zh-Hans", &["张", "陈", "安", "白"]).await,
        ["安", "白", "陈", "张"]
    );
    // English alphabetically, case aside.
    assert_eq!(
        sorted("en", &["carol", "Bob", "alice", "Dave"]).await,
        ["alice", "Bob", "carol", "Dave"]
    );

    // The list by name follows the visitor's language, on screen and printed.
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_named(&pool, &token, &sid, &["張四", "李三", "丁一", "王二"]).await;
    pair(&pool, &token, &sid).await;
    publish(&pool, &token, &sid, 1).await;
    // The names of the first column of the list by name, top to bottom.
    let order_in = |text: &str| {
        text.split("<tr><td>")
            .skip(1)
            .map(|row| {
                let cell = &row[..row.find("</td>").unwrap()];
                let name = &cell[cell.find('>').unwrap() + 1..];
                name[..name.find('<').unwrap()].to_string()
            })
            .collect::<Vec<_>>()
    };
    let print = get(
        &pool,
        &format!("/s/{sid}/pairings/1/by-name/print?lang=zh-Hant"),
    )
    .await;
    assert_eq!(order_in(&print.text), ["丁一", "王二", "李三", "張四"]);
    let screen = get(&pool, &format!("/s/{sid}/pairings/1?lang=zh-Hant")).await;
    let details = &screen.text[screen.text.find(r#"<details class="by-name">"#).unwrap()..];
    assert_eq!(order_in(details), ["丁一", "王二", "李三", "張四"]);
}

#[sqlx::test]
async fn every_public_page_links_names_to_the_player_pages(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3})).await;
    add_named(&pool, &token, &sid, &["A1", "A2", "A3", "A4", "A5"]).await;
    let round = pair(&pool, &token, &sid).await;
    publish(&pool, &token, &sid, 1).await;
    result(
        &pool,
        &token,
        round["boards"][0]["id"].as_str().unwrap(),
        "red_wins",
    )
    .await;

    for path in [
        format!("/s/{sid}/now"),
        format!("/s/{sid}/entrants"),
        format!("/s/{sid}/pairings/1"),
        format!("/s/{sid}/pairings/1/print"),
        format!("/s/{sid}/pairings/1/by-name/print"),
        format!("/s/{sid}/standings"),
        format!("/s/{sid}/crosstable"),
        format!("/s/{sid}/p/1"),
    ] {
        let page = get(&pool, &path).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        let links = (1..=5)
            .filter(|n| page.text.contains(&format!(r#"href="/s/{sid}/p/{n}""#)))
            .count();
        let wanted = if path.ends_with("/p/1") { 1 } else { 5 };
        assert!(links >= wanted, "{path}: {links} names linked");
        assert!(!page.text.contains("@example.org"), "{path}");
    }
    // The tournament page opens a running section on /now.
    let home = get(&pool, &format!("/t/{tid}")).await;
    assert!(home.text.contains(&format!(r#"href="/s/{sid}/now""#)));
}

#[sqlx::test]
async fn a_doubles_team_is_found_by_a_players_name_and_has_one_page(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "xiangqi",
        json!({"entry_type": "doubles", "rounds": 3}),
    )
    .await;
    for (team, a, b) in [
        ("飛龍隊", "張三", "李四"),
        ("Tigers", "Ann Lee", "Ben Ho"),
        ("猛虎隊", "王五", "趙六"),
        ("Eagles", "Cat Wu", "Dan Yu"),
    ] {
        expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{sid}/entrants"),
                Some(&token),
                Some(json!({
                    "name": team,
                    "members": [
                        {"name": a, "email": "member@example.org", "phone": "+852 5555 0199"},
                        {"name": b},
                    ],
                })),
            )
            .await,
            StatusCode::CREATED,
        );
    }
    pair(&pool, &token, &sid).await;
    publish(&pool, &token, &sid, 1).await;
    // A player's name finds the team.
    let found = get(&pool, &format!("/s/{sid}/find?{}", query("趙六"))).await;
    assert_eq!(found.status, StatusCode::SEE_OTHER, "{}", found.text);
    assert_eq!(location(&found), format!("/s/{sid}/p/3"));
    // The team's page names its players, links the opposing team, and keeps contacts private.
    let page = get(&pool, &format!("/s/{sid}/p/3?lang=en")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("猛虎隊"));
    assert!(page.text.contains("王五 / 趙六"), "{}", page.text);
    assert!(page.text.contains(r#"class="board-no""#), "{}", page.text);
    assert!(!page.text.contains("@example.org"));
    assert!(!page.text.contains("5555"));
    // The pairing page links the teams.
    let pairings = get(&pool, &format!("/s/{sid}/pairings/1")).await;
    for n in 1..=4 {
        assert!(pairings.text.contains(&format!(r#"href="/s/{sid}/p/{n}""#)));
    }
}
