//! The arbiter dashboard below `/admin` (issue 8): a tournament's overview with its sections,
//! the forms that create them, and a section's desk page (entrants, registrations, rounds,
//! pairing report). Result entry is in [`super::results`].
//!
//! Every page needs a login (visitors are sent to `/login`) and the tournament's access
//! (scorers may look, the services refuse them changes); every form goes through [`AppForm`]
//! (the CSRF check). Handlers only read forms, call one service and render: the rules live in
//! `service::*`.

use super::session::{see_other, CurrentUser};
use super::{HtmlPage, PageCtx, PageError};
use crate::http::extract::{AppForm, PagePath};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::entrants::{EntrantInput, EntrantView, MemberInput, StatusChange};
use crate::service::registrations::{PaymentInput, RegistrationAction, RegistrationView};
use crate::service::rounds::RoundView;
use crate::service::sections::{Section, SectionInput};
use crate::service::tournaments::{Tournament, TournamentInput};
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use uuid::Uuid;

/// A posted form: field name → text, as browsers send it (the `csrf` field included).
pub type Fields = HashMap<String, String>;

/// Routes of the dashboard (merged into the pages' router, inside its cookie layer).
pub fn routes() -> Router<AppState> {
    use super::results;
    Router::new()
        .route("/admin/tournaments/new", get(show_new_tournament))
        .route("/admin/tournaments", post(create_tournament))
        .route("/admin/t/{tournament_id}", get(show_tournament))
        .route("/admin/t/{tournament_id}/sections", post(create_section))
        .route("/admin/t/{tournament_id}/audit", get(show_audit))
        .route("/admin/s/{section_id}", get(show_section))
        .route("/admin/s/{section_id}/entrants", post(add_entrant))
        .route(
            "/admin/s/{section_id}/entrants/{entrant_id}/{action}",
            post(change_entrant),
        )
        .route(
            "/admin/s/{section_id}/registrations/{registration_id}/{action}",
            post(act_on_registration),
        )
        .route("/admin/s/{section_id}/rounds", post(pair_round))
        .route(
            "/admin/s/{section_id}/rounds/{n}/publish",
            post(publish_round),
        )
        .route(
            "/admin/s/{section_id}/rounds/{n}/unpair",
            post(unpair_round),
        )
        .route("/admin/s/{section_id}/rounds/{n}/report", get(show_report))
        .route(
            "/admin/s/{section_id}/rounds/{n}/results",
            get(results::show_results).post(results::enter_result),
        )
        .route(
            "/admin/boards/{board_id}/result",
            post(results::enter_board_result),
        )
        .route(
            "/admin/s/{section_id}/knockout",
            get(super::knockout_admin::show_knockout).post(super::knockout_admin::create_knockout),
        )
        .route(
            "/admin/s/{section_id}/ties",
            get(super::ties_admin::show_ties).post(super::ties_admin::decide_tie),
        )
        .route(
            "/admin/s/{section_id}/knockout/matches/{match_id}/games",
            post(super::knockout_admin::record_match_game),
        )
        .route(
            "/admin/s/{section_id}/import",
            get(super::imports_admin::show_import).post(super::imports_admin::import_csv),
        )
        .route(
            "/admin/s/{section_id}/export.trf",
            get(super::imports_admin::export_trf),
        )
        .route(
            "/admin/t/{tournament_id}/import-trf",
            post(super::imports_admin::import_trf),
        )
        .route(
            "/admin/s/{section_id}/rounds/{n}/setup",
            get(super::setups_admin::show_setup),
        )
        .route(
            "/admin/s/{section_id}/rounds/{n}/setup/print",
            get(super::setups_admin::print_setup),
        )
        .route(
            "/admin/t/{tournament_id}/desk/print",
            get(super::desk_admin::print_tournament_desk),
        )
        .route(
            "/admin/s/{section_id}/desk/print",
            get(super::desk_admin::print_section_desk),
        )
        .route(
            "/admin/s/{section_id}/prizes",
            get(super::prizes_admin::show_prizes).post(super::prizes_admin::save_prizes),
        )
        .route(
            "/admin/s/{section_id}/settings",
            get(super::sections_admin::show_settings).post(super::sections_admin::save_settings),
        )
        .route(
            "/admin/s/{section_id}/byes",
            post(super::byes_admin::request_bye),
        )
        .route(
            "/admin/s/{section_id}/byes/{entrant_id}/{round}/cancel",
            post(super::byes_admin::cancel_bye),
        )
        .route(
            "/admin/s/{section_id}/forbidden-pairs",
            post(super::byes_admin::forbid_pair),
        )
        .route(
            "/admin/s/{section_id}/forbidden-pairs/remove",
            post(super::byes_admin::allow_pair),
        )
        .route(
            "/admin/s/{section_id}/rounds/{n}/edit",
            get(super::repair_admin::show_edit).post(super::repair_admin::save_edit),
        )
        .route(
            "/admin/t/{tournament_id}/playoff",
            get(super::playoff_admin::show_playoff).post(super::playoff_admin::create_playoff),
        )
        .route(
            "/admin/t/{tournament_id}/playoff/matches/{match_id}/games",
            post(super::playoff_admin::record_playoff_game),
        )
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

/// Refuses unless `actor` has `need` on the tournament (the services' own access rule).
pub async fn require(
    state: &AppState,
    actor: &Actor,
    tournament_id: Uuid,
    need: Need,
) -> service::Result<()> {
    let mut conn = state.db.acquire().await?;
    service::access::require(&mut conn, actor, tournament_id, need).await
}

/// A form field's trimmed text, `None` when empty or absent.
pub fn text(form: &Fields, name: &str) -> Option<String> {
    form.get(name)
        .map(|v| v.trim())
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

/// A whole number field (`None` when empty); a message in `errors` when it is not a number.
pub fn number(form: &Fields, name: &str, tr: Tr, errors: &mut FieldErrors) -> Option<i64> {
    let value = text(form, name)?;
    match value.parse() {
        Ok(n) => Some(n),
        Err(_) => {
            errors.insert(name.into(), vec![tr.t("register.not_a_number").into()]);
            None
        }
    }
}

fn date(form: &Fields, name: &str, tr: Tr, errors: &mut FieldErrors) -> Option<chrono::NaiveDate> {
    let value = text(form, name)?;
    match chrono::NaiveDate::parse_from_str(&value, "%Y-%m-%d") {
        Ok(d) => Some(d),
        Err(_) => {
            errors.insert(name.into(), vec![tr.t("register.not_a_date").into()]);
            None
        }
    }
}

/// Whether a checkbox was ticked.
pub fn checkbox(form: &Fields, name: &str) -> bool {
    form.get(name).is_some_and(|v| !v.is_empty())
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

/// One field of a dashboard form, rendered by `admin/fields.html`.
pub struct Field {
    /// Name (also the id).
    pub name: &'static str,
    /// Catalogue key of the label.
    pub label_key: &'static str,
    /// `text`, `number`, `date`, `email`, `tel`, `select`, `checkbox` or `textarea`.
    pub kind: &'static str,
    /// The value entered (for a checkbox: non-empty when ticked).
    pub value: String,
    /// Required.
    pub required: bool,
    /// Message next to the field.
    pub error: Option<String>,
    /// Options of a select.
    pub options: Vec<Choice>,
    /// Catalogue key of a hint shown under the field (the format expected).
    pub hint_key: Option<&'static str>,
}

impl Field {
    /// A field showing the form's value (empty when the form has none).
    pub fn new(
        name: &'static str,
        label_key: &'static str,
        kind: &'static str,
        form: &Fields,
    ) -> Field {
        Field {
            name,
            label_key,
            kind,
            value: form.get(name).cloned().unwrap_or_default(),
            required: false,
            error: None,
            options: Vec::new(),
            hint_key: None,
        }
    }

    /// A field with a value shown when the form has none yet.
    pub fn plain(
        name: &'static str,
        label_key: &'static str,
        kind: &'static str,
        form: &Fields,
        default: &str,
    ) -> Field {
        let mut field = Field::new(name, label_key, kind, form);
        if field.value.is_empty() {
            field.value = default.to_string();
        }
        field
    }

    /// Marks the field required.
    pub fn required(mut self) -> Field {
        self.required = true;
        self
    }

    /// A select over `values`; labels from the catalogue keys `prefix.value` (or the value
    /// itself without a prefix); `default` is chosen when the form has no value yet.
    pub fn select(mut self, values: &[&str], prefix: Option<&str>, tr: Tr, default: &str) -> Field {
        let chosen = if self.value.is_empty() {
            default.to_string()
        } else {
            self.value.clone()
        };
        self.options = values
            .iter()
            .map(|v| Choice {
                value: (*v).to_string(),
                label: match (prefix, v.is_empty()) {
                    (_, true) => tr.t("adm.default").to_string(),
                    (Some(p), false) => tr.t(&format!("{p}.{v}")).to_string(),
                    (None, false) => (*v).to_string(),
                },
                selected: *v == chosen,
            })
            .collect();
        self
    }
}

/// Puts the errors' messages next to their fields; what fits no field is returned.
pub fn place_errors(
    fields: &mut [Field],
    errors: &FieldErrors,
    aliases: &[(&str, &str)],
) -> Vec<String> {
    let mut rest = Vec::new();
    for (key, messages) in errors {
        let target = aliases
            .iter()
            .find(|(from, _)| from == key)
            .map_or(key.as_str(), |(_, to)| to);
        match fields.iter_mut().find(|f| f.name == target) {
            Some(field) => {
                let joined = messages.join("; ");
                field.error = Some(match field.error.take() {
                    Some(before) => format!("{before}; {joined}"),
                    None => joined,
                });
            }
            None => rest.push(format!("{key}: {}", messages.join("; "))),
        }
    }
    rest
}

/// The field errors of an `Invalid` service error (empty for other errors).
pub fn invalid_fields(err: &Error) -> Option<(String, FieldErrors)> {
    match err {
        Error::Invalid { message, fields } => Some((message.clone(), fields.clone())),
        _ => None,
    }
}

/// A page error for `err`, in the page's language.
pub fn fail(err: Error, ctx: &PageCtx) -> Response {
    PageError::from_service(err, ctx.lang).into_response()
}

/// A success message key from `?done=` (only known keys; anything else is ignored).
fn done_notice(tr: Tr, uri: &axum::http::Uri) -> Option<String> {
    let query: HashMap<String, String> =
        serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let key = match query.get("done")?.as_str() {
        "created" => "adm.done.created",
        "entrant" => "adm.done.entrant",
        "entrant_status" => "adm.done.entrant_status",
        "registration" => "adm.done.registration",
        "paired" => "adm.done.paired",
        "published" => "adm.done.published",
        "unpaired" => "adm.done.unpaired",
        "result" => "adm.done.result",
        "converted" => "adm.results.converted_short",
        "settings" => "adm.done.settings",
        "bye" => "adm.done.bye",
        "bye_cancelled" => "adm.done.bye_cancelled",
        "forbidden" => "adm.done.forbidden",
        "allowed" => "adm.done.allowed",
        "repaired" => "adm.done.repaired",
        _ => return None,
    };
    Some(tr.t(key).to_string())
}

// ---------------------------------------------------------------------------------------------
// Tournaments

const GAMES: &[&str] = &["xiangqi", "jieqi", "banqi"];
const LANGUAGES: &[&str] = &["zh-Hant", "zh-Hans", "en"];

fn tournament_fields(form: &Fields, tr: Tr) -> Vec<Field> {
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
            .select(GAMES, Some("game"), tr, "xiangqi"),
        Field::new("starts_on", "adm.starts_on", "date", form),
        Field::new("ends_on", "adm.ends_on", "date", form),
        Field::new("venue", "table.venue", "text", form),
        Field::new("organiser", "tournament.organiser", "text", form),
        Field::new("time_control", "tournament.time_control", "text", form),
        Field::new("time_control_code", "adm.time_control_code", "text", form),
        language,
        Field::new("waiver_text", "adm.waiver_text", "textarea", form),
    ]
}

fn tournament_input(form: &Fields, tr: Tr) -> (TournamentInput, FieldErrors) {
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
}

/// `GET /admin/tournaments/new`
pub async fn show_new_tournament(CurrentUser(_actor): CurrentUser, ctx: PageCtx) -> Response {
    let tr = ctx.tr();
    HtmlPage(
        StatusCode::OK,
        NewTournamentPage {
            tr,
            ctx,
            fields: tournament_fields(&Fields::new(), tr),
            form_error: None,
        },
    )
    .into_response()
}

/// `POST /admin/tournaments`: creates the tournament and opens its page; errors next to the fields (422).
pub async fn create_tournament(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    AppForm(form): AppForm<Fields>,
) -> Response {
    let tr = ctx.tr();
    let (input, mut errors) = tournament_input(&form, tr);
    let mut form_error = None;
    if errors.is_empty() {
        match service::tournaments::create(&state.db, &actor, &input).await {
            Ok(t) => return see_other(&format!("/admin/t/{}", t.id)),
            Err(err) => match invalid_fields(&err) {
                Some((message, fields)) => {
                    errors = fields;
                    form_error = Some(message);
                }
                None => return fail(err, &ctx),
            },
        }
    }
    let mut fields = tournament_fields(&form, tr);
    let rest = place_errors(&mut fields, &errors, &[]);
    if form_error.is_none() || !rest.is_empty() {
        form_error = Some(tr.t("error.form_invalid").to_string());
    }
    HtmlPage(
        StatusCode::UNPROCESSABLE_ENTITY,
        NewTournamentPage {
            tr,
            ctx,
            fields,
            form_error,
        },
    )
    .into_response()
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
}

const SYSTEMS: &[&str] = &["chinese", "dutch", "round_robin"];
const ENTRY_TYPES: &[&str] = &["individual", "doubles"];
const PRESETS: &[&str] = &[
    "",
    "cxa2011_opp",
    "cxa2011_prog",
    "seed002_main",
    "seed002_supp",
    "seed004_tw",
    "fide_swiss",
];
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
        Field::new("preset", "adm.preset", "select", form).select(PRESETS, None, tr, ""),
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
        ..SectionInput::default()
    };
    (input, errors)
}

async fn tournament_page(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    extras: SectionExtras,
    status: StatusCode,
) -> Response {
    let tr = ctx.tr();
    let tournament = match service::tournaments::get(&state.db, id).await {
        Ok(t) => t,
        Err(err) => return fail(err, &ctx),
    };
    if let Err(err) = require(state, actor, id, Need::Scorer).await {
        return fail(err, &ctx);
    }
    let sections = match service::sections::list(&state.db, id).await {
        Ok(s) => s,
        Err(err) => return fail(err, &ctx),
    };
    let mut fields = section_fields(&extras.form, tr);
    let rest = place_errors(&mut fields, &extras.errors, &[]);
    let form_error = extras
        .form_error
        .or_else(|| (!rest.is_empty()).then(|| rest.join("; ")));
    let notice = extras.notice;
    let import_error = extras.action_error;
    HtmlPage(
        status,
        TournamentPage {
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
    .into_response()
}

/// The tournament page again with a refused import's message (409/422).
pub async fn tournament_refused(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    err: Error,
) -> Response {
    let status = crate::http::error::status(&err);
    let extras = SectionExtras {
        action_error: Some(err.to_string()),
        ..SectionExtras::default()
    };
    tournament_page(state, actor, ctx, id, extras, status).await
}

/// `GET /admin/t/{tournament_id}`
pub async fn show_tournament(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Response {
    let notice = done_notice(ctx.tr(), &uri);
    tournament_page(
        &state,
        &actor,
        ctx,
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
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Response {
    let tr = ctx.tr();
    let (input, mut errors) = section_input(&form, tr);
    let form_error;
    if errors.is_empty() {
        match service::sections::create(&state.db, &actor, id, &input).await {
            Ok(s) => return see_other(&format!("/admin/s/{}", s.id)),
            Err(err) => match invalid_fields(&err) {
                Some((message, fields)) => {
                    errors = fields;
                    form_error = Some(message);
                }
                None => return fail(err, &ctx),
            },
        }
    } else {
        form_error = Some(tr.t("error.form_invalid").to_string());
    }
    tournament_page(
        &state,
        &actor,
        ctx,
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

// ---------------------------------------------------------------------------------------------
// The section page

/// An entrant row.
pub struct EntrantRow {
    /// The entrant.
    pub entrant: EntrantView,
    /// Contact data (arbiters only), one line.
    pub contact: String,
}

/// A registration row.
pub struct RegistrationRow {
    /// The registration.
    pub registration: RegistrationView,
    /// Catalogue key of its status.
    pub status_key: String,
    /// Payment state, or empty.
    pub payment: String,
}

/// A round row.
pub struct RoundRow {
    /// Number.
    pub number: i32,
    /// Catalogue key of the status.
    pub status_key: String,
    /// Whether it can be published.
    pub can_publish: bool,
    /// Whether it is the last round (the one that can be unpaired).
    pub last: bool,
    /// Boards with a game.
    pub games: usize,
    /// Games with a result.
    pub results: usize,
    /// Whether its boards can be edited by hand (paired, unpublished, no result yet).
    pub editable: bool,
}

impl From<&RoundView> for RoundRow {
    fn from(r: &RoundView) -> RoundRow {
        let games = r.boards.iter().filter(|b| b.black.is_some()).count();
        let results = r
            .boards
            .iter()
            .filter(|b| b.black.is_some() && b.result.is_some())
            .count();
        RoundRow {
            number: r.number,
            status_key: format!("round_status.{}", r.status),
            can_publish: r.status == "paired",
            last: false,
            editable: r.status == "paired" && results == 0,
            games,
            results,
        }
    }
}

/// `GET /admin/s/{id}`: the desk page of a section.
#[derive(Template)]
#[template(path = "admin/section.html")]
pub struct SectionPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tournament.
    pub tournament: Tournament,
    /// The section.
    pub section: Section,
    /// Catalogue key of the pairing system.
    pub system_key: String,
    /// Catalogue key of the status.
    pub status_key: String,
    /// Doubles section.
    pub doubles: bool,
    /// Entrants.
    pub entrants: Vec<EntrantRow>,
    /// Registrations.
    pub registrations: Vec<RegistrationRow>,
    /// Rounds.
    pub rounds: Vec<RoundRow>,
    /// Whether another round can be paired (fewer rounds than planned).
    pub can_pair: bool,
    /// The add-entrant form.
    pub fields: Vec<Field>,
    /// A message for the add-entrant form.
    pub form_error: Option<String>,
    /// A success message.
    pub notice: Option<String>,
    /// An action that failed (conflict etc.).
    pub action_error: Option<String>,
    /// The last round's boards, with a result form each (the desk view).
    pub current: Vec<super::results::BoardRow>,
    /// Number of the last round (0 before round 1).
    pub current_number: i32,
    /// Results a board form offers.
    pub choices: Vec<super::results::ResultChoice>,
    /// Requested byes.
    pub byes: Vec<service::entrants::RequestedBye>,
    /// Forbidden pairs.
    pub forbidden: Vec<service::entrants::ForbiddenPair>,
    /// The requested-bye form.
    pub bye_fields: Vec<Field>,
    /// A message for the requested-bye form.
    pub bye_error: Option<String>,
    /// The forbidden-pair form.
    pub pair_fields: Vec<Field>,
    /// A message for the forbidden-pair form.
    pub pair_error: Option<String>,
}

fn entrant_fields(form: &Fields, tr: Tr, doubles: bool) -> Vec<Field> {
    let mut fields = vec![
        Field::new("name", "col.name", "text", form).required(),
        Field::new("club", "col.club", "text", form),
        Field::new("rating", "col.rating", "number", form),
        Field::new("gender", "register.gender", "select", form).select(
            &["", "m", "f", "x"],
            Some("gender"),
            tr,
            "",
        ),
        Field::new("email", "register.email", "email", form),
        Field::new("phone", "register.phone", "tel", form),
    ];
    if doubles {
        fields.push(Field::new("partner_name", "register.partner_name", "text", form).required());
        fields.push(Field::new("partner_club", "adm.partner_club", "text", form));
    }
    // The gender select's empty choice reads "not given", not "default".
    if let Some(g) = fields.iter_mut().find(|f| f.name == "gender") {
        if let Some(first) = g.options.first_mut() {
            first.label = tr.t("gender.unset").to_string();
        }
    }
    fields
}

fn entrant_input(form: &Fields, tr: Tr, doubles: bool) -> (EntrantInput, FieldErrors) {
    let mut errors = FieldErrors::new();
    let rating = number(form, "rating", tr, &mut errors);
    let input = if doubles {
        let member = |name: &str, club: &str| MemberInput {
            name: form.get(name).cloned().unwrap_or_default(),
            club: text(form, club),
            ..MemberInput::default()
        };
        EntrantInput {
            members: Some(vec![
                MemberInput {
                    gender: text(form, "gender"),
                    rating,
                    email: text(form, "email"),
                    phone: text(form, "phone"),
                    ..member("name", "club")
                },
                member("partner_name", "partner_club"),
            ]),
            ..EntrantInput::default()
        }
    } else {
        EntrantInput {
            name: Some(form.get("name").cloned().unwrap_or_default()),
            club: text(form, "club"),
            rating,
            gender: text(form, "gender"),
            email: text(form, "email"),
            phone: text(form, "phone"),
            ..EntrantInput::default()
        }
    };
    (input, errors)
}

/// Which form of the section page the submitted values and errors belong to.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
pub enum FormTarget {
    /// The add-entrant form.
    #[default]
    Entrant,
    /// The requested-bye form.
    Bye,
    /// The forbidden-pair form.
    Forbidden,
}

/// What a page shows besides the data: the form's values and errors, and messages.
#[derive(Default)]
pub struct SectionExtras {
    /// The submitted form.
    pub form: Fields,
    /// Its errors by field.
    pub errors: FieldErrors,
    /// A message above the form.
    pub form_error: Option<String>,
    /// A success message.
    pub notice: Option<String>,
    /// Why an action was refused.
    pub action_error: Option<String>,
    /// The form `form` and `errors` belong to.
    pub target: FormTarget,
}

/// Renders the section page with `extras` (a refused form's values and errors, messages).
pub async fn section_page(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    extras: SectionExtras,
    status: StatusCode,
) -> Response {
    let tr = ctx.tr();
    let section = match service::sections::get(&state.db, id).await {
        Ok(s) => s,
        Err(err) => return fail(err, &ctx),
    };
    if let Err(err) = require(state, actor, section.tournament_id, Need::Scorer).await {
        return fail(err, &ctx);
    }
    let loaded = async {
        let tournament = service::tournaments::get(&state.db, section.tournament_id).await?;
        let entrants = service::entrants::list(&state.db, Some(actor), id).await?;
        let registrations = service::registrations::list(&state.db, Some(actor), id).await?;
        let rounds = service::rounds::list(&state.db, id).await?;
        let byes = service::entrants::requested_byes(&state.db, id).await?;
        let forbidden = service::entrants::forbidden_pairs(&state.db, id).await?;
        service::Result::Ok((tournament, entrants, registrations, rounds, byes, forbidden))
    }
    .await;
    let (tournament, entrants, registrations, rounds, byes, forbidden) = match loaded {
        Ok(all) => all,
        Err(err) => return fail(err, &ctx),
    };
    let doubles = section.entry_type == "doubles";
    let empty = (Fields::new(), FieldErrors::new());
    let for_target = |target: FormTarget| {
        if extras.target == target {
            (&extras.form, &extras.errors)
        } else {
            (&empty.0, &empty.1)
        }
    };
    let next_round = rounds.last().map_or(1, |r| r.number + 1);
    let (bye_form, bye_errors) = for_target(FormTarget::Bye);
    let mut bye_fields = super::byes_admin::bye_fields(bye_form, tr, &entrants, next_round);
    let bye_rest = place_errors(&mut bye_fields, bye_errors, super::byes_admin::BYE_ALIASES);
    let (pair_form, pair_errors) = for_target(FormTarget::Forbidden);
    let mut pair_fields = super::byes_admin::pair_fields(pair_form, tr, &entrants);
    let pair_rest = place_errors(
        &mut pair_fields,
        pair_errors,
        super::byes_admin::PAIR_ALIASES,
    );
    let message_for = |target: FormTarget, rest: Vec<String>| {
        if extras.target != target {
            return None;
        }
        extras
            .form_error
            .clone()
            .or_else(|| (!rest.is_empty()).then(|| rest.join("; ")))
    };
    let bye_error = message_for(FormTarget::Bye, bye_rest);
    let pair_error = message_for(FormTarget::Forbidden, pair_rest);
    let (entrant_form, entrant_errors) = for_target(FormTarget::Entrant);
    let mut fields = entrant_fields(entrant_form, tr, doubles);
    let rest = place_errors(
        &mut fields,
        entrant_errors,
        &[
            ("members[0].name", "name"),
            ("members[0].club", "club"),
            ("members[0].rating", "rating"),
            ("members[0].gender", "gender"),
            ("members[0].email", "email"),
            ("members[0].phone", "phone"),
            ("members[1].name", "partner_name"),
            ("members[1].club", "partner_club"),
        ],
    );
    let form_error = message_for(FormTarget::Entrant, rest);
    let mut round_rows: Vec<RoundRow> = rounds.iter().map(RoundRow::from).collect();
    let current_number = rounds.last().map_or(0, |r| r.number);
    let current = rounds
        .into_iter()
        .last()
        .map(|r| super::results::board_rows(r.boards, None))
        .unwrap_or_default();
    if let Some(last) = round_rows.last_mut() {
        last.last = true;
    }
    HtmlPage(
        status,
        SectionPage {
            tr,
            system_key: format!("system.{}", section.pairing_system),
            status_key: format!("section_status.{}", section.status),
            can_pair: current_number < section.rounds && section.status != "cancelled",
            current,
            current_number,
            choices: super::results::choices(),
            doubles,
            entrants: entrants
                .into_iter()
                .map(|e| {
                    let contact = e
                        .members
                        .iter()
                        .flat_map(|m| [m.email.clone(), m.phone.clone()])
                        .flatten()
                        .collect::<Vec<_>>()
                        .join(", ");
                    EntrantRow {
                        entrant: e,
                        contact,
                    }
                })
                .collect(),
            registrations: registrations
                .into_iter()
                .map(|r| RegistrationRow {
                    status_key: format!("registration.{}", r.status),
                    payment: r
                        .payment_state
                        .as_deref()
                        .map(|p| tr.t(&format!("adm.payment.{p}")).to_string())
                        .unwrap_or_default(),
                    registration: r,
                })
                .collect(),
            rounds: round_rows,
            fields,
            form_error,
            byes,
            forbidden,
            bye_fields,
            bye_error,
            pair_fields,
            pair_error,
            notice: extras.notice,
            action_error: extras.action_error,
            tournament,
            section,
            ctx,
        },
    )
    .into_response()
}

/// `GET /admin/s/{section_id}`
pub async fn show_section(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Response {
    let notice = done_notice(ctx.tr(), &uri);
    section_page(
        &state,
        &actor,
        ctx,
        id,
        SectionExtras {
            notice,
            ..SectionExtras::default()
        },
        StatusCode::OK,
    )
    .await
}

/// The section page again after a failed action: 409/422 with the message at the top; other
/// failures (403, 404, 5xx) as error pages.
pub async fn action_failed(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    err: Error,
) -> Response {
    let status = crate::http::error::status(&err);
    if status == StatusCode::CONFLICT || status == StatusCode::UNPROCESSABLE_ENTITY {
        let extras = SectionExtras {
            action_error: Some(err.to_string()),
            ..SectionExtras::default()
        };
        section_page(state, actor, ctx, id, extras, status).await
    } else {
        fail(err, &ctx)
    }
}

/// `POST /admin/s/{section_id}/entrants`: an entrant added at the desk.
pub async fn add_entrant(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Response {
    let tr = ctx.tr();
    let doubles = match service::sections::get(&state.db, id).await {
        Ok(s) => s.entry_type == "doubles",
        Err(err) => return fail(err, &ctx),
    };
    let (input, mut errors) = entrant_input(&form, tr, doubles);
    let form_error;
    if errors.is_empty() {
        match service::entrants::add(&state.db, &actor, id, &input).await {
            Ok(_) => return see_other(&format!("/admin/s/{id}?done=entrant#entrants")),
            Err(err) => match invalid_fields(&err) {
                Some((message, fields)) => {
                    errors = fields;
                    form_error = Some(message);
                }
                None => return action_failed(&state, &actor, ctx, id, err).await,
            },
        }
    } else {
        form_error = Some(tr.t("error.form_invalid").to_string());
    }
    let extras = SectionExtras {
        form,
        errors,
        form_error,
        ..SectionExtras::default()
    };
    section_page(
        &state,
        &actor,
        ctx,
        id,
        extras,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await
}

/// The form of a button that carries only its CSRF token (and maybe a confirmation).
pub type ButtonForm = BTreeMap<String, String>;

/// `POST /admin/s/{sid}/entrants/{eid}/{withdraw|readmit|check-in|check-out}`
pub async fn change_entrant(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, entrant_id, action)): PagePath<(Uuid, Uuid, String)>,
    AppForm(_form): AppForm<ButtonForm>,
) -> Response {
    let change = match action.as_str() {
        "withdraw" => StatusChange::Withdraw,
        "readmit" => StatusChange::Readmit,
        "check-in" => StatusChange::CheckIn,
        "check-out" => StatusChange::CheckOut,
        _ => return fail(Error::NotFound("action"), &ctx),
    };
    // The entrant must belong to this section (the redirect goes back to it).
    match service::entrants::list(&state.db, Some(&actor), id).await {
        Ok(list) if list.iter().any(|e| e.id == entrant_id) => {}
        Ok(_) => return fail(Error::NotFound("entrant"), &ctx),
        Err(err) => return fail(err, &ctx),
    }
    match service::entrants::change_status(&state.db, &actor, entrant_id, change).await {
        Ok(_) => see_other(&format!("/admin/s/{id}?done=entrant_status#entrants")),
        Err(err) => action_failed(&state, &actor, ctx, id, err).await,
    }
}

/// `POST /admin/s/{sid}/registrations/{rid}/{confirm|payment|withdraw}`
pub async fn act_on_registration(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, registration_id, action)): PagePath<(Uuid, Uuid, String)>,
    AppForm(form): AppForm<Fields>,
) -> Response {
    let action = match action.as_str() {
        "confirm" => RegistrationAction::Confirm,
        "withdraw" => RegistrationAction::Withdraw,
        "payment" => RegistrationAction::Payment(PaymentInput {
            state: form.get("state").cloned().unwrap_or_default(),
            method: text(&form, "method"),
            note: text(&form, "note"),
        }),
        _ => return fail(Error::NotFound("action"), &ctx),
    };
    match service::registrations::list(&state.db, Some(&actor), id).await {
        Ok(list) if list.iter().any(|r| r.id == registration_id) => {}
        Ok(_) => return fail(Error::NotFound("registration"), &ctx),
        Err(err) => return fail(err, &ctx),
    }
    match service::registrations::act(&state.db, &actor, registration_id, action, None).await {
        Ok(_) => see_other(&format!("/admin/s/{id}?done=registration#registrations")),
        Err(err) => action_failed(&state, &actor, ctx, id, err).await,
    }
}

/// `POST /admin/s/{section_id}/rounds`: pairs the next round.
pub async fn pair_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(_form): AppForm<ButtonForm>,
) -> Response {
    match service::rounds::pair_next(&state.db, &actor, id).await {
        Ok(_) => see_other(&format!("/admin/s/{id}?done=paired#rounds")),
        Err(err) => action_failed(&state, &actor, ctx, id, err).await,
    }
}

/// `POST /admin/s/{section_id}/rounds/{n}/publish`
pub async fn publish_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(_form): AppForm<ButtonForm>,
) -> Response {
    match service::rounds::publish(&state.db, &actor, id, n).await {
        Ok(_) => see_other(&format!("/admin/s/{id}?done=published#rounds")),
        Err(err) => action_failed(&state, &actor, ctx, id, err).await,
    }
}

/// `POST /admin/s/{section_id}/rounds/{n}/unpair`: deletes the last round; when it has results
/// the form must carry the ticked confirmation `force`, else the page says so (409).
pub async fn unpair_round(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
    AppForm(form): AppForm<ButtonForm>,
) -> Response {
    let force = form.get("force").is_some_and(|v| !v.is_empty());
    match service::rounds::delete_last(&state.db, &actor, id, n, force).await {
        Ok(()) => see_other(&format!("/admin/s/{id}?done=unpaired#rounds")),
        Err(err) => action_failed(&state, &actor, ctx, id, err).await,
    }
}

// ---------------------------------------------------------------------------------------------
// The pairing report

/// One score group of a Chinese pairing report.
pub struct GroupRow {
    /// The group's score.
    pub points: String,
    /// Members (start numbers with names).
    pub members: String,
    /// Due Red.
    pub due_red: String,
    /// Due Black.
    pub due_black: String,
    /// Floated in.
    pub floaters_in: String,
    /// Floated out.
    pub floaters_out: String,
}

/// One line of the report: a few labelled cells.
pub struct ReportLine {
    /// Cells in column order.
    pub cells: Vec<String>,
}

/// `GET /admin/s/{sid}/rounds/{n}/report`
#[derive(Template)]
#[template(path = "admin/report.html")]
pub struct ReportPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Round number.
    pub number: i32,
    /// Pairing system of the report.
    pub system: String,
    /// Score groups (Chinese system).
    pub groups: Vec<GroupRow>,
    /// Floaters: who, score, opponent, opponent's score, why.
    pub floaters: Vec<ReportLine>,
    /// Boards: board, Red, Black, scores, decision, unmet preferences.
    pub boards: Vec<ReportLine>,
    /// The bye: who, score, why.
    pub bye: Option<ReportLine>,
    /// Relaxed colour rules.
    pub relaxed: Vec<ReportLine>,
    /// The whole report as indented JSON (for the other systems, and for the curious).
    pub raw: String,
}

/// Shows a JSON value briefly: strings bare, numbers as they are.
fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        // Points may be stored as tenths or as an object; show what is there.
        Value::Object(map) if map.len() == 1 => map.values().next().map(plain).unwrap_or_default(),
        other => other.to_string(),
    }
}

/// Renders start numbers as "3 Name".
fn who(names: &HashMap<i64, String>, value: &Value) -> String {
    match value.as_i64() {
        Some(no) => match names.get(&no) {
            Some(name) => format!("{no} {name}"),
            None => no.to_string(),
        },
        None => plain(value),
    }
}

fn who_list(names: &HashMap<i64, String>, value: &Value) -> String {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|v| who(names, v))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// `GET /admin/s/{section_id}/rounds/{n}/report`: the pairing report, readably.
pub async fn show_report(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Response {
    let section = match service::sections::get(&state.db, id).await {
        Ok(s) => s,
        Err(err) => return fail(err, &ctx),
    };
    if let Err(err) = require(&state, &actor, section.tournament_id, Need::Scorer).await {
        return fail(err, &ctx);
    }
    let (round, entrants) = match async {
        let round = service::rounds::get(&state.db, Some(&actor), id, n).await?;
        let entrants = service::entrants::list(&state.db, Some(&actor), id).await?;
        service::Result::Ok((round, entrants))
    }
    .await
    {
        Ok(both) => both,
        Err(err) => return fail(err, &ctx),
    };
    let names: HashMap<i64, String> = entrants
        .iter()
        .filter_map(|e| e.start_no.map(|no| (i64::from(no), e.name.clone())))
        .collect();
    let report = round.report.unwrap_or(Value::Null);
    let details = &report["details"];
    let arr = |v: &Value| v.as_array().cloned().unwrap_or_default();
    let groups = arr(&details["groups"])
        .iter()
        .map(|g| GroupRow {
            points: plain(&g["points"]),
            members: who_list(&names, &g["members"]),
            due_red: who_list(&names, &g["due_red"]),
            due_black: who_list(&names, &g["due_black"]),
            floaters_in: who_list(&names, &g["floaters_in"]),
            floaters_out: who_list(&names, &g["floaters_out"]),
        })
        .collect();
    let floaters = arr(&details["floaters"])
        .iter()
        .map(|f| ReportLine {
            cells: vec![
                who(&names, &f["start_no"]),
                plain(&f["points"]),
                who(&names, &f["opponent"]),
                plain(&f["opponent_points"]),
                plain(&f["reason"]),
            ],
        })
        .collect();
    let boards = arr(&details["boards"])
        .iter()
        .map(|b| ReportLine {
            cells: vec![
                plain(&b["board"]),
                format!("{} ({})", who(&names, &b["red"]), plain(&b["red_points"])),
                format!(
                    "{} ({})",
                    who(&names, &b["black"]),
                    plain(&b["black_points"])
                ),
                format!("{} / {}", plain(&b["red_due"]), plain(&b["black_due"])),
                plain(&b["decision"]),
                who_list(&names, &b["unmet_preferences"]),
            ],
        })
        .collect();
    let bye = details
        .get("bye")
        .filter(|b| !b.is_null())
        .map(|b| ReportLine {
            cells: vec![
                who(&names, &b["start_no"]),
                plain(&b["points"]),
                plain(&b["reason"]),
            ],
        });
    let relaxed = arr(&details["relaxed"])
        .iter()
        .map(|r| ReportLine {
            cells: vec![
                plain(&r["board"]),
                who(&names, &r["start_no"]),
                plain(&r["rule"]),
            ],
        })
        .collect();
    HtmlPage(
        StatusCode::OK,
        ReportPage {
            tr: ctx.tr(),
            system: plain(&report["system"]),
            raw: serde_json::to_string_pretty(&report).unwrap_or_default(),
            section,
            number: n,
            groups,
            floaters,
            boards,
            bye,
            relaxed,
            ctx,
        },
    )
    .into_response()
}

// ---------------------------------------------------------------------------------------------
// The audit log

/// One audit event as shown.
pub struct AuditRow {
    /// Sequence number.
    pub id: i64,
    /// When (UTC, to the second).
    pub at: String,
    /// Who.
    pub actor: String,
    /// Verb.
    pub action: String,
    /// Noun.
    pub entity: String,
    /// The state before, as compact JSON (shortened).
    pub before: String,
    /// The state after, as compact JSON (shortened).
    pub after: String,
}

/// `GET /admin/t/{id}/audit`
#[derive(Template)]
#[template(path = "admin/audit.html")]
pub struct AuditPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tournament.
    pub tournament: Tournament,
    /// Events, oldest first.
    pub events: Vec<AuditRow>,
    /// `after` of the next page, when there may be more.
    pub next: Option<i64>,
}

/// Events per page of the audit log.
const AUDIT_PAGE: i64 = 200;

fn short_json(value: Option<&Value>) -> String {
    let text = value.map(Value::to_string).unwrap_or_default();
    if text.chars().count() > 300 {
        let cut: String = text.chars().take(300).collect();
        format!("{cut}…")
    } else {
        text
    }
}

/// `GET /admin/t/{tournament_id}/audit?after=N`: the append-only audit log (its arbiters and
/// scorers only, as in the API).
pub async fn show_audit(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Response {
    let query: HashMap<String, String> =
        serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let after = query.get("after").and_then(|a| a.parse().ok()).unwrap_or(0);
    let loaded = async {
        let events =
            service::interchange::audit_log(&state.db, &actor, id, after, AUDIT_PAGE).await?;
        let tournament = service::tournaments::get(&state.db, id).await?;
        service::Result::Ok((tournament, events))
    }
    .await;
    let (tournament, events) = match loaded {
        Ok(both) => both,
        Err(err) => return fail(err, &ctx),
    };
    let next = (events.len() as i64 == AUDIT_PAGE)
        .then(|| events.last().map(|e| e.id))
        .flatten();
    let events = events
        .into_iter()
        .map(|e| AuditRow {
            id: e.id,
            at: e.at.format("%Y-%m-%d %H:%M:%S").to_string(),
            actor: e.actor,
            action: e.action,
            entity: e.entity,
            before: short_json(e.before.as_ref()),
            after: short_json(e.after.as_ref()),
        })
        .collect();
    HtmlPage(
        StatusCode::OK,
        AuditPage {
            tr: ctx.tr(),
            ctx,
            tournament,
            events,
            next,
        },
    )
    .into_response()
}
