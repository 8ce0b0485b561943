//! A round's pairing report at the desk ("why this pairing", SPEC §4), in the page's language:
//! names and points instead of start numbers and tenths, and sentences instead of codes (the
//! whole report stays available as JSON below).

use super::form::require;
use crate::http::error::{OrPage, PageError};
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::format_number;
use crate::http::session::CurrentUser;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::sections::Section;
use crate::service::{self};
use crate::vocab::PairingSystem;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::Value;
use std::collections::HashMap;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route("/admin/s/{section_id}/rounds/{n}/report", get(show_report))
}

/// One score group of a Chinese pairing report.
pub struct GroupRow {
    /// The group's score.
    pub points: String,
    /// Members (start numbers with names).
    pub members: String,
    /// Due Red.
    pub due_red: String,
    /// Due Black.
    pub due_black: String,
    /// Floated in.
    pub floaters_in: String,
    /// Floated out.
    pub floaters_out: String,
}

/// One line of the report: a few labelled cells.
pub struct ReportLine {
    /// Cells in column order.
    pub cells: Vec<String>,
}

/// `GET /admin/s/{sid}/rounds/{n}/report`
#[derive(Template)]
#[template(path = "admin/report.html")]
pub struct ReportPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Round number.
    pub number: i32,
    /// Pairing system of the report, named in the page's language.
    pub system: String,
    /// Score groups (Chinese system).
    pub groups: Vec<GroupRow>,
    /// Floaters: who, score, opponent, opponent's score, why.
    pub floaters: Vec<ReportLine>,
    /// Boards: board, Red, Black, scores, decision, unmet preferences.
    pub boards: Vec<ReportLine>,
    /// The bye: who, score, why.
    pub bye: Option<ReportLine>,
    /// Relaxed colour rules.
    pub relaxed: Vec<ReportLine>,
    /// The whole report as indented JSON (for the other systems, and for the curious).
    pub raw: String,
    /// Who changed the boards by hand after pairing, and when: the boards table then marks
    /// each board that is no longer the engine's.
    pub hand: Option<String>,
}

/// Shows a JSON value briefly: strings bare, numbers as they are.
fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Object(map) if map.len() == 1 => map.values().next().map(plain).unwrap_or_default(),
        other => other.to_string(),
    }
}

/// Points stored in tenths, as the standings show them (2, 1.5).
fn points(value: &Value) -> String {
    match value.as_i64() {
        Some(tenths) => format_number(tenths as f64 / 10.0),
        None => plain(value),
    }
}

/// A code of the report said in words (`prefix.code` in the catalogue); an unknown code as
/// it is, so a newer engine's report still shows something.
fn word(tr: Tr, prefix: &str, value: &Value) -> String {
    tr.word(prefix, &plain(value))
}

/// A side (`red`, `black`) by its name on the page.
fn side(tr: Tr, value: &Value) -> String {
    match value.as_str() {
        Some("red") => tr.t("col.red").to_string(),
        Some("black") => tr.t("col.black").to_string(),
        _ => plain(value),
    }
}

/// Renders start numbers as "3 Name".
fn who(names: &HashMap<i64, String>, value: &Value) -> String {
    match value.as_i64() {
        Some(no) => match names.get(&no) {
            Some(name) => format!("{no} {name}"),
            None => no.to_string(),
        },
        None => plain(value),
    }
}

fn who_list(names: &HashMap<i64, String>, value: &Value) -> String {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|v| who(names, v))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// Why a player floated, in words (reports made before the reason codes keep their English).
fn float_reason(tr: Tr, floater: &Value, group_points: &str) -> String {
    match floater["why"].as_str() {
        Some(code) => tr.fmt(&format!("adm.report.float.{code}"), group_points),
        None => plain(&floater["reason"]),
    }
}

/// Why this player has the bye, in words.
fn bye_reason(tr: Tr, bye: &Value) -> String {
    match bye["candidate"].as_u64() {
        Some(1) => tr.t("adm.report.bye.lowest").to_string(),
        Some(rank) => tr.fmt("adm.report.bye.later", rank),
        None => plain(&bye["reason"]),
    }
}

/// The report's rows in the page's language.
fn render(tr: Tr, names: &HashMap<i64, String>, report: &Value) -> ReportParts {
    let details = &report["details"];
    let arr = |v: &Value| v.as_array().cloned().unwrap_or_default();
    let groups = arr(&details["groups"])
        .iter()
        .map(|g| GroupRow {
            points: points(&g["points"]),
            members: who_list(names, &g["members"]),
            due_red: who_list(names, &g["due_red"]),
            due_black: who_list(names, &g["due_black"]),
            floaters_in: who_list(names, &g["floaters_in"]),
            floaters_out: who_list(names, &g["floaters_out"]),
        })
        .collect();
    let floaters = arr(&details["floaters"])
        .iter()
        .map(|f| ReportLine {
            cells: vec![
                who(names, &f["start_no"]),
                points(&f["points"]),
                who(names, &f["opponent"]),
                points(&f["opponent_points"]),
                float_reason(tr, f, &points(&f["points"])),
            ],
        })
        .collect();
    let boards = arr(&details["boards"])
        .iter()
        .map(|b| ReportLine {
            cells: vec![
                plain(&b["board"]),
                format!("{} ({})", who(names, &b["red"]), points(&b["red_points"])),
                format!(
                    "{} ({})",
                    who(names, &b["black"]),
                    points(&b["black_points"])
                ),
                format!(
                    "{} / {}",
                    side(tr, &b["red_due"]),
                    side(tr, &b["black_due"])
                ),
                word(tr, "adm.report.decision", &b["decision"]),
                who_list(names, &b["unmet_preferences"]),
            ],
        })
        .collect();
    let bye = details
        .get("bye")
        .filter(|b| !b.is_null())
        .map(|b| ReportLine {
            cells: vec![
                who(names, &b["start_no"]),
                points(&b["points"]),
                bye_reason(tr, b),
            ],
        });
    let relaxed = arr(&details["relaxed"])
        .iter()
        .map(|r| ReportLine {
            cells: vec![
                format!("{} {}", tr.t("col.board"), plain(&r["board"])),
                who(names, &r["start_no"]),
                word(tr, "adm.report.rule", &r["rule"]),
            ],
        })
        .collect();
    let system = match plain(&report["system"]).parse::<PairingSystem>() {
        Ok(system) => tr.t(&format!("system.{system}")).to_string(),
        Err(_) => plain(&report["system"]),
    };
    ReportParts {
        system,
        groups,
        floaters,
        boards,
        bye,
        relaxed,
    }
}

/// Adds to each board row of the engine's report a cell saying whether the board is still
/// the engine's: after a hand edit, "✎ changed by hand: now X – Y" where it is not.
fn mark_hand_changes(
    tr: Tr,
    names: &HashMap<i64, String>,
    report: &Value,
    boards: &[service::rounds::BoardView],
    rows: &mut [ReportLine],
) {
    let engine = report["details"]["boards"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let no =
        |side: Option<&service::rounds::BoardSide>| side.and_then(|s| s.start_no).map(i64::from);
    for (row, b) in rows.iter_mut().zip(engine.iter()) {
        let number = b["board"].as_i64();
        let now = boards
            .iter()
            .find(|board| Some(i64::from(board.number)) == number);
        let same = now.is_some_and(|board| {
            no(Some(&board.red)) == b["red"].as_i64()
                && no(board.black.as_ref()) == b["black"].as_i64()
        });
        row.cells.push(match (same, now) {
            (true, _) => String::new(),
            (false, Some(board)) => tr.fmt_n(
                "adm.audit.now",
                &[
                    &no(Some(&board.red))
                        .map_or_else(|| board.red.name.clone(), |n| who(names, &Value::from(n))),
                    &board.black.as_ref().map_or_else(
                        || tr.t("absence.pairing").to_string(),
                        |black| {
                            black
                                .start_no
                                .map_or_else(|| black.name.clone(), |n| who(names, &Value::from(n)))
                        },
                    ),
                ],
            ),
            (false, None) => tr.fmt_n("adm.audit.now", &[&"–", &"–"]),
        });
    }
}

/// What [`render`] makes of a report.
struct ReportParts {
    system: String,
    groups: Vec<GroupRow>,
    floaters: Vec<ReportLine>,
    boards: Vec<ReportLine>,
    bye: Option<ReportLine>,
    relaxed: Vec<ReportLine>,
}

/// `GET /admin/s/{section_id}/rounds/{n}/report`: the pairing report, readably.
pub async fn show_report(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Result<Response, PageError> {
    let section = service::sections::get(&state.db, id).await.or_page(&ctx)?;
    require(&state, &actor, section.tournament_id, Need::Scorer)
        .await
        .or_page(&ctx)?;
    let (round, entrants) = async {
        let round = service::rounds::get(&state.db, Some(&actor), id, n).await?;
        let entrants = service::entrants::list(&state.db, Some(&actor), id).await?;
        service::Result::Ok((round, entrants))
    }
    .await
    .or_page(&ctx)?;
    let names: HashMap<i64, String> = entrants
        .iter()
        .filter_map(|e| e.start_no.map(|no| (i64::from(no), e.name.clone())))
        .collect();
    let edits = service::rounds::hand_edits(&state.db, &actor, id, n)
        .await
        .or_page(&ctx)?;
    let zone = service::tournaments::zone_of_section(&state.db, id)
        .await
        .or_page(&ctx)?;
    let report = round.report.clone().unwrap_or(Value::Null);
    let tr = ctx.tr();
    let mut parts = render(tr, &names, &report);
    let hand = (!edits.is_empty()).then(|| {
        let who = edits
            .iter()
            .map(|(actor, _)| actor.as_str())
            .fold(Vec::<&str>::new(), |mut all, a| {
                if !all.contains(&a) {
                    all.push(a);
                }
                all
            })
            .join(", ");
        let when = edits
            .iter()
            .map(|(_, at)| at.with_timezone(&zone).format("%Y-%m-%d %H:%M").to_string())
            .collect::<Vec<_>>()
            .join(", ");
        tr.fmt_n("adm.audit.by_hand", &[&who, &when])
    });
    if hand.is_some() {
        mark_hand_changes(tr, &names, &report, &round.boards, &mut parts.boards);
    }
    Ok(Page(
        StatusCode::OK,
        ReportPage {
            tr,
            system: parts.system,
            raw: serde_json::to_string_pretty(&report).unwrap_or_default(),
            section,
            number: n,
            groups: parts.groups,
            floaters: parts.floaters,
            boards: parts.boards,
            bye: parts.bye,
            relaxed: parts.relaxed,
            hand,
            ctx,
        },
    )
    .into_response())
}
