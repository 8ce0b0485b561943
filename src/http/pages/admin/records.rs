//! The desk's record entry (issue #18): `/admin/boards/{board_id}/record` for a Swiss board,
//! `/admin/matches/{match_id}/games/{n}/record` for a knockout game. The tournament's staff
//! (scorers included) type the moves in ICCS, Chinese or WXF (Banqi in its own notation).
//!
//! Without script the form's "Check" button shows the moves read, the board after them and
//! the first bad half-move next to the field; "Save" stores the record (refused with the same
//! message, 422, while a half-move is bad; 409 when someone saved meanwhile).
//! `static/js/records.js` posts the text to `…/record/check` as it is typed (debounced) and
//! redraws the list and the board from the JSON answer.

use super::form::{checkbox, number, text, Fields};
use crate::http::error::{ApiError, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::board::{board_svg, script_of};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::{Msg, Tr};
use crate::service::records::{BanqiAid, GameContext, GameKey, RecordInput, Replay};
use crate::service::{self, Error, FieldErrors};
use crate::vocab::{Game, RecordNotation, ReplayStatus, RoundStatus};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use uuid::Uuid;

/// The routes of these pages.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/admin/boards/{board_id}/record",
            get(show_board_record).post(save_board_record),
        )
        .route(
            "/admin/boards/{board_id}/record/check",
            post(check_board_record),
        )
        .route(
            "/admin/matches/{match_id}/games/{n}/record",
            get(show_match_record).post(save_match_record),
        )
        .route(
            "/admin/matches/{match_id}/games/{n}/record/check",
            post(check_match_record),
        )
}

/// A notation choice of the form.
pub struct NotationChoice {
    /// The notation.
    pub value: RecordNotation,
    /// Catalogue key.
    pub key: String,
    /// Selected.
    pub selected: bool,
}

/// One half-move read.
pub struct DeskPly {
    /// Half-move number.
    pub ply: usize,
    /// As typed.
    pub text: String,
    /// In ICCS.
    pub iccs: String,
    /// In Chinese.
    pub chinese: String,
    /// The position after it.
    pub fen: String,
}

/// The desk's record page.
#[derive(Template)]
#[template(path = "admin/record.html")]
pub struct RecordDeskPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Where "back" goes.
    pub back_url: String,
    /// The form's action.
    pub action_url: String,
    /// The check endpoint for the script.
    pub check_url: String,
    /// The public page of the game, when it has one.
    pub public_url: String,
    /// Heading.
    pub heading: String,
    /// Red.
    pub red: String,
    /// Black.
    pub black: String,
    /// `xiangqi`, `jieqi`, `banqi`.
    pub game: Game,
    /// Notations offered.
    pub notations: Vec<NotationChoice>,
    /// The text in the field.
    pub text: String,
    /// Version to send back.
    pub version: i32,
    /// The half-moves read.
    pub plies: Vec<DeskPly>,
    /// The first problem, in the page's language.
    pub problem: Option<String>,
    /// Its half-move.
    pub problem_ply: usize,
    /// A refusal or other message.
    pub error: Option<String>,
    /// A success message.
    pub notice: Option<String>,
    /// The start position.
    pub start_fen: String,
    /// The board after the last good half-move.
    pub svg: String,
    /// Banqi: the desk aid.
    pub banqi: Option<BanqiAid>,
    /// Catalogue key of the status, or empty.
    pub status_key: String,
}

/// `?done=saved`.
#[derive(Debug, Default, Deserialize)]
pub struct DeskQuery {
    /// What just happened.
    pub done: Option<String>,
}

struct Shown {
    text: String,
    notation: String,
    version: i32,
    replay: Replay,
    error: Option<String>,
    notice: Option<String>,
}

fn back_and_public(ctx: &GameContext) -> (String, String) {
    match (ctx.section_id, ctx.match_id) {
        (Some(section), None) => (
            format!("/admin/s/{section}/rounds/{}/results", ctx.round),
            format!("/s/{section}/games/{}/{}", ctx.round, ctx.board),
        ),
        (Some(section), Some(_)) => (format!("/admin/s/{section}/knockout"), String::new()),
        (None, _) => (
            format!("/admin/t/{}/playoff", ctx.tournament_id),
            String::new(),
        ),
    }
}

fn urls(key: GameKey) -> (String, String) {
    let action = match key {
        GameKey::Board(id) => format!("/admin/boards/{id}/record"),
        GameKey::MatchGame(id, n) => format!("/admin/matches/{id}/games/{n}/record"),
    };
    let check = format!("{action}/check");
    (action, check)
}

async fn render(
    state: &AppState,
    actor: &service::users::Actor,
    ctx: PageCtx,
    key: GameKey,
    shown: Option<Shown>,
    status: StatusCode,
) -> Response {
    let script = script_of(ctx.lang);
    let (game_ctx, view) = match service::records::desk(&state.db, actor, key, script).await {
        Ok(found) => found,
        Err(err) => return PageError::from_ctx(err, &ctx).into_response(),
    };
    let ctx = ctx.with_default_tag(&game_ctx.default_language);
    let tr = ctx.tr();
    let shown = shown.unwrap_or_else(|| Shown {
        text: view.source.clone().unwrap_or_default(),
        notation: view.notation.to_string(),
        version: view.version,
        replay: view.replay.clone(),
        error: None,
        notice: None,
    });
    let (back_url, mut public_url) = back_and_public(&game_ctx);
    // The public page exists once there is a record in a published round.
    if view.version == 0 || game_ctx.round_status == Some(RoundStatus::Paired) {
        public_url.clear();
    }
    let (action_url, check_url) = urls(key);
    let heading = if game_ctx.match_id.is_some() {
        format!(
            "{} · {}",
            tr.fmt("round.n", game_ctx.round),
            tr.fmt("rec.game_n", game_ctx.game_number)
        )
    } else {
        format!(
            "{} · {}",
            tr.fmt("round.n", game_ctx.round),
            tr.fmt("rec.board_title", game_ctx.board)
        )
    };
    let fen = shown
        .replay
        .plies
        .last()
        .map_or(shown.replay.start_fen.clone(), |p| p.fen.clone());
    let svg = board_svg(shown.replay.game, &fen, &[], tr);
    let notations = service::records::notations(game_ctx.game)
        .iter()
        .map(|&value| NotationChoice {
            value,
            key: format!("rec.notation.{value}"),
            selected: value.as_str() == shown.notation,
        })
        .collect();
    let status_key = match shown.replay.status {
        ReplayStatus::Ongoing => String::new(),
        s => format!("rec.status.{s}"),
    };
    Page(
        status,
        RecordDeskPage {
            tr,
            back_url,
            action_url,
            check_url,
            public_url,
            heading,
            red: game_ctx.red_name.clone(),
            black: game_ctx.black_name.clone(),
            game: game_ctx.game,
            notations,
            text: shown.text,
            version: shown.version,
            plies: shown
                .replay
                .plies
                .iter()
                .map(|p| DeskPly {
                    ply: p.ply,
                    text: p.text.clone(),
                    iccs: p.iccs.clone(),
                    chinese: p.chinese.clone(),
                    fen: p.fen.clone(),
                })
                .collect(),
            problem: shown.replay.error.as_ref().map(|p| tr.msg(&p.message)),
            problem_ply: shown.replay.error.as_ref().map_or(0, |p| p.ply),
            error: shown.error,
            notice: shown.notice,
            start_fen: shown.replay.start_fen.clone(),
            svg,
            banqi: shown.replay.banqi.clone(),
            status_key,
            ctx,
        },
    )
    .into_response()
}

async fn show(
    state: AppState,
    actor: service::users::Actor,
    ctx: PageCtx,
    key: GameKey,
    done: Option<String>,
) -> Response {
    let notice = match done.as_deref() {
        Some("saved") => Some(ctx.tr().t("rec.saved").to_string()),
        Some("deleted") => Some(ctx.tr().t("rec.deleted").to_string()),
        _ => None,
    };
    if notice.is_none() {
        return render(&state, &actor, ctx, key, None, StatusCode::OK).await;
    }
    let script = script_of(ctx.lang);
    match service::records::desk(&state.db, &actor, key, script).await {
        Ok((_, view)) => {
            let shown = Shown {
                text: view.source.clone().unwrap_or_default(),
                notation: view.notation.to_string(),
                version: view.version,
                replay: view.replay,
                error: None,
                notice,
            };
            render(&state, &actor, ctx, key, Some(shown), StatusCode::OK).await
        }
        Err(err) => PageError::from_ctx(err, &ctx).into_response(),
    }
}

/// Reads the form: notation, text, version.
fn read(form: &Fields, tr: Tr) -> Result<(RecordInput, Option<i32>), Error> {
    let mut errors = FieldErrors::new();
    let version = number(form, "version", tr, &mut errors).and_then(|v| i32::try_from(v).ok());
    if !errors.is_empty() {
        return Err(Error::Invalid {
            message: crate::i18n::ui("error.form_invalid"),
            fields: errors,
        });
    }
    Ok((
        RecordInput {
            notation: text(form, "notation").unwrap_or_default(),
            text: form.get("text").cloned().unwrap_or_default(),
            version: None,
        },
        version,
    ))
}

async fn save(
    state: AppState,
    actor: service::users::Actor,
    ctx: PageCtx,
    key: GameKey,
    form: Fields,
) -> Response {
    if let Err(err) = service::records::require(&state.db, &actor, key).await {
        return PageError::from_ctx(err, &ctx).into_response();
    }
    let tr = ctx.tr();
    let (input, version) = match read(&form, tr) {
        Ok(read) => read,
        Err(err) => return PageError::from_ctx(err, &ctx).into_response(),
    };
    if form.get("action").map(String::as_str) == Some("delete") {
        return delete(state, actor, ctx, key, &form, version).await;
    }
    let checking = form.get("action").map(String::as_str) == Some("check");
    let script = script_of(ctx.lang);
    if checking {
        return match service::records::check(&state.db, &actor, key, &input, script).await {
            Ok(replay) => {
                let status = if replay.error.is_some() {
                    StatusCode::UNPROCESSABLE_ENTITY
                } else {
                    StatusCode::OK
                };
                let shown = Shown {
                    text: input.text,
                    notation: input.notation,
                    version: version.unwrap_or(0),
                    replay,
                    error: None,
                    notice: None,
                };
                render(&state, &actor, ctx, key, Some(shown), status).await
            }
            Err(err) => refused(&state, &actor, ctx, key, input, version, err).await,
        };
    }
    match service::records::save(&state.db, &actor, key, &input, version).await {
        Ok(_) => {
            let (action, _) = urls(key);
            see_other(&format!("{action}?done=saved"))
        }
        Err(err) => refused(&state, &actor, ctx, key, input, version, err).await,
    }
}

/// Deletes the record once the confirmation box is ticked (the page says so otherwise, 422).
async fn delete(
    state: AppState,
    actor: service::users::Actor,
    ctx: PageCtx,
    key: GameKey,
    form: &Fields,
    version: Option<i32>,
) -> Response {
    if !checkbox(form, "confirm") {
        let tr = ctx.tr();
        let shown = Shown {
            text: form.get("text").cloned().unwrap_or_default(),
            notation: text(form, "notation").unwrap_or_default(),
            version: version.unwrap_or(0),
            replay: match service::records::desk(&state.db, &actor, key, script_of(ctx.lang)).await
            {
                Ok((_, view)) => view.replay,
                Err(err) => return PageError::from_ctx(err, &ctx).into_response(),
            },
            error: Some(tr.t("rec.delete_confirm_needed").to_string()),
            notice: None,
        };
        return render(
            &state,
            &actor,
            ctx,
            key,
            Some(shown),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    match service::records::delete(&state.db, &actor, key, version).await {
        Ok(()) => {
            let (action, _) = urls(key);
            see_other(&format!("{action}?done=deleted"))
        }
        Err(err) => PageError::from_ctx(err, &ctx).into_response(),
    }
}

/// The page again with the typed text, its check and why it was refused (422, 409); other
/// errors as an error page.
async fn refused(
    state: &AppState,
    actor: &service::users::Actor,
    ctx: PageCtx,
    key: GameKey,
    input: RecordInput,
    version: Option<i32>,
    err: Error,
) -> Response {
    let status = crate::http::error::status(&err);
    if status != StatusCode::UNPROCESSABLE_ENTITY && status != StatusCode::CONFLICT {
        return PageError::from_ctx(err, &ctx).into_response();
    }
    let script = script_of(ctx.lang);
    // Show how far the text reads (the check repeats the service's, without the size
    // refusal when that was the problem).
    let replay = service::records::check(&state.db, actor, key, &input, script)
        .await
        .ok();
    let Some(replay) = replay else {
        return PageError::from_ctx(err, &ctx).into_response();
    };
    let error = match &err {
        Error::Invalid { .. } if replay.error.is_some() => None,
        _ => Some(err.render(ctx.lang)),
    };
    let shown = Shown {
        text: input.text,
        notation: input.notation,
        version: version.unwrap_or(0),
        replay,
        error,
        notice: None,
    };
    render(state, actor, ctx, key, Some(shown), status).await
}

async fn check_json(
    state: AppState,
    actor: service::users::Actor,
    ctx: PageCtx,
    key: GameKey,
    form: Fields,
) -> Response {
    if let Err(err) = service::records::require(&state.db, &actor, key).await {
        return ApiError::from(err).into_response();
    }
    let tr = ctx.tr();
    let (input, _) = match read(&form, tr) {
        Ok(read) => read,
        Err(err) => return ApiError::from(err).into_response(),
    };
    match service::records::check(&state.db, &actor, key, &input, script_of(ctx.lang)).await {
        Ok(mut replay) => {
            if let Some(problem) = &mut replay.error {
                problem.message = Msg::shown(tr.msg(&problem.message));
            }
            Json(replay).into_response()
        }
        Err(err) => ApiError::from(err).into_response(),
    }
}

/// `GET /admin/boards/{board_id}/record`
pub async fn show_board_record(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    uri: Uri,
) -> Response {
    let done = serde_urlencoded::from_str::<DeskQuery>(uri.query().unwrap_or(""))
        .ok()
        .and_then(|q| q.done);
    show(state, actor, ctx, GameKey::Board(id), done).await
}

/// `POST /admin/boards/{board_id}/record`: `notation`, `text`, `version`; `action=check`
/// only checks.
pub async fn save_board_record(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Response {
    save(state, actor, ctx, GameKey::Board(id), form).await
}

/// `POST /admin/boards/{board_id}/record/check`: the check as JSON (for the script).
pub async fn check_board_record(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Response {
    check_json(state, actor, ctx, GameKey::Board(id), form).await
}

/// `GET /admin/matches/{match_id}/games/{n}/record`
pub async fn show_match_record(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    uri: Uri,
) -> Response {
    let done = serde_urlencoded::from_str::<DeskQuery>(uri.query().unwrap_or(""))
        .ok()
        .and_then(|q| q.done);
    show(state, actor, ctx, GameKey::MatchGame(id, n), done).await
}

/// `POST /admin/matches/{match_id}/games/{n}/record`
pub async fn save_match_record(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(form): AppForm<Fields>,
) -> Response {
    save(state, actor, ctx, GameKey::MatchGame(id, n), form).await
}

/// `POST /admin/matches/{match_id}/games/{n}/record/check`
pub async fn check_match_record(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(form): AppForm<Fields>,
) -> Response {
    check_json(state, actor, ctx, GameKey::MatchGame(id, n), form).await
}
