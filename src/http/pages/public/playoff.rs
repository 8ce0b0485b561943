//! `GET /t/{tournament_id}/playoff`: the grand final between the section champions (總決賽),
//! public like a section's bracket, with its prizes and, once decided, who won them.

use super::bracket::{bracket_data, BracketData};
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route("/t/{tournament_id}/playoff", get(show_playoff))
}

/// What the bracket partial links through: the playoff's players come from several sections,
/// so it links no player page nor game record (their numbers and records are left empty).
pub struct NoSection {
    /// Never used in a link (see above).
    pub section_id: Uuid,
}

/// One prize of the grand final as shown.
pub struct PrizeLine {
    /// The place ("1st").
    pub place: String,
    /// What is awarded.
    pub award: String,
    /// Its value, empty when none.
    pub amount: String,
    /// Who won it ("name (section)"), once decided.
    pub winners: String,
}

/// `GET /t/{tournament_id}/playoff`
#[derive(Template)]
#[template(path = "public/playoff.html")]
pub struct PlayoffPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tournament, for the way back.
    pub tournament_id: Uuid,
    /// Its name.
    pub tournament_name: String,
    /// For the bracket partial.
    pub nav: NoSection,
    /// The bracket.
    pub data: BracketData,
    /// The prizes, with their winners once the playoff is decided.
    pub prizes: Vec<PrizeLine>,
}

/// `GET /t/{tournament_id}/playoff`
pub async fn show_playoff(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let loaded = async {
        let t = service::tournaments::get(&state.db, id).await?;
        let bracket = service::knockout::get_playoff(&state.db, None, id).await?;
        let table = service::prizes::get_playoff(&state.db, id).await?;
        // Who won: only once every match is decided (a conflict until then).
        let awarded = match service::prizes::playoff_awarded(&state.db, id).await {
            Ok(awarded) => Some(awarded),
            Err(service::Error::Conflict(_)) => None,
            Err(err) => return Err(err),
        };
        Ok::<_, service::Error>((t, bracket, table, awarded))
    }
    .await;
    let (t, bracket, table, awarded) = loaded.or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&t.default_language);
    let tr = ctx.tr();
    let prizes = match awarded {
        Some(awarded) => awarded
            .into_iter()
            .map(|a| PrizeLine {
                place: tr.fmt("prize.place", a.place),
                award: a.award,
                amount: a.money,
                winners: a
                    .winners
                    .iter()
                    .map(|w| format!("{} ({})", w.name, w.section))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
            .collect(),
        None => table
            .prizes
            .into_iter()
            .flat_map(|p| {
                let last = p.place_to.unwrap_or(p.place_from).max(p.place_from);
                let money = service::prizes::money(
                    p.amount.unwrap_or(0),
                    p.currency.as_deref().unwrap_or(""),
                );
                (p.place_from..=last).map(move |place| (place, p.award.clone(), money.clone()))
            })
            .map(|(place, award, money)| PrizeLine {
                place: tr.fmt("prize.place", place),
                award,
                amount: money,
                winners: String::new(),
            })
            .collect(),
    };
    Ok(Page(
        StatusCode::OK,
        PlayoffPage {
            tr,
            ctx,
            tournament_id: t.id,
            tournament_name: t.name,
            nav: NoSection {
                section_id: Uuid::nil(),
            },
            data: {
                // The set-ups page is a section's: the playoff's commitments show in place.
                let mut data = bracket_data(tr, Some(bracket));
                data.has_setups = false;
                data.section_links = false;
                data
            },
            prizes,
        },
    )
    .into_response())
}
