//! A team's registration on the public form and through the API (issue #41): the captain
//! enters the team, its club and the roster in board order; the roster is checked as the
//! desk's team add checks it, errors next to the field in the visitor's language with nothing
//! written; the registration waits for the desk, whose confirmation makes the team (roster,
//! captain, key); the section's fee is due once per team.

use crate::support::{call, csrf_of, Browser, Client};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// A tournament with a 3-board team section (1 reserve, a fee of 300 per team) and an
/// individual section: (tournament, team section, individual section, the admin).
async fn setup(pool: &PgPool) -> (String, String, String, Client) {
    let c = Client::admin(pool).await;
    let t = c
        .expect(
            StatusCode::CREATED,
            "POST",
            "/api/v1/tournaments",
            Some(json!({"name": "Team open", "game": "xiangqi"})),
        )
        .await;
    let tid = t["id"].as_str().unwrap().to_string();
    let team = c
        .expect(
            StatusCode::CREATED,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(json!({"name": "Teams", "entry_type": "team", "rounds": 3,
                        "team": {"boards": 3, "reserves": 1},
                        "fee_tiers": [{"name": "team", "amount": 300}]})),
        )
        .await;
    let solo = c
        .expect(
            StatusCode::CREATED,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(json!({"name": "Open", "rounds": 3})),
        )
        .await;
    (
        tid,
        team["id"].as_str().unwrap().to_string(),
        solo["id"].as_str().unwrap().to_string(),
        c,
    )
}

async fn players(pool: &PgPool) -> i64 {
    sqlx::query_scalar("select count(*) from player")
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn registrations(pool: &PgPool) -> i64 {
    sqlx::query_scalar("select count(*) from registration")
        .fetch_one(pool)
        .await
        .unwrap()
}

fn roster(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| json!({"name": n, "rating": 2000 - i as i64 * 10}))
        .collect()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_team_registers_through_the_api_and_the_desk_confirms_it(pool: PgPool) {
    let (tid, s, solo, c) = setup(&pool).await;
    let uri = format!("/api/v1/sections/{s}/registrations");
    let post = |body: Value| {
        let pool = pool.clone();
        let uri = uri.clone();
        async move { call(&pool, "POST", &uri, None, Some(body)).await }
    };
    let before = (players(&pool).await, registrations(&pool).await);
    // The OpenAPI document describes the team a registration carries.
    let doc = crate::support::get(&pool, "/api/v1/openapi.json")
        .await
        .json();
    let schemas = &doc["components"]["schemas"];
    assert!(
        schemas["RegistrationInput"]["properties"]
            .get("team")
            .is_some(),
        "{}",
        schemas["RegistrationInput"]
    );
    assert!(schemas["TeamRegistration"]["properties"]
        .get("roster")
        .is_some());
    assert!(schemas["ReportInput"]["properties"].get("game").is_some());

    // A team section takes a team.
    let bare = post(json!({"name": "Captain Chen"})).await;
    assert_eq!(
        bare.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        bare.text
    );
    assert_eq!(
        bare.json()["field_codes"]["team"][0],
        "team.registration_needs_team"
    );
    // An individual section does not.
    let wrong = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{solo}/registrations"),
        None,
        Some(json!({"name": "Solo", "team": {"name": "X", "roster": roster(&["A", "B", "C"])}})),
    )
    .await;
    assert_eq!(
        wrong.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        wrong.text
    );
    assert!(wrong.json()["errors"].get("team").is_some());
    // Too few players; a name twice; a captain off the roster; a player of the event.
    let few = post(json!({"name": "Captain Chen",
        "team": {"name": "Dragons", "roster": roster(&["A", "B"])}}))
    .await;
    assert_eq!(few.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        few.json()["field_codes"]["team.roster"][0],
        "team.roster_too_few"
    );
    let many = post(json!({"name": "Captain Chen",
        "team": {"name": "Dragons", "roster": roster(&["A", "B", "C", "D", "E"])}}))
    .await;
    assert_eq!(
        many.json()["field_codes"]["team.roster"][0],
        "team.roster_too_many"
    );
    let bad = post(json!({"name": "Captain Chen", "email": "not-an-address",
        "team": {"name": " ", "captain_position": 7,
                 "roster": [{"name": "Li Wei"}, {"name": "li wei "}, {"name": ""},
                            {"player_id": "00000000-0000-0000-0000-000000000001"}]}}))
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    let codes = &bad.json()["field_codes"];
    assert!(codes.get("team.name").is_some(), "{codes}");
    assert_eq!(
        codes["team.roster[1].name"][0], "team.player_twice",
        "{codes}"
    );
    assert!(codes.get("team.roster[2].name").is_some(), "{codes}");
    assert_eq!(
        codes["team.roster[3].player_id"][0],
        "team.registration_new_players"
    );
    assert_eq!(codes["team.captain_position"][0], "team.captain_position");
    assert!(codes.get("email").is_some(), "{codes}");
    // Nothing was written by any refusal.
    assert_eq!((players(&pool).await, registrations(&pool).await), before);

    // A valid team: pending for the desk, named by the team.
    let made = post(json!({"name": "Captain Chen", "email": "chen@example.org",
        "phone": "+852 5555 0000", "club": "Kowloon CC", "fee_tier": "team",
        "team": {"name": "Kowloon Dragons", "roster": roster(&["Li Wei", "Wang Fang", "Zhao Lei", "Sun Mei"])}}))
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    let made = made.json();
    assert_eq!(made["status"], "pending");
    assert_eq!(made["name"], "Kowloon Dragons");
    assert!(
        made.get("key_path").is_none(),
        "no key before the desk confirms"
    );
    assert_eq!(made["confirmation"]["fee_amount"], 300);
    // 4 roster players and the captain, who does not play.
    assert_eq!(players(&pool).await, before.0 + 5);
    let id = made["id"].as_str().unwrap();
    // The fee once per team.
    let desk = c.get(&format!("/api/v1/tournaments/{tid}/desk")).await;
    let team_desk = desk["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["section_id"] == s.as_str())
        .unwrap()
        .clone();
    assert_eq!(team_desk["totals"]["due"], 300, "{team_desk}");
    assert_eq!(team_desk["registrations"][0]["email"], "chen@example.org");
    assert_eq!(team_desk["registrations"][0]["fee_amount"], 300);

    // The desk confirms: the team with its roster in board order, its captain and its key.
    let confirmed = c
        .expect(
            StatusCode::OK,
            "POST",
            &format!("/api/v1/registrations/{id}/confirm"),
            None,
        )
        .await;
    assert_eq!(confirmed["status"], "confirmed");
    let team_id = confirmed["entrant_id"].as_str().unwrap().to_string();
    let teams = c.get(&format!("/api/v1/sections/{s}/teams")).await;
    let team = &teams["teams"][0];
    assert_eq!(team["id"], team_id.as_str());
    assert_eq!(team["name"], "Kowloon Dragons");
    assert_eq!(team["club"], "Kowloon CC");
    assert_eq!(team["captain"], "Captain Chen");
    let names: Vec<&str> = team["roster"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Li Wei", "Wang Fang", "Zhao Lei", "Sun Mei"]);
    assert_eq!(team["roster"][3]["reserve"], true);
    assert_eq!(team["rating"], 1990, "the average of the boards' ratings");
    let keys = c.get(&format!("/api/v1/sections/{s}/keys")).await;
    let key = keys
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["entrant_id"] == team_id.as_str())
        .unwrap_or_else(|| panic!("{keys}"))["key"]
        .as_str()
        .unwrap()
        .to_string();
    let opened = call(&pool, "GET", &format!("/api/v1/keys/{key}"), None, None).await;
    assert_eq!(opened.json()["entrant"]["name"], "Kowloon Dragons");
    // Still one fee for the team, now held by a confirmed registration.
    let desk = c.get(&format!("/api/v1/tournaments/{tid}/desk")).await;
    let due: i64 = desk["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["totals"]["due"].as_i64().unwrap())
        .sum();
    assert_eq!(due, 300);

    // A playing captain: the contact is on the roster's row.
    let playing = post(json!({"name": "Zhou Yu", "email": "zhou@example.org",
        "team": {"name": "Tigers", "captain_position": 2, "roster": roster(&["Ma Chao", "Zhou Yu", "Huang Zhong"])}}))
    .await;
    assert_eq!(playing.status, StatusCode::CREATED, "{}", playing.text);
    let id = playing.json()["id"].as_str().unwrap().to_string();
    c.expect(
        StatusCode::OK,
        "POST",
        &format!("/api/v1/registrations/{id}/confirm"),
        None,
    )
    .await;
    let teams = c.get(&format!("/api/v1/sections/{s}/teams")).await;
    let tigers = teams["teams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "Tigers")
        .unwrap();
    assert_eq!(tigers["captain_position"], 2);
    assert_eq!(tigers["captain"], "Zhou Yu");
    assert_eq!(tigers["roster"][1]["email"], "zhou@example.org");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_team_registers_on_the_public_form_with_errors_next_to_the_fields(pool: PgPool) {
    let (tid, s, _solo, c) = setup(&pool).await;
    let mut visitor = Browser::new(&pool);
    visitor.accept_language = Some("zh-Hant".into());
    // The individual form links to the team form and offers no team section.
    let form = visitor.get(&format!("/t/{tid}/register")).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.text.contains(&format!("/t/{tid}/register/team")));
    assert!(
        !form.text.contains(&format!("value=\"{s}\"")),
        "{}",
        form.text
    );
    let form = visitor.get(&format!("/t/{tid}/register/team")).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.text);
    assert!(form.text.contains("團體報名"), "{}", form.text);
    assert!(form.text.contains("隊名") && form.text.contains("名單（按台次排列）"));
    // Boards + reserves rows.
    assert!(form.text.contains("player_4_name") && !form.text.contains("player_5_name"));
    let csrf = csrf_of(&form.text);
    let before = (players(&pool).await, registrations(&pool).await);
    let uri = format!("/t/{tid}/register/team");

    // Invalid: no team name, a name twice, a gap in the roster, a rating that is no number.
    let refused = visitor
        .post_form(
            &uri,
            &[
                ("csrf", &csrf),
                ("section_id", &s),
                ("team_name", ""),
                ("club", "Kowloon CC"),
                ("name", "Captain Chen"),
                ("player_1_name", "Li Wei"),
                ("player_2_name", "Li Wei"),
                ("player_3_name", ""),
                ("player_4_name", "Sun Mei"),
                ("player_4_rating", "strong"),
                ("fee_tier", &format!("{s}:team")),
            ],
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("player_4_rating-error"),
        "{}",
        refused.text
    );
    assert!(refused.text.contains("value=\"Kowloon CC\""), "values kept");
    assert_eq!((players(&pool).await, registrations(&pool).await), before);
    let refused = visitor
        .post_form(
            &uri,
            &[
                ("csrf", &csrf),
                ("section_id", &s),
                ("team_name", ""),
                ("name", "Captain Chen"),
                ("player_1_name", "Li Wei"),
                ("player_2_name", "Li Wei"),
                ("player_4_name", "Sun Mei"),
                ("fee_tier", &format!("{s}:team")),
            ],
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert!(refused.text.contains("team_name-error"), "{}", refused.text);
    assert!(
        refused.text.contains("player_2_name-error"),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("player_3_name-error"),
        "{}",
        refused.text
    );
    // In the visitor's language.
    assert!(refused.text.contains("此隊員重複列出"), "{}", refused.text);
    assert_eq!((players(&pool).await, registrations(&pool).await), before);

    // Valid: the captain plays board 1; the page says the desk confirms.
    let done = visitor
        .post_form(
            &uri,
            &[
                ("csrf", &csrf),
                ("section_id", &s),
                ("team_name", "九龍龍隊"),
                ("club", "Kowloon CC"),
                ("name", "Li Wei"),
                ("email", "li@example.org"),
                ("captain_board", "1"),
                ("player_1_name", "Li Wei"),
                ("player_1_rating", "2100"),
                ("player_2_name", "Wang Fang"),
                ("player_2_gender", "f"),
                ("player_3_name", "Zhao Lei"),
                ("fee_tier", &format!("{s}:team")),
            ],
        )
        .await;
    assert_eq!(done.status, StatusCode::CREATED, "{}", done.text);
    assert!(done.text.contains("九龍龍隊"), "{}", done.text);
    assert_eq!(
        players(&pool).await,
        before.0 + 3,
        "the captain is on the roster"
    );
    let list = c.get(&format!("/api/v1/sections/{s}/registrations")).await;
    assert_eq!(list[0]["name"], "九龍龍隊");
    assert_eq!(list[0]["status"], "pending");
    assert_eq!(list[0]["fee_amount"], 300);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_team_form_answers_the_registration_limiter_in_words_with_retry_after(pool: PgPool) {
    let (tid, s, _solo, _c) = setup(&pool).await;
    let mut visitor = Browser::new(&pool);
    visitor.accept_language = Some("zh-Hant".into());
    let uri = format!("/t/{tid}/register/team");
    let form = visitor.get(&uri).await;
    let csrf = csrf_of(&form.text);
    // This visitor (the router in tests sees no peer address: `::`) is locked out of the
    // section's registrations, as after too many of them.
    sqlx::query(
        "insert into sign_in_throttle (key, hits, lockouts, locked_until)
         values ($1, 20, 1, now() + interval '10 minutes')",
    )
    .bind(format!("register:{}:{s}", std::net::Ipv6Addr::UNSPECIFIED))
    .execute(&pool)
    .await
    .unwrap();
    let before = (players(&pool).await, registrations(&pool).await);
    let refused = visitor
        .post_form(
            &uri,
            &[
                ("csrf", &csrf),
                ("section_id", &s),
                ("team_name", "九龍龍隊"),
                ("name", "Li Wei"),
                ("player_1_name", "Li Wei"),
                ("player_2_name", "Wang Fang"),
                ("player_3_name", "Zhao Lei"),
                ("fee_tier", &format!("{s}:team")),
            ],
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text
    );
    let retry: u64 = refused.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=600).contains(&retry), "Retry-After {retry}");
    assert!(
        refused.text.contains("此連線報名次數過多"),
        "{}",
        refused.text
    );
    assert!(refused.text.contains("value=\"九龍龍隊\""), "values kept");
    assert_eq!((players(&pool).await, registrations(&pool).await), before);
}
