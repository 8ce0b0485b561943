//! The desk's pages of a team section (issue #41): a round's line-ups as a form (saved
//! through the API's service, refusals next to the team's field in the visitor's language,
//! nothing changed), and a round's results per board of a match (the board form, the quick
//! line `match.board result`, a stale version refused, a whole-match forfeit).

use crate::support::{csrf_of, Browser, Reply, PASSWORD};
use crate::teams_events::{team_event, TeamEvent};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// The chief arbiter's browser, reading English (the `lang` cookie: forms post without
/// `Accept-Language`).
async fn desk(pool: &PgPool) -> Browser {
    let mut browser = Browser::new(pool);
    browser.log_in("chief", PASSWORD).await;
    browser.cookies.insert("lang".into(), "en".into());
    browser
}

async fn lineup_of(event: &TeamEvent, round: i64, team: &str) -> Value {
    let all = event
        .client
        .get(&format!(
            "/api/v1/sections/{}/rounds/{round}/lineups",
            event.section
        ))
        .await;
    all.as_array()
        .unwrap()
        .iter()
        .find(|l| l["team_id"] == team)
        .unwrap()
        .clone()
}

fn players(lineup: &Value) -> Vec<String> {
    lineup["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["player_id"].as_str().unwrap().to_string())
        .collect()
}

/// The part of a page inside one team's line-up form.
fn team_form<'a>(page: &'a Reply, team: &str) -> &'a str {
    let start = page
        .text
        .find(&format!("id=\"team-{team}\""))
        .unwrap_or_else(|| panic!("no form of {team}: {}", page.text));
    let rest = &page.text[start..];
    &rest[..rest.find("</form>").unwrap()]
}

#[sqlx::test(migrations = "./migrations")]
async fn the_desk_enters_line_ups_and_sees_who_entered_them(pool: PgPool) {
    let event = team_event(
        &pool,
        4,
        4,
        json!({"rounds": 3, "pairing_system": "chinese", "team": {"boards": 3, "reserves": 1}}),
    )
    .await;
    let s = &event.section;
    let team = &event.teams[0];
    let roster = &event.rosters[team];
    let mut browser = desk(&pool).await;
    let url = format!("/admin/s/{s}/rounds/1/lineups");
    let page = browser.get(&url).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains("Team 4"), "{}", page.text);
    assert!(
        team_form(&page, team).contains("Not entered: the default will be given"),
        "{}",
        page.text
    );
    // Before any line-up the first players of the roster are ticked, the reserve is not.
    let form = team_form(&page, team);
    assert!(form.contains(&format!("name=\"play-{}\" value=\"1\" checked", roster[0])));
    assert!(!form.contains(&format!("name=\"play-{}\" value=\"1\" checked", roster[3])));
    let csrf = csrf_of(&page.text);
    // The reserve plays instead of board 3.
    let post = format!("{url}/{team}");
    let (p0, p1, p2, p3) = (
        format!("play-{}", roster[0]),
        format!("play-{}", roster[1]),
        format!("play-{}", roster[2]),
        format!("play-{}", roster[3]),
    );
    let saved = browser
        .post_form(
            &post,
            &[("csrf", &csrf), (&p0, "1"), (&p1, "1"), (&p3, "1")],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    let lineup = lineup_of(&event, 1, team).await;
    assert_eq!(lineup["entered_by"], "desk");
    assert_eq!(
        players(&lineup),
        vec![roster[0].clone(), roster[1].clone(), roster[3].clone()]
    );
    let page = browser.get(&format!("{url}?saved={team}")).await;
    let form = team_form(&page, team);
    assert!(form.contains("Entered at the desk"), "{form}");
    assert!(form.contains("Line-up saved."), "{form}");
    assert!(form.contains("Board 3"), "the reserve's board: {form}");
    // Four players for three boards: refused in the team's form, nothing changed.
    let refused = browser
        .post_form(
            &post,
            &[
                ("csrf", &csrf),
                (&p0, "1"),
                (&p1, "1"),
                (&p2, "1"),
                (&p3, "1"),
            ],
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    let form = team_form(&refused, team);
    assert!(
        form.contains("the line-up names 4 players for 3 boards"),
        "{}",
        refused.text
    );
    assert!(form.contains("aria-invalid=\"true\""), "{form}");
    // The posted ticks are kept for correction.
    assert!(form.contains(&format!("name=\"{p2}\" value=\"1\" checked")));
    assert!(
        !team_form(&refused, &event.teams[1]).contains("the line-up names"),
        "only the refused team's form"
    );
    assert_eq!(
        players(&lineup_of(&event, 1, team).await),
        vec![roster[0].clone(), roster[1].clone(), roster[3].clone()],
        "nothing changed"
    );
    // In the visitor's language.
    browser.cookies.insert("lang".into(), "zh-Hans".into());
    let refused = browser
        .post_form(
            &post,
            &[
                ("csrf", &csrf),
                (&p0, "1"),
                (&p1, "1"),
                (&p2, "1"),
                (&p3, "1"),
            ],
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        team_form(&refused, team).contains("出场名单列出 4 名队员，但只有 3 台"),
        "{}",
        refused.text
    );
    browser.cookies.insert("lang".into(), "en".into());
    // A captain's line-up is shown as the captain's; a team without one gets the default
    // at pairing, shown as such.
    let captain_team = &event.teams[1];
    let key = event.key_of(captain_team).await;
    let captain_roster = &event.rosters[captain_team];
    event
        .client
        .expect(
            StatusCode::OK,
            "PUT",
            &format!("/api/v1/keys/{key}/lineup"),
            Some(json!({"round": 1, "players": &captain_roster[..3]})),
        )
        .await;
    event.pair().await;
    let page = browser.get(&url).await;
    assert!(team_form(&page, captain_team).contains("Entered by the captain"));
    assert!(
        team_form(&page, &event.teams[2]).contains("Default line-up, given at pairing"),
        "{}",
        page.text
    );
    // The rounds tab links to the round's line-ups and the next round's.
    let tab = browser.get(&format!("/admin/s/{s}/rounds")).await;
    assert!(tab.text.contains(&format!("/admin/s/{s}/rounds/1/lineups")));
    assert!(tab.text.contains(&format!("/admin/s/{s}/rounds/2/lineups")));
    assert!(tab.text.contains(&format!("/s/{s}/match-slips/1/print")));
    // No such round.
    let none = browser.get(&format!("/admin/s/{s}/rounds/9/lineups")).await;
    assert_eq!(none.status, StatusCode::NOT_FOUND);
}

fn game(matches: &[Value], m: i64, board: i64) -> &Value {
    matches.iter().find(|x| x["number"] == m).unwrap()["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["number"] == board)
        .unwrap()
}

#[sqlx::test(migrations = "./migrations")]
async fn the_desk_enters_board_results_by_form_and_quick_line(pool: PgPool) {
    let event = team_event(
        &pool,
        4,
        3,
        json!({"rounds": 3, "pairing_system": "chinese", "team": {"boards": 3}}),
    )
    .await;
    let s = &event.section;
    event.pair().await;
    event.publish(1).await;
    let mut browser = desk(&pool).await;
    let url = format!("/admin/s/{s}/rounds/1/results");
    let page = browser.get(&url).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains("class=\"team-match\""), "{}", page.text);
    assert!(page.text.contains("Match 2") && page.text.contains("3.2 1"));
    assert!(page.text.contains("name=\"v1.3\""), "{}", page.text);
    let csrf = csrf_of(&page.text);
    let before = event.matches(1).await;
    let v11 = game(&before, 1, 1)["version"].as_i64().unwrap().to_string();
    // Board form: match 1, board 1, Red wins with fouls.
    let saved = browser
        .post_form(
            &url,
            &[
                ("csrf", &csrf),
                ("match", "1"),
                ("board", "1"),
                ("result", "red_wins"),
                ("red_fouls", "1"),
                ("black_fouls", "0"),
                ("version", &v11),
            ],
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert!(
        saved.text.contains("Match 1, Board 1: Red wins"),
        "{}",
        saved.text
    );
    let now = event.matches(1).await;
    assert_eq!(game(&now, 1, 1)["result"], "red_wins");
    assert_eq!(game(&now, 1, 1)["red_fouls"], 1);
    // The quick line: match 1, board 2, a draw.
    let v12 = game(&now, 1, 2)["version"].as_i64().unwrap().to_string();
    let quick = browser
        .post_form(&url, &[("csrf", &csrf), ("line", "1.2="), ("v1.2", &v12)])
        .await;
    assert_eq!(quick.status, StatusCode::OK, "{}", quick.text);
    assert_eq!(game(&event.matches(1).await, 1, 2)["result"], "draw");
    // With fouls, on the other match.
    let quick = browser
        .post_form(&url, &[("csrf", &csrf), ("line", "2.3 0 1 0")])
        .await;
    assert_eq!(quick.status, StatusCode::OK, "{}", quick.text);
    let now = event.matches(1).await;
    assert_eq!(game(&now, 2, 3)["result"], "black_wins");
    assert_eq!(game(&now, 2, 3)["red_fouls"], 1);
    // A stale version (the one seen before board 1's result): refused, nothing changed.
    let stale = browser
        .post_form(
            &url,
            &[
                ("csrf", &csrf),
                ("match", "1"),
                ("board", "1"),
                ("result", "draw"),
                ("version", &v11),
            ],
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    assert!(
        stale.text.contains("Someone changed this result meanwhile"),
        "{}",
        stale.text
    );
    assert_eq!(game(&event.matches(1).await, 1, 1)["result"], "red_wins");
    // The quick line with a stale version too.
    let stale = browser
        .post_form(&url, &[("csrf", &csrf), ("line", "1.1 0!"), ("v1.1", &v11)])
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    assert_eq!(game(&event.matches(1).await, 1, 1)["result"], "red_wins");
    // A line that would replace a stored result asks first.
    let ask = browser
        .post_form(&url, &[("csrf", &csrf), ("line", "1.1 0")])
        .await;
    assert_eq!(ask.status, StatusCode::CONFLICT, "{}", ask.text);
    assert!(ask.text.contains("value=\"1.1 0!\""), "{}", ask.text);
    // Unreadable lines and unknown boards.
    let bad = browser
        .post_form(&url, &[("csrf", &csrf), ("line", "3 1")])
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains("Type the match number"), "{}", bad.text);
    let missing = browser
        .post_form(&url, &[("csrf", &csrf), ("line", "1.7 1")])
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.text.contains("Match 1 has no board 7."));
    // A whole-match forfeit with stale versions is refused; with the current ones every
    // board of match 2 is forfeited by the team with Black on board 1, in one go.
    let now = event.matches(1).await;
    let versions: Vec<String> = (1..=3)
        .map(|b| game(&now, 2, b)["version"].as_i64().unwrap().to_string())
        .collect();
    let forfeit = format!("/admin/s/{s}/rounds/1/matches/2/forfeit");
    let stale = browser
        .post_form(
            &forfeit,
            &[
                ("csrf", &csrf),
                ("forfeits", "black"),
                ("versions", "0,0,0"),
            ],
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    assert_eq!(
        game(&event.matches(1).await, 2, 1)["result"],
        Value::Null,
        "nothing changed"
    );
    let done = browser
        .post_form(
            &forfeit,
            &[
                ("csrf", &csrf),
                ("forfeits", "black"),
                ("versions", &versions.join(",")),
            ],
        )
        .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert!(done.text.contains("forfeits every board"), "{}", done.text);
    let red_team = m2_red(&event).await;
    assert!(
        done.text.contains(&format!("(won by {red_team})")),
        "{}",
        done.text
    );
    let m2 = event
        .matches(1)
        .await
        .into_iter()
        .find(|m| m["number"] == 2)
        .unwrap();
    let black_team = m2["black"]["id"].as_str().unwrap();
    for g in m2["games"].as_array().unwrap() {
        let expected = if g["red_team_id"] == black_team {
            "red_forfeits"
        } else {
            "black_forfeits"
        };
        assert_eq!(g["result"], expected, "{g}");
    }
    // In Chinese, the page and its help.
    browser.cookies.insert("lang".into(), "zh-Hant".into());
    let zh = browser.get(&url).await;
    assert!(zh.text.contains("第 3 場第 2 台紅勝"), "{}", zh.text);
}

async fn m2_red(event: &TeamEvent) -> String {
    event
        .matches(1)
        .await
        .into_iter()
        .find(|m| m["number"] == 2)
        .unwrap()["red"]["name"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The new-section form makes a team section with its boards and reserves (issue #41), and
/// refuses a board count out of range next to its field, nothing made.
#[sqlx::test]
async fn the_new_section_form_sets_a_team_sections_boards_and_reserves(pool: PgPool) {
    let (token, mut browser) = crate::support::admin_browser(&pool).await;
    browser.cookies.insert("lang".into(), "en".into());
    let api = |method: &'static str, uri: String, body: Option<Value>, status: StatusCode| {
        let (pool, token) = (pool.clone(), token.clone());
        async move {
            crate::support::expect(
                &crate::support::call(&pool, method, &uri, Some(&token), body).await,
                status,
            )
        }
    };
    let t = api(
        "POST",
        "/api/v1/tournaments".into(),
        Some(json!({"name": "League Day", "game": "xiangqi"})),
        StatusCode::CREATED,
    )
    .await;
    let tid = t["id"].as_str().unwrap();
    let page = format!("/admin/t/{tid}");
    let action = format!("/admin/t/{tid}/sections");
    let bad = crate::support::submit(
        &mut browser,
        &page,
        &action,
        &[
            ("name", "Teams"),
            ("rounds", "5"),
            ("entry_type", "team"),
            ("team_boards", "12"),
        ],
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(
        bad.text.contains(r#"id="team_boards-error""#),
        "{}",
        bad.text
    );
    let sections = api(
        "GET",
        format!("/api/v1/tournaments/{tid}/sections"),
        None,
        StatusCode::OK,
    )
    .await;
    assert_eq!(sections.as_array().unwrap().len(), 0, "nothing made");
    let done = crate::support::submit(
        &mut browser,
        &page,
        &action,
        &[
            ("name", "Teams"),
            ("rounds", "5"),
            ("entry_type", "team"),
            ("team_boards", "3"),
            ("team_reserves", "1"),
        ],
    )
    .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.text);
    let sections = api(
        "GET",
        format!("/api/v1/tournaments/{tid}/sections"),
        None,
        StatusCode::OK,
    )
    .await;
    let section = &sections.as_array().unwrap()[0];
    assert_eq!(section["entry_type"], "team", "{section}");
    let teams = api(
        "GET",
        format!("/api/v1/sections/{}/teams", section["id"].as_str().unwrap()),
        None,
        StatusCode::OK,
    )
    .await;
    assert_eq!(teams["settings"]["boards"], 3, "{teams}");
    assert_eq!(teams["settings"]["reserves"], 1, "{teams}");
}
