//! Live standings of a section: the core's ranking over the stored rounds, provisional while
//! results are missing.

use super::ties;
use super::{Error, Result};
use crate::db;
use crate::i18n::messages as m;
use crate::vocab::{EntrantStatus, TieMethod};
use arbiter_core::standings::TiebreakValue;
use serde::Serialize;
use serde_json::Value;
use sqlx::PgPool;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use uuid::Uuid;

/// One line of the standings.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StandingRow {
    /// Rank; tied entrants share it.
    pub rank: u32,
    /// Entrant.
    pub entrant_id: Uuid,
    /// Starting number.
    pub start_no: u32,
    /// Name.
    pub name: String,
    /// Club.
    pub club: Option<String>,
    /// `active` or `withdrawn`.
    pub status: EntrantStatus,
    /// Points.
    pub points: f64,
    /// Every tiebreak's value by key (numbers; PREV/CUT_EARLY give a list).
    #[schema(value_type = Object)]
    pub tiebreaks: BTreeMap<String, Value>,
    /// `lot` or `manual` when the arbiter decided the order of a tie the chain left.
    pub tie_decided_by: Option<TieMethod>,
}

/// The standings of a section.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StandingsView {
    /// Rounds evaluated.
    pub round: u32,
    /// No result is missing in the rounds evaluated.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// The tiebreak keys, in chain order.
    pub tiebreaks: Vec<String>,
    /// Rows in ranking order.
    pub rows: Vec<StandingRow>,
}

/// A tiebreak value as JSON: a number, or a list of numbers for sequence keys.
pub fn value_json(value: &TiebreakValue) -> Value {
    let number = |tenths: i64, scale: f64| serde_json::json!(tenths as f64 / scale);
    match value {
        TiebreakValue::Points(p) => number(p.tenths(), 10.0),
        TiebreakValue::Hundredths(h) => number(*h, 100.0),
        TiebreakValue::Count(n) => serde_json::json!(n),
        TiebreakValue::Position(n) => serde_json::json!(n),
        TiebreakValue::Scores(list) => {
            Value::Array(list.iter().map(|p| number(p.tenths(), 10.0)).collect())
        }
    }
}

/// Computes the standings of a section as they stand now, with the arbiter's decisions for
/// entrants the whole chain leaves tied.
pub async fn compute(pool: &PgPool, section_id: Uuid) -> Result<StandingsView> {
    let mut conn = pool.acquire().await?;
    // Read before the rows: the standings kept under it are at least as new as it says.
    let version = db::audit::section_version(&mut *conn, section_id).await?;
    if let Some(kept) = version.and_then(|v| last_computed::get(section_id, v)) {
        return Ok((*kept).clone());
    }
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    // The rows kept from the last version, with what changed since read again.
    let (state, version) = super::state::kept::load_latest(&mut conn, section).await?;
    let decided = ties::decide(&mut conn, state).await?;
    let view = view_of(&decided);
    if let Some(version) = version {
        last_computed::keep(section_id, version, std::sync::Arc::new(view.clone()));
    }
    Ok(view)
}

/// [`compute`] without anything kept: every row read again (what the kept rows and tables
/// must always equal).
pub async fn compute_from_scratch(pool: &PgPool, section_id: Uuid) -> Result<StandingsView> {
    let mut conn = pool.acquire().await?;
    let section = db::section::find(&mut *conn, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    Ok(view_of(&ties::standings(&mut conn, section).await?))
}

/// The standings last computed per section and data version (issue #38): every page and
/// answer that shows a section's standings (the standings, the crosstable, the screen, the
/// players' pages, the team ranking, the exports, in every language) computes them once per
/// version in this process, and a page nobody has asked for yet costs only its rendering.
mod last_computed {
    use super::StandingsView;
    use std::collections::HashMap;
    use std::sync::{Arc, LazyLock, Mutex};
    use uuid::Uuid;

    /// Sections kept at most: each is one section's table (a few hundred KB for 1,000
    /// entrants); past it, the map starts again.
    const SECTIONS: usize = 256;

    type Kept = HashMap<Uuid, (i64, Arc<StandingsView>)>;
    static KEPT: LazyLock<Mutex<Kept>> = LazyLock::new(|| Mutex::new(HashMap::new()));

    pub fn get(section_id: Uuid, version: i64) -> Option<Arc<StandingsView>> {
        let kept = KEPT.lock().ok()?;
        let (at, view) = kept.get(&section_id)?;
        (*at == version).then(|| view.clone())
    }

    pub fn keep(section_id: Uuid, version: i64, view: Arc<StandingsView>) {
        if let Ok(mut kept) = KEPT.lock() {
            if kept.len() >= SECTIONS && !kept.contains_key(&section_id) {
                kept.clear();
            }
            // An older computation finishing late does not replace a newer one.
            if kept.get(&section_id).is_none_or(|(at, _)| *at <= version) {
                kept.insert(section_id, (version, view));
            }
        }
    }
}

/// The standings of a ranked section.
fn view_of(decided: &ties::Decided) -> StandingsView {
    let (state, table) = (&decided.state, &decided.table);
    let rows = decided
        .order
        .iter()
        .filter_map(|placed| {
            let row = &table.rows[placed.index];
            let e = state.entrant_by_no(row.start_no)?;
            Some(StandingRow {
                rank: placed.rank,
                entrant_id: e.entrant_id,
                start_no: row.start_no,
                name: e.name.clone(),
                club: e.club.clone(),
                status: e.status,
                points: row.points.tenths() as f64 / 10.0,
                tiebreaks: table
                    .labels
                    .iter()
                    .cloned()
                    .zip(row.values.iter().map(value_json))
                    .collect(),
                tie_decided_by: placed.decided_by,
            })
        })
        .collect();
    StandingsView {
        round: state.rounds_paired(),
        is_final: !table.provisional,
        tiebreaks: table.labels.clone(),
        rows,
    }
}
