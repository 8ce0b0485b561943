//! The forms and rows the section page shows, apart from the handlers that act on them (so
//! that those handlers can show the section page again without an import cycle): the
//! add-entrant, requested-bye and forbidden-pair forms, and the boards of the current round
//! with their result forms.

use super::form::{checkbox, number, text, Choice, Field, Fields};
use crate::i18n::Tr;
use crate::service::entrants::{EntrantInput, EntrantView, MemberInput};
use crate::service::payments::METHODS;
use crate::service::rounds::BoardView;
use crate::service::sections::FeeTier;
use crate::service::FieldErrors;
use crate::vocab::{ByeKind, EntrantStatus, GameResult};

/// The payment method select (`name`), cash first.
pub fn method_field(name: &'static str, form: &Fields, tr: Tr) -> Field {
    Field::new(name, "adm.desk.method", "select", form).select(
        METHODS,
        Some("adm.method"),
        tr,
        "cash",
    )
}

/// The add-entrant form: the player (or team), then the fee tier, member flag and what was
/// paid, in one step (the desk's on-site entry).
pub fn entrant_fields(form: &Fields, tr: Tr, doubles: bool, tiers: &[FeeTier]) -> Vec<Field> {
    let mut fields = vec![
        Field::new("name", "col.name", "text", form).required(),
        Field::new("club", "col.club", "text", form),
        Field::new("rating", "col.rating", "number", form),
        Field::new("gender", "register.gender", "select", form).select(
            &["", "m", "f", "x"],
            Some("gender"),
            tr,
            "",
        ),
        Field::new("email", "register.email", "email", form),
        Field::new("phone", "register.phone", "tel", form),
    ];
    if doubles {
        fields.push(Field::new("partner_name", "register.partner_name", "text", form).required());
        fields.push(Field::new("partner_club", "adm.partner_club", "text", form));
    }
    fields.push(Field::new("member", "register.member", "checkbox", form));
    if !tiers.is_empty() {
        let mut tier = Field::new("fee_tier", "register.fee_tier", "select", form).required();
        let chosen = if tier.value.is_empty() && tiers.len() == 1 {
            tiers[0].name.clone()
        } else {
            tier.value.clone()
        };
        tier.options = std::iter::once(Choice {
            value: String::new(),
            label: tr.t("register.choose").to_string(),
            selected: chosen.is_empty(),
        })
        .chain(tiers.iter().map(|t| Choice {
            value: t.name.clone(),
            label: t.label(),
            selected: t.name == chosen,
        }))
        .collect();
        fields.push(tier);
        fields.push(Field::new("paid", "adm.desk.paid_now", "number", form));
        fields.push(method_field("payment_method", form, tr));
    }
    // The gender select's empty choice reads "not given", not "default".
    if let Some(g) = fields.iter_mut().find(|f| f.name == "gender") {
        if let Some(first) = g.options.first_mut() {
            first.label = tr.t("gender.unset").to_string();
        }
    }
    fields
}

pub fn entrant_input(form: &Fields, tr: Tr, doubles: bool) -> (EntrantInput, FieldErrors) {
    let mut errors = FieldErrors::new();
    let rating = number(form, "rating", tr, &mut errors);
    let paid = number(form, "paid", tr, &mut errors);
    let fee = |input: EntrantInput| EntrantInput {
        member: Some(checkbox(form, "member")),
        fee_tier: text(form, "fee_tier"),
        paid,
        payment_method: paid.and(text(form, "payment_method")),
        ..input
    };
    let input = if doubles {
        let member = |name: &str, club: &str| MemberInput {
            name: form.get(name).cloned().unwrap_or_default(),
            club: text(form, club),
            ..MemberInput::default()
        };
        EntrantInput {
            members: Some(vec![
                MemberInput {
                    gender: text(form, "gender"),
                    rating,
                    email: text(form, "email"),
                    phone: text(form, "phone"),
                    ..member("name", "club")
                },
                member("partner_name", "partner_club"),
            ]),
            ..EntrantInput::default()
        }
    } else {
        EntrantInput {
            name: Some(form.get("name").cloned().unwrap_or_default()),
            club: text(form, "club"),
            rating,
            gender: text(form, "gender"),
            email: text(form, "email"),
            phone: text(form, "phone"),
            ..EntrantInput::default()
        }
    };
    (fee(input), errors)
}

/// The service's field names of a bye request → the form's.
pub const BYE_ALIASES: &[(&str, &str)] = &[("round", "bye_round"), ("kind", "bye_kind")];
/// The service's field names of a forbidden pair → the form's.
pub const PAIR_ALIASES: &[(&str, &str)] = &[("a", "pair_a"), ("b", "pair_b")];

/// A select over `entrants` (start number and name); an empty first choice.
fn entrant_select(
    name: &'static str,
    label_key: &'static str,
    form: &Fields,
    tr: Tr,
    entrants: &[&EntrantView],
) -> Field {
    let mut field = Field::new(name, label_key, "select", form).required();
    let chosen = field.value.clone();
    field.options = std::iter::once(Choice {
        value: String::new(),
        label: tr.t("adm.choose_entrant").to_string(),
        selected: chosen.is_empty(),
    })
    .chain(entrants.iter().map(|e| Choice {
        value: e.id.to_string(),
        label: match e.start_no {
            Some(no) => format!("{no}. {}", e.name),
            None => e.name.clone(),
        },
        selected: e.id.to_string() == chosen,
    }))
    .collect();
    field
}

/// The requested-bye form: who, which round (the next by default), which kind.
pub fn bye_fields(form: &Fields, tr: Tr, entrants: &[EntrantView], next_round: i32) -> Vec<Field> {
    let active: Vec<&EntrantView> = entrants
        .iter()
        .filter(|e| e.status == EntrantStatus::Active)
        .collect();
    vec![
        entrant_select("bye_entrant", "adm.byes.entrant", form, tr, &active),
        Field::plain(
            "bye_round",
            "adm.round",
            "number",
            form,
            &next_round.to_string(),
        )
        .required(),
        Field::new("bye_kind", "adm.byes.kind", "select", form).select(
            ByeKind::WORDS,
            Some("absence"),
            tr,
            "half",
        ),
    ]
}

/// The forbidden-pair form: two entrants.
pub fn pair_fields(form: &Fields, tr: Tr, entrants: &[EntrantView]) -> Vec<Field> {
    let all: Vec<&EntrantView> = entrants.iter().collect();
    vec![
        entrant_select("pair_a", "adm.forbidden.a", form, tr, &all),
        entrant_select("pair_b", "adm.forbidden.b", form, tr, &all),
    ]
}

/// A board row of the page.
pub struct BoardRow {
    /// The board.
    pub board: BoardView,
    /// Catalogue key of the result, or empty.
    pub result_key: String,
    /// Version to send back (0 before the first result).
    pub version: i32,
    /// Board of the last entry (highlighted).
    pub just_saved: bool,
}

/// One option of a board's result select.
pub struct ResultChoice {
    /// The result.
    pub value: GameResult,
    /// Catalogue key.
    pub key: String,
}

/// The rows of a round's boards; `saved` is highlighted.
pub fn board_rows(boards: Vec<BoardView>, saved: Option<i32>) -> Vec<BoardRow> {
    boards
        .into_iter()
        .map(|b| BoardRow {
            result_key: b.result.map(|r| format!("result.{r}")).unwrap_or_default(),
            version: b.version.unwrap_or(0),
            just_saved: saved == Some(b.number),
            board: b,
        })
        .collect()
}

/// The results a board form offers.
pub fn choices() -> Vec<ResultChoice> {
    GameResult::ENTERED
        .iter()
        .map(|&r| ResultChoice {
            value: r,
            key: format!("result.{r}"),
        })
        .collect()
}

/// A table of rounds by entry count as the settings page shows it: one row a line,
/// `2-16: 5`, the last perhaps `33+: 7`.
pub(super) fn rounds_table_text(table: &[crate::service::sections::RoundsByEntries]) -> String {
    table
        .iter()
        .map(|row| match row.max {
            Some(max) => format!("{}-{}: {}", row.min, max, row.rounds),
            None => format!("{}+: {}", row.min, row.rounds),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The table typed on the settings page (`2-16: 5`, `17–32：6`, `33+: 7`; `~` also joins);
/// a line that is not a row is an error naming it.
pub(super) fn rounds_table(
    form: &super::form::Fields,
    _tr: crate::i18n::Tr,
    errors: &mut crate::service::FieldErrors,
) -> Vec<crate::service::sections::RoundsByEntries> {
    let text = form
        .get("rounds_by_entries")
        .map(String::as_str)
        .unwrap_or("");
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let parsed = line.split_once([':', '：']).and_then(|(range, rounds)| {
            let rounds = rounds.trim().parse::<i32>().ok()?;
            let range = range.trim();
            let (min, max) = match range.strip_suffix('+') {
                Some(min) => (min.trim().parse::<i32>().ok()?, None),
                None => {
                    let (min, max) = range.split_once(['-', '–', '~', '～'])?;
                    (
                        min.trim().parse::<i32>().ok()?,
                        Some(max.trim().parse::<i32>().ok()?),
                    )
                }
            };
            Some(crate::service::sections::RoundsByEntries { min, max, rounds })
        });
        match parsed {
            Some(row) => rows.push(row),
            None => {
                errors
                    .entry("rounds_by_entries".into())
                    .or_default()
                    .push(crate::i18n::ui_with(
                        "adm.settings.bad_rounds_line",
                        &[&(i + 1)],
                    ))
            }
        }
    }
    rows
}

/// Fee tiers as the section forms show them: one `name: amount` a line, then the currency
/// code when one is set (`Member: 10 CAD`).
pub(super) fn fee_tiers_text(tiers: &[FeeTier]) -> String {
    tiers
        .iter()
        .map(|t| match t.currency.as_str() {
            "" => format!("{}: {}", t.name, t.amount),
            currency => format!("{}: {} {currency}", t.name, t.amount),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The fee tiers typed on a section form, one `name: amount [currency]` a line (the last
/// colon separates, a full-width one too); a line that is not a tier is an error naming it.
pub(super) fn fee_tiers(
    form: &super::form::Fields,
    _tr: crate::i18n::Tr,
    errors: &mut crate::service::FieldErrors,
) -> Vec<FeeTier> {
    let mut tiers = Vec::new();
    let text = form.get("fee_tiers").map(String::as_str).unwrap_or("");
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let parsed = line.rfind([':', '：']).and_then(|at| {
            let (name, rest) = line.split_at(at);
            let mut words = rest.trim_start_matches([':', '：']).split_whitespace();
            let amount = words.next()?.parse::<i64>().ok()?;
            let currency = words.next().unwrap_or("").to_string();
            // Anything after the currency is not a tier.
            words
                .next()
                .is_none()
                .then(|| (name.trim(), amount, currency))
        });
        match parsed {
            Some((name, amount, currency)) => tiers.push(FeeTier {
                name: name.to_string(),
                amount,
                currency,
            }),
            None => errors
                .entry("fee_tiers".into())
                .or_default()
                .push(crate::i18n::ui_with(
                    "adm.settings.bad_fee_line",
                    &[&(i + 1)],
                )),
        }
    }
    tiers
}

/// The service's refusals of list fields, by row (`fee_tiers[2].amount`), grouped under the
/// list's one box (`fee_tiers`, `rounds_by_entries`, `tiebreaks`).
pub(super) fn group_list_errors(
    errors: crate::service::FieldErrors,
) -> crate::service::FieldErrors {
    let mut grouped = crate::service::FieldErrors::new();
    for (key, messages) in errors {
        let key = ["fee_tiers", "rounds_by_entries", "tiebreaks"]
            .into_iter()
            .find(|list| key.starts_with(list))
            .map_or(key.clone(), str::to_string);
        grouped.entry(key).or_default().extend(messages);
    }
    grouped
}

#[cfg(test)]
mod fee_tier_tests {
    use super::*;
    use crate::i18n::{Lang, Msg, Tr};

    #[test]
    fn fee_tiers_are_read_with_an_optional_currency_and_written_back_alike() {
        let tr = Tr { lang: Lang::En };
        let mut form = super::super::form::Fields::new();
        form.insert(
            "fee_tiers".into(),
            "Member: 10 CAD\n會員：20\n\nVIP: 5: 30 hkd\nBad line\nX: 1 CAD extra".into(),
        );
        let mut errors = crate::service::FieldErrors::new();
        let tiers = fee_tiers(&form, tr, &mut errors);
        let read: Vec<(&str, i64, &str)> = tiers
            .iter()
            .map(|t| (t.name.as_str(), t.amount, t.currency.as_str()))
            .collect();
        assert_eq!(
            read,
            [
                ("Member", 10, "CAD"),
                ("會員", 20, ""),
                ("VIP: 5", 30, "hkd")
            ]
        );
        // Lines 5 and 6 (1-based, the empty line counted) are no tiers.
        assert_eq!(errors["fee_tiers"].len(), 2, "{errors:?}");
        assert!(
            errors["fee_tiers"][0].to_string().contains('5'),
            "{errors:?}"
        );
        assert_eq!(fee_tiers_text(&tiers[..2]), "Member: 10 CAD\n會員: 20");
    }

    #[test]
    fn row_errors_go_to_their_list() {
        let mut errors = crate::service::FieldErrors::new();
        errors.insert("fee_tiers[1].currency".into(), vec![Msg::shown("a")]);
        errors.insert("fee_tiers[0].name".into(), vec![Msg::shown("b")]);
        errors.insert("cap".into(), vec![Msg::shown("c")]);
        let grouped = group_list_errors(errors);
        assert_eq!(grouped["fee_tiers"].len(), 2);
        assert_eq!(grouped["cap"], ["c"]);
    }
}

#[cfg(test)]
mod rounds_table_tests {
    use super::*;

    #[test]
    fn a_table_reads_back_as_written() {
        let mut form = super::super::form::Fields::new();
        form.insert(
            "rounds_by_entries".into(),
            "2-16: 5\n17 – 32：6\n\n33+: 7".into(),
        );
        let mut errors = crate::service::FieldErrors::new();
        let tr = crate::i18n::Tr {
            lang: crate::i18n::Lang::En,
        };
        let table = rounds_table(&form, tr, &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(rounds_table_text(&table), "2-16: 5\n17-32: 6\n33+: 7");
        form.insert("rounds_by_entries".into(), "2-16 5\nmany: 7".into());
        let table = rounds_table(&form, tr, &mut errors);
        assert!(table.is_empty());
        assert_eq!(errors["rounds_by_entries"].len(), 2);
    }
}

/// The first refused field, else the first, takes the focus (`on`: the desk's next walk-in).
pub fn focus_first(fields: &mut [Field], on: bool) {
    let at = fields.iter().position(|f| f.error.is_some()).unwrap_or(0);
    if let Some(f) = fields.get_mut(at).filter(|_| on) {
        f.autofocus = true;
    }
}

/// The fee tiers' amounts by name, as JSON: the add form fills the amount paid from them.
pub fn fee_amounts(tiers: &[FeeTier]) -> String {
    let amounts: std::collections::BTreeMap<&str, i64> =
        tiers.iter().map(|t| (t.name.as_str(), t.amount)).collect();
    serde_json::to_string(&amounts).unwrap_or_default()
}
