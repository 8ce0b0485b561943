//! Calendars (issue #37): `/s/{id}/calendar.ics`, every planned round of a section, and
//! `/k/{key}/calendar.ics`, the player's own rounds with board, colour and opponent once the
//! round is public. Texts in the visitor's language; times in UTC with the event's zone named
//! (`service::calendar`). The player's calendar is private like `/k/{key}`: `no-store`,
//! `no-referrer`, a wrong key 404 and counted like the page's.

use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::PageCtx;
use crate::http::pages::shared::load_section;
use crate::http::session::ClientIp;
use crate::http::AppState;
use crate::service;
use crate::service::calendar::{self, CalEvent};
use crate::service::schedule::ScheduleView;
use arbiter_core::model::Side;
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, REFERRER_POLICY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use chrono::Utc;
use uuid::Uuid;

/// The routes of the calendars.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/s/{section_id}/calendar.ics", get(section_calendar))
        .route("/k/{key}/calendar.ics", get(key_calendar))
}

/// The `webcal:` address of `path` when the server knows its public address (else the path:
/// `app.js` makes it `webcal://` with the page's host, so a cached page never holds a host).
pub fn webcal(state: &AppState, path: &str) -> String {
    match state.security.public_url.as_deref() {
        Some(base) => {
            let host = base
                .strip_prefix("https://")
                .or_else(|| base.strip_prefix("http://"))
                .unwrap_or(base);
            format!("webcal://{host}{path}")
        }
        None => path.to_string(),
    }
}

fn ics(body: String, private: bool) -> Response {
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/calendar; charset=utf-8"),
    );
    if private {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store, private"));
        headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    } else {
        headers.insert(
            CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=60"),
        );
    }
    response
}

fn event(
    schedule: &ScheduleView,
    number: i32,
    uid: String,
    bump: i32,
    summary: String,
    description: Option<String>,
) -> Option<CalEvent> {
    let p = schedule.of(number)?;
    Some(CalEvent {
        uid,
        sequence: p.sequence + bump,
        start: p.starts_at,
        end: calendar::round_end(schedule, number, p.starts_at),
        summary,
        description,
        location: None,
        url: None,
        last_modified: p.updated_at,
    })
}

/// `GET /s/{section_id}/calendar.ics`
pub async fn section_calendar(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let (ctx, t, s, _) = load_section(&state, ctx, id).await?;
    let schedule = service::schedule::get(&state.db, id)
        .await
        .map_err(|err| PageError::from_ctx(err, &ctx))?;
    let tr = ctx.tr();
    let name = format!("{} · {}", t.name, s.name);
    let events: Vec<CalEvent> = schedule
        .planned
        .iter()
        .filter_map(|p| {
            let mut e = event(
                &schedule,
                p.round,
                calendar::section_uid(id, p.round),
                0,
                format!("{} · {}", tr.fmt("round.n", p.round), name),
                None,
            )?;
            e.location = t.venue.clone();
            e.url = Some(crate::http::public_url(
                state.security.public_url.as_deref(),
                &headers,
                &format!("/s/{id}/pairings/{}", p.round),
            ))
            .filter(|u| u.contains("://"));
            Some(e)
        })
        .collect();
    Ok(ics(
        calendar::render(&name, &schedule.time_zone, &events, Utc::now()),
        false,
    ))
}

/// `GET /k/{key}/calendar.ics`
pub async fn key_calendar(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ctx: PageCtx,
    PagePath(key): PagePath<String>,
) -> Response {
    let refused = |err, ctx: &PageCtx| {
        let mut response = PageError::from_ctx(err, ctx).into_response();
        response
            .headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static("no-store, private"));
        response
    };
    let (view, entrant_id) =
        match service::keys::entrant_of(&state.db, &state.security.limits, ip, &key).await {
            Ok(found) => found,
            Err(err) => return refused(err, &ctx),
        };
    let schedule = match service::schedule::get(&state.db, view.section_id).await {
        Ok(s) => s,
        Err(err) => return refused(err, &ctx),
    };
    // The player's public rounds (what the public player page shows).
    let rounds = match view.entrant.start_no {
        Some(no) => service::players::get(&state.db, None, view.section_id, no)
            .await
            .map(|p| p.rounds)
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let tr = ctx.tr();
    let name = format!(
        "{} · {} · {}",
        view.entrant.name, view.tournament_name, view.section_name
    );
    let events: Vec<CalEvent> = schedule
        .planned
        .iter()
        .filter_map(|p| {
            let round = tr.fmt("round.n", p.round);
            let played = rounds.iter().find(|r| r.number == p.round);
            let (summary, description, bump) = match played {
                Some(r) => {
                    let what = match (&r.opponent, r.board, r.colour) {
                        (Some(o), Some(board), Some(colour)) => {
                            let opponent = match o.start_no {
                                Some(no) => format!("{no}. {}", o.name),
                                None => o.name.clone(),
                            };
                            let colour = tr.t(match colour {
                                Side::Red => "col.red",
                                Side::Black => "col.black",
                            });
                            format!(
                                "{} {board} · {colour} · {} {opponent}",
                                tr.t("col.board"),
                                tr.t("col.opponent")
                            )
                        }
                        _ => match r.absence {
                            Some(kind) => tr.t(&format!("absence.{kind}")).to_string(),
                            None => String::new(),
                        },
                    };
                    let summary = if what.is_empty() {
                        round.clone()
                    } else {
                        format!("{round} · {what}")
                    };
                    (summary, Some(format!("{name}\n{what}")), 1)
                }
                None => (format!("{round} · {name}"), None, 0),
            };
            let e = event(
                &schedule,
                p.round,
                calendar::player_uid(view.section_id, entrant_id, p.round),
                bump,
                summary,
                description,
            )?;
            Some(e)
        })
        .collect();
    ics(
        calendar::render(&name, &schedule.time_zone, &events, Utc::now()),
        true,
    )
}
