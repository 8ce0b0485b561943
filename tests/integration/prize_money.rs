//! Prizes with money (issue #39, item 4): amounts shown with their currency wherever a prize
//! appears (API, dashboard, print, CSV), and a refused table explained by row in words.

use crate::support::{
    add_entrants, admin_browser, call, expect, keep_tied_order, play_round, submit,
    tournament_with_section, Browser,
};
use axum::http::StatusCode;
use serde_json::json;
use sqlx::PgPool;

#[sqlx::test]
async fn prize_amounts_carry_their_currency_on_every_page_print_api_and_csv(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    // Seed 000: entry fees in Canadian dollars, prizes 300/200/100/50.
    let (_tid, sid) = tournament_with_section(
        &pool,
        &token,
        "xiangqi",
        json!({"rounds": 1, "fee_tiers": [{"name": "Adult", "amount": 40, "currency": "CAD"}]}),
    )
    .await;
    add_entrants(&pool, &token, &sid, 4).await;
    let table = expect(
        &call(
            &pool,
            "PUT",
            &format!("/api/v1/sections/{sid}/prizes"),
            Some(&token),
            Some(json!({"prizes": [
                {"place_from": 1, "award": "冠軍", "amount": 300},
                {"place_from": 2, "award": "亞軍", "amount": 200},
                {"place_from": 3, "award": "季軍", "amount": 100},
                {"place_from": 4, "award": "殿軍", "amount": 50, "currency": "usd"}
            ]})),
        )
        .await,
        StatusCode::OK,
    );
    let currencies: Vec<&str> = table["prizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["currency"].as_str().unwrap_or("?"))
        .collect();
    // Without a currency of its own a prize is in the fees' currency; a typed one is kept
    // (upper-cased).
    assert_eq!(currencies, ["CAD", "CAD", "CAD", "USD"], "{table}");

    // Before the final ranking: the print and the CSV show the table with the money.
    let early = Browser::new(&pool)
        .get(&format!("/s/{sid}/prizes/print?lang=en"))
        .await;
    assert_eq!(early.status, StatusCode::OK, "{}", early.text);
    assert!(early.text.contains("300 CAD"), "{}", early.text);
    assert!(early.text.contains("50 USD"), "{}", early.text);

    play_round(&pool, &token, &sid, |_| "red_wins").await;
    keep_tied_order(&pool, &token, &sid).await;

    let awarded = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/prizes/awarded"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    let first = &awarded.as_array().unwrap()[0];
    assert_eq!(first["amount"], 300, "{awarded}");
    assert_eq!(first["currency"], "CAD", "{awarded}");
    assert_eq!(first["money"], "300 CAD", "{awarded}");
    assert!(first["name"].is_string(), "{awarded}");

    let print = Browser::new(&pool)
        .get(&format!("/s/{sid}/prizes/print?lang=zh-Hant"))
        .await;
    assert_eq!(print.status, StatusCode::OK);
    for money in ["300 CAD", "200 CAD", "100 CAD", "50 USD"] {
        assert!(
            print.text.contains(money),
            "{money} missing: {}",
            print.text
        );
    }
    let dashboard = browser.get(&format!("/admin/s/{sid}/prizes?lang=en")).await;
    assert!(dashboard.text.contains("300 CAD"), "{}", dashboard.text);
    assert!(
        dashboard.text.contains(r#"name="currency" value="CAD""#),
        "{}",
        dashboard.text
    );

    // The CSV: a download with a byte-order mark, heads in the page's language, the amount a
    // number and its currency in a column of its own.
    let csv = Browser::new(&pool)
        .get(&format!("/s/{sid}/prizes.csv?lang=zh-Hant"))
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(csv.text.starts_with('\u{FEFF}'), "{:?}", &csv.text[..20]);
    let disposition = csv
        .headers
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(
        disposition.starts_with("attachment") && disposition.contains(".csv"),
        "{disposition}"
    );
    let mut lines = csv.text.trim_start_matches('\u{FEFF}').lines();
    let head = lines.next().unwrap();
    assert!(head.contains("貨幣") && head.contains("價值"), "{head}");
    let champion = lines.next().unwrap();
    assert!(champion.contains(",300,CAD,"), "{champion}");
    let machine = Browser::new(&pool)
        .get(&format!("/s/{sid}/prizes.csv?headers=machine"))
        .await;
    assert!(machine
        .text
        .trim_start_matches('\u{FEFF}')
        .starts_with("place,category,award,amount,currency,name,final_place"));
}

#[sqlx::test]
async fn a_refused_prize_table_is_explained_by_row_in_words(pool: PgPool) {
    let (token, mut browser) = admin_browser(&pool).await;
    let (_tid, sid) = tournament_with_section(&pool, &token, "xiangqi", json!({})).await;
    let page = format!("/admin/s/{sid}/prizes?lang=en");
    let action = format!("/admin/s/{sid}/prizes");
    // Row 4 has a place and a category; the currency is not a code.
    let refused = submit(
        &mut browser,
        &page,
        &action,
        &[
            ("p0_from", "1"),
            ("p0_award", "300"),
            ("p0_amount", "300"),
            ("p1_from", "2"),
            ("p1_award", "200"),
            ("p2_award", ""),
            ("p3_from", "3"),
            ("p3_category", "female"),
            ("p3_award", "Best woman"),
            ("currency", "dollars"),
        ],
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!refused.text.contains("prizes["), "{}", refused.text);
    assert!(
        refused.text.contains("Row 4 · Category"),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("Currency of the values"),
        "{}",
        refused.text
    );
    assert!(refused.text.contains(r#"value="dollars""#), "typed kept");
    let zh = submit(
        &mut browser,
        &format!("/admin/s/{sid}/prizes?lang=zh-Hant"),
        &action,
        &[("p0_from", "one"), ("p0_award", "300")],
    )
    .await;
    assert_eq!(zh.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(zh.text.contains("第 1 列 · 自名次"), "{}", zh.text);
}
