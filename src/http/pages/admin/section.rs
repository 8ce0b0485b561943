//! The arbiter dashboard below `/admin` (issue 8): a tournament's overview with its sections,
//! the forms that create them, and a section's desk page (entrants, registrations, rounds,
//! pairing report). Result entry is in [`super::results`].
//!
//! Every page needs a login (visitors are sent to `/login`) and the tournament's access
//! (scorers may look, the services refuse them changes); every form goes through [`AppForm`]
//! (the CSRF check). Handlers only read forms, call one service and render: the rules live in
//! `service::*`.

use super::form::{done_notice, place_errors, Field, Fields};
use super::section_forms::entrant_fields;
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::session::CurrentUser;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::desk::{Desk, RoundActions};
use crate::service::entrants::EntrantView;
use crate::service::registrations::RegistrationView;
use crate::service::sections::Section;
use crate::service::tournaments::Tournament;
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
use crate::vocab::EntryType;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route("/admin/s/{section_id}", get(show_section))
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

/// A round row: what the desk may do with it (`service::desk`), and its status's name.
pub struct RoundRow {
    /// Number, counts and the actions offered.
    pub actions: RoundActions,
    /// Catalogue key of the status.
    pub status_key: String,
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
    pub current: Vec<super::section_forms::BoardRow>,
    /// Number of the last round (0 before round 1).
    pub current_number: i32,
    /// Results a board form offers.
    pub choices: Vec<super::section_forms::ResultChoice>,
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
    /// The payment methods the money forms offer.
    pub methods: Vec<super::form::Choice>,
}

impl SectionPage {
    /// What a registration still owes (the payment form's default amount).
    pub fn outstanding(&self, r: &RegistrationView) -> i64 {
        (i64::from(r.fee_amount.unwrap_or(0)) - r.paid_amount.unwrap_or(0)).max(0)
    }
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
) -> Result<Page<SectionPage>, PageError> {
    let tr = ctx.tr();
    let Desk {
        tournament,
        section,
        entrants,
        registrations,
        rounds,
        byes,
        forbidden,
        actions,
    } = service::desk::get(&state.db, actor, id)
        .await
        .or_page(&ctx)?;
    let doubles = section.entry_type == EntryType::Doubles;
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
    let mut bye_fields = super::section_forms::bye_fields(bye_form, tr, &entrants, next_round);
    let bye_rest = place_errors(
        &mut bye_fields,
        bye_errors,
        super::section_forms::BYE_ALIASES,
    );
    let (pair_form, pair_errors) = for_target(FormTarget::Forbidden);
    let mut pair_fields = super::section_forms::pair_fields(pair_form, tr, &entrants);
    let pair_rest = place_errors(
        &mut pair_fields,
        pair_errors,
        super::section_forms::PAIR_ALIASES,
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
    let mut fields = entrant_fields(entrant_form, tr, doubles, &section.fee_tiers);
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
    let round_rows: Vec<RoundRow> = rounds
        .iter()
        .zip(actions.rounds)
        .map(|(r, actions)| RoundRow {
            actions,
            status_key: format!("round_status.{}", r.status),
        })
        .collect();
    let current_number = rounds.last().map_or(0, |r| r.number);
    let current = rounds
        .into_iter()
        .last()
        .map(|r| super::section_forms::board_rows(r.boards, None))
        .unwrap_or_default();
    Ok(Page(
        status,
        SectionPage {
            tr,
            system_key: format!("system.{}", section.pairing_system),
            status_key: format!("section_status.{}", section.status),
            can_pair: actions.can_pair,
            current,
            current_number,
            choices: super::section_forms::choices(),
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
            methods: service::payments::METHODS
                .iter()
                .map(|m| super::form::Choice {
                    value: (*m).to_string(),
                    label: tr.t(&format!("adm.method.{m}")).to_string(),
                    selected: false,
                })
                .collect(),
            notice: extras.notice,
            action_error: extras.action_error,
            tournament,
            section,
            ctx,
        },
    ))
}

/// `GET /admin/s/{section_id}`
pub async fn show_section(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    uri: axum::http::Uri,
    PagePath(id): PagePath<Uuid>,
) -> Result<Page<SectionPage>, PageError> {
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
) -> Result<Page<SectionPage>, PageError> {
    let status = crate::http::error::status(&err);
    if status == StatusCode::CONFLICT || status == StatusCode::UNPROCESSABLE_ENTITY {
        let extras = SectionExtras {
            action_error: Some(err.to_string()),
            ..SectionExtras::default()
        };
        section_page(state, actor, ctx, id, extras, status).await
    } else {
        Err(PageError::from_service(err, ctx.lang))
    }
}
