//! The payment ledger: payments and refunds of registrations, voided but never deleted.

use crate::vocab::PaymentKind;
use sqlx::PgExecutor;
use uuid::Uuid;

/// A ledger entry.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PaymentRow {
    /// Id.
    pub payment_id: Uuid,
    /// The registration paid for.
    pub registration_id: Uuid,
    /// Payment or refund.
    pub kind: PaymentKind,
    /// Amount (positive, in the fees' unit).
    pub amount: i32,
    /// Cash, transfer, …
    pub method: String,
    /// Free note.
    pub note: Option<String>,
    /// Voided: kept, but no longer counted.
    pub voided: bool,
    /// Why it was voided.
    pub void_reason: Option<String>,
    /// When it was recorded.
    pub created_at: chrono::DateTime<chrono::Utc>,
}

const COLUMNS: &str =
    "payment_id, registration_id, kind, amount, method, note, voided, void_reason, created_at";

/// Records a payment or a refund.
pub async fn insert(
    db: impl PgExecutor<'_>,
    registration_id: Uuid,
    kind: PaymentKind,
    amount: i32,
    method: &str,
    note: Option<&str>,
) -> sqlx::Result<PaymentRow> {
    sqlx::query_as::<_, PaymentRow>(&format!(
        "insert into payment (registration_id, kind, amount, method, note) values ($1, $2, $3, $4, $5)
         returning {COLUMNS}"
    ))
    .bind(registration_id)
    .bind(kind)
    .bind(amount)
    .bind(method)
    .bind(note)
    .fetch_one(db)
    .await
}

/// One entry.
pub async fn find(db: impl PgExecutor<'_>, payment_id: Uuid) -> sqlx::Result<Option<PaymentRow>> {
    sqlx::query_as::<_, PaymentRow>(&format!(
        "select {COLUMNS} from payment where payment_id = $1"
    ))
    .bind(payment_id)
    .fetch_optional(db)
    .await
}

/// Marks an entry voided.
pub async fn void(
    db: impl PgExecutor<'_>,
    payment_id: Uuid,
    reason: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update payment set voided = true, void_reason = $2, voided_at = now() where payment_id = $1",
    )
    .bind(payment_id)
    .bind(reason)
    .execute(db)
    .await?;
    Ok(())
}

/// The entries of a registration, oldest first.
pub async fn of_registration(
    db: impl PgExecutor<'_>,
    registration_id: Uuid,
) -> sqlx::Result<Vec<PaymentRow>> {
    sqlx::query_as::<_, PaymentRow>(&format!(
        "select {COLUMNS} from payment where registration_id = $1 order by created_at, payment_id"
    ))
    .bind(registration_id)
    .fetch_all(db)
    .await
}

/// The entries of a section's registrations, oldest first.
pub async fn of_section(
    db: impl PgExecutor<'_>,
    section_id: Uuid,
) -> sqlx::Result<Vec<PaymentRow>> {
    sqlx::query_as::<_, PaymentRow>(
        "select p.payment_id, p.registration_id, p.kind, p.amount, p.method, p.note, p.voided, p.void_reason,
                p.created_at
         from payment p join registration r using (registration_id)
         where r.section_id = $1 order by p.created_at, p.payment_id",
    )
    .bind(section_id)
    .fetch_all(db)
    .await
}
