//! The page after a registration (issue 36, issue #39 item 9): the status, the section, the
//! fee due and how to pay, and — once, when the entry is confirmed at once — the player's key
//! with its QR code. The key is on it: kept by no cache, sent to no other site.

use crate::http::page::{Page, PageCtx};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service::registrations::RegistrationView;
use crate::vocab::RegistrationStatus;
use askama::Template;
use axum::http::header::{CACHE_CONTROL, REFERRER_POLICY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

/// The page after a registration.
#[derive(Template)]
#[template(path = "public/registered.html")]
pub struct RegisteredPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Tournament id.
    pub tournament_id: String,
    /// Tournament name.
    pub tournament_name: String,
    /// Section id.
    pub section_id: String,
    /// Name registered.
    pub name: String,
    /// Catalogue key of the registration status.
    pub status_key: String,
    /// Place on the waitlist, or 0.
    pub waitlist_position: u32,
    /// The section registered for.
    pub section_name: String,
    /// The fee due as shown ("Non-member: 20 CAD"), none without a fee.
    pub fee_due: Option<String>,
    /// The place is held only once paid (and is not yet).
    pub pay_first: bool,
    /// How to pay, as the organiser wrote it (empty: pay at the desk).
    pub payment_instructions: String,
    /// The player's own page (`/k/{key}`), absolute, shown this once.
    pub key_url: Option<String>,
    /// Its QR code (SVG).
    pub key_qr: String,
}

/// The page for `view`, the answer of the registration in (tournament id, name) and (section
/// id, name): 201, `no-store`, `no-referrer`.
pub fn page(
    state: &AppState,
    headers: &HeaderMap,
    ctx: PageCtx,
    (tournament_id, tournament_name): (&Uuid, &str),
    (section_id, section_name): (Uuid, &str),
    view: RegistrationView,
) -> Response {
    let key_url = view
        .key_path
        .as_deref()
        .map(|path| crate::http::public_url(state.security.public_url.as_deref(), headers, path));
    let confirmation = view.confirmation.as_ref();
    let fee_due = confirmation.filter(|c| c.fee_amount > 0).map(|c| {
        let amount = if c.currency.is_empty() {
            c.fee_amount.to_string()
        } else {
            format!("{} {}", c.fee_amount, c.currency)
        };
        match &c.fee_tier {
            Some(tier) => format!("{tier}: {amount}"),
            None => amount,
        }
    });
    let mut response = Page(
        StatusCode::CREATED,
        RegisteredPage {
            tr: ctx.tr(),
            tournament_id: tournament_id.to_string(),
            tournament_name: tournament_name.to_string(),
            section_id: section_id.to_string(),
            section_name: confirmation
                .map_or_else(|| section_name.to_string(), |c| c.section_name.clone()),
            pay_first: fee_due.is_some()
                && confirmation.is_some_and(|c| c.payment_required)
                && view.status == RegistrationStatus::Pending,
            fee_due,
            payment_instructions: confirmation
                .map(|c| c.payment_instructions.clone())
                .unwrap_or_default(),
            key_qr: key_url
                .as_deref()
                .map(crate::http::pages::shared::qr_svg)
                .unwrap_or_default(),
            key_url,
            name: view.name,
            status_key: format!("registration.{}", view.status),
            waitlist_position: view.waitlist_position.unwrap_or(0),
            ctx,
        },
    )
    .into_response();
    let h = response.headers_mut();
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store, private"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}
