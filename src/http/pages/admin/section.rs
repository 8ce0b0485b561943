//! A section's desk page (issue 8), shown in tabs (issue #15, [`super::tabs`]): the overview,
//! entrants, registrations, byes and forbidden pairs, rounds and results are each one part of
//! this page at their own address. Result entry is in [`super::results`].
//!
//! Every page needs a login (visitors are sent to `/login`) and the tournament's access
//! (scorers may look, the services refuse them changes); every form goes through [`AppForm`]
//! (the CSRF check). Handlers only read forms, call one service and render: the rules live in
//! `service::*`.

use super::form::{done_notice, place_errors, Field, Fields};
use super::section_forms::entrant_fields;
use super::tabs::Tab;
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
use crate::vocab::{EntrantStatus, EntryType, RegistrationStatus};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of the tabs the desk page shows. `POST` on `…/entrants`, `…/rounds` and `…/byes`
/// are the forms of those tabs (their own routers): axum merges the methods of one path.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/s/{section_id}", get(overview))
        .route("/admin/s/{section_id}/entrants", get(entrants))
        .route("/admin/s/{section_id}/registrations", get(registrations))
        .route("/admin/s/{section_id}/byes", get(byes))
        .route("/admin/s/{section_id}/rounds", get(rounds))
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

/// `GET /admin/s/{id}` and its tabs: the desk page of a section, one tab of it shown.
#[derive(Template)]
#[template(path = "admin/section.html")]
pub struct SectionPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The tab shown.
    pub tab: Tab,
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
    /// Whether another round can be paired (fewer rounds than planned) by this person.
    pub can_pair: bool,
    /// What this person may do (a scorer sees no arbiter's form).
    pub powers: service::access::Powers,
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
    /// The check-in search (`?q=`): the entrants table shows those it fits.
    pub query: String,
    /// All entrants of the section (the table may show fewer).
    pub total_entrants: usize,
    /// Entrants shown and checked in (withdrawn ones not counted).
    pub present_shown: usize,
    /// Entrants shown and not withdrawn.
    pub active_shown: usize,
    /// The undo a success message offers (a withdrawal's re-admit).
    pub undo: Option<Undo>,
    /// The check-in number box takes the focus (the desk is checking players in).
    pub checkin_focus: bool,
    /// Why a check-in was refused (next to the check-in boxes).
    pub checkin_error: Option<String>,
    /// The add-entrant form has the focus (after an add, or refused).
    pub add_focus: bool,
    /// The message of an add, shown by the form too.
    pub added_notice: bool,
    /// The fee tiers' amounts by name, as JSON (the form fills the amount paid from the tier).
    pub fee_amounts: String,
    /// The absence rule: who it withdrew (with re-admission) and who it will (issue 36).
    pub absences: service::absences::AbsenceList,
    /// The round length the clock form offers: the one last set in the section.
    pub clock_minutes: Option<i32>,
}

use super::desk_flash::flash_notice;
pub use super::desk_flash::{Flash, Undo};

impl SectionPage {
    /// "5 / 12": entrants shown present, of those shown not withdrawn.
    pub fn count_text(&self) -> String {
        format!("{} / {}", self.present_shown, self.active_shown)
    }

    /// What the live filter (`static/js/admin.js`) matches a row against, lower-cased: its
    /// names and clubs; the number is the row's `data-no` (the server's `matches_query` is the
    /// rule without JavaScript).
    pub fn search_text(&self, e: &EntrantView) -> String {
        let mut parts: Vec<String> = vec![e.name.clone()];
        parts.extend(e.club.clone());
        for m in &e.members {
            parts.push(m.name.clone());
            parts.extend(m.club.clone());
        }
        parts.join(" | ").to_lowercase()
    }

    /// "3 / 8": a round's games with a result, of its games.
    pub fn progress(&self, r: &RoundRow) -> String {
        format!("{} / {}", r.actions.results, r.actions.games)
    }

    /// Registrations waiting for the desk (pending or on the waiting list).
    pub fn waiting_registrations(&self) -> usize {
        self.registrations
            .iter()
            .filter(|r| {
                matches!(
                    r.registration.status,
                    RegistrationStatus::Pending | RegistrationStatus::Waitlisted
                )
            })
            .count()
    }

    /// The tab's heading (the overview's is the section's name).
    pub fn tab_title(&self) -> &'static str {
        match self.tab {
            Tab::Entrants => self.tr.t("section.entrants"),
            Tab::Registrations => self.tr.t("adm.registrations"),
            Tab::Byes => self.tr.t("adm.tab.byes"),
            Tab::Rounds => self.tr.t("adm.tab.rounds"),
            _ => self.tr.t("adm.tab.overview"),
        }
    }

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
    /// The check-in boxes.
    CheckIn,
}

/// What a page shows besides the data: the tab, the form's values and errors, and messages.
#[derive(Default)]
pub struct SectionExtras {
    /// The tab shown (an action's own: where its form is).
    pub tab: Tab,
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
    /// The check-in search (`?q=`).
    pub query: String,
    /// A message about one entrant after a redirect.
    pub flash: Flash,
    /// The check-in number box takes the focus.
    pub checkin_focus: bool,
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
        tr,
        &mut bye_fields,
        bye_errors,
        super::section_forms::BYE_ALIASES,
    );
    let (pair_form, pair_errors) = for_target(FormTarget::Forbidden);
    let mut pair_fields = super::section_forms::pair_fields(pair_form, tr, &entrants);
    let pair_rest = place_errors(
        tr,
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
        tr,
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
    // The next walk-in (issue #39 item 6), or a refused add: the form has the focus.
    let add_focus = matches!(extras.flash, Flash::Added(_))
        || (extras.target == FormTarget::Entrant && !extras.errors.is_empty());
    super::section_forms::focus_first(&mut fields, add_focus);
    let added_notice = matches!(extras.flash, Flash::Added(_));
    let checkin_error = message_for(FormTarget::CheckIn, Vec::new());
    let (notice, undo) = flash_notice(tr, &entrants, id, extras.flash, extras.notice);
    let total_entrants = entrants.len();
    let entrants: Vec<EntrantView> = entrants
        .into_iter()
        .filter(|e| service::entrants::matches_query(e, &extras.query))
        .collect();
    let active_shown = entrants
        .iter()
        .filter(|e| e.status != EntrantStatus::Withdrawn)
        .count();
    let present_shown = entrants
        .iter()
        .filter(|e| e.status != EntrantStatus::Withdrawn && e.checked_in)
        .count();
    let round_rows: Vec<RoundRow> = rounds
        .iter()
        .zip(actions.rounds)
        .map(|(r, actions)| RoundRow {
            actions,
            status_key: format!("round_status.{}", r.status),
        })
        .collect();
    let absences = service::absences::of_section(&state.db, id)
        .await
        .or_page(&ctx)?;
    // Only the rounds tab offers the clock's form (with the length last set).
    let clock_minutes = if extras.tab == Tab::Rounds {
        service::screen::last_clock_minutes(&state.db, id)
            .await
            .or_page(&ctx)?
    } else {
        None
    };
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
            tab: extras.tab,
            system_key: format!("system.{}", section.pairing_system),
            status_key: format!("section_status.{}", section.status),
            can_pair: actions.can_pair,
            powers: actions.powers,
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
            notice,
            undo,
            query: extras.query,
            total_entrants,
            present_shown,
            active_shown,
            checkin_focus: extras.checkin_focus || checkin_error.is_some(),
            checkin_error,
            absences,
            clock_minutes,
            add_focus,
            added_notice,
            fee_amounts: super::section_forms::fee_amounts(&section.fee_tiers),
            action_error: extras.action_error,
            tournament,
            section,
            ctx,
        },
    ))
}

/// What a tab's address asks besides the tab: the message of the redirect that led there
/// (`?done=`, `?withdrawn=`, `?checked=`, `?n=`) and the check-in search (`?q=`).
pub fn extras_from_query(tr: Tr, uri: &axum::http::Uri, tab: Tab) -> SectionExtras {
    let notice = done_notice(tr, uri);
    let query: std::collections::HashMap<String, String> =
        serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let entrant = |key: &str| query.get(key).and_then(|v| v.parse::<Uuid>().ok());
    let flash = match (entrant("withdrawn"), entrant("checked"), entrant("added")) {
        (Some(e), _, _) => Flash::Withdrawn(e),
        (None, Some(e), _) => Flash::CheckedIn(e, query.get("was").is_none_or(|v| v != "in")),
        (None, None, Some(e)) => Flash::Added(e),
        (None, None, None) => Flash::None,
    };
    let checkin_focus =
        query.contains_key("checked") || query.get("done").is_some_and(|d| d == "checked_in");
    let notice = match (query.get("done").map(String::as_str), query.get("n")) {
        (Some("checked_in"), Some(n)) => n
            .parse::<usize>()
            .ok()
            .map(|n| tr.fmt("adm.done.checked_in_many", n))
            .or(notice),
        (Some("renumbered"), Some(n)) => n
            .parse::<usize>()
            .ok()
            .map(|n| tr.fmt("adm.done.renumbered", n))
            .or(notice),
        _ => notice,
    };
    SectionExtras {
        tab,
        notice,
        query: query
            .get("q")
            .map(|q| q.trim().to_string())
            .unwrap_or_default(),
        flash,
        checkin_focus,
        ..SectionExtras::default()
    }
}

/// The action's tab again after it failed: 409/422 with the message at the top; other
/// failures (403, 404, 5xx) as error pages.
pub async fn action_failed(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    tab: Tab,
    err: Error,
) -> Result<Page<SectionPage>, PageError> {
    let status = crate::http::error::status(&err);
    if status == StatusCode::CONFLICT || status == StatusCode::UNPROCESSABLE_ENTITY {
        let extras = SectionExtras {
            tab,
            action_error: Some(err.render(ctx.lang)),
            ..SectionExtras::default()
        };
        section_page(state, actor, ctx, id, extras, status).await
    } else {
        Err(PageError::from_ctx(err, &ctx))
    }
}

/// A tab's page: the desk page with that part shown, the message of a redirect (`?done=`,
/// `?withdrawn=`, `?checked=`) and the check-in search (`?q=`) read from the address.
async fn tab_page(
    state: &AppState,
    actor: &crate::service::users::Actor,
    ctx: PageCtx,
    uri: &axum::http::Uri,
    id: Uuid,
    tab: Tab,
) -> Result<Page<SectionPage>, PageError> {
    let extras = extras_from_query(ctx.tr(), uri, tab);
    section_page(state, actor, ctx, id, extras, StatusCode::OK).await
}

macro_rules! tab_handler {
    ($name:ident, $tab:expr, $doc:literal) => {
        #[doc = $doc]
        pub async fn $name(
            State(state): State<AppState>,
            CurrentUser(actor): CurrentUser,
            ctx: PageCtx,
            uri: axum::http::Uri,
            PagePath(id): PagePath<Uuid>,
        ) -> Result<Page<SectionPage>, PageError> {
            tab_page(&state, &actor, ctx, &uri, id, $tab).await
        }
    };
}

tab_handler!(
    overview,
    Tab::Overview,
    "`GET /admin/s/{section_id}`: the overview."
);
tab_handler!(
    entrants,
    Tab::Entrants,
    "`GET /admin/s/{section_id}/entrants`"
);
tab_handler!(
    registrations,
    Tab::Registrations,
    "`GET /admin/s/{section_id}/registrations`"
);
tab_handler!(byes, Tab::Byes, "`GET /admin/s/{section_id}/byes`");
tab_handler!(rounds, Tab::Rounds, "`GET /admin/s/{section_id}/rounds`");
