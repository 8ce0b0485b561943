//! Money at the desk (issue #15): every payment and refund is an entry of a ledger with its
//! amount and method; a wrong entry is voided (audited, kept with its reason), never deleted.
//! A registration's `payment_state` follows its ledger ([`settle`]), and the desk's totals
//! are sums of it.

use super::access::{self, Change, Need};
use super::check::Check;
use super::registrations::RegistrationView;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::payment::PaymentRow;
use crate::db::registration::RegistrationRow;
use crate::i18n::messages as m;
use crate::vocab::{PaymentKind, PaymentState, RegistrationStatus};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// The methods the dashboard offers (the API takes any short text).
pub const METHODS: &[&str] = &["cash", "transfer", "card", "cheque", "other"];

/// An entry of the ledger as shown to the desk.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PaymentView {
    /// Id (void it with `POST /api/v1/payments/{id}/void`).
    pub id: Uuid,
    /// `payment` (money in) or `refund` (money back).
    pub kind: PaymentKind,
    /// Amount, in the fees' unit.
    pub amount: i32,
    /// Cash, transfer, …
    pub method: String,
    /// Free note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Voided: kept for the record, no longer counted.
    pub voided: bool,
    /// Why it was voided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub void_reason: Option<String>,
    /// When it was recorded.
    pub recorded_at: chrono::DateTime<chrono::Utc>,
}

impl From<&PaymentRow> for PaymentView {
    fn from(p: &PaymentRow) -> PaymentView {
        PaymentView {
            id: p.payment_id,
            kind: p.kind,
            amount: p.amount,
            method: p.method.clone(),
            note: p.note.clone(),
            voided: p.voided,
            void_reason: p.void_reason.clone(),
            recorded_at: p.created_at,
        }
    }
}

/// Money received and paid back for one registration (voided entries left out).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sums {
    /// Payments.
    pub received: i64,
    /// Refunds.
    pub refunded: i64,
}

impl Sums {
    /// The sums of `entries` that belong to `registration_id`.
    pub fn of(entries: &[PaymentRow], registration_id: Uuid) -> Sums {
        let mut sums = Sums::default();
        for p in entries
            .iter()
            .filter(|p| p.registration_id == registration_id && !p.voided)
        {
            if p.kind == PaymentKind::Refund {
                sums.refunded += i64::from(p.amount);
            } else {
                sums.received += i64::from(p.amount);
            }
        }
        sums
    }

    /// What is held: received less refunded.
    pub fn net(self) -> i64 {
        self.received - self.refunded
    }
}

/// The payment state a ledger means for a registration: an active one is `paid` once its fee
/// is covered; a withdrawn or cancelled one owes back what it holds (`refund_due`), until it
/// is paid back (`refunded`).
pub fn state_of(status: RegistrationStatus, fee: i32, sums: Sums) -> PaymentState {
    let net = sums.net();
    if matches!(
        status,
        RegistrationStatus::Withdrawn | RegistrationStatus::Cancelled
    ) {
        if net > 0 {
            PaymentState::RefundDue
        } else if sums.refunded > 0 {
            PaymentState::Refunded
        } else {
            PaymentState::Unpaid
        }
    } else if net > 0 && net >= i64::from(fee) {
        PaymentState::Paid
    } else if net <= 0 && sums.refunded > 0 {
        PaymentState::Refunded
    } else {
        PaymentState::Unpaid
    }
}

/// Sets the registration's payment state from its ledger; returns it.
pub async fn settle(conn: &mut PgConnection, registration_id: Uuid) -> Result<PaymentState> {
    let reg = db::registration::find(&mut *conn, registration_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
    let entries = db::payment::of_registration(&mut *conn, registration_id).await?;
    let state = state_of(
        reg.status,
        reg.fee_amount,
        Sums::of(&entries, registration_id),
    );
    if state != reg.payment_state {
        db::registration::set_payment(&mut *conn, registration_id, state, None, None).await?;
    }
    Ok(state)
}

/// Checks a method (required, short text).
pub fn check_method(check: &mut Check, field: &str, method: Option<&str>) -> String {
    check.required_text(field, method.unwrap_or("cash"), 100)
}

/// Records a payment of `amount` (checked by the caller) in the caller's transaction, then
/// settles the state.
pub async fn receive(
    conn: &mut PgConnection,
    reg: &RegistrationRow,
    amount: i32,
    method: &str,
    note: Option<&str>,
) -> Result<PaymentState> {
    db::payment::insert(
        &mut *conn,
        reg.registration_id,
        PaymentKind::Payment,
        amount,
        method,
        note,
    )
    .await?;
    db::registration::set_payment(
        &mut *conn,
        reg.registration_id,
        reg.payment_state,
        Some(method),
        note,
    )
    .await?;
    settle(conn, reg.registration_id).await
}

/// A refund: money paid back.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RefundInput {
    /// Amount paid back (default: everything held).
    pub amount: Option<i64>,
    /// Cash, transfer, … (default `cash`).
    pub method: Option<String>,
    /// Free note.
    pub note: Option<String>,
}

/// Voiding an entry recorded by mistake.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VoidInput {
    /// Why (kept with the entry and in the audit log).
    pub reason: Option<String>,
}

async fn view_of(conn: &mut PgConnection, reg: &RegistrationRow) -> Result<RegistrationView> {
    let rows = db::registration::list(&mut *conn, reg.section_id).await?;
    let ledger = db::payment::of_section(&mut *conn, reg.section_id).await?;
    super::registrations::views(&rows, &ledger, true)
        .into_iter()
        .find(|v| v.id == reg.registration_id)
        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))
}

/// Pays money back to a registration (a withdrawal's refund, or an overpayment): at most what
/// it holds. Compare-and-set on the registration's version.
pub async fn refund(
    pool: &PgPool,
    actor: &Actor,
    registration_id: Uuid,
    input: &RefundInput,
    expected_version: Option<i32>,
) -> Result<RegistrationView> {
    let mut tx = pool.begin().await?;
    let reg = db::registration::find(&mut *tx, registration_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
    let section = db::section::find_for_update(&mut tx, reg.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let reg = db::registration::find(&mut *tx, registration_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
    super::registrations::compare_version(&reg, expected_version)?;
    let entries = db::payment::of_registration(&mut *tx, registration_id).await?;
    let held = Sums::of(&entries, registration_id).net();
    let mut check = Check::new();
    let method = check_method(&mut check, "method", input.method.as_deref());
    let note = check.optional_note("note", input.note.as_deref(), 1000);
    let amount = match input.amount {
        Some(a) if a > held => {
            check.error("amount", m::DESK_MORE_THAN_HELD.with(&[&held]));
            0
        }
        Some(a) => check.range("amount", a, 1, 1_000_000),
        None if held <= 0 => {
            check.error("amount", m::DESK_NOTHING_WAS_PAID_THERE.msg());
            0
        }
        None => held as i32,
    };
    check.finish()?;
    let before = json!({"payment_state": reg.payment_state, "held": held});
    db::payment::insert(
        &mut *tx,
        registration_id,
        PaymentKind::Refund,
        amount,
        &method,
        note.as_deref(),
    )
    .await?;
    let state = settle(&mut tx, registration_id).await?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "refund",
            entity: "registration",
            entity_id: Some(registration_id),
            before: Some(before),
            after: Some(json!({"payment_state": state, "amount": amount, "method": method})),
        },
    )
    .await?;
    let view = view_of(&mut tx, &reg).await?;
    tx.commit().await?;
    Ok(view)
}

/// Voids a ledger entry recorded by mistake: it stays, marked, and no longer counts; the
/// registration's state follows (a confirmed registration stays confirmed: its fee is owed
/// again).
pub async fn void(
    pool: &PgPool,
    actor: &Actor,
    payment_id: Uuid,
    input: &VoidInput,
) -> Result<RegistrationView> {
    let mut tx = pool.begin().await?;
    let entry = db::payment::find(&mut *tx, payment_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_PAYMENT))?;
    let reg = db::registration::find(&mut *tx, entry.registration_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
    let section = db::section::find_for_update(&mut tx, reg.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let mut check = Check::new();
    let reason = check.optional_note("reason", input.reason.as_deref(), 1000);
    check.finish()?;
    // Read again under the section's lock: a void made meanwhile is not repeated.
    let entry = db::payment::find(&mut *tx, payment_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_PAYMENT))?;
    if entry.voided {
        return Err(Error::conflict(m::DESK_ENTRY_LEDGER_ALREADY_VOIDED.msg()));
    }
    db::payment::void(&mut *tx, payment_id, reason.as_deref()).await?;
    let state = settle(&mut tx, reg.registration_id).await?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "void",
            entity: "payment",
            entity_id: Some(payment_id),
            before: serde_json::to_value(PaymentView::from(&entry)).ok(),
            after: Some(json!({
                "voided": true,
                "reason": reason,
                "registration_id": reg.registration_id,
                "payment_state": state,
            })),
        },
    )
    .await?;
    let view = view_of(&mut tx, &reg).await?;
    tx.commit().await?;
    Ok(view)
}

/// The section a ledger entry belongs to (for the dashboard's redirect).
pub async fn section_of(pool: &PgPool, payment_id: Uuid) -> Result<Uuid> {
    let mut conn = pool.acquire().await?;
    let entry = db::payment::find(&mut *conn, payment_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_PAYMENT))?;
    let reg = db::registration::find(&mut *conn, entry.registration_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
    Ok(reg.section_id)
}
