//! Game records (issue #18): entered at the desk, checked move by move (Jieqi against the
//! round's set-up), shown on the public board page, exported as PGN that reads back.

use crate::support::{
    call, csrf_of, expect, get, location, token_for, tournament_with_section, Browser,
};
use arbiter_core::game::record::tokens;
use arbiter_core::game::{Notation, Position, Record, Script};
use arbiter_core::setup::Setup;
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// A tournament of `game` with one section of two entrants and round 1 paired; returns
/// (chief's token, section id, board id). The chief's login is `chief-rec`.
async fn one_board(pool: &PgPool, game: &str, publish: bool) -> (String, String, String) {
    let token = token_for(pool, "chief-rec", "user").await;
    let (_, section) = tournament_with_section(pool, &token, game, json!({"rounds": 3})).await;
    crate::support::add_entrants(pool, &token, &section, 2).await;
    let round = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{section}/rounds"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    if publish {
        expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/sections/{section}/rounds/1/publish"),
                Some(&token),
                None,
            )
            .await,
            StatusCode::OK,
        );
    }
    let board = round["boards"][0]["id"].as_str().unwrap().to_string();
    (token, section, board)
}

fn iccs_of(record: &Value) -> Vec<String> {
    record["replay"]["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["iccs"].as_str().unwrap().to_string())
        .collect()
}

async fn desk_browser(pool: &PgPool) -> Browser {
    let mut browser = Browser::new(pool);
    browser.log_in("chief-rec", "a long password").await;
    browser
}

#[sqlx::test]
async fn a_record_entered_at_the_desk_in_chinese_is_stored_and_replayed(pool: PgPool) {
    let (_, section, board) = one_board(&pool, "xiangqi", true).await;
    let mut browser = desk_browser(&pool).await;
    browser.accept_language = Some("zh-CN".into());
    let page = browser.get(&format!("/admin/boards/{board}/record")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains("record-text"), "{}", page.text);
    let csrf = csrf_of(&page.text);
    // Checking (without script) shows what is read and stores nothing.
    let checked = browser
        .post_form(
            &format!("/admin/boards/{board}/record"),
            &[
                ("csrf", &csrf),
                ("notation", "chinese"),
                ("text", "1. 炮二平五 马8进7 2. 马二进三 車9平8"),
                ("version", "0"),
                ("action", "check"),
            ],
        )
        .await;
    assert_eq!(checked.status, StatusCode::OK, "{}", checked.text);
    assert!(checked.text.contains("h0g2"), "{}", checked.text);
    assert_eq!(
        get(&pool, &format!("/api/v1/boards/{board}/record"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let saved = browser
        .post_form(
            &format!("/admin/boards/{board}/record"),
            &[
                ("csrf", &csrf),
                ("notation", "chinese"),
                ("text", "1. 炮二平五 马8进7 2. 马二进三 車9平8"),
                ("version", "0"),
                ("action", "save"),
            ],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    assert!(location(&saved).ends_with("?done=saved"));
    let record = expect(
        &get(&pool, &format!("/api/v1/boards/{board}/record")).await,
        StatusCode::OK,
    );
    assert_eq!(iccs_of(&record), ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert_eq!(record["notation"], "chinese");
    assert_eq!(record["version"], 1);
    assert!(
        record.get("source").is_none(),
        "the typed text is the staff's"
    );
    // The audit log has it.
    let audited: i64 = sqlx::query_scalar(
        "select count(*) from audit_event where action = 'record' and entity = 'game'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(audited, 1);
    // The public board page: Chinese notation for Chinese readers, WXF for English ones.
    let public = get(&pool, &format!("/s/{section}/games/1/1?lang=zh-Hans")).await;
    assert_eq!(public.status, StatusCode::OK, "{}", public.text);
    assert!(public.text.contains("炮二平五"), "{}", public.text);
    assert!(public.text.contains("<svg"), "{}", public.text);
    assert!(public.text.contains("data-fen="));
    // Both players' names link to their pages (issue #16).
    assert_eq!(
        public
            .text
            .matches(&format!(r#"href="/s/{section}/p/"#))
            .count(),
        2,
        "{}",
        public.text
    );
    let english = get(&pool, &format!("/s/{section}/games/1/1?lang=en")).await;
    assert!(english.text.contains("C2.5"), "{}", english.text);
    let iccs = get(
        &pool,
        &format!("/s/{section}/games/1/1?lang=en&notation=iccs"),
    )
    .await;
    assert!(iccs.text.contains(">h2e2<"), "{}", iccs.text);
    let traditional = get(&pool, &format!("/s/{section}/games/1/1?lang=zh-Hant")).await;
    assert!(traditional.text.contains("馬8進7"), "{}", traditional.text);
    // A position in the middle, without script.
    let middle = get(&pool, &format!("/s/{section}/games/1/1?lang=en&ply=1")).await;
    assert!(middle.text.contains(r#"data-shown="1""#), "{}", middle.text);
    // Linked from the pairings and the crosstable.
    let pairings = get(&pool, &format!("/s/{section}/pairings/1")).await;
    assert!(pairings.text.contains(&format!("/s/{section}/games/1/1")));
    let crosstable = get(&pool, &format!("/s/{section}/crosstable")).await;
    assert!(crosstable.text.contains(&format!("/s/{section}/games/1/1")));
    // A move list in ICCS and in Chinese.
    let list = get(
        &pool,
        &format!("/api/v1/boards/{board}/moves.txt?format=chinese"),
    )
    .await;
    assert_eq!(list.status, StatusCode::OK);
    assert_eq!(list.text, "1. 炮二平五 马8进7\n2. 马二进三 车9平8\n");
}

#[sqlx::test]
async fn an_illegal_move_is_refused_with_its_ply(pool: PgPool) {
    let (token, _, board) = one_board(&pool, "xiangqi", true).await;
    let bad = json!({"notation": "iccs", "text": "h2e2 h9g7 a0a5"});
    let refused = call(
        &pool,
        "PUT",
        &format!("/api/v1/boards/{board}/record"),
        Some(&token),
        Some(bad.clone()),
    )
    .await;
    let body = expect(&refused, StatusCode::UNPROCESSABLE_ENTITY);
    let message = body["message"].as_str().unwrap();
    assert!(message.starts_with("ply 3:"), "{message}");
    assert!(message.contains("a0a5"), "{message}");
    assert!(body["errors"]["text"].is_array(), "{body}");
    // The check answers where it stops and what was read before.
    let checked = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/boards/{board}/record/check"),
            Some(&token),
            Some(bad),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(checked["error"]["ply"], 3);
    assert_eq!(checked["error"]["kind"], "illegal");
    assert_eq!(checked["plies"].as_array().unwrap().len(), 2);
    assert!(checked["plies"][1]["fen"].as_str().unwrap().contains(" w "));
    // The desk form shows it in the visitor's language, next to the field (422).
    let mut browser = desk_browser(&pool).await;
    browser.accept_language = Some("zh-TW".into());
    let page = browser.get(&format!("/admin/boards/{board}/record")).await;
    let csrf = csrf_of(&page.text);
    let form = browser
        .post_form(
            &format!("/admin/boards/{board}/record"),
            &[
                ("csrf", &csrf),
                ("notation", "iccs"),
                ("text", "h2e2 h9g7 a0a5"),
                ("version", "0"),
                ("action", "save"),
            ],
        )
        .await;
    assert_eq!(
        form.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        form.text
    );
    assert!(form.text.contains("第 3 步"), "{}", form.text);
    assert!(
        form.text.contains(r#"aria-invalid="true""#),
        "{}",
        form.text
    );
    // Hostile input: too many half-moves, too many bytes.
    let long = "h2e2 h9g7 h0g2 b9c7 ".repeat(151);
    let too_long = call(
        &pool,
        "PUT",
        &format!("/api/v1/boards/{board}/record"),
        Some(&token),
        Some(json!({"notation": "iccs", "text": long})),
    )
    .await;
    let body = expect(&too_long, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body["errors"]["text"][0].as_str().unwrap().contains("600"));
    let huge = call(
        &pool,
        "PUT",
        &format!("/api/v1/boards/{board}/record"),
        Some(&token),
        Some(json!({"notation": "iccs", "text": "x".repeat(20_000)})),
    )
    .await;
    expect(&huge, StatusCode::UNPROCESSABLE_ENTITY);
    let notation = call(
        &pool,
        "PUT",
        &format!("/api/v1/boards/{board}/record"),
        Some(&token),
        Some(json!({"notation": "banqi", "text": "h2e2"})),
    )
    .await;
    expect(&notation, StatusCode::UNPROCESSABLE_ENTITY);
}

#[sqlx::test]
async fn versions_are_compared_and_unpublished_rounds_stay_with_the_staff(pool: PgPool) {
    let (token, section, board) = one_board(&pool, "xiangqi", false).await;
    let put = |body: Value, if_match: Option<&'static str>| {
        let pool = pool.clone();
        let token = token.clone();
        let board = board.clone();
        async move {
            let mut request = axum::http::Request::put(format!("/api/v1/boards/{board}/record"))
                .header("authorization", format!("Bearer {token}"))
                .header("content-type", "application/json");
            if let Some(v) = if_match {
                request = request.header("if-match", v);
            }
            crate::support::send(
                &pool,
                request
                    .body(axum::body::Body::from(body.to_string()))
                    .unwrap(),
            )
            .await
        }
    };
    let first = put(json!({"notation": "iccs", "text": "h2e2"}), Some("\"0\"")).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.headers.get("etag").unwrap(), "\"1\"");
    let stale = put(
        json!({"notation": "iccs", "text": "h2e2 h9g7"}),
        Some("\"0\""),
    )
    .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    let second = put(
        json!({"notation": "iccs", "text": "h2e2 h9g7"}),
        Some("\"1\""),
    )
    .await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    // Round 1 is paired, not published: the public sees no record, the staff do.
    assert_eq!(
        get(&pool, &format!("/api/v1/boards/{board}/record"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&pool, &format!("/s/{section}/games/1/1")).await.status,
        StatusCode::NOT_FOUND
    );
    let staff = call(
        &pool,
        "GET",
        &format!("/api/v1/boards/{board}/record"),
        Some(&token),
        None,
    )
    .await;
    let body = expect(&staff, StatusCode::OK);
    assert_eq!(body["source"], "h2e2 h9g7");
    assert_eq!(body["version"], 2);
}

#[sqlx::test]
async fn a_jieqi_reveal_contradicting_the_setup_is_refused(pool: PgPool) {
    let (token, section, board) = one_board(&pool, "jieqi", true).await;
    let setup = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{section}/rounds/1/setup"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let canonical = setup["setup"].as_str().unwrap();
    let Setup::Jieqi(jieqi) = Setup::parse_canonical(canonical).unwrap() else {
        panic!("not a Jieqi set-up: {canonical}");
    };
    // b0 is Red's second starting square; its face-down piece moves as a horse (b0c2).
    let actual = jieqi.red[1].letter();
    let wrong = if actual == 'R' { 'H' } else { 'R' };
    let refused = call(
        &pool,
        "PUT",
        &format!("/api/v1/boards/{board}/record"),
        Some(&token),
        Some(json!({"notation": "iccs", "text": format!("b0c2{wrong}")})),
    )
    .await;
    let body = expect(&refused, StatusCode::UNPROCESSABLE_ENTITY);
    let message = body["message"].as_str().unwrap();
    assert!(message.starts_with("ply 1:"), "{message}");
    assert!(
        message.contains(&format!("the set-up put {actual} there")),
        "{message}"
    );
    // In Chinese too: 马二进三 with the wrong piece at the end.
    let checked = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/boards/{board}/record/check"),
            Some(&token),
            Some(json!({"notation": "iccs", "text": format!("h2e2 b9c7{wrong} b0c2{actual}")})),
        )
        .await,
        StatusCode::OK,
    );
    let black_actual = jieqi.black[1].letter();
    if black_actual != wrong {
        assert_eq!(checked["error"]["ply"], 2, "{checked}");
        assert_eq!(checked["error"]["kind"], "wrong_reveal");
    }
    // The right piece, or none (the set-up fills it in), is accepted.
    let saved = call(
        &pool,
        "PUT",
        &format!("/api/v1/boards/{board}/record"),
        Some(&token),
        Some(json!({"notation": "iccs", "text": format!("b0c2{actual} b9c7")})),
    )
    .await;
    expect(&saved, StatusCode::OK);
    // The staff see the reveals (the public once the set-up is: `hidden_records.rs`).
    let record = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/boards/{board}/record"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let moves = iccs_of(&record);
    assert_eq!(moves[0], format!("b0c2{actual}"));
    assert_eq!(
        moves[1],
        format!("b9c7{}", jieqi.black[1].letter()),
        "the reveal comes from the set-up"
    );
    // Until the round is complete the public page keeps the other pieces face down.
    let page = get(&pool, &format!("/s/{section}/games/1/1?lang=en")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains(r#"data-hidden="""#), "{}", page.text);
    assert!(page.text.contains("pc down"), "{}", page.text);
    // Once the round is complete the set-up is public: the diagram hints the face-down pieces.
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{board}/result"),
            Some(&token),
            Some(json!({"result": "draw"})),
        )
        .await,
        StatusCode::OK,
    );
    let page = get(&pool, &format!("/s/{section}/games/1/1?lang=en")).await;
    assert!(page.text.contains(r#"data-hidden="a0:"#), "{}", page.text);
    assert!(page.text.contains(r#"class="hint""#), "{}", page.text);
    // The PGN names the variant and its start.
    let pgn = get(&pool, &format!("/api/v1/boards/{board}/record.pgn")).await;
    assert!(pgn.text.contains("[Variant \"Jieqi\"]"), "{}", pgn.text);
    assert!(pgn.text.contains("[FEN \"xxxxkxxxx/"), "{}", pgn.text);
}

/// The moves of a PGN's movetext, tags and result left out.
fn pgn_moves(pgn: &str) -> Vec<String> {
    let movetext: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    tokens(&movetext).into_iter().map(str::to_string).collect()
}

#[sqlx::test]
async fn the_pgn_export_reads_back_to_the_same_moves(pool: PgPool) {
    let (token, section, board) = one_board(&pool, "xiangqi", true).await;
    let text = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 g3g4 c6c5 b0c2 b7b3";
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{board}/record"),
            Some(&token),
            Some(json!({"notation": "iccs", "text": text})),
        )
        .await,
        StatusCode::OK,
    );
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{board}/result"),
            Some(&token),
            Some(json!({"result": "red_wins"})),
        )
        .await,
        StatusCode::OK,
    );
    let stored: Vec<String> = text.split(' ').map(str::to_string).collect();
    for (format, notation) in [
        ("iccs", Notation::Iccs),
        ("chinese", Notation::Chinese),
        ("wxf", Notation::Wxf),
    ] {
        let reply = get(
            &pool,
            &format!("/api/v1/boards/{board}/record.pgn?format={format}"),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let pgn = reply.text;
        assert!(pgn.starts_with("[Game \"Chinese Chess\"]\n"), "{pgn}");
        assert!(pgn.contains("[Red \"P1\"]\n[Black \"P2\"]\n"), "{pgn}");
        assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
        assert!(
            !pgn.contains("[FEN"),
            "the start position needs no FEN: {pgn}"
        );
        assert!(pgn.trim_end().ends_with("1-0"), "{pgn}");
        let moves = pgn_moves(&pgn);
        let record = Record::replay(
            Position::xiangqi_start(),
            moves.iter().map(String::as_str),
            notation,
        )
        .unwrap_or_else(|e| panic!("{format}: {e}\n{pgn}"));
        assert_eq!(
            record.format(Notation::Iccs, Script::Simplified),
            stored,
            "{format}"
        );
    }
    // The round's PGN holds the game too.
    let round = get(
        &pool,
        &format!("/api/v1/sections/{section}/rounds/1/records.pgn"),
    )
    .await;
    assert_eq!(round.status, StatusCode::OK, "{}", round.text);
    assert!(round.text.contains("[Round \"1\"]"), "{}", round.text);
    assert_eq!(pgn_moves(&round.text).len(), 10);
}

#[sqlx::test]
async fn the_banqi_desk_shows_the_move_count_and_the_chases(pool: PgPool) {
    let (token, _, board) = one_board(&pool, "banqi", true).await;
    let checked = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/boards/{board}/record/check"),
            Some(&token),
            Some(json!({"notation": "banqi", "text": "a1 h4"})),
        )
        .await,
        StatusCode::OK,
    );
    assert!(checked["error"].is_null(), "{checked}");
    assert_eq!(checked["banqi"]["all_face_up"], false);
    assert_eq!(checked["banqi"]["chase_red"], 0);
    assert!(checked["plies"][0]["iccs"]
        .as_str()
        .unwrap()
        .starts_with("a1="));
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{board}/record"),
            Some(&token),
            Some(json!({"notation": "banqi", "text": "a1 h4"})),
        )
        .await,
        StatusCode::OK,
    );
    let mut browser = desk_browser(&pool).await;
    browser.accept_language = Some("en".into());
    let page = browser.get(&format!("/admin/boards/{board}/record")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains("25-move count"), "{}", page.text);
    assert!(
        page.text.contains("Consecutive chases by Red"),
        "{}",
        page.text
    );
    assert!(page.text.contains("bq-board"), "{}", page.text);
}

#[sqlx::test]
async fn a_knockout_game_has_its_record_too(pool: PgPool) {
    let token = token_for(&pool, "chief-rec", "user").await;
    let (_, section) =
        tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 1})).await;
    crate::support::add_entrants(&pool, &token, &section, 4).await;
    crate::support::play_round(&pool, &token, &section, |_| "red_wins").await;
    let bracket = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{section}/knockout"),
            Some(&token),
            Some(json!({"size": 4})),
        )
        .await,
        StatusCode::CREATED,
    );
    let m = bracket["matches"][0]["id"].as_str().unwrap().to_string();
    let path = format!("/api/v1/matches/{m}/games/1/record");
    // No game 1 yet.
    let early = call(
        &pool,
        "PUT",
        &path,
        Some(&token),
        Some(json!({"notation": "iccs", "text": "h2e2"})),
    )
    .await;
    expect(&early, StatusCode::NOT_FOUND);
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/matches/{m}/games"),
            Some(&token),
            Some(json!({"result": "red_wins"})),
        )
        .await,
        StatusCode::OK,
    );
    expect(
        &call(
            &pool,
            "PUT",
            &path,
            Some(&token),
            Some(json!({"notation": "wxf", "text": "C2.5 H8+7"})),
        )
        .await,
        StatusCode::OK,
    );
    let record = expect(&get(&pool, &path).await, StatusCode::OK);
    assert_eq!(iccs_of(&record), ["h2e2", "h9g7"]);
    let pgn = get(&pool, &format!("/api/v1/matches/{m}/games/1/record.pgn")).await;
    assert_eq!(pgn.status, StatusCode::OK, "{}", pgn.text);
    assert!(pgn.text.contains("[Round \"1.1.1\"]"), "{}", pgn.text);
    assert!(pgn.text.contains("[Result \"1-0\"]"), "{}", pgn.text);
    let mut browser = desk_browser(&pool).await;
    let desk = browser
        .get(&format!("/admin/matches/{m}/games/1/record?lang=en"))
        .await;
    assert_eq!(desk.status, StatusCode::OK, "{}", desk.text);
    assert!(desk.text.contains("C2.5 H8+7"), "{}", desk.text);
    let knockout = browser.get(&format!("/admin/s/{section}/knockout")).await;
    assert!(
        knockout
            .text
            .contains(&format!("/admin/matches/{m}/games/1/record")),
        "{}",
        knockout.text
    );
    // The public replay of a knockout game, linked from the public bracket.
    let public_url = format!("/s/{section}/bracket/{m}/games/1");
    let bracket = get(&pool, &format!("/s/{section}/bracket?lang=en")).await;
    assert!(bracket.text.contains(&public_url), "{}", bracket.text);
    let replay = get(&pool, &format!("{public_url}?lang=en")).await;
    assert_eq!(replay.status, StatusCode::OK, "{}", replay.text);
    assert!(replay.text.contains("C2.5"), "{}", replay.text);
    assert!(replay.text.contains("<svg"), "{}", replay.text);
    assert!(
        replay
            .text
            .contains(&format!("/api/v1/matches/{m}/games/1/record.pgn")),
        "{}",
        replay.text
    );
    let chinese = get(&pool, &format!("{public_url}?lang=zh-Hant")).await;
    assert!(chinese.text.contains("炮二平五"), "{}", chinese.text);
    // A game not played yet, and a match of another section, are not found.
    assert_eq!(
        get(&pool, &format!("/s/{section}/bracket/{m}/games/2"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let (_, other) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 1})).await;
    assert_eq!(
        get(&pool, &format!("/s/{other}/bracket/{m}/games/1"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    // Deleted at the API: the version is compared, then the record is gone and audited.
    let delete = |version: &'static str| {
        let pool = pool.clone();
        let token = token.clone();
        let path = path.clone();
        async move {
            crate::support::send(
                &pool,
                axum::http::Request::delete(path)
                    .header("authorization", format!("Bearer {token}"))
                    .header("if-match", version)
                    .body(axum::body::Body::empty())
                    .unwrap(),
            )
            .await
        }
    };
    let stale = delete("\"7\"").await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text);
    let deleted = delete("\"1\"").await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    expect(&get(&pool, &path).await, StatusCode::NOT_FOUND);
    assert_eq!(get(&pool, &public_url).await.status, StatusCode::NOT_FOUND);
    let again = delete("\"1\"").await;
    assert_eq!(again.status, StatusCode::NOT_FOUND, "{}", again.text);
    let audited: i64 = sqlx::query_scalar(
        "select count(*) from audit_event where action = 'delete_record' and entity = 'game'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(audited, 1);
}

#[sqlx::test]
async fn the_desk_deletes_a_record_once_confirmed(pool: PgPool) {
    let (_, section, board) = one_board(&pool, "xiangqi", true).await;
    let mut browser = desk_browser(&pool).await;
    let url = format!("/admin/boards/{board}/record");
    let page = browser.get(&format!("{url}?lang=en")).await;
    let csrf = csrf_of(&page.text);
    assert!(
        !page.text.contains("record-delete"),
        "nothing to delete yet"
    );
    let saved = browser
        .post_form(
            &url,
            &[
                ("csrf", &csrf),
                ("notation", "iccs"),
                ("text", "h2e2 h9g7"),
                ("version", "0"),
                ("action", "save"),
            ],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text);
    let page = browser.get(&format!("{url}?lang=en")).await;
    assert!(page.text.contains("record-delete"), "{}", page.text);
    // Without the ticked box nothing is deleted, and the page says why.
    let unconfirmed = browser
        .post_form(
            &format!("{url}?lang=en"),
            &[("csrf", &csrf), ("version", "1"), ("action", "delete")],
        )
        .await;
    assert_eq!(
        unconfirmed.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        unconfirmed.text
    );
    assert!(
        unconfirmed.text.contains("Tick the box"),
        "{}",
        unconfirmed.text
    );
    expect(
        &get(&pool, &format!("/api/v1/boards/{board}/record")).await,
        StatusCode::OK,
    );
    let deleted = browser
        .post_form(
            &url,
            &[
                ("csrf", &csrf),
                ("version", "1"),
                ("confirm", "1"),
                ("action", "delete"),
            ],
        )
        .await;
    assert_eq!(deleted.status, StatusCode::SEE_OTHER, "{}", deleted.text);
    assert!(location(&deleted).ends_with("?done=deleted"));
    expect(
        &get(&pool, &format!("/api/v1/boards/{board}/record")).await,
        StatusCode::NOT_FOUND,
    );
    // The pairings no longer link a record.
    let pairings = get(&pool, &format!("/s/{section}/pairings/1")).await;
    assert!(!pairings.text.contains(&format!("/s/{section}/games/1/1")));
}
