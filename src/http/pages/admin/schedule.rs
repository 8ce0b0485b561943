//! The desk's round schedule (issue #37): `/admin/s/{section_id}/schedule` shows a planned
//! start per round in the event's time zone and saves them through `service::schedule::set`
//! (the API's `PUT /api/v1/sections/{id}/schedule`). A changed start reaches the pages, the
//! calendars and the players.

use super::form::{invalid_fields, require, Fields};
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::{Msg, Tr};
use crate::service;
use crate::service::access::Need;
use crate::service::schedule::{PlannedInput, ScheduleInput};
use crate::service::sections::Section;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/admin/s/{section_id}/schedule",
        get(show_schedule).post(save_schedule),
    )
}

/// One round's row.
pub struct ScheduleRow {
    /// Round number (the field is `round_{n}`).
    pub number: i32,
    /// The start as entered or stored (`datetime-local`).
    pub value: String,
}

/// `GET /admin/s/{section_id}/schedule`
#[derive(Template)]
#[template(path = "admin/schedule.html")]
pub struct SchedulePage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// One row per round.
    pub rows: Vec<ScheduleRow>,
    /// The event's time zone.
    pub time_zone: String,
    /// Why the last save was refused.
    pub form_error: Option<String>,
    /// The message after a save.
    pub notice: Option<String>,
}

async fn page(
    state: &AppState,
    actor: &service::users::Actor,
    ctx: PageCtx,
    id: Uuid,
    form: Option<&Fields>,
    (form_error, notice): (Option<String>, Option<String>),
    status: StatusCode,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let section = service::sections::get(&state.db, id).await.or_page(&ctx)?;
    require(state, actor, section.tournament_id, Need::Scorer)
        .await
        .or_page(&ctx)?;
    let schedule = service::schedule::get(&state.db, id).await.or_page(&ctx)?;
    let rows = (1..=section.rounds)
        .map(|n| ScheduleRow {
            number: n,
            value: match form {
                Some(form) => form.get(&format!("round_{n}")).cloned().unwrap_or_default(),
                None => schedule.of(n).map(|p| p.local.clone()).unwrap_or_default(),
            },
        })
        .collect();
    Ok(Page(
        status,
        SchedulePage {
            tr,
            time_zone: super::tournaments::zone_label(tr, &schedule.time_zone),
            ctx,
            section,
            rows,
            form_error,
            notice,
        },
    )
    .into_response())
}

/// `GET /admin/s/{section_id}/schedule`
pub async fn show_schedule(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let notice = uri
        .query()
        .is_some_and(|q| q.contains("done=schedule"))
        .then(|| ctx.tr().t("adm.schedule.saved").to_string());
    page(
        &state,
        &actor,
        ctx,
        id,
        None,
        (None, notice),
        StatusCode::OK,
    )
    .await
}

/// `POST /admin/s/{section_id}/schedule`: saves, or shows the refusal with the values as
/// entered (422).
pub async fn save_schedule(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    if let Err(err) =
        service::access::require_first_in_section(&state.db, &actor, id, Need::Arbiter).await
    {
        return Err(PageError::from_ctx(err, &ctx));
    }
    let mut rounds: Vec<PlannedInput> = form
        .iter()
        .filter_map(|(name, value)| {
            let round = name.strip_prefix("round_")?.parse().ok()?;
            let value = value.trim();
            (!value.is_empty()).then(|| PlannedInput {
                round,
                starts_at: None,
                local: Some(value.to_string()),
            })
        })
        .collect();
    rounds.sort_by_key(|r| r.round);
    let input = ScheduleInput { rounds };
    match service::schedule::set(&state.db, &actor, id, &input).await {
        Ok(_) => Ok(see_other(&format!("/admin/s/{id}/schedule?done=schedule"))),
        Err(err) => match invalid_fields(&err, ctx.tr()) {
            Some((message, fields)) => {
                let tr = ctx.tr();
                let details: Vec<String> =
                    fields.values().flatten().map(|m: &Msg| tr.msg(m)).collect();
                let text = if details.is_empty() {
                    message
                } else {
                    format!("{message} {}", details.join("; "))
                };
                page(
                    &state,
                    &actor,
                    ctx,
                    id,
                    Some(&form),
                    (Some(text), None),
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
                .await
            }
            None => Err(PageError::from_ctx(err, &ctx)),
        },
    }
}
