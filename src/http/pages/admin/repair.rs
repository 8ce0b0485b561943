//! Manual re-pairing: `/admin/s/{section_id}/rounds/{n}/edit` shows a paired, unpublished round
//! without results as one row of selects per board (Red, Black; an empty Black is the bye), so
//! the arbiter can swap players between boards, swap colours or move the bye, then saves
//! through `service::rounds::edit` (the API's `PUT …/rounds/{n}/boards`). When the core
//! checker reports broken rules, the page lists them with the values kept and an "apply
//! anyway" button (the API's `confirm: true`).

use super::form::{require, Choice, Fields};
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::entrants::EntrantView;
use crate::service::rounds::{BoardInput, ManualPairing, RoundView};
use crate::service::sections::Section;
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
use crate::vocab::RoundStatus;
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
        "/admin/s/{section_id}/rounds/{n}/edit",
        get(show_edit).post(save_edit),
    )
}

/// Most rows a submitted form is read for (a section has far fewer boards).
const MAX_ROWS: usize = 1000;

/// One board row of the form.
pub struct EditRow {
    /// Row number (1-based), also the field suffix: `red_3`, `black_3`.
    pub number: usize,
    /// Choices for Red.
    pub red: Vec<Choice>,
    /// Choices for Black (the first, empty one is the bye).
    pub black: Vec<Choice>,
    /// Message for Red.
    pub red_error: Option<String>,
    /// Message for Black.
    pub black_error: Option<String>,
}

/// `GET /admin/s/{section_id}/rounds/{n}/edit`
#[derive(Template)]
#[template(path = "admin/repair.html")]
pub struct RepairPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Round number.
    pub number: i32,
    /// Whether the round can be edited (else `refusal` says why).
    pub editable: bool,
    /// The board rows.
    pub rows: Vec<EditRow>,
    /// Rules the proposed pairing breaks (shown with "apply anyway").
    pub warnings: Vec<String>,
    /// Why the edit was refused as a whole.
    pub error: Option<String>,
    /// The round's version the form was filled from (an edit made meanwhile gets a 409).
    pub version: String,
}

/// The form as the round stands, plus one empty row (a board to add).
fn stored(round: &RoundView) -> Fields {
    let mut form = Fields::new();
    for (i, b) in round.boards.iter().enumerate() {
        form.insert(format!("red_{}", i + 1), b.red.entrant_id.to_string());
        let black = b
            .black
            .as_ref()
            .map(|s| s.entrant_id.to_string())
            .unwrap_or_default();
        form.insert(format!("black_{}", i + 1), black);
    }
    form.insert("rows".into(), (round.boards.len() + 1).to_string());
    form.insert("version".into(), round.version.to_string());
    form
}

fn row_count(form: &Fields) -> usize {
    form.get("rows")
        .and_then(|r| r.parse::<usize>().ok())
        .unwrap_or(0)
        .min(MAX_ROWS)
}

fn choices(players: &[(Uuid, String)], chosen: &str, empty_label: &str) -> Vec<Choice> {
    std::iter::once(Choice {
        value: String::new(),
        label: empty_label.to_string(),
        selected: chosen.is_empty(),
    })
    .chain(players.iter().map(|(id, label)| Choice {
        value: id.to_string(),
        label: label.clone(),
        selected: id.to_string() == chosen,
    }))
    .collect()
}

/// The form rows from `form`, each field's errors next to it.
fn rows(form: &Fields, players: &[(Uuid, String)], tr: Tr, errors: &FieldErrors) -> Vec<EditRow> {
    let value = |key: String| form.get(&key).cloned().unwrap_or_default();
    (1..=row_count(form))
        .map(|i| {
            let error = |key: String| errors.get(&key).map(|m| m.join("; "));
            EditRow {
                number: i,
                red: choices(players, &value(format!("red_{i}")), "–"),
                black: choices(
                    players,
                    &value(format!("black_{i}")),
                    tr.t("adm.repair.bye"),
                ),
                red_error: error(format!("red_{i}")),
                black_error: error(format!("black_{i}")),
            }
        })
        .collect()
}

/// Reads the rows into the service's boards (games first, byes last, as the service wants
/// them) and the row of each board, for putting the service's messages back on the rows.
fn boards(form: &Fields, tr: Tr) -> (Vec<BoardInput>, Vec<usize>, FieldErrors) {
    let mut errors = FieldErrors::new();
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for i in 1..=row_count(form) {
        let read = |name: String, errors: &mut FieldErrors| -> Option<Option<Uuid>> {
            let raw = form.get(&name).map(|v| v.trim()).unwrap_or("");
            if raw.is_empty() {
                return Some(None);
            }
            match raw.parse() {
                Ok(id) => Some(Some(id)),
                Err(_) => {
                    errors.insert(name, vec![tr.t("adm.choose_entrant_error").into()]);
                    None
                }
            }
        };
        let red = read(format!("red_{i}"), &mut errors);
        let black = read(format!("black_{i}"), &mut errors);
        match (red, black) {
            (Some(None), Some(None)) => {}
            (Some(None), Some(Some(_))) => {
                errors.insert(
                    format!("red_{i}"),
                    vec![tr.t("adm.choose_entrant_error").into()],
                );
            }
            (Some(Some(red)), Some(Some(black))) => games.push((
                i,
                BoardInput {
                    red,
                    black: Some(black),
                },
            )),
            (Some(Some(red)), Some(None)) => byes.push((i, BoardInput { red, black: None })),
            _ => {}
        }
    }
    let (rows, boards) = games.into_iter().chain(byes).unzip();
    (boards, rows, errors)
}

/// The service's `boards[k].red` → the form's `red_{row}`; `boards` stays.
fn on_rows(fields: FieldErrors, rows: &[usize]) -> FieldErrors {
    let mut out = FieldErrors::new();
    for (key, messages) in fields {
        let mapped = key
            .strip_prefix("boards[")
            .and_then(|rest| rest.split_once("]."))
            .and_then(|(k, side)| {
                let row = rows.get(k.parse::<usize>().ok()?)?;
                Some(format!("{side}_{row}"))
            })
            .unwrap_or(key);
        out.entry(mapped).or_default().extend(messages);
    }
    out
}

#[allow(clippy::too_many_arguments)]
async fn page(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    (id, n): (Uuid, i32),
    form: Option<&Fields>,
    mut errors: FieldErrors,
    error: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let section = service::sections::get(&state.db, id).await.or_page(&ctx)?;
    require(state, actor, section.tournament_id, Need::Scorer)
        .await
        .or_page(&ctx)?;
    let loaded = async {
        let round = service::rounds::get(&state.db, Some(actor), id, n).await?;
        let entrants = service::entrants::list(&state.db, Some(actor), id).await?;
        service::Result::Ok((round, entrants))
    }
    .await;
    let (round, entrants) = loaded.or_page(&ctx)?;
    let on_board: Vec<Uuid> = round
        .boards
        .iter()
        .flat_map(|b| {
            [
                Some(b.red.entrant_id),
                b.black.as_ref().map(|s| s.entrant_id),
            ]
        })
        .flatten()
        .collect();
    let players: Vec<(Uuid, String)> = entrants
        .iter()
        .filter(|e: &&EntrantView| e.status == "active" || on_board.contains(&e.id))
        .map(|e| {
            let label = match e.start_no {
                Some(no) => format!("{no}. {}", e.name),
                None => e.name.clone(),
            };
            (e.id, label)
        })
        .collect();
    let editable =
        round.status == RoundStatus::Paired && round.boards.iter().all(|b| b.result.is_none());
    let shown = form.cloned().unwrap_or_else(|| stored(&round));
    let warnings = errors.remove("boards").unwrap_or_default();
    // The service's sentence speaks JSON (`"confirm": true`); the page has its button.
    let error = if warnings.is_empty() {
        error
    } else {
        Some(tr.fmt("adm.repair.broken", warnings.len()))
    };
    let rows = rows(&shown, &players, tr, &errors);
    let version = shown
        .get("version")
        .cloned()
        .unwrap_or_else(|| round.version.to_string());
    Ok(Page(
        status,
        RepairPage {
            tr,
            ctx,
            section,
            number: n,
            editable,
            rows,
            warnings,
            error,
            version,
        },
    )
    .into_response())
}

/// `GET /admin/s/{section_id}/rounds/{n}/edit`
pub async fn show_edit(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Result<Response, PageError> {
    page(
        &state,
        &actor,
        ctx,
        (id, n),
        None,
        FieldErrors::new(),
        None,
        StatusCode::OK,
    )
    .await
}

/// `POST /admin/s/{section_id}/rounds/{n}/edit`: replaces the boards; with broken rules the
/// page lists them (422) until the form comes back with `confirm`.
pub async fn save_edit(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let (boards, rows, errors) = boards(&form, tr);
    if !errors.is_empty() {
        let message = Some(tr.t("error.form_invalid").to_string());
        return page(
            &state,
            &actor,
            ctx,
            (id, n),
            Some(&form),
            errors,
            message,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    let input = ManualPairing {
        boards,
        confirm: Some(form.get("confirm").is_some_and(|v| !v.is_empty())),
        version: form.get("version").and_then(|v| v.trim().parse().ok()),
    };
    Ok(
        match service::rounds::edit(&state.db, &actor, id, n, &input).await {
            Ok(_) => see_other(&format!("/admin/s/{id}/rounds?done=repaired")),
            Err(Error::Invalid { message, fields }) => {
                let fields = on_rows(fields, &rows);
                page(
                    &state,
                    &actor,
                    ctx,
                    (id, n),
                    Some(&form),
                    fields,
                    Some(message),
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
                .await?
            }
            Err(err @ Error::Conflict(_)) => {
                page(
                    &state,
                    &actor,
                    ctx,
                    (id, n),
                    Some(&form),
                    FieldErrors::new(),
                    Some(err.to_string()),
                    StatusCode::CONFLICT,
                )
                .await?
            }
            Err(err) => return Err(PageError::from_service(err, ctx.lang)),
        },
    )
}
