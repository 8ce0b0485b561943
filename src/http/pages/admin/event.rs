//! Editing an event after it was created (issue #15): every field, its time zone, and its
//! status — which otherwise follows the event (opening registration, the first pairing, the
//! last round) — set by the arbiter.

use super::form::{invalid_fields, place_errors, require, Field, Fields};
use super::tournaments::{tournament_fields, tournament_input};
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::tournaments::{Tournament, TournamentInput};
use crate::service::{self, FieldErrors};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/t/{tournament_id}/edit", get(show_edit).post(save))
        .route("/admin/t/{tournament_id}/status", post(set_status))
}

/// The edit form.
#[derive(Template)]
#[template(path = "admin/edit_tournament.html")]
pub struct EditPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The event as stored.
    pub tournament: Tournament,
    /// The fields.
    pub fields: Vec<Field>,
    /// A message for the whole form.
    pub form_error: Option<String>,
}

/// The form's values from a stored event.
fn filled(t: &Tournament) -> Fields {
    let mut form = Fields::new();
    let mut put = |k: &str, v: Option<String>| {
        form.insert(k.to_string(), v.unwrap_or_default());
    };
    put("name", Some(t.name.clone()));
    put("game", Some(t.game.to_string()));
    put("starts_on", t.starts_on.map(|d| d.to_string()));
    put("ends_on", t.ends_on.map(|d| d.to_string()));
    put("venue", t.venue.clone());
    put("organiser", t.organiser.clone());
    put("time_control", t.time_control.clone());
    put("time_control_code", t.time_control_code.clone());
    put("time_zone", Some(t.time_zone.clone()));
    put("default_language", Some(t.default_language.clone()));
    put("waiver_text", t.waiver_text.clone());
    put("status", Some(t.status.to_string()));
    put("listed", t.listed.then(|| "on".to_string()));
    form
}

fn fields(form: &Fields, tr: Tr) -> Vec<Field> {
    let mut fields = tournament_fields(form, tr);
    fields.push(
        Field::new("status", "table.status", "select", form)
            .required()
            .select(
                crate::vocab::TournamentStatus::WORDS,
                Some("status"),
                tr,
                crate::vocab::TournamentStatus::Draft.as_str(),
            ),
    );
    fields.push(Field::new("listed", "adm.listed", "checkbox", form));
    fields
}

async fn page(
    state: &AppState,
    ctx: PageCtx,
    id: Uuid,
    form: Option<(Fields, FieldErrors, Option<String>)>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let tournament = service::tournaments::get(&state.db, id)
        .await
        .or_page(&ctx)?;
    let (status, form, errors, form_error) = match form {
        Some((form, errors, message)) => (StatusCode::UNPROCESSABLE_ENTITY, form, errors, message),
        None => (
            StatusCode::OK,
            filled(&tournament),
            FieldErrors::new(),
            None,
        ),
    };
    let mut fields = fields(&form, tr);
    let rest = place_errors(tr, &mut fields, &errors, &[]);
    let form_error = form_error.or_else(|| (!rest.is_empty()).then(|| rest.join("; ")));
    Ok(Page(
        status,
        EditPage {
            tr,
            ctx,
            tournament,
            fields,
            form_error,
        },
    )
    .into_response())
}

/// `GET /admin/t/{id}/edit`
pub async fn show_edit(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    require(&state, &actor, id, Need::Arbiter)
        .await
        .or_page(&ctx)?;
    page(&state, ctx, id, None).await
}

/// `POST /admin/t/{id}/edit`: saves every field (audited) and goes back to the event.
pub async fn save(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    // Who may not edit the event hears so before anything about the form.
    require(&state, &actor, id, Need::Arbiter)
        .await
        .or_page(&ctx)?;
    let tr = ctx.tr();
    let (mut input, mut errors) = tournament_input(&form, tr);
    input.status = form.get("status").cloned();
    input.listed = Some(super::form::checkbox(&form, "listed"));
    let message = if errors.is_empty() {
        match service::tournaments::update(&state.db, &actor, id, &input).await {
            Ok(_) => return Ok(see_other(&format!("/admin/t/{id}?done=event"))),
            Err(err) => match invalid_fields(&err, tr) {
                Some((text, fields)) => {
                    errors = fields;
                    Some(text)
                }
                None => return Err(PageError::from_ctx(err, &ctx)),
            },
        }
    } else {
        Some(tr.t("error.form_invalid").to_string())
    };
    page(&state, ctx, id, Some((form, errors, message))).await
}

/// `POST /admin/t/{id}/status`: one status move from the event's page (open registration,
/// finish); the edit form sets any status.
pub async fn set_status(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let input = TournamentInput {
        status: Some(form.get("status").cloned().unwrap_or_default()),
        ..TournamentInput::default()
    };
    service::tournaments::update(&state.db, &actor, id, &input)
        .await
        .or_page(&ctx)?;
    Ok(see_other(&format!("/admin/t/{id}?done=event_status")))
}
