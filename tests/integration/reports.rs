//! Self-report (issue #16, SPEC §5): players report with the board's code; nothing counts until
//! the desk accepts an agreement; disputes are flagged; codes close with the round; wrong codes
//! are rate-limited; the codes are on the staff's slips only.

use crate::support::{
    add_entrants, admin_token, call, csrf_of, expect, get, location, tournament_with_section,
    Browser,
};
use axum::http::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// A Xiangqi section of 6 with round 1 paired (and published when `publish`); returns
/// (section id, token, the boards as the API shows them).
async fn paired(pool: &PgPool, settings: Value, publish: bool) -> (String, String, Vec<Value>) {
    paired_in(pool, "xiangqi", settings, publish).await
}

/// [`paired`] in a tournament of `game`.
async fn paired_in(
    pool: &PgPool,
    game: &str,
    settings: Value,
    publish: bool,
) -> (String, String, Vec<Value>) {
    let token = admin_token(pool).await;
    let (_, sid) = tournament_with_section(pool, &token, game, settings).await;
    add_entrants(pool, &token, &sid, 6).await;
    let round = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
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
                &format!("/api/v1/sections/{sid}/rounds/1/publish"),
                Some(&token),
                None,
            )
            .await,
            StatusCode::OK,
        );
    }
    let boards = round["boards"].as_array().unwrap().clone();
    (sid, token, boards)
}

/// The report code of a board (only the staff's slips show it).
async fn code_of(pool: &PgPool, board_id: &str) -> String {
    sqlx::query_scalar::<_, String>("select report_code from board where board_id = $1::uuid")
        .bind(board_id)
        .fetch_one(pool)
        .await
        .unwrap()
}

/// Black's report code of a board (each side has its own since issue 36).
async fn black_code_of(pool: &PgPool, board_id: &str) -> String {
    sqlx::query_scalar::<_, String>("select black_code from board where board_id = $1::uuid")
        .bind(board_id)
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn report(pool: &PgPool, code: &str, body: Value) -> crate::support::Reply {
    call(
        pool,
        "POST",
        &format!("/api/v1/reports/{code}"),
        None,
        Some(body),
    )
    .await
}

async fn standings_points(pool: &PgPool, sid: &str) -> Vec<f64> {
    let standings = expect(
        &get(pool, &format!("/api/v1/sections/{sid}/standings")).await,
        StatusCode::OK,
    );
    standings["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("no rows: {standings}"))
        .iter()
        .map(|r| r["points"].as_f64().unwrap_or(0.0))
        .collect()
}

#[sqlx::test]
async fn agreeing_reports_count_only_once_the_desk_accepts_them(pool: PgPool) {
    let (sid, token, boards) = paired(&pool, json!({}), true).await;
    let board = boards[0]["id"].as_str().unwrap();
    let code = code_of(&pool, board).await;
    let black = black_code_of(&pool, board).await;
    assert_eq!(code.len(), 16);
    assert_eq!(black.len(), 16);
    let before = standings_points(&pool, &sid).await;

    // The code opens the board, typed in any form.
    let dashed = format!("{}-{}-{}", &code[..4], &code[4..8], &code[8..]).to_lowercase();
    assert_eq!(
        expect(
            &get(&pool, &format!("/api/v1/reports/{black}")).await,
            StatusCode::OK
        )["side"],
        "black"
    );
    let view = expect(
        &get(&pool, &format!("/api/v1/reports/{dashed}")).await,
        StatusCode::OK,
    );
    assert_eq!(view["board"], 1);
    assert_eq!(view["agreement"], "none");
    assert_eq!(view["open"], true);

    // Red reports; then Black confirms the same result and fouls.
    let one = expect(
        &report(
            &pool,
            &code,
            json!({"side": "red", "result": "red_wins", "black_fouls": 1}),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(one["board"]["agreement"], "waiting");
    assert_eq!(one["accepted"], false);
    let two = expect(
        &report(
            &pool,
            &black,
            json!({"side": "black", "result": "red_wins", "black_fouls": 1}),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(two["board"]["agreement"], "agreed");
    assert_eq!(two["accepted"], false, "the section's default is the desk");

    // Nothing counts yet: no result, same standings.
    let round = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/rounds/1")).await,
        StatusCode::OK,
    );
    assert!(round["boards"][0]["result"].is_null());
    assert_eq!(standings_points(&pool, &sid).await, before);

    // The desk's queue has it, agreed; one call accepts it.
    let queue = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/reports"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(queue.as_array().unwrap().len(), 1);
    assert_eq!(queue[0]["agreement"], "agreed");
    let accepted = expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/boards/{board}/reports/accept"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(accepted["result"], "red_wins");
    assert_eq!(accepted["black_fouls"], 1);
    let round = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/rounds/1")).await,
        StatusCode::OK,
    );
    assert_eq!(round["boards"][0]["result"], "red_wins");
    assert_ne!(standings_points(&pool, &sid).await, before);

    // The queue is empty, the code shows the result and takes no more reports.
    let queue = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/reports"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert!(queue.as_array().unwrap().is_empty());
    let view = expect(
        &get(&pool, &format!("/api/v1/reports/{code}")).await,
        StatusCode::OK,
    );
    assert_eq!(view["open"], false);
    assert_eq!(view["result"], "red_wins");
    let late = report(&pool, &code, json!({"side": "red", "result": "draw"})).await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.text);

    // Everything is in the audit log: two reports, the acceptance.
    let actions: Vec<String> = sqlx::query_scalar(
        "select action from audit_event where entity = 'game' order by audit_id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(
        actions.iter().filter(|a| *a == "self_report").count(),
        2,
        "{actions:?}"
    );
    assert!(actions.iter().any(|a| a == "result"), "{actions:?}");
}

#[sqlx::test]
async fn disagreeing_reports_are_flagged_and_never_count(pool: PgPool) {
    let (sid, token, boards) = paired(&pool, json!({}), true).await;
    let board = boards[1]["id"].as_str().unwrap();
    let code = code_of(&pool, board).await;
    let black = black_code_of(&pool, board).await;
    let before = standings_points(&pool, &sid).await;
    expect(
        &report(&pool, &code, json!({"side": "red", "result": "red_wins"})).await,
        StatusCode::OK,
    );
    let disputed = expect(
        &report(
            &pool,
            &black,
            json!({"side": "black", "result": "black_wins"}),
        )
        .await,
        StatusCode::OK,
    );
    assert_eq!(disputed["board"]["agreement"], "disputed");
    // A dispute is the desk's (issue 36): no further report changes it.
    let again = report(&pool, &code, json!({"result": "draw"})).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);

    let accept = call(
        &pool,
        "POST",
        &format!("/api/v1/boards/{board}/reports/accept"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(accept.status, StatusCode::CONFLICT, "{}", accept.text);
    assert!(accept.text.contains("disagree"), "{}", accept.text);
    assert_eq!(standings_points(&pool, &sid).await, before);

    // The arbiter dismisses the reports; the players may report again.
    let dismissed = call(
        &pool,
        "POST",
        &format!("/api/v1/boards/{board}/reports/dismiss"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(
        dismissed.status,
        StatusCode::NO_CONTENT,
        "{}",
        dismissed.text
    );
    let view = expect(
        &get(&pool, &format!("/api/v1/reports/{code}")).await,
        StatusCode::OK,
    );
    assert_eq!(view["agreement"], "none");

    // A report and then the desk's own entry: the report is superseded, not left waiting.
    expect(
        &report(&pool, &code, json!({"side": "red", "result": "red_wins"})).await,
        StatusCode::OK,
    );
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
    let queue = expect(
        &call(
            &pool,
            "GET",
            &format!("/api/v1/sections/{sid}/reports"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    assert!(queue.as_array().unwrap().is_empty(), "{queue}");
}

#[sqlx::test]
async fn a_section_may_accept_reports_on_agreement(pool: PgPool) {
    let (sid, _token, boards) = paired(&pool, json!({"self_report": "agreement"}), true).await;
    let board = boards[0]["id"].as_str().unwrap();
    let code = code_of(&pool, board).await;
    let black = black_code_of(&pool, board).await;
    expect(
        &report(&pool, &black, json!({"side": "black", "result": "draw"})).await,
        StatusCode::OK,
    );
    let agreed = expect(
        &report(&pool, &code, json!({"side": "red", "result": "draw"})).await,
        StatusCode::OK,
    );
    assert_eq!(agreed["accepted"], true);
    assert_eq!(agreed["board"]["result"], "draw");
    let round = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/rounds/1")).await,
        StatusCode::OK,
    );
    assert_eq!(round["boards"][0]["result"], "draw");
}

#[sqlx::test]
async fn codes_open_nothing_before_publication_when_off_or_after_the_round(pool: PgPool) {
    // Paired, not published: the code answers as a wrong one.
    let (sid, token, boards) = paired(&pool, json!({}), false).await;
    let code = code_of(&pool, boards[0]["id"].as_str().unwrap()).await;
    let hidden = get(&pool, &format!("/api/v1/reports/{code}")).await;
    assert_eq!(
        hidden.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        hidden.text
    );

    // Published: open. The whole round played: the code no longer takes reports.
    expect(
        &call(
            &pool,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds/1/publish"),
            Some(&token),
            None,
        )
        .await,
        StatusCode::OK,
    );
    for b in &boards {
        if b["black"].is_null() {
            continue;
        }
        expect(
            &call(
                &pool,
                "PUT",
                &format!("/api/v1/boards/{}/result", b["id"].as_str().unwrap()),
                Some(&token),
                Some(json!({"result": "red_wins"})),
            )
            .await,
            StatusCode::OK,
        );
    }
    let closed = report(&pool, &code, json!({"side": "red", "result": "draw"})).await;
    assert_eq!(closed.status, StatusCode::CONFLICT, "{}", closed.text);

    // A round-1 code in round 2 opens round 1's board, closed; round 2's codes are new.
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
    let code2 = code_of(&pool, round2["boards"][0]["id"].as_str().unwrap()).await;
    assert_ne!(code, code2);
    let old = report(&pool, &code, json!({"side": "red", "result": "draw"})).await;
    assert_eq!(old.status, StatusCode::CONFLICT, "{}", old.text);

    // Self-report off: every code answers as a wrong one.
    expect(
        &call(
            &pool,
            "PATCH",
            &format!("/api/v1/sections/{sid}"),
            Some(&token),
            Some(json!({"self_report": "off"})),
        )
        .await,
        StatusCode::OK,
    );
    let off = get(&pool, &format!("/api/v1/reports/{code}")).await;
    assert_eq!(off.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", off.text);
    let bad = call(
        &pool,
        "PATCH",
        &format!("/api/v1/sections/{sid}"),
        Some(&token),
        Some(json!({"self_report": "sometimes"})),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
}

#[sqlx::test]
async fn guessed_codes_are_refused_then_rate_limited(pool: PgPool) {
    let (_sid, _token, boards) = paired(&pool, json!({}), true).await;
    let code = code_of(&pool, boards[0]["id"].as_str().unwrap()).await;
    // Right codes do not use up the address's attempts.
    for _ in 0..40 {
        expect(
            &get(&pool, &format!("/api/v1/reports/{code}")).await,
            StatusCode::OK,
        );
    }
    let mut statuses = Vec::new();
    for i in 0..32 {
        let guess = format!("{:012X}", 0xABCD_0000_0000u64 + i);
        statuses.push(get(&pool, &format!("/api/v1/reports/{guess}")).await.status);
    }
    assert!(statuses[..30]
        .iter()
        .all(|s| *s == StatusCode::UNPROCESSABLE_ENTITY));
    assert_eq!(statuses[31], StatusCode::TOO_MANY_REQUESTS);
    // Locked out for guesses, but a right code still opens its board (issue 36: a venue
    // behind one address is not locked out by one person's guesses); a wrong one waits, on
    // the page too.
    assert_eq!(
        get(&pool, &format!("/api/v1/reports/{code}")).await.status,
        StatusCode::OK
    );
    let mut browser = Browser::new(&pool);
    let page = browser.get("/login").await;
    let csrf = csrf_of(&page.text);
    let posted = browser
        .post_form(
            &format!("/r/{code}"),
            &[("csrf", &csrf), ("side", "red"), ("result", "draw")],
        )
        .await;
    assert_eq!(posted.status, StatusCode::SEE_OTHER, "{}", posted.text);
    let guessed = browser
        .post_form(
            "/r/ABCD00000000FFFF",
            &[("csrf", &csrf), ("side", "red"), ("result", "draw")],
        )
        .await;
    assert_eq!(
        guessed.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        guessed.text
    );
}

#[sqlx::test]
async fn the_phone_page_reports_and_confirms_and_the_desk_accepts(pool: PgPool) {
    let (sid, token, boards) = paired(&pool, json!({}), true).await;
    let board = boards[0]["id"].as_str().unwrap();
    let code = code_of(&pool, board).await;

    // A typed code goes to its page; a malformed one is refused next to the box.
    let mut phone = Browser::new(&pool);
    let typed = phone.get(&format!("/r?code={}", code.to_lowercase())).await;
    assert_eq!(typed.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&typed), format!("/r/{code}"));
    let wrong = phone.get("/r?code=12-34").await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong.text.contains("field-error"), "{}", wrong.text);

    let page = phone.get(&format!("/r/{code}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text.contains("P1") || page.text.contains("P4"),
        "{}",
        page.text
    );
    assert!(!page.text.contains(" checked"), "nothing is preselected");
    let csrf = csrf_of(&page.text);
    // The side is the code's (Red's): the page says so and asks for no side.
    assert!(page.text.contains("id=\"report-as\""), "{}", page.text);
    // The other side named in the form: refused next to the field, nothing stored.
    let other_side = phone
        .post_form(
            &format!("/r/{code}"),
            &[("csrf", &csrf), ("side", "black"), ("result", "draw")],
        )
        .await;
    assert_eq!(other_side.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        other_side.text.contains("side-error"),
        "{}",
        other_side.text
    );
    let sent = phone
        .post_form(
            &format!("/r/{code}"),
            &[
                ("csrf", &csrf),
                ("side", "red"),
                ("result", "draw"),
                ("red_fouls", "0"),
                ("black_fouls", "0"),
            ],
        )
        .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.text);
    assert_eq!(location(&sent), format!("/r/{code}?done=sent"));

    // Red's own page offers no confirmation of its own report; the opponent's phone (Black's
    // code) offers it in one tap.
    let again = phone.get(&format!("/r/{code}")).await;
    assert!(!again.text.contains("id=\"confirm\""), "{}", again.text);
    let black = black_code_of(&pool, board).await;
    let mut other = Browser::new(&pool);
    let page = other.get(&format!("/r/{black}")).await;
    assert!(page.text.contains("id=\"confirm\""), "{}", page.text);
    let csrf = csrf_of(&page.text);
    let confirmed = other
        .post_form(
            &format!("/r/{black}"),
            &[
                ("csrf", &csrf),
                ("side", "black"),
                ("result", "draw"),
                ("red_fouls", "0"),
                ("black_fouls", "0"),
            ],
        )
        .await;
    assert_eq!(confirmed.status, StatusCode::SEE_OTHER);

    // The desk's queue page lists it with the accept key; the public pages do not show codes.
    let mut desk = Browser::new(&pool);
    let name = sqlx::query_scalar::<_, String>("select username from app_user limit 1")
        .fetch_one(&pool)
        .await
        .unwrap();
    let _ = token;
    desk.log_in(&name, "a long password").await;
    let queue = desk.get(&format!("/admin/s/{sid}/reports")).await;
    assert_eq!(queue.status, StatusCode::OK, "{}", queue.text);
    assert!(queue.text.contains("data-accept-key"), "{}", queue.text);
    assert!(queue.text.contains("data-live"));
    let csrf = csrf_of(&queue.text);
    let accepted = desk
        .post_form(
            &format!("/admin/boards/{board}/reports/accept"),
            &[("csrf", &csrf), ("section_id", &sid)],
        )
        .await;
    assert_eq!(accepted.status, StatusCode::SEE_OTHER, "{}", accepted.text);
    let round = expect(
        &get(&pool, &format!("/api/v1/sections/{sid}/rounds/1")).await,
        StatusCode::OK,
    );
    assert_eq!(round["boards"][0]["result"], "draw");

    // The staff's slips carry every code; the public slips none.
    let slips = desk.get(&format!("/admin/s/{sid}/rounds/1/slips")).await;
    assert_eq!(slips.status, StatusCode::OK, "{}", slips.text);
    assert_eq!(slips.text.matches("class=\"slip report-slip\"").count(), 3);
    let printed = format!(
        "{}-{}-{}-{}",
        &code[..4],
        &code[4..8],
        &code[8..12],
        &code[12..]
    );
    assert!(slips.text.contains(&printed), "{}", slips.text);
    assert!(slips.text.contains(&format!("/r/{code}")));
    assert!(
        slips.text.contains(&format!("/r/{black}")),
        "each side's code"
    );
    let public = get(&pool, &format!("/s/{sid}/slips/1/print")).await;
    assert!(!public.text.contains(&code) && !public.text.contains(&printed));
    let anonymous = get(&pool, &format!("/admin/s/{sid}/rounds/1/slips")).await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
}

#[sqlx::test]
async fn players_send_the_game_record_with_their_code_once(pool: PgPool) {
    let (sid, token, boards) = paired(&pool, json!({}), true).await;
    let board = boards[0]["id"].as_str().unwrap();
    let code = code_of(&pool, board).await;
    // An illegal move is refused with its half-move, nothing stored.
    let bad = call(
        &pool,
        "POST",
        &format!("/api/v1/reports/{code}/record"),
        None,
        Some(json!({"notation": "chinese", "text": "炮二平五 马8进7 车一进五"})),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.text);
    assert!(bad.text.contains("ply 3"), "{}", bad.text);
    // The phone page: sent, then shown as stored with a link to the replay.
    let mut phone = Browser::new(&pool);
    let page = phone.get(&format!("/r/{code}?lang=en")).await;
    assert!(page.text.contains("id=\"record-form\""), "{}", page.text);
    assert!(!page.text.contains(r#"<option value="banqi""#));
    let csrf = csrf_of(&page.text);
    let refused = phone
        .post_form(
            &format!("/r/{code}/record"),
            &[
                ("csrf", &csrf),
                ("notation", "iccs"),
                ("text", "h2e2 h9g7 zz"),
            ],
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.text.contains("record-error"), "{}", refused.text);
    assert!(refused.text.contains("h2e2 h9g7 zz"), "the text is kept");
    let sent = phone
        .post_form(
            &format!("/r/{code}/record"),
            &[
                ("csrf", &csrf),
                ("notation", "chinese"),
                ("text", "炮二平五 马8进7"),
            ],
        )
        .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.text);
    assert_eq!(location(&sent), format!("/r/{code}?done=record"));
    let round = expect(
        &get(&pool, &format!("/api/v1/boards/{board}/record")).await,
        StatusCode::OK,
    );
    assert_eq!(
        round["replay"]["plies"]
            .as_array()
            .map(Vec::len)
            .unwrap_or(0),
        2,
        "{round}"
    );
    let page = phone.get(&format!("/r/{code}?lang=en")).await;
    assert!(page.text.contains("id=\"record-stored\""), "{}", page.text);
    // Both players' pages link the game's replay.
    for side in ["red", "black"] {
        let no = boards[0][side]["start_no"].as_i64().unwrap();
        let player = get(&pool, &format!("/s/{sid}/p/{no}")).await;
        assert!(
            player.text.contains(&format!("/s/{sid}/games/1/1\"")),
            "{side}: {}",
            player.text
        );
    }
    // A second record from a player is refused: the desk corrects.
    let again = call(
        &pool,
        "POST",
        &format!("/api/v1/reports/{code}/record"),
        None,
        Some(json!({"notation": "iccs", "text": "h2e2"})),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    let audit: Vec<String> = sqlx::query_scalar(
        "select actor from audit_event where action = 'record' order by audit_id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(audit, ["public"]);
    let _ = (sid, token);
}

#[sqlx::test]
async fn the_phone_page_offers_the_notations_of_the_game(pool: PgPool) {
    let (_, token, boards) = paired_in(&pool, "banqi", json!({}), true).await;
    let code = code_of(&pool, boards[0]["id"].as_str().unwrap()).await;
    // A hidden-piece game's record is taken once the round's set-up is revealed.
    let page = Browser::new(&pool).get(&format!("/r/{code}?lang=en")).await;
    assert!(!page.text.contains("id=\"record-form\""), "{}", page.text);
    for board in &boards {
        expect(
            &call(
                &pool,
                "PUT",
                &format!("/api/v1/boards/{}/result", board["id"].as_str().unwrap()),
                Some(&token),
                Some(json!({"result": "draw"})),
            )
            .await,
            StatusCode::OK,
        );
    }
    let page = Browser::new(&pool).get(&format!("/r/{code}?lang=en")).await;
    assert!(page.text.contains("id=\"record-form\""), "{}", page.text);
    assert!(
        page.text.contains(r#"<option value="banqi""#),
        "{}",
        page.text
    );
    for other in ["chinese", "iccs", "wxf"] {
        assert!(!page.text.contains(&format!(r#"<option value="{other}""#)));
    }
}
