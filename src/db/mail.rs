//! E-mail (issue #37): registrants' opt-in, what a message to one needs, the one-click
//! unsubscribe.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

/// Records a registrant's opt-in and language.
pub async fn opt_in(
    db: impl PgExecutor<'_>,
    registration_id: Uuid,
    lang: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "update registration set email_opt_in = true, email_lang = $2 where registration_id = $1",
    )
    .bind(registration_id)
    .bind(lang)
    .execute(db)
    .await?;
    Ok(())
}

/// Queues a registration's message (`event`, `event_key`) when its registrant opted in and
/// gave an address; returns how many rows were queued (0 or 1).
pub async fn queue_registration(
    db: impl PgExecutor<'_>,
    registration_id: Uuid,
    event: &str,
    event_key: &str,
) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "insert into outbox (tournament_id, event, event_key, channel, recipient, payload)
         select s.tournament_id, $2, $3, 'email', r.registration_id, '{}'::jsonb
           from registration r join section s using (section_id)
           join player p on p.player_id = r.player_id
          where r.registration_id = $1 and r.email_opt_in and p.email is not null
         on conflict on constraint outbox_once do nothing",
    )
    .bind(registration_id)
    .bind(event)
    .bind(event_key)
    .execute(db)
    .await?
    .rows_affected())
}

/// Queues the confirmation of a registration confirmed after it was made (by the desk, or
/// from the waiting list), unless its confirmation went (or goes) out with its receipt.
pub async fn queue_confirmed(db: impl PgExecutor<'_>, registration_id: Uuid) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "insert into outbox (tournament_id, event, event_key, channel, recipient, payload)
         select s.tournament_id, 'registration.confirmed',
                'registration_confirmed:' || r.registration_id, 'email', r.registration_id,
                '{}'::jsonb
           from registration r join section s using (section_id)
           join player p on p.player_id = r.player_id
          where r.registration_id = $1 and r.email_opt_in and p.email is not null
            and not exists (select 1 from outbox o
                             where o.channel = 'email' and o.recipient = r.registration_id
                               and o.event_key = 'registration:' || r.registration_id)
         on conflict on constraint outbox_once do nothing",
    )
    .bind(registration_id)
    .execute(db)
    .await?
    .rows_affected())
}

/// What a message to a registrant needs, read at delivery.
#[derive(Debug, Clone, FromRow)]
pub struct Recipient {
    /// Registration.
    pub registration_id: Uuid,
    /// The address.
    pub email: Option<String>,
    /// Still opted in.
    pub email_opt_in: bool,
    /// The language chosen on the form (none: the event's).
    pub email_lang: Option<String>,
    /// The event's language.
    pub default_language: String,
    /// The unsubscribe token.
    pub email_token: String,
    /// The registrant's name.
    pub name: String,
    /// `pending`, `confirmed`, `waitlisted`…
    pub status: String,
    /// Fee tier.
    pub fee_tier: Option<String>,
    /// Fee.
    pub fee_amount: i32,
    /// `unpaid`, `paid`…
    pub payment_state: String,
    /// Section.
    pub section_id: Uuid,
    /// Section name.
    pub section_name: String,
    /// The section's fee tiers (for the currency).
    pub fee_tiers: serde_json::Value,
    /// Whether the place is held only once paid.
    pub payment_required: bool,
    /// How to pay.
    pub payment_instructions: String,
    /// Tournament name.
    pub tournament_name: String,
    /// The event's zone.
    pub time_zone: String,
    /// The entrant's key, once confirmed.
    pub key: Option<String>,
    /// When the registration was made.
    pub created_at: DateTime<Utc>,
}

/// The registrant of `registration_id`.
pub async fn recipient(
    db: impl PgExecutor<'_>,
    registration_id: Uuid,
) -> sqlx::Result<Option<Recipient>> {
    sqlx::query_as::<_, Recipient>(
        "select r.registration_id, p.email, r.email_opt_in, r.email_lang, t.default_language,
                r.email_token, p.name, r.status, r.fee_tier, r.fee_amount, r.payment_state,
                s.section_id, s.name as section_name, s.fee_tiers, s.payment_required,
                s.payment_instructions, t.name as tournament_name, t.time_zone, k.key,
                r.created_at
           from registration r join player p on p.player_id = r.player_id
           join section s on s.section_id = r.section_id
           join tournament t on t.tournament_id = s.tournament_id
           left join entrant_key k on k.entrant_id = r.entrant_id
          where r.registration_id = $1",
    )
    .bind(registration_id)
    .fetch_optional(db)
    .await
}

/// The registrant of an unsubscribe token: (name, tournament name, still opted in).
pub async fn by_token(
    db: impl PgExecutor<'_>,
    token: &str,
) -> sqlx::Result<Option<(String, String, bool)>> {
    sqlx::query_as::<_, (String, String, bool)>(
        "select p.name, t.name, r.email_opt_in
           from registration r join player p on p.player_id = r.player_id
           join section s on s.section_id = r.section_id
           join tournament t on t.tournament_id = s.tournament_id
          where r.email_token = $1",
    )
    .bind(token)
    .fetch_optional(db)
    .await
}

/// Ends the e-mail of a token's registrant; whether the token is known. Messages already
/// queued for it are not sent (the worker reads the opt-in at delivery).
pub async fn unsubscribe(db: impl PgExecutor<'_>, token: &str) -> sqlx::Result<bool> {
    Ok(
        sqlx::query("update registration set email_opt_in = false where email_token = $1")
            .bind(token)
            .execute(db)
            .await?
            .rows_affected()
            > 0,
    )
}
