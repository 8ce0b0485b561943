//! The grand final's prizes: `/admin/t/{tournament_id}/playoff/prizes` edits the table (place
//! ranges of the playoff between section champions, on top of the sections' prizes) and,
//! once every playoff match is decided, shows who wins them. Through
//! `service::prizes::{set_playoff, get_playoff, playoff_awarded}`, as the API.

use super::form::text;
use super::form::{require, Fields};
use super::prizes::{currency_of, prizes_of_form, row_errors, rows_of, rows_of_form, PrizeRow};
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::prizes::{PlayoffAward, PlayoffPrize, PlayoffPrizeTable, Prize, PrizeTable};
use crate::service::tournaments::Tournament;
use crate::service::users::Actor;
use crate::service::{self, Error};
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
        "/admin/t/{tournament_id}/playoff/prizes",
        get(show_prizes).post(save_prizes),
    )
}

/// `GET /admin/t/{tournament_id}/playoff/prizes`
#[derive(Template)]
#[template(path = "admin/playoff_prizes.html")]
pub struct PlayoffPrizesPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tournament.
    pub tournament: Tournament,
    /// The table's rows plus blank ones (no category column).
    pub rows: Vec<PrizeRow>,
    /// The values' currency, as typed or stored.
    pub currency: String,
    /// Who wins what, once the playoff is decided.
    pub awarded: Vec<PlayoffAward>,
    /// Why the winners cannot be shown yet.
    pub awarded_note: Option<String>,
    /// Why the last save was refused.
    pub error: Option<String>,
    /// What this person may do (a scorer sees no arbiter's form).
    pub powers: service::access::Powers,
}

impl PlayoffPrizesPage {
    /// The winners of one award as one line ("A (Open) / B (Women)" for a shared place).
    pub fn winners(&self, award: &PlayoffAward) -> String {
        award
            .winners
            .iter()
            .map(|w| format!("{} ({})", w.name, w.section))
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

fn as_section_table(table: &PlayoffPrizeTable) -> PrizeTable {
    PrizeTable {
        prizes: table
            .prizes
            .iter()
            .map(|p| Prize {
                place_from: Some(p.place_from),
                place_to: p.place_to,
                category: None,
                award: p.award.clone(),
                amount: p.amount,
                currency: p.currency.clone(),
            })
            .collect(),
    }
}

async fn page(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    typed: Option<(Vec<PrizeRow>, String)>,
    (error, status): (Option<String>, StatusCode),
) -> Result<Response, PageError> {
    let (typed, currency) = typed.map_or((None, None), |(rows, c)| (Some(rows), Some(c)));
    let tournament = service::tournaments::get(&state.db, id)
        .await
        .or_page(&ctx)?;
    require(state, actor, id, Need::Scorer)
        .await
        .or_page(&ctx)?;
    let powers = super::form::powers(state, actor, id).await.or_page(&ctx)?;
    let table = service::prizes::get_playoff(&state.db, id)
        .await
        .or_page(&ctx)?;
    let (awarded, awarded_note) = match service::prizes::playoff_awarded(&state.db, id).await {
        Ok(a) => (a, None),
        Err(err @ Error::Conflict(_)) => (Vec::new(), Some(err.render(ctx.lang))),
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    };
    Ok(Page(
        status,
        PlayoffPrizesPage {
            powers,
            tr: ctx.tr(),
            ctx,
            tournament,
            rows: typed.unwrap_or_else(|| rows_of(&as_section_table(&table))),
            currency: currency.unwrap_or_else(|| currency_of(&as_section_table(&table))),
            awarded,
            awarded_note,
            error,
        },
    )
    .into_response())
}

/// `GET /admin/t/{tournament_id}/playoff/prizes`
pub async fn show_prizes(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    page(&state, &actor, ctx, id, None, (None, StatusCode::OK)).await
}

/// `POST /admin/t/{tournament_id}/playoff/prizes`: replaces the table (rows without an award
/// are left out).
pub async fn save_prizes(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let typed = rows_of_form(&form);
    let (prizes, bad) = prizes_of_form(&form, &typed, tr);
    // A row without a first place is refused by the service's range check (place 0).
    let prizes: Vec<PlayoffPrize> = prizes
        .into_iter()
        .map(|p| PlayoffPrize {
            place_from: p.place_from.unwrap_or(0),
            place_to: p.place_to,
            award: p.award,
            amount: p.amount,
            currency: p.currency,
        })
        .collect();
    let currency = text(&form, "currency").unwrap_or_default();
    if !bad.is_empty() {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return page(
            &state,
            &actor,
            ctx,
            id,
            Some((typed, currency)),
            (Some(bad.join(" — ")), status),
        )
        .await;
    }
    Ok(
        match service::prizes::set_playoff(&state.db, &actor, id, &PlayoffPrizeTable { prizes })
            .await
        {
            Ok(_) => see_other(&format!("/admin/t/{id}/playoff/prizes")),
            Err(err @ (Error::Invalid { .. } | Error::Conflict(_))) => {
                let status = crate::http::error::status(&err);
                let message = row_errors(&err, &typed, ctx.tr());
                page(
                    &state,
                    &actor,
                    ctx,
                    id,
                    Some((typed, currency)),
                    (Some(message), status),
                )
                .await?
            }
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    )
}
