//! Issue #40, part A: a knockout played like the Swiss rounds.
//!
//! - **Rules per stage** (one knockout round; the 3rd-place match follows the final's): what
//!   happens to a captured hidden piece (seed 001 §3.2.4: the capturer may look, or it stays
//!   face down for both), the time control, and the tiebreak games that follow a tied match.
//!   The arbiter sets them; the bracket, its print and the match slips show them, and the
//!   tiebreak chain is the one the core plays the stage's matches by.
//! - **Set-ups**: drawn per game (each match game its own, as before) or in duplicate per
//!   knockout round (every match of the round plays the same set-up for a game number; the
//!   regular games' set-ups are drawn together when the round's first match falls due, each
//!   tiebreak game's when it does). Committed publicly before play, revealed to everyone when
//!   the match is decided (per game) or every match of the round is (duplicate).

use super::access::{self, Change, Need};
use super::check::Check;
use super::setups::{self, SetupView};
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::knockout::{BracketRow, MatchGameRow, MatchRow};
use crate::db::knockout_stage::StageRow;
use crate::db::setup::SetupRow;
use crate::i18n::messages as m;
use crate::vocab::{self, CaptureRule, GameKind, KnockoutSetupMode};
use arbiter_core::knockout::{MatchRules, OpenColours, TiebreakKind, TiebreakStage};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

/// Kinds of tiebreak game a stage may have (at most this many lines).
const MAX_TIEBREAK_LINES: usize = 6;

/// One line of a stage's tiebreak chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TiebreakLine {
    /// `rapid` (a draw leads to the next game) or `armageddon` (a draw is a win for Black;
    /// nothing may follow it).
    pub kind: String,
    /// Games of this kind at most (the first decisive one ends the match), 1–9.
    pub games: i64,
    /// Time control as shown to the players, e.g. `10+5`.
    pub time_control: String,
}

/// The rules of one knockout round as shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StageRules {
    /// Knockout round (1 = first; the 3rd-place match plays by the final's).
    pub round: i32,
    /// `capturer_sees` (the capturing player may look at a captured hidden piece) or
    /// `face_down` (it is turned face down at once; neither side may look).
    pub capture_rule: CaptureRule,
    /// Time control of the regular games (empty: not set).
    pub time_control: String,
    /// Tiebreak games after a tied match, in order; after the last the match goes by lot.
    pub tiebreaks: Vec<TiebreakLine>,
    /// Whether `tiebreaks` is the default chain (one rapid game, then an armageddon).
    pub default_tiebreaks: bool,
    /// Version for compare-and-set (0 until first set).
    pub version: i32,
}

/// New rules for a knockout round. Fields left out keep their value.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StageInput {
    /// `capturer_sees` or `face_down`.
    pub capture_rule: Option<String>,
    /// Time control of the regular games (at most 60 characters; empty clears it).
    pub time_control: Option<String>,
    /// The tiebreak chain (an empty list: the lot decides a tied match); refused once a
    /// tiebreak game of the round is played.
    pub tiebreaks: Option<Vec<TiebreakLine>>,
    /// Restore the default tiebreak chain.
    pub default_tiebreaks: Option<bool>,
    /// The version last read; a stale one is refused with 409.
    pub version: Option<i32>,
}

fn default_lines(best_of: u32) -> Vec<TiebreakLine> {
    MatchRules::best_of(best_of)
        .tiebreaks
        .iter()
        .map(line_of)
        .collect()
}

fn line_of(stage: &TiebreakStage) -> TiebreakLine {
    TiebreakLine {
        kind: match stage.kind {
            TiebreakKind::Armageddon => "armageddon",
            TiebreakKind::Rapid | TiebreakKind::Blitz => "rapid",
        }
        .into(),
        games: i64::from(stage.max_games),
        time_control: stage.time_control.clone(),
    }
}

fn stage_of(line: &TiebreakLine) -> TiebreakStage {
    let armageddon = line.kind == "armageddon";
    TiebreakStage {
        kind: if armageddon {
            TiebreakKind::Armageddon
        } else {
            TiebreakKind::Rapid
        },
        max_games: u32::try_from(line.games.clamp(1, 9)).unwrap_or(1),
        time_control: line.time_control.clone(),
        // An armageddon's colours by lot; rapid games swap from the game before.
        colours: armageddon.then_some(OpenColours::ByLot),
    }
}

fn stored_lines(row: &StageRow) -> Option<Vec<TiebreakLine>> {
    row.tiebreaks
        .as_ref()
        .and_then(|v| serde_json::from_value(v.clone()).ok())
}

/// The rules of round `round` of a bracket (defaults where the arbiter set none).
pub fn rules_of(rows: &[StageRow], best_of: i32, round: i32) -> StageRules {
    let best_of = u32::try_from(best_of).unwrap_or(1);
    match rows.iter().find(|r| r.round == round) {
        Some(row) => {
            let stored = stored_lines(row);
            StageRules {
                round,
                capture_rule: row.capture_rule,
                time_control: row.time_control.clone(),
                default_tiebreaks: stored.is_none(),
                tiebreaks: stored.unwrap_or_else(|| default_lines(best_of)),
                version: row.version,
            }
        }
        None => StageRules {
            round,
            capture_rule: CaptureRule::CapturerSees,
            time_control: String::new(),
            tiebreaks: default_lines(best_of),
            default_tiebreaks: true,
            version: 0,
        },
    }
}

/// The core's match rules for a match of round `round`: the bracket's, with the stage's
/// tiebreak chain.
pub fn match_rules(mut rules: MatchRules, rows: &[StageRow], round: i32) -> MatchRules {
    if let Some(lines) = rows
        .iter()
        .find(|r| r.round == round)
        .and_then(stored_lines)
    {
        rules.tiebreaks = lines.iter().map(stage_of).collect();
    }
    rules
}

/// Checks a tiebreak chain (every line's kind, games and time control; nothing after an
/// armageddon).
fn check_lines(lines: &[TiebreakLine], check: &mut Check) -> Vec<TiebreakLine> {
    if lines.len() > MAX_TIEBREAK_LINES {
        check.error(
            "tiebreaks",
            m::CHECK_BETWEEN.with(&[&0, &MAX_TIEBREAK_LINES]),
        );
    }
    let mut out = Vec::new();
    let mut after_armageddon = false;
    for (i, line) in lines.iter().enumerate() {
        if after_armageddon {
            check.error(
                &format!("tiebreaks[{i}]"),
                m::CHECK_KO_AFTER_ARMAGEDDON.msg(),
            );
        }
        if line.kind != "rapid" && line.kind != "armageddon" {
            check.error(
                &format!("tiebreaks[{i}].kind"),
                m::CHECK_KO_TIEBREAK_KIND.msg(),
            );
        }
        after_armageddon |= line.kind == "armageddon";
        let games = check.range(&format!("tiebreaks[{i}].games"), line.games, 1, 9);
        let time_control = check.required_text(
            &format!("tiebreaks[{i}].time_control"),
            &line.time_control,
            40,
        );
        out.push(TiebreakLine {
            kind: line.kind.clone(),
            games: i64::from(games),
            time_control,
        });
    }
    out
}

/// Reads the dashboard's tiebreak lines (`rapid 2 10+5`, one per line) into a chain, each
/// unreadable line a field error on `tiebreaks`.
pub fn parse_lines(text: &str, check: &mut Check) -> Vec<TiebreakLine> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let mut words = line.splitn(3, char::is_whitespace);
        let kind = words.next().unwrap_or_default().to_lowercase();
        let games = words.next().and_then(|g| g.trim().parse::<i64>().ok());
        let time_control = words.next().map(str::trim).unwrap_or_default();
        match games {
            Some(games) if !time_control.is_empty() => out.push(TiebreakLine {
                kind,
                games,
                time_control: time_control.to_string(),
            }),
            _ => check.error("tiebreaks", m::CHECK_KO_TIEBREAK_LINE.msg()),
        }
    }
    out
}

/// The dashboard's text of a chain (`rapid 1 10+5`, one line each).
pub fn lines_text(lines: &[TiebreakLine]) -> String {
    lines
        .iter()
        .map(|l| format!("{} {} {}", l.kind, l.games, l.time_control))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Sets the rules of knockout round `round` of a section's bracket (arbiters).
pub async fn set_stage(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    round: i32,
    input: &StageInput,
) -> Result<StageRules> {
    let mut check = Check::new();
    let capture_rule = input.capture_rule.as_deref().map(|w| {
        check.word(
            "capture_rule",
            w,
            CaptureRule::ALL,
            CaptureRule::CapturerSees,
        )
    });
    let time_control = input.time_control.as_deref().map(|t| {
        check
            .optional_text("time_control", Some(t), 60)
            .unwrap_or_default()
    });
    let lines = input
        .tiebreaks
        .as_deref()
        .map(|lines| check_lines(lines, &mut check));
    check.finish()?;
    let mut tx = pool.begin().await?;
    let section = db::section::find(&mut *tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let bracket = db::knockout::bracket_of_section(&mut *tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_KNOCKOUT_STAGE))?;
    // The bracket's lock orders this change with the games recorded in it.
    let bracket = db::knockout::bracket_for_update(&mut *tx, bracket.bracket_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_BRACKET))?;
    let rounds = rounds_of(bracket.size);
    if !(1..=rounds).contains(&round) {
        return Err(Error::invalid(
            "round",
            m::CHECK_KO_NO_ROUND.with(&[&rounds]),
        ));
    }
    let existing =
        db::knockout_stage::stage_for_update(&mut *tx, bracket.bracket_id, round).await?;
    let current_version = existing.as_ref().map_or(0, |r| r.version);
    if let Some(expected) = input.version {
        if expected != current_version {
            return Err(Error::conflict(
                m::STALE_KO_STAGE.with(&[&current_version, &expected]),
            ));
        }
    }
    let before = rules_of(existing.as_slice(), bracket.best_of, round);
    let kept = existing.as_ref().and_then(|r| r.tiebreaks.clone());
    let (tiebreaks, chain_changes) = if input.default_tiebreaks == Some(true) {
        let best_of = u32::try_from(bracket.best_of).unwrap_or(1);
        (None, default_lines(best_of) != before.tiebreaks)
    } else if let Some(lines) = lines.filter(|l| *l != before.tiebreaks) {
        let value = serde_json::to_value(&lines).map_err(|e| Error::Internal(e.to_string()))?;
        (Some(value), true)
    } else {
        // The same chain as now (a form sends it back with every change): kept as it is.
        (kept, false)
    };
    if chain_changes {
        let games = db::knockout::games(&mut *tx, bracket.bracket_id).await?;
        let matches = db::knockout::matches(&mut *tx, bracket.bracket_id).await?;
        let played = games.iter().any(|g| {
            g.kind != GameKind::Regular
                && matches
                    .iter()
                    .any(|m| m.match_id == g.match_id && m.round == round)
        });
        if played {
            return Err(Error::conflict(
                m::STATE_KO_TIEBREAKS_PLAYED.with(&[&round]),
            ));
        }
    }
    let row = StageRow {
        bracket_id: bracket.bracket_id,
        round,
        capture_rule: capture_rule.unwrap_or(before.capture_rule),
        time_control: time_control.unwrap_or_else(|| before.time_control.clone()),
        tiebreaks,
        version: current_version,
    };
    let version = db::knockout_stage::upsert_stage(&mut *tx, &row).await?;
    let after = rules_of(&[StageRow { version, ..row }], bracket.best_of, round);
    access::audit(
        &mut tx,
        bracket.tournament_id,
        Some(actor),
        Change {
            action: "stage_rules",
            entity: "knockout",
            entity_id: Some(bracket.bracket_id),
            before: Some(json!({"round": round, "capture_rule": before.capture_rule,
                "time_control": before.time_control, "tiebreaks": before.tiebreaks})),
            after: Some(json!({"round": round, "capture_rule": after.capture_rule,
                "time_control": after.time_control, "tiebreaks": after.tiebreaks})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(after)
}

/// Rounds of a bracket of `size` entrants.
pub fn rounds_of(size: i32) -> i32 {
    let mut rounds = 0;
    while (1 << rounds) < size.max(1) {
        rounds += 1;
    }
    rounds
}

/// Every round's rules (defaults filled in).
pub async fn all_rules(conn: &mut PgConnection, bracket: &BracketRow) -> Result<Vec<StageRules>> {
    let rows = db::knockout_stage::stages(&mut *conn, bracket.bracket_id).await?;
    Ok((1..=rounds_of(bracket.size))
        .map(|r| rules_of(&rows, bracket.best_of, r))
        .collect())
}

// ---------------------------------------------------------------- set-ups

/// A duplicate set-up of a knockout round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundSetup {
    /// Knockout round (the 3rd-place match shares the final's).
    pub round: i32,
    /// Game number within each match of the round (tiebreak games follow the regular ones).
    pub game: i32,
    /// Revealed to everyone: every match of the round is decided.
    pub revealed: bool,
    /// The commitment, and the set-up once revealed (or to arbiters).
    pub setup: SetupView,
}

/// What the bracket's set-ups are, loaded once for a view.
pub struct BracketSetups {
    /// How they are drawn.
    pub mode: KnockoutSetupMode,
    /// Per-game set-ups (played and pending), by match and game.
    pub per_game: Vec<SetupRow>,
    /// Duplicate set-ups: (round, game, set-up).
    pub duplicates: Vec<db::knockout_stage::RoundSetup>,
}

impl BracketSetups {
    /// Loads them.
    pub async fn load(conn: &mut PgConnection, bracket_id: Uuid) -> Result<BracketSetups> {
        Ok(BracketSetups {
            mode: db::knockout_stage::setup_mode(&mut *conn, bracket_id).await?,
            per_game: db::setup::of_bracket(&mut *conn, bracket_id).await?,
            duplicates: db::knockout_stage::duplicates(&mut *conn, bracket_id).await?,
        })
    }

    /// The set-up a played game was played from.
    pub fn of_game(&self, m: &MatchRow, g: &MatchGameRow) -> Option<&SetupRow> {
        match self.mode {
            KnockoutSetupMode::PerGame => {
                self.per_game.iter().find(|s| s.game_id == Some(g.game_id))
            }
            KnockoutSetupMode::Duplicate => self.duplicate(m.round, g.number),
        }
    }

    /// The set-up of a match's next game (number `number`), once drawn.
    pub fn of_next(&self, m: &MatchRow, number: i32) -> Option<&SetupRow> {
        match self.mode {
            KnockoutSetupMode::PerGame => self
                .per_game
                .iter()
                .find(|s| s.match_id == Some(m.match_id) && s.game_id.is_none()),
            KnockoutSetupMode::Duplicate => self.duplicate(m.round, number),
        }
    }

    fn duplicate(&self, round: i32, game: i32) -> Option<&SetupRow> {
        self.duplicates
            .iter()
            .find(|(r, n, _)| *r == round && *n == game)
            .map(|(_, _, s)| s)
    }
}

/// Whether a match's set-ups are public: the match is decided (per game), or every match of
/// its round is (duplicate).
pub fn revealed(mode: KnockoutSetupMode, matches: &[MatchRow], m: &MatchRow) -> bool {
    match mode {
        KnockoutSetupMode::PerGame => m.winner_entrant_id.is_some(),
        KnockoutSetupMode::Duplicate => round_decided(matches, m.round),
    }
}

/// Every match of knockout round `round` (the 3rd-place match with the final) is decided.
pub fn round_decided(matches: &[MatchRow], round: i32) -> bool {
    matches
        .iter()
        .filter(|x| x.round == round)
        .all(|x| x.winner_entrant_id.is_some())
}

/// Draws what a match's next game (number `number`) needs: its own set-up (per game), or the
/// round's (duplicate: the regular games' together, a tiebreak game's by its number).
pub async fn draw_for_next_game(
    conn: &mut PgConnection,
    (section_id, game): (Uuid, vocab::Game),
    bracket: &BracketRow,
    mode: KnockoutSetupMode,
    m: &MatchRow,
    number: i32,
) -> Result<()> {
    match mode {
        KnockoutSetupMode::PerGame => {
            setups::create_for_match(&mut *conn, section_id, game, m.match_id).await
        }
        KnockoutSetupMode::Duplicate => {
            let Some(variant) = setups::variant(game) else {
                return Ok(());
            };
            let last = number.max(bracket.best_of);
            let first = if number > bracket.best_of { number } else { 1 };
            for n in first..=last {
                let row = setups::draw_row(variant);
                db::knockout_stage::insert_duplicate(
                    &mut *conn,
                    section_id,
                    bracket.bracket_id,
                    (m.round, n),
                    &row,
                )
                .await?;
            }
            Ok(())
        }
    }
}

/// The duplicate set-ups of a bracket as shown.
pub fn round_setups(
    setups: &BracketSetups,
    matches: &[MatchRow],
    arbiter: bool,
) -> Vec<RoundSetup> {
    setups
        .duplicates
        .iter()
        .map(|(round, game, row)| {
            let revealed = round_decided(matches, *round);
            RoundSetup {
                round: *round,
                game: *game,
                revealed,
                setup: setups::view(row, None, revealed || arbiter),
            }
        })
        .collect()
}
