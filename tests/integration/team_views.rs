//! A team section's crosstable and big screen (issue #41): `/s/{id}/crosstable` of a team
//! section is the team crosstable (one row per team in standing order; per round the
//! opposing team's line, the colour on board 1 and the board points; match and board points),
//! also as JSON (`/api/v1/sections/{id}/team-crosstable`) and printed; the big screen shows the
//! round's matches board by board and the team standings. Every value is checked against an
//! independent computation from the matches as played.

use crate::support::{send, Reply};
use crate::team_exports::played_team_event;
use crate::teams_events::{expected, Match};
use serde_json::Value;
use sqlx::PgPool;

async fn fetch(pool: &PgPool, uri: &str, lang: &str) -> Reply {
    let request = axum::http::Request::get(uri)
        .header("accept-language", lang)
        .body(axum::body::Body::empty())
        .unwrap();
    send(pool, request).await
}

/// One team's round as the rules count it: opponent, colour on board 1, board points and
/// the opponent's (halves), match points; `None` opponent for the bye.
struct Cell {
    opponent: Option<String>,
    red_on_board_1: bool,
    halves: i64,
    their_halves: i64,
    match_points: i64,
    forfeited: bool,
}

fn cell_of(team: &str, m: &Match) -> Cell {
    let Some(black) = &m.black else {
        return Cell {
            opponent: None,
            red_on_board_1: false,
            halves: 6,
            their_halves: 0,
            match_points: 2,
            forfeited: false,
        };
    };
    let other = if m.red == team { black } else { &m.red };
    let (mut mine, mut theirs, mut played) = (0, 0, false);
    for g in &m.games {
        let (red, blk, over_the_board) = match g.result.as_str() {
            "red_wins" => (2, 0, true),
            "black_wins" => (0, 2, true),
            "draw" => (1, 1, true),
            "red_forfeits" => (0, 2, false),
            "black_forfeits" => (2, 0, false),
            other => panic!("{other}"),
        };
        played |= over_the_board;
        if g.red_team == team {
            mine += red;
            theirs += blk;
        } else {
            mine += blk;
            theirs += red;
        }
    }
    let board_1 = m.games.iter().find(|g| g.number == 1).unwrap();
    Cell {
        opponent: Some(other.clone()),
        red_on_board_1: board_1.red_team == team,
        halves: mine,
        their_halves: theirs,
        match_points: match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => 2,
            std::cmp::Ordering::Equal if played => 1,
            _ => 0,
        },
        forfeited: !played,
    }
}

/// Halves as the page writes them: `2½`, `½`, `3`.
fn halves_text(h: i64) -> String {
    match (h / 2, h % 2) {
        (0, 1) => "½".to_string(),
        (w, 1) => format!("{w}½"),
        (w, _) => w.to_string(),
    }
}

#[sqlx::test]
async fn a_team_section_has_a_team_crosstable_in_standing_order(pool: PgPool) {
    let (event, all) = played_team_event(&pool).await;
    let s = &event.section;
    let want = expected(&event.teams, &all, 3, &["GPTS", "BH:MP"]);
    let order: Vec<&String> = want.rows.iter().map(|r| &r.0).collect();
    let line = |team: &str| order.iter().position(|t| *t == team).unwrap() + 1;
    let table = event
        .client
        .get(&format!("/api/v1/sections/{s}/team-crosstable"))
        .await;
    assert_eq!(table["rounds"], serde_json::json!([1, 2, 3]));
    assert_eq!(table["rounds_completed"], 3);
    let rows = table["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    let page = fetch(&pool, &format!("/s/{s}/crosstable"), "en").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("team-crosstable"), "{}", page.text);
    assert!(page.text.contains("Match points") && page.text.contains("Board points"));
    let body = page.text.split("<tbody>").nth(1).unwrap();
    let html_rows: Vec<&str> = body.split("</tr>").collect();
    for (k, (row, (team, mp, gp, _, rank))) in rows.iter().zip(&want.rows).enumerate() {
        assert_eq!(row["team_id"], team.as_str(), "standing order");
        assert_eq!(row["line"], k as u64 + 1);
        assert_eq!(row["rank"].as_u64().unwrap() as u32, *rank);
        assert_eq!(row["match_points"].as_f64().unwrap(), *mp);
        assert_eq!(row["board_points"].as_f64().unwrap(), *gp);
        let html = html_rows[k];
        assert!(html.contains(row["name"].as_str().unwrap()), "{html}");
        let cells = row["cells"].as_array().unwrap();
        for round in 1..=3i64 {
            let m = all
                .iter()
                .find(|m| {
                    m.round == round
                        && (m.red == *team || m.black.as_deref() == Some(team.as_str()))
                })
                .unwrap();
            let want = cell_of(team, m);
            let got: &Value = &cells[round as usize - 1];
            assert_eq!(got["round"], round);
            let points = got["board_points"].as_f64().unwrap();
            assert_eq!(points, want.halves as f64 / 2.0, "{got}");
            assert_eq!(
                got["match_points"].as_f64().unwrap(),
                want.match_points as f64
            );
            match &want.opponent {
                None => {
                    assert_eq!(got["bye"], "pairing", "{got}");
                    assert!(html.contains(">bye<"), "{html}");
                }
                Some(other) => {
                    assert!(got["bye"].is_null());
                    assert_eq!(got["opponent_id"], other.as_str());
                    assert_eq!(got["opponent_line"].as_u64().unwrap() as usize, line(other));
                    let colour = if want.red_on_board_1 { "red" } else { "black" };
                    assert_eq!(got["colour"], colour, "{got}");
                    assert_eq!(
                        got["opponent_board_points"].as_f64().unwrap(),
                        want.their_halves as f64 / 2.0
                    );
                    assert_eq!(got["forfeited"], want.forfeited);
                    // On the page: `3R 2½` (a forfeited match marked `*`).
                    let text = format!(
                        "{}{} {}{}",
                        line(other),
                        if want.red_on_board_1 { "R" } else { "B" },
                        halves_text(want.halves),
                        if want.forfeited { "*" } else { "" }
                    );
                    assert!(html.contains(&format!(">{text}<")), "{text} in {html}");
                }
            }
        }
        assert!(
            html.contains(&format!("<strong>{}</strong>", mp)),
            "match points in {html}"
        );
    }
    // Printed, and in Chinese.
    let print = fetch(&pool, &format!("/s/{s}/crosstable/print"), "en").await;
    assert_eq!(print.status, 200, "{}", print.text);
    assert!(print.text.contains("team-crosstable"));
    let zh = fetch(&pool, &format!("/s/{s}/crosstable"), "zh-Hans").await;
    assert!(
        zh.text.contains("场分") && zh.text.contains("局分"),
        "{}",
        zh.text
    );
    assert!(zh.text.contains("第一台执子"), "{}", zh.text);
    let hant = fetch(&pool, &format!("/s/{s}/crosstable"), "zh-Hant").await;
    assert!(hant.text.contains("第一台執子"), "{}", hant.text);
    // The live path: an entity tag, and 304 when it still holds.
    let tag = page
        .headers
        .get("etag")
        .expect("a live page has an entity tag")
        .to_str()
        .unwrap()
        .to_string();
    let again = send(
        &pool,
        axum::http::Request::get(format!("/s/{s}/crosstable"))
            .header("accept-language", "en")
            .header("if-none-match", &tag)
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(again.status, 304);
}

#[sqlx::test]
async fn the_big_screen_of_a_team_section_shows_the_matches_board_by_board_and_team_standings(
    pool: PgPool,
) {
    let (event, all) = played_team_event(&pool).await;
    let s = &event.section;
    let want = expected(&event.teams, &all, 3, &["GPTS", "BH:MP"]);
    let teams = event
        .client
        .get(&format!("/api/v1/sections/{s}/teams"))
        .await;
    let name = |id: &str| -> String {
        teams["teams"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .unwrap()["name"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut kinds = Vec::new();
    for slide in 0..3 {
        let page = fetch(&pool, &format!("/s/{s}/screen?slide={slide}"), "en").await;
        assert_eq!(page.status, 200, "{}", page.text);
        let kind = page
            .text
            .split("data-kind=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .to_string();
        match kind.as_str() {
            "podium" => {
                // The event is over: the winning team is champion.
                let champion = name(&want.rows[0].0);
                assert!(page.text.contains(&champion), "{}", page.text);
            }
            "team_matches" => {
                // Round 3's matches: each with both teams, its board points and every
                // board's players and result.
                for m in all.iter().filter(|m| m.round == 3) {
                    let Some(black) = &m.black else { continue };
                    let red = cell_of(&m.red, m);
                    let score = format!(
                        "{} : {}",
                        red.halves as f64 / 2.0,
                        red.their_halves as f64 / 2.0
                    );
                    let head = page
                        .text
                        .split(&format!(
                            "<th scope=\"col\" class=\"name\">{}</th>",
                            name(&m.red)
                        ))
                        .nth(1)
                        .unwrap_or_else(|| panic!("{} in {}", name(&m.red), page.text));
                    let block = head.split("</table>").next().unwrap();
                    assert!(block.contains(&score), "{score} in {block}");
                    assert!(block.contains(&name(black)), "{block}");
                    for g in &m.games {
                        let result = match g.result.as_str() {
                            "red_wins" => "Red wins",
                            "black_wins" => "Black wins",
                            "draw" => "Draw",
                            "black_forfeits" => "Black forfeits",
                            "red_forfeits" => "Red forfeits",
                            other => panic!("{other}"),
                        };
                        let row = block
                            .split(&format!("Board {}</td>", g.number))
                            .nth(1)
                            .unwrap()
                            .split("</tr>")
                            .next()
                            .unwrap();
                        assert!(row.contains(result), "board {}: {row}", g.number);
                    }
                }
            }
            "team_standings" => {
                let body = page.text.split("<tbody>").nth(1).unwrap();
                for (row, (team, mp, gp, _, rank)) in body.split("</tr>").zip(&want.rows) {
                    assert!(row.contains(&name(team)), "{row}");
                    assert!(
                        row.contains(&format!("<td class=\"num\">{rank}</td>")),
                        "{row}"
                    );
                    assert!(
                        row.contains(&format!("<td class=\"num\">{mp}</td>")),
                        "{row}"
                    );
                    assert!(
                        row.contains(&format!("<td class=\"num\">{gp}</td>")),
                        "{row}"
                    );
                }
            }
            other => panic!("slide {slide}: {other}"),
        }
        kinds.push(kind);
    }
    assert_eq!(kinds, ["podium", "team_matches", "team_standings"]);
    // It rotates: the slide after the last is the first.
    let last = fetch(&pool, &format!("/s/{s}/screen?slide=2"), "en").await;
    assert!(last.text.contains(&format!("/s/{s}/screen?slide=0")));
    let zh = fetch(&pool, &format!("/s/{s}/screen?slide=1"), "zh-Hant").await;
    assert!(zh.text.contains("各場對賽"), "{}", zh.text);
}
