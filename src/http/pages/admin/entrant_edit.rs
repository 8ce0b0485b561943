//! Correcting an entrant's details at the desk (issue #15): name, club, rating, gender,
//! contact, member flag, a team's players. The form carries the version it was read at, so a
//! change made meanwhile by someone else is not overwritten (the form comes back with a
//! message). The rules are `service::entrants::edit`'s.

use super::form::{checkbox, invalid_fields, place_errors, text, Field, Fields};
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::i18n::Tr;
use crate::service;
use crate::service::entrants::{EntrantPatch, EntrantView, PlayerPatch};
use crate::service::sections::Section;
use crate::vocab::EntryType;
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
        "/admin/s/{section_id}/entrants/{entrant_id}/edit",
        get(edit_form).post(save),
    )
}

/// `GET /admin/s/{sid}/entrants/{eid}/edit`
#[derive(Template)]
#[template(path = "admin/entrant_edit.html")]
pub struct EntrantEditPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// The entrant as stored.
    pub entrant: EntrantView,
    /// The entrant's fields (for a team: its name and club, the member flag).
    pub fields: Vec<Field>,
    /// Each player's fields (doubles).
    pub players: Vec<Vec<Field>>,
    /// The version the form was read at.
    pub version: i32,
    /// A message for the form.
    pub form_error: Option<String>,
}

const PLAYER_FIELDS: [[&str; 6]; 2] = [
    [
        "members[0].name",
        "members[0].gender",
        "members[0].club",
        "members[0].rating",
        "members[0].email",
        "members[0].phone",
    ],
    [
        "members[1].name",
        "members[1].gender",
        "members[1].club",
        "members[1].rating",
        "members[1].email",
        "members[1].phone",
    ],
];

fn gender(name: &'static str, form: &Fields, tr: Tr) -> Field {
    let mut field = Field::new(name, "register.gender", "select", form).select(
        &["", "m", "f", "x"],
        Some("gender"),
        tr,
        "",
    );
    if let Some(first) = field.options.first_mut() {
        first.label = tr.t("gender.unset").to_string();
    }
    field
}

/// The form's values: what was posted, else the entrant as stored.
fn values(entrant: &EntrantView, doubles: bool) -> Fields {
    let mut form = Fields::new();
    let mut put = |k: &str, v: Option<String>| {
        form.insert(k.to_string(), v.unwrap_or_default());
    };
    put("name", Some(entrant.name.clone()));
    put("club", entrant.club.clone());
    let member = entrant.members.iter().any(|m| m.member == Some(true));
    put("member", member.then(|| "on".to_string()));
    if doubles {
        for (names, m) in PLAYER_FIELDS.iter().zip(&entrant.members) {
            put(names[0], Some(m.name.clone()));
            put(names[1], m.gender.clone());
            put(names[2], m.club.clone());
            put(names[3], m.rating.map(|r| r.to_string()));
            put(names[4], m.email.clone());
            put(names[5], m.phone.clone());
        }
    } else if let Some(m) = entrant.members.first() {
        put("gender", m.gender.clone());
        put("rating", m.rating.map(|r| r.to_string()));
        put("email", m.email.clone());
        put("phone", m.phone.clone());
        put("address", m.address.clone());
    }
    form
}

fn fields(form: &Fields, tr: Tr, doubles: bool) -> (Vec<Field>, Vec<Vec<Field>>) {
    let mut fields = vec![
        Field::new("name", "col.name", "text", form).required(),
        Field::new("club", "col.club", "text", form),
    ];
    let mut players = Vec::new();
    if doubles {
        for names in PLAYER_FIELDS {
            players.push(vec![
                Field::new(names[0], "col.name", "text", form).required(),
                gender(names[1], form, tr),
                Field::new(names[2], "col.club", "text", form),
                Field::new(names[3], "col.rating", "number", form),
                Field::new(names[4], "register.email", "email", form),
                Field::new(names[5], "register.phone", "tel", form),
            ]);
        }
    } else {
        fields.extend([
            Field::new("rating", "col.rating", "number", form),
            gender("gender", form, tr),
            Field::new("email", "register.email", "email", form),
            Field::new("phone", "register.phone", "tel", form),
            Field::new("address", "register.address", "text", form),
        ]);
    }
    fields.push(Field::new("member", "register.member", "checkbox", form));
    (fields, players)
}

/// A rating field: empty clears it; not a number is the field's error.
fn rating(form: &Fields, name: &str, tr: Tr, errors: &mut service::FieldErrors) -> Option<i64> {
    super::form::number(form, name, tr, errors)
}

/// The posted form as a patch: every field is sent (an empty one clears it).
fn patch(form: &Fields, tr: Tr, doubles: bool) -> (EntrantPatch, service::FieldErrors) {
    let mut errors = service::FieldErrors::new();
    let all = |name: &str| {
        Some(
            form.get(name)
                .map(|v| v.trim().to_string())
                .unwrap_or_default(),
        )
    };
    let mut patch = EntrantPatch {
        name: all("name"),
        club: all("club"),
        member: Some(checkbox(form, "member")),
        ..EntrantPatch::default()
    };
    if doubles {
        let mut members = Vec::new();
        for names in PLAYER_FIELDS {
            members.push(PlayerPatch {
                name: all(names[0]),
                gender: all(names[1]),
                club: all(names[2]),
                rating: Some(rating(form, names[3], tr, &mut errors)),
                email: all(names[4]),
                phone: all(names[5]),
                address: None,
            });
        }
        patch.members = Some(members);
    } else {
        patch.rating = Some(rating(form, "rating", tr, &mut errors));
        patch.gender = all("gender");
        patch.email = all("email");
        patch.phone = all("phone");
        patch.address = all("address");
    }
    (patch, errors)
}

async fn render(
    state: &AppState,
    actor: &service::users::Actor,
    ctx: PageCtx,
    section_id: Uuid,
    entrant_id: Uuid,
    posted: Option<(&Fields, &service::FieldErrors, Option<String>)>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let loaded = async {
        let section = service::sections::get(&state.db, section_id).await?;
        let entrant = service::entrants::get(&state.db, actor, entrant_id).await?;
        service::Result::Ok((section, entrant))
    }
    .await;
    let (section, entrant) = loaded.or_page(&ctx)?;
    if !entrant_in(&section, &entrant, state, actor).await {
        return Err(PageError::from_service(
            service::Error::NotFound(m::NOT_FOUND_ENTRANT),
            ctx.lang,
        ));
    }
    let doubles = section.entry_type == EntryType::Doubles;
    let stored = values(&entrant, doubles);
    let (form, errors, mut form_error) = match posted {
        Some((form, errors, message)) => (form, errors.clone(), message),
        None => (&stored, service::FieldErrors::new(), None),
    };
    let (mut fields, mut players) = fields(form, tr, doubles);
    let mut rest = place_errors(tr, &mut fields, &errors, &[]);
    for p in &mut players {
        let own: service::FieldErrors = errors
            .iter()
            .filter(|(k, _)| p.iter().any(|f| f.name == k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        place_errors(tr, p, &own, &[]);
        rest.retain(|r| !p.iter().any(|f| r.starts_with(&format!("{}:", f.name))));
    }
    if form_error.is_none() && !rest.is_empty() {
        form_error = Some(rest.join("; "));
    }
    let version = form
        .get("version")
        .and_then(|v| v.parse().ok())
        .unwrap_or(entrant.version);
    Ok(Page(
        status,
        EntrantEditPage {
            tr,
            ctx,
            section,
            entrant,
            fields,
            players,
            version,
            form_error,
        },
    )
    .into_response())
}

/// Whether the entrant belongs to the section of the path (the links go back to it).
async fn entrant_in(
    section: &Section,
    entrant: &EntrantView,
    state: &AppState,
    actor: &service::users::Actor,
) -> bool {
    service::entrants::list(&state.db, Some(actor), section.id)
        .await
        .is_ok_and(|list| list.iter().any(|e| e.id == entrant.id))
}

/// `GET /admin/s/{sid}/entrants/{eid}/edit`
pub async fn edit_form(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((section_id, entrant_id)): PagePath<(Uuid, Uuid)>,
) -> Result<Response, PageError> {
    render(
        &state,
        &actor,
        ctx,
        section_id,
        entrant_id,
        None,
        StatusCode::OK,
    )
    .await
}

/// `POST /admin/s/{sid}/entrants/{eid}/edit`
pub async fn save(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((section_id, entrant_id)): PagePath<(Uuid, Uuid)>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let doubles = match service::sections::get(&state.db, section_id).await {
        Ok(s) => s.entry_type == EntryType::Doubles,
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    };
    let (patch, errors) = patch(&form, tr, doubles);
    if !errors.is_empty() {
        let message = Some(tr.t("error.form_invalid").to_string());
        return render(
            &state,
            &actor,
            ctx,
            section_id,
            entrant_id,
            Some((&form, &errors, message)),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    // The entrant must belong to this section (the redirect goes back to it).
    match service::entrants::list(&state.db, Some(&actor), section_id).await {
        Ok(list) if list.iter().any(|e| e.id == entrant_id) => {}
        Ok(_) => {
            return Err(PageError::from_service(
                service::Error::NotFound(m::NOT_FOUND_ENTRANT),
                ctx.lang,
            ))
        }
        Err(err) => return Err(PageError::from_ctx(err, &ctx)),
    }
    let version = text(&form, "version").and_then(|v| v.parse().ok());
    match service::entrants::edit(&state.db, &actor, entrant_id, &patch, version).await {
        Ok(_) => Ok(see_other(&format!(
            "/admin/s/{section_id}/entrants?done=entrant_edited"
        ))),
        Err(err) => {
            let (message, errors, status) = match invalid_fields(&err, tr) {
                Some((message, fields)) => (message, fields, StatusCode::UNPROCESSABLE_ENTITY),
                None => match err {
                    service::Error::Conflict(message) => (
                        message.render(ctx.lang),
                        service::FieldErrors::new(),
                        StatusCode::CONFLICT,
                    ),
                    other => return Err(PageError::from_service(other, ctx.lang)),
                },
            };
            if status == StatusCode::CONFLICT {
                // After a conflict the form shows the stored state and its version again.
                return render_conflict(&state, &actor, ctx, section_id, entrant_id, message).await;
            }
            let posted = Some((&form, &errors, Some(message)));
            render(&state, &actor, ctx, section_id, entrant_id, posted, status).await
        }
    }
}

async fn render_conflict(
    state: &AppState,
    actor: &service::users::Actor,
    ctx: PageCtx,
    section_id: Uuid,
    entrant_id: Uuid,
    message: String,
) -> Result<Response, PageError> {
    let entrant = service::entrants::get(&state.db, actor, entrant_id)
        .await
        .or_page(&ctx)?;
    let section = service::sections::get(&state.db, section_id)
        .await
        .or_page(&ctx)?;
    let doubles = section.entry_type == EntryType::Doubles;
    let stored = values(&entrant, doubles);
    render(
        state,
        actor,
        ctx,
        section_id,
        entrant_id,
        Some((&stored, &service::FieldErrors::new(), Some(message))),
        StatusCode::CONFLICT,
    )
    .await
}
