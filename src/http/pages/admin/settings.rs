//! The dashboard's section settings: `/admin/s/{section_id}/settings` shows every setting the
//! section update service accepts, prefilled, and saves them through
//! `service::sections::update` (the API's `PATCH /api/v1/sections/{id}`). What the service
//! refuses (a pairing system after round 1, fewer rounds than paired, a bad tiebreak key…)
//! comes back next to its field, with the values as entered.
//!
//! A page of its own rather than a form on the section page: its fields (`name`, `rounds`…)
//! would share ids with the add-entrant form there.

use super::form::{checkbox, invalid_fields, number, place_errors, require, text, Field, Fields};
use super::settings_rules::{time, time_or_none, TIME_FORMAT};
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::tiebreaks::{
    choices, heads, legend, preset_label, TiebreakHead, PRESETS,
};
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::Msg;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::sections::{PlayerRules, ScoringInput, Section, SectionInput};
use crate::service::{self, FieldErrors};
use crate::vocab::{EntryType, PairingSystem, RoundOneOrder, SelfReport, SetupMode, Unplayed};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use chrono::{DateTime, Utc};
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/admin/s/{section_id}/settings",
        get(show_settings).post(save_settings),
    )
}

/// `GET /admin/s/{section_id}/settings`
#[derive(Template)]
#[template(path = "admin/settings.html")]
pub struct SettingsPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section as stored.
    pub section: Section,
    /// The fields before the tiebreak chain (up to the preset).
    pub fields: Vec<Field>,
    /// The fields after the tiebreak chain.
    pub fields_after: Vec<Field>,
    /// The chain's rows as shown: its tiebreaks, then empty rows to add more.
    pub chain_rows: Vec<ChainRow>,
    /// What each row may hold, by name (the code as the tooltip).
    pub chain_choices: Vec<TiebreakHead>,
    /// The service's refusal of the chain.
    pub chain_error: Option<String>,
    /// A message for the whole form.
    pub form_error: Option<String>,
    /// The message after a save (`?done=settings`).
    pub notice: Option<String>,
    /// The settings' version the form was filled from (sent back; a change made meanwhile by
    /// someone else then gets a 409 instead of being overwritten).
    pub version: i32,
    /// The event's time zone, the times' zone.
    pub time_zone: String,
    /// The section's chain by name, and every tiebreak with what it counts.
    pub chain: Vec<TiebreakHead>,
    /// Every tiebreak the chain may hold, with what it counts.
    pub legend: Vec<TiebreakHead>,
    /// What this person may do (a scorer sees no arbiter's form).
    pub powers: service::access::Powers,
}

/// One row of the chain editor.
pub struct ChainRow {
    /// Its place in the chain, from 1 (the field is `tiebreak_{n}`).
    pub n: usize,
    /// The key chosen, empty for none.
    pub key: String,
    /// What the chosen tiebreak counts.
    pub desc: String,
}

/// Empty rows shown after the chain, so that one can be added without scripts.
const SPARE_ROWS: usize = 2;

/// The chain as submitted: the `tiebreak_{n}` rows in order, empty ones dropped.
fn chain_of(form: &Fields) -> Vec<String> {
    let mut rows: Vec<(usize, &str)> = form
        .iter()
        .filter_map(|(name, value)| {
            let n = name.strip_prefix("tiebreak_")?.parse().ok()?;
            Some((n, value.trim()))
        })
        .collect();
    rows.sort_unstable();
    rows.into_iter()
        .filter(|(_, key)| !key.is_empty())
        .map(|(_, key)| key.to_string())
        .collect()
}

/// The editor's rows for a chain, with spare empty ones after it.
fn chain_rows(tr: Tr, chain: &[String]) -> Vec<ChainRow> {
    let described = heads(tr, chain);
    let spare = SPARE_ROWS.max(4usize.saturating_sub(chain.len()));
    described
        .into_iter()
        .map(|head| (head.key, head.desc))
        .chain(std::iter::repeat_with(|| (String::new(), String::new())).take(spare))
        .enumerate()
        .map(|(i, (key, desc))| ChainRow {
            n: i + 1,
            key,
            desc,
        })
        .collect()
}

const SYSTEMS: &[&str] = PairingSystem::WORDS;
const ENTRY_TYPES: &[&str] = EntryType::WORDS;
const UNPLAYED: &[&str] = Unplayed::WORDS;
const ROUND1_ORDERS: &[&str] = RoundOneOrder::WORDS;
const SETUP_MODES: &[&str] = SetupMode::WORDS;

/// Points as typed: `2`, `0.5`.
fn points(value: f64) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

/// The form as the section stands (what the page shows before any edit).
fn stored(section: &Section, rules: &PlayerRules, zone: chrono_tz::Tz) -> Fields {
    let mut form = Fields::new();
    let mut put = |name: &str, value: String| {
        form.insert(name.to_string(), value);
    };
    let flag = |on: bool| if on { "on" } else { "" }.to_string();
    put("name", section.name.clone());
    put("pairing_system", section.pairing_system.to_string());
    put("rounds", section.rounds.to_string());
    put("entry_type", section.entry_type.to_string());
    put("win", points(section.scoring.win));
    put("draw", points(section.scoring.draw));
    put("loss", points(section.scoring.loss));
    put("bye_points", points(section.scoring.bye));
    put("forfeit_win", points(section.scoring.forfeit_win));
    put("preset", String::new());
    for (i, key) in section.tiebreaks.iter().enumerate() {
        put(&format!("tiebreak_{}", i + 1), key.clone());
    }
    put("unplayed", section.unplayed.to_string());
    put("foul_threshold", section.foul_threshold.to_string());
    put("round1_order", section.round1_order.to_string());
    put("first_board_red", flag(section.first_board_red));
    put("forfeit_counts_as_met", flag(section.forfeit_counts_as_met));
    put("avoid_same_club", flag(section.avoid_same_club));
    put("pair_checked_in_only", flag(section.pair_checked_in_only));
    put(
        "cap",
        section.cap.map(|c| c.to_string()).unwrap_or_default(),
    );
    put(
        "min_entries",
        section
            .min_entries
            .map(|c| c.to_string())
            .unwrap_or_default(),
    );
    // Shown in the event's time zone, as the arbiter entered it.
    let time = |t: Option<DateTime<Utc>>| {
        t.map(|t| t.with_timezone(&zone).format(TIME_FORMAT).to_string())
            .unwrap_or_default()
    };
    put("registration_opens_at", time(section.registration_opens_at));
    put(
        "registration_closes_at",
        time(section.registration_closes_at),
    );
    put("payment_required", flag(section.payment_required));
    put(
        "rounds_by_entries",
        super::section_forms::rounds_table_text(&section.rounds_by_entries),
    );
    put(
        "fee_tiers",
        super::section_forms::fee_tiers_text(&section.fee_tiers),
    );
    put("setup_mode", section.setup_mode.to_string());
    put("self_report", section.self_report.to_string());
    put("payment_instructions", rules.payment_instructions.clone());
    put("self_check_in", flag(rules.self_check_in));
    put("check_in_opens_at", time(rules.check_in_opens_at));
    put("check_in_closes_at", time(rules.check_in_closes_at));
    put(
        "absent_withdraw_after",
        rules
            .absent_withdraw_after
            .map(|n| n.to_string())
            .unwrap_or_default(),
    );
    form
}

fn with_hint(mut field: Field, key: &'static str) -> Field {
    field.hint_key = Some(key);
    field
}

fn settings_fields(form: &Fields, tr: Tr) -> Vec<Field> {
    let mut preset = Field::new("preset", "adm.preset", "select", form)
        .select(PRESETS, None, tr, "")
        .labelled(|word| preset_label(tr, word));
    if let Some(keep) = preset.options.first_mut() {
        keep.label = tr.t("adm.settings.keep_chain").to_string();
    }
    let mut fields = vec![
        Field::new("name", "table.name", "text", form).required(),
        Field::new("pairing_system", "tournament.system", "select", form).select(
            SYSTEMS,
            Some("system"),
            tr,
            "chinese",
        ),
        Field::new("rounds", "tournament.rounds", "number", form).required(),
        with_hint(
            Field::new(
                "rounds_by_entries",
                "adm.settings.rounds_by_entries",
                "textarea",
                form,
            ),
            "adm.settings.rounds_by_entries_hint",
        ),
        Field::new("entry_type", "adm.entry_type", "select", form).select(
            ENTRY_TYPES,
            Some("adm.entry_type"),
            tr,
            "individual",
        ),
        Field::new("win", "adm.settings.win", "text", form).required(),
        Field::new("draw", "adm.settings.draw", "text", form).required(),
        Field::new("loss", "adm.settings.loss", "text", form).required(),
        Field::new("bye_points", "adm.settings.bye_points", "text", form),
        Field::new("forfeit_win", "adm.settings.forfeit_win", "text", form),
        // The tiebreak chain's rows come here (`chain_rows`): the page splits after the preset.
        preset,
        Field::new("unplayed", "adm.settings.unplayed", "select", form).select(
            UNPLAYED,
            Some("adm.unplayed"),
            tr,
            Unplayed::Cxa.as_str(),
        ),
        Field::new("foul_threshold", "adm.foul_threshold", "number", form),
        Field::new("round1_order", "adm.settings.round1_order", "select", form).select(
            ROUND1_ORDERS,
            Some("adm.round1_order"),
            tr,
            RoundOneOrder::Registration.as_str(),
        ),
        Field::new(
            "first_board_red",
            "adm.settings.first_board_red",
            "checkbox",
            form,
        ),
        Field::new(
            "forfeit_counts_as_met",
            "adm.settings.forfeit_counts_as_met",
            "checkbox",
            form,
        ),
        Field::new("avoid_same_club", "adm.avoid_same_club", "checkbox", form),
        Field::new(
            "pair_checked_in_only",
            "adm.pair_checked_in_only",
            "checkbox",
            form,
        ),
        Field::new("cap", "adm.cap", "number", form),
        Field::new("min_entries", "adm.min_entries", "number", form),
        with_hint(
            Field::new(
                "registration_opens_at",
                "adm.settings.opens_at",
                "datetime-local",
                form,
            ),
            "adm.settings.time_hint",
        ),
        with_hint(
            Field::new(
                "registration_closes_at",
                "adm.settings.closes_at",
                "datetime-local",
                form,
            ),
            "adm.settings.time_hint",
        ),
        Field::new("payment_required", "adm.payment_required", "checkbox", form),
        with_hint(
            Field::new("fee_tiers", "adm.settings.fee_tiers", "textarea", form),
            "adm.settings.fee_tiers_hint",
        ),
        super::settings_rules::payment_field(form),
        Field::new("setup_mode", "adm.setup_mode", "select", form).select(
            SETUP_MODES,
            Some("adm.setup_mode"),
            tr,
            "none",
        ),
        Field::new("self_report", "adm.self_report", "select", form).select(
            SelfReport::WORDS,
            Some("adm.self_report"),
            tr,
            "desk",
        ),
    ];
    fields.extend(super::settings_rules::rule_fields(form));
    fields
}

/// A points field (`2`, `0.5`, `0,5`); a message in `errors` when it is no number.
fn decimal(form: &Fields, name: &str, _tr: Tr, errors: &mut FieldErrors) -> Option<f64> {
    let value = text(form, name)?.replace(',', ".");
    match value.parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        _ => {
            errors.insert(
                name.into(),
                vec![crate::i18n::ui("adm.settings.not_points")],
            );
            None
        }
    }
}

/// The service input for a submitted form, with the errors found before the service runs.
fn settings_input(form: &Fields, tr: Tr, zone: chrono_tz::Tz) -> (SectionInput, FieldErrors) {
    let mut errors = FieldErrors::new();
    let win = decimal(form, "win", tr, &mut errors);
    let draw = decimal(form, "draw", tr, &mut errors);
    let loss = decimal(form, "loss", tr, &mut errors);
    let bye = decimal(form, "bye_points", tr, &mut errors);
    let forfeit_win = decimal(form, "forfeit_win", tr, &mut errors);
    let scoring = match (win, draw, loss) {
        (Some(win), Some(draw), Some(loss)) => Some(ScoringInput {
            win,
            draw,
            loss,
            bye,
            forfeit_win,
        }),
        _ => {
            for name in ["win", "draw", "loss"] {
                if text(form, name).is_none() {
                    errors.insert(name.into(), vec![crate::i18n::ui("adm.settings.required")]);
                }
            }
            None
        }
    };
    // A preset replaces the chain and the unplayed mode; without one, both are taken as shown.
    let preset = text(form, "preset");
    let (tiebreaks, unplayed) = match preset {
        Some(_) => (None, None),
        None => (Some(chain_of(form)), text(form, "unplayed")),
    };
    let input = SectionInput {
        name: Some(form.get("name").cloned().unwrap_or_default()),
        pairing_system: text(form, "pairing_system"),
        rounds: number(form, "rounds", tr, &mut errors),
        entry_type: text(form, "entry_type"),
        // The team settings have no form yet (issue #41's pages): left as they are.
        team: None,
        scoring,
        tiebreaks,
        preset,
        unplayed,
        foul_threshold: number(form, "foul_threshold", tr, &mut errors),
        round1_order: text(form, "round1_order"),
        first_board_red: Some(checkbox(form, "first_board_red")),
        forfeit_counts_as_met: Some(checkbox(form, "forfeit_counts_as_met")),
        avoid_same_club: Some(checkbox(form, "avoid_same_club")),
        pair_checked_in_only: Some(checkbox(form, "pair_checked_in_only")),
        // An empty box removes the cap (the service's 0).
        cap: Some(number(form, "cap", tr, &mut errors).unwrap_or(0)),
        min_entries: Some(number(form, "min_entries", tr, &mut errors).unwrap_or(0)),
        registration_opens_at: time(form, "registration_opens_at", tr, zone, &mut errors),
        registration_closes_at: time(form, "registration_closes_at", tr, zone, &mut errors),
        payment_required: Some(checkbox(form, "payment_required")),
        fee_tiers: Some(super::section_forms::fee_tiers(form, tr, &mut errors)),
        rounds_by_entries: Some(super::section_forms::rounds_table(form, tr, &mut errors)),
        setup_mode: text(form, "setup_mode"),
        self_report: text(form, "self_report"),
        self_check_in: Some(checkbox(form, "self_check_in")),
        check_in_opens_at: time_or_none(form, "check_in_opens_at", tr, zone, &mut errors),
        check_in_closes_at: time_or_none(form, "check_in_closes_at", tr, zone, &mut errors),
        // An empty box turns the rule off (the service's 0).
        absent_withdraw_after: Some(
            number(form, "absent_withdraw_after", tr, &mut errors).unwrap_or(0),
        ),
        payment_instructions: Some(
            form.get("payment_instructions")
                .cloned()
                .unwrap_or_default(),
        ),
        version: form.get("version").and_then(|v| v.trim().parse().ok()),
    };
    (input, errors)
}

/// The service's field names that are not the form's.
const ALIASES: &[(&str, &str)] = &[
    ("scoring", "win"),
    ("scoring.win", "win"),
    ("scoring.draw", "draw"),
    ("scoring.loss", "loss"),
    ("scoring.bye", "bye_points"),
    ("scoring.forfeit_win", "forfeit_win"),
];

async fn page(
    state: &AppState,
    actor: &crate::service::users::Actor,
    ctx: PageCtx,
    id: Uuid,
    form: Option<&Fields>,
    // The refusals by field, a message over the form, the message after a save.
    (errors, form_error, notice): (FieldErrors, Option<String>, Option<String>),
    status: StatusCode,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let section = service::sections::get(&state.db, id).await.or_page(&ctx)?;
    require(state, actor, section.tournament_id, Need::Scorer)
        .await
        .or_page(&ctx)?;
    let powers = super::form::powers(state, actor, section.tournament_id)
        .await
        .or_page(&ctx)?;
    let zone = service::tournaments::zone_of_section(&state.db, id)
        .await
        .or_page(&ctx)?;
    let shown = match form {
        Some(form) => form.clone(),
        None => {
            let rules = service::sections::player_rules(&state.db, id)
                .await
                .or_page(&ctx)?;
            stored(&section, &rules, zone)
        }
    };
    let version = shown
        .get("version")
        .and_then(|v| v.parse().ok())
        .unwrap_or(section.version);
    let mut fields = settings_fields(&shown, tr);
    let mut grouped = super::section_forms::group_list_errors(errors);
    // The chain's refusals (`tiebreaks`, `tiebreaks[1]`) go under its rows.
    let chain_error = grouped
        .remove("tiebreaks")
        .map(|messages| tr.msg(&Msg::list(messages)));
    let rest = place_errors(tr, &mut fields, &grouped, ALIASES);
    let form_error = form_error.or_else(|| (!rest.is_empty()).then(|| rest.join("; ")));
    let after = fields
        .iter()
        .position(|f| f.name == "preset")
        .map_or(fields.len(), |at| at + 1);
    let fields_after = fields.split_off(after);
    let chain = chain_of(&shown);
    Ok(Page(
        status,
        SettingsPage {
            powers,
            tr,
            ctx,
            fields,
            fields_after,
            chain_rows: chain_rows(tr, &chain),
            chain_choices: choices(tr, &chain),
            chain_error,
            form_error,
            notice,
            version,
            time_zone: super::tournaments::zone_label(tr, zone.name()),
            chain: heads(tr, &section.tiebreaks),
            legend: legend(tr),
            section,
        },
    )
    .into_response())
}

/// `GET /admin/s/{section_id}/settings`
pub async fn show_settings(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Result<Response, PageError> {
    let notice = super::form::done_notice(ctx.tr(), &uri);
    page(
        &state,
        &actor,
        ctx,
        id,
        None,
        (FieldErrors::new(), None, notice),
        StatusCode::OK,
    )
    .await
}

/// `POST /admin/s/{section_id}/settings`: saves and shows the settings tab again with the message; refusals
/// next to their fields (422), the values as entered.
pub async fn save_settings(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    // Who may not change the settings hears so before anything about the form.
    if let Err(err) =
        service::access::require_first_in_section(&state.db, &actor, id, Need::Arbiter).await
    {
        return Err(PageError::from_ctx(err, &ctx));
    }
    let tr = ctx.tr();
    let zone = service::tournaments::zone_of_section(&state.db, id)
        .await
        .or_page(&ctx)?;
    let (input, errors) = settings_input(&form, tr, zone);
    if !errors.is_empty() {
        let message = Some(tr.t("error.form_invalid").to_string());
        return page(
            &state,
            &actor,
            ctx,
            id,
            Some(&form),
            (errors, message, None),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    Ok(
        match service::sections::update(&state.db, &actor, id, &input, None).await {
            Ok(_) => see_other(&format!("/admin/s/{id}/settings?done=settings")),
            Err(err) => match invalid_fields(&err, tr) {
                Some((message, fields)) => {
                    page(
                        &state,
                        &actor,
                        ctx,
                        id,
                        Some(&form),
                        (fields, Some(message), None),
                        StatusCode::UNPROCESSABLE_ENTITY,
                    )
                    .await?
                }
                None => return Err(PageError::from_ctx(err, &ctx)),
            },
        },
    )
}
