//! The dashboard's prize table: `/admin/s/{section_id}/prizes` edits the table (place ranges
//! and category prizes) and shows who wins what ("one prize per person, the larger one"),
//! both through `service::prizes`.

use super::form::{require, text, Fields};
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::prizes::{Award, Prize, PrizeTable, CATEGORIES};
use crate::service::sections::Section;
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
        "/admin/s/{section_id}/prizes",
        get(show_prizes).post(save_prizes),
    )
}

/// Blank rows offered below the table.
const BLANK_ROWS: usize = 3;

/// One editable row (text as typed).
pub struct PrizeRow {
    /// Row index (field names `p{i}_…`).
    pub i: usize,
    /// First place.
    pub from: String,
    /// Last place.
    pub to: String,
    /// Category, or empty.
    pub category: String,
    /// Award.
    pub award: String,
    /// Value.
    pub amount: String,
}

/// `GET /admin/s/{section_id}/prizes`
#[derive(Template)]
#[template(path = "admin/prizes.html")]
pub struct PrizesPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// The table's rows plus blank ones.
    pub rows: Vec<PrizeRow>,
    /// Category choices.
    pub categories: Vec<&'static str>,
    /// The values' currency, as typed or stored.
    pub currency: String,
    /// Who wins what (when it can be computed).
    pub awarded: Vec<Award>,
    /// Why the awards cannot be shown yet.
    pub awarded_note: Option<String>,
    /// Why the last save was refused.
    pub error: Option<String>,
    /// What this person may do (a scorer sees no arbiter's form).
    pub powers: service::access::Powers,
}

impl PrizesPage {
    /// Catalogue key of a category (`prize.female`…), the keys the printed prize list uses.
    pub fn category_key(&self, category: &str) -> String {
        format!("prize.{category}")
    }
}

/// The currency a stored table's values are in (the first a prize names).
pub(super) fn currency_of(table: &PrizeTable) -> String {
    table
        .prizes
        .iter()
        .filter_map(|p| p.currency.clone())
        .find(|c| !c.is_empty())
        .unwrap_or_default()
}

/// The column a field of a prize row is typed in, for errors in words.
fn column_key(field: &str) -> &'static str {
    match field {
        "place_from" | "from" => "adm.prizes.from",
        "place_to" | "to" => "adm.prizes.to",
        "category" => "adm.prizes.category",
        "amount" => "adm.prizes.amount",
        "currency" => "adm.prizes.currency",
        _ => "adm.prizes.award",
    }
}

/// A refused table's errors in words, by the row the arbiter typed them in ("Row 4 · Category:
/// …") instead of the API's field paths (`prizes[3].category`). The service numbers only the
/// rows that carry an award; `typed` maps them back to the form's rows.
pub(super) fn row_errors(err: &Error, typed: &[PrizeRow], tr: Tr) -> String {
    let Error::Invalid { fields, .. } = err else {
        return err.render(tr.lang);
    };
    if fields.is_empty() {
        return err.render(tr.lang);
    }
    let submitted: Vec<usize> = typed
        .iter()
        .filter(|r| !r.award.trim().is_empty())
        .map(|r| r.i)
        .collect();
    let mut lines = Vec::new();
    for (path, messages) in fields {
        let said = messages
            .iter()
            .map(|m| m.render(tr.lang))
            .collect::<Vec<_>>()
            .join("; ");
        let row = path
            .strip_prefix("prizes[")
            .and_then(|rest| rest.split_once("]."))
            .and_then(|(k, field)| Some((k.parse::<usize>().ok()?, field)));
        lines.push(match row {
            Some((k, field)) => format!(
                "{} · {}: {said}",
                tr.fmt("adm.prizes.row", submitted.get(k).map_or(k, |i| *i) + 1),
                tr.t(column_key(field)),
            ),
            None if path == "currency" || path.ends_with(".currency") => {
                format!("{}: {said}", tr.t("adm.prizes.currency"))
            }
            None => said,
        });
    }
    lines.join(" — ")
}

pub(super) fn rows_of(table: &PrizeTable) -> Vec<PrizeRow> {
    let opt = |v: Option<i32>| v.map(|n| n.to_string()).unwrap_or_default();
    let mut rows: Vec<PrizeRow> = table
        .prizes
        .iter()
        .enumerate()
        .map(|(i, p)| PrizeRow {
            i,
            from: opt(p.place_from),
            to: opt(p.place_to),
            category: p.category.clone().unwrap_or_default(),
            award: p.award.clone(),
            amount: opt(p.amount),
        })
        .collect();
    let n = rows.len();
    rows.extend((n..n + BLANK_ROWS).map(|i| PrizeRow {
        i,
        from: String::new(),
        to: String::new(),
        category: String::new(),
        award: String::new(),
        amount: String::new(),
    }));
    rows
}

pub(super) fn rows_of_form(form: &Fields) -> Vec<PrizeRow> {
    let get = |i: usize, f: &str| form.get(&format!("p{i}_{f}")).cloned().unwrap_or_default();
    (0..)
        .take_while(|i| form.contains_key(&format!("p{i}_award")))
        .map(|i| PrizeRow {
            i,
            from: get(i, "from"),
            to: get(i, "to"),
            category: get(i, "category"),
            award: get(i, "award"),
            amount: get(i, "amount"),
        })
        .collect()
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
    let section = service::sections::get(&state.db, id).await.or_page(&ctx)?;
    require(state, actor, section.tournament_id, Need::Scorer)
        .await
        .or_page(&ctx)?;
    let powers = super::form::powers(state, actor, section.tournament_id)
        .await
        .or_page(&ctx)?;
    let table = service::prizes::get(&state.db, id).await.or_page(&ctx)?;
    let (awarded, awarded_note) = match service::prizes::awarded(&state.db, id).await {
        Ok(a) => (a, None),
        Err(err) if !crate::http::error::status(&err).is_server_error() => {
            (Vec::new(), Some(err.render(ctx.lang)))
        }
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    };
    Ok(Page(
        status,
        PrizesPage {
            powers,
            tr: ctx.tr(),
            ctx,
            section,
            rows: typed.unwrap_or_else(|| rows_of(&table)),
            currency: currency.unwrap_or_else(|| currency_of(&table)),
            categories: CATEGORIES.to_vec(),
            awarded,
            awarded_note,
            error,
        },
    )
    .into_response())
}

/// `GET /admin/s/{section_id}/prizes`
pub async fn show_prizes(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    page(&state, &actor, ctx, id, None, (None, StatusCode::OK)).await
}

/// The prizes of the typed rows that carry an award, and what was not a number.
pub(super) fn prizes_of_form(
    form: &Fields,
    typed: &[PrizeRow],
    tr: Tr,
) -> (Vec<Prize>, Vec<String>) {
    let mut bad = Vec::new();
    let mut num = |i: usize, f: &str| -> Option<i32> {
        let v = text(form, &format!("p{i}_{f}"))?;
        match v.parse() {
            Ok(n) => Some(n),
            Err(_) => {
                bad.push(format!(
                    "{} · {}: {}: {v}",
                    tr.fmt("adm.prizes.row", i + 1),
                    tr.t(column_key(f)),
                    tr.t("register.not_a_number")
                ));
                None
            }
        }
    };
    let currency = text(form, "currency");
    let mut prizes = Vec::new();
    for row in typed {
        if row.award.trim().is_empty() {
            continue;
        }
        prizes.push(Prize {
            place_from: num(row.i, "from"),
            place_to: num(row.i, "to"),
            category: text(form, &format!("p{}_category", row.i)),
            award: row.award.clone(),
            amount: num(row.i, "amount"),
            currency: currency.clone(),
        });
    }
    (prizes, bad)
}

/// `POST /admin/s/{section_id}/prizes`: replaces the table (rows without an award are left
/// out).
pub async fn save_prizes(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let typed = rows_of_form(&form);
    let (prizes, bad) = prizes_of_form(&form, &typed, ctx.tr());
    let currency = text(&form, "currency").unwrap_or_default();
    if !bad.is_empty() {
        let message = bad.join(" — ");
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return page(
            &state,
            &actor,
            ctx,
            id,
            Some((typed, currency)),
            (Some(message), status),
        )
        .await;
    }
    Ok(
        match service::prizes::set(&state.db, &actor, id, &PrizeTable { prizes }).await {
            Ok(_) => see_other(&format!("/admin/s/{id}/prizes")),
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
