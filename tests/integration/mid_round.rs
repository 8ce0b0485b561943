//! Mid-round standings (issue #39, item 5): while a round is in play the ranking counts its
//! results so far and its bye, so every page that shows a ranking — the standings, the
//! crosstable, the big screen, a player's page — says alike that it is provisional, and none
//! does once the round is complete.

use crate::support::{
    add_entrants, admin_token, call, expect, get, lower_number_wins, play_round, publish,
    tournament_with_section,
};
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

/// The big screen's standings slide of `sid`, in `lang`.
async fn screen_standings(pool: &PgPool, sid: &str, lang: &str) -> String {
    for slide in 0..8 {
        let page = get(pool, &format!("/s/{sid}/screen?slide={slide}&lang={lang}")).await;
        if page.text.contains(r#"data-kind="standings""#) {
            return page.text;
        }
    }
    panic!("no standings slide");
}

#[sqlx::test]
async fn every_page_marks_mid_round_standings_provisional_alike(pool: PgPool) {
    let token = admin_token(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({"rounds": 3})).await;
    // Five entrants: someone has the bye in round 2.
    add_entrants(&pool, &token, &sid, 5).await;
    play_round(&pool, &token, &sid, lower_number_wins).await;
    let round2 = expect(
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
    publish(&pool, &token, &sid, 2).await;
    let bye = round2["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["black"].is_null())
        .map(|b| b["red"]["start_no"].clone())
        .expect("a bye in round 2");

    let standings = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    assert_eq!(standings["round"], 2);
    assert_eq!(standings["final"], false);

    let provisional = "暫定：仍有成績未登錄";
    for page in ["standings", "crosstable", "standings/print"] {
        let shown = get(&pool, &format!("/s/{sid}/{page}?lang=zh-Hant")).await;
        assert_eq!(shown.status, StatusCode::OK);
        assert!(shown.text.contains(provisional), "{page}: {}", shown.text);
    }
    let screen = screen_standings(&pool, &sid, "zh-Hant").await;
    assert!(
        screen.contains("暫定排名（仍有成績未登錄）"),
        "the big screen's ranking is not marked provisional: {screen}"
    );
    let player = get(&pool, &format!("/s/{sid}/p/{bye}?lang=en")).await;
    assert!(
        player.text.contains("(provisional)"),
        "the bye's player page: {}",
        player.text
    );

    // Round 2 complete: no page says provisional any more.
    for board in round2["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["black"].is_null())
    {
        expect(
            &call(
                &pool,
                "PUT",
                &format!("/api/v1/boards/{}/result", board["id"].as_str().unwrap()),
                Some(&token),
                Some(json!({"result": "red_wins"})),
            )
            .await,
            StatusCode::OK,
        );
    }
    for page in ["standings", "crosstable"] {
        let shown = get(&pool, &format!("/s/{sid}/{page}?lang=zh-Hant")).await;
        assert!(!shown.text.contains(provisional), "{page}");
    }
    let screen = screen_standings(&pool, &sid, "zh-Hant").await;
    assert!(!screen.contains("暫定"), "{screen}");
    let player = get(&pool, &format!("/s/{sid}/p/{bye}?lang=en")).await;
    assert!(!player.text.contains("(provisional)"));
}
