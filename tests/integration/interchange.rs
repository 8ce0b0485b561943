//! TRF and CSV interchange, and the audit log.

use crate::support::{
    add_entrants, admin_token, call, expect, get, send, token_for, tournament_with_section,
};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;
use sqlx::PgPool;

async fn post_text(
    pool: &PgPool,
    uri: &str,
    token: &str,
    content_type: &str,
    body: &str,
) -> crate::support::Reply {
    let request = Request::post(uri)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", content_type)
        .body(Body::from(body.to_string()))
        .unwrap();
    send(pool, request).await
}

#[sqlx::test]
async fn a_section_exported_as_trf_imports_back_with_the_same_standings(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(
        &pool,
        &token,
        "jieqi",
        json!({"rounds": 3, "pairing_system": "dutch"}),
    )
    .await;
    add_entrants(&pool, &token, &sid, 7).await;
    for round in 1..=2 {
        let mut i = 0;
        crate::support::play_round_with(&pool, &token, &sid, |_| {
            let result = ["red_wins", "draw", "black_wins", "red_forfeits"][(i + round) % 4];
            i += 1;
            json!({"result": result})
        })
        .await;
    }
    let trf = get(&pool, &format!("/api/v1/sections/{sid}/export.trf")).await;
    assert_eq!(trf.status, StatusCode::OK);
    assert!(trf.content_type.starts_with("text/plain"));
    assert!(
        trf.text.contains("\n142 3\n")
            && trf.text.contains("XXR 3")
            && trf.text.contains("192 FIDE_DUTCH_2026"),
        "{}",
        trf.text
    );
    assert!(trf.text.contains("162  W 2.0"), "{}", trf.text);
    assert!(
        !trf.text.contains("example.org"),
        "no contact data in exports"
    );

    let imported = expect(
        &post_text(
            &pool,
            &format!("/api/v1/tournaments/{tid}/import.trf?name=Copy"),
            &token,
            "text/plain",
            &trf.text,
        )
        .await,
        StatusCode::CREATED,
    );
    let copy = imported["id"].as_str().unwrap();
    let original = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    let copied = expect(
        &get(&pool, &format!("/api/v1/sections/{copy}/standings")).await,
        StatusCode::OK,
    );
    let table = |v: &serde_json::Value| -> Vec<(i64, i64, f64)> {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["rank"].as_i64().unwrap(),
                    r["start_no"].as_i64().unwrap(),
                    r["points"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(table(&original), table(&copied));
    // The copy goes on: round 3 pairs.
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{copy}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );

    let broken = expect(
        &post_text(
            &pool,
            &format!("/api/v1/tournaments/{tid}/import.trf"),
            &token,
            "text/plain",
            "001 x\n",
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(
        broken["errors"]["file"][0]
            .as_str()
            .unwrap()
            .starts_with("line 1, column 5"),
        "{broken}"
    );
}

#[sqlx::test]
async fn a_csv_import_reports_every_bad_row_before_writing_anything(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let uri = format!("/api/v1/sections/{sid}/import.csv?apply=true");
    let bad = "name,rating,email,gender\n張三,1800,zhang@example.org,男\n,abc,not-an-email,m\nLi Si,2100,,f\n";
    let report = expect(
        &post_text(&pool, &uri, &token, "text/csv", bad).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert_eq!(report["rows"], 3);
    assert_eq!(report["applied"], false);
    let errors = report["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["line"], 3);
    for field in ["name", "rating", "email"] {
        assert!(
            errors[0]["errors"].get(field).is_some(),
            "{field}: {report}"
        );
    }
    assert!(expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/entrants")).await,
        StatusCode::OK
    )
    .as_array()
    .unwrap()
    .is_empty());

    let good = "name,rating,email,gender\n張三,1800,zhang@example.org,男\nLi Si,2100,,f\n";
    let preview = expect(
        &post_text(
            &pool,
            &format!("/api/v1/sections/{sid}/import.csv"),
            &token,
            "text/csv",
            good,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(preview["applied"], false);
    let done = expect(
        &post_text(&pool, &uri, &token, "text/csv", good).await,
        StatusCode::OK,
    );
    assert_eq!(done["applied"], true);
    let entrants = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/entrants")).await,
        StatusCode::OK,
    );
    assert_eq!(entrants.as_array().unwrap().len(), 2);
    assert_eq!(entrants[0]["name"], "張三");
}

#[sqlx::test]
async fn standings_export_as_csv(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) =
        tournament_with_section(&pool, &token, "xiangqi", json!({"preset": "seed004_tw"})).await;
    add_entrants(&pool, &token, &sid, 3).await;
    let csv = get(&pool, &format!("/api/v1/sections/{sid}/standings.csv")).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(
        csv.text
            .starts_with("rank,start_no,name,club,points,OPP,DE,FOULS\n"),
        "{}",
        csv.text
    );
    assert_eq!(csv.text.lines().count(), 4);
}

#[sqlx::test]
async fn the_audit_log_records_who_did_what_and_is_for_arbiters_only(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    add_entrants(&pool, &token, &sid, 2).await;
    let log = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/audit"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let actions: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, vec!["create", "create", "create", "create"]);
    assert_eq!(log[0]["entity"], "tournament");
    assert_eq!(log[0]["actor"], "chief");
    assert!(log[2]["after"]["members"][0]["email"].is_string());
    let page = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/audit?after={}", log[1]["id"]),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(page.as_array().unwrap().len(), 2);
    assert_eq!(
        call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/audit"),
            None,
            None
        )
        .await
        .status,
        StatusCode::UNAUTHORIZED
    );
    let outsider = token_for(&pool, "outsider", "user").await;
    assert_eq!(
        call(
            &pool,
            "GET",
            &format!("/api/v1/tournaments/{tid}/audit"),
            Some(&outsider),
            None
        )
        .await
        .status,
        StatusCode::FORBIDDEN
    );
}

#[path = "../../crates/arbiter-core/tests/common/trf_mutations.rs"]
mod trf_mutations;

/// Row counts of every table an import writes to: equal before and after means the database
/// is unchanged.
async fn row_counts(pool: &PgPool) -> Vec<(&'static str, i64)> {
    let mut counts = Vec::new();
    for table in [
        "section",
        "player",
        "entrant",
        "entrant_member",
        "requested_bye",
        "forbidden_pair",
        "round",
        "board",
        "game",
        "audit_event",
    ] {
        let n: i64 = sqlx::query_scalar(&format!("select count(*) from {table}"))
            .fetch_one(pool)
            .await
            .unwrap();
        counts.push((table, n));
    }
    counts
}

/// The shared fixture folder (`/work/shared/fixtures` next to the repository).
fn shared_fixtures() -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/fixtures"));
    dir.is_dir().then(|| dir.to_path_buf())
}

/// The shared fixture TRFs with at most `max_players` players, sorted.
fn small_fixture_files(max_players: usize) -> Vec<std::path::PathBuf> {
    let root = shared_fixtures().expect("the shared fixtures (CI always has them)");
    let mut files = Vec::new();
    for sub in ["dutch/cases", "tiebreaks"] {
        for entry in std::fs::read_dir(root.join(sub)).unwrap().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "trf") {
                let text = std::fs::read_to_string(&path).unwrap();
                if text.lines().filter(|l| l.starts_with("001")).count() <= max_players {
                    files.push(path);
                }
            }
        }
    }
    files.sort();
    files
}

/// Posts `text` as a TRF import and expects a 422 whose message starts with `line L, column
/// C: `, and no change in the database.
async fn expect_rejected(pool: &PgPool, token: &str, tid: &str, text: &str, at: (usize, usize)) {
    let before = row_counts(pool).await;
    let reply = post_text(
        pool,
        &format!("/api/v1/tournaments/{tid}/import.trf"),
        token,
        "text/plain",
        text,
    )
    .await;
    let body = expect(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    let message = body["errors"]["file"][0].as_str().unwrap_or_default();
    let prefix = format!("line {}, column {}: ", at.0, at.1);
    assert!(
        message.starts_with(&prefix),
        "{prefix}… expected: {body}\n{text}"
    );
    assert_eq!(
        row_counts(pool).await,
        before,
        "nothing written for {message}"
    );
}

const HEAD: &str = "012 Probe\nXXR 3\n";

fn player_line(no: u32, name: &str, block: &str) -> String {
    // Number at 5–8, name at 15–47, points at 81–84, round 1 at 92–99.
    format!("001 {no:>4}      {name:<33}{:33} 0.0       {block}\n", "")
}

#[sqlx::test]
async fn a_trf_whose_lines_contradict_each_other_is_rejected_and_nothing_is_written(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, _) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    // Line 3 is player 1, line 4 player 2; round 1's colour is column 97, its result 99.
    let file = |one: &str, two: &str| {
        format!(
            "{HEAD}{}{}",
            player_line(1, "A", one),
            player_line(2, "B", two)
        )
    };
    // Both White: A–B and B–A in one round.
    expect_rejected(&pool, &token, &tid, &file("   2 w 1", "   1 w 0"), (4, 97)).await;
    // Both Black.
    expect_rejected(&pool, &token, &tid, &file("   2 b 1", "   1 b 0"), (4, 97)).await;
    // Both claim the win.
    expect_rejected(&pool, &token, &tid, &file("   2 w 1", "   1 b 1"), (4, 99)).await;
    // A forfeit against a played game, a draw against a loss.
    expect_rejected(&pool, &token, &tid, &file("   2 w +", "   1 b 0"), (4, 99)).await;
    expect_rejected(&pool, &token, &tid, &file("   2 w =", "   1 b 0"), (4, 99)).await;
    // One line names a game the other does not.
    expect_rejected(&pool, &token, &tid, &file("   2 w 1", "0000 - Z"), (3, 92)).await;
    // A bye code with an opponent, a game result without one.
    expect_rejected(&pool, &token, &tid, &file("   2 w U", "   1 b 0"), (3, 99)).await;
    expect_rejected(&pool, &token, &tid, &file("0000 - 1", "0000 - Z"), (3, 99)).await;
    // Two pairing-allocated byes in one round.
    expect_rejected(&pool, &token, &tid, &file("0000 - U", "0000 - U"), (4, 99)).await;
    // C claims a game against A, who played B.
    let twice = format!(
        "{}{}",
        file("   2 w 1", "   1 b 0"),
        player_line(3, "C", "   1 w 1")
    );
    expect_rejected(&pool, &token, &tid, &twice, (5, 92)).await;
    // A bad private setting line.
    let setting = format!(
        "{HEAD}### arbiter pairing_system=monrad\n{}",
        player_line(1, "A", "")
    );
    expect_rejected(&pool, &token, &tid, &setting, (3, 28)).await;

    // The consistent file imports.
    expect(
        &post_text(
            &pool,
            &format!("/api/v1/tournaments/{tid}/import.trf"),
            &token,
            "text/plain",
            &file("   2 w 1", "   1 b 0"),
        )
        .await,
        StatusCode::CREATED,
    );
}

#[sqlx::test]
async fn mutations_of_the_shared_fixtures_are_rejected_where_they_break(pool: PgPool) {
    let files = small_fixture_files(12);
    if files.is_empty() {
        return;
    }
    let token = admin_token(&pool).await;
    let (tid, _) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let mut tried = 0;
    for (i, path) in files.iter().enumerate().step_by(3) {
        let text = std::fs::read_to_string(path).unwrap();
        for m in trf_mutations::mutations(&text, i as u64 + 7) {
            expect_rejected(&pool, &token, &tid, &m.text, m.at).await;
            tried += 1;
        }
        if tried >= 40 {
            break;
        }
    }
    assert!(tried >= 20, "only {tried} mutations");
}

/// Imports `text` into tournament `tid` and returns the new section's JSON.
async fn import(pool: &PgPool, token: &str, tid: &str, text: &str) -> serde_json::Value {
    expect(
        &post_text(
            pool,
            &format!("/api/v1/tournaments/{tid}/import.trf"),
            token,
            "text/plain",
            text,
        )
        .await,
        StatusCode::CREATED,
    )
}

async fn export(pool: &PgPool, token: &str, sid: &str) -> String {
    let reply = call(
        pool,
        "GET",
        &format!("/api/v1/sections/{sid}/export.trf"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.text
}

async fn tournament(pool: &PgPool, token: &str) -> String {
    let t = expect(
        &call(
            pool,
            "POST",
            "/api/v1/tournaments",
            Some(token),
            Some(json!({"name": "Open", "game": "xiangqi"})),
        )
        .await,
        StatusCode::CREATED,
    );
    t["id"].as_str().unwrap().to_string()
}

#[sqlx::test]
async fn the_small_shared_fixtures_survive_export_import_export_unchanged(pool: PgPool) {
    let files = small_fixture_files(12);
    let token = admin_token(&pool).await;
    let (first, second) = (
        tournament(&pool, &token).await,
        tournament(&pool, &token).await,
    );
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let original = expect(
            &post_text(
                &pool,
                &format!("/api/v1/tournaments/{first}/import.trf?name={name}"),
                &token,
                "text/plain",
                &text,
            )
            .await,
            StatusCode::CREATED,
        );
        let once = export(&pool, &token, original["id"].as_str().unwrap()).await;
        let copy = import(&pool, &token, &second, &once).await;
        assert_eq!(copy["name"], original["name"], "{name}");
        let twice = export(&pool, &token, copy["id"].as_str().unwrap()).await;
        assert_eq!(once, twice, "{name}");
    }
    eprintln!(
        "{} fixtures: export → import → export identical",
        files.len()
    );
}

#[sqlx::test]
async fn a_chinese_section_keeps_its_settings_through_export_and_import(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_, sid) = tournament_with_section(
        &pool,
        &token,
        "xiangqi",
        json!({
            "rounds": 4,
            "tiebreaks": ["OPP", "PS", "WIN"],
            "foul_threshold": 3,
            "forfeit_counts_as_met": false,
            "unplayed": "none",
            "scoring": {"win": 3, "draw": 1, "loss": 0, "bye": 2, "forfeit_win": 2.5}
        }),
    )
    .await;
    let ids = add_entrants(&pool, &token, &sid, 7).await;
    let forbid = call(
        &pool,
        "POST",
        &format!("/api/v1/sections/{sid}/forbidden-pairs"),
        Some(&token),
        Some(json!({"a": ids[1], "b": ids[4]})),
    )
    .await;
    assert_eq!(forbid.status, StatusCode::NO_CONTENT, "{}", forbid.text);
    for round in 1..=2 {
        let r = expect(
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
        crate::support::publish(&pool, &token, &sid, r["number"].as_i64().unwrap()).await;
        for (i, b) in r["boards"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| !b["black"].is_null())
            .enumerate()
        {
            let result = ["red_forfeits", "draw", "black_wins", "double_forfeit"][(i + round) % 4];
            expect(
                &call(
                    &pool,
                    "PUT",
                    &format!("/api/v1/boards/{}/result", b["id"].as_str().unwrap()),
                    Some(&token),
                    Some(json!({"result": result})),
                )
                .await,
                StatusCode::OK,
            );
        }
    }
    let once = export(&pool, &token, &sid).await;
    assert!(
        once.contains("\n### arbiter pairing_system=chinese\n"),
        "{once}"
    );
    assert!(once.contains("\nXXP    2    5\n"), "{once}");
    assert!(
        once.contains("\n### arbiter tiebreaks=OPP,PS,WIN\n"),
        "{once}"
    );
    let other = tournament(&pool, &token).await;
    let copy = import(&pool, &token, &other, &once).await;
    let original = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}")).await,
        StatusCode::OK,
    );
    for key in [
        "name",
        "pairing_system",
        "rounds",
        "scoring",
        "tiebreaks",
        "unplayed",
        "foul_threshold",
        "forfeit_counts_as_met",
        "first_board_red",
    ] {
        assert_eq!(copy[key], original[key], "{key}");
    }
    assert_eq!(copy["pairing_system"], "chinese");
    let twice = export(&pool, &token, copy["id"].as_str().unwrap()).await;
    assert_eq!(once, twice);
}

/// Pairs the next round and enters each game's result as `result(red, black)` gives it
/// (starting numbers); returns the round's pairs as (lower, higher) starting numbers.
async fn play_round(
    pool: &PgPool,
    token: &str,
    sid: &str,
    result: impl Fn(i64, i64) -> &'static str,
) -> std::collections::BTreeSet<(i64, i64)> {
    let numbers = |b: &serde_json::Value| {
        (
            b["red"]["start_no"].as_i64().unwrap_or_default(),
            b["black"]["start_no"].as_i64().unwrap_or_default(),
        )
    };
    let round = crate::support::play_round(pool, token, sid, |b| {
        let (red, black) = numbers(b);
        result(red, black)
    })
    .await;
    round["boards"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|b| !b["black"].is_null())
        .map(|b| {
            let (red, black) = numbers(b);
            (red.min(black), red.max(black))
        })
        .collect()
}

#[sqlx::test]
async fn a_dutch_section_never_repeats_a_forfeited_pair_when_forfeits_count_as_met(pool: PgPool) {
    let token = admin_token(&pool).await;
    let mut outcomes = Vec::new();
    for setting in [json!({"forfeit_counts_as_met": true}), json!({})] {
        let mut body = json!({"pairing_system": "dutch", "rounds": 3});
        for (k, v) in setting.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (_, sid) = tournament_with_section(&pool, &token, "xiangqi", body).await;
        add_entrants(&pool, &token, &sid, 4).await;
        // Round 1 (1–3, 2–4): 1 and 2 win by forfeit; round 2: the lower number wins.
        let forfeits = |red: i64, black: i64| {
            if red < black {
                "black_forfeits"
            } else {
                "red_forfeits"
            }
        };
        let r1 = play_round(&pool, &token, &sid, forfeits).await;
        assert_eq!(r1, [(1, 3), (2, 4)].into());
        let lower_wins = |red: i64, black: i64| {
            if red < black {
                "red_wins"
            } else {
                "black_wins"
            }
        };
        play_round(&pool, &token, &sid, lower_wins).await;
        let r3 = play_round(&pool, &token, &sid, lower_wins).await;
        let section = expect(
            &get(&pool, &format!("/api/v1/sections/{sid}")).await,
            StatusCode::OK,
        );
        outcomes.push((section["forfeit_counts_as_met"].clone(), r3));
    }
    assert_eq!(outcomes[0], (json!(true), [(1, 4), (2, 3)].into()));
    // The Dutch default is FIDE's: a forfeit is no meeting, so round 3 repeats both pairs.
    assert_eq!(outcomes[1], (json!(false), [(1, 3), (2, 4)].into()));
}

#[sqlx::test]
async fn forfeit_counts_as_met_defaults_by_pairing_system(pool: PgPool) {
    let token = admin_token(&pool).await;
    for (system, expected) in [("dutch", false), ("chinese", true), ("round_robin", true)] {
        let (tid, sid) =
            tournament_with_section(&pool, &token, "xiangqi", json!({"pairing_system": system}))
                .await;
        let section = expect(
            &get(&pool, &format!("/api/v1/sections/{sid}")).await,
            StatusCode::OK,
        );
        assert_eq!(section["forfeit_counts_as_met"], expected, "{system}");
        // Given explicitly, it is kept.
        let (_, other) = tournament_with_section(
            &pool,
            &token,
            "xiangqi",
            json!({"pairing_system": system, "forfeit_counts_as_met": !expected}),
        )
        .await;
        let section = expect(
            &get(&pool, &format!("/api/v1/sections/{other}")).await,
            StatusCode::OK,
        );
        assert_eq!(section["forfeit_counts_as_met"], !expected, "{system}");
        // A TRF without arbiter's lines imports with the default of its system.
        let code = match system {
            "dutch" => "FIDE_DUTCH_2026",
            "round_robin" => "BERGER_ROUNDROBIN",
            _ => "CUSTOM_SWISS",
        };
        let imported = import(
            &pool,
            &token,
            &tid,
            &format!("012 Imported\n192 {code}\n{}", player_line(1, "A", "")),
        )
        .await;
        let want_system = if system == "chinese" { "dutch" } else { system };
        assert_eq!(imported["pairing_system"], want_system);
        assert_eq!(
            imported["forfeit_counts_as_met"],
            want_system != "dutch",
            "{system}"
        );
    }
}
