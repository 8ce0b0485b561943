//! Rounds at the desk: pair the next, publish, unpair the last, start the clock.

use super::form::ButtonForm;
use super::section::action_failed;
use super::tabs::Tab;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::PageCtx;
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::service::{self};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/s/{section_id}/rounds", post(pair_round))
        .route(
            "/admin/s/{section_id}/rounds/{n}/publish",
            post(publish_round),
        )
        .route(
            "/admin/s/{section_id}/rounds/{n}/unpair",
            post(unpair_round),
        )
        .route("/admin/s/{section_id}/rounds/{n}/clock", post(start_clock))
}

pub async fn pair_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(_form): AppForm<ButtonForm>,
) -> Result<Response, PageError> {
    Ok(
        match service::rounds::pair_next(&state.db, &actor, id).await {
            Ok(_) => see_other(&format!("/admin/s/{id}/rounds?done=paired")),
            Err(err) => action_failed(&state, &actor, ctx, id, Tab::Rounds, err)
                .await
                .into_response(),
        },
    )
}

/// `POST /admin/s/{section_id}/rounds/{n}/publish`
pub async fn publish_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(_form): AppForm<ButtonForm>,
) -> Result<Response, PageError> {
    Ok(
        match service::rounds::publish(&state.db, &actor, id, n).await {
            Ok(_) => see_other(&format!("/admin/s/{id}/rounds?done=published")),
            Err(err) => action_failed(&state, &actor, ctx, id, Tab::Rounds, err)
                .await
                .into_response(),
        },
    )
}

/// `POST /admin/s/{section_id}/rounds/{n}/clock`: starts the round clock the big screens show,
/// with the round's length in minutes when the form gives one.
pub async fn start_clock(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(form): AppForm<ButtonForm>,
) -> Result<Response, PageError> {
    // An empty length starts a clock that only counts up; anything else must be minutes.
    let minutes = match form
        .get("minutes")
        .map(|v| v.trim())
        .filter(|v| !v.is_empty())
    {
        None => Ok(None),
        Some(text) => text.parse::<i32>().map(Some).map_err(|_| {
            service::Error::invalid(
                "minutes",
                crate::i18n::messages::CLOCK_MINUTES_RANGE
                    .with(&[&service::screen::MAX_CLOCK_MINUTES]),
            )
        }),
    };
    let started = match minutes {
        Ok(minutes) => service::screen::start_clock(&state.db, &actor, id, n, minutes).await,
        Err(err) => Err(err),
    };
    Ok(match started {
        Ok(_) => see_other(&format!("/admin/s/{id}/rounds?done=clock")),
        Err(err) => action_failed(&state, &actor, ctx, id, Tab::Rounds, err)
            .await
            .into_response(),
    })
}

/// `POST /admin/s/{section_id}/rounds/{n}/unpair`: deletes the last round; when it has results
/// the form must carry the ticked confirmation `force`, else the page says so (409).
pub async fn unpair_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(form): AppForm<ButtonForm>,
) -> Result<Response, PageError> {
    let force = form.get("force").is_some_and(|v| !v.is_empty());
    Ok(
        match service::rounds::delete_last(&state.db, &actor, id, n, force).await {
            Ok(()) => see_other(&format!("/admin/s/{id}/rounds?done=unpaired")),
            Err(err) => action_failed(&state, &actor, ctx, id, Tab::Rounds, err)
                .await
                .into_response(),
        },
    )
}
