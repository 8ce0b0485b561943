//! The arbiter's view of a round's hidden-piece set-ups (Jieqi/Banqi): the commitment that
//! everyone sees, and for the arbiters the set-up itself as a diagram, its canonical text and
//! salt (`service::setups::of_round` decides what is revealed).

use super::dashboard::{fail, require};
use super::session::CurrentUser;
use super::{HtmlPage, PageCtx};
use crate::http::extract::PagePath;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::access::Need;
use crate::service::sections::Section;
use crate::service::setups::RoundSetups;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

/// `GET /admin/s/{section_id}/rounds/{n}/setup`
#[derive(Template)]
#[template(path = "admin/setup.html")]
pub struct SetupPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Round number.
    pub number: i32,
    /// The set-ups.
    pub setups: RoundSetups,
}

/// `GET /admin/s/{section_id}/rounds/{n}/setup`
pub async fn show_setup(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Response {
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        require(&state, &actor, section.tournament_id, Need::Scorer).await?;
        let setups = service::setups::of_round(&state.db, Some(&actor), id, n).await?;
        service::Result::Ok((section, setups))
    }
    .await;
    match loaded {
        Ok((section, setups)) => HtmlPage(
            StatusCode::OK,
            SetupPage {
                tr: ctx.tr(),
                ctx,
                section,
                number: n,
                setups,
            },
        )
        .into_response(),
        Err(err) => fail(err, &ctx),
    }
}
