//! The whole event as one JSON file (issue #17, SPEC §12): an event played through the API —
//! registrations and payments, byes, a forbidden pair, fouls and forfeits, doubles, set-ups, a
//! knockout, prizes, a decided tie, a player's report, staff — exported from one server and
//! imported into a second one (another database) keeps its standings, crosstable, pairings,
//! bracket and every row; a tampered file is refused with a 422 that names the row, and
//! nothing is written.

use crate::seeds::{play, Dice};
use crate::support::{admin_token, call, expect, get, token_for, Reply};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use uuid::Uuid;

/// A second, empty server: a new database on the same PostgreSQL, migrated.
async fn second_database(pool: &PgPool) -> (PgPool, String) {
    let name = format!("arbiter_second_{}", Uuid::new_v4().simple());
    sqlx::query(&format!("create database {name}"))
        .execute(pool)
        .await
        .unwrap();
    let options = pool.connect_options().as_ref().clone().database(&name);
    let second = PgPoolOptions::new()
        .max_connections(4)
        .connect_with(options)
        .await
        .unwrap();
    arbiter::startup::MIGRATOR.run(&second).await.unwrap();
    (second, name)
}

async fn drop_database(pool: &PgPool, second: PgPool, name: &str) {
    second.close().await;
    sqlx::query(&format!("drop database if exists {name} with (force)"))
        .execute(pool)
        .await
        .unwrap();
}

async fn create(pool: &PgPool, token: &str, path: &str, body: Value) -> String {
    expect(
        &call(pool, "POST", path, Some(token), Some(body)).await,
        StatusCode::CREATED,
    )["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// `value` with every id made `<id>`: the two servers' ids differ, nothing else may.
fn without_ids(value: &Value) -> Value {
    match value {
        Value::String(s) if s.len() == 36 && Uuid::parse_str(s).is_ok() => json!("<id>"),
        Value::Array(items) => Value::Array(items.iter().map(without_ids).collect()),
        Value::Object(map) => {
            let mut map: serde_json::Map<String, Value> = map
                .iter()
                .map(|(k, v)| (k.clone(), without_ids(v)))
                .collect();
            // A forbidden pair is unordered: it is stored lower id first, and ids are new.
            if let (Some(a), Some(b)) = (map.get("a_name").cloned(), map.get("b_name").cloned()) {
                if a.as_str() > b.as_str() {
                    map.insert("a_name".into(), b);
                    map.insert("b_name".into(), a);
                }
            }
            Value::Object(map)
        }
        other => other.clone(),
    }
}

/// A page with its ids and per-visitor tokens (long runs of hex digits) made `<x>`.
fn page_without_ids(html: &str) -> String {
    let mut out = String::new();
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.chars().filter(char::is_ascii_hexdigit).count() >= 32 {
            out.push_str("<x>");
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in html.chars() {
        if c.is_ascii_hexdigit() || c == '-' {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Asserts a 2xx answer.
#[track_caller]
fn done(reply: &Reply) {
    assert!(
        reply.status.is_success(),
        "{}: {}",
        reply.status,
        reply.text
    );
}

fn ok(reply: &Reply) -> Value {
    expect(reply, StatusCode::OK)
}

/// Plays an event with a bit of everything on `pool`; returns (tournament id, chief's token).
async fn play_an_event(pool: &PgPool) -> (String, String) {
    let token = admin_token(pool).await;
    token_for(pool, "referee", "user").await;
    token_for(pool, "marker", "user").await;
    let tid = create(
        pool,
        &token,
        "/api/v1/tournaments",
        json!({"name": "搬家盃 Moving Cup", "game": "jieqi", "venue": "Hall 2", "time_control": "10+5",
               "waiver_text": "I play at my own risk.", "default_language": "en"}),
    )
    .await;
    for (username, role) in [("referee", "arbiter"), ("marker", "scorer")] {
        ok(&call(
            pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/staff"),
            Some(&token),
            Some(json!({"username": username, "role": role})),
        )
        .await);
    }
    ok(&call(
        pool,
        "PATCH",
        &format!("/api/v1/tournaments/{tid}"),
        Some(&token),
        Some(json!({"status": "registration"})),
    )
    .await);

    // The open section: online registrations with fees and payments, set-ups per round.
    let open = create(
        pool,
        &token,
        &format!("/api/v1/tournaments/{tid}/sections"),
        json!({"name": "Open", "rounds": 5, "setup_mode": "duplicate", "payment_required": true,
               "fee_tiers": [{"name": "adult", "amount": 20}, {"name": "junior", "amount": 10}]}),
    )
    .await;
    // The round schedule (issue #37).
    ok(&call(
        pool,
        "PUT",
        &format!("/api/v1/sections/{open}/schedule"),
        Some(&token),
        Some(json!({"rounds": [{"round": 1, "local": "2026-12-08T09:30"},
                               {"round": 2, "local": "2026-12-08T14:00"}]})),
    )
    .await);
    let mut registrations = Vec::new();
    for i in 1..=11 {
        let tier = if i % 4 == 0 { "junior" } else { "adult" };
        let r = expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/sections/{open}/registrations"),
                None,
                Some(
                    json!({"name": format!("棋手 {i:02}"), "email": format!("p{i}@example.org"),
                            "phone": "555-0100", "rating": 1500 + i * 13, "fee_tier": tier,
                            "waiver_accepted": true}),
                ),
            )
            .await,
            StatusCode::CREATED,
        );
        registrations.push(r["id"].as_str().unwrap().to_string());
    }
    for (i, id) in registrations.iter().enumerate() {
        if i == 10 {
            // The last one never pays and withdraws.
            ok(&call(
                pool,
                "POST",
                &format!("/api/v1/registrations/{id}/withdraw"),
                Some(&token),
                None,
            )
            .await);
            continue;
        }
        let method = if i % 2 == 0 { "cash" } else { "wechat" };
        ok(&call(
            pool,
            "POST",
            &format!("/api/v1/registrations/{id}/payment"),
            Some(&token),
            Some(json!({"state": "paid", "method": method})),
        )
        .await);
    }
    let entrants = ok(&get(pool, &format!("/api/v1/sections/{open}/entrants")).await);
    let ids: Vec<String> = entrants
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 10, "{entrants}");
    done(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{open}/forbidden-pairs"),
            Some(&token),
            Some(json!({"a": ids[0], "b": ids[1]})),
        )
        .await,
    );
    done(
        &call(
            pool,
            "POST",
            &format!("/api/v1/entrants/{}/byes", ids[2]),
            Some(&token),
            Some(json!({"round": 2, "kind": "half"})),
        )
        .await,
    );
    let mut dice = Dice(17);
    play(pool, &token, &open, 4, &mut dice).await;
    crate::support::keep_tied_order(pool, &token, &open).await;
    ok(&call(
        pool,
        "PUT",
        &format!("/api/v1/sections/{open}/prizes"),
        Some(&token),
        Some(json!({"prizes": [
            {"place_from": 1, "award": "Cup and 100", "amount": 100},
            {"place_from": 2, "place_to": 3, "award": "50", "amount": 50},
            {"category": "female", "award": "Best woman", "amount": 30}
        ]})),
    )
    .await);
    ok(&call(
        pool,
        "PUT",
        &format!("/api/v1/tournaments/{tid}/playoff/prizes"),
        Some(&token),
        Some(json!({"prizes": [{"place_from": 1, "award": "Overall champion 10000", "amount": 10000}]})),
    )
    .await);
    // Round 5 paired and published; one player reports a result the desk has not taken yet.
    let round5 = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{open}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    ok(&call(
        pool,
        "POST",
        &format!("/api/v1/sections/{open}/rounds/5/publish"),
        Some(&token),
        None,
    )
    .await);
    let board = round5["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| !b["black"].is_null())
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let code: String =
        sqlx::query_scalar("select report_code from board where board_id = $1::uuid")
            .bind(&board)
            .fetch_one(pool)
            .await
            .unwrap();
    let reported = call(
        pool,
        "POST",
        &format!("/api/v1/reports/{code}"),
        None,
        Some(json!({"side": "red", "result": "draw"})),
    )
    .await;
    assert!(reported.status.is_success(), "{}", reported.text);
    // Its moves so far, face-down pieces revealed from the set-up.
    ok(&call(
        pool,
        "PUT",
        &format!("/api/v1/boards/{board}/record"),
        Some(&token),
        Some(json!({"notation": "iccs", "text": "b0c2 b9c7"})),
    )
    .await);

    // Doubles at the desk.
    let doubles = create(
        pool,
        &token,
        &format!("/api/v1/tournaments/{tid}/sections"),
        json!({"name": "Doubles", "rounds": 3, "entry_type": "doubles"}),
    )
    .await;
    for i in 1..=6 {
        create(
            pool,
            &token,
            &format!("/api/v1/sections/{doubles}/entrants"),
            json!({"members": [{"name": format!("A{i}"), "gender": "m"},
                               {"name": format!("B{i}"), "gender": if i % 2 == 0 { "f" } else { "m" }}]}),
        )
        .await;
    }
    play(pool, &token, &doubles, 3, &mut dice).await;
    crate::support::keep_tied_order(pool, &token, &doubles).await;

    // A knockout after one Swiss round, its first match under way.
    let ko = create(
        pool,
        &token,
        &format!("/api/v1/tournaments/{tid}/sections"),
        json!({"name": "Masters", "rounds": 1}),
    )
    .await;
    crate::support::add_entrants(pool, &token, &ko, 4).await;
    play(pool, &token, &ko, 1, &mut dice).await;
    crate::support::keep_tied_order(pool, &token, &ko).await;
    let bracket = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{ko}/knockout"),
            Some(&token),
            Some(json!({"size": 4, "best_of": 3})),
        )
        .await,
        StatusCode::CREATED,
    );
    let first = bracket["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["round"] == 1 && m["slot"] == 1)
        .unwrap();
    ok(&call(
        pool,
        "POST",
        &format!("/api/v1/matches/{}/games", first["id"].as_str().unwrap()),
        Some(&token),
        Some(json!({"result": "red_wins", "red_fouls": 1})),
    )
    .await);
    // The final's rules (issue #40): captured pieces face down, its own tiebreak games.
    ok(&call(
        pool,
        "PUT",
        &format!("/api/v1/sections/{ko}/knockout/stages/2"),
        Some(&token),
        Some(json!({"capture_rule": "face_down", "time_control": "90+30",
            "tiebreaks": [{"kind": "rapid", "games": 2, "time_control": "15+10"}]})),
    )
    .await);

    // A team section (issue #41): teams with rosters, a line-up with the reserve, matches
    // of two boards played board by board.
    let teams = create(
        pool,
        &token,
        &format!("/api/v1/tournaments/{tid}/sections"),
        json!({"name": "Teams", "rounds": 2, "entry_type": "team",
               "team": {"boards": 2, "reserves": 1, "tiebreaks": ["GPTS", "BH:MP"]}}),
    )
    .await;
    let mut reserve = None;
    for i in 1..=4 {
        let team = expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/sections/{teams}/teams"),
                Some(&token),
                Some(
                    json!({"name": format!("Team {i}"), "captain": format!("Captain {i}"),
                            "roster": [{"name": format!("T{i}A"), "rating": 1900},
                                       {"name": format!("T{i}B")}, {"name": format!("T{i}C")}]}),
                ),
            )
            .await,
            StatusCode::CREATED,
        );
        if i == 1 {
            let roster = team["roster"].as_array().unwrap();
            reserve = Some((
                team["id"].as_str().unwrap().to_string(),
                [
                    roster[0]["player_id"].clone(),
                    roster[2]["player_id"].clone(),
                ],
            ));
        }
    }
    // A team registered on the public form, waiting for the desk (its roster travels).
    expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{teams}/registrations"),
            None,
            Some(
                json!({"name": "Captain 5", "waiver_accepted": true, "team": {"name": "Team 5",
                        "roster": [{"name": "T5A"}, {"name": "T5B"}]}}),
            ),
        )
        .await,
        StatusCode::CREATED,
    );
    let (team, players) = reserve.unwrap();
    ok(&call(
        pool,
        "PUT",
        &format!("/api/v1/sections/{teams}/rounds/1/lineups/{team}"),
        Some(&token),
        Some(json!({"players": players})),
    )
    .await);
    for round in 1..=2 {
        expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/sections/{teams}/rounds"),
                Some(&token),
                None,
            )
            .await,
            StatusCode::CREATED,
        );
        ok(&call(
            pool,
            "POST",
            &format!("/api/v1/sections/{teams}/rounds/{round}/publish"),
            Some(&token),
            None,
        )
        .await);
        let matches = ok(&get(
            pool,
            &format!("/api/v1/sections/{teams}/rounds/{round}/matches"),
        )
        .await);
        for (i, m) in matches.as_array().unwrap().iter().enumerate() {
            for n in 1..=2 {
                let result = ["red_wins", "draw", "black_wins"][(round + n + i) % 3];
                ok(&call(
                    pool,
                    "PUT",
                    &format!(
                        "/api/v1/boards/{}/games/{n}/result",
                        m["id"].as_str().unwrap()
                    ),
                    Some(&token),
                    Some(json!({"result": result})),
                )
                .await);
            }
        }
    }
    (tid, token)
}

/// What the public and the staff see of each section, ids aside: (what, JSON or page).
async fn views(pool: &PgPool, token: &str, tid: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let prizes = ok(&get(pool, &format!("/api/v1/tournaments/{tid}/playoff/prizes")).await);
    out.push(("playoff prizes".into(), prizes.to_string()));
    let sections = ok(&get(pool, &format!("/api/v1/tournaments/{tid}/sections")).await);
    let mut sections: Vec<Value> = sections.as_array().unwrap().clone();
    sections.sort_by_key(|s| s["name"].as_str().unwrap().to_string());
    for s in &sections {
        let name = s["name"].as_str().unwrap();
        let id = s["id"].as_str().unwrap();
        let mut json_paths = vec![
            format!("/api/v1/sections/{id}"),
            format!("/api/v1/sections/{id}/standings"),
            format!("/api/v1/sections/{id}/entrants"),
            format!("/api/v1/sections/{id}/rounds"),
            format!("/api/v1/sections/{id}/prizes"),
            format!("/api/v1/sections/{id}/prizes/awarded"),
            format!("/api/v1/sections/{id}/ties"),
            format!("/api/v1/sections/{id}/forbidden-pairs"),
            format!("/api/v1/sections/{id}/byes"),
            format!("/api/v1/sections/{id}/registrations"),
        ];
        let rounds = s["rounds_paired"].as_u64().unwrap_or(5);
        for n in 1..=rounds {
            json_paths.push(format!("/api/v1/sections/{id}/rounds/{n}"));
        }
        if name == "Masters" {
            json_paths.push(format!("/api/v1/sections/{id}/knockout"));
        }
        if name == "Teams" {
            json_paths.push(format!("/api/v1/sections/{id}/teams"));
            json_paths.push(format!("/api/v1/sections/{id}/team-standings"));
            json_paths.push(format!("/api/v1/sections/{id}/team-crosstable"));
            for n in 1..=2 {
                json_paths.push(format!("/api/v1/sections/{id}/rounds/{n}/matches"));
                json_paths.push(format!("/api/v1/sections/{id}/rounds/{n}/lineups"));
            }
        }
        for path in json_paths {
            // Refusals too (a ranking not final yet) must be the same.
            let reply = call(pool, "GET", &path, Some(token), None).await;
            assert!(!reply.status.is_server_error(), "{path}: {}", reply.text);
            out.push((
                format!("{name} {}", path.replace(id, "{id}")),
                format!(
                    "{} {}",
                    reply.status,
                    serde_json::to_string_pretty(&without_ids(&reply.json())).unwrap()
                ),
            ));
        }
        for page in ["crosstable", "standings", "pairings/1", "entrants"] {
            let reply = get(pool, &format!("/s/{id}/{page}")).await;
            assert_eq!(reply.status, StatusCode::OK, "{page}");
            out.push((
                format!("{name} /s/{{id}}/{page}"),
                page_without_ids(&reply.text),
            ));
        }
    }
    out
}

/// Rows per table of the event, counted in its own file.
fn counts(file: &Value) -> Vec<(String, usize)> {
    file["tables"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(table, rows)| (table.clone(), rows.as_array().unwrap().len()))
        .collect()
}

#[sqlx::test]
async fn an_event_imported_into_a_second_server_has_the_same_standings_crosstable_and_rows(
    pool: PgPool,
) {
    let (tid, token) = play_an_event(&pool).await;
    let exported = call(
        &pool,
        "GET",
        &format!("/api/v1/tournaments/{tid}/export.json"),
        Some(&token),
        None,
    )
    .await;
    let file = ok(&exported);
    assert!(exported
        .headers
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("attachment")));
    assert_eq!(file["format"], "arbiter-event");
    assert_eq!(file["version"], 1);
    // Every table of the event has rows in this event, so each is carried and compared.
    for (table, n) in counts(&file) {
        assert!(n > 0, "the test event has no {table} rows");
    }
    assert!(
        file["tables"]["player"][0]["email"].is_string(),
        "contact data travels"
    );

    let (second, name) = second_database(&pool).await;
    // On the second server the same admin name imports; `referee` has an account, `marker`
    // has none.
    let mover = token_for(&second, "chief", "admin").await;
    token_for(&second, "referee", "user").await;
    let imported = expect(
        &call(
            &second,
            "POST",
            "/api/v1/tournaments/import",
            Some(&mover),
            Some(file.clone()),
        )
        .await,
        StatusCode::CREATED,
    );
    let new_tid = imported["id"].as_str().unwrap().to_string();
    assert_ne!(new_tid, tid, "a new id");
    // Nobody named in the file is made staff here (`referee` has an account of that name):
    // the importer is the chief arbiter and invites the others.
    let outcomes: Vec<(String, String)> = imported["staff"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["username"].as_str().unwrap().to_string(),
                s["outcome"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for name in ["chief", "referee", "marker"] {
        assert!(
            outcomes.contains(&(name.into(), "not_linked".into())),
            "{outcomes:?}"
        );
    }

    // What everyone sees is the same, ids aside.
    let before = views(&pool, &token, &tid).await;
    let after = views(&second, &mover, &new_tid).await;
    assert_eq!(before.len(), after.len());
    for ((what, a), (_, b)) in before.iter().zip(after.iter()) {
        assert_eq!(a, b, "{what} differs after the move");
    }

    // Every row arrived (the log has one entry more: the import), and no old id is left.
    let again = ok(&call(
        &second,
        "GET",
        &format!("/api/v1/tournaments/{new_tid}/export.json"),
        Some(&mover),
        None,
    )
    .await);
    let mut expected = counts(&file);
    for (table, n) in &mut expected {
        if table == "audit_event" {
            *n += 1;
        }
    }
    assert_eq!(counts(&again), expected);
    let old_ids: Vec<String> = file["tables"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|rows| rows.as_array().unwrap().iter())
        .filter_map(|row| row.as_object())
        .flat_map(|row| row.iter())
        .filter(|(k, _)| k.ends_with("_id"))
        .filter_map(|(_, v)| v.as_str().map(str::to_string))
        .collect();
    let text = again["tables"].to_string();
    // Only the import's own log entry names where the event came from.
    let text = text.replace(&format!("\"source_tournament_id\":\"{tid}\""), "");
    let mut left: Vec<&String> = old_ids.iter().filter(|id| text.contains(*id)).collect();
    left.dedup();
    if let Some(id) = left.first() {
        let at = text.find(id.as_str()).unwrap();
        panic!(
            "old ids in the imported event: {left:?}, e.g. …{}…",
            &text[at.saturating_sub(300)..(at + 100).min(text.len())]
        );
    }
    // The referee is no staff of the new tournament; the audit log goes on.
    let referee = arbiter::service::users::login(&second, "referee", "a long password", "api")
        .await
        .unwrap();
    assert_eq!(
        call(
            &second,
            "GET",
            &format!("/api/v1/tournaments/{new_tid}/export.json"),
            Some(&referee),
            None,
        )
        .await
        .status,
        StatusCode::FORBIDDEN
    );
    let log = ok(&call(
        &second,
        "GET",
        &format!("/api/v1/tournaments/{new_tid}/audit?limit=1000"),
        Some(&mover),
        None,
    )
    .await);
    let log = log.as_array().unwrap();
    assert_eq!(log.last().unwrap()["action"], "import");
    assert_eq!(
        log.len(),
        expected.iter().find(|(t, _)| t == "audit_event").unwrap().1
    );

    // The same file again, into the server it came from: a second copy, with its own report
    // codes (they are unique per server).
    let copy = expect(
        &call(
            &pool,
            "POST",
            "/api/v1/tournaments/import",
            Some(&token),
            Some(file.clone()),
        )
        .await,
        StatusCode::CREATED,
    );
    assert_ne!(copy["id"].as_str().unwrap(), tid);
    drop_database(&pool, second, &name).await;
}

/// Rows in every table of the schema.
async fn all_rows(pool: &PgPool) -> i64 {
    let mut total = 0;
    for table in arbiter::service::event_file::table_names() {
        let n: i64 = sqlx::query_scalar(&format!("select count(*) from {table}"))
            .fetch_one(pool)
            .await
            .unwrap();
        total += n;
    }
    total
}

#[sqlx::test]
async fn a_tampered_event_file_is_refused_with_what_to_fix_and_nothing_is_written(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) =
        crate::support::tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3}))
            .await;
    crate::support::add_entrants(&pool, &token, &sid, 4).await;
    let mut dice = Dice(3);
    play(&pool, &token, &sid, 1, &mut dice).await;
    let file = ok(&call(
        &pool,
        "GET",
        &format!("/api/v1/tournaments/{tid}/export.json"),
        Some(&token),
        None,
    )
    .await);
    let user = token_for(&pool, "someone", "user").await;
    // An organiser: the chief arbiter of a tournament here (who may import).
    create(
        &pool,
        &user,
        "/api/v1/tournaments",
        json!({"name": "Mine", "game": "xiangqi"}),
    )
    .await;
    let rows_before = all_rows(&pool).await;

    let refuse = |mutate: &dyn Fn(&mut Value), field: &'static str| {
        let mut bad = file.clone();
        mutate(&mut bad);
        (bad, field)
    };
    let stranger = Uuid::new_v4().to_string();
    let cases = [
        refuse(
            &|f| f["tables"]["board"][0]["red_entrant_id"] = json!(stranger),
            "tables.board[0].red_entrant_id",
        ),
        refuse(
            &|f| f["tables"]["entrant"][1]["section_id"] = json!("not an id"),
            "tables.entrant[1].section_id",
        ),
        refuse(
            &|f| f["tables"]["entrant"][0]["rating"] = json!("very high"),
            "tables.entrant",
        ),
        refuse(
            &|f| f["tables"]["round"][0]["status"] = json!("lost"),
            "tables.round",
        ),
        refuse(
            &|f| {
                let dup = f["tables"]["entrant"][0].clone();
                f["tables"]["entrant"].as_array_mut().unwrap().push(dup);
            },
            "tables.entrant[4].entrant_id",
        ),
        refuse(
            &|f| f["tables"]["player"][0]["name"] = json!("Evil\u{202E}name"),
            "tables.player[0].name",
        ),
        refuse(
            &|f| f["tables"]["player"][0]["shoe_size"] = json!(44),
            "tables.player[0].shoe_size",
        ),
        refuse(&|f| f["tables"]["knockout"] = json!([]), "tables.knockout"),
        refuse(&|f| f["version"] = json!(99), "version"),
        refuse(&|f| f["format"] = json!("something-else"), "format"),
        refuse(
            &|f| f["tables"]["tournament"] = json!([]),
            "tables.tournament",
        ),
    ];
    for (bad, field) in cases {
        let reply = call(
            &pool,
            "POST",
            "/api/v1/tournaments/import",
            Some(&user),
            Some(bad),
        )
        .await;
        let body = expect(&reply, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            body["errors"].get(field).is_some(),
            "{field} is named: {}",
            reply.text
        );
        assert!(!body["message"].as_str().unwrap().is_empty());
    }
    // Not JSON of the right shape at all: still a 4xx with a message.
    let reply = call(
        &pool,
        "POST",
        "/api/v1/tournaments/import",
        Some(&user),
        Some(json!({"format": "arbiter-event"})),
    )
    .await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.text
    );
    // Over the size limit: a JSON 413 before anything is parsed.
    let huge = format!(
        "{{\"format\": \"arbiter-event\", \"pad\": \"{}\"}}",
        "x".repeat(arbiter::service::event_file::FILE_LIMIT)
    );
    let request = axum::http::Request::post("/api/v1/tournaments/import")
        .header("authorization", format!("Bearer {user}"))
        .header("content-type", "application/json")
        .body(axum::body::Body::from(huge))
        .unwrap();
    let reply = crate::support::send(&pool, request).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(reply.json()["message"].is_string());
    assert_eq!(all_rows(&pool).await, rows_before, "nothing was written");

    // Export is for the tournament's arbiters; import for admins and chief arbiters.
    let export = format!("/api/v1/tournaments/{tid}/export.json");
    assert_eq!(
        call(&pool, "GET", &export, None, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        call(&pool, "GET", &export, Some(&user), None).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        call(
            &pool,
            "POST",
            "/api/v1/tournaments/import",
            None,
            Some(file.clone())
        )
        .await
        .status,
        StatusCode::UNAUTHORIZED
    );
    let mine = expect(
        &call(
            &pool,
            "POST",
            "/api/v1/tournaments/import",
            Some(&user),
            Some(file),
        )
        .await,
        StatusCode::CREATED,
    );
    // The importer is the new tournament's chief arbiter, and may export it.
    ok(&call(
        &pool,
        "GET",
        &format!(
            "/api/v1/tournaments/{}/export.json",
            mine["id"].as_str().unwrap()
        ),
        Some(&user),
        None,
    )
    .await);
}

#[sqlx::test]
async fn every_table_is_either_in_the_event_file_or_named_as_outside_it(pool: PgPool) {
    let tables = arbiter::db::event_file::tables(&pool).await.unwrap();
    let carried = arbiter::service::event_file::table_names();
    let outside = arbiter::service::event_file::OUTSIDE;
    let unknown: Vec<&String> = tables
        .iter()
        .filter(|t| !carried.contains(&t.as_str()) && !outside.contains(&t.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "decide whether these travel with an event (service::event_file): {unknown:?}"
    );
    let gone: Vec<&&str> = carried
        .iter()
        .filter(|t| !tables.iter().any(|x| x == **t))
        .collect();
    assert!(gone.is_empty(), "{gone:?}");
}

#[sqlx::test]
async fn the_dashboard_downloads_an_event_and_makes_a_tournament_of_an_uploaded_one(pool: PgPool) {
    use crate::support::{csrf_of, location, Browser};
    let token = admin_token(&pool).await;
    let (tid, sid) =
        crate::support::tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3}))
            .await;
    crate::support::add_entrants(&pool, &token, &sid, 4).await;
    let mut dice = Dice(5);
    play(&pool, &token, &sid, 1, &mut dice).await;
    let mut browser = Browser::new(&pool);
    browser.log_in("chief", "a long password").await;
    let page = browser.get(&format!("/admin/t/{tid}")).await;
    let link = format!("/admin/t/{tid}/export.json");
    assert!(
        page.text.contains(&link),
        "the tournament page links the download"
    );
    let file = browser.get(&link).await;
    assert_eq!(file.status, StatusCode::OK);
    assert_eq!(file.json()["format"], "arbiter-event");

    let form = browser.get("/admin/tournaments/new").await;
    assert!(form.text.contains("/admin/tournaments/import"));
    let csrf = csrf_of(&form.text);
    let reply = browser
        .post_multipart(
            "/admin/tournaments/import",
            &[("csrf", &csrf)],
            Some(("file", "event.json", file.text.as_bytes())),
        )
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text);
    let new_page = location(&reply).to_string();
    assert!(new_page.ends_with("?done=imported"), "{new_page}");
    let shown = browser.get(&new_page).await;
    assert_eq!(shown.status, StatusCode::OK);
    assert!(shown.text.contains("Open"));

    // A file that is not an event file, and one that breaks a reference: the form again,
    // with why, in the page's language.
    browser.accept_language = Some("zh-Hant".into());
    let mut broken = file.json();
    broken["tables"]["board"][0]["red_entrant_id"] = json!(Uuid::new_v4().to_string());
    for (content, expected) in [
        ("{\"hello\": 1}".to_string(), "這不是賽事檔案"),
        (broken.to_string(), "指向檔案中沒有的"),
    ] {
        let reply = browser
            .post_multipart(
                "/admin/tournaments/import",
                &[("csrf", &csrf)],
                Some(("file", "event.json", content.as_bytes())),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(reply.text.contains(expected), "{}", reply.text);
        // serde's own English is not shown, the field it names is.
        assert!(!reply.text.contains("missing field"), "{}", reply.text);
    }
    let reply = browser
        .post_multipart(
            "/admin/tournaments/import",
            &[("csrf", &csrf)],
            Some(("file", "event.json", b"{\"hello\": 1}")),
        )
        .await;
    assert!(reply.text.contains("缺少欄位"), "{}", reply.text);
}

/// Every column of the first row of every table, set to each of a few wrong values: the
/// import answers 201 (the value is one the column takes) or a 4xx, never a 5xx.
#[sqlx::test]
async fn no_value_in_any_column_of_an_event_file_makes_the_import_fail_with_a_5xx(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (tid, sid) = crate::support::tournament_with_section(
        &pool,
        &token,
        "jieqi",
        json!({"rounds": 3, "setup_mode": "per_board"}),
    )
    .await;
    crate::support::add_entrants(&pool, &token, &sid, 5).await;
    let mut dice = Dice(9);
    play(&pool, &token, &sid, 2, &mut dice).await;
    let file = ok(&call(
        &pool,
        "GET",
        &format!("/api/v1/tournaments/{tid}/export.json"),
        Some(&token),
        None,
    )
    .await);
    let hostile = [
        json!(null),
        json!(""),
        json!(-1),
        json!("x"),
        json!([]),
        json!({}),
    ];
    let mut failures = Vec::new();
    let mut tried = 0;
    for (table, rows) in file["tables"].as_object().unwrap() {
        let Some(first) = rows.as_array().unwrap().first() else {
            continue;
        };
        for column in first.as_object().unwrap().keys() {
            for value in &hostile {
                let mut bad = file.clone();
                bad["tables"][table][0][column] = value.clone();
                let reply = call(
                    &pool,
                    "POST",
                    "/api/v1/tournaments/import",
                    Some(&token),
                    Some(bad),
                )
                .await;
                tried += 1;
                if reply.status.is_server_error() {
                    failures.push(format!(
                        "{table}.{column} = {value}: {} {}",
                        reply.status, reply.text
                    ));
                }
            }
        }
    }
    assert!(tried > 400, "every column of every table is tried: {tried}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
