//! The public team registration form `/t/{tournament_id}/register/team` (issue #41): the
//! captain enters the team's name, club or federation, their own name and contact, and the
//! roster in board order (one row per board, then the reserves). CSRF-checked and
//! rate-limited as the individual form (the same limiter); every rule is the service's
//! (`service::team_registrations`), its errors next to the field in the visitor's language,
//! the values entered kept. The registration waits for the desk (pending).

use super::register::{Choice, TierGroup};
use crate::http::error::{OrPage, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::ClientIp;
use crate::http::AppState;
use crate::i18n::{Msg, Tr};
use crate::service;
use crate::service::registrations::RegistrationInput;
use crate::service::team_registrations::TeamRegistration;
use crate::service::teams::RosterInput;
use crate::service::tournaments::Tournament;
use crate::service::FieldErrors;
use crate::vocab::{EntryType, SectionStatus};
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
        "/t/{tournament_id}/register/team",
        get(show_form).post(submit_form),
    )
}

/// The form as posted, as name–value pairs (the roster's fields are numbered:
/// `player_1_name`, `player_1_gender`, `player_1_rating`, …).
type Fields = Vec<(String, String)>;

fn field<'a>(form: &'a Fields, name: &str) -> &'a str {
    form.iter()
        .find(|(k, _)| k == name)
        .map_or("", |(_, v)| v.as_str())
}

fn given(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// A team section on the form.
pub struct TeamSection {
    /// Its choice in the select.
    pub choice: Choice,
    /// Boards per match.
    pub boards: u32,
    /// Reserves.
    pub reserves: u32,
}

/// One text input.
pub struct Input {
    /// Name and id.
    pub name: String,
    /// Catalogue key of its label.
    pub label_key: &'static str,
    /// `text`, `email`, `tel`.
    pub kind: &'static str,
    /// `autocomplete`.
    pub autocomplete: &'static str,
    /// Required.
    pub required: bool,
    /// The value entered.
    pub value: String,
    /// The message next to it.
    pub error: Option<String>,
}

/// One roster row (a board, or a reserve).
pub struct RosterRow {
    /// 1-based position.
    pub position: usize,
    /// Name.
    pub name: Input,
    /// Gender choices (`player_N_gender`).
    pub genders: Vec<Choice>,
    /// Rating.
    pub rating: Input,
    /// The message of the row as a whole.
    pub error: Option<String>,
}

/// `GET /t/{tournament_id}/register/team`
#[derive(Template)]
#[template(path = "public/team_register.html")]
pub struct TeamRegisterPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Tournament id.
    pub tournament_id: String,
    /// Tournament name.
    pub tournament_name: String,
    /// The team sections open.
    pub sections: Vec<TeamSection>,
    /// Message next to the section.
    pub section_error: Option<String>,
    /// Team name, club or federation.
    pub team_fields: Vec<Input>,
    /// The captain's name, e-mail and phone.
    pub captain_fields: Vec<Input>,
    /// The captain's board (empty: does not play).
    pub captain_boards: Vec<Choice>,
    /// Message next to it.
    pub captain_error: Option<String>,
    /// The roster rows.
    pub roster: Vec<RosterRow>,
    /// Message about the roster as a whole (too few, too many).
    pub roster_error: Option<String>,
    /// Fee tiers per section.
    pub tier_groups: Vec<TierGroup>,
    /// Message next to the fee tier.
    pub tier_error: Option<String>,
    /// The waiver, if any.
    pub waiver: String,
    /// Waiver ticked.
    pub waiver_accepted: bool,
    /// Message next to the waiver.
    pub waiver_error: Option<String>,
    /// Whether this server sends e-mail.
    pub email_on: bool,
    /// The e-mail opt-in ticked.
    pub email_notifications: bool,
    /// A message about the whole form.
    pub form_error: Option<String>,
}

fn error_of(errors: &FieldErrors, name: &str, tr: Tr) -> Option<String> {
    errors
        .get(name)
        .map(|messages| tr.msg(&Msg::list(messages.iter().cloned())))
}

fn input(form: &Fields, name: &str, service_field: &str, errors: &FieldErrors, tr: Tr) -> Input {
    Input {
        name: name.to_string(),
        label_key: "",
        kind: "text",
        autocomplete: "off",
        required: false,
        value: field(form, name).to_string(),
        error: error_of(errors, service_field, tr),
    }
}

fn genders(tr: Tr, chosen: &str) -> Vec<Choice> {
    [
        ("", "gender.unset"),
        ("f", "gender.f"),
        ("m", "gender.m"),
        ("x", "gender.x"),
    ]
    .into_iter()
    .map(|(value, key)| Choice {
        value: value.to_string(),
        label: tr.t(key).to_string(),
        selected: value == chosen,
    })
    .collect()
}

/// The team sections a registration may choose, with their roster sizes.
struct Loaded {
    tournament: Tournament,
    sections: Vec<(service::sections::Section, u32, u32)>,
}

async fn load(state: &AppState, id: Uuid) -> service::Result<Loaded> {
    let tournament = service::tournaments::get(&state.db, id).await?;
    let mut sections = Vec::new();
    for s in service::sections::list(&state.db, id).await? {
        if s.entry_type != EntryType::Team
            || matches!(s.status, SectionStatus::Cancelled | SectionStatus::Finished)
        {
            continue;
        }
        let (boards, reserves) = service::team_registrations::roster_size(&state.db, s.id).await?;
        sections.push((s, boards, reserves));
    }
    Ok(Loaded {
        tournament,
        sections,
    })
}

fn form_page(
    ctx: PageCtx,
    loaded: &Loaded,
    form: &Fields,
    errors: &FieldErrors,
    (form_error, email_on): (Option<String>, bool),
) -> TeamRegisterPage {
    let tr = ctx.tr();
    let t = &loaded.tournament;
    let chosen = match field(form, "section_id") {
        "" if loaded.sections.len() == 1 => loaded.sections[0].0.id.to_string(),
        other => other.to_string(),
    };
    let rows = loaded
        .sections
        .iter()
        .map(|(_, b, r)| (b + r) as usize)
        .max()
        .unwrap_or(0);
    let roster = (1..=rows)
        .map(|n| {
            let at = |f: &str| format!("team.roster[{}].{f}", n - 1);
            RosterRow {
                position: n,
                name: input(form, &format!("player_{n}_name"), &at("name"), errors, tr),
                genders: genders(tr, field(form, &format!("player_{n}_gender"))),
                rating: input(
                    form,
                    &format!("player_{n}_rating"),
                    &at("rating"),
                    errors,
                    tr,
                ),
                error: [
                    at("gender"),
                    at("player_id"),
                    format!("team.roster[{}]", n - 1),
                ]
                .iter()
                .find_map(|f| error_of(errors, f, tr)),
            }
        })
        .collect();
    let captain_board = field(form, "captain_board");
    let mut captain_boards = vec![Choice {
        value: String::new(),
        label: tr.t("team_register.captain_not_playing").to_string(),
        selected: captain_board.is_empty(),
    }];
    captain_boards.extend((1..=rows).map(|n| Choice {
        value: n.to_string(),
        label: tr.fmt("team_register.captain_plays", n),
        selected: captain_board == n.to_string(),
    }));
    let tier_choice = field(form, "fee_tier");
    TeamRegisterPage {
        tr,
        tournament_id: t.id.to_string(),
        tournament_name: t.name.clone(),
        sections: loaded
            .sections
            .iter()
            .map(|(s, boards, reserves)| TeamSection {
                choice: Choice {
                    value: s.id.to_string(),
                    label: s.name.clone(),
                    selected: s.id.to_string() == chosen,
                },
                boards: *boards,
                reserves: *reserves,
            })
            .collect(),
        section_error: error_of(errors, "section_id", tr).or_else(|| error_of(errors, "team", tr)),
        team_fields: vec![
            Input {
                label_key: "team_register.team_name",
                required: true,
                ..input(form, "team_name", "team.name", errors, tr)
            },
            Input {
                label_key: "team_register.club",
                autocomplete: "organization",
                ..input(form, "club", "club", errors, tr)
            },
        ],
        captain_fields: vec![
            Input {
                label_key: "register.name",
                autocomplete: "name",
                required: true,
                ..input(form, "name", "name", errors, tr)
            },
            Input {
                label_key: "register.email",
                kind: "email",
                autocomplete: "email",
                ..input(form, "email", "email", errors, tr)
            },
            Input {
                label_key: "register.phone",
                kind: "tel",
                autocomplete: "tel",
                ..input(form, "phone", "phone", errors, tr)
            },
        ],
        captain_boards,
        captain_error: error_of(errors, "team.captain_position", tr),
        roster,
        roster_error: error_of(errors, "team.roster", tr)
            .or_else(|| error_of(errors, "team.boards", tr)),
        tier_groups: loaded
            .sections
            .iter()
            .filter(|(s, _, _)| !s.fee_tiers.is_empty())
            .map(|(s, _, _)| TierGroup {
                label: s.name.clone(),
                choices: s
                    .fee_tiers
                    .iter()
                    .map(|tier| {
                        let value = format!("{}:{}", s.id, tier.name);
                        Choice {
                            selected: tier_choice == value,
                            value,
                            label: tier.label(),
                        }
                    })
                    .collect(),
            })
            .collect(),
        tier_error: error_of(errors, "fee_tier", tr),
        waiver: t.waiver_text.clone().unwrap_or_default(),
        waiver_accepted: !field(form, "waiver_accepted").is_empty(),
        waiver_error: error_of(errors, "waiver_accepted", tr),
        email_on,
        email_notifications: !field(form, "email_notifications").is_empty(),
        form_error,
        ctx,
    }
}

/// `GET /t/{tournament_id}/register/team`
pub async fn show_form(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let loaded = load(&state, id).await.or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&loaded.tournament.default_language);
    let page = form_page(
        ctx,
        &loaded,
        &Fields::new(),
        &FieldErrors::new(),
        (None, state.security.email_on),
    );
    Ok(Page(StatusCode::OK, page).into_response())
}

/// Reads the form into the service's input; only what cannot be parsed (a rating that is not
/// a number) is refused here.
fn to_input(form: &Fields, rows: usize) -> Result<RegistrationInput, FieldErrors> {
    let mut errors = FieldErrors::new();
    let mut roster = Vec::new();
    // Rows left empty at the end are no players; an empty row between two filled ones is a
    // player without a name (the service says so next to it).
    let filled = (1..=rows)
        .rev()
        .find(|n| {
            ["name", "rating"]
                .iter()
                .any(|f| given(field(form, &format!("player_{n}_{f}"))).is_some())
        })
        .unwrap_or(0);
    for n in 1..=filled {
        let rating = match given(field(form, &format!("player_{n}_rating"))) {
            None => None,
            Some(text) => match text.parse::<i64>() {
                Ok(v) => Some(v),
                Err(_) => {
                    errors.insert(
                        format!("team.roster[{}].rating", n - 1),
                        vec![crate::i18n::ui("register.not_a_number")],
                    );
                    None
                }
            },
        };
        roster.push(RosterInput {
            name: Some(field(form, &format!("player_{n}_name")).to_string()),
            gender: given(field(form, &format!("player_{n}_gender"))),
            rating,
            ..RosterInput::default()
        });
    }
    let captain_position = match given(field(form, "captain_board")) {
        None => None,
        Some(text) => text.parse::<i64>().ok(),
    };
    let fee_tier = given(field(form, "fee_tier")).map(|value| match value.split_once(':') {
        Some((section, name)) if Uuid::parse_str(section).is_ok() => {
            if section != field(form, "section_id").trim() {
                errors.insert(
                    "fee_tier".into(),
                    vec![crate::i18n::ui("register.tier_other_section")],
                );
            }
            name.to_string()
        }
        _ => value,
    });
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(RegistrationInput {
        name: field(form, "name").to_string(),
        email: given(field(form, "email")),
        phone: given(field(form, "phone")),
        club: given(field(form, "club")),
        fee_tier,
        waiver_accepted: Some(!field(form, "waiver_accepted").is_empty()),
        email_notifications: Some(!field(form, "email_notifications").is_empty()),
        team: Some(TeamRegistration {
            name: field(form, "team_name").to_string(),
            captain_position,
            roster,
        }),
        ..RegistrationInput::default()
    })
}

/// `POST /t/{tournament_id}/register/team`
pub async fn submit_form(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: axum::http::HeaderMap,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let loaded = load(&state, id).await.or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&loaded.tournament.default_language);
    let tr = ctx.tr();
    let email_on = state.security.email_on;
    let again = |ctx, status, errors: FieldErrors, form_error: Option<String>| {
        Page(
            status,
            form_page(ctx, &loaded, &form, &errors, (form_error, email_on)),
        )
        .into_response()
    };
    let Some((section, boards, reserves)) = loaded
        .sections
        .iter()
        .find(|(s, _, _)| s.id.to_string() == field(&form, "section_id"))
    else {
        let mut errors = FieldErrors::new();
        errors.insert(
            "section_id".into(),
            vec![crate::i18n::ui("register.choose_section")],
        );
        return Ok(again(ctx, StatusCode::UNPROCESSABLE_ENTITY, errors, None));
    };
    let rows = loaded
        .sections
        .iter()
        .map(|(_, b, r)| (b + r) as usize)
        .max()
        .unwrap_or((boards + reserves) as usize);
    let mut input = match to_input(&form, rows) {
        Ok(input) => input,
        Err(errors) => return Ok(again(ctx, StatusCode::UNPROCESSABLE_ENTITY, errors, None)),
    };
    input.lang = Some(ctx.lang.tag().to_string());
    if let Err(retry) = super::register::registration_limit(&state, ip, section.id)
        .await
        .map_err(|err| PageError::from_ctx(err, &ctx))?
    {
        let message = tr.t("register.too_many").to_string();
        let page = again(
            ctx,
            StatusCode::TOO_MANY_REQUESTS,
            FieldErrors::new(),
            Some(message),
        );
        return Ok(super::register::with_retry_after(page, retry));
    }
    let t = &loaded.tournament;
    Ok(
        match service::registrations::register(&state.db, section.id, &input, email_on).await {
            Ok(view) => super::registered::page(
                &state,
                &headers,
                ctx,
                (&t.id, &t.name),
                (section.id, &section.name),
                view,
            ),
            Err(service::Error::Invalid { fields, message }) => {
                let form_error = Some(message.render(ctx.lang)).filter(|_| fields.is_empty());
                again(ctx, StatusCode::UNPROCESSABLE_ENTITY, fields, form_error)
            }
            Err(service::Error::Conflict(message)) => {
                let message = message.render(ctx.lang);
                again(ctx, StatusCode::CONFLICT, FieldErrors::new(), Some(message))
            }
            Err(err) => return Err(PageError::from_ctx(err, &ctx)),
        },
    )
}
