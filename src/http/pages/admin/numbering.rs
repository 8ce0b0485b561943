//! Renumbering at the desk (issue #39 item 6): starting numbers never change by themselves;
//! before round 1 the desk may renumber the entrants in the section's round-1 order
//! (`GET /admin/s/{id}/renumber` asks, with a warning that printed numbers change and every
//! change listed; its form posts). After round 1 the numbers are fixed (409).

use super::section::action_failed;
use super::tabs::Tab;
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::confirm::{ConfirmPage, Crumb};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::service;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/admin/s/{section_id}/renumber",
        get(confirm_renumber).post(renumber),
    )
}

/// `GET /admin/s/{section_id}/renumber`: "Renumber the entrants?", what changes, the warning.
pub async fn confirm_renumber(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let desk = service::desk::get(&state.db, &actor, id)
        .await
        .or_page(&ctx)?;
    let preview = match service::numbering::preview(&state.db, &actor, id).await {
        Ok(preview) => preview,
        Err(err) => {
            return Ok(action_failed(&state, &actor, ctx, id, Tab::Entrants, err)
                .await
                .into_response())
        }
    };
    let tr = ctx.tr();
    let order = tr.t(&format!("adm.round1_order.{}", preview.order));
    let mut lines = vec![
        tr.fmt("adm.renumber.order", order),
        tr.t("adm.renumber.warning").to_string(),
    ];
    if preview.order == crate::vocab::RoundOneOrder::Lot {
        lines.push(tr.t("adm.renumber.lot").to_string());
    } else if preview.changes.is_empty() {
        lines.push(tr.t("adm.renumber.unchanged").to_string());
    } else {
        lines.extend(preview.changes.iter().map(|c| {
            let from = c.from.map_or_else(|| "–".to_string(), |n| n.to_string());
            tr.fmt_n("adm.renumber.change", &[&c.name, &from, &c.to])
        }));
    }
    let section = &desk.section;
    Ok(Page(
        StatusCode::OK,
        ConfirmPage {
            tr,
            crumbs: vec![
                Crumb {
                    href: "/admin".into(),
                    label: tr.t("nav.dashboard").into(),
                },
                Crumb {
                    href: format!("/admin/t/{}", desk.tournament.id),
                    label: desk.tournament.name.clone(),
                },
                Crumb {
                    href: format!("/admin/s/{}", section.id),
                    label: section.name.clone(),
                },
            ],
            question: tr.t("adm.renumber.question").to_string(),
            lines,
            action: format!("/admin/s/{id}/renumber"),
            hidden: Vec::new(),
            force: None,
            confirm: tr.t("adm.renumber").to_string(),
            cancel: Tab::Entrants.url(section.id, "", ""),
            ctx,
        },
    )
    .into_response())
}

/// `POST /admin/s/{section_id}/renumber`
pub async fn renumber(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(_form): AppForm<super::form::ButtonForm>,
) -> Result<Response, PageError> {
    Ok(
        match service::numbering::renumber(&state.db, &actor, id).await {
            Ok(done) => see_other(&format!(
                "/admin/s/{id}/entrants?done=renumbered&n={}",
                done.changes.len()
            )),
            Err(err) => action_failed(&state, &actor, ctx, id, Tab::Entrants, err)
                .await
                .into_response(),
        },
    )
}
