//! Issue #13's table: every write operation of the OpenAPI document, tried as anonymous,
//! another tournament's arbiter, scorer, arbiter, chief arbiter and admin; each gets 401, 403
//! or gets past authorisation (any other answer: success, or a 4xx about the input or state).

use crate::support::{call, expect, token_for, tournament_with_section, Reply};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;
use uuid::Uuid;

/// Who may call an operation.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Who {
    /// Anyone, signed in or not.
    Public,
    /// Anyone signed in.
    SignedIn,
    /// Admins and the chief arbiters of any tournament (`other` is another tournament's
    /// chief): who may import an event file.
    Organiser,
    /// The tournament's scorers, arbiters, chief arbiter; admins.
    Scorer,
    /// The tournament's arbiters and chief arbiter; admins.
    Arbiter,
    /// The tournament's chief arbiter; admins.
    Chief,
    /// Admins.
    Admin,
}

const ACTORS: [&str; 6] = ["anonymous", "other", "scorer", "arbiter", "chief", "admin"];

fn allowed(who: Who, actor: &str) -> bool {
    let rank = ACTORS.iter().position(|a| *a == actor).unwrap();
    match who {
        Who::Public => true,
        Who::SignedIn => rank >= 1,
        Who::Organiser => matches!(actor, "other" | "chief" | "admin"),
        Who::Scorer => rank >= 2,
        Who::Arbiter => rank >= 3,
        Who::Chief => rank >= 4,
        Who::Admin => rank == 5,
    }
}

/// Who may call each write operation of the API.
fn rule(method: &str, path: &str) -> Who {
    match (method, path) {
        ("POST", "/api/v1/auth/login")
        | ("POST", "/api/v1/sections/{id}/registrations")
        | ("POST", "/api/v1/invitations/{token}")
        | ("POST", "/api/v1/password-resets/{token}")
        | ("POST", "/api/v1/reports/{code}")
        | ("POST", "/api/v1/reports/{code}/record")
        // A player's key is the credential (issue 36): no account.
        | ("POST", "/api/v1/keys/{key}/report")
        | ("POST", "/api/v1/keys/{key}/check-in")
        | ("DELETE", "/api/v1/keys/{key}/check-in")
        | ("POST", "/api/v1/keys/{key}/push")
        | ("DELETE", "/api/v1/keys/{key}/push")
        // A captain's line-up with the team's key (issue #41).
        | ("PUT", "/api/v1/keys/{key}/lineup") => Who::Public,
        // Re-issuing a key and the self check-in settings: the tournament's arbiters.
        ("POST", "/api/v1/entrants/{id}/key")
        | ("PUT", "/api/v1/sections/{id}/check-in-settings")
        | ("PUT", "/api/v1/sections/{id}/schedule")
        | ("PUT", "/api/v1/sections/{id}/stages")
        | ("POST", "/api/v1/tournaments/{id}/webhooks")
        | ("DELETE", "/api/v1/webhooks/{id}")
        | ("POST", "/api/v1/webhooks/{id}/test")
        // A knockout round's rules (issue #40).
        | ("PUT", "/api/v1/sections/{id}/knockout/stages/{round}") => Who::Arbiter,
        ("POST", "/api/v1/auth/logout")
        | ("PUT", "/api/v1/me/password")
        | ("DELETE", "/api/v1/me/sessions")
        | ("DELETE", "/api/v1/me/sessions/{id}")
        | ("POST", "/api/v1/tournaments") => Who::SignedIn,
        // An event file makes a new tournament with a whole event's data: organisers only.
        ("POST", "/api/v1/tournaments/import") => Who::Organiser,
        ("PUT", "/api/v1/boards/{id}/result") | ("POST", "/api/v1/matches/{id}/games") => {
            Who::Scorer
        }
        // A team match's board results and its forfeit (issue #41).
        ("PUT", "/api/v1/boards/{id}/games/{n}/result") | ("POST", "/api/v1/boards/{id}/forfeit") => {
            Who::Scorer
        }
        // The players' reports: the tournament's staff accept or dismiss them.
        ("POST", "/api/v1/boards/{id}/reports/accept")
        | ("POST", "/api/v1/boards/{id}/reports/dismiss") => Who::Scorer,
        // Game records: entered and checked by the tournament's staff, scorers included.
        ("PUT", "/api/v1/boards/{id}/record")
        | ("DELETE", "/api/v1/boards/{id}/record")
        | ("DELETE", "/api/v1/matches/{id}/games/{n}/record")
        | ("POST", "/api/v1/boards/{id}/record/check")
        | ("PUT", "/api/v1/matches/{id}/games/{n}/record")
        | ("POST", "/api/v1/matches/{id}/games/{n}/record/check") => Who::Scorer,
        ("POST", "/api/v1/tournaments/{id}/staff")
        | ("DELETE", "/api/v1/tournaments/{id}/staff/{user_id}")
        | ("POST", "/api/v1/tournaments/{id}/invitations")
        | ("DELETE", "/api/v1/tournaments/{id}/invitations/{invitation_id}") => Who::Chief,
        (_, p) if p.starts_with("/api/v1/users") => Who::Admin,
        _ => Who::Arbiter,
    }
}

/// One tournament with its staff, and the ids the paths need.
struct World {
    tokens: Vec<(&'static str, Option<String>)>,
    tournament: String,
    section: String,
    entrants: Vec<String>,
    board: String,
    registration: String,
    /// A payment of the registration (its ledger entry).
    payment: String,
    spare_user: String,
    invitation: String,
    invitation_token: String,
    knockout_section: String,
    knockout_match: String,
    /// A webhook of the tournament (issue #37).
    webhook: String,
}

async fn world(pool: &PgPool, n: usize) -> World {
    let name = |who: &str| format!("{who}-{n}");
    let admin = token_for(pool, &name("admin"), "admin").await;
    let chief = token_for(pool, &name("chief"), "user").await;
    let arbiter = token_for(pool, &name("arbiter"), "user").await;
    let scorer = token_for(pool, &name("scorer"), "user").await;
    let other = token_for(pool, &name("other"), "user").await;
    token_for(pool, &name("spare"), "user").await;
    let (tournament, section) =
        tournament_with_section(pool, &chief, "xiangqi", json!({"rounds": 5})).await;
    // Another tournament, where `other` is the chief arbiter.
    tournament_with_section(pool, &other, "xiangqi", json!({})).await;
    for (who, role) in [
        ("arbiter", "arbiter"),
        ("scorer", "scorer"),
        ("spare", "scorer"),
    ] {
        expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/tournaments/{tournament}/staff"),
                Some(&chief),
                Some(json!({"username": name(who), "role": role})),
            )
            .await,
            StatusCode::OK,
        );
    }
    let entrants = crate::support::add_entrants(pool, &chief, &section, 6).await;
    let round = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{section}/rounds"),
            Some(&chief),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    let board = round["boards"][0]["id"].as_str().unwrap().to_string();
    expect(
        &call(
            pool,
            "PATCH",
            &format!("/api/v1/tournaments/{tournament}"),
            Some(&chief),
            Some(json!({"status": "registration"})),
        )
        .await,
        StatusCode::OK,
    );
    let registration = call(
        pool,
        "POST",
        &format!("/api/v1/sections/{section}/registrations"),
        None,
        Some(json!({"name": "Walk-in", "email": "walk@example.org", "waiver_accepted": true})),
    )
    .await;
    let registration = registration.json()["id"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| panic!("registration: {}", registration.text));
    let paid = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/registrations/{registration}/payment"),
            Some(&chief),
            Some(json!({"state": "paid", "amount": 5, "method": "cash"})),
        )
        .await,
        StatusCode::OK,
    );
    let payment = paid["payments"][0]["id"].as_str().unwrap().to_string();
    let invitation = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/tournaments/{tournament}/invitations"),
            Some(&chief),
            Some(json!({"role": "scorer"})),
        )
        .await,
        StatusCode::CREATED,
    );
    // A knockout section with a bracket, for the match games.
    let knockout_section = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/tournaments/{tournament}/sections"),
            Some(&chief),
            Some(json!({"name": "KO", "rounds": 1})),
        )
        .await,
        StatusCode::CREATED,
    )["id"]
        .as_str()
        .unwrap()
        .to_string();
    crate::support::add_entrants(pool, &chief, &knockout_section, 4).await;
    // Its one Swiss round played, so the bracket can be seeded.
    crate::support::play_round(pool, &chief, &knockout_section, |_| "red_wins").await;
    let bracket = call(
        pool,
        "POST",
        &format!("/api/v1/sections/{knockout_section}/knockout"),
        Some(&chief),
        Some(json!({"size": 4})),
    )
    .await;
    let knockout_match = find_match_id(&bracket.json()).unwrap_or_else(|| {
        panic!("no match in the bracket: {}", bracket.text);
    });
    let spare_user =
        sqlx::query_scalar::<_, Uuid>("select user_id from app_user where username = $1")
            .bind(name("spare"))
            .fetch_one(pool)
            .await
            .unwrap()
            .to_string();
    let webhook = sqlx::query_scalar::<_, Uuid>(
        "insert into webhook (tournament_id, url, secret)
         values ($1::uuid, 'https://hooks.example.org/a', repeat('s', 32)) returning webhook_id",
    )
    .bind(&tournament)
    .fetch_one(pool)
    .await
    .unwrap()
    .to_string();
    World {
        webhook,
        tokens: vec![
            ("anonymous", None),
            ("other", Some(other)),
            ("scorer", Some(scorer)),
            ("arbiter", Some(arbiter)),
            ("chief", Some(chief)),
            ("admin", Some(admin)),
        ],
        tournament,
        section,
        entrants,
        board,
        registration,
        payment,
        spare_user,
        invitation: invitation["id"].as_str().unwrap().to_string(),
        invitation_token: invitation["token"].as_str().unwrap().to_string(),
        knockout_section,
        knockout_match,
    }
}

/// A playoff between two one-round sections of the world's tournament (each with a clear
/// winner); returns its match id. Made only for the playoff's game form.
async fn playoff_match(pool: &PgPool, w: &World) -> String {
    let chief = w
        .tokens
        .iter()
        .find(|(who, _)| *who == "chief")
        .and_then(|(_, token)| token.clone())
        .unwrap();
    let mut sections = Vec::new();
    for name in ["P1", "P2"] {
        let section = expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/tournaments/{}/sections", w.tournament),
                Some(&chief),
                Some(json!({"name": name, "rounds": 1})),
            )
            .await,
            StatusCode::CREATED,
        )["id"]
            .as_str()
            .unwrap()
            .to_string();
        crate::support::add_entrants(pool, &chief, &section, 2).await;
        let round = expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/sections/{section}/rounds"),
                Some(&chief),
                None,
            )
            .await,
            StatusCode::CREATED,
        );
        crate::support::publish(pool, &chief, &section, round["number"].as_i64().unwrap()).await;
        let board = round["boards"][0]["id"].as_str().unwrap().to_string();
        expect(
            &call(
                pool,
                "PUT",
                &format!("/api/v1/boards/{board}/result"),
                Some(&chief),
                Some(json!({"result": "red_wins"})),
            )
            .await,
            StatusCode::OK,
        );
        sections.push(section);
    }
    let playoff = call(
        pool,
        "POST",
        &format!("/api/v1/tournaments/{}/playoff", w.tournament),
        Some(&chief),
        Some(json!({"sections": sections})),
    )
    .await;
    find_match_id(&playoff.json())
        .unwrap_or_else(|| panic!("no match in the playoff: {}", playoff.text))
}

/// The first match id anywhere in a bracket.
fn find_match_id(value: &Value) -> Option<String> {
    match value {
        Value::Object(map) => {
            if let (Some(Value::String(id)), Some(_)) = (map.get("id"), map.get("games")) {
                return Some(id.clone());
            }
            map.values().find_map(find_match_id)
        }
        Value::Array(items) => items.iter().find_map(find_match_id),
        _ => None,
    }
}

/// The path with its parameters filled from `w`, and a body that passes the extractors.
fn request(w: &World, method: &str, path: &str) -> (String, Option<Value>) {
    let id = if path.starts_with("/api/v1/tournaments/{id}") {
        w.tournament.clone()
    } else if path.starts_with("/api/v1/sections/{id}/knockout") {
        w.knockout_section.clone()
    } else if path.starts_with("/api/v1/sections/{id}") {
        w.section.clone()
    } else if path.starts_with("/api/v1/entrants/{id}") || path.starts_with("/api/v1/teams/{id}") {
        w.entrants[0].clone()
    } else if path.starts_with("/api/v1/boards/{id}") {
        w.board.clone()
    } else if path.starts_with("/api/v1/registrations/{id}") {
        w.registration.clone()
    } else if path.starts_with("/api/v1/payments/{id}") {
        w.payment.clone()
    } else if path.starts_with("/api/v1/matches/{id}") {
        w.knockout_match.clone()
    } else if path.starts_with("/api/v1/users/{id}") {
        w.spare_user.clone()
    } else if path.starts_with("/api/v1/webhooks/{id}") {
        w.webhook.clone()
    } else {
        Uuid::new_v4().to_string()
    };
    let uri = path
        .replace("{id}", &id)
        .replace("{n}", "1")
        .replace("{team}", &w.entrants[0])
        .replace("{round}", "3")
        .replace("{user_id}", &w.spare_user)
        .replace("{invitation_id}", &w.invitation)
        .replace("{token}", &w.invitation_token);
    let (a, b) = (&w.entrants[0], &w.entrants[1]);
    let body = match (method, path) {
        ("POST", "/api/v1/auth/login") => json!({"username": "x", "password": "y"}),
        ("PUT", "/api/v1/boards/{id}/result") => json!({"result": "red_wins"}),
        ("PUT", "/api/v1/boards/{id}/games/{n}/result") => json!({"result": "red_wins"}),
        ("POST", "/api/v1/boards/{id}/forfeit") => json!({"forfeits": "red"}),
        ("POST", "/api/v1/sections/{id}/teams") => json!({"name": "Team"}),
        ("PUT", "/api/v1/teams/{id}") => json!({}),
        (_, p) if p.ends_with("/lineup") || p.ends_with("/lineups/{team}") => {
            json!({"round": 1, "players": []})
        }
        ("POST", "/api/v1/entrants/{id}/byes") => json!({"round": 3}),
        ("POST", "/api/v1/reports/{code}") => json!({"side": "red", "result": "red_wins"}),
        ("POST", "/api/v1/reports/{code}/record") => json!({"notation": "iccs", "text": "h2e2"}),
        ("POST", "/api/v1/keys/{key}/report") => json!({"result": "red_wins"}),
        (_, "/api/v1/keys/{key}/push") => json!({
            "endpoint": "https://push.example.org/send/1",
            "keys": {"p256dh": "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY",
                     "auth": "_ordMnz7uTCmrpBTeUV4Bw"}}),
        ("PUT", "/api/v1/sections/{id}/check-in-settings") => json!({"self_check_in": true}),
        ("PUT", "/api/v1/sections/{id}/stages") => json!({"format": "swiss"}),
        ("PUT", "/api/v1/sections/{id}/schedule") => {
            json!({"rounds": [{"round": 1, "local": "2030-01-01T09:00"}]})
        }
        ("POST", "/api/v1/tournaments/{id}/webhooks") => {
            json!({"url": "https://hooks.example.org/arbiter"})
        }
        ("POST", "/api/v1/invitations/{token}") => {
            json!({"username": format!("new-{}", Uuid::new_v4()), "password": "a long password"})
        }
        ("POST", "/api/v1/matches/{id}/games") => json!({"result": "red_wins"}),
        (_, p) if p.ends_with("/record") || p.ends_with("/record/check") => {
            json!({"notation": "iccs", "text": "h2e2"})
        }
        ("PUT", "/api/v1/me/password") => {
            json!({"current_password": "wrong", "new_password": "a new long password"})
        }
        ("POST", "/api/v1/registrations/{id}/payment") => json!({"state": "paid"}),
        ("POST", "/api/v1/registrations/{id}/refund") => json!({"method": "cash"}),
        ("POST", "/api/v1/payments/{id}/void") => json!({"reason": "mistake"}),
        ("PATCH", "/api/v1/entrants/{id}") => json!({"club": "Corrected"}),
        ("POST", "/api/v1/sections/{id}/entrants") => json!({"name": "Late"}),
        ("POST", "/api/v1/sections/{id}/check-in") => json!({"entrants": [a, b]}),
        (_, "/api/v1/sections/{id}/forbidden-pairs") => json!({"a": a, "b": b}),
        ("POST", "/api/v1/sections/{id}/knockout") => json!({"size": 4}),
        ("PUT", "/api/v1/sections/{id}/knockout/stages/{round}") => {
            json!({"capture_rule": "face_down"})
        }
        ("PUT", "/api/v1/sections/{id}/prizes") => json!({"prizes": []}),
        ("PUT", "/api/v1/tournaments/{id}/playoff/prizes") => json!({"prizes": []}),
        ("POST", "/api/v1/sections/{id}/ties") => json!({"method": "lot", "entrants": []}),
        ("POST", "/api/v1/sections/{id}/registrations") => {
            json!({"name": "Online", "email": "o@example.org", "waiver_accepted": true})
        }
        ("PUT", "/api/v1/sections/{id}/rounds/{n}/boards") => json!({"boards": []}),
        ("POST", "/api/v1/tournaments") => json!({"name": "New", "game": "xiangqi"}),
        ("POST", "/api/v1/tournaments/import") => {
            json!({"format": "arbiter-event", "version": 1, "tables": {}})
        }
        ("POST", "/api/v1/tournaments/{id}/invitations") => json!({"role": "scorer"}),
        ("POST", "/api/v1/tournaments/{id}/playoff") => json!({"sections": [w.section]}),
        ("POST", "/api/v1/tournaments/{id}/sections") => json!({"name": "B", "rounds": 3}),
        ("POST", "/api/v1/tournaments/{id}/split") => {
            json!({"section_id": w.section, "sections": ["X", "Y"]})
        }
        ("POST", "/api/v1/tournaments/{id}/staff") => {
            json!({"username": "nobody", "role": "scorer"})
        }
        ("POST", "/api/v1/users") => {
            json!({"username": format!("u-{}", Uuid::new_v4()), "password": "a long password"})
        }
        ("PATCH", "/api/v1/users/{id}") => json!({"disabled": false}),
        ("POST", "/api/v1/password-resets/{token}") => json!({"password": "a long password"}),
        ("PATCH", _) => json!({}),
        ("POST", "/api/v1/tournaments/{id}/import.trf")
        | ("POST", "/api/v1/sections/{id}/import.csv") => {
            return (uri, None);
        }
        _ => return (uri, None),
    };
    (uri, Some(body))
}

#[sqlx::test]
async fn every_write_operation_answers_each_role_as_the_table_says(pool: PgPool) {
    let doc = crate::support::get(&pool, "/api/v1/openapi.json")
        .await
        .json();
    let mut operations = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in ["post", "put", "patch", "delete"] {
            if item.get(method).is_some() {
                operations.push((method.to_uppercase(), path.clone()));
            }
        }
    }
    assert!(operations.len() >= 40, "{operations:?}");
    let mut failures = Vec::new();
    for (n, (method, path)) in operations.iter().enumerate() {
        let who = rule(method, path);
        // A fresh tournament per operation: what one actor changes does not decide another's
        // answer.
        let w = world(&pool, n).await;
        for (actor, token) in &w.tokens {
            let (uri, body) = request(&w, method, path);
            let reply: Reply = call(&pool, method, &uri, token.as_deref(), body).await;
            let status = reply.status;
            // Signing in answers 401 to wrong credentials: that is its job, not a refusal.
            let public = who == Who::Public;
            let ok = if allowed(who, actor) {
                (public || status != StatusCode::UNAUTHORIZED)
                    && status != StatusCode::FORBIDDEN
                    && !status.is_server_error()
            } else if *actor == "anonymous" {
                status == StatusCode::UNAUTHORIZED
            } else {
                status == StatusCode::FORBIDDEN
            };
            eprintln!("{method} {path} as {actor}: {status}");
            if !ok {
                failures.push(format!(
                    "{method} {path} as {actor} ({who:?}): {status} {}",
                    reply.text.chars().take(200).collect::<String>()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Who may post each dashboard form (path with parameters in braces).
const FORMS: &[(&str, Who)] = &[
    ("/admin/tournaments", Who::SignedIn),
    ("/admin/tournaments/import", Who::Organiser),
    ("/admin/t/{t}/sections", Who::Arbiter),
    ("/admin/t/{t}/import-trf", Who::Arbiter),
    ("/admin/t/{t}/edit", Who::Arbiter),
    ("/admin/t/{t}/status", Who::Arbiter),
    ("/admin/t/{t}/playoff", Who::Arbiter),
    ("/admin/t/{t}/notifications", Who::Arbiter),
    ("/admin/t/{t}/staff", Who::Chief),
    ("/admin/t/{t}/staff/{u}/remove", Who::Chief),
    ("/admin/t/{t}/invitations", Who::Chief),
    ("/admin/t/{t}/invitations/{i}/withdraw", Who::Chief),
    ("/admin/s/{s}/entrants", Who::Arbiter),
    ("/admin/s/{s}/entrants/{e}/withdraw", Who::Arbiter),
    ("/admin/s/{s}/entrants/{e}/readmit", Who::Arbiter),
    ("/admin/s/{s}/entrants/{e}/check-in", Who::Arbiter),
    ("/admin/s/{s}/entrants/{e}/check-out", Who::Arbiter),
    ("/admin/s/{s}/check-in", Who::Arbiter),
    ("/admin/s/{s}/check-in/number", Who::Arbiter),
    ("/admin/s/{s}/registrations/{r}/confirm", Who::Arbiter),
    ("/admin/s/{s}/registrations/{r}/payment", Who::Arbiter),
    ("/admin/s/{s}/registrations/{r}/withdraw", Who::Arbiter),
    ("/admin/s/{s}/registrations/{r}/refund", Who::Arbiter),
    ("/admin/s/{s}/payments/{y}/void", Who::Arbiter),
    ("/admin/s/{s}/entrants/{e}/edit", Who::Arbiter),
    ("/admin/s/{s}/rounds", Who::Arbiter),
    ("/admin/s/{s}/rounds/1/publish", Who::Arbiter),
    ("/admin/s/{s}/rounds/1/clock", Who::Arbiter),
    ("/admin/s/{s}/rounds/1/unpair", Who::Arbiter),
    ("/admin/s/{s}/rounds/1/results", Who::Scorer),
    ("/admin/boards/{b}/result", Who::Scorer),
    ("/admin/s/{s}/entrants/{e}/key", Who::Arbiter),
    ("/admin/boards/{b}/reports/accept", Who::Scorer),
    ("/admin/boards/{b}/reports/dismiss", Who::Scorer),
    ("/r/{code}", Who::Public),
    ("/r/{code}/record", Who::Public),
    ("/admin/boards/{b}/record", Who::Scorer),
    ("/admin/boards/{b}/record/check", Who::Scorer),
    ("/admin/matches/{m}/games/1/record", Who::Scorer),
    ("/admin/matches/{m}/games/1/record/check", Who::Scorer),
    ("/admin/s/{k}/knockout", Who::Arbiter),
    ("/admin/s/{k}/knockout/matches/{m}/games", Who::Scorer),
    ("/admin/s/{k}/knockout/stages/1", Who::Arbiter),
    ("/admin/t/{t}/playoff/matches/{p}/games", Who::Scorer),
    ("/admin/t/{t}/playoff/prizes", Who::Arbiter),
    ("/admin/s/{s}/import", Who::Arbiter),
    ("/admin/s/{s}/prizes", Who::Arbiter),
    ("/admin/s/{s}/settings", Who::Arbiter),
    ("/admin/s/{s}/schedule", Who::Arbiter),
    ("/admin/s/{s}/stages", Who::Arbiter),
    ("/admin/s/{s}/ties", Who::Arbiter),
    ("/admin/s/{s}/byes", Who::Arbiter),
    ("/admin/s/{s}/byes/{e}/3/cancel", Who::Arbiter),
    ("/admin/s/{s}/forbidden-pairs", Who::Arbiter),
    ("/admin/s/{s}/forbidden-pairs/remove", Who::Arbiter),
    ("/admin/s/{s}/rounds/1/edit", Who::Arbiter),
    // The editor's swap of two players (the same form, `action=swap`): saves nothing, but
    // only for those who may save the pairing.
    ("/admin/s/{s}/rounds/1/edit?swap", Who::Arbiter),
    ("/admin/users", Who::Admin),
    ("/admin/users/{u}/disable", Who::Admin),
    ("/admin/users/{u}/enable", Who::Admin),
    ("/admin/users/{u}/delete", Who::Admin),
    ("/admin/users/{u}/reset", Who::Admin),
    ("/account/password", Who::SignedIn),
    ("/account/sessions/{x}/end", Who::SignedIn),
    ("/account/sessions/end-all", Who::SignedIn),
    ("/invite/{token}", Who::Public),
];

/// A form's fields (besides the CSRF token) that get it past parsing.
fn form_fields(w: &World, path: &str) -> Vec<(String, String)> {
    let pairs: &[(&str, &str)] = match path {
        "/admin/tournaments" => &[("name", "Form Cup"), ("game", "xiangqi")],
        "/admin/t/{t}/sections" => &[("name", "B"), ("rounds", "3")],
        "/admin/t/{t}/edit" => &[
            ("name", "Form Cup"),
            ("game", "xiangqi"),
            ("time_zone", "Asia/Taipei"),
            ("status", "registration"),
        ],
        "/admin/t/{t}/status" => &[("status", "registration")],
        "/admin/t/{t}/staff" => &[("username", "nobody"), ("role", "scorer")],
        "/admin/t/{t}/invitations" => &[("role", "scorer"), ("minutes", "60")],
        "/admin/s/{s}/entrants" => &[("name", "Late")],
        "/admin/s/{s}/check-in/number" => &[("no", "1")],
        "/admin/s/{s}/entrants/{e}/edit" => &[("name", "Corrected")],
        "/admin/s/{s}/registrations/{r}/refund" => &[("method", "cash")],
        "/admin/boards/{b}/result"
        | "/admin/s/{k}/knockout/matches/{m}/games"
        | "/admin/t/{t}/playoff/matches/{p}/games"
        | "/admin/t/{t}/playoff/matches/{m}/games" => &[("result", "red_wins")],
        "/admin/s/{s}/rounds/1/results" => &[("line", "1 1")],
        "/admin/boards/{b}/record"
        | "/admin/boards/{b}/record/check"
        | "/admin/matches/{m}/games/1/record"
        | "/admin/matches/{m}/games/1/record/check" => &[("notation", "iccs"), ("text", "h2e2")],
        "/admin/s/{k}/knockout" => &[("size", "4")],
        "/admin/s/{s}/byes" => &[("bye_round", "3")],
        "/admin/s/{s}/registrations/{r}/payment" => &[("state", "paid"), ("method", "cash")],
        "/admin/s/{s}/ties" => &[("method", "lot"), ("entrants", "")],
        "/admin/users" => &[("username", "form-user"), ("password", "a long password")],
        "/account/password" => &[
            ("current_password", "wrong"),
            ("new_password", "a new long password"),
        ],
        _ => &[],
    };
    let mut fields: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    match path {
        "/admin/s/{s}/byes" => fields.push(("bye_entrant".into(), w.entrants[0].clone())),
        "/admin/s/{s}/check-in" => fields.push(("entrant".into(), w.entrants[0].clone())),
        "/admin/s/{s}/forbidden-pairs" => {
            fields.push(("pair_a".into(), w.entrants[0].clone()));
            fields.push(("pair_b".into(), w.entrants[1].clone()));
        }
        "/admin/s/{s}/forbidden-pairs/remove" => {
            fields.push(("a".into(), w.entrants[0].clone()));
            fields.push(("b".into(), w.entrants[1].clone()));
        }
        "/admin/boards/{b}/result"
        | "/admin/boards/{b}/reports/accept"
        | "/admin/boards/{b}/reports/dismiss" => {
            fields.push(("section_id".into(), w.section.clone()))
        }
        "/r/{code}" => {
            fields.push(("side".into(), "red".into()));
            fields.push(("result".into(), "red_wins".into()));
        }
        "/r/{code}/record" => {
            fields.push(("notation".into(), "iccs".into()));
            fields.push(("text".into(), "h2e2".into()));
        }
        "/admin/t/{t}/playoff" => fields.push(("sections".into(), w.section.clone())),
        "/admin/s/{s}/rounds/1/edit?swap" => {
            fields.push(("action".into(), "swap".into()));
            fields.push(("swap_a".into(), w.entrants[0].clone()));
            fields.push(("swap_b".into(), w.entrants[1].clone()));
        }
        "/invite/{token}" => {
            fields.push(("username".into(), format!("new-{}", Uuid::new_v4())));
            fields.push(("password".into(), "a long password".into()));
        }
        _ => {}
    }
    fields
}

fn form_uri(w: &World, path: &str) -> String {
    path.replace("{t}", &w.tournament)
        .replace("{s}", &w.section)
        .replace("{k}", &w.knockout_section)
        .replace("{m}", &w.knockout_match)
        .replace("{u}", &w.spare_user)
        .replace("{i}", &w.invitation)
        .replace("{e}", &w.entrants[0])
        .replace("{r}", &w.registration)
        .replace("{y}", &w.payment)
        .replace("{b}", &w.board)
        .replace("{x}", &Uuid::new_v4().to_string())
        .replace("{token}", &w.invitation_token)
        .replace("{code}", "0123-4567-89AB")
}

#[sqlx::test]
async fn every_dashboard_form_answers_each_role_as_the_table_says(pool: PgPool) {
    use crate::support::{csrf_of, Browser};
    let mut failures = Vec::new();
    for (n, (path, who)) in FORMS.iter().enumerate() {
        let w = world(&pool, n).await;
        let playoff = if path.contains("{p}") {
            playoff_match(&pool, &w).await
        } else {
            String::new()
        };
        for (actor, _) in &w.tokens {
            let mut browser = Browser::new(&pool);
            if *actor != "anonymous" {
                browser
                    .log_in(&format!("{actor}-{n}"), "a long password")
                    .await;
            }
            let page = browser.get("/login").await;
            let csrf = if *actor == "anonymous" {
                csrf_of(&page.text)
            } else {
                csrf_of(&browser.get("/account").await.text)
            };
            let uri = form_uri(&w, path).replace("{p}", &playoff);
            let mut fields = vec![("csrf".to_string(), csrf)];
            fields.extend(form_fields(&w, path));
            let borrowed: Vec<(&str, &str)> = fields
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            let reply = if path.ends_with("/import") || path.ends_with("/import-trf") {
                browser.post_multipart(&uri, &borrowed, None).await
            } else {
                browser.post_form(&uri, &borrowed).await
            };
            let status = reply.status;
            let to_login = status == StatusCode::SEE_OTHER
                && reply
                    .headers
                    .get("location")
                    .and_then(|l| l.to_str().ok())
                    .is_some_and(|l| l.starts_with("/login"));
            // Logging out everywhere ends at the login page: that is its success.
            let to_login =
                to_login && !(*path == "/account/sessions/end-all" && *actor != "anonymous");
            let ok = if allowed(*who, actor) {
                status != StatusCode::FORBIDDEN && !to_login && !status.is_server_error()
            } else if *actor == "anonymous" {
                to_login
            } else {
                status == StatusCode::FORBIDDEN
            };
            eprintln!("POST {path} as {actor}: {status}");
            if !ok {
                failures.push(format!(
                    "POST {path} as {actor} ({who:?}): {status} {}",
                    reply.text.chars().take(300).collect::<String>()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
