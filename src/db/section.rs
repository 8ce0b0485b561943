//! Sections (组别).

use crate::vocab::{
    EntryType, PairingSystem, RoundOneOrder, SectionStatus, SelfReport, SetupMode, Unplayed,
};
use serde_json::Value;
use sqlx::PgExecutor;
use uuid::Uuid;

/// A section row.
#[derive(Debug, Clone)]
pub struct SectionRow {
    /// Id.
    pub section_id: Uuid,
    /// Tournament.
    pub tournament_id: Uuid,
    /// Name.
    pub name: String,
    /// The pairing system.
    pub pairing_system: PairingSystem,
    /// Rounds.
    pub rounds: i32,
    /// Individual or doubles.
    pub entry_type: EntryType,
    /// Points in tenths.
    pub points_win: i32,
    /// Points in tenths.
    pub points_draw: i32,
    /// Points in tenths.
    pub points_loss: i32,
    /// Points in tenths.
    pub points_bye: i32,
    /// Points in tenths.
    pub points_forfeit_win: i32,
    /// Tiebreak keys after PTS.
    pub tiebreaks: Vec<String>,
    /// Unplayed-round mode.
    pub unplayed_mode: Unplayed,
    /// Fouls in one game that lose it.
    pub foul_threshold: i32,
    /// How round 1 numbers the entrants.
    pub round1_order: RoundOneOrder,
    /// Whether board 1 of round 1 gives Red to the higher-placed entrant.
    pub first_board_red: bool,
    /// Whether a forfeited pairing counts as having met.
    pub forfeit_counts_as_met: bool,
    /// Avoid pairing club mates.
    pub avoid_same_club: bool,
    /// Pair only checked-in entrants in round 1.
    pub pair_checked_in_only: bool,
    /// Cap.
    pub cap: Option<i32>,
    /// Minimum entries.
    pub min_entries: Option<i32>,
    /// Registration opens.
    pub registration_opens_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Registration closes.
    pub registration_closes_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Payment required to confirm.
    pub payment_required: bool,
    /// Fee tiers.
    pub fee_tiers: Value,
    /// Eligibility rules.
    pub eligibility: Value,
    /// Rounds by entry count (a JSON list of `{min, max, rounds}`; empty: `rounds`).
    pub rounds_by_entries: Value,
    /// How rounds get their hidden-piece set-ups.
    pub setup_mode: SetupMode,
    /// Open, running, finished, cancelled.
    pub status: SectionStatus,
    /// What agreeing self-reports do.
    pub self_report: SelfReport,
    /// Created.
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// Last changed.
    pub updated_at: chrono::DateTime<chrono::Utc>,
    /// Version of the settings, for compare-and-set (bumped by [`update`] only).
    pub version: i32,
}

/// Inserts a section (every column but the id) and returns it.
pub async fn insert(db: impl PgExecutor<'_>, s: &SectionRow) -> sqlx::Result<SectionRow> {
    sqlx::query_as!(
        SectionRow,
        "insert into section (tournament_id, name, pairing_system, rounds, entry_type, points_win, points_draw,
            points_loss, points_bye, points_forfeit_win, tiebreaks, unplayed_mode, foul_threshold, round1_order,
            first_board_red, forfeit_counts_as_met, avoid_same_club, pair_checked_in_only, cap, min_entries,
            registration_opens_at, registration_closes_at, payment_required, fee_tiers, eligibility, setup_mode, status, self_report,
            rounds_by_entries)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                 $21, $22, $23, $24, $25, $26, $27, $28, $29)
         returning section_id, tournament_id, name, pairing_system as \"pairing_system: PairingSystem\", rounds,
            entry_type as \"entry_type: EntryType\", points_win, points_draw, points_loss, points_bye,
            points_forfeit_win, tiebreaks, unplayed_mode as \"unplayed_mode: Unplayed\", foul_threshold,
            round1_order as \"round1_order: RoundOneOrder\", first_board_red,
            forfeit_counts_as_met, avoid_same_club, pair_checked_in_only, cap, min_entries,
            registration_opens_at, registration_closes_at, payment_required, fee_tiers, eligibility, rounds_by_entries,
            setup_mode as \"setup_mode: SetupMode\", self_report as \"self_report: SelfReport\", status as \"status: SectionStatus\", created_at,
            updated_at, version",
        s.tournament_id,
        s.name,
        s.pairing_system as PairingSystem,
        s.rounds,
        s.entry_type as EntryType,
        s.points_win,
        s.points_draw,
        s.points_loss,
        s.points_bye,
        s.points_forfeit_win,
        &s.tiebreaks,
        s.unplayed_mode as Unplayed,
        s.foul_threshold,
        s.round1_order as RoundOneOrder,
        s.first_board_red,
        s.forfeit_counts_as_met,
        s.avoid_same_club,
        s.pair_checked_in_only,
        s.cap,
        s.min_entries,
        s.registration_opens_at,
        s.registration_closes_at,
        s.payment_required,
        s.fee_tiers,
        s.eligibility,
        s.setup_mode as SetupMode,
        s.status as SectionStatus,
        s.self_report as SelfReport,
        s.rounds_by_entries
    )
    .fetch_one(db)
    .await
}

/// Rewrites a section's settings.
pub async fn update(db: impl PgExecutor<'_>, s: &SectionRow) -> sqlx::Result<SectionRow> {
    sqlx::query_as!(
        SectionRow,
        "update section set name = $2, pairing_system = $3, rounds = $4, entry_type = $5, points_win = $6,
            points_draw = $7, points_loss = $8, points_bye = $9, points_forfeit_win = $10, tiebreaks = $11,
            unplayed_mode = $12, foul_threshold = $13, round1_order = $14, first_board_red = $15,
            forfeit_counts_as_met = $16, avoid_same_club = $17, pair_checked_in_only = $18, cap = $19,
            min_entries = $20, registration_opens_at = $21, registration_closes_at = $22, payment_required = $23,
            fee_tiers = $24, eligibility = $25, setup_mode = $26, status = $27, self_report = $28,
            rounds_by_entries = $29, version = version + 1
         where section_id = $1
         returning section_id, tournament_id, name, pairing_system as \"pairing_system: PairingSystem\", rounds,
            entry_type as \"entry_type: EntryType\", points_win, points_draw, points_loss, points_bye,
            points_forfeit_win, tiebreaks, unplayed_mode as \"unplayed_mode: Unplayed\", foul_threshold,
            round1_order as \"round1_order: RoundOneOrder\", first_board_red,
            forfeit_counts_as_met, avoid_same_club, pair_checked_in_only, cap, min_entries,
            registration_opens_at, registration_closes_at, payment_required, fee_tiers, eligibility, rounds_by_entries,
            setup_mode as \"setup_mode: SetupMode\", self_report as \"self_report: SelfReport\", status as \"status: SectionStatus\", created_at,
            updated_at, version",
        s.section_id,
        s.name,
        s.pairing_system as PairingSystem,
        s.rounds,
        s.entry_type as EntryType,
        s.points_win,
        s.points_draw,
        s.points_loss,
        s.points_bye,
        s.points_forfeit_win,
        &s.tiebreaks,
        s.unplayed_mode as Unplayed,
        s.foul_threshold,
        s.round1_order as RoundOneOrder,
        s.first_board_red,
        s.forfeit_counts_as_met,
        s.avoid_same_club,
        s.pair_checked_in_only,
        s.cap,
        s.min_entries,
        s.registration_opens_at,
        s.registration_closes_at,
        s.payment_required,
        s.fee_tiers,
        s.eligibility,
        s.setup_mode as SetupMode,
        s.status as SectionStatus,
        s.self_report as SelfReport,
        s.rounds_by_entries
    )
    .fetch_one(db)
    .await
}

/// One section.
pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<SectionRow>> {
    sqlx::query_as!(
        SectionRow,
        "select section_id, tournament_id, name, pairing_system as \"pairing_system: PairingSystem\", rounds,
            entry_type as \"entry_type: EntryType\", points_win, points_draw, points_loss, points_bye,
            points_forfeit_win, tiebreaks, unplayed_mode as \"unplayed_mode: Unplayed\", foul_threshold,
            round1_order as \"round1_order: RoundOneOrder\", first_board_red,
            forfeit_counts_as_met, avoid_same_club, pair_checked_in_only, cap, min_entries,
            registration_opens_at, registration_closes_at, payment_required, fee_tiers, eligibility, rounds_by_entries,
            setup_mode as \"setup_mode: SetupMode\", self_report as \"self_report: SelfReport\", status as \"status: SectionStatus\", created_at,
            updated_at, version
         from section where section_id = $1",
        id
    )
    .fetch_optional(db)
    .await
}

/// One section, locked for the rest of the transaction: pairing, unpairing and the other
/// changes of a section run one at a time, and after the results being entered (which hold
/// the section's advisory lock shared, `db::round::store_result`). The exclusive advisory
/// lock comes first, so every statement after this one sees those results.
pub async fn find_for_update(
    conn: &mut sqlx::PgConnection,
    id: Uuid,
) -> sqlx::Result<Option<SectionRow>> {
    sqlx::query("select pg_advisory_xact_lock(section_lock_key($1))")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    sqlx::query_as!(
        SectionRow,
        "select section_id, tournament_id, name, pairing_system as \"pairing_system: PairingSystem\", rounds,
            entry_type as \"entry_type: EntryType\", points_win, points_draw, points_loss, points_bye,
            points_forfeit_win, tiebreaks, unplayed_mode as \"unplayed_mode: Unplayed\", foul_threshold,
            round1_order as \"round1_order: RoundOneOrder\", first_board_red,
            forfeit_counts_as_met, avoid_same_club, pair_checked_in_only, cap, min_entries,
            registration_opens_at, registration_closes_at, payment_required, fee_tiers, eligibility, rounds_by_entries,
            setup_mode as \"setup_mode: SetupMode\", self_report as \"self_report: SelfReport\", status as \"status: SectionStatus\", created_at,
            updated_at, version
         from section where section_id = $1 for update",
        id
    )
    .fetch_optional(&mut *conn)
    .await
}

/// The sections of a tournament, by name.
pub async fn list(db: impl PgExecutor<'_>, tournament_id: Uuid) -> sqlx::Result<Vec<SectionRow>> {
    sqlx::query_as!(
        SectionRow,
        "select section_id, tournament_id, name, pairing_system as \"pairing_system: PairingSystem\", rounds,
            entry_type as \"entry_type: EntryType\", points_win, points_draw, points_loss, points_bye,
            points_forfeit_win, tiebreaks, unplayed_mode as \"unplayed_mode: Unplayed\", foul_threshold,
            round1_order as \"round1_order: RoundOneOrder\", first_board_red,
            forfeit_counts_as_met, avoid_same_club, pair_checked_in_only, cap, min_entries,
            registration_opens_at, registration_closes_at, payment_required, fee_tiers, eligibility, rounds_by_entries,
            setup_mode as \"setup_mode: SetupMode\", self_report as \"self_report: SelfReport\", status as \"status: SectionStatus\", created_at,
            updated_at, version
         from section where tournament_id = $1 order by created_at, name",
        tournament_id
    )
    .fetch_all(db)
    .await
}

/// Sets a section's status (it follows the event: pairing, the last round); bumps the
/// settings' version, so a settings form filled before cannot put the old status back.
pub async fn set_status(
    db: impl PgExecutor<'_>,
    id: Uuid,
    status: SectionStatus,
) -> sqlx::Result<()> {
    sqlx::query("update section set status = $2, version = version + 1 where section_id = $1")
        .bind(id)
        .bind(status)
        .execute(db)
        .await?;
    Ok(())
}

/// The statuses of a tournament's sections.
pub async fn statuses(
    db: impl PgExecutor<'_>,
    tournament_id: Uuid,
) -> sqlx::Result<Vec<SectionStatus>> {
    sqlx::query_scalar::<_, SectionStatus>("select status from section where tournament_id = $1")
        .bind(tournament_id)
        .fetch_all(db)
        .await
}

/// Fixes a section's number of rounds (from its table by entry count, at round 1).
pub async fn set_rounds(db: impl PgExecutor<'_>, id: Uuid, rounds: i32) -> sqlx::Result<()> {
    sqlx::query("update section set rounds = $2, version = version + 1 where section_id = $1")
        .bind(id)
        .bind(rounds)
        .execute(db)
        .await?;
    Ok(())
}

/// Sections whose status says `running` though their last round is played and completed, or
/// `finished` though it is not: a server killed between a result's commit and the section's
/// follow-up (`service::rounds::follow_last_round`) leaves one behind.
pub async fn out_of_step(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar::<_, Uuid>(
        "select s.section_id from section s
           left join lateral (select r.number, r.status from round r
                               where r.section_id = s.section_id
                               order by r.number desc limit 1) last on true
          where s.status in ('running', 'finished')
            and (s.status = 'finished')
                <> coalesce(last.number >= s.rounds and last.status = 'completed', false)",
    )
    .fetch_all(db)
    .await
}
