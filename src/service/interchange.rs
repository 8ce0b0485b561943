//! Data in and out: TRF-16 export and import of a section, CSV import of players (every row
//! checked before anything is written), CSV export of standings, the audit log.

use super::access::{self, Change, Need};
use super::check::Check;
use super::entrants::{self, EntrantInput, MemberInput};
use super::standings;
use super::state;
use super::users::Actor;
use super::{sections, Error, FieldErrors, Result};
use crate::db;
use crate::i18n::messages::{self as m, Msg};
use crate::vocab::{
    ByeKind, EntryType, GameResult, PairingSystem, RoundOneOrder, RoundStatus, SectionStatus,
    SetupMode, Unplayed,
};
use arbiter_core::model::{ResultCode, Side};
use arbiter_core::standings::UnplayedMode;
use arbiter_core::trf::SectionSettings;
use serde::Serialize;
use serde_json::{json, Value};
use sqlx::PgPool;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use uuid::Uuid;

/// A section as a TRF-16 file (with the TRF-26 142/152/162/192 headers and XXR/XXC); a team
/// section's with its players and the TRF-2026 team records (`team_trf`). Public data only:
/// names, ratings, results; a paired round not yet published only for `actor`s who are the
/// section's arbiters or scorers.
pub async fn export_trf(pool: &PgPool, actor: Option<&Actor>, section_id: Uuid) -> Result<String> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let private = access::can_see_private(&mut conn, actor, section.tournament_id).await?;
    let tournament = db::tournament::find(&mut *conn, section.tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    let options = sections::standings_options(&section);
    let members = db::entrant::members(&mut *conn, section_id).await?;
    let state = if private {
        state::load(&mut conn, section, false).await?
    } else {
        state::load_public(&mut conn, section).await?
    };
    let table = arbiter_core::standings::rank(&state.tournament, &options);
    let mut t = state.tournament.clone();
    t.name = format!("{} — {}", tournament.name, state.section.name);
    let mut headers = Vec::new();
    if let Some(venue) = &tournament.venue {
        headers.push(("022".to_string(), venue.clone()));
    }
    if let Some(d) = tournament.starts_on {
        headers.push(("042".to_string(), d.format("%Y/%m/%d").to_string()));
    }
    if let Some(d) = tournament.ends_on {
        headers.push(("052".to_string(), d.format("%Y/%m/%d").to_string()));
    }
    headers.push(("062".to_string(), t.entrants.len().to_string()));
    headers.push((
        "092".to_string(),
        match state.section.pairing_system {
            PairingSystem::Dutch => "Swiss (FIDE Dutch)",
            PairingSystem::RoundRobin => "Round robin (Berger)",
            PairingSystem::Chinese => "Swiss (Chinese 积分编排)",
        }
        .to_string(),
    ));
    if let Some(tc) = &tournament.time_control {
        headers.push(("122".to_string(), tc.clone()));
    }
    headers.push((
        "192".to_string(),
        match state.section.pairing_system {
            PairingSystem::Dutch => "FIDE_DUTCH_2026",
            PairingSystem::RoundRobin => "BERGER_ROUNDROBIN",
            PairingSystem::Chinese => "CUSTOM_SWISS",
        }
        .to_string(),
    ));
    if let Some(code) = &tournament.time_control_code {
        headers.push(("222".to_string(), code.clone()));
    }
    // What no TRF record carries rides in `### arbiter` comment lines (see `trf`'s docs).
    headers.extend(
        SectionSettings {
            pairing_system: Some(state.section.pairing_system.to_string()),
            tiebreaks: Some(state.section.tiebreaks.clone()),
            unplayed: Some(state.section.unplayed_mode.to_string()),
            foul_threshold: u32::try_from(state.section.foul_threshold).ok(),
            forfeit_counts_as_met: Some(state.section.forfeit_counts_as_met),
        }
        .headers(),
    );
    t.headers = headers;
    for e in &mut t.entrants {
        e.declared_rank = table
            .rows
            .iter()
            .find(|r| r.start_no == e.start_no)
            .map(|r| r.rank);
        let id = state.entrant_by_no(e.start_no).map(|r| r.entrant_id);
        let gender = members
            .iter()
            .find(|m| Some(m.entrant_id) == id && m.position == 1)
            .and_then(|m| m.gender.clone());
        e.sex = match gender.as_deref() {
            Some("m") => Some('m'),
            Some("f") => Some('w'),
            _ => None,
        };
    }
    if state.section.entry_type == EntryType::Team {
        // A team section (issue #41): its players with the TRF-2026 team records.
        return super::team_trf::export(&mut conn, &state, &t).await;
    }
    Ok(arbiter_core::trf::write(&t))
}

fn game_result(red: ResultCode, black: ResultCode) -> Option<GameResult> {
    use ResultCode::*;
    let norm = |c: ResultCode| match c {
        UnratedWin => Win,
        UnratedDraw => Draw,
        UnratedLoss => Loss,
        other => other,
    };
    Some(match (norm(red), norm(black)) {
        (Win, Loss) => GameResult::RedWins,
        (Loss, Win) => GameResult::BlackWins,
        (Draw, Draw) => GameResult::Draw,
        (ForfeitLoss, ForfeitWin) => GameResult::RedForfeits,
        (ForfeitWin, ForfeitLoss) => GameResult::BlackForfeits,
        (ForfeitLoss, ForfeitLoss) => GameResult::DoubleForfeit,
        (Loss, Loss) => GameResult::DoubleLoss,
        _ => return None,
    })
}

/// Creates a section from a TRF file: entrants, rounds, boards and results. The file is
/// checked whole first (line and column in the message; both lines of every game must agree,
/// see `arbiter_core::trf`); nothing is written if it is invalid. The section's settings come
/// from the file's `### arbiter` lines when present (as arbiter exports them), else from its
/// `192` line (a FIDE Dutch or round-robin code; any other file is paired as Dutch) with that
/// system's defaults. Rounds, scoring and the first board's colour come from `142`/`XXR`,
/// `162`/`XXS` and `152`/`XXC`. A name like "Tournament — Section" as arbiter exports it is
/// shortened to the section's part when the tournament's name matches.
pub async fn import_trf(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    text: &str,
    name: Option<&str>,
) -> Result<sections::Section> {
    access::require_first(pool, actor, tournament_id, Need::Arbiter).await?;
    let t = arbiter_core::trf::parse(text).map_err(|e| Error::invalid("file", trf_error(&e)))?;
    if t.entrants.is_empty() {
        return Err(Error::invalid("file", m::TRF_NO_PLAYERS.msg()));
    }
    let settings = SectionSettings::of(&t);
    let pairing_system = settings.pairing_system.clone().unwrap_or_else(|| {
        let code = t
            .headers
            .iter()
            .rev()
            .find(|(code, _)| code == "192")
            .map(|(_, text)| text.trim().to_ascii_uppercase())
            .unwrap_or_default();
        if code.ends_with("ROUNDROBIN") {
            "round_robin".into()
        } else {
            "dutch".into()
        }
    });
    let pairing_system: PairingSystem = pairing_system.parse().map_err(|_| {
        Error::invalid(
            "file",
            m::TRF_UNKNOWN_PAIRING_SYSTEM.with(&[&format!("{pairing_system:?}")]),
        )
    })?;
    let preset = sections::default_preset(pairing_system);
    // Names go through the one validator for human text, as a form's would.
    let mut names = std::collections::HashMap::new();
    for e in &t.entrants {
        let name = arbiter_core::text::clean(&e.name, arbiter_core::text::Lines::Single, 200)
            .map_err(|err| {
                Error::invalid(
                    "file",
                    m::TRF_PLAYER_NAME
                        .with(&[&e.start_no])
                        .and(super::check::text_error(&err)),
                )
            })?;
        names.insert(e.start_no, name);
    }
    // A `142` (number of rounds) below the rounds its games reach contradicts the file: said,
    // never silently changed.
    if let Some(total) = t.rounds_total {
        if total < t.rounds_played() {
            return Err(Error::invalid(
                "file",
                m::TRF_ROUNDS_HEADER_BELOW_GAMES.with(&[&total, &t.rounds_played()]),
            ));
        }
    }
    let mut tx = pool.begin().await?;
    let tournament = db::tournament::find(&mut *tx, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    access::require(&mut tx, actor, tournament_id, Need::Arbiter).await?;
    let file_name = t.name.trim();
    let file_name = file_name
        .strip_prefix(&format!("{} — ", tournament.name))
        .filter(|rest| !rest.trim().is_empty())
        .unwrap_or(file_name);
    let played = t.rounds_played();
    let win = t.scoring.win.tenths() as i32;
    let row = db::section::SectionRow {
        section_id: Uuid::nil(),
        tournament_id,
        name: name
            .map(str::to_string)
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| {
                if file_name.is_empty() {
                    "Imported".into()
                } else {
                    file_name.chars().take(200).collect()
                }
            }),
        pairing_system,
        rounds: t.rounds_total.unwrap_or(played).max(played).clamp(1, 99) as i32,
        entry_type: EntryType::Individual,
        points_win: win,
        points_draw: t.scoring.draw.tenths() as i32,
        points_loss: t.scoring.loss.tenths() as i32,
        points_bye: t.scoring.pairing_bye.tenths() as i32,
        points_forfeit_win: t.scoring.forfeit_win.tenths() as i32,
        tiebreaks: settings
            .tiebreaks
            .clone()
            .unwrap_or_else(|| preset.chain().into_iter().map(|k| k.name()).collect()),
        // The core read the file's `unplayed` (an unknown one is refused there).
        unplayed_mode: Unplayed::of(
            settings
                .unplayed
                .as_deref()
                .and_then(|u| u.parse::<UnplayedMode>().ok())
                .unwrap_or(preset.unplayed_mode()),
        ),
        foul_threshold: settings
            .foul_threshold
            .and_then(|n| i32::try_from(n).ok())
            .unwrap_or(2),
        round1_order: RoundOneOrder::Registration,
        first_board_red: t.initial_colour != Some(Side::Black),
        forfeit_counts_as_met: settings
            .forfeit_counts_as_met
            .unwrap_or_else(|| sections::forfeit_default(pairing_system)),
        avoid_same_club: false,
        pair_checked_in_only: false,
        cap: None,
        min_entries: None,
        registration_opens_at: None,
        registration_closes_at: None,
        payment_required: false,
        fee_tiers: json!([]),
        rounds_by_entries: json!([]),
        eligibility: json!({}),
        self_report: crate::vocab::SelfReport::Desk,
        setup_mode: SetupMode::None,
        status: if played > 0 {
            SectionStatus::Running
        } else {
            SectionStatus::Open
        },
        created_at: chrono::Utc::now(),
        updated_at: chrono::Utc::now(),
        version: 0,
    };
    let section = db::section::insert(&mut *tx, &row)
        .await
        .map_err(|e| match &e {
            sqlx::Error::Database(d)
                if d.constraint() == Some("section_tournament_id_name_key") =>
            {
                Error::invalid("name", m::CHECK_SECTION_NAME_EXISTS_PASS_NAME.msg())
            }
            _ => e.into(),
        })?;
    let mut ids = std::collections::HashMap::new();
    for e in &t.entrants {
        let player = db::entrant::PlayerRow {
            player_id: Uuid::nil(),
            name: match names.get(&e.start_no) {
                Some(name) if !name.is_empty() => name.clone(),
                _ => format!("Player {}", e.start_no),
            },
            gender: match e.sex {
                Some('m') | Some('M') => Some("m".into()),
                Some('w') | Some('W') | Some('f') | Some('F') => Some("f".into()),
                _ => None,
            },
            club: None,
            rating: e
                .rating
                .and_then(|r| i32::try_from(r).ok())
                .filter(|r| *r <= 4000),
            member: false,
            email: None,
            phone: None,
            address: None,
            birth_date: None,
            school_grade: None,
        };
        let entrant = db::entrant::insert(
            &mut *tx,
            section.section_id,
            e.start_no as i32,
            &player.name,
            player.rating,
            None,
            1,
        )
        .await?;
        let player_id = db::entrant::insert_player(&mut *tx, tournament_id, &player).await?;
        db::entrant::insert_member(&mut *tx, entrant.entrant_id, 1, player_id).await?;
        ids.insert(e.start_no, entrant.entrant_id);
    }
    for round in 1..=played {
        let index = round as usize - 1;
        let round_id = db::round::insert(
            &mut *tx,
            section.section_id,
            round as i32,
            &json!({"imported": true}),
            &json!(null),
        )
        .await?;
        let mut boards: Vec<(i32, Uuid, Option<Uuid>)> = Vec::new();
        let mut results: Vec<(Uuid, Option<GameResult>)> = Vec::new();
        let mut byes = Vec::new();
        for e in &t.entrants {
            let Some(r) = e.rounds.get(index) else {
                continue;
            };
            let me = ids[&e.start_no];
            match r.opponent {
                Some(opp) => {
                    let other = t.entrant(opp).and_then(|o| o.rounds.get(index));
                    // Red is the side marked `w`; with no colour, the lower number.
                    let i_am_red = match r.colour {
                        Some(Side::Red) => true,
                        Some(Side::Black) => false,
                        None => e.start_no < opp,
                    };
                    if !i_am_red {
                        continue;
                    }
                    boards.push((0, me, Some(ids[&opp])));
                    results.push((me, other.and_then(|o| game_result(r.result, o.result))));
                }
                None if r.result == ResultCode::PairingBye => boards.push((0, me, None)),
                // TRF-16: `+` without an opponent is a full point without a game.
                None => match r.result {
                    ResultCode::HalfBye => byes.push((me, ByeKind::Half)),
                    ResultCode::FullBye | ResultCode::ForfeitWin => byes.push((me, ByeKind::Full)),
                    _ => byes.push((me, ByeKind::Zero)),
                },
            }
        }
        // Boards with a game first, the bye last.
        boards.sort_by_key(|b| b.2.is_none());
        for (i, b) in boards.iter_mut().enumerate() {
            b.0 = i as i32 + 1;
        }
        db::round::insert_boards(&mut tx, round_id, &boards).await?;
        let mut open = 0;
        for (red, result) in results {
            match result {
                Some(result) => {
                    sqlx::query!(
                        "update game set result = $2, reported_result = $2
                         where board_id = (select board_id from board where round_id = $1 and red_entrant_id = $3)",
                        round_id,
                        result.as_str(),
                        red
                    )
                    .execute(&mut *tx)
                    .await?;
                }
                None => open += 1,
            }
        }
        for (entrant, kind) in byes {
            db::entrant::upsert_requested_bye(&mut *tx, entrant, round as i32, kind).await?;
        }
        db::round::set_status(
            &mut *tx,
            round_id,
            if open == 0 {
                RoundStatus::Completed
            } else {
                RoundStatus::Published
            },
        )
        .await?;
    }
    // Pairs that must never meet (`XXP`, `260` without rounds); a section has no
    // round-limited restrictions, so a `260` limited to some rounds is not kept.
    for f in t
        .forbidden
        .iter()
        .filter(|f| f.first_round.is_none() && f.last_round.is_none())
    {
        for (k, a) in f.entrants.iter().enumerate() {
            for b in &f.entrants[k + 1..] {
                if let (Some(&a), Some(&b)) = (ids.get(a), ids.get(b)) {
                    if a != b {
                        db::entrant::insert_forbidden_pair(&mut *tx, section.section_id, a, b)
                            .await?;
                    }
                }
            }
        }
    }
    // Absences announced for rounds not paired yet (`0000 - H`, `240`, `XXZ`) become
    // requested byes, so the next pairing leaves those entrants out.
    for e in &t.entrants {
        for (index, r) in e.rounds.iter().enumerate().skip(played as usize) {
            let round = index as i32 + 1;
            let kind = match r.result {
                ResultCode::HalfBye => ByeKind::Half,
                ResultCode::FullBye => ByeKind::Full,
                ResultCode::ZeroBye => ByeKind::Zero,
                _ => continue,
            };
            if r.opponent.is_none() && round <= section.rounds {
                db::entrant::upsert_requested_bye(&mut *tx, ids[&e.start_no], round, kind).await?;
            }
        }
    }
    // The section's (and the event's) status follows its rounds at once: a file of a whole
    // event leaves its section finished.
    super::tournaments::follow_progress(
        &mut tx,
        Some(actor),
        section.section_id,
        super::tournaments::Progress::Settled,
    )
    .await?;
    let section = db::section::find(&mut *tx, section.section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    let view = sections::Section::from(section);
    access::audit(
        &mut tx,
        tournament_id,
        Some(actor),
        Change {
            action: "import_trf",
            entity: "section",
            entity_id: Some(view.id),
            before: None,
            after: Some(json!({"entrants": t.entrants.len(), "rounds": played})),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}

/// One CSV row's problems.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RowErrors {
    /// Line number in the file (the header is line 1).
    pub line: usize,
    /// Field → messages.
    #[schema(value_type = Object)]
    pub errors: FieldErrors,
}

/// The outcome of a CSV import.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CsvImport {
    /// Rows read.
    pub rows: usize,
    /// Rows with errors (nothing is written while any exists).
    pub errors: Vec<RowErrors>,
    /// Whether the entrants were created.
    pub applied: bool,
    /// The names read, in order.
    pub names: Vec<String>,
}

/// Imports players from the desk's spreadsheet (CSV, UTF-8, header row with any of `name`,
/// `rating`, `club`, `gender`, `email`, `phone`, `address`, `member`, `birth_date`,
/// `partner`). Every row is checked first; with any error, or without `apply`, nothing is
/// written and the report says what to fix on which line.
pub async fn import_csv(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    text: &str,
    apply: bool,
) -> Result<CsvImport> {
    access::require_first_in_section(pool, actor, section_id, Need::Arbiter).await?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| Error::invalid("file", m::CSV_CANNOT_READ_HEADER.msg().and(csv_error(&e))))?
        .iter()
        .map(|h| h.trim_start_matches('\u{feff}').to_ascii_lowercase())
        .collect();
    if !headers.iter().any(|h| h == "name") {
        return Err(Error::invalid("file", m::CSV_HEADER_NEEDS_NAME.msg()));
    }
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    let mut broken = csv_structure_errors(text);
    if let Some(reason) = broken.remove(&1) {
        return Err(Error::invalid(
            "file",
            m::CSV_LINE_1_HEADER_ROW.msg().and(reason),
        ));
    }
    let mut last_line = 1;
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(last_line + 1, |p| p.line() as usize);
                last_line = line;
                errors.push(RowErrors {
                    line,
                    errors: [(
                        "row".to_string(),
                        vec![m::CSV_UNREADABLE_ROW.msg().and(csv_error(&e))],
                    )]
                    .into(),
                });
                continue;
            }
        };
        let line = record
            .position()
            .map_or(last_line + 1, |p| p.line() as usize);
        let end_line = line
            + record
                .iter()
                .map(|f| f.matches('\n').count())
                .sum::<usize>();
        last_line = end_line;
        let structure: Vec<Msg> = broken
            .range(line..=end_line)
            .map(|(_, reason)| reason.clone())
            .collect();
        if !structure.is_empty() {
            errors.push(RowErrors {
                line,
                errors: [("row".to_string(), structure)].into(),
            });
            continue;
        }
        let get = |col: &str| {
            headers
                .iter()
                .position(|h| h == col)
                .and_then(|p| record.get(p))
                .filter(|v| !v.is_empty())
        };
        let mut check = Check::new();
        let rating = get("rating").and_then(|r| {
            r.parse::<i64>()
                .map_err(|_| check.error("rating", m::CHECK_MUST_WHOLE_NUMBER.msg()))
                .ok()
        });
        let member = get("member").map(|m| {
            matches!(
                m.to_ascii_lowercase().as_str(),
                "yes" | "y" | "true" | "1" | "是"
            )
        });
        let birth_date = get("birth_date").and_then(|d| {
            chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
                .map_err(|_| check.error("birth_date", m::CHECK_MUST_YYYY_MM_DD.msg()))
                .ok()
        });
        let gender = get("gender").map(|g| match g.to_ascii_lowercase().as_str() {
            "m" | "male" | "男" => "m".to_string(),
            "f" | "w" | "female" | "女" => "f".to_string(),
            other => other.to_string(),
        });
        let name = get("name").unwrap_or("").to_string();
        let input = EntrantInput {
            name: Some(name.clone()),
            rating,
            club: get("club").map(str::to_string),
            gender: gender.clone(),
            member,
            email: get("email").map(str::to_string),
            phone: get("phone").map(str::to_string),
            address: get("address").map(str::to_string),
            birth_date,
            school_grade: get("school_grade").map(str::to_string),
            members: (section.entry_type == EntryType::Doubles).then(|| {
                vec![
                    MemberInput {
                        name: name.clone(),
                        gender,
                        ..MemberInput::default()
                    },
                    MemberInput {
                        name: get("partner").unwrap_or("").to_string(),
                        ..MemberInput::default()
                    },
                ]
            }),
            ..EntrantInput::default()
        };
        let (entrant_name, players) = entrants::players_of(
            &EntrantInput {
                name: (section.entry_type != EntryType::Doubles)
                    .then_some(name)
                    .or(None),
                ..input
            },
            section.entry_type,
            &mut check,
        );
        match check.finish() {
            Ok(()) => inputs.push((entrant_name, players)),
            Err(Error::Invalid { fields, .. }) => errors.push(RowErrors {
                line,
                errors: fields,
            }),
            Err(e) => return Err(e),
        }
    }
    let outcome = CsvImport {
        rows: inputs.len() + errors.len(),
        names: inputs.iter().map(|(n, _)| n.clone()).collect(),
        applied: apply && errors.is_empty(),
        errors,
    };
    if outcome.applied {
        for (name, players) in &inputs {
            entrants::insert_entrant(&mut tx, section.tournament_id, section_id, name, players)
                .await?;
        }
        access::audit(
            &mut tx,
            section.tournament_id,
            Some(actor),
            Change {
                action: "import_csv",
                entity: "section",
                entity_id: Some(section_id),
                before: None,
                after: Some(json!({"entrants": inputs.len()})),
            },
        )
        .await?;
        tx.commit().await?;
    }
    Ok(outcome)
}

/// A cell a spreadsheet will not run: one that begins with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading apostrophe (OWASP's rule against CSV injection), so a name
/// such as `=HYPERLINK(…)` shows as text.
pub fn spreadsheet_safe(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        std::borrow::Cow::Owned(format!("'{cell}"))
    } else {
        std::borrow::Cow::Borrowed(cell)
    }
}

/// Lines (1-based) where a CSV text breaks RFC 4180's quoting or holds a NUL, with the reason.
/// The `csv` crate reads such text leniently (an unterminated quote swallows the rest of the
/// file into one field); the import refuses it instead, row by row.
fn csv_structure_errors(text: &str) -> BTreeMap<usize, Msg> {
    #[derive(PartialEq)]
    enum State {
        FieldStart,
        Unquoted,
        Quoted,
        QuoteInQuoted,
        AfterQuoted,
    }
    let mut errors = BTreeMap::new();
    let mut state = State::FieldStart;
    let mut line = 1;
    let mut opened_at = 1;
    for c in text.chars() {
        if c == '\0' {
            errors
                .entry(line)
                .or_insert_with(|| m::CSV_CONTAINS_NUL_CHARACTER.msg());
        }
        state = match (state, c) {
            (State::Quoted, '\n') => {
                line += 1;
                State::Quoted
            }
            (State::Quoted, '"') => State::QuoteInQuoted,
            (State::Quoted, _) => State::Quoted,
            (State::QuoteInQuoted, '"') => State::Quoted,
            (State::QuoteInQuoted | State::AfterQuoted, ',') => State::FieldStart,
            (State::QuoteInQuoted | State::AfterQuoted, '\n') => {
                line += 1;
                State::FieldStart
            }
            (State::QuoteInQuoted | State::AfterQuoted, c)
                if c == ' ' || c == '\t' || c == '\r' =>
            {
                State::AfterQuoted
            }
            (State::QuoteInQuoted | State::AfterQuoted, _) => {
                errors
                    .entry(line)
                    .or_insert_with(|| m::CSV_TEXT_AFTER_CLOSING_QUOTE.msg());
                State::Unquoted
            }
            (State::FieldStart, '"') => {
                opened_at = line;
                State::Quoted
            }
            (State::FieldStart, ' ' | '\t') => State::FieldStart,
            (_, ',') => State::FieldStart,
            (_, '\n') => {
                line += 1;
                State::FieldStart
            }
            (_, '"') => {
                errors
                    .entry(line)
                    .or_insert_with(|| m::CSV_QUOTE_INSIDE_UNQUOTED_FIELD.msg());
                State::Unquoted
            }
            (_, _) => State::Unquoted,
        };
    }
    if state == State::Quoted {
        errors.insert(opened_at, m::CSV_QUOTE_OPENED_HERE_NEVER.msg());
    }
    errors
}

/// The standings as CSV (rank, number, name, club, points, every tiebreak).
pub async fn standings_csv(pool: &PgPool, section_id: Uuid) -> Result<String> {
    standings_csv_with(pool, section_id, &|heads| heads.to_vec(), false).await
}

/// The machine column heads of the standings CSV before the tiebreaks' keys.
pub const STANDINGS_CSV_HEADS: [&str; 5] = ["rank", "start_no", "name", "club", "points"];

/// A table as CSV for a spreadsheet: every cell made formula-safe, with a byte-order mark
/// when `bom` (Excel on Windows reads a file without one in the system's code page).
pub fn csv_text(header: &[String], rows: &[Vec<String>], bom: bool) -> Result<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let io = |e: csv::Error| Error::Internal(format!("writing CSV: {e}"));
    for record in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        writer
            .write_record(
                record
                    .iter()
                    .map(|cell| spreadsheet_safe(cell).into_owned()),
            )
            .map_err(io)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| Error::Internal(format!("writing CSV: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| Error::Internal(e.to_string()))?;
    Ok(if bom { format!("\u{FEFF}{text}") } else { text })
}

/// The standings as CSV with the heads `heads` makes of the machine heads
/// ([`STANDINGS_CSV_HEADS`] and the tiebreaks' keys), after a UTF-8 byte-order mark when
/// `bom` (Excel on Windows reads a file without one in the system's code page).
pub async fn standings_csv_with(
    pool: &PgPool,
    section_id: Uuid,
    heads: &(dyn Fn(&[String]) -> Vec<String> + Sync),
    bom: bool,
) -> Result<String> {
    let table = standings::compute(pool, section_id).await?;
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut machine: Vec<String> = STANDINGS_CSV_HEADS.iter().map(|h| h.to_string()).collect();
    machine.extend(table.tiebreaks.iter().cloned());
    let header = heads(&machine);
    let io = |e: csv::Error| Error::Internal(format!("writing CSV: {e}"));
    writer
        .write_record(
            header
                .iter()
                .map(|cell| spreadsheet_safe(cell).into_owned()),
        )
        .map_err(io)?;
    for row in &table.rows {
        let mut record = vec![
            row.rank.to_string(),
            row.start_no.to_string(),
            row.name.clone(),
            row.club.clone().unwrap_or_default(),
            row.points.to_string(),
        ];
        for key in &table.tiebreaks {
            record.push(match row.tiebreaks.get(key) {
                Some(Value::Array(list)) => list
                    .iter()
                    .map(Value::to_string)
                    .collect::<Vec<_>>()
                    .join("/"),
                Some(v) => v.to_string(),
                None => String::new(),
            });
        }
        writer
            .write_record(
                record
                    .iter()
                    .map(|cell| spreadsheet_safe(cell).into_owned()),
            )
            .map_err(io)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| Error::Internal(format!("writing CSV: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| Error::Internal(e.to_string()))?;
    Ok(if bom { format!("\u{FEFF}{text}") } else { text })
}

/// One audit event as shown.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditEvent {
    /// Sequence number (use as `after` to page).
    pub id: i64,
    /// Who.
    pub actor: String,
    /// What was done.
    pub action: String,
    /// To what kind of thing.
    pub entity: String,
    /// Its id.
    pub entity_id: Option<Uuid>,
    /// Before (`null` for a creation).
    #[schema(value_type = Option<Object>)]
    pub before: Option<Value>,
    /// After (`null` for a deletion).
    #[schema(value_type = Option<Object>)]
    pub after: Option<Value>,
    /// When (for imported history: when it was imported).
    pub at: chrono::DateTime<chrono::Utc>,
    /// History imported from an event file: `{"at", "actor", "account",
    /// "source_tournament_id"}` as the file said (its original time and who acted on the
    /// server that wrote it; no account of this server). Null for this server's own events.
    #[schema(value_type = Option<Object>)]
    pub imported: Option<Value>,
    /// Where it happened, as the log shows it: `section`, `round`, `board`, `red`, `black`
    /// (names and `red_no`/`black_no`), `entrant`, `ko_round`, `game` where they apply.
    #[schema(value_type = Option<Object>)]
    pub place: Option<Value>,
}

/// A tournament's audit log (its arbiters only), oldest first, paged by `after`.
pub async fn audit_log(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    after: i64,
    limit: i64,
) -> Result<Vec<AuditEvent>> {
    let mut conn = pool.acquire().await?;
    db::tournament::find(&mut *conn, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    access::require(&mut conn, actor, tournament_id, Need::Scorer).await?;
    // Scorers see the log without contact data or addresses (SPEC §13: contact data is the
    // arbiters' only); arbiters see what they see elsewhere.
    let private = access::can_see_private(&mut conn, Some(actor), tournament_id).await?;
    let rows = db::audit::list(&mut *conn, tournament_id, after, limit.clamp(1, 1000)).await?;
    let shown = |value: Option<Value>| {
        if private {
            value
        } else {
            value.map(without_private)
        }
    };
    Ok(rows
        .into_iter()
        .map(|r| AuditEvent {
            id: r.audit_id,
            actor: r.actor,
            action: r.action,
            entity: r.entity,
            entity_id: r.entity_id,
            before: shown(r.before),
            after: shown(r.after),
            at: r.at,
            imported: r.imported,
            place: r.place,
        })
        .collect())
}

/// The keys of an audit event's values that hold contact data or a client's address.
const PRIVATE_KEYS: &[&str] = &[
    "email",
    "phone",
    "address",
    "birth_date",
    "ip",
    "client_ip",
    "remote_address",
];

/// `value` without [`PRIVATE_KEYS`], at any depth.
fn without_private(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(key, _)| !PRIVATE_KEYS.contains(&key.as_str()))
                .map(|(key, value)| (key, without_private(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_private).collect()),
        other => other,
    }
}

/// The message for a TRF file the core cannot read (`arbiter_core::trf` stays free of
/// languages; its English is the same text).
fn trf_error(error: &arbiter_core::trf::TrfError) -> Msg {
    use arbiter_core::trf::TrfErrorKind as K;
    let q = |v: &dyn std::fmt::Debug| format!("{v:?}");
    let kind = match &error.kind {
        K::MalformedLine => m::TRF_MALFORMED_LINE.msg(),
        K::InvalidStartNo(s) => m::TRF_INVALID_START_NO.with(&[&q(s)]),
        K::DuplicateStartNo(n) => m::TRF_DUPLICATE_START_NO.with(&[n]),
        K::InvalidRating(s) => m::TRF_INVALID_RATING.with(&[&q(s)]),
        K::InvalidPoints(s) => m::TRF_INVALID_POINTS.with(&[&q(s)]),
        K::InvalidRank(s) => m::TRF_INVALID_RANK.with(&[&q(s)]),
        K::InvalidOpponent(s) => m::TRF_INVALID_OPPONENT.with(&[&q(s)]),
        K::SelfOpponent(n) => m::TRF_SELF_OPPONENT.with(&[n]),
        K::InvalidColour(c) => m::TRF_INVALID_COLOUR.with(&[&q(c)]),
        K::InvalidResult(c) => m::TRF_INVALID_RESULT.with(&[&q(c)]),
        K::UnknownPlayer(n) => m::TRF_UNKNOWN_PLAYER.with(&[n]),
        K::InvalidPlayerNumber(s) => m::TRF_INVALID_PLAYER_NUMBER.with(&[&q(s)]),
        K::TwoTeams(n) => m::TRF_TWO_TEAMS.with(&[n]),
        K::InvalidHeader { code, reason } => m::TRF_INVALID_HEADER
            .with(&[code])
            .and(header_problem(reason)),
        K::ColourDependentScoring => m::TRF_COLOUR_DEPENDENT_SCORING.msg(),
        K::ByeWithOpponent(c) => m::TRF_BYE_WITH_OPPONENT.with(&[&q(c), c]),
        K::GameWithoutOpponent(c) => m::TRF_GAME_WITHOUT_OPPONENT.with(&[&q(c)]),
        K::OneSidedGame {
            start_no,
            opponent,
            round,
            named: Some(named),
        } => m::TRF_ONE_SIDED_NAMES.with(&[start_no, opponent, round, opponent, named]),
        K::OneSidedGame {
            start_no,
            opponent,
            round,
            named: None,
        } => m::TRF_ONE_SIDED_NONE.with(&[start_no, opponent, round, opponent]),
        K::PairedTwice {
            start_no,
            round,
            first,
            second,
        } => m::TRF_PAIRED_TWICE.with(&[start_no, round, first, second]),
        K::ColourMismatch {
            round,
            start_no,
            colour,
            opponent,
            opponent_colour,
            opponent_line,
        } => m::TRF_COLOUR_MISMATCH.with(&[
            round,
            start_no,
            colour,
            opponent,
            opponent_line,
            opponent_colour,
        ]),
        K::ResultMismatch {
            round,
            start_no,
            result,
            opponent,
            opponent_result,
            opponent_line,
        } => m::TRF_RESULT_MISMATCH.with(&[
            round,
            start_no,
            &q(result),
            opponent,
            opponent_line,
            &q(opponent_result),
        ]),
        K::SecondPairingBye {
            start_no,
            round,
            first,
        } => m::TRF_SECOND_PAIRING_BYE.with(&[round, start_no, first]),
        K::ByeConflict { start_no, round } => m::TRF_BYE_CONFLICT.with(&[start_no, round]),
    };
    m::TRF_AT.with(&[&error.line, &error.column]).and(kind)
}

/// What is wrong with a TRF header record, as a message.
fn header_problem(problem: &arbiter_core::trf::HeaderProblem) -> Msg {
    use arbiter_core::trf::HeaderProblem as P;
    match problem {
        P::ExpectedWOrB => m::TRF_HEADER_W_OR_B.msg(),
        P::ExpectedWholeNumber => m::TRF_HEADER_WHOLE_NUMBER.msg(),
        P::ExpectedRound => m::TRF_HEADER_ROUND.msg(),
        P::ByeType => m::TRF_HEADER_BYE_TYPE.msg(),
        P::MissingByeType => m::TRF_HEADER_MISSING_BYE_TYPE.msg(),
        P::MissingRound => m::TRF_HEADER_MISSING_ROUND.msg(),
        P::MatchPoints => m::TRF_HEADER_MATCH_POINTS.msg(),
        P::AccelerationFields => m::TRF_HEADER_ACCELERATION_FIELDS.msg(),
        P::BackwardsRange => m::TRF_HEADER_BACKWARDS_RANGE.msg(),
        P::SymbolNeedsPoints => m::TRF_HEADER_SYMBOL_NEEDS_POINTS.msg(),
        P::UnknownSymbol => m::TRF_HEADER_UNKNOWN_SYMBOL.msg(),
        P::ExpectedCodeValue => m::TRF_HEADER_CODE_VALUE.msg(),
        P::UnknownScoringCode => m::TRF_HEADER_UNKNOWN_SCORING_CODE.msg(),
        P::ExpectedOnePoints => m::TRF_HEADER_ONE_POINTS.msg(),
        P::ExpectedKeyValue => m::TRF_HEADER_KEY_VALUE.msg(),
        P::PairingSystem => {
            m::TRF_HEADER_PAIRING_SYSTEM.with(&[&arbiter_core::trf::PAIRING_SYSTEMS.join(", ")])
        }
        P::Tiebreak(error) => m::TRF_HEADER_TIEBREAKS
            .msg()
            .and(sections::key_error(error)),
        P::Unplayed(mode) => m::TRF_HEADER_UNPLAYED.with(&[&format!("{mode:?}")]),
        P::FoulThreshold => m::TRF_HEADER_FOUL_THRESHOLD.msg(),
        P::ForfeitCountsAsMet => m::TRF_HEADER_FORFEIT_COUNTS_AS_MET.msg(),
        P::UnknownKey(key) => m::TRF_HEADER_UNKNOWN_KEY.with(&[&format!("{key:?}")]),
    }
}

/// The CSV reader's error as a message (the line is said by the caller).
fn csv_error(error: &csv::Error) -> Msg {
    match error.kind() {
        csv::ErrorKind::Utf8 { err, .. } => m::CSV_FIELD_NOT_UTF8.with(&[&(err.field() + 1)]),
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => m::CSV_UNEQUAL_LENGTHS.with(&[len, expected_len]),
        // Reading from memory: no I/O error, no seeking, no serde (records are read as text).
        _ => m::CSV_CANNOT_BE_READ.msg(),
    }
}

#[cfg(test)]
mod tests {
    use super::trf_error;
    use arbiter_core::trf::{TrfError, TrfErrorKind as K};

    #[test]
    fn a_trf_error_says_in_english_what_the_core_says() {
        let kinds = vec![
            K::MalformedLine,
            K::InvalidStartNo("x".into()),
            K::DuplicateStartNo(3),
            K::InvalidRating("r".into()),
            K::InvalidPoints("p".into()),
            K::InvalidRank("k".into()),
            K::InvalidOpponent("o".into()),
            K::SelfOpponent(2),
            K::InvalidColour('q'),
            K::InvalidResult('?'),
            K::UnknownPlayer(9),
            K::InvalidPlayerNumber("n".into()),
            K::InvalidHeader {
                code: "XXR".into(),
                reason: arbiter_core::trf::HeaderProblem::ExpectedWholeNumber,
            },
            K::ColourDependentScoring,
            K::ByeWithOpponent('U'),
            K::GameWithoutOpponent('1'),
            K::OneSidedGame {
                start_no: 1,
                opponent: 2,
                round: 3,
                named: Some(4),
            },
            K::OneSidedGame {
                start_no: 1,
                opponent: 2,
                round: 3,
                named: None,
            },
            K::PairedTwice {
                start_no: 1,
                round: 2,
                first: 3,
                second: 4,
            },
            K::ColourMismatch {
                round: 1,
                start_no: 2,
                colour: 'w',
                opponent: 3,
                opponent_colour: '-',
                opponent_line: 7,
            },
            K::ResultMismatch {
                round: 1,
                start_no: 2,
                result: '1',
                opponent: 3,
                opponent_result: '1',
                opponent_line: 7,
            },
            K::SecondPairingBye {
                start_no: 4,
                round: 2,
                first: 1,
            },
            K::ByeConflict {
                start_no: 4,
                round: 2,
            },
        ];
        let problems = {
            use arbiter_core::standings::KeyError;
            use arbiter_core::trf::HeaderProblem as P;
            vec![
                P::ExpectedWOrB,
                P::ExpectedWholeNumber,
                P::ExpectedRound,
                P::ByeType,
                P::MissingByeType,
                P::MissingRound,
                P::MatchPoints,
                P::AccelerationFields,
                P::BackwardsRange,
                P::SymbolNeedsPoints,
                P::UnknownSymbol,
                P::ExpectedCodeValue,
                P::UnknownScoringCode,
                P::ExpectedOnePoints,
                P::ExpectedKeyValue,
                P::PairingSystem,
                P::Tiebreak(KeyError::Unknown("XYZ".into())),
                P::Tiebreak(KeyError::BadModifier {
                    name: "BH".into(),
                    modifier: "Q9".into(),
                }),
                P::Unplayed("fide".into()),
                P::FoulThreshold,
                P::ForfeitCountsAsMet,
                P::UnknownKey("colour".into()),
            ]
        };
        let headers = problems.into_iter().map(|reason| K::InvalidHeader {
            code: "XXS".into(),
            reason,
        });
        for kind in kinds.into_iter().chain(headers) {
            let error = TrfError {
                line: 5,
                column: 9,
                kind,
            };
            let message = trf_error(&error);
            assert_eq!(message.en(), error.to_string());
            if let K::InvalidHeader { .. } = error.kind {
                // The reason is worded in Chinese too, not copied in English.
                let zh = message.render(crate::i18n::Lang::ZhHant);
                assert!(!zh.contains(" must ") && !zh.contains("expected"), "{zh}");
            }
        }
    }
}
