//! The round schedule and the calendars (issue #37): planned starts entered in the event's
//! time zone, refused when out of order or out of range, shown on the public pages, the
//! player's key page and the desk; both calendars parsed by a real iCalendar parser, their
//! times in the event's zone, their UIDs stable and their SEQUENCE counted up across a change
//! of the schedule; a player's calendar carries its board, colour and opponent once public.

use crate::support::{
    call, csrf_of, expect, get, location, publish, Browser, Event, Reply, PASSWORD,
};
use axum::http::StatusCode;
use chrono::NaiveDateTime;
use icalendar::{Calendar, CalendarDateTime, Component, DatePerhapsTime};
use serde_json::{json, Value};
use sqlx::PgPool;
use std::collections::BTreeMap;

const ZONE: chrono_tz::Tz = chrono_tz::Asia::Shanghai;

/// One parsed event: UID → (start in the event's zone, SEQUENCE, SUMMARY).
type Parsed = BTreeMap<String, (NaiveDateTime, u32, String)>;

fn parse(reply: &Reply) -> Parsed {
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert!(reply.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/calendar"));
    assert!(reply.text.starts_with("BEGIN:VCALENDAR\r\n"));
    let calendar: Calendar = reply.text.parse().expect("a valid iCalendar");
    calendar
        .events()
        .map(|e| {
            let start = match e.get_start() {
                Some(DatePerhapsTime::DateTime(CalendarDateTime::Utc(t))) => t,
                other => panic!("a UTC start, not {other:?}"),
            };
            let end = match e.get_end() {
                Some(DatePerhapsTime::DateTime(CalendarDateTime::Utc(t))) => t,
                other => panic!("a UTC end, not {other:?}"),
            };
            assert!(end > start);
            (
                e.get_uid().expect("UID").to_string(),
                (
                    start.with_timezone(&ZONE).naive_local(),
                    e.get_sequence().expect("SEQUENCE"),
                    e.get_summary().expect("SUMMARY").to_string(),
                ),
            )
        })
        .collect()
}

fn local(text: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M").unwrap()
}

async fn put_schedule(pool: &PgPool, token: &str, sid: &str, rounds: Value) -> Reply {
    call(
        pool,
        "PUT",
        &format!("/api/v1/sections/{sid}/schedule"),
        Some(token),
        Some(json!({ "rounds": rounds })),
    )
    .await
}

#[sqlx::test]
async fn schedule_reaches_pages_and_calendars_with_stable_uids(pool: PgPool) {
    let made = Event::new(&pool)
        .section(json!({"rounds": 3}))
        .entrants(6)
        .await;
    let token = made.client.token.clone();
    let tid = made.tournament.0.clone();
    let sid = made.sections[0].0.clone();
    expect(
        &call(
            &pool,
            "PATCH",
            &format!("/api/v1/tournaments/{tid}"),
            Some(&token),
            Some(json!({"time_zone": "Asia/Shanghai"})),
        )
        .await,
        StatusCode::OK,
    );

    // Refusals say which round and why.
    let late = put_schedule(
        &pool,
        &token,
        &sid,
        json!([{"round": 1, "local": "2026-12-08T14:00"}, {"round": 2, "local": "2026-12-08T09:30"}]),
    )
    .await;
    let body = expect(&late, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["field_codes"]["rounds[1].round"][0], "check.schedule_order",
        "{body}"
    );
    let beyond = put_schedule(
        &pool,
        &token,
        &sid,
        json!([{"round": 4, "local": "2026-12-08T09:30"}]),
    )
    .await;
    let body = expect(&beyond, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["field_codes"]["rounds[0].round"][0], "check.schedule_round",
        "{body}"
    );
    let nonsense = put_schedule(
        &pool,
        &token,
        &sid,
        json!([{"round": 1, "local": "tomorrow"}]),
    )
    .await;
    expect(&nonsense, StatusCode::UNPROCESSABLE_ENTITY);
    let anonymous = call(
        &pool,
        "PUT",
        &format!("/api/v1/sections/{sid}/schedule"),
        None,
        Some(json!({"rounds": []})),
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    // Local times in the event's zone, or RFC 3339 with any offset.
    let saved = expect(
        &put_schedule(
            &pool,
            &token,
            &sid,
            json!([
                {"round": 1, "local": "2026-12-08T09:30"},
                {"round": 2, "starts_at": "2026-12-08T06:00:00Z"},
                {"round": 3, "local": "2026-12-09T09:00"}
            ]),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(saved["time_zone"], "Asia/Shanghai");
    assert_eq!(saved["planned"][0]["starts_at"], "2026-12-08T01:30:00Z");
    assert_eq!(saved["planned"][1]["local"], "2026-12-08T14:00");
    assert_eq!(saved["planned"][2]["sequence"], 0);
    let public = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/schedule")).await,
        StatusCode::OK,
    );
    assert_eq!(public["planned"], saved["planned"]);

    // The section's calendar: one event per planned round, at the times entered.
    let section_cal = parse(&get(&pool, &format!("/s/{sid}/calendar.ics")).await);
    assert_eq!(section_cal.len(), 3, "{section_cal:?}");
    let starts: Vec<NaiveDateTime> = section_cal.values().map(|e| e.0).collect();
    for want in ["2026-12-08T09:30", "2026-12-08T14:00", "2026-12-09T09:00"] {
        assert!(starts.contains(&local(want)), "{want} in {starts:?}");
    }
    assert!(section_cal.values().all(|e| e.1 == 0));

    // Round 1 paired and published: the player's calendar names board, colour and opponent.
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
    let board = &round["boards"][0];
    let red_id = board["red"]["entrant_id"].as_str().unwrap().to_string();
    let black_name = board["black"]["name"].as_str().unwrap().to_string();
    let keys = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/keys"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let key = keys
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["entrant_id"] == red_id.as_str())
        .unwrap()["key"]
        .as_str()
        .unwrap()
        .to_string();
    // Before publication the pairing stays private.
    let draft = parse(&get(&pool, &format!("/k/{key}/calendar.ics")).await);
    assert!(
        draft.values().all(|e| !e.2.contains(&black_name)),
        "{draft:?}"
    );
    publish(&pool, &token, &sid, 1).await;
    let reply = get(&pool, &format!("/k/{key}/calendar.ics?lang=en")).await;
    assert_eq!(reply.headers["cache-control"], "no-store, private");
    let mine = parse(&reply);
    assert_eq!(mine.len(), 3);
    let (uid1, first) = mine
        .iter()
        .find(|(_, e)| e.0 == local("2026-12-08T09:30"))
        .unwrap();
    assert!(first.2.contains(&black_name), "{first:?}");
    assert!(first.2.contains("Board 1 · Red · Opponent"), "{first:?}");
    assert!(
        section_cal.keys().all(|uid| !mine.contains_key(uid)),
        "the player's events are not the section's"
    );
    let wrong = get(&pool, "/k/0000000000000000/calendar.ics").await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND);

    // The pages show the starts in the event's time zone, with the calendar links.
    let page = get(&pool, &format!("/s/{sid}/pairings/1")).await;
    assert!(page.text.contains("2026-12-08 09:30"), "{}", page.text);
    assert!(page.text.contains(&format!("/s/{sid}/calendar.ics")));
    let player = get(&pool, &format!("/s/{sid}/p/{}", board["red"]["start_no"])).await;
    assert!(player.text.contains("2026-12-08 09:30"));
    assert!(
        player.text.contains("2026-12-08 14:00"),
        "the next round's start"
    );
    let key_page = get(&pool, &format!("/k/{key}")).await;
    assert!(key_page.text.contains("2026-12-08 09:30"));
    assert!(key_page.text.contains(&format!("/k/{key}/calendar.ics")));
    let print = get(&pool, &format!("/s/{sid}/pairings/1/print")).await;
    assert!(print.text.contains("2026-12-08 09:30"));

    // The schedule slips at the desk: round 2 moves to 15:00 (the form, in the event's zone).
    let mut browser = Browser::new(&pool);
    browser.log_in("chief", PASSWORD).await;
    let form = browser.get(&format!("/admin/s/{sid}/schedule")).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(
        form.text.contains("value=\"2026-12-08T14:00\""),
        "{}",
        form.text
    );
    let csrf = csrf_of(&form.text);
    let saved = browser
        .post_form(
            &format!("/admin/s/{sid}/schedule"),
            &[
                ("csrf", &csrf),
                ("round_1", "2026-12-08T09:30"),
                ("round_2", "2026-12-08T15:00"),
                ("round_3", "2026-12-09T09:00"),
            ],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    assert!(location(&saved).ends_with("done=schedule"));
    let refused = browser
        .post_form(
            &format!("/admin/s/{sid}/schedule"),
            &[
                ("csrf", &csrf),
                ("round_1", "2026-12-09T09:30"),
                ("round_2", "2026-12-08T15:00"),
            ],
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.text.contains("value=\"2026-12-09T09:30\""),
        "values as entered"
    );

    // Same UIDs; round 2's SEQUENCE counts up in both calendars, the others stay.
    let after = parse(&get(&pool, &format!("/s/{sid}/calendar.ics")).await);
    assert_eq!(
        after.keys().collect::<Vec<_>>(),
        section_cal.keys().collect::<Vec<_>>()
    );
    for (uid, e) in &after {
        let before = &section_cal[uid];
        if before.0 == local("2026-12-08T14:00") {
            assert_eq!((e.0, e.1), (local("2026-12-08T15:00"), 1));
        } else {
            assert_eq!((e.0, e.1), (before.0, before.1));
        }
    }
    let mine_after = parse(&get(&pool, &format!("/k/{key}/calendar.ics?lang=en")).await);
    assert_eq!(
        mine_after.keys().collect::<Vec<_>>(),
        mine.keys().collect::<Vec<_>>()
    );
    assert_eq!(mine_after[uid1], mine[uid1]);
    let moved = mine_after
        .values()
        .find(|e| e.0 == local("2026-12-08T15:00"))
        .expect("round 2 moved");
    let was = mine
        .values()
        .find(|e| e.0 == local("2026-12-08T14:00"))
        .unwrap();
    assert!(moved.1 > was.1);
}

/// The big screen counts down to the next round's planned start (one still to come; a start
/// that has passed is not counted down to), and the desk's change of it reaches the screen.
#[sqlx::test]
async fn the_big_screen_counts_down_to_the_next_planned_round(pool: PgPool) {
    let made = Event::new(&pool)
        .section(json!({"rounds": 3}))
        .entrants(6)
        .await;
    let (token, sid) = (made.client.token.clone(), made.sections[0].0.clone());
    let now = chrono::Utc::now();
    let at = |hours: i64| {
        (now + chrono::Duration::hours(hours))
            .format("%Y-%m-%dT%H:%M:00Z")
            .to_string()
    };
    let countdown = |html: &str| -> Option<(String, String)> {
        let start = html.find("class=\"screen-countdown\"")?;
        let rest = &html[start..];
        let to = rest.find("data-countdown-to=\"")? + "data-countdown-to=\"".len();
        let end = rest[to..].find('"')? + to;
        let text_end = rest.find("<time")?;
        Some((rest[..text_end].to_string(), rest[to..end].to_string()))
    };
    // Nothing planned: no countdown.
    let screen = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    assert_eq!(screen.status, StatusCode::OK);
    assert!(countdown(&screen.text).is_none(), "{}", screen.text);
    // Round 1's start has passed; round 2's is to come: the screen counts down to it.
    let rounds = json!([
        {"round": 1, "starts_at": at(-2)},
        {"round": 2, "starts_at": at(3)},
        {"round": 3, "starts_at": at(27)}
    ]);
    expect(
        &put_schedule(&pool, &token, &sid, rounds).await,
        StatusCode::OK,
    );
    let screen = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    let (text, to) = countdown(&screen.text).expect("a countdown");
    assert!(text.contains("Round 2 starts in"), "{text}");
    let to = chrono::DateTime::parse_from_rfc3339(&to).unwrap();
    assert_eq!(to.to_rfc3339_opts(chrono::SecondsFormat::Secs, true), at(3));
    // The schedule slips by an hour: the screen follows.
    let rounds = json!([
        {"round": 1, "starts_at": at(-2)},
        {"round": 2, "starts_at": at(4)},
        {"round": 3, "starts_at": at(27)}
    ]);
    expect(
        &put_schedule(&pool, &token, &sid, rounds).await,
        StatusCode::OK,
    );
    let screen = get(&pool, &format!("/s/{sid}/screen?lang=en")).await;
    let (_, to) = countdown(&screen.text).expect("a countdown");
    let to = chrono::DateTime::parse_from_rfc3339(&to).unwrap();
    assert_eq!(to.to_rfc3339_opts(chrono::SecondsFormat::Secs, true), at(4));
}
