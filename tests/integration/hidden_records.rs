//! Issue #35 (1): no oracle on hidden pieces. A player's record upload of a Jieqi or Banqi
//! game gets one fixed answer, whatever it says, while the round's set-up is unrevealed; a
//! stored record's moves (which name the pieces revealed) are kept from the public until the
//! set-up is public; the staff see them at once.

use crate::support::{call, expect, get, token_for, tournament_with_section, Reply};
use arbiter_core::setup::Setup;
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// A tournament of `game` with one section of two entrants and round 1 paired and published;
/// returns (chief's token, section id, board id, report code).
async fn one_board(pool: &PgPool, game: &str) -> (String, String, String, String) {
    let token = token_for(pool, "chief-hidden", "user").await;
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
    let board = round["boards"][0]["id"].as_str().unwrap().to_string();
    let code =
        sqlx::query_scalar::<_, String>("select report_code from board where board_id = $1::uuid")
            .bind(&board)
            .fetch_one(pool)
            .await
            .unwrap();
    (token, section, board, code)
}

async fn setup_of(pool: &PgPool, token: &str, section: &str) -> Setup {
    let setup = expect(
        &call(
            pool,
            "GET",
            &format!("/api/v1/sections/{section}/rounds/1/setup"),
            Some(token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    Setup::parse_canonical(setup["setup"].as_str().unwrap()).unwrap()
}

async fn upload(pool: &PgPool, code: &str, notation: &str, text: &str) -> Reply {
    call(
        pool,
        "POST",
        &format!("/api/v1/reports/{code}/record"),
        None,
        Some(json!({"notation": notation, "text": text})),
    )
    .await
}

/// What of an answer could tell one upload from another: status, the headers a client reads,
/// the body byte for byte.
fn answer(reply: &Reply) -> (StatusCode, String, Option<String>, String) {
    (
        reply.status,
        reply.content_type.clone(),
        reply
            .headers
            .get("content-length")
            .map(|v| v.to_str().unwrap().to_string()),
        reply.text.clone(),
    )
}

/// Every text is answered exactly as the first; returns that answer.
async fn all_alike(
    pool: &PgPool,
    code: &str,
    notation: &str,
    texts: &[String],
) -> (StatusCode, String, Option<String>, String) {
    let first = answer(&upload(pool, code, notation, &texts[0]).await);
    for text in &texts[1..] {
        let reply = upload(pool, code, notation, text).await;
        assert_eq!(answer(&reply), first, "{text:?} is answered differently");
    }
    first
}

async fn finish_round(pool: &PgPool, token: &str, board: &str) {
    expect(
        &call(
            pool,
            "PUT",
            &format!("/api/v1/boards/{board}/result"),
            Some(token),
            Some(json!({"result": "draw"})),
        )
        .await,
        StatusCode::OK,
    );
}

async fn stored_records(pool: &PgPool) -> i64 {
    sqlx::query_scalar("select count(*) from game_record")
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test]
async fn every_jieqi_reveal_a_player_uploads_gets_the_same_answer(pool: PgPool) {
    let (token, section, board, code) = one_board(&pool, "jieqi").await;
    let Setup::Jieqi(setup) = setup_of(&pool, &token, &section).await else {
        panic!("not a Jieqi set-up");
    };
    // h0 is Red's second horse square; every letter it could reveal, upper and lower case,
    // none at all, a reveal of the opponent's b9 after a right first move, and a move of the
    // face-up general (no hidden piece at all).
    let actual = setup.red[6].letter();
    let mut texts: Vec<String> = "RHEACPKrheacpk"
        .chars()
        .map(|c| format!("h0g2{c}"))
        .collect();
    texts.push("h0g2".into());
    texts.push("e0e1".into());
    texts.push("zz".into());
    for c in "RHEACP".chars() {
        texts.push(format!("b0c2{} b9c7{}", setup.red[1].letter(), c));
    }
    let (status, _, _, body) = all_alike(&pool, &code, "iccs", &texts).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body.contains("once the round is over"), "{body}");
    assert!(!body.contains("set-up put"), "{body}");
    assert_eq!(stored_records(&pool).await, 0, "nothing stored");

    // Once the round is complete the set-up is public: the record is checked against it.
    finish_round(&pool, &token, &board).await;
    let wrong = if actual == 'R' { 'H' } else { 'R' };
    let refused = upload(&pool, &code, "iccs", &format!("h0g2{wrong}")).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.text
    );
    let taken = upload(&pool, &code, "iccs", &format!("h0g2{actual}")).await;
    assert_eq!(taken.status, StatusCode::OK, "{}", taken.text);
    let record = expect(
        &get(&pool, &format!("/api/v1/boards/{board}/record")).await,
        StatusCode::OK,
    );
    assert_eq!(
        record["replay"]["plies"][0]["iccs"],
        format!("h0g2{actual}"),
        "{record}"
    );
    // Once: a second upload is refused.
    let again = upload(&pool, &code, "iccs", "h0g2").await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
}

#[sqlx::test]
async fn every_banqi_flip_a_player_uploads_gets_the_same_answer(pool: PgPool) {
    let (token, _, board, code) = one_board(&pool, "banqi").await;
    let mut texts: Vec<String> = "KAERHCPkaerhcp"
        .chars()
        .map(|c| format!("a1={c}"))
        .collect();
    texts.push("a1".into());
    texts.push("a1-a2".into());
    texts.push("a1=K h4=k".into());
    let (status, _, _, body) = all_alike(&pool, &code, "banqi", &texts).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(!body.contains("set-up has"), "{body}");
    assert_eq!(stored_records(&pool).await, 0);
    finish_round(&pool, &token, &board).await;
    // The set-up is public now: a flip without its piece is filled in from it.
    let taken = upload(&pool, &code, "banqi", "a1").await;
    assert_eq!(taken.status, StatusCode::OK, "{}", taken.text);
}

fn plies(record: &Value) -> usize {
    record["replay"]["plies"].as_array().map_or(0, Vec::len)
}

#[sqlx::test]
async fn a_jieqi_record_shows_its_reveals_only_once_the_set_up_is_public(pool: PgPool) {
    let (token, section, board, _) = one_board(&pool, "jieqi").await;
    let Setup::Jieqi(setup) = setup_of(&pool, &token, &section).await else {
        panic!("not a Jieqi set-up");
    };
    let red = setup.red[1].letter();
    let black = setup.black[1].letter();
    expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/boards/{board}/record"),
            Some(&token),
            Some(json!({"notation": "iccs", "text": "b0c2 b9c7"})),
        )
        .await,
        StatusCode::OK,
    );
    let revealed = format!("b0c2{red}");
    // The staff see the reveals at once.
    let staff = expect(
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
    assert_eq!(staff["replay"]["plies"][0]["iccs"], revealed.as_str());
    // The public sees no move, in no form.
    let public = expect(
        &get(&pool, &format!("/api/v1/boards/{board}/record")).await,
        StatusCode::OK,
    );
    assert_eq!(plies(&public), 0, "{public}");
    assert_eq!(public["moves_withheld"], true);
    assert!(!public.to_string().contains(&revealed), "{public}");
    for format in ["iccs", "chinese", "wxf"] {
        let pgn = get(
            &pool,
            &format!("/api/v1/boards/{board}/record.pgn?format={format}"),
        )
        .await;
        assert_eq!(pgn.status, StatusCode::OK, "{}", pgn.text);
        assert!(!pgn.text.contains("\n1. "), "{format}: {}", pgn.text);
        let moves = get(
            &pool,
            &format!("/api/v1/boards/{board}/moves.txt?format={format}"),
        )
        .await;
        assert_eq!(moves.status, StatusCode::OK, "{}", moves.text);
        assert_eq!(moves.text.trim(), "", "{format}");
    }
    let round = get(
        &pool,
        &format!("/api/v1/sections/{section}/rounds/1/records.pgn"),
    )
    .await;
    assert!(!round.text.contains(&revealed), "{}", round.text);
    let page = get(&pool, &format!("/s/{section}/games/1/1?lang=en")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains("id=\"moves-withheld\""), "{}", page.text);
    assert!(!page.text.contains("data-ply=\"1\""), "{}", page.text);

    // The round complete, the set-up is public and so are the moves.
    finish_round(&pool, &token, &board).await;
    let public = expect(
        &get(&pool, &format!("/api/v1/boards/{board}/record")).await,
        StatusCode::OK,
    );
    assert_eq!(public["moves_withheld"], false);
    assert_eq!(public["replay"]["plies"][0]["iccs"], revealed.as_str());
    assert_eq!(
        public["replay"]["plies"][1]["iccs"],
        format!("b9c7{black}").as_str()
    );
    let pgn = get(&pool, &format!("/api/v1/boards/{board}/record.pgn")).await;
    assert!(pgn.text.contains(&revealed), "{}", pgn.text);
    let moves = get(&pool, &format!("/api/v1/boards/{board}/moves.txt")).await;
    assert!(moves.text.contains(&revealed), "{}", moves.text);
    let page = get(&pool, &format!("/s/{section}/games/1/1?lang=en")).await;
    assert!(
        !page.text.contains("id=\"moves-withheld\""),
        "{}",
        page.text
    );
    assert!(page.text.contains("data-ply=\"1\""), "{}", page.text);
}
