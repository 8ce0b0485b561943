//! Prize tables and who wins what (SPEC §8): place ranges and category prizes, "one prize per
//! person, the larger one".

use super::access::{self, Change, Need};
use super::check::Check;
use super::knockout;
use super::users::Actor;
use super::{Error, Result};
use crate::db;
use crate::db::prize::PrizeRow;
use crate::i18n::messages as m;
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use std::collections::{HashMap, HashSet};
use utoipa::ToSchema;
use uuid::Uuid;

/// Category prizes we know how to award.
pub const CATEGORIES: &[&str] = &["female", "male", "mixed_doubles", "member"];

/// One prize of the table.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Prize {
    /// First place covered (each place of the range gets the award).
    pub place_from: Option<i32>,
    /// Last place covered (default: `place_from`).
    pub place_to: Option<i32>,
    /// Or a category: `female`, `male`, `mixed_doubles`, `member` (best-placed eligible).
    pub category: Option<String>,
    /// What is awarded ("300", "trophy", "plush toy").
    pub award: String,
    /// Its value, which decides "the larger one" (default 0).
    pub amount: Option<i32>,
    /// The value's currency, an ISO 4217 code (`CAD`, `HKD`, `TWD`); default: the currency of
    /// the section's entry fees when they name one.
    #[serde(default)]
    pub currency: Option<String>,
}

/// The prize table of a section.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PrizeTable {
    /// The prizes.
    pub prizes: Vec<Prize>,
}

fn table(rows: Vec<PrizeRow>) -> PrizeTable {
    PrizeTable {
        prizes: rows
            .into_iter()
            .map(|r| Prize {
                place_from: r.place_from,
                place_to: r.place_to,
                category: r.category,
                award: r.award,
                amount: Some(r.amount),
                currency: Some(r.currency),
            })
            .collect(),
    }
}

/// An amount of money as every page, print and CSV shows it: digits grouped by thousands,
/// then the currency code when there is one (`10,000 TWD`); empty for no amount.
pub fn money(amount: i32, currency: &str) -> String {
    if amount == 0 {
        return String::new();
    }
    let digits = amount.unsigned_abs().to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if amount < 0 { "-" } else { "" };
    match currency {
        "" => format!("{sign}{grouped}"),
        code => format!("{sign}{grouped} {code}"),
    }
}

/// The currency the entry fees of `fee_tiers` (a section's JSON) name, when they name exactly
/// one: the default currency of its prizes.
fn fee_currency(fee_tiers: &serde_json::Value) -> String {
    let codes: Vec<&str> = fee_tiers
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("currency")?.as_str())
        .filter(|c| !c.is_empty())
        .collect();
    match codes.first() {
        Some(first) if codes.iter().all(|c| c == first) => first.to_string(),
        _ => String::new(),
    }
}

/// A prize's currency as typed (`None`/empty: `default`), checked as an ISO 4217 code.
fn checked_currency(check: &mut Check, field: &str, typed: Option<&str>, default: &str) -> String {
    let code = typed.unwrap_or("").trim().to_ascii_uppercase();
    if code.is_empty() {
        return default.to_string();
    }
    if !(code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase())) {
        check.error(field, m::CHECK_MUST_THREE_LETTER_CURRENCY.msg());
    }
    code
}

/// Replaces a section's prize table.
pub async fn set(
    pool: &PgPool,
    actor: &Actor,
    section_id: Uuid,
    input: &PrizeTable,
) -> Result<PrizeTable> {
    let default_currency = db::section::find(pool, section_id)
        .await?
        .map(|s| fee_currency(&s.fee_tiers))
        .unwrap_or_default();
    let mut check = Check::new();
    let mut rows = Vec::new();
    for (i, p) in input.prizes.iter().enumerate() {
        let field = |f: &str| format!("prizes[{i}].{f}");
        let currency = checked_currency(
            &mut check,
            &field("currency"),
            p.currency.as_deref(),
            &default_currency,
        );
        let award = check.required_text(&field("award"), &p.award, 200);
        let amount = check.range(
            &field("amount"),
            i64::from(p.amount.unwrap_or(0)),
            0,
            100_000_000,
        );
        let category = p
            .category
            .as_deref()
            .map(|c| check.one_of(&field("category"), c, CATEGORIES));
        let place_to = p.place_to.or(p.place_from);
        match (p.place_from, place_to, &category) {
            (Some(from), Some(to), None) if from >= 1 && to >= from => {}
            (None, None, Some(_)) => {}
            (Some(_), _, Some(_)) => check.error(
                &field("category"),
                m::CHECK_PLACE_OR_CATEGORY_NOT_BOTH.msg(),
            ),
            (None, None, None) => {
                check.error(&field("place_from"), m::CHECK_PLACE_OR_CATEGORY.msg())
            }
            _ => check.error(&field("place_to"), m::CHECK_MUST_LEAST_PLACE_FROM.msg()),
        }
        rows.push(PrizeRow {
            prize_id: Uuid::nil(),
            place_from: p.place_from,
            place_to,
            category,
            award,
            amount,
            currency,
        });
    }
    check.finish()?;
    let mut tx = pool.begin().await?;
    let section = db::section::find_for_update(&mut tx, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    access::require(&mut tx, actor, section.tournament_id, Need::Arbiter).await?;
    let before = table(db::prize::list(&mut *tx, section_id).await?);
    db::prize::delete_all(&mut *tx, section_id).await?;
    for row in &rows {
        db::prize::insert(&mut *tx, section_id, row).await?;
    }
    let after = table(db::prize::list(&mut *tx, section_id).await?);
    access::audit(
        &mut tx,
        section.tournament_id,
        Some(actor),
        Change {
            action: "set_prizes",
            entity: "section",
            entity_id: Some(section_id),
            before: serde_json::to_value(&before).ok(),
            after: serde_json::to_value(&after).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(after)
}

/// A section's prize table.
pub async fn get(pool: &PgPool, section_id: Uuid) -> Result<PrizeTable> {
    db::section::find(pool, section_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_SECTION))?;
    Ok(table(db::prize::list(pool, section_id).await?))
}

/// A prize and its winner.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Award {
    /// The place the prize is for (place prizes).
    pub place: Option<u32>,
    /// The category (category prizes).
    pub category: Option<String>,
    /// What is awarded.
    pub award: String,
    /// Its value.
    pub amount: i32,
    /// The value's currency (ISO 4217), or empty.
    pub currency: String,
    /// The value as shown (`300 CAD`), empty for none.
    pub money: String,
    /// Who wins it (`null` when nobody is eligible).
    pub entrant_id: Option<Uuid>,
    /// Their name.
    pub name: Option<String>,
    /// Their final place.
    pub final_place: Option<u32>,
}

/// Who wins which prize, after the final ranking. Prizes are handed out from the most valuable
/// down; each person gets at most one (the larger). A place prize goes to the entrant in that
/// place, or, if they already have a larger prize, to the next-placed entrant without one; a
/// category prize to the best-placed eligible entrant without one.
pub async fn awarded(pool: &PgPool, section_id: Uuid) -> Result<Vec<Award>> {
    let ranking = knockout::final_ranking(pool, section_id).await?;
    if !ranking.is_final {
        return Err(Error::conflict(m::STATE_FINAL_RANKING_NOT_KNOWN.msg()));
    }
    let prizes = db::prize::list(pool, section_id).await?;
    let members = db::entrant::members(pool, section_id).await?;
    let mut genders: HashMap<Uuid, Vec<Option<String>>> = HashMap::new();
    let mut member_flag: HashSet<Uuid> = HashSet::new();
    for m in &members {
        genders
            .entry(m.entrant_id)
            .or_default()
            .push(m.gender.clone());
        if m.member {
            member_flag.insert(m.entrant_id);
        }
    }
    let eligible = |category: &str, entrant: Uuid| -> bool {
        let g = genders.get(&entrant).cloned().unwrap_or_default();
        match category {
            "female" => !g.is_empty() && g.iter().all(|x| x.as_deref() == Some("f")),
            "male" => !g.is_empty() && g.iter().all(|x| x.as_deref() == Some("m")),
            "mixed_doubles" => {
                g.len() == 2 && g.contains(&Some("f".into())) && g.contains(&Some("m".into()))
            }
            "member" => member_flag.contains(&entrant),
            _ => false,
        }
    };
    // Expand place ranges into one prize per place, then hand out from the largest.
    let mut single: Vec<(Option<u32>, Option<String>, String, i32)> = Vec::new();
    let mut currencies: Vec<String> = Vec::new();
    for p in &prizes {
        match (p.place_from, p.place_to) {
            (Some(from), Some(to)) => {
                for place in from..=to {
                    single.push((Some(place as u32), None, p.award.clone(), p.amount));
                    currencies.push(p.currency.clone());
                }
            }
            _ => {
                single.push((None, p.category.clone(), p.award.clone(), p.amount));
                currencies.push(p.currency.clone());
            }
        }
    }
    // Places that share a rank and carry different place prizes need the arbiter's order.
    let place_award = |place: u32| {
        single
            .iter()
            .filter(|p| p.0 == Some(place))
            .map(|p| (p.2.clone(), p.3))
            .max_by_key(|p| p.1)
    };
    for row in &ranking.rows {
        let tied: Vec<&knockout::RankingRow> =
            ranking.rows.iter().filter(|r| r.rank == row.rank).collect();
        if tied.len() > 1 && tied[0].entrant_id == row.entrant_id {
            let first = place_award(tied[0].place);
            if tied.iter().any(|r| place_award(r.place) != first) {
                return Err(super::ties::tied_error(
                    m::TIE_PRIZE_PLACES.with(&[&tied[0].place, &tied[tied.len() - 1].place]),
                    &tied.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
                ));
            }
        }
    }
    let mut order: Vec<usize> = (0..single.len()).collect();
    order.sort_by_key(|&i| {
        (
            std::cmp::Reverse(single[i].3),
            single[i].1.is_some(),
            single[i].0.unwrap_or(u32::MAX),
        )
    });
    let mut taken: HashSet<Uuid> = HashSet::new();
    let mut winners: Vec<Option<usize>> = vec![None; single.len()];
    for i in order {
        let (place, category, ..) = &single[i];
        let pick = match (place, category) {
            (Some(place), _) => ranking
                .rows
                .iter()
                .position(|r| r.place >= *place && !taken.contains(&r.entrant_id)),
            (None, Some(category)) => ranking
                .rows
                .iter()
                .position(|r| !taken.contains(&r.entrant_id) && eligible(category, r.entrant_id)),
            _ => None,
        };
        if let Some(row) = pick {
            taken.insert(ranking.rows[row].entrant_id);
            winners[i] = Some(row);
        }
    }
    Ok(single
        .into_iter()
        .zip(winners)
        .zip(currencies)
        .map(|(((place, category, award, amount), winner), currency)| {
            let row = winner.map(|w| &ranking.rows[w]);
            Award {
                place,
                category,
                award,
                amount,
                money: money(amount, &currency),
                currency,
                entrant_id: row.map(|r| r.entrant_id),
                name: row.map(|r| r.name.clone()),
                final_place: row.map(|r| r.place),
            }
        })
        .collect())
}

/// The prizes of the grand final (the playoff between section champions): places only, given
/// on top of the sections' prizes (seed 004: 總冠軍加發壹萬元, the overall champion gets
/// another ten thousand).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayoffPrize {
    /// First place covered (each place of the range gets the award).
    pub place_from: i32,
    /// Last place covered (default: `place_from`).
    pub place_to: Option<i32>,
    /// What is awarded ("10000", "trophy").
    pub award: String,
    /// Its value (default 0).
    pub amount: Option<i32>,
    /// The value's currency (ISO 4217); default: the currency the sections' entry fees name
    /// when they agree on one.
    #[serde(default)]
    pub currency: Option<String>,
}

/// The grand final's prize table.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayoffPrizeTable {
    /// The prizes.
    pub prizes: Vec<PlayoffPrize>,
}

fn playoff_table(rows: Vec<db::prize::PlayoffPrizeRow>) -> PlayoffPrizeTable {
    PlayoffPrizeTable {
        prizes: rows
            .into_iter()
            .map(|r| PlayoffPrize {
                place_from: r.place_from,
                place_to: Some(r.place_to),
                award: r.award,
                amount: Some(r.amount),
                currency: Some(r.currency),
            })
            .collect(),
    }
}

/// Replaces the grand final's prize table (it may be set before the playoff exists).
pub async fn set_playoff(
    pool: &PgPool,
    actor: &Actor,
    tournament_id: Uuid,
    input: &PlayoffPrizeTable,
) -> Result<PlayoffPrizeTable> {
    access::require_first(pool, actor, tournament_id, Need::Arbiter).await?;
    let sections = db::section::list(pool, tournament_id).await?;
    let fees: Vec<String> = sections
        .iter()
        .map(|s| fee_currency(&s.fee_tiers))
        .collect();
    let default_currency = match fees.iter().find(|c| !c.is_empty()) {
        Some(first) if fees.iter().all(|c| c.is_empty() || c == first) => first.clone(),
        _ => String::new(),
    };
    let mut check = Check::new();
    if input.prizes.len() > 20 {
        check.error("prizes", m::CHECK_HAS_MORE_THAN_20.msg());
    }
    let mut rows = Vec::new();
    for (i, p) in input.prizes.iter().enumerate().take(20) {
        let field = |f: &str| format!("prizes[{i}].{f}");
        let award = check.required_text(&field("award"), &p.award, 200);
        let amount = check.range(
            &field("amount"),
            i64::from(p.amount.unwrap_or(0)),
            0,
            100_000_000,
        );
        let currency = checked_currency(
            &mut check,
            &field("currency"),
            p.currency.as_deref(),
            &default_currency,
        );
        let place_to = p.place_to.unwrap_or(p.place_from);
        check.range(&field("place_from"), i64::from(p.place_from), 1, 64);
        if !(p.place_from..=64).contains(&place_to) && (1..=64).contains(&p.place_from) {
            check.error(&field("place_to"), m::CHECK_MUST_LEAST_PLACE_FROM.msg());
        }
        rows.push(db::prize::PlayoffPrizeRow {
            place_from: p.place_from,
            place_to,
            award,
            amount,
            currency,
        });
    }
    check.finish()?;
    let mut tx = pool.begin().await?;
    if !db::tournament::lock(&mut *tx, tournament_id).await? {
        return Err(Error::NotFound(m::NOT_FOUND_TOURNAMENT));
    }
    let before = playoff_table(db::prize::list_playoff(&mut *tx, tournament_id).await?);
    db::prize::replace_playoff(&mut *tx, tournament_id, &rows).await?;
    let after = playoff_table(db::prize::list_playoff(&mut *tx, tournament_id).await?);
    access::audit(
        &mut tx,
        tournament_id,
        Some(actor),
        Change {
            action: "set_playoff_prizes",
            entity: "tournament",
            entity_id: Some(tournament_id),
            before: serde_json::to_value(&before).ok(),
            after: serde_json::to_value(&after).ok(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(after)
}

/// The grand final's prize table.
pub async fn get_playoff(pool: &PgPool, tournament_id: Uuid) -> Result<PlayoffPrizeTable> {
    db::tournament::find(pool, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    Ok(playoff_table(
        db::prize::list_playoff(pool, tournament_id).await?,
    ))
}

/// A grand-final prize and who wins it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayoffAward {
    /// The place the prize is for.
    pub place: u32,
    /// What is awarded.
    pub award: String,
    /// Its value.
    pub amount: i32,
    /// The value's currency (ISO 4217), or empty.
    pub currency: String,
    /// The value as shown (`10,000 TWD`), empty for none.
    pub money: String,
    /// Who holds the place: one entrant, or the entrants sharing a place no match decided
    /// (the semi-final losers without a 3rd-place match); empty when nobody holds it.
    pub winners: Vec<PlayoffWinner>,
}

/// An entrant holding a grand-final place.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayoffWinner {
    /// Entrant.
    pub entrant_id: Uuid,
    /// Their name.
    pub name: String,
    /// Their section's name.
    pub section: String,
}

/// Who wins the grand final's prizes, once every match of the playoff is decided: each place
/// of a prize's range goes to whoever holds it, in addition to any section prize.
pub async fn playoff_awarded(pool: &PgPool, tournament_id: Uuid) -> Result<Vec<PlayoffAward>> {
    let mut conn = pool.acquire().await?;
    db::tournament::find(&mut *conn, tournament_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_TOURNAMENT))?;
    let places = knockout::playoff_places(&mut conn, tournament_id)
        .await?
        .ok_or_else(|| Error::conflict(m::CHECK_GRAND_FINAL_NOT_DECIDED.msg()))?;
    let sections: HashMap<Uuid, String> = db::section::list(&mut *conn, tournament_id)
        .await?
        .into_iter()
        .map(|s| (s.section_id, s.name))
        .collect();
    let mut names: HashMap<Uuid, PlayoffWinner> = HashMap::new();
    for id in places.iter().flatten() {
        if !names.contains_key(id) {
            if let Some(e) = db::entrant::find(&mut *conn, *id).await? {
                names.insert(
                    *id,
                    PlayoffWinner {
                        entrant_id: *id,
                        name: e.name,
                        section: sections.get(&e.section_id).cloned().unwrap_or_default(),
                    },
                );
            }
        }
    }
    let prizes = db::prize::list_playoff(&mut *conn, tournament_id).await?;
    let mut awards = Vec::new();
    for p in prizes {
        for place in p.place_from..=p.place_to {
            let holders = places
                .get(usize::try_from(place - 1).unwrap_or(usize::MAX))
                .cloned()
                .unwrap_or_default();
            awards.push(PlayoffAward {
                place: place as u32,
                award: p.award.clone(),
                amount: p.amount,
                currency: p.currency.clone(),
                money: money(p.amount, &p.currency),
                winners: holders
                    .iter()
                    .filter_map(|id| names.get(id).cloned())
                    .collect(),
            });
        }
    }
    Ok(awards)
}

#[cfg(test)]
mod tests {
    use super::{fee_currency, money};
    use serde_json::json;

    #[test]
    fn money_groups_thousands_and_names_the_currency() {
        assert_eq!(money(300, "CAD"), "300 CAD");
        assert_eq!(money(10_000, "TWD"), "10,000 TWD");
        assert_eq!(money(1_234_567, ""), "1,234,567");
        assert_eq!(money(0, "CAD"), "");
    }

    #[test]
    fn the_fee_currency_is_the_one_the_tiers_agree_on() {
        let tiers = |codes: &[&str]| {
            json!(codes
                .iter()
                .map(|c| json!({"name": "x", "amount": 1, "currency": c}))
                .collect::<Vec<_>>())
        };
        assert_eq!(fee_currency(&tiers(&["CAD", "CAD", ""])), "CAD");
        assert_eq!(fee_currency(&tiers(&["CAD", "HKD"])), "");
        assert_eq!(fee_currency(&tiers(&[])), "");
        assert_eq!(fee_currency(&json!(null)), "");
    }
}
