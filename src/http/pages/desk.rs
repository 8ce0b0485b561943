//! The arbiter's desk under `/admin` (login required): create a tournament and its sections,
//! add entrants, pair and publish rounds, enter results with fouls. Every form is CSRF-checked
//! (`AppForm`); every rule and permission is the services'. A refused action re-renders the
//! page with the service's message (4xx), never a 5xx.

use super::session::{see_other, CurrentUser};
use super::{HtmlPage, PageCtx, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::users::Actor;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use uuid::Uuid;

fn given(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// The status a refused action answers with, and its message for the page.
fn refusal(err: service::Error, tr: Tr) -> Result<(StatusCode, String), PageError> {
    let status = crate::http::error::status(&err);
    if status.is_server_error() {
        return Err(PageError::from_service(err, tr.lang));
    }
    let message = match err {
        service::Error::Invalid { message, fields } if !fields.is_empty() => {
            let detail: Vec<String> = fields
                .iter()
                .map(|(field, messages)| format!("{field}: {}", messages.join("; ")))
                .collect();
            if detail.len() == 1 {
                detail.join("")
            } else {
                format!("{message} ({})", detail.join(", "))
            }
        }
        other => other.to_string(),
    };
    Ok((status, message))
}

// ---------------------------------------------------------------- new tournament

/// `GET /admin/tournaments/new`
#[derive(Template)]
#[template(path = "admin/new_tournament.html")]
pub struct NewTournamentPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Values entered.
    pub form: TournamentForm,
    /// What was refused.
    pub error: Option<String>,
}

/// The new-tournament form.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct TournamentForm {
    /// Name.
    #[serde(default)]
    pub name: String,
    /// Game.
    #[serde(default)]
    pub game: String,
    /// First day.
    #[serde(default)]
    pub starts_on: String,
    /// Last day.
    #[serde(default)]
    pub ends_on: String,
    /// Venue.
    #[serde(default)]
    pub venue: String,
    /// Default language tag.
    #[serde(default)]
    pub default_language: String,
}

/// `GET /admin/tournaments/new`
pub async fn show_new_tournament(CurrentUser(_): CurrentUser, ctx: PageCtx) -> Response {
    let form = TournamentForm {
        game: "xiangqi".into(),
        default_language: ctx.lang.tag().into(),
        ..TournamentForm::default()
    };
    HtmlPage(
        StatusCode::OK,
        NewTournamentPage {
            tr: ctx.tr(),
            ctx,
            form,
            error: None,
        },
    )
    .into_response()
}

fn date(text: &str) -> Result<Option<chrono::NaiveDate>, ()> {
    match given(text) {
        None => Ok(None),
        Some(t) => chrono::NaiveDate::parse_from_str(&t, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| ()),
    }
}

/// `POST /admin/tournaments`
pub async fn create_tournament(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    AppForm(form): AppForm<TournamentForm>,
) -> Response {
    let tr = ctx.tr();
    let again = |ctx: PageCtx, status, error: String| {
        HtmlPage(
            status,
            NewTournamentPage {
                tr,
                ctx,
                form: form.clone(),
                error: Some(error),
            },
        )
        .into_response()
    };
    let (Ok(starts_on), Ok(ends_on)) = (date(&form.starts_on), date(&form.ends_on)) else {
        return again(
            ctx,
            StatusCode::UNPROCESSABLE_ENTITY,
            tr.t("register.not_a_date").to_string(),
        );
    };
    let input = service::tournaments::TournamentInput {
        name: Some(form.name.clone()),
        game: given(&form.game),
        venue: given(&form.venue),
        starts_on,
        ends_on,
        default_language: given(&form.default_language),
        ..Default::default()
    };
    match service::tournaments::create(&state.db, &actor, &input).await {
        Ok(t) => see_other(&format!("/admin/t/{}", t.id)),
        Err(err) => match refusal(err, tr) {
            Ok((status, message)) => again(ctx, status, message),
            Err(page) => page.into_response(),
        },
    }
}

// ---------------------------------------------------------------- tournament desk

/// A section row on the tournament desk.
pub struct DeskSection {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Rounds planned.
    pub rounds: i32,
    /// Catalogue key of the pairing system.
    pub system_key: String,
}

/// `GET /admin/t/{id}`
#[derive(Template)]
#[template(path = "admin/tournament.html")]
pub struct TournamentDesk {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Sections.
    pub sections: Vec<DeskSection>,
    /// Values of the new-section form.
    pub form: SectionForm,
    /// What was refused.
    pub error: Option<String>,
}

/// The new-section form.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SectionForm {
    /// Name.
    #[serde(default)]
    pub name: String,
    /// Rounds.
    #[serde(default)]
    pub rounds: String,
    /// Pairing system.
    #[serde(default)]
    pub pairing_system: String,
    /// `individual` or `doubles`.
    #[serde(default)]
    pub entry_type: String,
}

async fn tournament_desk(
    state: &AppState,
    ctx: PageCtx,
    id: Uuid,
    form: SectionForm,
    status: StatusCode,
    error: Option<String>,
) -> Response {
    let loaded = async {
        let t = service::tournaments::get(&state.db, id).await?;
        let sections = service::sections::list(&state.db, id).await?;
        Ok::<_, service::Error>((t, sections))
    }
    .await;
    let (t, sections) = match loaded {
        Ok(found) => found,
        Err(err) => return PageError::from_service(err, ctx.lang).into_response(),
    };
    HtmlPage(
        status,
        TournamentDesk {
            tr: ctx.tr(),
            ctx,
            id: t.id.to_string(),
            name: t.name,
            sections: sections
                .into_iter()
                .map(|s| DeskSection {
                    id: s.id.to_string(),
                    name: s.name,
                    rounds: s.rounds,
                    system_key: format!("system.{}", s.pairing_system),
                })
                .collect(),
            form,
            error,
        },
    )
    .into_response()
}

/// `GET /admin/t/{id}`
pub async fn show_tournament_desk(
    State(state): State<AppState>,
    CurrentUser(_): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Response {
    let form = SectionForm {
        rounds: "5".into(),
        pairing_system: "chinese".into(),
        entry_type: "individual".into(),
        ..SectionForm::default()
    };
    tournament_desk(&state, ctx, id, form, StatusCode::OK, None).await
}

/// `POST /admin/t/{id}/sections`
pub async fn create_section(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<SectionForm>,
) -> Response {
    let tr = ctx.tr();
    let Ok(rounds) = form.rounds.trim().parse::<i64>() else {
        let message = format!("{}: {}", tr.t("desk.rounds"), tr.t("register.not_a_number"));
        return tournament_desk(
            &state,
            ctx,
            id,
            form,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(message),
        )
        .await;
    };
    let input = service::sections::SectionInput {
        name: Some(form.name.clone()),
        rounds: Some(rounds),
        pairing_system: given(&form.pairing_system),
        entry_type: given(&form.entry_type),
        ..Default::default()
    };
    match service::sections::create(&state.db, &actor, id, &input).await {
        Ok(s) => see_other(&format!("/admin/s/{}", s.id)),
        Err(err) => match refusal(err, tr) {
            Ok((status, message)) => {
                tournament_desk(&state, ctx, id, form, status, Some(message)).await
            }
            Err(page) => page.into_response(),
        },
    }
}

// ---------------------------------------------------------------- section desk

/// A board on the section desk, with its result form.
pub struct DeskBoard {
    /// Board id (form action).
    pub id: String,
    /// Board number.
    pub number: i32,
    /// Red's number and name.
    pub red: String,
    /// Black's number and name; empty for the bye.
    pub black: String,
    /// The result entered (value of the select), or empty.
    pub result: String,
    /// Red's fouls.
    pub red_fouls: i64,
    /// Black's fouls.
    pub black_fouls: i64,
    /// Version of the result, for stale-edit detection.
    pub version: String,
}

/// `GET /admin/s/{id}`
#[derive(Template)]
#[template(path = "admin/section.html")]
pub struct SectionDesk {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Tournament id.
    pub tournament_id: String,
    /// Tournament name.
    pub tournament_name: String,
    /// Section id.
    pub id: String,
    /// Section name.
    pub name: String,
    /// Entrants so far.
    pub entrants: usize,
    /// The latest round's number, or 0.
    pub round: i32,
    /// Catalogue key of its status.
    pub round_status_key: String,
    /// Its status is `paired` (can be published).
    pub can_publish: bool,
    /// Its boards.
    pub boards: Vec<DeskBoard>,
    /// Result values for the select.
    pub results: Vec<&'static str>,
    /// What was refused.
    pub error: Option<String>,
}

/// Result codes the desk offers (the service checks them again).
const RESULT_CHOICES: [&str; 6] = [
    "red_wins",
    "draw",
    "black_wins",
    "red_forfeits",
    "black_forfeits",
    "double_forfeit",
];

async fn section_desk(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    status: StatusCode,
    error: Option<String>,
) -> Response {
    let loaded = async {
        let s = service::sections::get(&state.db, id).await?;
        let t = service::tournaments::get(&state.db, s.tournament_id).await?;
        let entrants = service::entrants::list(&state.db, Some(actor), id).await?;
        let rounds = service::rounds::list(&state.db, id).await?;
        Ok::<_, service::Error>((s, t, entrants, rounds))
    }
    .await;
    let (s, t, entrants, rounds) = match loaded {
        Ok(found) => found,
        Err(err) => return PageError::from_service(err, ctx.lang).into_response(),
    };
    let latest = rounds.last();
    let label = |no: Option<i32>, name: &str| match no {
        Some(n) => format!("{n}. {name}"),
        None => name.to_string(),
    };
    HtmlPage(
        status,
        SectionDesk {
            tr: ctx.tr(),
            ctx,
            tournament_id: t.id.to_string(),
            tournament_name: t.name,
            id: s.id.to_string(),
            name: s.name,
            entrants: entrants.len(),
            round: latest.map(|r| r.number).unwrap_or(0),
            round_status_key: latest
                .map(|r| format!("round_status.{}", r.status))
                .unwrap_or_default(),
            can_publish: latest.is_some_and(|r| r.status == "paired"),
            boards: latest
                .map(|r| {
                    r.boards
                        .iter()
                        .map(|b| DeskBoard {
                            id: b.id.to_string(),
                            number: b.number,
                            red: label(b.red.start_no, &b.red.name),
                            black: b
                                .black
                                .as_ref()
                                .map(|k| label(k.start_no, &k.name))
                                .unwrap_or_default(),
                            result: b.result.clone().unwrap_or_default(),
                            red_fouls: b.red_fouls,
                            black_fouls: b.black_fouls,
                            version: b.version.map(|v| v.to_string()).unwrap_or_default(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            results: RESULT_CHOICES.to_vec(),
            error,
        },
    )
    .into_response()
}

/// `GET /admin/s/{id}`
pub async fn show_section_desk(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Response {
    section_desk(&state, &actor, ctx, id, StatusCode::OK, None).await
}

/// After an action: back to the desk, or the desk again with the refusal.
async fn after(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    outcome: service::Result<()>,
) -> Response {
    match outcome {
        Ok(()) => see_other(&format!("/admin/s/{id}")),
        Err(err) => match refusal(err, ctx.tr()) {
            Ok((status, message)) => {
                section_desk(state, actor, ctx, id, status, Some(message)).await
            }
            Err(page) => page.into_response(),
        },
    }
}

/// The add-entrant form.
#[derive(Debug, Deserialize)]
pub struct EntrantForm {
    /// Name.
    #[serde(default)]
    pub name: String,
    /// Club.
    #[serde(default)]
    pub club: String,
    /// Rating.
    #[serde(default)]
    pub rating: String,
}

/// `POST /admin/s/{id}/entrants`
pub async fn add_entrant(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<EntrantForm>,
) -> Response {
    let rating = match given(&form.rating).map(|r| r.parse::<i64>()) {
        None => None,
        Some(Ok(r)) => Some(r),
        Some(Err(_)) => {
            let tr = ctx.tr();
            let message = format!("{}: {}", tr.t("col.rating"), tr.t("register.not_a_number"));
            return section_desk(
                &state,
                &actor,
                ctx,
                id,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(message),
            )
            .await;
        }
    };
    let input = service::entrants::EntrantInput {
        name: Some(form.name.clone()),
        club: given(&form.club),
        rating,
        ..Default::default()
    };
    let outcome = service::entrants::add(&state.db, &actor, id, &input)
        .await
        .map(|_| ());
    after(&state, &actor, ctx, id, outcome).await
}

/// Forms that carry only their CSRF token.
#[derive(Debug, Deserialize)]
pub struct EmptyForm {}

/// `POST /admin/s/{id}/rounds`: pairs the next round.
pub async fn pair_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(EmptyForm {}): AppForm<EmptyForm>,
) -> Response {
    let outcome = service::rounds::pair_next(&state.db, &actor, id)
        .await
        .map(|_| ());
    after(&state, &actor, ctx, id, outcome).await
}

/// `POST /admin/s/{id}/rounds/{n}/publish`
pub async fn publish_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(EmptyForm {}): AppForm<EmptyForm>,
) -> Response {
    let outcome = service::rounds::publish(&state.db, &actor, id, n)
        .await
        .map(|_| ());
    after(&state, &actor, ctx, id, outcome).await
}

/// The result form of one board.
#[derive(Debug, Deserialize)]
pub struct ResultForm {
    /// The section, to come back to.
    pub section_id: Uuid,
    /// Result code.
    #[serde(default)]
    pub result: String,
    /// Red's fouls.
    #[serde(default)]
    pub red_fouls: String,
    /// Black's fouls.
    #[serde(default)]
    pub black_fouls: String,
    /// The version shown; a stale one is refused (409).
    #[serde(default)]
    pub version: String,
}

/// `POST /admin/boards/{id}/result`
pub async fn enter_result(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(board): PagePath<Uuid>,
    AppForm(form): AppForm<ResultForm>,
) -> Response {
    let number = |text: &str| given(text).and_then(|t| t.parse::<i64>().ok());
    let input = service::rounds::ResultInput {
        result: form.result.clone(),
        red_fouls: number(&form.red_fouls),
        black_fouls: number(&form.black_fouls),
        version: None,
    };
    let expected = given(&form.version).and_then(|v| v.parse::<i32>().ok());
    let outcome = service::rounds::set_result(&state.db, &actor, board, &input, expected)
        .await
        .map(|_| ());
    after(&state, &actor, ctx, form.section_id, outcome).await
}
