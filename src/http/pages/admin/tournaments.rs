//! A tournament on the dashboard: the form that creates one, its overview with its sections and
//! the form for a new section.

use super::form::{
    checkbox, date, done_notice, invalid_fields, number, place_errors, require, text, Choice,
    Field, Fields,
};
use super::section::SectionExtras;
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::tiebreaks::{preset_label, PRESETS};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::sections::{Section, SectionInput};
use crate::service::tournaments::{Tournament, TournamentInput};
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
use crate::vocab::{EntryType, Game, PairingSystem, TournamentStatus};
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
        .route("/admin/tournaments/new", get(show_new_tournament))
        .route("/admin/tournaments", post(create_tournament))
        .route("/admin/t/{tournament_id}", get(show_tournament))
        .route("/admin/t/{tournament_id}/sections", post(create_section))
}

// ---------------------------------------------------------------------------------------------
// Tournaments

const GAMES: &[&str] = Game::WORDS;
const LANGUAGES: &[&str] = &["zh-Hant", "zh-Hans", "en"];

/// The time zones offered (where the game's clubs play); the API takes any IANA zone, and an
/// event's own zone is offered too when it is not among these.
pub(super) const TIME_ZONES: &[&str] = &[
    "Asia/Hong_Kong",
    "Asia/Taipei",
    "Asia/Shanghai",
    "Asia/Macau",
    "Asia/Singapore",
    "Asia/Kuala_Lumpur",
    "Asia/Bangkok",
    "Asia/Ho_Chi_Minh",
    "Asia/Manila",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "America/Toronto",
    "America/New_York",
    "America/Chicago",
    "America/Vancouver",
    "America/Los_Angeles",
    "UTC",
];

/// The zone a new event's form proposes: where most events in the visitor's language are
/// played (the arbiter sees it and may choose another).
fn likely_zone(lang: crate::i18n::Lang) -> &'static str {
    match lang {
        crate::i18n::Lang::ZhHant => "Asia/Hong_Kong",
        crate::i18n::Lang::ZhHans => "Asia/Shanghai",
        crate::i18n::Lang::En => "America/Toronto",
    }
}

/// The time-zone field: a choice of [`TIME_ZONES`], plus `current` when it is another.
pub(super) fn zone_field(form: &Fields, tr: Tr, default: &str) -> Field {
    let field = Field::new("time_zone", "adm.time_zone", "select", form).required();
    let chosen = if field.value.is_empty() {
        default.to_string()
    } else {
        field.value.clone()
    };
    let mut zones: Vec<&str> = TIME_ZONES.to_vec();
    if !zones.contains(&chosen.as_str()) {
        zones.insert(0, chosen.as_str());
    }
    field
        .select(&zones, None, tr, default)
        .labelled(|zone| zone_label(tr, zone))
}

/// A time zone as the arbiter knows it: the place in the page's language, then its IANA name
/// ("香港 · Asia/Hong_Kong"); the IANA name alone for a zone the catalogue does not name.
pub(super) fn zone_label(tr: Tr, zone: &str) -> String {
    match tr.word("zone", zone) {
        place if place == zone => zone.to_string(),
        place => format!("{place} · {zone}"),
    }
}

/// The fields of the new-tournament form, filled from `form`.
pub(in crate::http::pages::admin) fn tournament_fields(form: &Fields, tr: Tr) -> Vec<Field> {
    let mut language = Field::new("default_language", "adm.default_language", "select", form);
    let chosen = if language.value.is_empty() {
        "zh-Hant".to_string()
    } else {
        language.value.clone()
    };
    language.options = LANGUAGES
        .iter()
        .map(|tag| Choice {
            value: (*tag).to_string(),
            label: crate::i18n::Lang::from_tag(tag)
                .map_or(*tag, |l| l.native_name())
                .to_string(),
            selected: *tag == chosen,
        })
        .collect();
    vec![
        Field::new("name", "table.name", "text", form).required(),
        Field::new("game", "table.game", "select", form)
            .required()
            .select(GAMES, Some("game"), tr, Game::Xiangqi.as_str()),
        Field::new("starts_on", "adm.starts_on", "date", form),
        Field::new("ends_on", "adm.ends_on", "date", form),
        Field::new("venue", "table.venue", "text", form),
        Field::new("organiser", "tournament.organiser", "text", form),
        Field::new("time_control", "tournament.time_control", "text", form),
        Field::new("time_control_code", "adm.time_control_code", "text", form),
        zone_field(form, tr, likely_zone(tr.lang)),
        language,
        Field::new("waiver_text", "adm.waiver_text", "textarea", form),
    ]
}

pub(in crate::http::pages::admin) fn tournament_input(
    form: &Fields,
    tr: Tr,
) -> (TournamentInput, FieldErrors) {
    let mut errors = FieldErrors::new();
    let input = TournamentInput {
        // Sent as typed (empty too): the service says what is required.
        name: Some(form.get("name").cloned().unwrap_or_default()),
        game: Some(form.get("game").cloned().unwrap_or_default()),
        time_control: text(form, "time_control"),
        time_control_code: text(form, "time_control_code"),
        venue: text(form, "venue"),
        starts_on: date(form, "starts_on", tr, &mut errors),
        ends_on: date(form, "ends_on", tr, &mut errors),
        organiser: text(form, "organiser"),
        default_language: text(form, "default_language"),
        waiver_text: text(form, "waiver_text"),
        status: None,
        time_zone: text(form, "time_zone"),
        listed: None,
    };
    (input, errors)
}

/// The form to create a tournament.
#[derive(Template)]
#[template(path = "admin/new_tournament.html")]
pub struct NewTournamentPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The fields.
    pub fields: Vec<Field>,
    /// A message for the whole form.
    pub form_error: Option<String>,
    /// Why the event file was refused.
    pub import_error: Option<String>,
}

/// `GET /admin/tournaments/new`
pub async fn show_new_tournament(
    CurrentUser(_actor): CurrentUser,
    ctx: PageCtx,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    Ok(Page(
        StatusCode::OK,
        NewTournamentPage {
            tr,
            ctx,
            fields: tournament_fields(&Fields::new(), tr),
            form_error: None,
            import_error: None,
        },
    )
    .into_response())
}

/// `POST /admin/tournaments`: creates the tournament and opens its page; errors next to the fields (422).
pub async fn create_tournament(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let (input, mut errors) = tournament_input(&form, tr);
    let mut form_error = None;
    if errors.is_empty() {
        match service::tournaments::create(&state.db, &actor, &input).await {
            Ok(t) => return Ok(see_other(&format!("/admin/t/{}", t.id))),
            Err(err) => match invalid_fields(&err, tr) {
                Some((message, fields)) => {
                    errors = fields;
                    form_error = Some(message);
                }
                None => return Err(PageError::from_ctx(err, &ctx)),
            },
        }
    }
    let mut fields = tournament_fields(&form, tr);
    let rest = place_errors(tr, &mut fields, &errors, &[]);
    if form_error.is_none() || !rest.is_empty() {
        form_error = Some(tr.t("error.form_invalid").to_string());
    }
    Ok(Page(
        StatusCode::UNPROCESSABLE_ENTITY,
        NewTournamentPage {
            tr,
            ctx,
            fields,
            form_error,
            import_error: None,
        },
    )
    .into_response())
}

/// A section as listed on the tournament page.
pub struct SectionItem {
    /// The section.
    pub section: Section,
    /// Catalogue key of its pairing system.
    pub system_key: String,
    /// Catalogue key of its status.
    pub status_key: String,
}

impl From<Section> for SectionItem {
    fn from(section: Section) -> SectionItem {
        SectionItem {
            system_key: format!("system.{}", section.pairing_system),
            status_key: format!("section_status.{}", section.status),
            section,
        }
    }
}

/// `GET /admin/t/{id}`: the overview, its sections, the form for a new section.
#[derive(Template)]
#[template(path = "admin/tournament.html")]
pub struct TournamentPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tournament.
    pub tournament: Tournament,
    /// Catalogue key of the game.
    pub game_key: String,
    /// Catalogue key of the status.
    pub status_key: String,
    /// Its sections.
    pub sections: Vec<SectionItem>,
    /// The new-section form.
    pub fields: Vec<Field>,
    /// A message for the new-section form.
    pub form_error: Option<String>,
    /// A success message.
    pub notice: Option<String>,
    /// Why the TRF import was refused.
    pub import_error: Option<String>,
    /// The public registration form's absolute URL.
    pub register_url: String,
    /// Its QR code (inline SVG) while registration is open, for a poster at the desk.
    pub register_qr: Option<String>,
    /// What this person may do (a scorer sees no arbiter's form).
    pub powers: service::access::Powers,
}

impl TournamentPage {
    /// The event's time zone, named.
    pub fn zone(&self) -> String {
        zone_label(self.tr, &self.tournament.time_zone)
    }
}

const SYSTEMS: &[&str] = PairingSystem::WORDS;
const ENTRY_TYPES: &[&str] = EntryType::WORDS;
const SETUP_MODES: &[&str] = &["", "none", "duplicate", "per_board"];

fn section_fields(form: &Fields, tr: Tr) -> Vec<Field> {
    vec![
        Field::new("name", "table.name", "text", form).required(),
        Field::new("pairing_system", "tournament.system", "select", form).select(
            SYSTEMS,
            Some("system"),
            tr,
            "chinese",
        ),
        Field::new("rounds", "tournament.rounds", "number", form).required(),
        Field::new("entry_type", "adm.entry_type", "select", form).select(
            ENTRY_TYPES,
            Some("adm.entry_type"),
            tr,
            "individual",
        ),
        // A team section's boards and reserves (issue #41), fixed once round 1 is paired.
        Field::new("team_boards", "adm.team_boards", "number", form).hint("adm.team_boards_hint"),
        Field::new("team_reserves", "adm.team_reserves", "number", form),
        Field::new("preset", "adm.preset", "select", form)
            .select(PRESETS, None, tr, "")
            .labelled(|word| preset_label(tr, word)),
        // Fees and the rounds by entries are set with the section (and edited in its settings).
        Field::new("fee_tiers", "adm.settings.fee_tiers", "textarea", form)
            .hint("adm.settings.fee_tiers_hint"),
        Field::new(
            "rounds_by_entries",
            "adm.settings.rounds_by_entries",
            "textarea",
            form,
        )
        .hint("adm.settings.rounds_by_entries_hint"),
        Field::new("foul_threshold", "adm.foul_threshold", "number", form),
        Field::new("cap", "adm.cap", "number", form),
        Field::new("min_entries", "adm.min_entries", "number", form),
        Field::new("setup_mode", "adm.setup_mode", "select", form).select(
            SETUP_MODES,
            Some("adm.setup_mode"),
            tr,
            "",
        ),
        Field::new("payment_required", "adm.payment_required", "checkbox", form),
        Field::new("avoid_same_club", "adm.avoid_same_club", "checkbox", form),
        Field::new(
            "pair_checked_in_only",
            "adm.pair_checked_in_only",
            "checkbox",
            form,
        ),
    ]
}

fn section_input(form: &Fields, tr: Tr) -> (SectionInput, FieldErrors) {
    let mut errors = FieldErrors::new();
    let input = SectionInput {
        name: Some(form.get("name").cloned().unwrap_or_default()),
        pairing_system: text(form, "pairing_system"),
        rounds: number(form, "rounds", tr, &mut errors),
        entry_type: text(form, "entry_type"),
        preset: text(form, "preset"),
        foul_threshold: number(form, "foul_threshold", tr, &mut errors),
        cap: number(form, "cap", tr, &mut errors),
        min_entries: number(form, "min_entries", tr, &mut errors),
        setup_mode: text(form, "setup_mode"),
        payment_required: Some(checkbox(form, "payment_required")),
        avoid_same_club: Some(checkbox(form, "avoid_same_club")),
        pair_checked_in_only: Some(checkbox(form, "pair_checked_in_only")),
        fee_tiers: Some(super::section_forms::fee_tiers(form, tr, &mut errors)),
        rounds_by_entries: Some(super::section_forms::rounds_table(form, tr, &mut errors)),
        ..SectionInput::default()
    };
    let boards = number(form, "team_boards", tr, &mut errors);
    let reserves = number(form, "team_reserves", tr, &mut errors);
    let team = input.entry_type.as_deref() == Some("team");
    let input = SectionInput {
        team: team.then_some(service::teams::TeamSettingsInput {
            boards,
            reserves,
            ..Default::default()
        }),
        ..input
    };
    (input, errors)
}

async fn tournament_page(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    headers: &axum::http::HeaderMap,
    id: Uuid,
    extras: SectionExtras,
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
    let sections = service::sections::list(&state.db, id).await.or_page(&ctx)?;
    let mut fields = section_fields(&extras.form, tr);
    let errors = super::section_forms::group_list_errors(extras.errors.clone());
    let rest = place_errors(
        tr,
        &mut fields,
        &errors,
        &[
            ("team.boards", "team_boards"),
            ("team.reserves", "team_reserves"),
        ],
    );
    let form_error = extras
        .form_error
        .or_else(|| (!rest.is_empty()).then(|| rest.join("; ")));
    let notice = extras.notice;
    let import_error = extras.action_error;
    let register_url = crate::http::public_url(
        state.security.public_url.as_deref(),
        headers,
        &format!("/t/{id}/register"),
    );
    let register_qr = (tournament.status == TournamentStatus::Registration)
        .then(|| crate::http::pages::shared::qr_svg(&register_url));
    Ok(Page(
        status,
        TournamentPage {
            powers,
            register_url,
            register_qr,
            tr,
            game_key: format!("game.{}", tournament.game),
            status_key: format!("status.{}", tournament.status),
            tournament,
            sections: sections.into_iter().map(SectionItem::from).collect(),
            fields,
            form_error,
            notice,
            import_error,
            ctx,
        },
    )
    .into_response())
}

/// The tournament page again with a refused import's message (409/422).
pub async fn tournament_refused(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    headers: &axum::http::HeaderMap,
    id: Uuid,
    err: Error,
) -> Result<Response, PageError> {
    let status = crate::http::error::status(&err);
    let extras = SectionExtras {
        action_error: Some(err.render(ctx.lang)),
        ..SectionExtras::default()
    };
    tournament_page(state, actor, ctx, headers, id, extras, status).await
}

/// `GET /admin/t/{tournament_id}`
pub async fn show_tournament(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    uri: axum::http::Uri,
    headers: axum::http::HeaderMap,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let notice = done_notice(ctx.tr(), &uri);
    tournament_page(
        &state,
        &actor,
        ctx,
        &headers,
        id,
        SectionExtras {
            notice,
            ..SectionExtras::default()
        },
        StatusCode::OK,
    )
    .await
}

/// `POST /admin/t/{tournament_id}/sections`: creates a section and opens its page.
pub async fn create_section(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    headers: axum::http::HeaderMap,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let (input, mut errors) = section_input(&form, tr);
    let form_error;
    if errors.is_empty() {
        match service::sections::create(&state.db, &actor, id, &input).await {
            // A new section has nobody in it: its entrants tab is where the desk goes next.
            Ok(s) => return Ok(see_other(&format!("/admin/s/{}/entrants", s.id))),
            Err(err) => match invalid_fields(&err, tr) {
                Some((message, fields)) => {
                    errors = fields;
                    form_error = Some(message);
                }
                None => return Err(PageError::from_ctx(err, &ctx)),
            },
        }
    } else {
        form_error = Some(tr.t("error.form_invalid").to_string());
    }
    tournament_page(
        &state,
        &actor,
        ctx,
        &headers,
        id,
        SectionExtras {
            form,
            errors,
            form_error,
            ..SectionExtras::default()
        },
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await
}
