//! Ties the tiebreak chain leaves (`/admin/s/{section_id}/ties`): each tied group with its
//! decision, a "draw lots" button and a form for an explicit order. Through `service::ties`,
//! as the API (`/api/v1/sections/{id}/ties`).

use super::form::require;
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::access::Need;
use crate::service::sections::Section;
use crate::service::ties::{TieGroup, TieInput};
use crate::service::Error;
use crate::vocab::TieMethod;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::collections::HashMap;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/admin/s/{section_id}/ties",
        get(show_ties).post(decide_tie),
    )
}

/// `GET /admin/s/{section_id}/ties`
#[derive(Template)]
#[template(path = "admin/ties.html")]
pub struct TiesPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// The tied groups.
    pub groups: Vec<TieGroup>,
    /// Why the last decision was refused.
    pub error: Option<String>,
}

impl TiesPage {
    /// The entrants of a group as the form's hidden value.
    pub fn ids(&self, group: &TieGroup) -> String {
        group
            .entrants
            .iter()
            .map(|e| e.entrant_id.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }
}

async fn page(
    state: &AppState,
    actor: &service::users::Actor,
    ctx: PageCtx,
    id: Uuid,
    error: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        require(state, actor, section.tournament_id, Need::Arbiter).await?;
        let groups = service::ties::list(&state.db, id).await?;
        service::Result::Ok((section, groups))
    }
    .await;
    let (section, groups) = loaded.or_page(&ctx)?;
    Ok(Page(
        status,
        TiesPage {
            tr: ctx.tr(),
            ctx,
            section,
            groups,
            error,
        },
    )
    .into_response())
}

/// `GET /admin/s/{section_id}/ties`
pub async fn show_ties(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    page(&state, &actor, ctx, id, None, StatusCode::OK).await
}

/// `POST /admin/s/{section_id}/ties`: `method=lot` with `entrants` (comma-separated ids), or
/// `method=manual` with `place_<entrant id>` = 1, 2, … for each entrant of the group.
pub async fn decide_tie(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<HashMap<String, String>>,
) -> Result<Response, PageError> {
    let entrants: Vec<Uuid> = form
        .get("entrants")
        .map(String::as_str)
        .unwrap_or("")
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let method = form.get("method").cloned().unwrap_or_default();
    // Who may decide is checked before the form is read.
    let allowed = async {
        let section = service::sections::get(&state.db, id).await?;
        require(&state, &actor, section.tournament_id, Need::Arbiter).await
    }
    .await;
    allowed.or_page(&ctx)?;
    let entrants = if matches!(method.parse(), Ok(TieMethod::Manual)) {
        let mut placed: Vec<(i64, Uuid)> = entrants
            .iter()
            .map(|e| {
                let place = form
                    .get(&format!("place_{e}"))
                    .and_then(|p| p.trim().parse().ok())
                    .unwrap_or(i64::MAX);
                (place, *e)
            })
            .collect();
        let mut places: Vec<i64> = placed.iter().map(|p| p.0).collect();
        places.sort_unstable();
        if places != (1..=placed.len() as i64).collect::<Vec<_>>() {
            let tr = ctx.tr();
            let message = tr.fmt("adm.ties.places", placed.len());
            return page(
                &state,
                &actor,
                ctx,
                id,
                Some(message),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
        placed.sort();
        placed.into_iter().map(|p| p.1).collect()
    } else {
        entrants
    };
    let input = TieInput { method, entrants };
    Ok(
        match service::ties::resolve(&state.db, &actor, id, &input).await {
            Ok(_) => see_other(&format!("/admin/s/{id}/ties")),
            Err(Error::Invalid { message, .. }) => {
                let message = message.render(ctx.lang);
                page(
                    &state,
                    &actor,
                    ctx,
                    id,
                    Some(message),
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
                .await?
            }
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    )
}
