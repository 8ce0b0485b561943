//! Rounds at the desk: pair the next, publish, unpair the last, and the pairing report.

use super::form::{require, ButtonForm};
use super::section::action_failed;
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::sections::Section;
use crate::service::{self};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::Value;
use std::collections::HashMap;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/s/{section_id}/rounds", post(pair_round))
        .route(
            "/admin/s/{section_id}/rounds/{n}/publish",
            post(publish_round),
        )
        .route(
            "/admin/s/{section_id}/rounds/{n}/unpair",
            post(unpair_round),
        )
        .route("/admin/s/{section_id}/rounds/{n}/report", get(show_report))
        .route("/admin/s/{section_id}/rounds/{n}/clock", post(start_clock))
}

pub async fn pair_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(_form): AppForm<ButtonForm>,
) -> Result<Response, PageError> {
    Ok(
        match service::rounds::pair_next(&state.db, &actor, id).await {
            Ok(_) => see_other(&format!("/admin/s/{id}?done=paired#rounds")),
            Err(err) => action_failed(&state, &actor, ctx, id, err)
                .await
                .into_response(),
        },
    )
}

/// `POST /admin/s/{section_id}/rounds/{n}/publish`
pub async fn publish_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(_form): AppForm<ButtonForm>,
) -> Result<Response, PageError> {
    Ok(
        match service::rounds::publish(&state.db, &actor, id, n).await {
            Ok(_) => see_other(&format!("/admin/s/{id}?done=published#rounds")),
            Err(err) => action_failed(&state, &actor, ctx, id, err)
                .await
                .into_response(),
        },
    )
}

/// `POST /admin/s/{section_id}/rounds/{n}/clock`: starts the round clock the big screens show.
pub async fn start_clock(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(_form): AppForm<ButtonForm>,
) -> Result<Response, PageError> {
    Ok(
        match service::screen::start_clock(&state.db, &actor, id, n).await {
            Ok(_) => see_other(&format!("/admin/s/{id}?done=clock#rounds")),
            Err(err) => action_failed(&state, &actor, ctx, id, err)
                .await
                .into_response(),
        },
    )
}

/// `POST /admin/s/{section_id}/rounds/{n}/unpair`: deletes the last round; when it has results
/// the form must carry the ticked confirmation `force`, else the page says so (409).
pub async fn unpair_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(form): AppForm<ButtonForm>,
) -> Result<Response, PageError> {
    let force = form.get("force").is_some_and(|v| !v.is_empty());
    Ok(
        match service::rounds::delete_last(&state.db, &actor, id, n, force).await {
            Ok(()) => see_other(&format!("/admin/s/{id}?done=unpaired#rounds")),
            Err(err) => action_failed(&state, &actor, ctx, id, err)
                .await
                .into_response(),
        },
    )
}

// ---------------------------------------------------------------------------------------------
// The pairing report

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
    /// Pairing system of the report.
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
}

/// Shows a JSON value briefly: strings bare, numbers as they are.
fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        // Points may be stored as tenths or as an object; show what is there.
        Value::Object(map) if map.len() == 1 => map.values().next().map(plain).unwrap_or_default(),
        other => other.to_string(),
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
    let (round, entrants) = match async {
        let round = service::rounds::get(&state.db, Some(&actor), id, n).await?;
        let entrants = service::entrants::list(&state.db, Some(&actor), id).await?;
        service::Result::Ok((round, entrants))
    }
    .await
    {
        Ok(both) => both,
        Err(err) => return Err(PageError::from_service(err, ctx.lang)),
    };
    let names: HashMap<i64, String> = entrants
        .iter()
        .filter_map(|e| e.start_no.map(|no| (i64::from(no), e.name.clone())))
        .collect();
    let report = round.report.unwrap_or(Value::Null);
    let details = &report["details"];
    let arr = |v: &Value| v.as_array().cloned().unwrap_or_default();
    let groups = arr(&details["groups"])
        .iter()
        .map(|g| GroupRow {
            points: plain(&g["points"]),
            members: who_list(&names, &g["members"]),
            due_red: who_list(&names, &g["due_red"]),
            due_black: who_list(&names, &g["due_black"]),
            floaters_in: who_list(&names, &g["floaters_in"]),
            floaters_out: who_list(&names, &g["floaters_out"]),
        })
        .collect();
    let floaters = arr(&details["floaters"])
        .iter()
        .map(|f| ReportLine {
            cells: vec![
                who(&names, &f["start_no"]),
                plain(&f["points"]),
                who(&names, &f["opponent"]),
                plain(&f["opponent_points"]),
                plain(&f["reason"]),
            ],
        })
        .collect();
    let boards = arr(&details["boards"])
        .iter()
        .map(|b| ReportLine {
            cells: vec![
                plain(&b["board"]),
                format!("{} ({})", who(&names, &b["red"]), plain(&b["red_points"])),
                format!(
                    "{} ({})",
                    who(&names, &b["black"]),
                    plain(&b["black_points"])
                ),
                format!("{} / {}", plain(&b["red_due"]), plain(&b["black_due"])),
                plain(&b["decision"]),
                who_list(&names, &b["unmet_preferences"]),
            ],
        })
        .collect();
    let bye = details
        .get("bye")
        .filter(|b| !b.is_null())
        .map(|b| ReportLine {
            cells: vec![
                who(&names, &b["start_no"]),
                plain(&b["points"]),
                plain(&b["reason"]),
            ],
        });
    let relaxed = arr(&details["relaxed"])
        .iter()
        .map(|r| ReportLine {
            cells: vec![
                plain(&r["board"]),
                who(&names, &r["start_no"]),
                plain(&r["rule"]),
            ],
        })
        .collect();
    Ok(Page(
        StatusCode::OK,
        ReportPage {
            tr: ctx.tr(),
            system: plain(&report["system"]),
            raw: serde_json::to_string_pretty(&report).unwrap_or_default(),
            section,
            number: n,
            groups,
            floaters,
            boards,
            bye,
            relaxed,
            ctx,
        },
    )
    .into_response())
}
