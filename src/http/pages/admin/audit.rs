//! A tournament's audit log on the dashboard.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::session::CurrentUser;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::tournaments::Tournament;
use crate::service::{self};
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
    Router::new().route("/admin/t/{tournament_id}/audit", get(show_audit))
}

// ---------------------------------------------------------------------------------------------
// The audit log

/// One audit event as shown.
pub struct AuditRow {
    /// Sequence number.
    pub id: i64,
    /// When (in the event's time zone, to the second).
    pub at: String,
    /// Who.
    pub actor: String,
    /// What happened, in the page's language (the action's code when the catalogue lacks it).
    pub what: String,
    /// Whom or what it concerned, when the event says (a name, a result, a status).
    pub subject: String,
    /// Where: section, round, board and players, in words.
    pub place: String,
    /// The state before, as compact JSON (shortened).
    pub before: String,
    /// The state after, as compact JSON (shortened).
    pub after: String,
}

/// `GET /admin/t/{id}/audit`
#[derive(Template)]
#[template(path = "admin/audit.html")]
pub struct AuditPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tournament.
    pub tournament: Tournament,
    /// Events, oldest first.
    pub events: Vec<AuditRow>,
    /// The event's time zone, as the times are shown.
    pub zone: String,
    /// `after` of the next page, when there may be more.
    pub next: Option<i64>,
}

/// Events per page of the audit log.
const AUDIT_PAGE: i64 = 200;

fn short_json(value: Option<&Value>) -> String {
    let text = value.map(Value::to_string).unwrap_or_default();
    if text.chars().count() > 300 {
        let cut: String = text.chars().take(300).collect();
        format!("{cut}…")
    } else {
        text
    }
}

/// What an event did, as a line of the log (`audit.{entity}.{action}` in the catalogue).
fn what(tr: Tr, entity: &str, action: &str) -> String {
    let key = format!("{entity}.{action}");
    match tr.word("audit", &key) {
        text if text == key => format!("{action} {entity}"),
        text => text,
    }
}

/// Whom or what an event concerned, from its state after (else before): a result, a new
/// status, a name.
fn subject(tr: Tr, entity: &str, before: Option<&Value>, after: Option<&Value>) -> String {
    // Statuses are words of their entity's vocabulary (`section_status.open`).
    let statuses = match entity {
        "section" => "section_status",
        "round" => "round_status",
        "entrant" => "entrant_status",
        "registration" => "registration",
        _ => "status",
    };
    let field = |name: &str| {
        after
            .and_then(|a| a.get(name))
            .or_else(|| before.and_then(|b| b.get(name)))
            .and_then(Value::as_str)
    };
    if let Some(result) = after.and_then(|a| a.get("result")).and_then(Value::as_str) {
        let now = tr.word("result", result);
        return match before.and_then(|b| b.get("result")).and_then(Value::as_str) {
            Some(was) if was != result => format!("{} → {now}", tr.word("result", was)),
            _ => now,
        };
    }
    if let Some(status) = after.and_then(|a| a.get("status")).and_then(Value::as_str) {
        let before = before.and_then(|b| b.get("status")).and_then(Value::as_str);
        let name = field("name").map(|n| format!("{n}: ")).unwrap_or_default();
        return match before {
            Some(was) if was != status => format!(
                "{name}{} → {}",
                tr.word(statuses, was),
                tr.word(statuses, status)
            ),
            _ => format!("{name}{}", tr.word(statuses, status)),
        };
    }
    field("name")
        .or_else(|| field("username"))
        .unwrap_or_default()
        .to_string()
}

/// Where an event happened, in words: "Open · Round 3 · board 5 · Red: 3 Chen – Black: 8 Li".
pub fn place_text(tr: Tr, place: Option<&Value>) -> String {
    let Some(place) = place else {
        return String::new();
    };
    let text = |key: &str| place.get(key).and_then(Value::as_str);
    let number = |key: &str| place.get(key).and_then(Value::as_i64);
    let named = |name: &str, no: Option<i64>| match no {
        Some(no) => format!("{no} {name}"),
        None => name.to_string(),
    };
    let mut parts: Vec<String> = Vec::new();
    if let Some(section) = text("section") {
        parts.push(section.to_string());
    }
    if place.get("ko_third").and_then(Value::as_bool) == Some(true) {
        parts.push(tr.t("audit.place.ko_third").to_string());
    } else if let Some(round) = number("ko_round") {
        parts.push(tr.fmt("audit.place.ko_round", round));
    }
    if let Some(round) = number("round") {
        parts.push(tr.fmt("round.n", round));
    }
    if let Some(board) = number("board") {
        parts.push(tr.fmt("audit.place.board", board));
    }
    if let Some(game) = number("game") {
        parts.push(tr.fmt("audit.place.game", game));
    }
    if let (Some(red), Some(black)) = (text("red"), text("black")) {
        parts.push(format!(
            "{}: {} – {}: {}",
            tr.t("col.red"),
            named(red, number("red_no")),
            tr.t("col.black"),
            named(black, number("black_no"))
        ));
    }
    if let Some(entrant) = text("entrant") {
        parts.push(named(entrant, number("entrant_no")));
    }
    parts.join(" · ")
}

/// Who acted, in words: accounts by name, the anonymous public and players' phones said so.
fn actor_text(tr: Tr, actor: String) -> String {
    match actor.as_str() {
        "public" => tr.t("audit.actor.public").to_string(),
        "browser" => tr.t("audit.actor.browser").to_string(),
        _ => actor,
    }
}

/// `GET /admin/t/{tournament_id}/audit?after=N`: the append-only audit log (its arbiters and
/// scorers only, as in the API).
pub async fn show_audit(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let query: HashMap<String, String> =
        serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let after = query.get("after").and_then(|a| a.parse().ok()).unwrap_or(0);
    let loaded = async {
        let events =
            service::interchange::audit_log(&state.db, &actor, id, after, AUDIT_PAGE).await?;
        let tournament = service::tournaments::get(&state.db, id).await?;
        service::Result::Ok((tournament, events))
    }
    .await;
    let (tournament, events) = loaded.or_page(&ctx)?;
    let next = (events.len() as i64 == AUDIT_PAGE)
        .then(|| events.last().map(|e| e.id))
        .flatten();
    let tr = ctx.tr();
    let zone = tournament.zone();
    let events = events
        .into_iter()
        .map(|e| AuditRow {
            id: e.id,
            at: e
                .at
                .with_timezone(&zone)
                .format("%Y-%m-%d %H:%M:%S")
                .to_string(),
            place: place_text(tr, e.place.as_ref()),
            actor: match &e.imported {
                // History of an imported file: who and when there, marked as such.
                Some(imported) => tr.fmt_n(
                    "adm.audit.imported",
                    &[
                        &imported["actor"].as_str().unwrap_or(e.actor.as_str()),
                        &imported["at"]
                            .as_str()
                            .and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok())
                            .map(|at| at.format("%Y-%m-%d %H:%M:%S").to_string())
                            .unwrap_or_default(),
                    ],
                ),
                None => actor_text(tr, e.actor),
            },
            what: what(tr, &e.entity, &e.action),
            subject: subject(tr, &e.entity, e.before.as_ref(), e.after.as_ref()),
            before: short_json(e.before.as_ref()),
            after: short_json(e.after.as_ref()),
        })
        .collect();
    Ok(Page(
        StatusCode::OK,
        AuditPage {
            tr,
            ctx,
            tournament,
            events,
            zone: zone.name().to_string(),
            next,
        },
    )
    .into_response())
}
