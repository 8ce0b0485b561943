//! Sections (组别): settings of pairing, scoring, tiebreaks and registration.

use super::access::{self, Change, Need};
use super::check::{points_to_tenths, Check};
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::section::SectionRow;
use crate::i18n::messages::{self as m, Msg};
use crate::vocab::{
    EntryType, Game, PairingSystem, RoundOneOrder, SectionStatus, SelfReport, SetupMode, Unplayed,
};
use arbiter_core::model::{Points, Scoring};
use arbiter_core::standings::{Preset, StandingsOptions, TiebreakKey};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

/// Points per result, as decimals (`2`, `1`, `0`; `1`, `0.5`, `0`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoringInput {
    /// A win.
    pub win: f64,
    /// A draw.
    pub draw: f64,
    /// A loss.
    pub loss: f64,
    /// A pairing-allocated bye (default: a win).
    pub bye: Option<f64>,
    /// A forfeit win (default: a win).
    pub forfeit_win: Option<f64>,
}

/// One row of a section's table of rounds by entry count: `min` to `max` entrants (no `max`:
/// and more) play `rounds` rounds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundsByEntries {
    /// Fewest entrants of the row.
    pub min: i32,
    /// Most entrants of the row; `null`: no upper bound (the last row only).
    pub max: Option<i32>,
    /// Rounds played.
    pub rounds: i32,
}

/// The rounds a table by entry count gives `entries` entrants; `None` when no row covers it.
pub fn rounds_for(table: &[RoundsByEntries], entries: i32) -> Option<i32> {
    table
        .iter()
        .find(|row| row.min <= entries && row.max.is_none_or(|max| entries <= max))
        .map(|row| row.rounds)
}

/// A fee tier, e.g. member 10, non-member 20.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeeTier {
    /// Name shown on the form.
    pub name: String,
    /// Amount in whole units of `currency`.
    pub amount: i64,
    /// The currency, an ISO 4217 code (`CAD`, `HKD`, `TWD`); empty when not said (the
    /// organiser's usual one). Not sent when empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub currency: String,
}

impl FeeTier {
    /// The tier as a form offers it: "Member 10 CAD", "會員 10".
    pub fn label(&self) -> String {
        if self.currency.is_empty() {
            format!("{} ({})", self.name, self.amount)
        } else {
            format!("{} ({} {})", self.name, self.amount, self.currency)
        }
    }
}

/// Settings of a new section, or changes to one (absent fields stay as they are).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SectionInput {
    /// Name (required on create).
    pub name: Option<String>,
    /// `chinese` (default), `dutch` or `round_robin`.
    pub pairing_system: Option<String>,
    /// Number of rounds (required on create).
    pub rounds: Option<i64>,
    /// `individual` (default), `doubles` or `team` (issue #41: then `team` gives the boards,
    /// reserves and team tie-breaks, and `scoring` is the match points).
    pub entry_type: Option<String>,
    /// A team section's settings (boards, reserves, team tie-breaks, a bye's board points).
    pub team: Option<super::teams::TeamSettingsInput>,
    /// Points per result (default 2/1/0, bye and forfeit win 2).
    pub scoring: Option<ScoringInput>,
    /// Tiebreak keys after points, e.g. `["OPP","PS","WIN","FOULS","PREV"]`.
    pub tiebreaks: Option<Vec<String>>,
    /// A named chain instead of `tiebreaks`: `cxa2011_opp`, `cxa2011_prog`, `seed002_main`,
    /// `seed002_supp`, `seed004_tw`, `fide_swiss`.
    pub preset: Option<String>,
    /// Unplayed rounds in Buchholz-like keys: `cxa`, `fide2023`, `fide2026`, `none`.
    pub unplayed: Option<String>,
    /// Fouls in one game that lose it (default 2).
    pub foul_threshold: Option<i64>,
    /// Round-1 numbering: `registration` (default), `rating`, `lot`.
    pub round1_order: Option<String>,
    /// Red for the top entrant on board 1 of round 1 (default true).
    pub first_board_red: Option<bool>,
    /// A forfeited pairing counts as having met: the two are never paired again (both
    /// engines and the checker of manual pairings obey it). Default on creation, by pairing
    /// system: `false` for `dutch` (FIDE: a forfeited game was not played; pairings stay
    /// identical to bbpPairings), `true` for `chinese` (SPEC §4) and `round_robin`. Changing
    /// `pairing_system` later keeps the current value unless this field is given too.
    pub forfeit_counts_as_met: Option<bool>,
    /// Avoid pairing club mates.
    pub avoid_same_club: Option<bool>,
    /// Pair only checked-in entrants in round 1.
    pub pair_checked_in_only: Option<bool>,
    /// Maximum confirmed entries; beyond it registrations are waitlisted (0 removes the cap).
    pub cap: Option<i64>,
    /// Minimum entries; below it the section can be cancelled (0 removes it).
    pub min_entries: Option<i64>,
    /// Registration opens.
    pub registration_opens_at: Option<DateTime<Utc>>,
    /// Registration closes.
    pub registration_closes_at: Option<DateTime<Utc>>,
    /// A place is confirmed only once paid.
    pub payment_required: Option<bool>,
    /// Fee tiers.
    pub fee_tiers: Option<Vec<FeeTier>>,
    /// The number of rounds by entry count (seed 004: 5–7 rounds by entries), fixed when
    /// round 1 is paired; rows in order, not overlapping, only the last without `max`.
    /// An empty list: `rounds` as set.
    pub rounds_by_entries: Option<Vec<RoundsByEntries>>,
    /// Hidden-piece set-ups: `none`, `duplicate` (default for Jieqi/Banqi), `per_board`.
    pub setup_mode: Option<String>,
    /// Results the players report themselves: `off`, `desk` (default: agreeing reports wait
    /// in the desk's queue) or `agreement` (accepted as soon as both sides agree).
    pub self_report: Option<String>,
    /// Players may check themselves in with their key, inside the window (issue 36;
    /// changes only).
    pub self_check_in: Option<bool>,
    /// Self check-in opens (`null`: open from now on; absent: unchanged; changes only).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<DateTime<Utc>>)]
    pub check_in_opens_at: Option<Option<DateTime<Utc>>>,
    /// Self check-in closes (`null`: no end; absent: unchanged; changes only).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<DateTime<Utc>>)]
    pub check_in_closes_at: Option<Option<DateTime<Utc>>>,
    /// An entrant absent without notice (a forfeit, no bye asked for) from this many rounds
    /// is withdrawn from pairing when the next round is paired; the desk sees it and can undo
    /// it (0: never; changes only).
    pub absent_withdraw_after: Option<i64>,
    /// How to pay the fee, shown on the registration confirmation with the fee due (changes
    /// only; empty: none).
    pub payment_instructions: Option<String>,
    /// The settings' version last read; a stale one is refused with 409 (changes only).
    pub version: Option<i32>,
}

/// A field that may be sent as `null`: absent is `None`, `null` is `Some(None)`.
fn present<'de, D, T>(deserializer: D) -> std::result::Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// A section's rules for players (`GET /api/v1/sections/{id}/player-rules` and the settings
/// page): self check-in and its window in UTC, the absence rule, the payment instructions.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerRules {
    /// Players may check themselves in with their key.
    pub self_check_in: bool,
    /// Self check-in opens (none: open from now on).
    pub check_in_opens_at: Option<DateTime<Utc>>,
    /// Self check-in closes (none: no end).
    pub check_in_closes_at: Option<DateTime<Utc>>,
    /// Absences without notice that withdraw an entrant from pairing (none: never).
    pub absent_withdraw_after: Option<i32>,
    /// How to pay the fee.
    pub payment_instructions: String,
}

impl From<db::section_rules::SectionRules> for PlayerRules {
    fn from(r: db::section_rules::SectionRules) -> PlayerRules {
        PlayerRules {
            self_check_in: r.self_check_in,
            check_in_opens_at: r.check_in_opens_at,
            check_in_closes_at: r.check_in_closes_at,
            absent_withdraw_after: r.absent_withdraw_after,
            payment_instructions: r.payment_instructions,
        }
    }
}

/// A section's rules for players.
pub async fn player_rules(pool: &PgPool, id: Uuid) -> Result<PlayerRules> {
    Ok(db::section_rules::get(pool, id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?
        .into())
}

/// Applies the rules for players of `input` on top of `rules`, checking them.
fn apply_rules(
    mut rules: db::section_rules::SectionRules,
    input: &SectionInput,
    check: &mut Check,
) -> db::section_rules::SectionRules {
    rules.self_check_in = input.self_check_in.unwrap_or(rules.self_check_in);
    if let Some(at) = input.check_in_opens_at {
        rules.check_in_opens_at = at;
    }
    if let Some(at) = input.check_in_closes_at {
        rules.check_in_closes_at = at;
    }
    if let (Some(open), Some(close)) = (rules.check_in_opens_at, rules.check_in_closes_at) {
        if close <= open {
            check.error(
                "check_in_closes_at",
                m::CHECK_CHECK_IN_CLOSES_AFTER_OPENS.msg(),
            );
        }
    }
    if let Some(n) = input.absent_withdraw_after {
        rules.absent_withdraw_after =
            (n != 0).then(|| check.range("absent_withdraw_after", n, 1, 99));
    }
    if let Some(text) = &input.payment_instructions {
        rules.payment_instructions = check
            .optional_note("payment_instructions", Some(text), 2000)
            .unwrap_or_default();
    }
    rules
}

/// Points per result as the API shows them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScoringView {
    /// A win.
    pub win: f64,
    /// A draw.
    pub draw: f64,
    /// A loss.
    pub loss: f64,
    /// A pairing-allocated bye.
    pub bye: f64,
    /// A forfeit win.
    pub forfeit_win: f64,
}

/// A section as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Section {
    /// Id.
    pub id: Uuid,
    /// Tournament.
    pub tournament_id: Uuid,
    /// Name.
    pub name: String,
    /// Pairing system.
    pub pairing_system: PairingSystem,
    /// Number of rounds.
    pub rounds: i32,
    /// `individual` or `doubles`.
    pub entry_type: EntryType,
    /// Points per result.
    pub scoring: ScoringView,
    /// Tiebreak keys after points.
    pub tiebreaks: Vec<String>,
    /// Unplayed-round mode.
    pub unplayed: Unplayed,
    /// Fouls in one game that lose it.
    pub foul_threshold: i32,
    /// Round-1 numbering.
    pub round1_order: RoundOneOrder,
    /// Red for the top entrant on board 1 of round 1.
    pub first_board_red: bool,
    /// A forfeited pairing counts as having met (never paired again). Created by default
    /// `false` for `dutch` (FIDE, bbpPairings) and `true` for `chinese` (SPEC §4) and
    /// `round_robin`.
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
    pub registration_opens_at: Option<DateTime<Utc>>,
    /// Registration closes.
    pub registration_closes_at: Option<DateTime<Utc>>,
    /// A place is confirmed only once paid.
    pub payment_required: bool,
    /// Fee tiers.
    pub fee_tiers: Vec<FeeTier>,
    /// The number of rounds by entry count, until round 1 is paired (then `rounds` holds the
    /// number it gave).
    pub rounds_by_entries: Vec<RoundsByEntries>,
    /// Hidden-piece set-up mode.
    pub setup_mode: SetupMode,
    /// What agreeing self-reports do.
    pub self_report: SelfReport,
    /// `open`, `running`, `finished`, `cancelled`.
    pub status: SectionStatus,
    /// Version of the settings: send it back (`version` or `If-Match`) with a change, so that
    /// a change made meanwhile by someone else is not overwritten (409).
    pub version: i32,
}

fn decimal(tenths: i32) -> f64 {
    f64::from(tenths) / 10.0
}

impl From<SectionRow> for Section {
    fn from(r: SectionRow) -> Section {
        Section {
            id: r.section_id,
            tournament_id: r.tournament_id,
            name: r.name,
            pairing_system: r.pairing_system,
            rounds: r.rounds,
            entry_type: r.entry_type,
            scoring: ScoringView {
                win: decimal(r.points_win),
                draw: decimal(r.points_draw),
                loss: decimal(r.points_loss),
                bye: decimal(r.points_bye),
                forfeit_win: decimal(r.points_forfeit_win),
            },
            tiebreaks: r.tiebreaks,
            unplayed: r.unplayed_mode,
            foul_threshold: r.foul_threshold,
            round1_order: r.round1_order,
            first_board_red: r.first_board_red,
            forfeit_counts_as_met: r.forfeit_counts_as_met,
            avoid_same_club: r.avoid_same_club,
            pair_checked_in_only: r.pair_checked_in_only,
            cap: r.cap,
            min_entries: r.min_entries,
            registration_opens_at: r.registration_opens_at,
            registration_closes_at: r.registration_closes_at,
            payment_required: r.payment_required,
            fee_tiers: serde_json::from_value(r.fee_tiers).unwrap_or_default(),
            rounds_by_entries: serde_json::from_value(r.rounds_by_entries).unwrap_or_default(),
            setup_mode: r.setup_mode,
            self_report: r.self_report,
            status: r.status,
            version: r.version,
        }
    }
}

/// The section's scoring as the core sees it.
pub fn scoring(row: &SectionRow) -> Scoring {
    let mut scoring = Scoring::from_win_draw_loss(
        Points::from_tenths(row.points_win.into()),
        Points::from_tenths(row.points_draw.into()),
        Points::from_tenths(row.points_loss.into()),
    );
    scoring.pairing_bye = Points::from_tenths(row.points_bye.into());
    scoring.forfeit_win = Points::from_tenths(row.points_forfeit_win.into());
    scoring
}

/// The section's ranking options as the core sees them.
pub fn standings_options(row: &SectionRow) -> StandingsOptions {
    StandingsOptions {
        chain: row
            .tiebreaks
            .iter()
            .filter_map(|k| k.parse::<TiebreakKey>().ok())
            .collect(),
        unplayed: row.unplayed_mode.mode(),
        scoring: Some(scoring(row)),
        ..StandingsOptions::default()
    }
}

/// Whether a forfeited pairing counts as met when the section does not say: not in the
/// Dutch system (FIDE: a forfeited game was not played), yes otherwise (SPEC §4).
pub fn forfeit_default(pairing_system: PairingSystem) -> bool {
    pairing_system != PairingSystem::Dutch
}

/// The longest tiebreak chain a section may have (the presets have fewer than ten keys).
pub const MAX_TIEBREAKS: usize = 20;

/// The tiebreak preset a new section of `pairing_system` gets.
pub fn default_preset(pairing_system: PairingSystem) -> Preset {
    match pairing_system {
        PairingSystem::Dutch => Preset::FideSwiss,
        PairingSystem::Chinese | PairingSystem::RoundRobin => Preset::Cxa2011Opp,
    }
}

/// Applies `input` on top of `row`, checking every field.
fn apply(
    mut row: SectionRow,
    input: &SectionInput,
    creating: bool,
    game: Game,
) -> Result<SectionRow> {
    let mut check = Check::new();
    match (&input.name, creating) {
        (Some(name), _) => row.name = check.required_text("name", name, 200),
        (None, true) => check.error("name", m::CHECK_REQUIRED.msg()),
        (None, false) => {}
    }
    if let Some(system) = &input.pairing_system {
        row.pairing_system = check.word(
            "pairing_system",
            system,
            PairingSystem::ALL,
            row.pairing_system,
        );
    }
    match (input.rounds, creating) {
        (Some(rounds), _) => row.rounds = check.range("rounds", rounds, 1, 99),
        (None, true) => check.error("rounds", m::CHECK_REQUIRED.msg()),
        (None, false) => {}
    }
    if let Some(entry_type) = &input.entry_type {
        row.entry_type = check.word("entry_type", entry_type, EntryType::ALL, row.entry_type);
    }
    if let Some(s) = &input.scoring {
        let mut tenths = |field: &str, value: f64| {
            points_to_tenths(value).unwrap_or_else(|| {
                check.error(field, m::CHECK_MUST_NUMBER_POINTS_BETWEEN.msg());
                0
            })
        };
        row.points_win = tenths("scoring.win", s.win);
        row.points_draw = tenths("scoring.draw", s.draw);
        row.points_loss = tenths("scoring.loss", s.loss);
        row.points_bye = s.bye.map_or(row.points_win, |v| tenths("scoring.bye", v));
        row.points_forfeit_win = s
            .forfeit_win
            .map_or(row.points_win, |v| tenths("scoring.forfeit_win", v));
        if !(row.points_win >= row.points_draw && row.points_draw >= row.points_loss) {
            check.error("scoring", m::CHECK_MUST_SATISFY_WIN_DRAW.msg());
        }
    }
    match (&input.tiebreaks, &input.preset) {
        (Some(_), Some(_)) => check.error("preset", m::CHECK_GIVE_EITHER_TIEBREAKS_PRESET.msg()),
        (Some(keys), None) if keys.len() > MAX_TIEBREAKS => check.error(
            "tiebreaks",
            m::CHECK_TOO_MANY_TIEBREAKS.with(&[&MAX_TIEBREAKS]),
        ),
        (Some(keys), None) => {
            let mut chain = Vec::new();
            for key in keys
                .iter()
                .filter(|k| !k.trim().eq_ignore_ascii_case("PTS"))
            {
                match key.parse::<TiebreakKey>() {
                    Ok(k) => chain.push(k.name()),
                    Err(e) => check.error("tiebreaks", key_error(&e)),
                }
            }
            row.tiebreaks = chain;
        }
        (None, Some(name)) => match name.parse::<Preset>() {
            Ok(preset) => {
                row.tiebreaks = preset.chain().into_iter().map(TiebreakKey::name).collect();
                row.unplayed_mode = Unplayed::of(preset.unplayed_mode());
            }
            Err(e) => check.error("preset", key_error(&e)),
        },
        (None, None) if creating => {
            let preset = default_preset(row.pairing_system);
            row.tiebreaks = preset.chain().into_iter().map(TiebreakKey::name).collect();
            row.unplayed_mode = Unplayed::of(preset.unplayed_mode());
        }
        (None, None) => {}
    }
    if let Some(mode) = &input.unplayed {
        row.unplayed_mode = check.word("unplayed", mode, Unplayed::ALL, row.unplayed_mode);
    }
    if let Some(threshold) = input.foul_threshold {
        row.foul_threshold = check.range("foul_threshold", threshold, 1, 99);
    }
    if let Some(order) = &input.round1_order {
        row.round1_order = check.word("round1_order", order, RoundOneOrder::ALL, row.round1_order);
    }
    row.first_board_red = input.first_board_red.unwrap_or(row.first_board_red);
    row.forfeit_counts_as_met = match input.forfeit_counts_as_met {
        Some(flag) => flag,
        None if creating => forfeit_default(row.pairing_system),
        None => row.forfeit_counts_as_met,
    };
    row.avoid_same_club = input.avoid_same_club.unwrap_or(row.avoid_same_club);
    row.pair_checked_in_only = input
        .pair_checked_in_only
        .unwrap_or(row.pair_checked_in_only);
    row.payment_required = input.payment_required.unwrap_or(row.payment_required);
    if let Some(cap) = input.cap {
        row.cap = (cap != 0).then(|| check.range("cap", cap, 2, 100_000));
    }
    if let Some(min) = input.min_entries {
        row.min_entries = (min != 0).then(|| check.range("min_entries", min, 1, 100_000));
    }
    if let (Some(cap), Some(min)) = (row.cap, row.min_entries) {
        if min > cap {
            check.error("min_entries", m::CHECK_MUST_NOT_EXCEED_CAP.msg());
        }
    }
    if input.registration_opens_at.is_some() {
        row.registration_opens_at = input.registration_opens_at;
    }
    if input.registration_closes_at.is_some() {
        row.registration_closes_at = input.registration_closes_at;
    }
    if let (Some(open), Some(close)) = (row.registration_opens_at, row.registration_closes_at) {
        if close <= open {
            check.error(
                "registration_closes_at",
                m::CHECK_MUST_AFTER_REGISTRATION_OPENS.msg(),
            );
        }
    }
    if let Some(tiers) = &input.fee_tiers {
        let mut tiers_clean = Vec::new();
        for (i, tier) in tiers.iter().enumerate() {
            let field = format!("fee_tiers[{i}].name");
            let name = check.required_text(&field, &tier.name, 100);
            let currency = tier.currency.trim().to_ascii_uppercase();
            let is_code = currency.len() == 3 && currency.bytes().all(|b| b.is_ascii_uppercase());
            if !currency.is_empty() && !is_code {
                check.error(
                    &format!("fee_tiers[{i}].currency"),
                    m::CHECK_MUST_THREE_LETTER_CURRENCY.msg(),
                );
            }
            tiers_clean.push(FeeTier {
                name,
                amount: tier.amount,
                currency,
            });
            if !(0..=1_000_000).contains(&tier.amount) {
                check.error(
                    &format!("fee_tiers[{i}].amount"),
                    m::CHECK_BETWEEN.with(&[&0, &1_000_000]),
                );
            }
        }
        row.fee_tiers = serde_json::to_value(tiers_clean).unwrap_or_default();
    }
    if let Some(table) = &input.rounds_by_entries {
        check_rounds_table(&mut check, table);
        row.rounds_by_entries = serde_json::to_value(table).unwrap_or_default();
    }
    if let Some(mode) = &input.self_report {
        row.self_report = check.word("self_report", mode, SelfReport::ALL, row.self_report);
    }
    match &input.setup_mode {
        Some(mode) => {
            row.setup_mode = check.word("setup_mode", mode, SetupMode::ALL, row.setup_mode)
        }
        None if creating => {
            row.setup_mode = if game == Game::Xiangqi {
                SetupMode::None
            } else {
                SetupMode::Duplicate
            };
        }
        None => {}
    }
    if row.setup_mode != SetupMode::None && game == Game::Xiangqi {
        check.error("setup_mode", m::CHECK_HIDDEN_PIECE_SET_UPS.msg());
    }
    check.finish()?;
    Ok(row)
}

fn new_row(tournament_id: Uuid) -> SectionRow {
    SectionRow {
        section_id: Uuid::nil(),
        tournament_id,
        name: String::new(),
        pairing_system: PairingSystem::Chinese,
        rounds: 1,
        entry_type: EntryType::Individual,
        points_win: 20,
        points_draw: 10,
        points_loss: 0,
        points_bye: 20,
        points_forfeit_win: 20,
        tiebreaks: Vec::new(),
        unplayed_mode: Unplayed::Cxa,
        foul_threshold: 2,
        round1_order: RoundOneOrder::Registration,
        first_board_red: true,
        forfeit_counts_as_met: true,
        avoid_same_club: false,
        pair_checked_in_only: false,
        cap: None,
        min_entries: None,
        registration_opens_at: None,
        registration_closes_at: None,
        payment_required: false,
        fee_tiers: serde_json::json!([]),
        rounds_by_entries: serde_json::json!([]),
        eligibility: serde_json::json!({}),
        setup_mode: SetupMode::None,
        self_report: SelfReport::Desk,
        status: SectionStatus::Open,
        created_at: Utc::now(),
        updated_at: Utc::now(),
        version: 0,
    }
}

/// The message for a tie-break or preset name the core cannot read.
pub(super) fn key_error(error: &arbiter_core::standings::KeyError) -> Msg {
    use arbiter_core::standings::KeyError;
    match error {
        KeyError::Unknown(name) => m::CHECK_UNKNOWN_TIEBREAK.with(&[&format!("{name:?}")]),
        KeyError::BadModifier { name, modifier } => {
            m::CHECK_TIEBREAK_MODIFIER.with(&[&format!("{name:?}"), &format!("{modifier:?}")])
        }
        KeyError::UnknownPreset(name) => m::CHECK_UNKNOWN_PRESET.with(&[&format!("{name:?}")]),
    }
}

fn unique_name(err: sqlx::Error) -> Error {
    match &err {
        sqlx::Error::Database(e) if e.constraint() == Some("section_tournament_id_name_key") => {
            Error::invalid("name", m::CHECK_SECTION_NAME_TAKEN.msg())
        }
        _ => err.into(),
    }
}

/// Creates a section in a tournament.
pub async fn create(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    input: &SectionInput,
) -> Result<Section> {
    let mut tx = pool.begin().await?;
    let tournament = db::tournament::find(&mut *tx, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    access::require(&mut tx, actor, tournament_id, Need::Arbiter).await?;
    let mut check = Check::new();
    let rules = apply_rules(Default::default(), input, &mut check);
    check.finish()?;
    let row = apply(new_row(tournament_id), input, true, tournament.game)?;
    let section = Section::from(
        db::section::insert(&mut *tx, &row)
            .await
            .map_err(unique_name)?,
    );
    if rules != db::section_rules::SectionRules::default() {
        db::section_rules::put(&mut *tx, section.id, &rules).await?;
    }
    let created = db::section::find(&mut *tx, section.id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    super::teams::apply_settings(&mut tx, &created, input.team.as_ref()).await?;
    access::audit(
        &mut tx,
        tournament_id,
        Some(actor),
        Change {
            action: "create",
            entity: "section",
            entity_id: Some(section.id),
            before: None,
            after: serde_json::to_value(&section).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(section)
}

/// One section.
pub async fn get(pool: &PgPool, id: Uuid) -> Result<Section> {
    Ok(Section::from(load(pool, id).await?))
}

/// The raw row of one section.
pub async fn load(pool: &PgPool, id: Uuid) -> Result<SectionRow> {
    db::section::find(pool, id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))
}

/// The sections of a tournament.
pub async fn list(pool: &PgPool, tournament_id: Uuid) -> Result<Vec<Section>> {
    db::tournament::find(pool, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    Ok(db::section::list(pool, tournament_id)
        .await?
        .into_iter()
        .map(Section::from)
        .collect())
}

/// Changes a section's settings. The entry type is fixed once entrants exist, the pairing
/// system once round 1 is paired.
pub async fn update(
    pool: &PgPool,
    actor: &Actor,
    id: Uuid,
    input: &SectionInput,
    expected_version: Option<i32>,
) -> Result<Section> {
    let mut tx = pool.begin().await?;
    // The row lock comes first: the version compared is the one read after any other writer
    // has committed, so of two writers with the same version exactly one gets through.
    let before = db::section::find_for_update(&mut tx, id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, before.tournament_id, Need::Arbiter).await?;
    if let Some(expected) = expected_version.or(input.version) {
        if expected != before.version {
            return Err(Error::conflict(
                m::STALE_SETTINGS.with(&[&before.version, &expected]),
            ));
        }
    }
    let tournament = db::tournament::find(&mut *tx, before.tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    let rules_before = db::section_rules::get(&mut *tx, id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let mut check = Check::new();
    let rules = apply_rules(rules_before.clone(), input, &mut check);
    let row = apply(before.clone(), input, false, tournament.game);
    let row = match (row, check.finish()) {
        (Ok(row), Ok(())) => row,
        // Every refusal at once, by field.
        (
            Err(Error::Invalid {
                mut fields,
                message,
            }),
            Err(Error::Invalid { fields: more, .. }),
        ) => {
            fields.extend(more);
            return Err(Error::Invalid { fields, message });
        }
        (Err(err), _) | (_, Err(err)) => return Err(err),
    };
    let paired = db::round::count(&mut *tx, id).await?;
    if row.entry_type != before.entry_type && db::entrant::count(&mut *tx, id).await? > 0 {
        return Err(Error::invalid(
            "entry_type",
            m::FORM_CANNOT_CHANGE_ONCE_ENTRANTS.msg(),
        ));
    }
    if row.pairing_system != before.pairing_system && paired > 0 {
        return Err(Error::invalid(
            "pairing_system",
            m::FORM_CANNOT_CHANGE_ONCE_ROUND.msg(),
        ));
    }
    if i64::from(row.rounds) < paired {
        return Err(Error::invalid(
            "rounds",
            m::FORM_ROUNDS_ARE_ALREADY_PAIRED.with(&[&paired]),
        ));
    }
    let after = Section::from(
        db::section::update(&mut *tx, &row)
            .await
            .map_err(unique_name)?,
    );
    if rules != rules_before {
        db::section_rules::put(&mut *tx, id, &rules).await?;
    }
    let updated = db::section::find(&mut *tx, id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    super::teams::apply_settings(&mut tx, &updated, input.team.as_ref()).await?;
    let with_rules = |section: &Section, rules: db::section_rules::SectionRules| {
        let mut value = serde_json::to_value(section).ok()?;
        if let (Some(map), Ok(serde_json::Value::Object(more))) = (
            value.as_object_mut(),
            serde_json::to_value(PlayerRules::from(rules)),
        ) {
            map.extend(more);
        }
        Some(value)
    };
    access::audit(
        &mut tx,
        before.tournament_id,
        Some(actor),
        Change {
            action: "update",
            entity: "section",
            entity_id: Some(id),
            before: with_rules(&Section::from(before), rules_before),
            after: with_rules(&after, rules),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(after)
}

/// The data version of a section's pages: the newest audit entry of its tournament (every
/// change is audited in its own transaction), `None` before the first. The live pages'
/// entity tags are built on it.
pub async fn data_version(pool: &PgPool, section_id: Uuid) -> Result<Option<i64>> {
    Ok(db::audit::section_version(pool, section_id).await?)
}

/// A table of rounds by entry count: rows in order, not overlapping, sensible numbers, only
/// the last row open-ended.
fn check_rounds_table(check: &mut Check, table: &[RoundsByEntries]) {
    if table.len() > 20 {
        check.error("rounds_by_entries", m::CHECK_HAS_MORE_THAN_20.msg());
        return;
    }
    let mut last_max: Option<i32> = Some(0);
    for (i, row) in table.iter().enumerate() {
        let field = format!("rounds_by_entries[{i}]");
        if !(1..=30).contains(&row.rounds) {
            check.error(
                &format!("{field}.rounds"),
                m::CHECK_BETWEEN.with(&[&1, &30]),
            );
        }
        if !(2..=100_000).contains(&row.min) {
            check.error(
                &format!("{field}.min"),
                m::CHECK_BETWEEN.with(&[&2, &100_000]),
            );
        }
        if row.max.is_some_and(|max| max < row.min) {
            check.error(&format!("{field}.max"), m::CHECK_MUST_NOT_BELOW_MIN.msg());
        }
        match last_max {
            None => check.error(
                &format!("{field}.min"),
                m::CHECK_FOLLOWS_ROW_WITHOUT_MAX.msg(),
            ),
            Some(previous) if row.min <= previous => check.error(
                &format!("{field}.min"),
                m::CHECK_MUST_ABOVE_PREVIOUS_ROW.msg(),
            ),
            Some(_) => {}
        }
        last_max = row.max;
    }
}
