//! The big screen (issue #16): slides of pairings by name (paged), latest results and
//! standings that lead to each other, the round clock the arbiter starts, every language.

use crate::support::{add_entrants, admin_token, call, expect, get, tournament_with_section};
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;
use std::collections::BTreeSet;

/// The value of `attr="…"` in `html`, first occurrence.
fn attr<'a>(html: &'a str, attr: &str) -> Option<&'a str> {
    let start = html.find(&format!("{attr}=\""))? + attr.len() + 2;
    let end = html[start..].find('"')? + start;
    Some(&html[start..end])
}

/// Names in the pairing slide's name cells.
fn names(html: &str) -> Vec<String> {
    html.split("<td class=\"name\">")
        .skip(1)
        .filter_map(|cell| cell.split("</td>").next())
        .map(str::to_string)
        .collect()
}

#[sqlx::test]
async fn the_screen_pages_through_two_hundred_entrants_then_results_and_standings(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 7})).await;
    add_entrants(&pool, &token, &sid, 200).await;
    // Before any round: the standings slide alone, saying so.
    let empty = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
    assert_eq!(attr(&empty.text, "data-kind"), Some("standings"));
    let round = expect(
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
    // Paired but not published: the screen does not show the draft, and its clock cannot start.
    let draft = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert_eq!(attr(&draft.text, "data-kind"), Some("standings"));
    let early = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds/1/clock"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.text);
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds/1/publish"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let boards = round["boards"].as_array().unwrap();
    for b in boards.iter().take(3) {
        expect(
            &call(
                &pool,
                "PUT",
                &format!("/api/v1/boards/{}/result", b["id"].as_str().unwrap()),
                Some(&token),
                Some(json!({"result": "draw"})),
            )
            .await,
            StatusCode::OK,
        );
    }
    let clock = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds/1/clock"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(clock["round"], 1);

    // Follow data-next from the first slide until it comes back.
    let mut uri = format!("/s/{sid}/screen?lang=en");
    let mut kinds = Vec::new();
    let mut seen = Vec::new();
    for _ in 0..20 {
        let page = get(&pool, &uri).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        let kind = attr(&page.text, "data-kind").unwrap().to_string();
        assert!(
            page.text.contains("data-clock-start"),
            "the clock runs on every slide"
        );
        if kind == "pairings" {
            let on_slide = names(&page.text);
            // Each line: the name and its opponent.
            assert!(
                on_slide.len() <= 2 * arbiter::http::pages::public::screen::NAMES_PER_SLIDE,
                "{}",
                on_slide.len()
            );
            seen.extend(on_slide.into_iter().step_by(2));
        }
        kinds.push(kind);
        let next = attr(&page.text, "data-next").unwrap().replace("&amp;", "&");
        if next.ends_with("slide=0") {
            break;
        }
        uri = format!("{next}&lang=en");
    }
    assert_eq!(
        kinds,
        [
            "pairings",
            "pairings",
            "pairings",
            "pairings",
            "pairings",
            "results",
            "standings"
        ],
        "five pages of forty names, the results, the standings"
    );
    let distinct: BTreeSet<&String> = seen.iter().collect();
    assert_eq!(seen.len(), 200, "every entrant once");
    assert_eq!(distinct.len(), 200);
    let mut sorted = seen.clone();
    sorted.sort();
    assert_eq!(seen, sorted, "by name");

    // Past the last slide it wraps; every language has its words.
    let wrapped = get(&pool, &format!("/s/{sid}/screen?slide=7&lang=en")).await;
    assert_eq!(attr(&wrapped.text, "data-kind"), Some("pairings"));
    for (lang, words) in [
        ("zh-Hant", "對陣（依姓名）"),
        ("zh-Hans", "对阵（按姓名）"),
        ("en", "Pairings by name"),
    ] {
        let page = get(&pool, &format!("/s/{sid}/screen?lang={lang}")).await;
        assert!(page.text.contains(words), "{lang}");
    }
    let results = get(&pool, &format!("/s/{sid}/screen?slide=5&lang=zh-Hans")).await;
    assert!(results.text.contains("最新结果"), "{}", results.text);
    assert_eq!(results.text.matches("class=\"result\"").count(), 3);

    // The tournament's screen goes through its sections' slides.
    let all = get(&pool, &format!("/t/{tid}/screen")).await;
    assert_eq!(all.status, StatusCode::OK);
    assert!(all.text.contains("1 / 7"), "{}", all.text);
}

/// Plays every round of `sid` with the lower start number winning.
async fn play_out(pool: &PgPool, token: &str, sid: &str, rounds: usize) {
    for _ in 0..rounds {
        crate::support::play_round(pool, token, sid, crate::support::lower_number_wins).await;
    }
}

#[sqlx::test]
async fn at_the_end_a_swiss_section_shows_its_podium_first_in_normal_and_large_type(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 2})).await;
    add_entrants(&pool, &token, &sid, 6).await;
    play_out(&pool, &token, &sid, 1).await;
    // Mid-event: no podium.
    let mid = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert_ne!(attr(&mid.text, "data-kind"), Some("podium"));
    play_out(&pool, &token, &sid, 1).await;
    let standings = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/standings"),
            None,
            None,
        )
        .await,
        StatusCode::OK,
    );
    let first = standings["rows"][0]["name"].as_str().unwrap().to_string();
    let end = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert_eq!(end.status, StatusCode::OK, "{}", end.text);
    assert_eq!(attr(&end.text, "data-kind"), Some("podium"), "{}", end.text);
    assert!(end.text.contains("Champions"));
    let winner = format!(
        r#"<li class="place-1"><span class="place">Place 1</span> <span class="name">{first}</span></li>"#
    );
    assert!(end.text.contains(&winner), "{}", end.text);
    assert!(end.text.contains(r#"class="place-3""#));
    // Large type: the body says so and the next slide keeps it.
    let large = get(&pool, &format!("/s/{sid}/screen?lang=en&large=1")).await;
    assert!(
        large.text.contains(r#"<body class="screen large">"#),
        "{}",
        large.text
    );
    assert!(
        attr(&large.text, "data-next").is_some_and(|next| next.ends_with("&#38;large=1")),
        "{}",
        large.text
    );
    let normal = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert!(normal.text.contains(r#"<body class="screen">"#));
}

#[sqlx::test]
async fn after_a_knockout_the_podium_is_the_brackets(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 1})).await;
    add_entrants(&pool, &token, &sid, 4).await;
    play_out(&pool, &token, &sid, 1).await;
    let bracket = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            Some(json!({"size": 2, "best_of": 1, "decide_by": "points"})),
        )
        .await,
        StatusCode::CREATED,
    );
    // Before the final is decided, the Swiss podium is not shown either.
    let open = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert_ne!(
        attr(&open.text, "data-kind"),
        Some("podium"),
        "{}",
        open.text
    );
    let m = &bracket["matches"][0];
    let low_name = m["low"]["name"].as_str().unwrap().to_string();
    let high_name = m["high"]["name"].as_str().unwrap().to_string();
    // The lower seed wins the final's only game.
    let result = if m["next_red"] == m["low"]["entrant_id"] {
        "red_wins"
    } else {
        "black_wins"
    };
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/matches/{}/games", m["id"].as_str().unwrap()),
            Some(&token),
            Some(json!({"result": result})),
        )
        .await,
        StatusCode::OK,
    );
    let end = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert_eq!(attr(&end.text, "data-kind"), Some("podium"), "{}", end.text);
    assert!(end.text.contains(&format!(
        r#"<span class="place">Place 1</span> <span class="name">{low_name}</span>"#
    )));
    assert!(end.text.contains(&format!(
        r#"<span class="place">Place 2</span> <span class="name">{high_name}</span>"#
    )));
}

#[sqlx::test]
async fn a_round_given_a_length_counts_down_to_its_end_on_the_screen(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 5})).await;
    add_entrants(&pool, &token, &sid, 8).await;
    let clock_uri = format!("/api/v1/sections/{sid}/rounds/1/clock");
    for uri in [
        format!("/api/v1/sections/{sid}/rounds"),
        format!("/api/v1/sections/{sid}/rounds/1/publish"),
    ] {
        let reply = call(&pool, "POST", &uri, Some(&token), None).await;
        assert!(reply.status.is_success(), "{}", reply.text);
    }
    // A length out of range, or not a number, is refused and starts nothing.
    for body in [json!({"minutes": 0}), json!({"minutes": 1441})] {
        let refused = call(&pool, "POST", &clock_uri, Some(&token), Some(body)).await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            refused.text
        );
        assert!(refused.text.contains("minutes"), "{}", refused.text);
    }
    let refused = call(
        &pool,
        "POST",
        &clock_uri,
        Some(&token),
        Some(json!({"minutes": "ninety"})),
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    let screen = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert!(!screen.text.contains("data-clock-start"), "no clock yet");

    // Ninety minutes: the screen counts down to start + 90 min.
    let clock = expect(
        &call(
            &pool,
            "POST",
            &clock_uri,
            Some(&token),
            Some(json!({"minutes": 90})),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(clock["minutes"], 90);
    let started =
        chrono::DateTime::parse_from_rfc3339(clock["started_at"].as_str().unwrap()).unwrap();
    let ends = chrono::DateTime::parse_from_rfc3339(clock["ends_at"].as_str().unwrap()).unwrap();
    assert_eq!(ends - started, chrono::Duration::minutes(90));
    let screen = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    let shown = attr(&screen.text, "data-countdown-to").expect("a countdown");
    let shown = chrono::DateTime::parse_from_rfc3339(shown).unwrap();
    assert_eq!(shown, ends, "{}", screen.text);
    assert!(
        screen.text.contains("Time left in the round"),
        "{}",
        screen.text
    );
    assert!(
        !screen.text.contains("data-clock-start"),
        "a countdown, not a count-up"
    );
    let reading = screen.text.split("data-round-end").nth(1).unwrap();
    let reading = &reading[reading.find('>').unwrap() + 1..reading.find("</time>").unwrap()];
    assert!(
        reading.starts_with("1:29:") || reading == "1:30:00",
        "{reading}"
    );
    let zh = get(&pool, &format!("/s/{sid}/screen?lang=zh-Hant")).await;
    assert!(zh.text.contains("本輪剩餘時間"), "{}", zh.text);

    // Restarted without a length: the clock counts up again.
    expect(
        &call(&pool, "POST", &clock_uri, Some(&token), None).await,
        StatusCode::OK,
    );
    let screen = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert!(screen.text.contains("data-clock-start"), "{}", screen.text);
    assert!(!screen.text.contains("data-round-end"), "{}", screen.text);
}

#[sqlx::test]
async fn the_desk_starts_a_round_of_a_set_length_and_offers_it_again(pool: PgPool) {
    use crate::support::{csrf_of, Browser};
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 5})).await;
    add_entrants(&pool, &token, &sid, 8).await;
    for uri in [
        format!("/api/v1/sections/{sid}/rounds"),
        format!("/api/v1/sections/{sid}/rounds/1/publish"),
    ] {
        let reply = call(&pool, "POST", &uri, Some(&token), None).await;
        assert!(reply.status.is_success(), "{}", reply.text);
    }
    let mut browser = Browser::new(&pool);
    browser.log_in("chief", "a long password").await;
    let tab = browser.get(&format!("/admin/s/{sid}/rounds?lang=en")).await;
    assert!(tab.text.contains(r#"name="minutes""#), "{}", tab.text);
    let csrf = csrf_of(&tab.text);
    let clock = format!("/admin/s/{sid}/rounds/1/clock");
    // Not a number: the tab says what to fix and no clock starts.
    let refused = browser
        .post_form(&clock, &[("csrf", &csrf), ("minutes", "ninety")])
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    assert!(
        refused
            .text
            .contains("the round length is a number of minutes from 1 to 1440"),
        "{}",
        refused.text
    );
    let screen = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert!(!screen.text.contains("data-clock-start") && !screen.text.contains("data-round-end"));
    // Seventy-five minutes: the screen counts down, and the form offers 75 next time.
    let started = browser
        .post_form(&clock, &[("csrf", &csrf), ("minutes", "75")])
        .await;
    assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.text);
    let screen = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert!(screen.text.contains("data-round-end"), "{}", screen.text);
    let tab = browser.get(&format!("/admin/s/{sid}/rounds?lang=en")).await;
    assert!(tab.text.contains(r#"name="minutes" min="1" max="1440" inputmode="numeric" class="clock-minutes" value="75""#), "{}", tab.text);
    // The trail has the length.
    let audit = expect(
        &call(
            &pool,
            "GET",
            &format!(
                "/api/v1/tournaments/{}/audit",
                tab_tournament(&pool, &sid).await
            ),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert!(audit.to_string().contains(r#""minutes":75"#), "{audit}");
}

/// The tournament of section `sid`.
async fn tab_tournament(pool: &PgPool, sid: &str) -> String {
    let id: uuid::Uuid = sid.parse().unwrap();
    sqlx::query_scalar::<_, uuid::Uuid>("select tournament_id from section where section_id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
        .to_string()
}
