//! The public registration form `/t/{tournament_id}/register` (SPEC §3): no account needed,
//! CSRF-checked and rate-limited; errors next to the fields with the entered values kept. The
//! rules (cap, waitlist, window, waiver, fee tiers, doubles partner) are the service's.

use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::session::ClientIp;
use crate::http::AppState;
use crate::i18n::Msg;
use crate::i18n::Tr;
use crate::service;
use crate::service::registrations::RegistrationInput;
use crate::service::sections::Section;
use crate::service::tournaments::Tournament;
use crate::service::FieldErrors;
use crate::vocab::{EntryType, SectionStatus};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/t/{tournament_id}/register",
        get(show_register).post(create_registration),
    )
}

/// The form as posted: every field is text, as browsers send it.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RegisterForm {
    /// The section chosen.
    #[serde(default)]
    pub section_id: String,
    /// Name.
    #[serde(default)]
    pub name: String,
    /// `m`, `f`, `x` or empty.
    #[serde(default)]
    pub gender: String,
    /// Email.
    #[serde(default)]
    pub email: String,
    /// Phone.
    #[serde(default)]
    pub phone: String,
    /// Address.
    #[serde(default)]
    pub address: String,
    /// Club.
    #[serde(default)]
    pub club: String,
    /// Rating.
    #[serde(default)]
    pub rating: String,
    /// Birth date (YYYY-MM-DD).
    #[serde(default)]
    pub birth_date: String,
    /// School grade.
    #[serde(default)]
    pub school_grade: String,
    /// Checkbox: member of the organising club.
    #[serde(default)]
    pub member: Option<String>,
    /// Partner's name (doubles).
    #[serde(default)]
    pub partner_name: String,
    /// Partner's gender (doubles).
    #[serde(default)]
    pub partner_gender: String,
    /// Fee tier name.
    #[serde(default)]
    pub fee_tier: String,
    /// Checkbox: the waiver is accepted.
    #[serde(default)]
    pub waiver_accepted: Option<String>,
    /// Checkbox: e-mail me the confirmation and each round's pairing (issue #37).
    #[serde(default)]
    pub email_notifications: Option<String>,
}

/// A plain input field of the form.
pub struct InputField {
    /// Field name (also the id).
    pub name: &'static str,
    /// Catalogue key of the label.
    pub label_key: &'static str,
    /// `text`, `email`, `tel`, `date`, `number`.
    pub kind: &'static str,
    /// `autocomplete` value.
    pub autocomplete: &'static str,
    /// The value entered.
    pub value: String,
    /// Required.
    pub required: bool,
    /// Messages for this field.
    pub error: Option<String>,
}

/// One option of a select.
pub struct Choice {
    /// Submitted value.
    pub value: String,
    /// Text shown.
    pub label: String,
    /// Chosen.
    pub selected: bool,
}

/// `GET /t/{tournament_id}/register`
#[derive(Template)]
#[template(path = "public/register.html")]
pub struct RegisterPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Tournament id.
    pub tournament_id: String,
    /// Tournament name.
    pub tournament_name: String,
    /// Sections open for registration.
    pub sections: Vec<Choice>,
    /// Message next to the section choice.
    pub section_error: Option<String>,
    /// The personal fields.
    pub fields: Vec<InputField>,
    /// Gender choices.
    pub genders: Vec<Choice>,
    /// Message next to the gender.
    pub gender_error: Option<String>,
    /// Member checkbox ticked.
    pub member: bool,
    /// Some section is for doubles: ask for the partner.
    pub doubles: bool,
    /// Partner fields.
    pub partner_fields: Vec<InputField>,
    /// Partner gender choices.
    pub partner_genders: Vec<Choice>,
    /// Fee tiers, per section (empty: no fee). A choice's value names its section too
    /// (`{section id}:{tier}`), so the fee recorded is the chosen section's.
    pub tier_groups: Vec<TierGroup>,
    /// Message next to the fee tier.
    pub tier_error: Option<String>,
    /// The waiver text, if the event has one.
    pub waiver: String,
    /// Waiver ticked.
    pub waiver_accepted: bool,
    /// Message next to the waiver.
    pub waiver_error: Option<String>,
    /// A message about the whole form (closed, cancelled, rate limited).
    pub form_error: Option<String>,
    /// Whether this server sends e-mail (`--smtp-url`): the opt-in is offered, else the page
    /// says e-mail is off.
    pub email_on: bool,
    /// The e-mail opt-in ticked.
    pub email_notifications: bool,
    /// The event has team sections: a link to the team form (issue #41).
    pub team_form: bool,
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

fn first_error(errors: &FieldErrors, field: &str, tr: Tr) -> Option<String> {
    errors
        .get(field)
        .map(|messages| tr.msg(&Msg::list(messages.iter().cloned())))
}

fn input(
    name: &'static str,
    label_key: &'static str,
    kind: &'static str,
    autocomplete: &'static str,
    value: &str,
    errors: &FieldErrors,
    tr: Tr,
) -> InputField {
    InputField {
        name,
        label_key,
        kind,
        autocomplete,
        value: value.to_string(),
        required: name == "name",
        error: first_error(errors, name, tr),
    }
}

fn open_sections(sections: Vec<Section>) -> Vec<Section> {
    // Which sections take registrations (window, cap) is decided by the service on submit;
    // here only sections that can never take one are left out.
    sections
        .into_iter()
        .filter(|s| s.status != SectionStatus::Cancelled && s.status != SectionStatus::Finished)
        .collect()
}

/// A section's fee tiers on the form.
pub struct TierGroup {
    /// The section's name.
    pub label: String,
    /// Its tiers.
    pub choices: Vec<Choice>,
}

fn form_page(
    ctx: PageCtx,
    t: &Tournament,
    sections: &[Section],
    form: &RegisterForm,
    errors: &FieldErrors,
    (form_error, email_on, team_form): (Option<String>, bool, bool),
) -> RegisterPage {
    let tr = ctx.tr();
    let chosen_section = if form.section_id.is_empty() && sections.len() == 1 {
        sections[0].id.to_string()
    } else {
        form.section_id.clone()
    };
    let tier_groups: Vec<TierGroup> = sections
        .iter()
        .filter(|s| !s.fee_tiers.is_empty())
        .map(|s| TierGroup {
            label: s.name.clone(),
            choices: s
                .fee_tiers
                .iter()
                .map(|tier| {
                    let value = format!("{}:{}", s.id, tier.name);
                    Choice {
                        selected: form.fee_tier == value,
                        value,
                        label: tier.label(),
                    }
                })
                .collect(),
        })
        .collect();
    RegisterPage {
        tr,
        tournament_id: t.id.to_string(),
        tournament_name: t.name.clone(),
        sections: sections
            .iter()
            .map(|s| Choice {
                value: s.id.to_string(),
                label: s.name.clone(),
                selected: s.id.to_string() == chosen_section,
            })
            .collect(),
        section_error: first_error(errors, "section_id", tr),
        fields: vec![
            input(
                "name",
                "register.name",
                "text",
                "name",
                &form.name,
                errors,
                tr,
            ),
            input(
                "club",
                "register.club",
                "text",
                "organization",
                &form.club,
                errors,
                tr,
            ),
            input(
                "email",
                "register.email",
                "email",
                "email",
                &form.email,
                errors,
                tr,
            ),
            input(
                "phone",
                "register.phone",
                "tel",
                "tel",
                &form.phone,
                errors,
                tr,
            ),
            input(
                "address",
                "register.address",
                "text",
                "address-line1",
                &form.address,
                errors,
                tr,
            ),
            input(
                "rating",
                "register.rating",
                "number",
                "off",
                &form.rating,
                errors,
                tr,
            ),
            input(
                "birth_date",
                "register.birth_date",
                "date",
                "bday",
                &form.birth_date,
                errors,
                tr,
            ),
            input(
                "school_grade",
                "register.school_grade",
                "text",
                "off",
                &form.school_grade,
                errors,
                tr,
            ),
        ],
        genders: genders(tr, &form.gender),
        gender_error: first_error(errors, "gender", tr),
        member: form.member.is_some(),
        doubles: sections.iter().any(|s| s.entry_type == EntryType::Doubles),
        partner_fields: vec![InputField {
            // Required in the browser only when every section is doubles: with an individual
            // section on the form the partner is optional there, and the service asks for one
            // when the section chosen is doubles.
            required: sections.iter().all(|s| s.entry_type == EntryType::Doubles),
            ..input(
                "partner_name",
                "register.partner_name",
                "text",
                "off",
                &form.partner_name,
                errors,
                tr,
            )
        }],
        partner_genders: genders(tr, &form.partner_gender),
        tier_groups,
        tier_error: first_error(errors, "fee_tier", tr),
        waiver: t.waiver_text.clone().unwrap_or_default(),
        waiver_accepted: form.waiver_accepted.is_some(),
        waiver_error: first_error(errors, "waiver_accepted", tr),
        form_error,
        email_on,
        email_notifications: form.email_notifications.is_some(),
        team_form,
        ctx,
    }
}

async fn load(state: &AppState, id: Uuid) -> service::Result<(Tournament, Vec<Section>, bool)> {
    let t = service::tournaments::get(&state.db, id).await?;
    let (teams, sections): (Vec<Section>, Vec<Section>) =
        open_sections(service::sections::list(&state.db, id).await?)
            .into_iter()
            .partition(|s| s.entry_type == EntryType::Team);
    // Teams register on their own form (`team_register.rs`).
    Ok((t, sections, !teams.is_empty()))
}

/// `GET /t/{tournament_id}/register`
pub async fn show_register(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let (t, sections, team_form) = load(&state, id).await.or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&t.default_language);
    let page = form_page(
        ctx,
        &t,
        &sections,
        &RegisterForm::default(),
        &FieldErrors::new(),
        (None, state.security.email_on, team_form),
    );
    Ok(Page(StatusCode::OK, page).into_response())
}

/// Text fields: empty means not given.
fn given(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// Reads the form into the service's input; only what cannot even be parsed (a rating that is
/// not a number, a malformed date) is reported here, every rule is the service's.
fn to_input(form: &RegisterForm, _tr: Tr) -> Result<RegistrationInput, FieldErrors> {
    let mut errors = FieldErrors::new();
    let rating = match given(&form.rating) {
        None => None,
        Some(text) => match text.parse::<i64>() {
            Ok(n) => Some(n),
            Err(_) => {
                errors.insert(
                    "rating".into(),
                    vec![crate::i18n::ui("register.not_a_number")],
                );
                None
            }
        },
    };
    let birth_date = match given(&form.birth_date) {
        None => None,
        Some(text) => match chrono::NaiveDate::parse_from_str(&text, "%Y-%m-%d") {
            Ok(d) => Some(d),
            Err(_) => {
                errors.insert(
                    "birth_date".into(),
                    vec![crate::i18n::ui("register.not_a_date")],
                );
                None
            }
        },
    };
    // A tier names its section: one of another section than the chosen one is refused
    // (the service checks the name against the chosen section's tiers).
    let fee_tier = given(&form.fee_tier).map(|value| match value.split_once(':') {
        Some((section, name)) if Uuid::parse_str(section).is_ok() => {
            if !form.section_id.is_empty() && section != form.section_id.trim() {
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
        name: form.name.clone(),
        gender: given(&form.gender),
        email: given(&form.email),
        phone: given(&form.phone),
        address: given(&form.address),
        club: given(&form.club),
        member: Some(form.member.is_some()),
        rating,
        birth_date,
        school_grade: given(&form.school_grade),
        partner_name: given(&form.partner_name),
        partner_gender: given(&form.partner_gender),
        fee_tier,
        waiver_accepted: Some(form.waiver_accepted.is_some()),
        email_notifications: Some(form.email_notifications.is_some()),
        lang: None,
        team: None,
    })
}

/// `POST /t/{tournament_id}/register`
pub async fn create_registration(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: axum::http::HeaderMap,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<RegisterForm>,
) -> Result<Response, PageError> {
    let (t, sections, team_form) = load(&state, id).await.or_page(&ctx)?;
    let ctx = ctx.with_default_tag(&t.default_language);
    let tr = ctx.tr();
    let email_on = state.security.email_on;
    let again = |ctx, status, errors: FieldErrors, form_error: Option<String>| {
        Page(
            status,
            form_page(
                ctx,
                &t,
                &sections,
                &form,
                &errors,
                (form_error, email_on, team_form),
            ),
        )
        .into_response()
    };
    let Some(section) = sections
        .iter()
        .find(|s| s.id.to_string() == form.section_id)
    else {
        let mut errors = FieldErrors::new();
        errors.insert(
            "section_id".into(),
            vec![crate::i18n::ui("register.choose_section")],
        );
        return Ok(again(ctx, StatusCode::UNPROCESSABLE_ENTITY, errors, None));
    };
    let input = match to_input(&form, tr) {
        Ok(mut input) => {
            // The e-mail is written in the language the form was filled in.
            input.lang = Some(ctx.lang.tag().to_string());
            input
        }
        Err(errors) => return Ok(again(ctx, StatusCode::UNPROCESSABLE_ENTITY, errors, None)),
    };
    if let Err(retry) = registration_limit(&state, ip, section.id)
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
        return Ok(with_retry_after(page, retry));
    }
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
                let form_error = fields.is_empty().then(|| message.render(ctx.lang));
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

/// The registration limiter, the API's too (per address and section, shared by every
/// instance): `Ok(Err(seconds))` when the visitor must wait (how long, when known).
pub(super) async fn registration_limit(
    state: &AppState,
    ip: std::net::IpAddr,
    section_id: uuid::Uuid,
) -> Result<Result<(), Option<u64>>, service::Error> {
    match service::throttle::registration_attempt(&state.db, &state.security.limits, ip, section_id)
        .await
    {
        Ok(()) => Ok(Ok(())),
        Err(err @ service::Error::TooManyAttempts(_)) => Ok(Err(err.retry_after())),
        Err(err) => Err(err),
    }
}

/// `page` with the limiter's `Retry-After`, when it said one.
pub(super) fn with_retry_after(mut page: Response, seconds: Option<u64>) -> Response {
    if let Some(seconds) = seconds {
        page.headers_mut()
            .insert(axum::http::header::RETRY_AFTER, seconds.into());
    }
    page
}
