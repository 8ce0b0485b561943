//! The printed prize list of a section.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::{load_section, nav_of, SectionNav};
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
    Router::new()
        .route("/s/{section_id}/prizes/print", get(print_prizes))
        .route("/s/{section_id}/prizes.csv", get(prizes_csv))
}

// ---------------------------------------------------------------- prize list

/// One line of the printed prize list: names and awards only, never contact data.
pub struct PrizeLine {
    /// The place (or range of places, before the final ranking) the prize is for, or empty.
    pub place: String,
    /// Catalogue key of the category (`prize.female`…), or empty for a place prize.
    pub category_key: String,
    /// What is awarded.
    pub award: String,
    /// Its value with the currency (`300 CAD`), or empty.
    pub money: String,
    /// The winner, empty while unknown or when nobody is eligible.
    pub name: String,
    /// The winner's final place, or empty.
    pub final_place: String,
}

/// `GET /s/{section_id}/prizes/print`: the prize list after the final ranking (Swiss and
/// knockout); before it, the prize table without winners.
#[derive(Template)]
#[template(path = "print/prizes.html")]
pub struct PrizesPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The prizes in table order, one line per place.
    pub lines: Vec<PrizeLine>,
    /// The final ranking is known (the winners are shown).
    pub is_final: bool,
}

fn category_key(category: Option<&str>) -> String {
    category.map(|c| format!("prize.{c}")).unwrap_or_default()
}

/// `GET /s/{section_id}/prizes/print`
pub async fn print_prizes(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let tr = ctx.tr();
    let loaded = async {
        let rounds = service::rounds::visible_numbers(&state.db, ctx.actor.as_ref(), id).await?;
        // Who wins what is the prize service's rule; until the final ranking is known it
        // refuses (409) and the sheet shows the table alone.
        let lines = match service::prizes::awarded(&state.db, id).await {
            Ok(awards) => Some(
                awards
                    .into_iter()
                    .map(|a| PrizeLine {
                        place: a
                            .place
                            .map(|p| tr.fmt("prize.place", p))
                            .unwrap_or_default(),
                        category_key: category_key(a.category.as_deref()),
                        award: a.award,
                        money: a.money,
                        name: a.name.unwrap_or_default(),
                        final_place: a.final_place.map(|p| p.to_string()).unwrap_or_default(),
                    })
                    .collect::<Vec<_>>(),
            ),
            Err(service::Error::Conflict(_)) => None,
            Err(err) => return Err(err),
        };
        let table = service::prizes::get(&state.db, id).await?;
        Ok::<_, service::Error>((rounds, lines, table))
    }
    .await;
    let (rounds, lines, table) = loaded.or_page(&ctx)?;
    let is_final = lines.is_some();
    let lines = lines.unwrap_or_else(|| {
        table
            .prizes
            .into_iter()
            .map(|p| PrizeLine {
                place: match (p.place_from, p.place_to) {
                    (Some(a), Some(b)) if a != b => tr.fmt("prize.place", format!("{a}–{b}")),
                    (Some(a), _) => tr.fmt("prize.place", a),
                    _ => String::new(),
                },
                category_key: category_key(p.category.as_deref()),
                money: service::prizes::money(
                    p.amount.unwrap_or(0),
                    p.currency.as_deref().unwrap_or(""),
                ),
                award: p.award,
                name: String::new(),
                final_place: String::new(),
            })
            .collect()
    });
    let nav = nav_of(&t, &s, rounds, "prizes", 0, prizes);
    Ok(Page(
        StatusCode::OK,
        PrizesPrint {
            tr,
            ctx,
            nav,
            lines,
            is_final,
        },
    )
    .into_response())
}

/// `GET /s/{section_id}/prizes.csv[?headers=machine]`: the prize list for a spreadsheet (the
/// winners once the final ranking is known, else the table), a download with a byte-order
/// mark and column heads in the page's language; amounts as numbers with their currency in a
/// column of its own, so that the sheet can add them up.
pub async fn prizes_csv(
    State(state): State<AppState>,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let machine = uri
        .query()
        .is_some_and(|q| q.split('&').any(|p| p == "headers=machine"));
    let header: Vec<String> = if machine {
        [
            "place",
            "category",
            "award",
            "amount",
            "currency",
            "name",
            "final_place",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect()
    } else {
        [
            "print.prize_for",
            "adm.prizes.category",
            "print.award",
            "playoff.amount",
            "col.currency",
            "col.name",
            "print.final_place",
        ]
        .iter()
        .map(|key| tr.t(key).to_string())
        .collect()
    };
    let category = |c: Option<&str>| match c {
        Some(c) if machine => c.to_string(),
        Some(c) => tr.t(&category_key(Some(c))).to_string(),
        None => String::new(),
    };
    let number = |n: i32| if n == 0 { String::new() } else { n.to_string() };
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        let tournament = service::tournaments::get(&state.db, section.tournament_id).await?;
        let rows: Vec<Vec<String>> = match service::prizes::awarded(&state.db, id).await {
            Ok(awards) => awards
                .into_iter()
                .map(|a| {
                    vec![
                        a.place.map(|p| p.to_string()).unwrap_or_default(),
                        category(a.category.as_deref()),
                        a.award,
                        number(a.amount),
                        a.currency,
                        a.name.unwrap_or_default(),
                        a.final_place.map(|p| p.to_string()).unwrap_or_default(),
                    ]
                })
                .collect(),
            Err(service::Error::Conflict(_)) => service::prizes::get(&state.db, id)
                .await?
                .prizes
                .into_iter()
                .map(|p| {
                    let place = match (p.place_from, p.place_to) {
                        (Some(a), Some(b)) if a != b => format!("{a}–{b}"),
                        (Some(a), _) => a.to_string(),
                        _ => String::new(),
                    };
                    vec![
                        place,
                        category(p.category.as_deref()),
                        p.award,
                        number(p.amount.unwrap_or(0)),
                        p.currency.unwrap_or_default(),
                        String::new(),
                        String::new(),
                    ]
                })
                .collect(),
            Err(err) => return Err(err),
        };
        let text = service::interchange::csv_text(&header, &rows, true)?;
        service::Result::Ok((
            format!(
                "{}-{}-{}",
                tournament.name,
                section.name,
                tr.t("print.prizes")
            ),
            text,
        ))
    }
    .await;
    let (name, text) = loaded.or_page(&ctx)?;
    Ok((
        [
            (
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("text/csv; charset=utf-8"),
            ),
            crate::http::download::attachment(&name, "csv"),
        ],
        text,
    )
        .into_response())
}
