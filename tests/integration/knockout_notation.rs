//! One notation for a knockout match (issue #39, item 3): the bracket, its print, the desk's
//! knockout tab and the API show the regular games' game points (1/½/0), the tiebreak games
//! apart, and what decided the match — never the rules' 2/1/0 points, never a total that
//! leaves a tiebreak game out, never English words on a Chinese page.

use crate::support::{admin_browser, call, expect, get, lower_number_wins, play_round, Browser};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

async fn game(pool: &PgPool, token: &str, m: &Value, winner: Option<&Value>) -> Value {
    let result = match winner {
        None => "draw",
        Some(w) if *w == m["next_red"] => "red_wins",
        Some(_) => "black_wins",
    };
    expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/matches/{}/games", m["id"].as_str().unwrap()),
            Some(token),
            Some(json!({"result": result})),
        )
        .await,
        StatusCode::OK,
    )
}

#[sqlx::test]
async fn a_match_won_on_a_rapid_game_reads_the_same_on_bracket_desk_and_api(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) =
        crate::support::tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 1}))
            .await;
    crate::support::add_entrants(&pool, &token, &sid, 4).await;
    play_round(&pool, &token, &sid, lower_number_wins).await;
    let bracket = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/knockout"),
            Some(&token),
            Some(json!({"size": 2, "best_of": 3, "decide_by": "points"})),
        )
        .await,
        StatusCode::CREATED,
    );
    let mut m = bracket["matches"][0].clone();
    let (high, low) = (
        m["high"]["entrant_id"].clone(),
        m["low"]["entrant_id"].clone(),
    );
    // Regular games: the higher seed wins, a draw, the lower seed wins: 1½–1½.
    m = game(&pool, &token, &m, Some(&high)).await;
    m = game(&pool, &token, &m, None).await;
    m = game(&pool, &token, &m, Some(&low)).await;
    assert_eq!(m["next_game"]["kind"], "rapid", "{m}");
    // While the rapid game is due, the Chinese desk names it in Chinese.
    let desk = browser
        .get(&format!("/admin/s/{sid}/knockout?lang=zh-Hant"))
        .await;
    assert_eq!(desk.status, StatusCode::OK);
    assert!(desk.text.contains("(快棋加賽)"), "{}", desk.text);
    assert!(
        !desk.text.contains("(rapid)") && !desk.text.contains("(regular)"),
        "English game kinds on the Chinese desk"
    );
    assert!(desk.text.contains("1½–1½"), "{}", desk.text);

    // The lower seed wins the rapid game and the match.
    m = game(&pool, &token, &m, Some(&low)).await;
    assert_eq!(m["winner"], low);
    assert_eq!(m["decided_by"], "rapid");
    let score = &m["score"];
    assert_eq!(score["regular_high"], 1.5, "{score}");
    assert_eq!(score["regular_low"], 1.5, "{score}");
    assert_eq!(score["tiebreak_high"], 0.0, "{score}");
    assert_eq!(score["tiebreak_low"], 1.0, "{score}");
    assert_eq!(score["tiebreak_games"], 1, "{score}");

    let line = "1½–1½ · 加賽 0–1";
    let reason = "以快棋加賽決勝";
    let public = get(&pool, &format!("/s/{sid}/bracket?lang=zh-Hant")).await;
    assert_eq!(public.status, StatusCode::OK);
    let print = get(&pool, &format!("/s/{sid}/bracket/print?lang=zh-Hant")).await;
    let desk = browser
        .get(&format!("/admin/s/{sid}/knockout?lang=zh-Hant"))
        .await;
    for (page, text) in [
        ("bracket", &public.text),
        ("print", &print.text),
        ("desk", &desk.text),
    ] {
        assert!(text.contains(line), "{page} lacks {line}: {text}");
        assert!(text.contains(reason), "{page} lacks {reason}: {text}");
    }
    // The bracket's per-player totals are game points, and the rapid game is counted apart:
    // no "3" from the rules' 2/1/0 scale.
    for page in [&public.text, &print.text] {
        assert!(
            page.contains(r#"<td class="num score"><strong>1½</strong></td>"#),
            "{page}"
        );
        assert!(
            page.contains("(1)</td>") && page.contains("(0)</td>"),
            "{page}"
        );
        assert!(
            !page.contains("<strong>3</strong>"),
            "a total on the 2/1/0 scale: {page}"
        );
    }
    // The English page says it in English, the same notation.
    let english = Browser::new(&pool)
        .get(&format!("/s/{sid}/bracket?lang=en"))
        .await;
    assert!(
        english.text.contains("1½–1½ · tiebreak 0–1"),
        "{}",
        english.text
    );
    assert!(english.text.contains("decided by rapid games"));
}
