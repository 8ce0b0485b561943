//! The playoff between section champions: `/admin/t/{tournament_id}/playoff` creates it (the
//! sections taking part with their seed order, games per match, colours, how a match is
//! decided) and, once created, shows its matches with a form for each one's next game.
//! Through `service::knockout::{create_playoff, get_playoff, record_game}`, as the API.

use super::form::{checkbox, number, place_errors, require, text, Field, Fields};
use super::knockout::{match_rows, refused, MatchRow};
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::i18n::Msg;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::knockout::{BracketView, PlayoffInput};
use crate::service::tournaments::Tournament;
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
use crate::vocab::{FirstGameColour, MatchScoring};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/admin/t/{tournament_id}/playoff",
            get(show_playoff).post(create_playoff),
        )
        .route(
            "/admin/t/{tournament_id}/playoff/matches/{match_id}/games",
            post(record_playoff_game),
        )
}

/// A section offered for the playoff: its seed box.
pub struct SeedRow {
    /// Field name and id (`seed_{section id}`).
    pub field: String,
    /// Section name.
    pub name: String,
    /// The seed entered.
    pub value: String,
    /// Message next to it.
    pub error: Option<String>,
}

/// `GET /admin/t/{tournament_id}/playoff`
#[derive(Template)]
#[template(path = "admin/playoff.html")]
pub struct PlayoffPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tournament.
    pub tournament: Tournament,
    /// The playoff, once created.
    pub playoff: Option<BracketView>,
    /// Its matches.
    pub matches: Vec<MatchRow>,
    /// One seed box per section (creation form).
    pub seeds: Vec<SeedRow>,
    /// A message for the seed boxes as a whole.
    pub seeds_error: Option<String>,
    /// The other fields of the creation form.
    pub fields: Vec<Field>,
    /// Why the last action was refused.
    pub error: Option<String>,
    /// Where a match's game form posts: `{games_base}/{match_id}/games`.
    pub games_base: String,
    /// Prefix of the game forms' element ids.
    pub id_prefix: &'static str,
    /// What this person may do (a scorer sees no arbiter's form).
    pub powers: service::access::Powers,
}

fn playoff_fields(form: &Fields, tr: Tr) -> Vec<Field> {
    vec![
        Field::plain("best_of", "adm.ko.best_of", "number", form, "1"),
        Field::new("decide_by", "adm.playoff.decide_by", "select", form).select(
            MatchScoring::WORDS,
            Some("adm.playoff.decide_by"),
            tr,
            MatchScoring::Points.as_str(),
        ),
        Field::new("game1_higher", "adm.ko.game1_higher", "checkbox", form),
    ]
}

#[allow(clippy::too_many_arguments)]
async fn page(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    form: &Fields,
    mut errors: FieldErrors,
    error: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let tournament = service::tournaments::get(&state.db, id)
        .await
        .or_page(&ctx)?;
    require(state, actor, id, Need::Scorer)
        .await
        .or_page(&ctx)?;
    let powers = super::form::powers(state, actor, id).await.or_page(&ctx)?;
    let loaded = async {
        let sections = service::sections::list(&state.db, id).await?;
        let playoff = match service::knockout::get_playoff(&state.db, Some(actor), id).await {
            Ok(p) => Some(p),
            Err(Error::NotFound(_)) => None,
            Err(err) => return Err(err),
        };
        Ok((sections, playoff))
    }
    .await;
    let (sections, playoff) = loaded.or_page(&ctx)?;
    let seeds = sections
        .iter()
        .map(|s| {
            let field = format!("seed_{}", s.id);
            SeedRow {
                value: form.get(&field).cloned().unwrap_or_default(),
                error: errors.remove(&field).map(|m| tr.msg(&Msg::list(m))),
                name: s.name.clone(),
                field,
            }
        })
        .collect();
    let seeds_error = errors.remove("sections").map(|m| tr.msg(&Msg::list(m)));
    let mut fields = playoff_fields(form, tr);
    let rest = place_errors(
        tr,
        &mut fields,
        &errors,
        &[("game1_colour", "game1_higher")],
    );
    let error = error.or_else(|| (!rest.is_empty()).then(|| rest.join("; ")));
    Ok(Page(
        status,
        PlayoffPage {
            powers,
            tr,
            ctx,
            games_base: format!("/admin/t/{}/playoff/matches", tournament.id),
            id_prefix: "po",
            tournament,
            matches: playoff
                .as_ref()
                .map(|b| match_rows(tr, b))
                .unwrap_or_default(),
            playoff,
            seeds,
            seeds_error,
            fields,
            error,
        },
    )
    .into_response())
}

/// `GET /admin/t/{tournament_id}/playoff`
pub async fn show_playoff(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    page(
        &state,
        &actor,
        ctx,
        id,
        &Fields::new(),
        FieldErrors::new(),
        None,
        StatusCode::OK,
    )
    .await
}

/// `POST /admin/t/{tournament_id}/playoff`: creates the playoff; the sections are those with
/// a seed, best (1) first.
pub async fn create_playoff(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    require(&state, &actor, id, Need::Arbiter)
        .await
        .or_page(&ctx)?;
    let tr = ctx.tr();
    let mut errors = FieldErrors::new();
    let sections = service::sections::list(&state.db, id).await.or_page(&ctx)?;
    let mut seeded: Vec<(i64, usize, Uuid)> = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        let field = format!("seed_{}", s.id);
        if let Some(seed) = number(&form, &field, tr, &mut errors) {
            seeded.push((seed, i, s.id));
        }
    }
    seeded.sort();
    let order: Vec<Uuid> = seeded.iter().map(|s| s.2).collect();
    let input = PlayoffInput {
        sections: order.clone(),
        best_of: number(&form, "best_of", tr, &mut errors),
        game1_colour: Some(
            if checkbox(&form, "game1_higher") {
                FirstGameColour::HigherSeed
            } else {
                FirstGameColour::Lot
            }
            .to_string(),
        ),
        decide_by: text(&form, "decide_by"),
    };
    let outcome = if errors.is_empty() {
        service::knockout::create_playoff(&state.db, &actor, id, &input).await
    } else {
        Err(Error::Invalid {
            message: crate::i18n::ui("error.form_invalid"),
            fields: errors,
        })
    };
    Ok(match outcome {
        Ok(_) => see_other(&format!("/admin/t/{id}/playoff")),
        Err(err) => match refused(&err, ctx.lang) {
            Some((status, fields, message)) => {
                // `sections[2]` is the third section in seed order: its box.
                let mut mapped = FieldErrors::new();
                for (key, messages) in fields {
                    let key = key
                        .strip_prefix("sections[")
                        .and_then(|k| k.strip_suffix(']'))
                        .and_then(|k| k.parse::<usize>().ok())
                        .and_then(|k| order.get(k))
                        .map_or(key.clone(), |sid| format!("seed_{sid}"));
                    mapped.entry(key).or_default().extend(messages);
                }
                page(
                    &state,
                    &actor,
                    ctx,
                    id,
                    &form,
                    mapped,
                    Some(message),
                    status,
                )
                .await?
            }
            None => return Err(PageError::from_ctx(err, &ctx)),
        },
    })
}

/// `POST /admin/t/{tournament_id}/playoff/matches/{match_id}/games`: the next game of a
/// playoff match.
pub async fn record_playoff_game(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, match_id)): PagePath<(Uuid, Uuid)>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    // The match must be one of this tournament's playoff (the redirect goes back to it).
    match service::knockout::get_playoff(&state.db, Some(&actor), id).await {
        Ok(p) if p.matches.iter().any(|m| m.id == match_id) => {}
        Ok(_) => {
            return Err(PageError::from_service(
                Error::NotFound(m::NOT_FOUND_MATCH),
                ctx.lang,
            ))
        }
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    }
    Ok(
        match super::knockout::record_game_form(&state, &actor, match_id, &form, tr).await {
            Ok(()) => see_other(&format!("/admin/t/{id}/playoff")),
            Err(err) => match refused(&err, ctx.lang) {
                Some((status, _, message)) => {
                    page(
                        &state,
                        &actor,
                        ctx,
                        id,
                        &Fields::new(),
                        FieldErrors::new(),
                        Some(message),
                        status,
                    )
                    .await?
                }
                None => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    )
}
