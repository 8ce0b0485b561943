//! Manual re-pairing: `/admin/s/{section_id}/rounds/{n}/edit` shows a paired, unpublished round
//! without results as one row of selects per board (Red, Black; an empty Black is the bye), so
//! the arbiter can swap players between boards, swap colours or move the bye, then saves
//! through `service::rounds::edit` (the API's `PUT …/rounds/{n}/boards`). When the core
//! checker reports broken rules, the page lists them with the values kept and an "apply
//! anyway" button (the API's `confirm: true`).
//!
//! Beside each chosen player the page shows their points before the round, their colours and
//! their opponents so far (`service::players::history_before`, the state the round was paired
//! from). "Swap" exchanges the seats of two players chosen by name in the form as it stands,
//! without saving: the arbiter sees the result, may swap again, and saves it as any edit
//! (checked, with the round's version). A refusal is said by board (1-based, as the rows are
//! numbered) and name ("Board 7: Wang is already on board 3"), never by the service's field
//! path (`boards[6].black`).

use super::form::{require, Choice, Fields};
use super::repair_words::{explain, note};
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::entrants::EntrantView;
use crate::service::players::HistoryBefore;
use crate::service::rounds::{BoardInput, ManualPairing, RoundView};
use crate::service::sections::Section;
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
use crate::vocab::{EntrantStatus, RoundStatus};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::collections::HashMap;
use uuid::Uuid;

pub use super::repair_words::{Problem, SeatNote};

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
    /// The chosen Red's history before the round.
    pub red_note: Option<SeatNote>,
    /// The chosen Black's history before the round.
    pub black_note: Option<SeatNote>,
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
    /// The refusals by board and name, in board order.
    pub problems: Vec<Problem>,
    /// What a swap did (not saved yet).
    pub notice: Option<String>,
    /// Choices of the swap's first player.
    pub swap_a: Vec<Choice>,
    /// Choices of the swap's second player.
    pub swap_b: Vec<Choice>,
    /// Why the swap was refused.
    pub swap_error: Option<String>,
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

/// A player the selects offer: "5. Name".
struct Player {
    id: Uuid,
    label: String,
}

fn choices(players: &[Player], chosen: &str, empty_label: &str) -> Vec<Choice> {
    std::iter::once(Choice {
        value: String::new(),
        label: empty_label.to_string(),
        selected: chosen.is_empty(),
    })
    .chain(players.iter().map(|p| Choice {
        value: p.id.to_string(),
        label: p.label.clone(),
        selected: p.id.to_string() == chosen.trim(),
    }))
    .collect()
}

/// The form rows from `form`, each field's (already worded) errors and the chosen players'
/// histories next to it.
fn rows(
    form: &Fields,
    players: &[Player],
    history: &HashMap<Uuid, &HistoryBefore>,
    tr: Tr,
    errors: &FieldErrors,
) -> Vec<EditRow> {
    let value = |key: String| form.get(&key).cloned().unwrap_or_default();
    (1..=row_count(form))
        .map(|i| {
            let error = |key: String| {
                errors.get(&key).map(|m| {
                    let each: Vec<String> = m.iter().map(|m| tr.msg(m)).collect();
                    each.join(" ")
                })
            };
            let (red, black) = (value(format!("red_{i}")), value(format!("black_{i}")));
            EditRow {
                number: i,
                red: choices(players, &red, "–"),
                black: choices(players, &black, tr.t("adm.repair.bye")),
                red_error: error(format!("red_{i}")),
                black_error: error(format!("black_{i}")),
                red_note: note(history, &red, tr),
                black_note: note(history, &black, tr),
            }
        })
        .collect()
}

/// Reads the rows into the service's boards (games first, byes last, as the service wants
/// them) and the row of each board, for putting the service's messages back on the rows.
fn boards(form: &Fields, _tr: Tr) -> (Vec<BoardInput>, Vec<usize>, FieldErrors) {
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
                    errors.insert(name, vec![crate::i18n::ui("adm.choose_entrant_error")]);
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
                    vec![crate::i18n::ui("adm.choose_entrant_error")],
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

/// Exchanges the seats of the two players chosen in `swap_a` and `swap_b` in the form (every
/// field holding one gets the other); one of them may be on no board, and then takes the
/// other's seat. The swap fields and an earlier "apply anyway" are cleared. `Err` is the
/// catalogue key of why nothing was swapped.
fn swap(form: &mut Fields) -> Result<(Uuid, Uuid), &'static str> {
    let pick = |name: &str| form.get(name).and_then(|v| v.trim().parse::<Uuid>().ok());
    let (Some(a), Some(b)) = (pick("swap_a"), pick("swap_b")) else {
        return Err("adm.repair.swap.choose_two");
    };
    if a == b {
        return Err("adm.repair.swap.choose_two");
    }
    let (a_text, b_text) = (a.to_string(), b.to_string());
    let mut moved = false;
    for i in 1..=row_count(form) {
        for side in ["red", "black"] {
            if let Some(value) = form.get_mut(&format!("{side}_{i}")) {
                let current = value.trim().to_string();
                if current == a_text {
                    *value = b_text.clone();
                    moved = true;
                } else if current == b_text {
                    *value = a_text.clone();
                    moved = true;
                }
            }
        }
    }
    if !moved {
        return Err("adm.repair.swap.not_seated");
    }
    for key in ["swap_a", "swap_b", "confirm"] {
        form.remove(key);
    }
    Ok((a, b))
}

/// What the page shows besides the round: the form as posted (or the round as stored), its
/// errors by field (the service's or the page's own), a sentence for the whole form, a swap
/// done (or why not).
struct Shown<'a> {
    form: Option<&'a Fields>,
    errors: FieldErrors,
    error: Option<String>,
    swapped: Option<(Uuid, Uuid)>,
    swap_error: Option<&'static str>,
    status: StatusCode,
}

impl Shown<'_> {
    fn plain() -> Shown<'static> {
        Shown {
            form: None,
            errors: FieldErrors::new(),
            error: None,
            swapped: None,
            swap_error: None,
            status: StatusCode::OK,
        }
    }
}

async fn page(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    (id, n): (Uuid, i32),
    shown: Shown<'_>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let section = service::sections::get(&state.db, id).await.or_page(&ctx)?;
    require(state, actor, section.tournament_id, Need::Scorer)
        .await
        .or_page(&ctx)?;
    let loaded = async {
        let round = service::rounds::get(&state.db, Some(actor), id, n).await?;
        let entrants = service::entrants::list(&state.db, Some(actor), id).await?;
        let history = service::players::history_before(&state.db, actor, id, n).await?;
        service::Result::Ok((round, entrants, history))
    }
    .await;
    let (round, entrants, history) = loaded.or_page(&ctx)?;
    let history: HashMap<Uuid, &HistoryBefore> =
        history.iter().map(|h| (h.entrant_id, h)).collect();
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
    let players: Vec<Player> = entrants
        .iter()
        .filter(|e: &&EntrantView| e.status == EntrantStatus::Active || on_board.contains(&e.id))
        .map(|e| Player {
            id: e.id,
            label: match e.start_no {
                Some(no) => format!("{no}. {}", e.name),
                None => e.name.clone(),
            },
        })
        .collect();
    let editable =
        round.status == RoundStatus::Paired && round.boards.iter().all(|b| b.result.is_none());
    let form = shown.form.cloned().unwrap_or_else(|| stored(&round));
    let mut errors = shown.errors;
    let warnings: Vec<String> = errors
        .remove("boards")
        .unwrap_or_default()
        .iter()
        .map(|w| tr.msg(w))
        .collect();
    // The service's sentence speaks JSON (`"confirm": true`) and field paths; the page has
    // its button, and says the rows' problems by board and name.
    let name = |id: &str| {
        players
            .iter()
            .find(|p| p.id.to_string() == id)
            .map_or_else(|| id.to_string(), |p| p.label.clone())
    };
    let (errors, problems) = explain(errors, &form, row_count(&form), name, tr);
    let error = if !warnings.is_empty() {
        Some(tr.fmt("adm.repair.broken", warnings.len()))
    } else if !problems.is_empty() {
        Some(tr.t("adm.repair.problems").to_string())
    } else {
        shown.error
    };
    let label = |id: Uuid| {
        players
            .iter()
            .find(|p| p.id == id)
            .map_or_else(|| id.to_string(), |p| p.label.clone())
    };
    let notice = shown
        .swapped
        .map(|(a, b)| tr.fmt_n("adm.repair.swapped", &[&label(a), &label(b)]));
    let rows = rows(&form, &players, &history, tr, &errors);
    let version = form
        .get("version")
        .cloned()
        .unwrap_or_else(|| round.version.to_string());
    let pick = |name: &str| form.get(name).cloned().unwrap_or_default();
    Ok(Page(
        shown.status,
        RepairPage {
            tr,
            ctx,
            section,
            number: n,
            editable,
            rows,
            warnings,
            error,
            problems,
            notice,
            swap_a: choices(&players, &pick("swap_a"), "–"),
            swap_b: choices(&players, &pick("swap_b"), "–"),
            swap_error: shown.swap_error.map(|key| tr.t(key).to_string()),
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
    page(&state, &actor, ctx, (id, n), Shown::plain()).await
}

/// `POST /admin/s/{section_id}/rounds/{n}/edit`: replaces the boards; with broken rules the
/// page lists them (422) until the form comes back with `confirm`. With `action=swap` it
/// swaps two players in the form and shows it again, saving nothing.
pub async fn save_edit(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(mut form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    if form.get("action").is_some_and(|a| a == "swap") {
        // Saving nothing, but part of editing the pairing: for those who may save it.
        service::access::require_first_in_section(&state.db, &actor, id, Need::Arbiter)
            .await
            .or_page(&ctx)?;
        let shown = match swap(&mut form) {
            Ok(pair) => Shown {
                form: Some(&form),
                swapped: Some(pair),
                ..Shown::plain()
            },
            Err(key) => Shown {
                form: Some(&form),
                swap_error: Some(key),
                status: StatusCode::UNPROCESSABLE_ENTITY,
                ..Shown::plain()
            },
        };
        return page(&state, &actor, ctx, (id, n), shown).await;
    }
    let (boards, rows, errors) = boards(&form, tr);
    if !errors.is_empty() {
        let shown = Shown {
            form: Some(&form),
            errors,
            error: Some(tr.t("error.form_invalid").to_string()),
            status: StatusCode::UNPROCESSABLE_ENTITY,
            ..Shown::plain()
        };
        return page(&state, &actor, ctx, (id, n), shown).await;
    }
    let input = ManualPairing {
        boards,
        confirm: Some(form.get("confirm").is_some_and(|v| !v.is_empty())),
        version: form.get("version").and_then(|v| v.trim().parse().ok()),
    };
    let shown = match service::rounds::edit(&state.db, &actor, id, n, &input).await {
        Ok(_) => return Ok(see_other(&format!("/admin/s/{id}/rounds?done=repaired"))),
        Err(Error::Invalid { message, fields }) => Shown {
            form: Some(&form),
            errors: on_rows(fields, &rows),
            error: Some(message.render(ctx.lang)),
            status: StatusCode::UNPROCESSABLE_ENTITY,
            ..Shown::plain()
        },
        Err(err @ Error::Conflict(_)) => Shown {
            form: Some(&form),
            error: Some(err.render(ctx.lang)),
            status: StatusCode::CONFLICT,
            ..Shown::plain()
        },
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    };
    page(&state, &actor, ctx, (id, n), shown).await
}
