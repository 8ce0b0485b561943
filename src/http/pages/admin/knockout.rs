//! The dashboard's knockout stage: `/admin/s/{section_id}/knockout` creates the snake-seeded
//! bracket from the final Swiss standings and records match games (Red is the match's
//! `next_red`). Everything through `service::knockout`.

use super::form::{number, require, text, Field, Fields};
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::MatchScoreText;
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Msg;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::knockout::{BracketView, KnockoutInput, MatchGameInput};
use crate::service::sections::Section;
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
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
        .route(
            "/admin/s/{section_id}/knockout",
            get(show_knockout).post(create_knockout),
        )
        .route(
            "/admin/s/{section_id}/knockout/matches/{match_id}/games",
            post(record_match_game),
        )
}

/// A match as shown.
pub struct MatchRow {
    /// Id.
    pub id: Uuid,
    /// Round and slot, e.g. "1.2", or the 3rd-place match.
    pub label: String,
    /// Higher seed.
    pub high: String,
    /// Lower seed.
    pub low: String,
    /// The score in the bracket's notation: regular games, tiebreak games apart
    /// (`1–1 · tiebreak 1–0`).
    pub score: String,
    /// What decided the match, once decided.
    pub decided: String,
    /// Games played, one short line each.
    pub games: usize,
    /// Who has Red in the next game, when one is due.
    pub next_red: Option<String>,
    /// Kind of the next game in words (`rapid tiebreak game`).
    pub next_kind: String,
    /// The winner's name, once decided.
    pub winner: Option<String>,
    /// The next game in words and its set-up's commitment, once drawn (issue #40).
    pub next_game: Option<(String, Option<String>)>,
}

/// `GET /admin/s/{section_id}/knockout`
#[derive(Template)]
#[template(path = "admin/knockout.html")]
pub struct KnockoutPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// The bracket, once created.
    pub bracket: Option<BracketView>,
    /// Its matches.
    pub matches: Vec<MatchRow>,
    /// The creation form.
    pub fields: Vec<Field>,
    /// Why the last action was refused.
    pub error: Option<String>,
    /// Where a match's game form posts: `{games_base}/{match_id}/games`.
    pub games_base: String,
    /// Prefix of the game forms' element ids.
    pub id_prefix: &'static str,
    /// What this person may do (a scorer sees no arbiter's form).
    pub powers: service::access::Powers,
    /// Each knockout round's rules and its form (issue #40).
    pub stages: Vec<StageForm>,
    /// Whether the tournament's game has hidden pieces (set-ups are drawn).
    pub hidden_pieces: bool,
}

fn creation_fields(form: &Fields) -> Vec<Field> {
    vec![
        Field::plain("size", "adm.ko.size", "number", form, "8"),
        Field::plain("best_of", "adm.ko.best_of", "number", form, "3"),
    ]
}

/// The knockout tab, with the form's values and refusal.
pub async fn page(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    form: &Fields,
    (errors, error): (FieldErrors, Option<String>),
    status: StatusCode,
) -> Result<Response, PageError> {
    let section = service::sections::get(&state.db, id).await.or_page(&ctx)?;
    require(state, actor, section.tournament_id, Need::Scorer)
        .await
        .or_page(&ctx)?;
    let powers = super::form::powers(state, actor, section.tournament_id)
        .await
        .or_page(&ctx)?;
    let bracket = match service::knockout::get(&state.db, Some(actor), id).await {
        Ok(b) => Some(b),
        Err(Error::NotFound(_)) => None,
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    };
    let matches = bracket
        .as_ref()
        .map(|b| match_rows(ctx.tr(), b))
        .unwrap_or_default();
    let stages = bracket
        .as_ref()
        .map(|b| stage_forms(ctx.tr(), b, form))
        .unwrap_or_default();
    let hidden_pieces = service::tournaments::get(&state.db, section.tournament_id)
        .await
        .or_page(&ctx)?
        .game
        != crate::vocab::Game::Xiangqi;
    let tr = ctx.tr();
    let mut fields = creation_fields(form);
    for f in &mut fields {
        f.error = errors
            .get(f.name)
            .map(|m| tr.msg(&Msg::list(m.iter().cloned())));
    }
    Ok(Page(
        status,
        KnockoutPage {
            powers,
            tr: ctx.tr(),
            ctx,
            games_base: format!("/admin/s/{}/knockout/matches", section.id),
            id_prefix: "ko",
            section,
            bracket,
            matches,
            fields,
            error,
            stages,
            hidden_pieces,
        },
    )
    .into_response())
}

/// The matches of a bracket as shown (the knockout stage and the playoff alike).
pub fn match_rows(tr: Tr, b: &BracketView) -> Vec<MatchRow> {
    let name = |id: Option<Uuid>| {
        b.matches
            .iter()
            .flat_map(|m| [m.high.as_ref(), m.low.as_ref()])
            .flatten()
            .find(|s| Some(s.entrant_id) == id)
            .map(|s| s.name.clone())
    };
    b.matches
        .iter()
        .map(|m| MatchRow {
            id: m.id,
            label: if m.third_place {
                "3".to_string()
            } else {
                format!("{}.{}", m.round, m.slot)
            },
            high: m
                .high
                .as_ref()
                .map(|s| format!("({}) {}", s.seed, s.name))
                .unwrap_or_default(),
            low: m
                .low
                .as_ref()
                .map(|s| format!("({}) {}", s.seed, s.name))
                .unwrap_or_default(),
            score: MatchScoreText::of(tr, m).line(),
            decided: MatchScoreText::of(tr, m).decided,
            games: m.games.len(),
            next_red: m.next_game.as_ref().and(name(m.next_red)),
            next_kind: m
                .next_game
                .as_ref()
                .map(|g| tr.t(&format!("ko.kind.{}", g.kind)).to_string())
                .unwrap_or_default(),
            winner: name(m.winner),
            next_game: crate::http::pages::shared::knockout::next_game(tr, m),
        })
        .collect()
}

/// A knockout round's rules as the desk shows them, with its form's values.
pub struct StageForm {
    /// The rules in words.
    pub line: crate::http::pages::shared::knockout::StageLine,
    /// `capturer_sees` or `face_down`.
    pub capture_rule: String,
    /// The tiebreak lines as typed (`rapid 1 10+5`).
    pub tiebreaks: String,
    /// The version the form was read at.
    pub version: i32,
    /// Whether any set-up is drawn for the round (its sheets are linked).
    pub has_setups: bool,
}

/// Every round's rules and form; the round a refused form came from keeps what was typed.
pub fn stage_forms(tr: Tr, b: &BracketView, form: &Fields) -> Vec<StageForm> {
    let rounds = b.stages.len() as i32;
    let posted: Option<i32> = form.get("stage_round").and_then(|r| r.parse().ok());
    b.stages
        .iter()
        .map(|s| {
            let mine = posted == Some(s.round);
            let has_setups = b.round_setups.iter().any(|r| r.round == s.round)
                || b.matches.iter().any(|m| {
                    m.round == s.round && m.next_game.as_ref().is_some_and(|g| g.setup.is_some())
                });
            StageForm {
                line: crate::http::pages::shared::knockout::stage_line(tr, s, rounds),
                capture_rule: form
                    .get("capture_rule")
                    .filter(|_| mine)
                    .cloned()
                    .unwrap_or_else(|| s.capture_rule.to_string()),
                tiebreaks: form
                    .get("tiebreaks")
                    .filter(|_| mine)
                    .cloned()
                    .unwrap_or_else(|| crate::service::knockout_stages::lines_text(&s.tiebreaks)),
                version: s.version,
                has_setups,
            }
        })
        .collect()
}

/// `GET /admin/s/{section_id}/knockout`
pub async fn show_knockout(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    page(
        &state,
        &actor,
        ctx,
        id,
        &Fields::new(),
        (FieldErrors::new(), None),
        StatusCode::OK,
    )
    .await
}

/// The status, field errors and message of a refusal shown on the page (409/422); `None` for
/// errors answered with an error page.
pub fn refused(err: &Error, lang: crate::i18n::Lang) -> Option<(StatusCode, FieldErrors, String)> {
    let status = crate::http::error::status(err);
    if status != StatusCode::CONFLICT && status != StatusCode::UNPROCESSABLE_ENTITY {
        return None;
    }
    let fields = match err {
        Error::Invalid { fields, .. } => fields.clone(),
        _ => FieldErrors::new(),
    };
    Some((status, fields, err.render(lang)))
}

/// `POST /admin/s/{section_id}/knockout`: creates the bracket.
pub async fn create_knockout(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let mut errors = FieldErrors::new();
    let input = KnockoutInput {
        size: number(&form, "size", tr, &mut errors),
        best_of: number(&form, "best_of", tr, &mut errors),
        third_place: Some(form.get("third_place").is_some_and(|v| !v.is_empty())),
        game1_colour: text(&form, "game1_colour"),
        game3_colour: None,
        decide_by: None,
        setup_mode: text(&form, "setup_mode"),
    };
    if !errors.is_empty() {
        let message = tr.t("error.form_invalid").to_string();
        return page(
            &state,
            &actor,
            ctx,
            id,
            &form,
            (errors, Some(message)),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    Ok(
        match service::knockout::create(&state.db, &actor, id, &input).await {
            Ok(_) => see_other(&format!("/admin/s/{id}/knockout")),
            Err(err) => match refused(&err, ctx.lang) {
                Some((status, fields, message)) => {
                    page(
                        &state,
                        &actor,
                        ctx,
                        id,
                        &form,
                        (fields, Some(message)),
                        status,
                    )
                    .await?
                }
                None => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    )
}

/// Records the next game of a match from a game form (`result`, `red_fouls`, `black_fouls`),
/// for the knockout page and the playoff page alike.
pub async fn record_game_form(
    state: &AppState,
    actor: &Actor,
    match_id: Uuid,
    form: &Fields,
    tr: Tr,
) -> Result<(), Error> {
    let mut errors = FieldErrors::new();
    let input = MatchGameInput {
        result: form.get("result").cloned().unwrap_or_default(),
        red_fouls: number(form, "red_fouls", tr, &mut errors),
        black_fouls: number(form, "black_fouls", tr, &mut errors),
        version: form.get("version").and_then(|v| v.trim().parse().ok()),
    };
    if !errors.is_empty() {
        return Err(Error::Invalid {
            message: crate::i18n::ui("error.form_invalid"),
            fields: errors,
        });
    }
    service::knockout::record_game(&state.db, actor, match_id, &input, None)
        .await
        .map(drop)
}

/// `POST /admin/s/{section_id}/knockout/matches/{match_id}/games`: the next game of a match.
pub async fn record_match_game(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, match_id)): PagePath<(Uuid, Uuid)>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    Ok(
        match record_game_form(&state, &actor, match_id, &form, ctx.tr()).await {
            Ok(()) => see_other(&format!("/admin/s/{id}/knockout")),
            Err(err) => match refused(&err, ctx.lang) {
                Some((status, _, message)) => {
                    page(
                        &state,
                        &actor,
                        ctx,
                        id,
                        &Fields::new(),
                        (FieldErrors::new(), Some(message)),
                        status,
                    )
                    .await?
                }
                None => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    )
}
