//! The public pages of a team section (issue #41): a round's matches with their boards, the
//! team standings with the team chain, the board rankings and the printed match slips, all
//! through the app as an anonymous visitor (the live pages through their shared cache).

use crate::support::{send, Reply};
use crate::teams_events::team_event;
use serde_json::json;
use sqlx::PgPool;

/// `GET uri` as an anonymous visitor reading `lang`.
async fn fetch(pool: &PgPool, uri: &str, lang: &str) -> Reply {
    let request = axum::http::Request::get(uri)
        .header("accept-language", lang)
        .body(axum::body::Body::empty())
        .unwrap();
    send(pool, request).await
}

async fn get(pool: &PgPool, uri: &str) -> Reply {
    fetch(pool, uri, "en").await
}

#[sqlx::test(migrations = "./migrations")]
async fn a_team_section_shows_matches_team_standings_board_rankings_and_match_slips(pool: PgPool) {
    let event = team_event(
        &pool,
        4,
        3,
        json!({"rounds": 3, "pairing_system": "chinese",
               "team": {"boards": 3, "reserves": 0, "tiebreaks": ["GPTS", "BH:MP"]}}),
    )
    .await;
    let s = &event.section;
    event.pair().await;
    // Not published: the public sees no round.
    let hidden = get(&pool, &format!("/s/{s}/pairings/1")).await;
    assert_eq!(hidden.status, 404, "{}", hidden.text);
    event.publish(1).await;
    let matches = event.matches(1).await;
    assert_eq!(matches.len(), 2);
    let first = &matches[0];
    let board = first["id"].as_str().unwrap();
    let red_team = first["red"]["name"].as_str().unwrap().to_string();
    let black_team = first["black"]["name"].as_str().unwrap().to_string();
    let g1 = &first["games"][0];
    let board1_red = g1["red"]["name"].as_str().unwrap().to_string();
    let board2_black = first["games"][1]["black"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    // Before any result: the matches with their boards, no individual table.
    let page = get(&pool, &format!("/s/{s}/pairings/1")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("team-matches"), "{}", page.text);
    assert!(page.text.contains("Match 1"), "{}", page.text);
    assert!(page.text.contains(&red_team) && page.text.contains(&black_team));
    assert!(page.text.contains(&board1_red) && page.text.contains(&board2_black));
    assert!(page
        .text
        .contains("/s/{s}/match-slips/1/print".replace("{s}", s).as_str()));
    assert!(page.text.contains("/board-rankings"), "board rankings tab");
    // Board 1: Red wins, board 2: draw, board 3: Red wins (board 3's Red is the first team).
    for (n, result) in [(1, "red_wins"), (2, "draw"), (3, "red_wins")] {
        event.result(board, n, result).await;
    }
    for m in &matches[1..] {
        let id = m["id"].as_str().unwrap();
        for n in 1..=3 {
            event.result(id, n, "draw").await;
        }
    }
    let page = get(&pool, &format!("/s/{s}/pairings/1")).await;
    assert_eq!(page.status, 200);
    // The first team: board 1 won (Red), board 2 drawn (Black), board 3 won (Red) = 2½ : ½.
    assert!(
        page.text.contains("2.5 : 0.5") || page.text.contains("2½ : ½"),
        "{}",
        page.text
    );
    assert!(page.text.contains("2 : 0"), "match points: {}", page.text);
    assert!(page.text.contains("Red wins") && page.text.contains("Draw"));
    // In Chinese.
    let zh = fetch(&pool, &format!("/s/{s}/pairings/1"), "zh-Hans").await;
    assert!(zh.text.contains("第 1 场"), "{}", zh.text);
    // The printed pairings and the match slips: every board of each match.
    let print = get(&pool, &format!("/s/{s}/pairings/1/print")).await;
    assert_eq!(print.status, 200, "{}", print.text);
    assert!(print.text.contains("team-matches") && print.text.contains(&board1_red));
    let slips = get(&pool, &format!("/s/{s}/match-slips/1/print")).await;
    assert_eq!(slips.status, 200, "{}", slips.text);
    assert_eq!(
        slips
            .text
            .matches("class=\"slip report-slip match-slip\"")
            .count(),
        2
    );
    assert!(slips.text.contains(&board1_red) && slips.text.contains(&board2_black));
    // Team standings: match points, board points and the chain's columns.
    let standings = get(&pool, &format!("/s/{s}/standings")).await;
    assert_eq!(standings.status, 200, "{}", standings.text);
    assert!(
        standings.text.contains("team-standings"),
        "{}",
        standings.text
    );
    assert!(standings.text.contains("Match points") && standings.text.contains("Board points"));
    assert!(standings.text.contains("BH:MP") && standings.text.contains("GPTS"));
    let first_row = standings.text.split("<tbody>").nth(1).unwrap();
    let first_row = first_row.split("</tr>").next().unwrap();
    assert!(
        first_row.contains(&red_team),
        "the winner first: {first_row}"
    );
    assert!(first_row.contains("2.5"), "{first_row}");
    let zh = fetch(&pool, &format!("/s/{s}/standings"), "zh-Hant").await;
    assert!(
        zh.text.contains("場分") && zh.text.contains("局分"),
        "{}",
        zh.text
    );
    let print = get(&pool, &format!("/s/{s}/standings/print")).await;
    assert_eq!(print.status, 200, "{}", print.text);
    assert!(print.text.contains("team-standings"));
    // Board rankings: board 1's winner is on top.
    let ranks = get(&pool, &format!("/s/{s}/board-rankings")).await;
    assert_eq!(ranks.status, 200, "{}", ranks.text);
    assert!(ranks.text.contains("Board 1") && ranks.text.contains("Board 3"));
    let board1 = ranks.text.split("Board 1").nth(1).unwrap();
    let top = board1
        .split("<tbody>")
        .nth(1)
        .unwrap()
        .split("</tr>")
        .next()
        .unwrap();
    assert!(top.contains(&board1_red), "{top}");
}

#[sqlx::test(migrations = "./migrations")]
async fn the_desk_adds_a_team_with_its_roster_and_lists_it(pool: PgPool) {
    let event = team_event(&pool, 2, 3, json!({"rounds": 3, "team": {"boards": 3}})).await;
    let s = &event.section;
    let mut browser = crate::support::Browser::new(&pool);
    browser.log_in("chief", crate::support::PASSWORD).await;
    let page = browser.get(&format!("/admin/s/{s}/teams")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("T1P1") && page.text.contains("Team 2"));
    let csrf = page
        .text
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let reply = browser
        .post_form(
            &format!("/admin/s/{s}/teams"),
            &[
                ("csrf", csrf.as_str()),
                ("name", "Harbour City"),
                ("club", "Harbour"),
                ("captain", "Lee Ka"),
                ("players", "Chan Tai\r\nLee Ka\r\n\r\nWong Siu\r\n"),
            ],
        )
        .await;
    assert_eq!(reply.status, 303, "{}", reply.text);
    let teams = event
        .client
        .get(&format!("/api/v1/sections/{s}/teams"))
        .await;
    let team = teams["teams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "Harbour City")
        .unwrap()
        .clone();
    let roster: Vec<&str> = team["roster"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(roster, ["Chan Tai", "Lee Ka", "Wong Siu"]);
    assert_eq!(team["captain_position"], 2);
    let page = browser.get(&format!("/admin/s/{s}/teams")).await;
    assert!(page.text.contains("Harbour City") && page.text.contains("Wong Siu"));
    // Too few players: refused with what to fix.
    let reply = browser
        .post_form(
            &format!("/admin/s/{s}/teams"),
            &[
                ("csrf", csrf.as_str()),
                ("name", "Short"),
                ("players", "One\nTwo"),
            ],
        )
        .await;
    assert_eq!(reply.status, 422, "{}", reply.text);
}
