//! Registration (SPEC §3): the public form's submissions, the cap and its waitlist, payments,
//! withdrawals with refunds, cancelling a section below its minimum, and the random split.

use super::access::{self, Change, Need};
use super::check::Check;
use super::entrants::{self, EntrantInput};
use super::payments::{self, PaymentView, Sums};
use super::sections::FeeTier;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::payment::PaymentRow;
use crate::db::registration::RegistrationRow;
use crate::db::section::SectionRow;
use crate::i18n::messages as m;
use crate::vocab::{
    EntrantStatus, EntryType, PaymentKind, PaymentState, RegistrationStatus, SectionStatus,
    SplitMethod, TournamentStatus,
};
use chrono::{NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// What the public registration form sends. For a team section (issue #41) it is the
/// captain's registration of a team: `name`, `email`, `phone` and `address` are the
/// captain's (the contact), `club` the team's club or federation, and `team` the team's name
/// and roster; it waits for the desk, which confirms it as any registration.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegistrationInput {
    /// Name (required; the captain's for a team).
    pub name: String,
    /// `m`, `f` or `x`.
    pub gender: Option<String>,
    /// Email.
    pub email: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Address.
    pub address: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Member of the organising club.
    pub member: Option<bool>,
    /// Rating.
    pub rating: Option<i64>,
    /// Birth date, for sections with age eligibility.
    pub birth_date: Option<NaiveDate>,
    /// School grade, for student sections.
    pub school_grade: Option<String>,
    /// Partner's name (doubles).
    pub partner_name: Option<String>,
    /// Partner's gender (doubles).
    pub partner_gender: Option<String>,
    /// The fee tier chosen (by name).
    pub fee_tier: Option<String>,
    /// The event's waiver was accepted.
    pub waiver_accepted: Option<bool>,
    /// E-mail me the confirmation and each round's pairing (needs `email`; ignored when the
    /// server sends no e-mail, issue #37).
    #[serde(default)]
    pub email_notifications: Option<bool>,
    /// The language of the e-mail (`zh-Hant`, `zh-Hans`, `en`); the event's when absent.
    #[serde(default)]
    pub lang: Option<String>,
    /// The team, for a team section (required there, refused elsewhere).
    #[serde(default)]
    pub team: Option<super::team_registrations::TeamRegistration>,
}

/// A registration as shown: the public sees name, club and status; arbiters see everything.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RegistrationView {
    /// Id.
    pub id: Uuid,
    /// Name (with the partner's for doubles).
    pub name: String,
    /// Club.
    pub club: Option<String>,
    /// `pending`, `confirmed`, `waitlisted`, `withdrawn` or `cancelled`.
    pub status: RegistrationStatus,
    /// The entrant, once confirmed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entrant_id: Option<Uuid>,
    /// Place on the waitlist (1 = next), when waitlisted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waitlist_position: Option<u32>,
    /// Fee tier (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fee_tier: Option<String>,
    /// Fee (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fee_amount: Option<i32>,
    /// `unpaid`, `paid`, `refund_due` or `refunded` (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment_state: Option<PaymentState>,
    /// How it was paid: cash, transfer, … (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment_method: Option<String>,
    /// Email (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Phone (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// What it holds: payments less refunds, voided entries left out (arbiters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paid_amount: Option<i64>,
    /// Its payments and refunds, voided ones included (arbiters only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub payments: Vec<PaymentView>,
    /// Version for compare-and-set: send it back (`If-Match`) with an action, so that an
    /// action taken meanwhile by someone else is not repeated or overwritten (409).
    pub version: i32,
    /// The new entrant's own page, `/k/{key}` (issue 36): in the answer to the registration
    /// only, once, when it is confirmed at once. Keep it: it is the player's key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_path: Option<String>,
    /// What the registrant must know (issue #39 item 9): the section, the fee due and how to
    /// pay. In the answer to the registration only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmation: Option<Confirmation>,
}

/// What the registrant is told on the confirmation (issue #39 item 9).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Confirmation {
    /// The section registered for.
    pub section_id: Uuid,
    /// Its name.
    pub section_name: String,
    /// The fee tier chosen (or the only one).
    pub fee_tier: Option<String>,
    /// The fee due, in whole units of `currency` (0: none).
    pub fee_amount: i32,
    /// The fee's currency (ISO 4217), empty when the section names none.
    pub currency: String,
    /// Whether the place is held only once the fee is paid.
    pub payment_required: bool,
    /// How to pay, as the organiser wrote it (empty: not said).
    pub payment_instructions: String,
}

/// Views of a section's registrations with their ledger (`ledger`: the section's entries).
pub(crate) fn views(
    rows: &[RegistrationRow],
    ledger: &[PaymentRow],
    private: bool,
) -> Vec<RegistrationView> {
    let mut waiting = 0;
    rows.iter()
        .map(|r| {
            let waitlist_position = (r.status == RegistrationStatus::Waitlisted).then(|| {
                waiting += 1;
                waiting
            });
            RegistrationView {
                id: r.registration_id,
                name: match &r.partner_name {
                    Some(partner) => format!("{} / {partner}", r.name),
                    None => r.name.clone(),
                },
                club: r.club.clone(),
                status: r.status,
                entrant_id: r.entrant_id.filter(|_| private),
                waitlist_position,
                fee_tier: r.fee_tier.clone().filter(|_| private),
                fee_amount: private.then_some(r.fee_amount),
                payment_state: private.then_some(r.payment_state),
                payment_method: r.payment_method.clone().filter(|_| private),
                email: r.email.clone().filter(|_| private),
                phone: r.phone.clone().filter(|_| private),
                paid_amount: private.then(|| Sums::of(ledger, r.registration_id).net()),
                payments: if private {
                    ledger
                        .iter()
                        .filter(|p| p.registration_id == r.registration_id)
                        .map(PaymentView::from)
                        .collect()
                } else {
                    Vec::new()
                },
                version: r.version,
                key_path: None,
                confirmation: None,
            }
        })
        .collect()
}

/// Places held: confirmed registrations, plus pending ones when payment is not required first.
fn places_taken(section: &SectionRow, rows: &[RegistrationRow]) -> i64 {
    rows.iter()
        .filter(|r| {
            r.status == RegistrationStatus::Confirmed
                || (r.status == RegistrationStatus::Pending && !section.payment_required)
        })
        .count() as i64
}

fn has_place(section: &SectionRow, rows: &[RegistrationRow]) -> bool {
    section
        .cap
        .is_none_or(|cap| places_taken(section, rows) < i64::from(cap))
}

/// Turns a registration into an entrant (its place is now held).
async fn confirm(
    conn: &mut PgConnection,
    section: &SectionRow,
    reg: &RegistrationRow,
) -> Result<Uuid> {
    if reg.team_name.is_some() {
        // A team's registration becomes the team with its roster (issue #41).
        let entrant_id = super::team_registrations::confirm(&mut *conn, section, reg).await?;
        db::registration::set_status(
            &mut *conn,
            reg.registration_id,
            RegistrationStatus::Confirmed,
            Some(entrant_id),
        )
        .await?;
        db::mail::queue_confirmed(&mut *conn, reg.registration_id).await?;
        return Ok(entrant_id);
    }
    // The same team name a desk entry gets ("A / B"); the registration's player rows are reused.
    let name = match &reg.partner_name {
        Some(partner) => format!("{} / {partner}", reg.name),
        None => reg.name.clone(),
    };
    let player_ids: Vec<Uuid> = std::iter::once(reg.player_id)
        .chain(reg.partner_id)
        .collect();
    let ratings: Vec<Option<i32>> = sqlx::query_scalar!(
        "select rating from player where player_id = any($1) order by array_position($1, player_id)",
        &player_ids
    )
    .fetch_all(&mut *conn)
    .await?;
    let entrant = entrants::enrol(
        conn,
        section.section_id,
        &name,
        &ratings,
        reg.club.as_deref(),
        &player_ids,
    )
    .await?;
    db::registration::set_status(
        &mut *conn,
        reg.registration_id,
        RegistrationStatus::Confirmed,
        Some(entrant.entrant_id),
    )
    .await?;
    // The registrant who asked for e-mail hears of the confirmation with their key (issue
    // #37); a registration confirmed as it is made has its one confirmation queued already.
    db::mail::queue_confirmed(&mut *conn, reg.registration_id).await?;
    Ok(entrant.entrant_id)
}

/// The fee of a tier chosen by name among the section's tiers (`None`: the only tier, or no
/// fee when the section has none). `required`: with several tiers one must be chosen;
/// otherwise (the desk's API) no choice means no fee recorded.
pub(crate) fn fee_of(
    section: &SectionRow,
    chosen: Option<&str>,
    required: bool,
    check: &mut Check,
) -> (Option<String>, i32) {
    let tiers: Vec<FeeTier> = serde_json::from_value(section.fee_tiers.clone()).unwrap_or_default();
    let chosen = chosen.map(str::trim).filter(|c| !c.is_empty());
    let amount = |t: &FeeTier| i32::try_from(t.amount).unwrap_or(i32::MAX);
    match (chosen, tiers.as_slice()) {
        (None, []) => (None, 0),
        (Some(_), []) => {
            check.error("fee_tier", m::DESK_SECTION_HAS_NO_FEE.msg());
            (None, 0)
        }
        (None, [only]) => (Some(only.name.clone()), amount(only)),
        (None, _) => {
            if required {
                check.error("fee_tier", m::CHECK_CHOOSE_FEE_TIER.msg());
            }
            (None, 0)
        }
        (Some(name), tiers) => match tiers.iter().find(|t| t.name == name) {
            Some(t) => (Some(t.name.clone()), amount(t)),
            None => {
                check.error(
                    "fee_tier",
                    m::CHECK_ONE_OF.with(&[&tiers
                        .iter()
                        .map(|t| t.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")]),
                );
                (None, 0)
            }
        },
    }
}

/// Refuses a stale version (409).
pub(crate) fn compare_version(reg: &RegistrationRow, expected: Option<i32>) -> Result<()> {
    if let Some(expected) = expected {
        if expected != reg.version {
            return Err(Error::conflict(
                m::STALE_REGISTRATION.with(&[&reg.version, &expected]),
            ));
        }
    }
    Ok(())
}

/// Counts a public registration for `section_id` from `ip` with the anonymous limiter,
/// unless `actor` is on the section's tournament staff with the arbiters' rights (the desk
/// entering walk-ins is not the anonymous public).
pub async fn registration_attempt(
    pool: &PgPool,
    limits: &super::throttle::Limits,
    actor: Option<&Actor>,
    ip: std::net::IpAddr,
    section_id: Uuid,
) -> Result<()> {
    if let Some(actor) = actor {
        if let Some(section) = db::section::find(pool, section_id).await? {
            let mut conn = pool.acquire().await?;
            if access::can_see_private(&mut conn, Some(actor), section.tournament_id).await? {
                return Ok(());
            }
        }
    }
    super::throttle::registration_attempt(pool, limits, ip, section_id).await
}

/// Submits the public registration form. One transaction: the cap is checked under the
/// section's lock, so two last-minute registrations cannot both take the last place.
pub async fn register(
    pool: &PgPool,
    section_id: Uuid,
    input: &RegistrationInput,
    email_on: bool,
) -> Result<RegistrationView> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let tournament = db::tournament::find(&mut *tx, section.tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    if section.status == SectionStatus::Cancelled
        || tournament.status == TournamentStatus::Cancelled
    {
        return Err(Error::conflict(m::STATE_THIS_SECTION_CANCELLED.msg()));
    }
    let now = Utc::now();
    if section.registration_opens_at.is_some_and(|t| now < t) {
        return Err(Error::conflict(m::STATE_REGISTRATION_NOT_OPEN_YET.msg()));
    }
    if section.registration_closes_at.is_some_and(|t| now > t) {
        return Err(Error::conflict(m::STATE_REGISTRATION_CLOSED.msg()));
    }
    let mut check = Check::new();
    let entrant_input = EntrantInput {
        name: Some(input.name.clone()),
        rating: input.rating,
        club: input.club.clone(),
        gender: input.gender.clone(),
        member: input.member,
        email: input.email.clone(),
        phone: input.phone.clone(),
        address: input.address.clone(),
        birth_date: input.birth_date,
        school_grade: input.school_grade.clone(),
        members: None,
        ..EntrantInput::default()
    };
    let (_, mut players) = entrants::players_of(&entrant_input, EntryType::Individual, &mut check);
    // A team section's registration is a team's (issue #41), checked as the desk's team add.
    let team = if section.entry_type == EntryType::Team {
        super::team_registrations::check(
            &mut tx,
            &section,
            input.team.as_ref(),
            players.first().and_then(|p| p.club.as_deref()),
            &mut check,
        )
        .await?
    } else {
        if input.team.is_some() {
            check.error("team", m::TEAM_NOT_TEAM_SECTION.msg());
        }
        None
    };
    let partner = if section.entry_type == EntryType::Doubles {
        let name = check.required_text(
            "partner_name",
            input.partner_name.as_deref().unwrap_or(""),
            200,
        );
        let mut partner = players.first().cloned();
        if let Some(p) = partner.as_mut() {
            p.name = name;
            p.gender = input
                .partner_gender
                .clone()
                .filter(|g| ["m", "f", "x"].contains(&g.as_str()));
            p.email = None;
            p.phone = None;
            p.address = None;
            p.birth_date = None;
        }
        partner
    } else {
        if input
            .partner_name
            .as_deref()
            .is_some_and(|p| !p.trim().is_empty())
        {
            check.error("partner_name", m::CHECK_ONLY_DOUBLES_PARTNER.msg());
        }
        None
    };
    if tournament.waiver_text.is_some() && input.waiver_accepted != Some(true) {
        check.error(
            "waiver_accepted",
            m::CHECK_WAIVER_MUST_ACCEPTED_REGISTER.msg(),
        );
    }
    let fee = fee_of(&section, input.fee_tier.as_deref(), true, &mut check);
    let email_wanted = email_on && input.email_notifications == Some(true);
    if email_wanted && input.email.as_deref().is_none_or(|e| e.trim().is_empty()) {
        check.error("email", m::CHECK_EMAIL_FOR_NOTIFICATIONS.msg());
    }
    check.finish()?;

    let rows = db::registration::list(&mut *tx, section_id).await?;
    let (player_id, roster) = match &team {
        Some(team) => {
            let (captain, roster) = super::team_registrations::store_players(
                &mut tx,
                section.tournament_id,
                team,
                players.remove(0),
            )
            .await?;
            (captain, Some(roster))
        }
        None => (
            db::entrant::insert_player(&mut *tx, section.tournament_id, &players.remove(0)).await?,
            None,
        ),
    };
    let partner_id = match &partner {
        Some(p) => Some(db::entrant::insert_player(&mut *tx, section.tournament_id, p).await?),
        None => None,
    };
    let place = has_place(&section, &rows);
    let status = if !place {
        RegistrationStatus::Waitlisted
    } else if team.is_some() || (section.payment_required && fee.1 > 0) {
        // A team's roster is the desk's to approve: it waits as pending.
        RegistrationStatus::Pending
    } else {
        RegistrationStatus::Confirmed
    };
    let id = db::registration::insert(
        &mut *tx,
        section_id,
        player_id,
        partner_id,
        if status == RegistrationStatus::Confirmed {
            RegistrationStatus::Pending
        } else {
            status
        },
        (fee.0.as_deref(), fee.1),
        input.waiver_accepted.unwrap_or(false),
    )
    .await?;
    if let (Some(team), Some(roster)) = (&team, &roster) {
        db::registration::set_team(
            &mut tx,
            id,
            &team.name,
            team.captain.map(|i| i as i16 + 1),
            roster,
        )
        .await?;
    }
    if email_wanted {
        let lang = input
            .lang
            .as_deref()
            .and_then(crate::i18n::Lang::from_tag)
            .or_else(|| crate::i18n::Lang::from_tag(&tournament.default_language))
            .unwrap_or(crate::i18n::Lang::ZhHant);
        db::mail::opt_in(&mut *tx, id, lang.tag()).await?;
        // The confirmation (issue #37): one message, written when it is sent, so that a place
        // confirmed at once names the key; a later confirmation by the desk sends another.
        db::mail::queue_registration(
            &mut *tx,
            id,
            "registration.received",
            &format!("registration:{id}"),
        )
        .await?;
    }
    let mut key_path = None;
    if status == RegistrationStatus::Confirmed {
        let reg = db::registration::find(&mut *tx, id)
            .await?
            .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
        let entrant_id = confirm(&mut tx, &section, &reg).await?;
        key_path = db::key::key_of(&mut *tx, entrant_id)
            .await?
            .map(|key| super::keys::key_path(&key));
    }
    let rows = db::registration::list(&mut *tx, section_id).await?;
    let mut view = views(&rows, &[], false)
        .into_iter()
        .find(|v| v.id == id)
        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
    access::audit(
        &mut tx,
        section.tournament_id,
        None,
        Change {
            action: "register",
            entity: "registration",
            entity_id: Some(id),
            before: None,
            after: Some(json!({
                "name": view.name, "status": view.status, "fee_tier": fee.0,
                "team": team.as_ref().map(|t| json!({
                    "roster": t.roster.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
                    "captain_position": t.captain.map(|i| i + 1),
                })),
            })),
        },
    )
    .await?;
    let tiers: Vec<FeeTier> = serde_json::from_value(section.fee_tiers.clone()).unwrap_or_default();
    let rules = db::section_rules::get(&mut *tx, section_id)
        .await?
        .unwrap_or_default();
    view.confirmation = Some(Confirmation {
        section_id,
        section_name: section.name.clone(),
        currency: tiers
            .iter()
            .find(|t| Some(&t.name) == fee.0.as_ref())
            .map(|t| t.currency.clone())
            .unwrap_or_default(),
        fee_tier: fee.0,
        fee_amount: fee.1,
        payment_required: section.payment_required,
        payment_instructions: rules.payment_instructions,
    });
    tx.commit().await?;
    view.key_path = key_path;
    Ok(view)
}

/// A section's registrations; contact and payment data only for its arbiters.
pub async fn list(
    pool: &PgPool,
    actor: Option<&Actor>,
    section_id: Uuid,
) -> Result<Vec<RegistrationView>> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let private = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    let rows = db::registration::list(&mut *conn, section_id).await?;
    let ledger = if private {
        db::payment::of_section(&mut *conn, section_id).await?
    } else {
        Vec::new()
    };
    Ok(views(&rows, &ledger, private))
}

/// Money at the desk, in the fees' unit: what came in, what is still owed, what must go back.
/// `received - refunded = paid + refund_due`: every entry of the ledger is counted once.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct DeskTotals {
    /// Fees received and kept: what registrations hold, except those owing it back.
    pub paid: i64,
    /// Fees still owed: the rest of the fee of unpaid registrations that hold or await a place.
    pub due: i64,
    /// Fees received that must be paid back (withdrawn or cancelled registrations).
    pub refund_due: i64,
    /// Every payment received (voided ones left out).
    pub received: i64,
    /// Every refund paid (voided ones left out).
    pub refunded: i64,
    /// Per fee tier (registrations without one under `null`).
    pub by_tier: Vec<TierTotals>,
    /// Per payment method.
    pub by_method: Vec<MethodTotals>,
}

/// A fee tier's part of the totals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct TierTotals {
    /// Tier name (`null`: no tier).
    pub tier: Option<String>,
    /// Registrations with this tier that hold or await a place.
    pub entries: i64,
    /// Kept (as `paid` above).
    pub paid: i64,
    /// Still owed.
    pub due: i64,
    /// To pay back.
    pub refund_due: i64,
}

/// A payment method's part of the totals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct MethodTotals {
    /// Method (cash, transfer, …).
    pub method: String,
    /// Payments received this way.
    pub received: i64,
    /// Refunds paid this way.
    pub refunded: i64,
}

impl DeskTotals {
    fn add(&mut self, r: &RegistrationView) {
        let held = r.paid_amount.unwrap_or(0);
        let fee = i64::from(r.fee_amount.unwrap_or(0));
        let due = if owes(r) { (fee - held).max(0) } else { 0 };
        let (paid, refund_due) = if r.payment_state == Some(PaymentState::RefundDue) {
            (0, held)
        } else {
            (held, 0)
        };
        self.paid += paid;
        self.due += due;
        self.refund_due += refund_due;
        let tier = match self.by_tier.iter().position(|t| t.tier == r.fee_tier) {
            Some(i) => &mut self.by_tier[i],
            None => {
                self.by_tier.push(TierTotals {
                    tier: r.fee_tier.clone(),
                    ..TierTotals::default()
                });
                let last = self.by_tier.len() - 1;
                &mut self.by_tier[last]
            }
        };
        if matches!(
            r.status,
            RegistrationStatus::Pending
                | RegistrationStatus::Confirmed
                | RegistrationStatus::Waitlisted
        ) {
            tier.entries += 1;
        }
        tier.paid += paid;
        tier.due += due;
        tier.refund_due += refund_due;
        for p in r.payments.iter().filter(|p| !p.voided) {
            let amount = i64::from(p.amount);
            let method = self.method(&p.method);
            if p.kind == PaymentKind::Refund {
                method.refunded += amount;
                self.refunded += amount;
            } else {
                method.received += amount;
                self.received += amount;
            }
        }
    }

    fn method(&mut self, name: &str) -> &mut MethodTotals {
        let i = match self.by_method.iter().position(|m| m.method == name) {
            Some(i) => i,
            None => {
                self.by_method.push(MethodTotals {
                    method: name.to_string(),
                    ..MethodTotals::default()
                });
                self.by_method.len() - 1
            }
        };
        &mut self.by_method[i]
    }

    fn absorb(&mut self, other: &DeskTotals) {
        self.paid += other.paid;
        self.due += other.due;
        self.refund_due += other.refund_due;
        self.received += other.received;
        self.refunded += other.refunded;
        for t in &other.by_tier {
            match self.by_tier.iter_mut().find(|m| m.tier == t.tier) {
                Some(m) => {
                    m.entries += t.entries;
                    m.paid += t.paid;
                    m.due += t.due;
                    m.refund_due += t.refund_due;
                }
                None => self.by_tier.push(t.clone()),
            }
        }
        for m in &other.by_method {
            let mine = self.method(&m.method);
            mine.received += m.received;
            mine.refunded += m.refunded;
        }
    }
}

/// Whether a registration still owes its fee: unpaid, a fee above zero, and holding a place
/// or waiting to be confirmed by payment (a waitlisted, withdrawn or cancelled one owes
/// nothing).
pub fn owes(r: &RegistrationView) -> bool {
    r.payment_state == Some(PaymentState::Unpaid)
        && r.fee_amount.unwrap_or(0) > 0
        && matches!(
            r.status,
            RegistrationStatus::Pending | RegistrationStatus::Confirmed
        )
}

/// One section of the desk list.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeskSection {
    /// Section id.
    pub section_id: Uuid,
    /// Section name.
    pub name: String,
    /// Registrations in arrival order, with payment data.
    pub registrations: Vec<RegistrationView>,
    /// The section's money.
    pub totals: DeskTotals,
}

/// The desk list of a tournament: its sections' registrations with payment data and totals.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeskList {
    /// Sections in their order.
    pub sections: Vec<DeskSection>,
    /// Every section's money together.
    pub totals: DeskTotals,
}

/// The desk list of a tournament (or of one of its sections, `only`): for its arbiters and
/// scorers, who see payment data anyway.
pub async fn desk(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    only: Option<Uuid>,
) -> Result<DeskList> {
    let mut conn = pool.acquire().await?;
    db::tournament::find(&mut *conn, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    access::require(&mut conn, actor, tournament_id, Need::Scorer).await?;
    let contact = access::can_see_private(&mut conn, Some(actor), tournament_id).await?;
    let sections = db::section::list(&mut *conn, tournament_id).await?;
    if only.is_some_and(|id| !sections.iter().any(|s| s.section_id == id)) {
        return Err(Error::NotFound(m::NOT_FOUND_SECTION));
    }
    let mut list = DeskList {
        sections: Vec::new(),
        totals: DeskTotals::default(),
    };
    for section in sections {
        if only.is_some_and(|id| id != section.section_id) {
            continue;
        }
        let rows = db::registration::list(&mut *conn, section.section_id).await?;
        let ledger = db::payment::of_section(&mut *conn, section.section_id).await?;
        let mut registrations = views(&rows, &ledger, true);
        if !contact {
            // Scorers work the desk's payments but see no contact data (SPEC §13).
            for r in &mut registrations {
                r.email = None;
                r.phone = None;
            }
        }
        let mut totals = DeskTotals::default();
        for r in &registrations {
            totals.add(r);
        }
        list.totals.absorb(&totals);
        list.sections.push(DeskSection {
            section_id: section.section_id,
            name: section.name,
            registrations,
            totals,
        });
    }
    Ok(list)
}

/// An arbiter's action on a registration.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PaymentInput {
    /// `paid` records a payment in the ledger (of `amount`, by default what is still owed) and
    /// `refunded` a refund of what is held; `unpaid` and `refund_due` set the state only (to
    /// undo a payment, void it).
    pub state: String,
    /// Amount received (`paid`; default: the rest of the fee).
    pub amount: Option<i64>,
    /// Cash, transfer, … (default `cash`).
    pub method: Option<String>,
    /// Free note.
    pub note: Option<String>,
}

/// What an arbiter does to a registration.
#[derive(Debug, Clone)]
pub enum RegistrationAction {
    /// Confirm now (a place must be free).
    Confirm,
    /// Record a payment state; paying confirms a pending registration when a place is free.
    Payment(PaymentInput),
    /// Withdraw: frees the place, promotes the waitlist, a paid fee becomes refund due.
    Withdraw,
}

async fn promote_waitlist(
    conn: &mut PgConnection,
    section: &SectionRow,
    actor: &Actor,
) -> Result<()> {
    loop {
        let rows = db::registration::list(&mut *conn, section.section_id).await?;
        if !has_place(section, &rows) {
            return Ok(());
        }
        let Some(next) = rows
            .iter()
            .find(|r| r.status == RegistrationStatus::Waitlisted)
        else {
            return Ok(());
        };
        // A team's roster waits for the desk's approval (issue #41): promoted, it is pending.
        let pending = next.team_name.is_some()
            || (section.payment_required
                && next.fee_amount > 0
                && next.payment_state != PaymentState::Paid);
        let status = if pending {
            db::registration::set_status(
                &mut *conn,
                next.registration_id,
                RegistrationStatus::Pending,
                None,
            )
            .await?;
            RegistrationStatus::Pending
        } else {
            confirm(conn, section, next).await?;
            RegistrationStatus::Confirmed
        };
        access::audit(
            conn,
            section.tournament_id,
            Some(actor),
            Change {
                action: "promote",
                entity: "registration",
                entity_id: Some(next.registration_id),
                before: Some(json!({"status": RegistrationStatus::Waitlisted})),
                after: Some(json!({"status": status})),
            },
        )
        .await?;
        if pending {
            // The freed place is offered to the first on the waitlist, who must pay for it;
            // a pending registration does not hold it, so stop after one offer per place.
            return Ok(());
        }
    }
}

/// Applies an arbiter's action to a registration.
pub async fn act(
    pool: &PgPool,
    actor: &Actor,
    id: Uuid,
    action: RegistrationAction,
    expected_version: Option<i32>,
) -> Result<RegistrationView> {
    let mut tx = pool.begin().await?;
    let reg = db::registration::find(&mut *tx, id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
    let section = db::section::find_for_update(&mut tx, reg.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    // Every registration change holds its section's lock: read again after taking it, so the
    // state compared and replaced is the one another writer may just have committed.
    let reg = db::registration::find(&mut *tx, id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
    compare_version(&reg, expected_version)?;
    let rows = db::registration::list(&mut *tx, section.section_id).await?;
    let before = json!({"status": reg.status, "payment_state": reg.payment_state});
    let name = match &action {
        RegistrationAction::Confirm => {
            if reg.status == RegistrationStatus::Confirmed {
                return Err(Error::conflict(
                    m::STATE_REGISTRATION_ALREADY_CONFIRMED.msg(),
                ));
            }
            if !matches!(
                reg.status,
                RegistrationStatus::Pending | RegistrationStatus::Waitlisted
            ) {
                return Err(Error::conflict(
                    m::STATE_REGISTRATION_CANNOT_CONFIRMED.with(&[&reg.status]),
                ));
            }
            let others: Vec<RegistrationRow> = rows
                .iter()
                .filter(|r| r.registration_id != id)
                .cloned()
                .collect();
            if !has_place(&section, &others) {
                return Err(Error::conflict(
                    m::STATE_SECTION_FULL_WITHDRAW_SOMEONE.msg(),
                ));
            }
            confirm(&mut tx, &section, &reg).await?;
            "confirm"
        }
        RegistrationAction::Payment(payment) => {
            let mut check = Check::new();
            let state = check.word(
                "state",
                &payment.state,
                PaymentState::ALL,
                reg.payment_state,
            );
            let note = check.optional_note("note", payment.note.as_deref(), 1000);
            let entries = db::payment::of_registration(&mut *tx, id).await?;
            let held = Sums::of(&entries, id).net();
            let amount = match payment.amount {
                Some(a) => i64::from(check.range("amount", a, 1, 1_000_000)),
                None if state == PaymentState::Paid => (i64::from(reg.fee_amount) - held).max(0),
                None => held.max(0),
            };
            let method =
                if amount > 0 && matches!(state, PaymentState::Paid | PaymentState::Refunded) {
                    Some(payments::check_method(
                        &mut check,
                        "method",
                        payment.method.as_deref(),
                    ))
                } else {
                    check.optional_text("method", payment.method.as_deref(), 100)
                };
            if state == PaymentState::Refunded && amount > held {
                check.error("amount", m::DESK_MORE_THAN_HELD.with(&[&held]));
            }
            check.finish()?;
            let state = match (state, method.as_deref()) {
                (PaymentState::Paid, Some(method)) if amount > 0 => {
                    payments::receive(&mut tx, &reg, amount as i32, method, note.as_deref()).await?
                }
                (PaymentState::Refunded, Some(method)) if amount > 0 => {
                    db::payment::insert(
                        &mut *tx,
                        id,
                        PaymentKind::Refund,
                        amount as i32,
                        method,
                        note.as_deref(),
                    )
                    .await?;
                    payments::settle(&mut tx, id).await?
                }
                // Nothing to enter in the ledger (no fee, nothing held): the state only.
                _ => {
                    db::registration::set_payment(
                        &mut *tx,
                        id,
                        state,
                        method.as_deref(),
                        note.as_deref(),
                    )
                    .await?;
                    state
                }
            };
            if state == PaymentState::Paid && reg.status == RegistrationStatus::Pending {
                let others: Vec<RegistrationRow> = rows
                    .iter()
                    .filter(|r| r.registration_id != id)
                    .cloned()
                    .collect();
                if has_place(&section, &others) {
                    let reg = db::registration::find(&mut *tx, id)
                        .await?
                        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
                    confirm(&mut tx, &section, &reg).await?;
                } else {
                    db::registration::set_status(
                        &mut *tx,
                        id,
                        RegistrationStatus::Waitlisted,
                        None,
                    )
                    .await?;
                }
            }
            "payment"
        }
        RegistrationAction::Withdraw => {
            if matches!(
                reg.status,
                RegistrationStatus::Withdrawn | RegistrationStatus::Cancelled
            ) {
                return Err(Error::conflict(
                    m::STATE_REGISTRATION_ALREADY_IS.with(&[&reg.status]),
                ));
            }
            db::registration::set_status(&mut *tx, id, RegistrationStatus::Withdrawn, None).await?;
            if reg.payment_state == PaymentState::Paid {
                db::registration::set_payment(&mut *tx, id, PaymentState::RefundDue, None, None)
                    .await?;
            }
            if !db::payment::of_registration(&mut *tx, id).await?.is_empty() {
                // What it holds (a part payment too) is owed back.
                payments::settle(&mut tx, id).await?;
            }
            if let Some(entrant_id) = reg.entrant_id {
                let paired = db::round::count(&mut *tx, section.section_id).await?;
                if paired == 0 {
                    db::entrant::delete(&mut *tx, entrant_id).await?;
                } else {
                    db::entrant::set_status(
                        &mut *tx,
                        entrant_id,
                        EntrantStatus::Withdrawn,
                        Some(paired as i32 + 1),
                    )
                    .await?;
                }
            }
            promote_waitlist(&mut tx, &section, actor).await?;
            "withdraw"
        }
    };
    let rows = db::registration::list(&mut *tx, section.section_id).await?;
    let ledger = db::payment::of_section(&mut *tx, section.section_id).await?;
    let view = views(&rows, &ledger, true)
        .into_iter()
        .find(|v| v.id == id)
        .ok_or(Error::NotFound(m::NOT_FOUND_REGISTRATION))?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: name,
            entity: "registration",
            entity_id: Some(id),
            before: Some(before),
            after: Some(json!({"status": view.status, "payment_state": view.payment_state})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}

/// A refund owed after a cancellation.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Refund {
    /// Registration.
    pub registration_id: Uuid,
    /// Name.
    pub name: String,
    /// Amount.
    pub amount: i32,
    /// Email to reach them.
    pub email: Option<String>,
}

/// The outcome of cancelling a section.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Cancellation {
    /// Registrations cancelled.
    pub cancelled: usize,
    /// Paid fees now due back.
    pub refunds: Vec<Refund>,
}

/// Cancels a section that did not reach its minimum (SPEC §3): every registration is
/// cancelled and paid ones are marked refund due. Refused once round 1 is paired or when the
/// minimum is reached.
pub async fn cancel_section(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
) -> Result<Cancellation> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    if section.status == SectionStatus::Cancelled {
        return Err(Error::conflict(m::STATE_SECTION_ALREADY_CANCELLED.msg()));
    }
    if db::round::count(&mut *tx, section_id).await? > 0 {
        return Err(Error::conflict(m::STATE_ROUND_1_PAIRED_SECTION.msg()));
    }
    let rows = db::registration::list(&mut *tx, section_id).await?;
    let confirmed = db::entrant::count(&mut *tx, section_id).await?;
    if let Some(min) = section.min_entries {
        if confirmed >= i64::from(min) {
            return Err(Error::conflict(
                m::STATE_MINIMUM_ENTRIES_REACHED_ENTRANTS.with(&[&min, &confirmed]),
            ));
        }
    }
    let mut refunds = Vec::new();
    let mut cancelled = 0;
    for r in rows.iter().filter(|r| {
        !matches!(
            r.status,
            RegistrationStatus::Withdrawn | RegistrationStatus::Cancelled
        )
    }) {
        db::registration::set_status(
            &mut *tx,
            r.registration_id,
            RegistrationStatus::Cancelled,
            None,
        )
        .await?;
        cancelled += 1;
        if r.payment_state == PaymentState::Paid {
            db::registration::set_payment(
                &mut *tx,
                r.registration_id,
                PaymentState::RefundDue,
                None,
                None,
            )
            .await?;
            refunds.push(Refund {
                registration_id: r.registration_id,
                name: r.name.clone(),
                amount: r.fee_amount,
                email: r.email.clone(),
            });
        }
    }
    // Refunds also stay due for fees paid by people who withdrew earlier.
    for r in rows
        .iter()
        .filter(|r| r.payment_state == PaymentState::RefundDue)
    {
        refunds.push(Refund {
            registration_id: r.registration_id,
            name: r.name.clone(),
            amount: r.fee_amount,
            email: r.email.clone(),
        });
    }
    sqlx::query!(
        "update section set status = 'cancelled' where section_id = $1",
        section_id
    )
    .execute(&mut *tx)
    .await?;
    let outcome = Cancellation { cancelled, refunds };
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "cancel",
            entity: "section",
            entity_id: Some(section_id),
            before: Some(json!({"status": section.status})),
            after: serde_json::to_value(&outcome).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(outcome)
}

/// How to split a pool of entrants into sections.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SplitInput {
    /// The section whose entrants are split (before its round 1).
    pub section_id: Uuid,
    /// Names of the new sections (two or more).
    pub sections: Vec<String>,
    /// `random` (default, seeded) or `rating_snake`.
    pub method: Option<String>,
    /// Seed of the random split; drawn when absent (and shown, so the split can be replayed).
    pub seed: Option<u64>,
    /// `false` (default): preview only; `true`: create the sections and move the entrants.
    pub apply: Option<bool>,
}

/// One new section of a split.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SplitSection {
    /// Name.
    pub name: String,
    /// The new section's id (after apply).
    pub section_id: Option<Uuid>,
    /// Entrants, in their new numbering order.
    pub entrants: Vec<SplitEntrant>,
}

/// An entrant in a split.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SplitEntrant {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Name.
    pub name: String,
    /// Rating.
    pub rating: Option<i32>,
}

/// The split, previewed or applied.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SplitOutcome {
    /// The seed used (random method).
    pub seed: u64,
    /// `random` or `rating_snake`.
    pub method: SplitMethod,
    /// Whether the sections were created.
    pub applied: bool,
    /// The new sections.
    pub sections: Vec<SplitSection>,
}

/// Splits a section's entrants into new sections at random (seeded; SPEC §3, seed 004) or by
/// rating snake. A preview changes nothing; `apply` creates the sections with the source's
/// settings and moves entrants and registrations, in one transaction.
pub async fn split(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    input: &SplitInput,
) -> Result<SplitOutcome> {
    use rand_chacha::rand_core::{RngCore as _, SeedableRng as _};
    let mut check = Check::new();
    let names: Vec<String> = input
        .sections
        .iter()
        .map(|n| check.required_text("sections", n, 200))
        .collect();
    if names.len() < 2 {
        check.error("sections", m::CHECK_NAME_LEAST_TWO_NEW.msg());
    }
    let method = check.word(
        "method",
        input.method.as_deref().unwrap_or("random"),
        SplitMethod::ALL,
        SplitMethod::Random,
    );
    check.finish()?;
    let mut tx = pool.begin().await?;
    let source = db::section::find_for_update(&mut tx, input.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    if source.tournament_id != tournament_id {
        return Err(Error::invalid(
            "section_id",
            m::FORM_NOT_SECTION_TOURNAMENT.msg(),
        ));
    }
    access::require(&mut tx, actor, tournament_id, Need::Arbiter).await?;
    if db::round::count(&mut *tx, source.section_id).await? > 0 {
        return Err(Error::conflict(m::STATE_SECTION_HAS_PAIRED_ROUNDS.msg()));
    }
    let mut pool_entrants: Vec<db::entrant::EntrantRow> =
        db::entrant::list(&mut *tx, source.section_id)
            .await?
            .into_iter()
            .filter(|e| e.status == EntrantStatus::Active)
            .collect();
    pool_entrants.sort_by_key(|e| e.seq);
    let seed = input.seed.unwrap_or_else(|| rand_core::OsRng.next_u64());
    let k = names.len();
    let mut groups: Vec<Vec<db::entrant::EntrantRow>> = vec![Vec::new(); k];
    if method == SplitMethod::RatingSnake {
        pool_entrants.sort_by_key(|e| (std::cmp::Reverse(e.rating.unwrap_or(-1)), e.seq));
        for (i, e) in pool_entrants.into_iter().enumerate() {
            let lap = i / k;
            let pos = i % k;
            groups[if lap.is_multiple_of(2) {
                pos
            } else {
                k - 1 - pos
            }]
            .push(e);
        }
    } else {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        for i in (1..pool_entrants.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            pool_entrants.swap(i, j);
        }
        for (i, e) in pool_entrants.into_iter().enumerate() {
            groups[i % k].push(e);
        }
    }
    for g in &mut groups {
        g.sort_by_key(|e| e.seq);
    }
    let apply = input.apply.unwrap_or(false);
    let mut sections = Vec::with_capacity(k);
    for (name, group) in names.iter().zip(&groups) {
        let mut section_id = None;
        if apply {
            let mut row = source.clone();
            row.name = name.clone();
            let created = db::section::insert(&mut *tx, &row)
                .await
                .map_err(|e| match &e {
                    sqlx::Error::Database(d)
                        if d.constraint() == Some("section_tournament_id_name_key") =>
                    {
                        Error::invalid(
                            "sections",
                            m::CHECK_SECTION_NAMED_EXISTS.with(&[&format!("{name:?}")]),
                        )
                    }
                    _ => e.into(),
                })?;
            let ids: Vec<Uuid> = group.iter().map(|e| e.entrant_id).collect();
            db::registration::move_to_section(&mut tx, &ids, created.section_id).await?;
            let numbering: Vec<(Uuid, i32)> = ids
                .iter()
                .enumerate()
                .map(|(i, id)| (*id, i as i32 + 1))
                .collect();
            db::entrant::renumber(&mut tx, &numbering).await?;
            section_id = Some(created.section_id);
        }
        sections.push(SplitSection {
            name: name.clone(),
            section_id,
            entrants: group
                .iter()
                .map(|e| SplitEntrant {
                    entrant_id: e.entrant_id,
                    name: e.name.clone(),
                    rating: e.rating,
                })
                .collect(),
        });
    }
    let outcome = SplitOutcome {
        seed,
        method,
        applied: apply,
        sections,
    };
    if apply {
        access::audit(
            &mut tx,
            tournament_id,
            Some(actor),
            Change {
                action: "split",
                entity: "section",
                entity_id: Some(source.section_id),
                before: None,
                after: serde_json::to_value(&outcome).ok(),
            },
        )
        .await?;
        tx.commit().await?;
    }
    Ok(outcome)
}
