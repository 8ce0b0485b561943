//! The section settings' rules for players (issue 36, issue #39 item 9): self check-in and its
//! window (in the event's time zone), the absence rule, the payment instructions; and the
//! times of the settings form, read and shown in the event's time zone.

use super::form::{text, Field, Fields};
use crate::i18n::Tr;
use crate::service::FieldErrors;
use chrono::{DateTime, NaiveDateTime, Utc};

/// How a time is shown and read (`datetime-local`, in the event's time zone).
pub const TIME_FORMAT: &str = "%Y-%m-%dT%H:%M";

fn with_hint(mut field: Field, key: &'static str) -> Field {
    field.hint_key = Some(key);
    field
}

/// The payment instructions' field (after the fees).
pub fn payment_field(form: &Fields) -> Field {
    with_hint(
        Field::new(
            "payment_instructions",
            "adm.settings.payment_instructions",
            "textarea",
            form,
        ),
        "adm.settings.payment_instructions_hint",
    )
}

/// The fields of self check-in and the absence rule.
pub fn rule_fields(form: &Fields) -> Vec<Field> {
    vec![
        // Issue 36: self check-in with the player's key, its window in the event's time zone,
        // and the absence rule.
        with_hint(
            Field::new(
                "self_check_in",
                "adm.settings.self_check_in",
                "checkbox",
                form,
            ),
            "adm.settings.self_check_in_hint",
        ),
        with_hint(
            Field::new(
                "check_in_opens_at",
                "adm.settings.check_in_opens_at",
                "datetime-local",
                form,
            ),
            "adm.settings.check_in_time_hint",
        ),
        with_hint(
            Field::new(
                "check_in_closes_at",
                "adm.settings.check_in_closes_at",
                "datetime-local",
                form,
            ),
            "adm.settings.check_in_time_hint",
        ),
        with_hint(
            Field::new(
                "absent_withdraw_after",
                "adm.settings.absent_withdraw_after",
                "number",
                form,
            ),
            "adm.settings.absent_withdraw_after_hint",
        ),
    ]
}

/// A `datetime-local` field read as UTC (seconds optional).
/// A time entered in the event's time zone, as UTC. A local time that a change of clocks
/// skips is refused; one that occurs twice is taken at its first occurrence.
pub fn time(
    form: &Fields,
    name: &str,
    _tr: Tr,
    zone: chrono_tz::Tz,
    errors: &mut FieldErrors,
) -> Option<DateTime<Utc>> {
    use chrono::TimeZone as _;
    let value = text(form, name)?;
    NaiveDateTime::parse_from_str(&value, TIME_FORMAT)
        .or_else(|_| NaiveDateTime::parse_from_str(&value, "%Y-%m-%dT%H:%M:%S"))
        .ok()
        .and_then(|t| zone.from_local_datetime(&t).earliest())
        .map(|t| t.with_timezone(&Utc))
        .or_else(|| {
            errors.insert(
                name.into(),
                vec![crate::i18n::ui("adm.settings.not_a_time")],
            );
            None
        })
}

/// A time field that may be emptied: empty is `Some(None)` (no time), a time `Some(Some)`,
/// a wrong one `None` with its message in `errors`.
pub fn time_or_none(
    form: &Fields,
    name: &str,
    tr: Tr,
    zone: chrono_tz::Tz,
    errors: &mut FieldErrors,
) -> Option<Option<DateTime<Utc>>> {
    match text(form, name) {
        None => Some(None),
        Some(_) => time(form, name, tr, zone, errors).map(Some),
    }
}
