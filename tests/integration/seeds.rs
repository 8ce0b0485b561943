//! The seed events of `../shared/seeds/`, driven only through the API with random results,
//! and checked against the core's standings computed from the section's own TRF export.

use crate::support::{admin_token, call, expect, get, play_round_with};
use arbiter_core::standings::{self, StandingsOptions, TiebreakKey};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// A small deterministic generator (splitmix64) so every run plays the same event.
pub(crate) struct Dice(pub(crate) u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Pairs and plays `rounds` rounds with random results (draws, forfeits, fouls); returns the
/// number of foul conversions seen.
pub(crate) async fn play(
    pool: &PgPool,
    token: &str,
    section: &str,
    rounds: usize,
    dice: &mut Dice,
) -> usize {
    let mut conversions = 0;
    for round in 1..=rounds {
        let mut i = 0;
        let (r, outcomes) = play_round_with(pool, token, section, |_| {
            // Board 1 of round 2 always sees a second foul, so every event has one.
            let roll = if round == 2 && i == 0 {
                99
            } else {
                dice.below(100)
            };
            i += 1;
            let (result, red_fouls, black_fouls) = match roll {
                0..=39 => ("red_wins", 0, 0),
                40..=74 => ("black_wins", 0, dice.below(2)),
                75..=91 => ("draw", dice.below(2), 0),
                92..=94 => ("red_forfeits", 0, 0),
                95..=96 => ("black_forfeits", 0, 0),
                97 => ("double_forfeit", 0, 0),
                _ => ("red_wins", 2, 1),
            };
            json!({"result": result, "red_fouls": red_fouls, "black_fouls": black_fouls})
        })
        .await;
        assert_eq!(r["number"], round);
        conversions += outcomes.iter().filter(|o| o["converted"] == true).count();
    }
    conversions
}

/// The API's standings must equal the core's over the section's TRF export: points and every
/// tiebreak TRF can carry (fouls are not in TRF), and the ranks when the chain has no FOULS.
async fn check_against_trf(pool: &PgPool, section: &str) -> Value {
    let api = expect(
        &get(pool, &format!("/api/v1/sections/{section}/standings")).await,
        StatusCode::OK,
    );
    assert_eq!(api["final"], true);
    let trf = get(pool, &format!("/api/v1/sections/{section}/export.trf")).await;
    assert_eq!(trf.status, StatusCode::OK);
    let tournament = arbiter_core::trf::parse(&trf.text).expect("our own export parses");
    let labels: Vec<String> = api["tiebreaks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    let section_json = expect(
        &get(pool, &format!("/api/v1/sections/{section}")).await,
        StatusCode::OK,
    );
    let options = StandingsOptions {
        chain: labels
            .iter()
            .map(|l| l.parse::<TiebreakKey>().unwrap())
            .collect(),
        unplayed: section_json["unplayed"].as_str().unwrap().parse().unwrap(),
        ..StandingsOptions::default()
    };
    let core = standings::rank(&tournament, &options);
    assert_eq!(core.rows.len(), api["rows"].as_array().unwrap().len());
    let has_fouls = labels.iter().any(|l| l == "FOULS");
    for row in api["rows"].as_array().unwrap() {
        let no = row["start_no"].as_u64().unwrap() as u32;
        let mine = core.rows.iter().find(|r| r.start_no == no).unwrap();
        assert_eq!(
            row["points"].as_f64().unwrap(),
            mine.points.tenths() as f64 / 10.0,
            "points of {no}"
        );
        for (k, label) in labels.iter().enumerate() {
            if label == "FOULS" || (has_fouls && label == "PREV") {
                continue;
            }
            let expected = arbiter::service::standings::value_json(&mine.values[k]);
            if label == "DE" && has_fouls {
                continue;
            }
            assert_eq!(row["tiebreaks"][label], expected, "{label} of {no}");
        }
        if !has_fouls {
            assert_eq!(
                row["rank"].as_u64().unwrap() as u32,
                mine.rank,
                "rank of {no}"
            );
        }
    }
    api
}

async fn create(pool: &PgPool, token: &str, path: &str, body: Value) -> String {
    let v = expect(
        &call(pool, "POST", path, Some(token), Some(body)).await,
        StatusCode::CREATED,
    );
    v["id"].as_str().unwrap().to_string()
}

#[sqlx::test]
async fn seed_002_beijing_community_jieqi(pool: PgPool) {
    let token = admin_token(&pool).await;
    let tid = create(&pool, &token, "/api/v1/tournaments", json!({"name": "北京社区揭棋赛", "game": "jieqi", "time_control": "10′+3″", "time_control_code": "600+3", "default_language": "zh-Hans"})).await;
    let sid = create(
        &pool,
        &token,
        &format!("/api/v1/tournaments/{tid}/sections"),
        json!({
            "name": "公开组", "rounds": 5, "preset": "seed002_main", "cap": 30, "min_entries": 20,
            "fee_tiers": [{"name": "报名费", "amount": 50}], "payment_required": true
        }),
    )
    .await;
    let mut ids = Vec::new();
    for i in 1..=31 {
        let r = expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{sid}/registrations"),
                None,
                Some(json!({"name": format!("棋手{i:02}"), "phone": "13800000000"})),
            )
            .await,
            StatusCode::CREATED,
        );
        ids.push(r["id"].as_str().unwrap().to_string());
    }
    for id in &ids {
        expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/registrations/{id}/payment"),
                Some(&token),
                Some(json!({"state": "paid", "method": "wechat"})),
            )
            .await,
            StatusCode::OK,
        );
    }
    let entrants = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/entrants")).await,
        StatusCode::OK,
    );
    assert_eq!(
        entrants.as_array().unwrap().len(),
        30,
        "the cap holds: the 31st is waitlisted"
    );
    let mut dice = Dice(2);
    let conversions = play(&pool, &token, &sid, 5, &mut dice).await;
    assert!(conversions > 0, "the random results include a 2-foul loss");
    let standings = check_against_trf(&pool, &sid).await;
    assert_eq!(
        standings["tiebreaks"],
        json!(["OPP", "PS", "WIN", "FOULS", "PREV"])
    );
    let full = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{sid}/rounds"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(
        full.status,
        StatusCode::CONFLICT,
        "all five rounds are paired"
    );
}

#[sqlx::test]
async fn seed_004_taiwan_banqi_split_into_two_dutch_sections(pool: PgPool) {
    let token = admin_token(&pool).await;
    let tid = create(
        &pool,
        &token,
        "/api/v1/tournaments",
        json!({"name": "全國暗棋錦標賽", "game": "banqi"}),
    )
    .await;
    let pool_sid = create(
        &pool,
        &token,
        &format!("/api/v1/tournaments/{tid}/sections"),
        json!({
            "name": "社會組報名", "rounds": 7, "pairing_system": "dutch", "preset": "seed004_tw"
        }),
    )
    .await;
    for i in 1..=200 {
        expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{pool_sid}/registrations"),
                None,
                Some(json!({"name": format!("選手{i:03}"), "rating": 1000 + (i * 37) % 900})),
            )
            .await,
            StatusCode::CREATED,
        );
    }
    let split = expect(
        &call(&pool, "POST", &format!("/api/v1/tournaments/{tid}/split"), Some(&token), Some(json!({
            "section_id": pool_sid, "sections": ["社會組一", "社會組二"], "seed": 2025, "apply": true
        }))).await,
        StatusCode::OK,
    );
    let mut dice = Dice(4);
    for s in split["sections"].as_array().unwrap() {
        assert_eq!(s["entrants"].as_array().unwrap().len(), 100);
        let sid = s["section_id"].as_str().unwrap();
        play(&pool, &token, sid, 7, &mut dice).await;
        let standings = check_against_trf(&pool, sid).await;
        assert_eq!(standings["tiebreaks"], json!(["OPP", "DE", "FOULS"]));
    }
}

#[sqlx::test]
async fn seed_000_toronto_jieqi_open_and_doubles(pool: PgPool) {
    let token = admin_token(&pool).await;
    let tid = create(&pool, &token, "/api/v1/tournaments", json!({"name": "Toronto Jieqi Open", "game": "jieqi", "time_control": "10+10", "default_language": "en"})).await;
    let open = create(&pool, &token, &format!("/api/v1/tournaments/{tid}/sections"), json!({
        "name": "Open", "rounds": 7, "fee_tiers": [{"name": "member", "amount": 10}, {"name": "non-member", "amount": 20}]
    })).await;
    let doubles = create(
        &pool,
        &token,
        &format!("/api/v1/tournaments/{tid}/sections"),
        json!({"name": "Doubles", "rounds": 7, "entry_type": "doubles"}),
    )
    .await;
    for i in 1..=21 {
        let tier = if i % 3 == 0 { "member" } else { "non-member" };
        expect(
            &call(
                &pool,
                "POST",
                &format!("/api/v1/sections/{open}/registrations"),
                None,
                Some(
                    json!({"name": format!("Player {i}"), "fee_tier": tier, "member": i % 3 == 0}),
                ),
            )
            .await,
            StatusCode::CREATED,
        );
    }
    // On-site entries at the desk, doubles teams including mixed pairs.
    for i in 1..=10 {
        expect(
            &call(&pool, "POST", &format!("/api/v1/sections/{doubles}/entrants"), Some(&token), Some(json!({
                "members": [{"name": format!("A{i}"), "gender": "m"}, {"name": format!("B{i}"), "gender": if i % 2 == 0 { "f" } else { "m" }}]
            }))).await,
            StatusCode::CREATED,
        );
    }
    let mut dice = Dice(0);
    play(&pool, &token, &open, 7, &mut dice).await;
    play(&pool, &token, &doubles, 7, &mut dice).await;
    check_against_trf(&pool, &open).await;
    let table = check_against_trf(&pool, &doubles).await;
    assert!(table["rows"][0]["name"].as_str().unwrap().contains(" / "));
}

#[sqlx::test]
async fn seed_001_hong_kong_jieqi_cup_cap_32_with_waitlist(pool: PgPool) {
    let token = admin_token(&pool).await;
    let tid = create(
        &pool,
        &token,
        "/api/v1/tournaments",
        json!({"name": "香港揭棋盃 2011", "game": "jieqi"}),
    )
    .await;
    let sid = create(
        &pool,
        &token,
        &format!("/api/v1/tournaments/{tid}/sections"),
        json!({"name": "公開組", "rounds": 6, "cap": 32}),
    )
    .await;
    let mut regs = Vec::new();
    for i in 1..=35 {
        let r = expect(
            &call(&pool, "POST", &format!("/api/v1/sections/{sid}/registrations"), None, Some(json!({
                "name": format!("棋手{i}"), "gender": if i % 4 == 0 { "f" } else { "m" }, "email": format!("p{i}@example.hk"),
                "address": "Kowloon", "phone": "9000 0000"
            }))).await,
            StatusCode::CREATED,
        );
        regs.push(r);
    }
    assert_eq!(
        regs.iter().filter(|r| r["status"] == "waitlisted").count(),
        3
    );
    // Two withdraw before the start: the first two on the waitlist move up.
    for r in &regs[..2] {
        expect(
            &call(
                &pool,
                "POST",
                &format!(
                    "/api/v1/registrations/{}/withdraw",
                    r["id"].as_str().unwrap()
                ),
                Some(&token),
                None,
            )
            .await,
            StatusCode::OK,
        );
    }
    let list = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/registrations")).await,
        StatusCode::OK,
    );
    let statuses: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses.iter().filter(|s| **s == "confirmed").count(), 32);
    assert_eq!(statuses[34], "waitlisted");
    assert!(
        !list.to_string().contains("Kowloon"),
        "the public list has no contact data"
    );
    let mut dice = Dice(1);
    play(&pool, &token, &sid, 6, &mut dice).await;
    check_against_trf(&pool, &sid).await;

    // The top 8 go on to a snake-seeded best-of-3 knockout with a 3rd-place match.
    let bracket = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            Some(json!({"size": 8, "best_of": 3, "third_place": true})),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_eq!(bracket["matches"].as_array().unwrap().len(), 8);
    loop {
        let bracket = expect(
            &get(&pool, &format!("/api/v1/sections/{sid}/knockout")).await,
            StatusCode::OK,
        );
        let due: Vec<Value> = bracket["matches"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| !m["next_red"].is_null())
            .cloned()
            .collect();
        if due.is_empty() {
            break;
        }
        for m in due {
            let result = ["red_wins", "black_wins", "draw"][dice.below(3) as usize];
            let id = m["id"].as_str().unwrap();
            expect(
                &call(
                    &pool,
                    "POST",
                    &format!("/api/v1/matches/{id}/games"),
                    Some(&token),
                    Some(json!({"result": result})),
                )
                .await,
                StatusCode::OK,
            );
        }
    }
    let ranking = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/ranking")).await,
        StatusCode::OK,
    );
    assert_eq!(ranking["final"], true);
    assert_eq!(ranking["rows"].as_array().unwrap().len(), 32);
    assert!(ranking["rows"].as_array().unwrap()[..8]
        .iter()
        .all(|r| r["source"] == "knockout"));
    // 1st–4th and eight merit awards.
    expect(
        &call(&pool, "PUT", &format!("/api/v1/sections/{sid}/prizes"), Some(&token), Some(json!({"prizes": [
            {"place_from": 1, "award": "冠軍", "amount": 1000}, {"place_from": 2, "award": "亞軍", "amount": 600},
            {"place_from": 3, "award": "季軍", "amount": 400}, {"place_from": 4, "award": "殿軍", "amount": 200},
            {"place_from": 5, "place_to": 12, "award": "優異獎", "amount": 50}
        ]}))).await,
        StatusCode::OK,
    );
    let awards = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/prizes/awarded")).await,
        StatusCode::OK,
    );
    assert_eq!(awards.as_array().unwrap().len(), 12);
    for (i, a) in awards.as_array().unwrap().iter().enumerate() {
        assert_eq!(
            a["entrant_id"],
            ranking["rows"][i]["entrant_id"],
            "prize {i} goes to place {}",
            i + 1
        );
    }
}
