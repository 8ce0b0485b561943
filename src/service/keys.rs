//! Every player has a key (issue 36): a random private key per entrant (a doubles team is one
//! entrant, so one key per team), 16 characters of Crockford's base32 (80 bits, drawn by the
//! database's strong random source, `new_entrant_key()`), kept in its own table. The key opens
//! the player's own page (`/k/{key}`) and API (`/api/v1/keys/{key}`): this round's board, a
//! report for the key's own side only, self check-in inside the section's window. The desk
//! lists and re-issues keys (the old one stops working). A right key is looked up before any
//! limiter and never counts as an attempt; wrong keys count against the address's report
//! limit (shared with report codes). Keys are never written to the audit log.

use super::access::{self, Change, Need};
use super::check::Check;
use super::reports::{self, ReportBoard, ReportInput, ReportOutcome};
use super::throttle::{self, Limits};
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::key::{CheckInSettings, KeyEntrant};
use crate::i18n::messages as m;
use crate::vocab::{EntrantStatus, RoundStatus, SelfReport, Side};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::PgPool;
use std::net::IpAddr;
use utoipa::ToSchema;
use uuid::Uuid;

/// Crockford's base32 alphabet (no I, L, O, U).
const ALPHABET: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A key as typed or scanned (lower case, dashes, spaces, a URL's last part; `I`/`L` read as
/// 1 and `O` as 0, as Crockford's base32 reads them) in its stored form, or `None`.
pub fn normalise_key(text: &str) -> Option<String> {
    let text = text.trim();
    let text = text.rsplit('/').next().unwrap_or(text);
    if text.len() > 40 {
        return None;
    }
    let key: String = text
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '\u{3000}'))
        .map(|c| match c.to_ascii_uppercase() {
            'I' | 'L' => '1',
            'O' => '0',
            c => c,
        })
        .collect();
    (key.len() == 16 && key.chars().all(|c| ALPHABET.contains(c))).then_some(key)
}

/// A key as printed: four groups of four.
pub fn display_key(key: &str) -> String {
    reports::display_code(key)
}

/// The player's page of a key.
pub fn key_path(key: &str) -> String {
    format!("/k/{key}")
}

/// The one refusal of a key that opens nothing (a guess learns nothing).
fn unknown_key() -> Error {
    Error::NotFound(m::KEY_UNKNOWN)
}

/// The entrant of `key` for a visitor from `ip`: a right key always opens (looked up first,
/// never counted); a wrong one costs an attempt of the address's report limit (429 once it
/// is spent, 404 before).
pub(crate) async fn find(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    key: &str,
) -> Result<KeyEntrant> {
    let key = normalise_key(key);
    let found = match &key {
        Some(key) => db::key::entrant_by_key(pool, key).await?,
        None => None,
    };
    match found {
        Some(entrant) => Ok(entrant),
        None => {
            throttle::report_attempt(pool, limits, ip).await?;
            Err(unknown_key())
        }
    }
}

/// Where an entrant's check-in stands.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CheckInState {
    /// Present at the venue.
    pub checked_in: bool,
    /// Checked in with the key (not at the desk).
    pub by_self: bool,
    /// Whether the section lets players check themselves in.
    pub self_check_in: bool,
    /// The window's start (none: from now).
    pub opens_at: Option<DateTime<Utc>>,
    /// The window's end (none: no end).
    pub closes_at: Option<DateTime<Utc>>,
    /// Whether a key may check in or out now.
    pub open_now: bool,
}

fn window_open(settings: &CheckInSettings, now: DateTime<Utc>) -> bool {
    settings.self_check_in
        && settings.check_in_opens_at.is_none_or(|t| now >= t)
        && settings.check_in_closes_at.is_none_or(|t| now < t)
}

fn check_in_state(entrant: &KeyEntrant) -> CheckInState {
    let settings = CheckInSettings {
        self_check_in: entrant.self_check_in,
        check_in_opens_at: entrant.check_in_opens_at,
        check_in_closes_at: entrant.check_in_closes_at,
    };
    CheckInState {
        checked_in: entrant.checked_in,
        by_self: entrant.checked_in && entrant.checked_in_by_self,
        self_check_in: entrant.self_check_in,
        opens_at: entrant.check_in_opens_at,
        closes_at: entrant.check_in_closes_at,
        open_now: window_open(&settings, Utc::now()),
    }
}

/// The entrant a key opens.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct KeyEntrantView {
    /// Entrant id.
    pub id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// `active` or `withdrawn`.
    pub status: EntrantStatus,
}

/// What a key opens (`GET /api/v1/keys/{key}`): the player's entrant, section, this round's
/// board and check-in.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct KeyView {
    /// The entrant.
    pub entrant: KeyEntrantView,
    /// Tournament.
    pub tournament_id: Uuid,
    /// Tournament name.
    pub tournament_name: String,
    /// The event's time zone (IANA).
    pub time_zone: String,
    /// Section.
    pub section_id: Uuid,
    /// Section name.
    pub section_name: String,
    /// The entrant's board in the latest public round (none before round 1 is published, or
    /// with a bye; `bye_round` says which).
    pub board: Option<ReportBoard>,
    /// The latest public round when the entrant has a bye in it.
    pub bye_round: Option<i32>,
    /// Whether the key may report this board now (the round is being played, no result yet,
    /// the section takes self-reports, and no dispute waits for the desk).
    pub can_report: bool,
    /// A team's key (issue #41): the games of the team's match, board by board, each with
    /// the team's side on it (`side`); the key reports any of them (`game` in the report).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub team_games: Vec<ReportBoard>,
    /// Check-in.
    pub check_in: CheckInState,
}

/// The view of `entrant`.
async fn view_of(pool: &PgPool, entrant: KeyEntrant) -> Result<KeyView> {
    let current = db::report::current_board_of(pool, entrant.entrant_id).await?;
    let current_team = current.as_ref().is_some_and(|b| b.team);
    let (board, bye_round) = match current {
        Some(b) if b.game_id.is_some() => {
            let side = side_of(&b, entrant.entrant_id);
            let board_id = b.board_id;
            let mut view = reports::board_view(pool, b).await?;
            view.side = Some(side);
            if current_team {
                // A match takes no report as a whole: its games do (`team_games`).
                view.reports.clear();
                view.agreement = reports::Agreement::None;
            }
            let game_count = if current_team {
                db::report::game_count(pool, board_id).await?
            } else {
                1
            };
            (
                Some(Current {
                    board: view,
                    game_count,
                }),
                None,
            )
        }
        Some(b) => (None, Some(b.round_no)),
        None => (None, None),
    };
    let mut team_games = Vec::new();
    if let Some(b) = board.as_ref().filter(|_| current_team) {
        for n in 1..=i32::try_from(b.game_count).unwrap_or(0) {
            if let Some(game) = db::report::team_game(pool, b.board.board_id, n).await? {
                let side = side_of(&game, entrant.entrant_id);
                let mut view = reports::board_view(pool, game).await?;
                view.side = Some(side);
                team_games.push(view);
            }
        }
    }
    let board = board.map(|b| b.board);
    let can_report = if current_team {
        entrant.self_report != SelfReport::Off
            && team_games
                .iter()
                .any(|g| g.open && g.agreement != reports::Agreement::Disputed)
    } else {
        board.as_ref().is_some_and(|b| {
            b.open
                && entrant.self_report != SelfReport::Off
                && b.agreement != reports::Agreement::Disputed
        })
    };
    Ok(KeyView {
        check_in: check_in_state(&entrant),
        entrant: KeyEntrantView {
            id: entrant.entrant_id,
            start_no: entrant.start_no,
            name: entrant.name,
            status: entrant.status,
        },
        tournament_id: entrant.tournament_id,
        tournament_name: entrant.tournament_name,
        time_zone: entrant.time_zone,
        section_id: entrant.section_id,
        section_name: entrant.section_name,
        board,
        bye_round,
        can_report,
        team_games,
    })
}

/// The key's board this round, and how many games it has (a team match's boards).
struct Current {
    board: ReportBoard,
    game_count: i64,
}

fn side_of(board: &db::report::CodeBoard, entrant_id: Uuid) -> Side {
    if board.black_entrant_id == Some(entrant_id) {
        Side::Black
    } else {
        Side::Red
    }
}

/// What `key` opens, for a visitor from `ip`.
pub async fn lookup(pool: &PgPool, limits: &Limits, ip: IpAddr, key: &str) -> Result<KeyView> {
    let entrant = find(pool, limits, ip, key).await?;
    view_of(pool, entrant).await
}

/// The entrant id `key` opens, for pages that show more of the player (history, standing).
pub async fn entrant_of(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    key: &str,
) -> Result<(KeyView, Uuid)> {
    let entrant = find(pool, limits, ip, key).await?;
    let id = entrant.entrant_id;
    Ok((view_of(pool, entrant).await?, id))
}

/// Reports the result of the key's own board in the current round, as the key's side (a
/// `side` in the body that is not the key's is refused, 422).
pub async fn report(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    key: &str,
    input: &ReportInput,
) -> Result<ReportOutcome> {
    let entrant = find(pool, limits, ip, key).await?;
    let board = db::report::current_board_of(pool, entrant.entrant_id)
        .await?
        .filter(|b| {
            b.game_id.is_some()
                && b.round_status == RoundStatus::Published
                && b.self_report != SelfReport::Off
        })
        .ok_or_else(|| Error::conflict(m::KEY_NO_GAME_TO_REPORT.msg()))?;
    // A team's key (the captain's, issue #41) reports any board of its team's match, as
    // the team's side on that board; the board is named in the report.
    if board.team {
        let mut check = Check::new();
        let number = match input.game {
            Some(n) => check.range("game", n, 1, 10),
            None => {
                check.error("game", m::REPORT_CHOOSE_BOARD.msg());
                0
            }
        };
        check.finish()?;
        let game = db::report::team_game(pool, board.board_id, number)
            .await?
            .ok_or_else(|| Error::invalid("game", m::TEAM_NO_GAME.with(&[&number])))?;
        let side = side_of(&game, entrant.entrant_id);
        return reports::submit_as(pool, ip, game, side, "team_key", input).await;
    }
    let side = side_of(&board, entrant.entrant_id);
    reports::submit_as(pool, ip, board, side, "key", input).await
}

/// Sends the game's record of the key's own board (while its round is played).
pub async fn record(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    key: &str,
    input: &super::records::RecordInput,
) -> Result<super::records::RecordSaved> {
    let entrant = find(pool, limits, ip, key).await?;
    let board = db::report::current_board_of(pool, entrant.entrant_id)
        .await?
        .filter(|b| b.game_id.is_some())
        .ok_or_else(|| Error::conflict(m::KEY_NO_GAME_TO_REPORT.msg()))?;
    if board.round_status != RoundStatus::Published {
        return Err(Error::conflict(m::REPORT_ROUND_OVER_ASK_ARBITER.msg()));
    }
    super::records::store_player_record(pool, board.board_id, input)
        .await
        .map_err(|err| match err {
            Error::Conflict(_) => Error::conflict(m::REPORT_GAME_ALREADY_HAS_RECORD.msg()),
            other => other,
        })
}

/// Checks the key's entrant in (`true`) or out, inside the section's self check-in window
/// (409 outside it, or when self check-in is off); audited as the player.
pub async fn check_in(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    key: &str,
    present: bool,
) -> Result<CheckInState> {
    let found = find(pool, limits, ip, key).await?;
    let mut tx = pool.begin().await?;
    let key = normalise_key(key).ok_or_else(unknown_key)?;
    let entrant = db::key::entrant_by_key_for_update(&mut *tx, &key)
        .await?
        .filter(|e| e.entrant_id == found.entrant_id)
        .ok_or_else(unknown_key)?;
    if !entrant.self_check_in {
        return Err(Error::conflict(m::KEY_SELF_CHECK_IN_OFF.msg()));
    }
    let settings = CheckInSettings {
        self_check_in: entrant.self_check_in,
        check_in_opens_at: entrant.check_in_opens_at,
        check_in_closes_at: entrant.check_in_closes_at,
    };
    if !window_open(&settings, Utc::now()) {
        return Err(Error::conflict(m::KEY_CHECK_IN_CLOSED.msg()));
    }
    if entrant.status == EntrantStatus::Withdrawn {
        return Err(Error::conflict(m::KEY_WITHDRAWN.msg()));
    }
    if entrant.checked_in != present {
        db::key::set_checked_in(&mut *tx, entrant.entrant_id, present, present).await?;
        db::audit::insert(
            &mut *tx,
            db::audit::NewAuditEvent {
                tournament_id: Some(entrant.tournament_id),
                user_id: None,
                actor: "player",
                action: if present { "check_in" } else { "check_out" },
                entity: "entrant",
                entity_id: Some(entrant.entrant_id),
                before: Some(json!({"checked_in": entrant.checked_in})),
                after: Some(json!({
                    "checked_in": present, "by": "player", "entrant_id": entrant.entrant_id,
                    "start_no": entrant.start_no, "name": entrant.name,
                    "address": ip.to_string(),
                })),
            },
        )
        .await?;
    }
    tx.commit().await?;
    let entrant = db::key::entrant_by_key(pool, &key)
        .await?
        .ok_or_else(unknown_key)?;
    Ok(check_in_state(&entrant))
}

/// An entrant's key as the desk sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EntrantKey {
    /// Entrant id.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
    /// The key (16 characters of Crockford's base32).
    pub key: String,
    /// The key as printed: four groups of four.
    pub display: String,
    /// The player's page (`/k/{key}`).
    pub path: String,
}

impl From<db::key::SectionKey> for EntrantKey {
    fn from(k: db::key::SectionKey) -> EntrantKey {
        EntrantKey {
            entrant_id: k.entrant_id,
            start_no: k.start_no,
            name: k.name,
            display: display_key(&k.key),
            path: key_path(&k.key),
            key: k.key,
        }
    }
}

/// Every entrant's key of a section, for the cards (the tournament's arbiters).
pub async fn section_keys(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
) -> Result<Vec<EntrantKey>> {
    let section = db::section::find(pool, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let mut conn = pool.acquire().await?;
    access::require(&mut conn, actor, section.tournament_id, Need::Arbiter).await?;
    Ok(db::key::section_keys(&mut *conn, section_id)
        .await?
        .into_iter()
        .map(EntrantKey::from)
        .collect())
}

/// One entrant's key, for its card (the tournament's arbiters).
pub async fn entrant_key(pool: &PgPool, actor: &Actor, entrant_id: Uuid) -> Result<EntrantKey> {
    let entrant = db::entrant::find(pool, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    let keys = section_keys(pool, actor, entrant.section_id).await?;
    keys.into_iter()
        .find(|k| k.entrant_id == entrant_id)
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))
}

/// Draws a new key for an entrant: the old one stops working at once. Audited without the
/// key (the tournament's arbiters).
pub async fn reissue(pool: &PgPool, actor: &Actor, entrant_id: Uuid) -> Result<EntrantKey> {
    let mut tx = pool.begin().await?;
    let entrant = db::entrant::find(&mut *tx, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    let section = db::section::find(&mut *tx, entrant.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let key = db::key::reissue(&mut *tx, entrant_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_ENTRANT))?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "reissue_key",
            entity: "entrant",
            entity_id: Some(entrant_id),
            before: None,
            after: Some(json!({"start_no": entrant.start_no, "name": entrant.name})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(EntrantKey {
        entrant_id,
        start_no: entrant.start_no,
        name: entrant.name,
        display: display_key(&key),
        path: key_path(&key),
        key,
    })
}

/// A section's self check-in settings (`GET`/`PUT /api/v1/sections/{id}/check-in-settings`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckInSettingsView {
    /// Whether players may check themselves in with their key.
    pub self_check_in: bool,
    /// The window's start (none: open from now on).
    pub check_in_opens_at: Option<DateTime<Utc>>,
    /// The window's end (none: no end).
    pub check_in_closes_at: Option<DateTime<Utc>>,
}

/// A section's self check-in settings (anyone: the window is public).
pub async fn check_in_settings(pool: &PgPool, section_id: Uuid) -> Result<CheckInSettingsView> {
    let s = db::key::check_in_settings(pool, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    Ok(CheckInSettingsView {
        self_check_in: s.self_check_in,
        check_in_opens_at: s.check_in_opens_at,
        check_in_closes_at: s.check_in_closes_at,
    })
}

/// Sets a section's self check-in settings (the tournament's arbiters; audited).
pub async fn set_check_in_settings(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    input: &CheckInSettingsView,
) -> Result<CheckInSettingsView> {
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let mut check = Check::new();
    if let (Some(open), Some(close)) = (input.check_in_opens_at, input.check_in_closes_at) {
        if close <= open {
            check.error(
                "check_in_closes_at",
                m::CHECK_CHECK_IN_CLOSES_AFTER_OPENS.msg(),
            );
        }
    }
    check.finish()?;
    let before = db::key::check_in_settings(&mut *tx, section_id).await?;
    let settings = CheckInSettings {
        self_check_in: input.self_check_in,
        check_in_opens_at: input.check_in_opens_at,
        check_in_closes_at: input.check_in_closes_at,
    };
    db::key::put_check_in_settings(&mut *tx, section_id, &settings).await?;
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "check_in_settings",
            entity: "section",
            entity_id: Some(section_id),
            before: before.map(|b| {
                json!({"self_check_in": b.self_check_in, "check_in_opens_at": b.check_in_opens_at,
                       "check_in_closes_at": b.check_in_closes_at})
            }),
            after: serde_json::to_value(input).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(input.clone())
}

/// The entrants of a section who checked themselves in (the desk's check-in list marks them).
pub async fn checked_in_by_self(pool: &PgPool, section_id: Uuid) -> Result<Vec<Uuid>> {
    Ok(db::key::checked_in_by_self(pool, section_id).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_as_typed_and_print_in_groups() {
        assert_eq!(
            normalise_key(" abcd-efgh-jkmn-pqrs ").as_deref(),
            Some("ABCDEFGHJKMNPQRS")
        );
        assert_eq!(
            normalise_key("https://x.example/k/0123456789ABCDEF").as_deref(),
            Some("0123456789ABCDEF")
        );
        // Crockford: I and L read as 1, O as 0; U is not a digit.
        assert_eq!(
            normalise_key("OILO-0000-0000-0000").as_deref(),
            Some("0110000000000000")
        );
        assert_eq!(normalise_key("U000000000000000"), None);
        assert_eq!(normalise_key("0123456789ABCDE"), None);
        assert_eq!(normalise_key(&"A".repeat(100)), None);
        assert_eq!(display_key("0123456789ABCDEF"), "0123-4567-89AB-CDEF");
        assert_eq!(key_path("0123456789ABCDEF"), "/k/0123456789ABCDEF");
    }
}
