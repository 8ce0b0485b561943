//! The desk list print (SPEC §10): a tournament's (or one section's) registrations with their
//! fees and payments, and the totals paid, still due and to refund. Staff only: it carries
//! payment data. The money rules are `service::registrations::desk`'s.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::session::CurrentUser;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::registrations::{DeskList, RegistrationView};
use crate::vocab::PaymentState;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/admin/t/{tournament_id}/desk/print",
            get(print_tournament_desk),
        )
        .route("/admin/s/{section_id}/desk/print", get(print_section_desk))
}

/// `GET /admin/t/{tournament_id}/desk/print` and `GET /admin/s/{section_id}/desk/print`
#[derive(Template)]
#[template(path = "print/desk.html")]
pub struct DeskPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Tournament id (the back link).
    pub tournament_id: Uuid,
    /// Tournament name.
    pub tournament_name: String,
    /// The sections with their registrations and totals.
    pub desk: DeskList,
}

impl DeskPrint {
    /// Catalogue key of a registration's status.
    pub fn status_key(&self, r: &RegistrationView) -> String {
        format!("registration.{}", r.status)
    }

    /// Catalogue key of a registration's payment state (`adm.payment.paid`…).
    pub fn payment_key(&self, r: &RegistrationView) -> String {
        format!(
            "adm.payment.{}",
            r.payment_state.unwrap_or(PaymentState::Unpaid)
        )
    }

    /// Whether the registration still owes its fee (the service's rule).
    pub fn owes(&self, r: &RegistrationView) -> bool {
        service::registrations::owes(r)
    }
}

async fn desk(
    state: &AppState,
    actor: &service::users::Actor,
    ctx: PageCtx,
    tournament_id: Uuid,
    only: Option<Uuid>,
) -> Result<Response, PageError> {
    let loaded = async {
        let tournament = service::tournaments::get(&state.db, tournament_id).await?;
        let desk = service::registrations::desk(&state.db, actor, tournament_id, only).await?;
        service::Result::Ok((tournament, desk))
    }
    .await;
    let (tournament, desk) = loaded.or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&tournament.default_language);
    Ok(Page(
        StatusCode::OK,
        DeskPrint {
            tr: ctx.tr(),
            ctx,
            tournament_id,
            tournament_name: tournament.name,
            desk,
        },
    )
    .into_response())
}

/// `GET /admin/t/{tournament_id}/desk/print`: every section, one page each, and the totals.
pub async fn print_tournament_desk(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    desk(&state, &actor, ctx, id, None).await
}

/// `GET /admin/s/{section_id}/desk/print`: one section.
pub async fn print_section_desk(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    Ok(match service::sections::get(&state.db, id).await {
        Ok(section) => desk(&state, &actor, ctx, section.tournament_id, Some(id)).await?,
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    })
}
