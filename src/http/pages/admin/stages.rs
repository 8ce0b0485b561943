//! The desk's overlapping stages (issue #40): `/admin/s/{section_id}/stages` shows and sets a
//! section's format through `service::stages::set` (the API's `PUT /api/v1/sections/{id}/stages`):
//! the Swiss alone, a knockout seeded after round r while the others play on (AXF), or a final
//! between the top two in the last round (WXF).

use super::form::{invalid_fields, require, Fields};
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::{Msg, Tr};
use crate::service;
use crate::service::access::Need;
use crate::service::sections::Section;
use crate::service::stages::{StagesInput, StagesView};
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
        "/admin/s/{section_id}/stages",
        get(show_stages).post(save_stages),
    )
}

/// A choice of a select.
pub struct Choice {
    /// The word sent.
    pub value: &'static str,
    /// Its label (a catalogue key).
    pub label: &'static str,
    /// Chosen now.
    pub selected: bool,
}

/// `GET /admin/s/{section_id}/stages`
#[derive(Template)]
#[template(path = "admin/stages.html")]
pub struct StagesPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// The stages as stored.
    pub stages: StagesView,
    /// The formats.
    pub formats: Vec<Choice>,
    /// The final's colour rules.
    pub colours: Vec<Choice>,
    /// The round field as shown.
    pub after_round: String,
    /// The qualifiers field as shown.
    pub qualifiers: String,
    /// The viewer may change them.
    pub can_edit: bool,
    /// Why the last save was refused.
    pub form_error: Option<String>,
    /// The message after a save.
    pub notice: Option<String>,
}

fn choices(words: &[&'static str], prefix: &str, chosen: &str) -> Vec<Choice> {
    words
        .iter()
        .map(|w| Choice {
            value: w,
            label: match (prefix, *w) {
                ("format", "swiss") => "adm.stages.format.swiss",
                ("format", "knockout_after_round") => "adm.stages.format.knockout_after_round",
                ("format", _) => "adm.stages.format.final_last_round",
                (_, "lot") => "adm.stages.colours.lot",
                (_, "higher_seed") => "adm.stages.colours.higher_seed",
                _ => "adm.stages.colours.swiss",
            },
            selected: *w == chosen,
        })
        .collect()
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
    let can_edit = service::access::require_first_in_section(&state.db, actor, id, Need::Arbiter)
        .await
        .is_ok();
    let stages = service::stages::get(&state.db, id).await.or_page(&ctx)?;
    let field = |name: &str, stored: String| match form {
        Some(f) => f.get(name).cloned().unwrap_or_default(),
        None => stored,
    };
    let format = field("format", stages.format.to_string());
    let colours = field("final_colours", stages.final_colours.to_string());
    Ok(Page(
        status,
        StagesPage {
            tr,
            formats: choices(crate::vocab::StageFormat::WORDS, "format", &format),
            colours: choices(crate::vocab::FinalColourRule::WORDS, "colours", &colours),
            after_round: field(
                "after_round",
                stages
                    .after_round
                    .map(|r| r.to_string())
                    .unwrap_or_default(),
            ),
            qualifiers: field("qualifiers", stages.qualifiers.unwrap_or(4).to_string()),
            ctx,
            section,
            stages,
            can_edit,
            form_error,
            notice,
        },
    )
    .into_response())
}

/// `GET /admin/s/{section_id}/stages`
pub async fn show_stages(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let notice = uri
        .query()
        .is_some_and(|q| q.contains("done=stages"))
        .then(|| ctx.tr().t("adm.stages.saved").to_string());
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

/// `POST /admin/s/{section_id}/stages`: saves, or shows the refusal with the values as
/// entered (422, or 409 when a round it changes is paired).
pub async fn save_stages(
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
    let number = |name: &str| {
        form.get(name)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
            .map(|v| v.parse::<i64>().unwrap_or(-1))
    };
    let format = form.get("format").cloned().unwrap_or_default();
    let input = StagesInput {
        after_round: number("after_round").filter(|_| format == "knockout_after_round"),
        qualifiers: number("qualifiers").filter(|_| format == "knockout_after_round"),
        final_colours: form.get("final_colours").cloned(),
        format,
    };
    match service::stages::set(&state.db, &actor, id, &input).await {
        Ok(_) => Ok(see_other(&format!("/admin/s/{id}/stages?done=stages"))),
        Err(err) => {
            let tr = ctx.tr();
            let (text, status) = match invalid_fields(&err, tr) {
                Some((message, fields)) => {
                    let details: Vec<String> =
                        fields.values().flatten().map(|m: &Msg| tr.msg(m)).collect();
                    let text = if details.is_empty() {
                        message
                    } else {
                        format!("{message} {}", details.join("; "))
                    };
                    (text, StatusCode::UNPROCESSABLE_ENTITY)
                }
                None => match &err {
                    service::Error::Conflict(m) => (tr.msg(m), StatusCode::CONFLICT),
                    _ => return Err(PageError::from_ctx(err, &ctx)),
                },
            };
            page(
                &state,
                &actor,
                ctx,
                id,
                Some(&form),
                (Some(text), None),
                status,
            )
            .await
        }
    }
}
