//! The dashboard's form plumbing: posted fields, the field list `admin/fields.html` renders,
//! errors placed next to their fields, and the access check pages make before they render.

use crate::http::AppState;
use crate::i18n::Msg;
use crate::i18n::Tr;
use crate::service::access::Need;
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
use std::collections::{BTreeMap, HashMap};
use uuid::Uuid;

/// A posted form: field name → text, as browsers send it (the `csrf` field included).
pub type Fields = HashMap<String, String>;

/// The form of a button that carries only its CSRF token (and maybe a confirmation).
pub type ButtonForm = BTreeMap<String, String>;

/// Refuses unless `actor` has `need` on the tournament (the services' own access rule).
pub async fn require(
    state: &AppState,
    actor: &Actor,
    tournament_id: Uuid,
    need: Need,
) -> service::Result<()> {
    let mut conn = state.db.acquire().await?;
    service::access::require(&mut conn, actor, tournament_id, need).await
}

/// What `actor` may do in the tournament, so that a page offers only the forms they may send.
pub async fn powers(
    state: &AppState,
    actor: &Actor,
    tournament_id: Uuid,
) -> service::Result<service::access::Powers> {
    let mut conn = state.db.acquire().await?;
    service::access::powers(&mut conn, actor, tournament_id).await
}

/// A form field's trimmed text, `None` when empty or absent.
pub fn text(form: &Fields, name: &str) -> Option<String> {
    form.get(name)
        .map(|v| v.trim())
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

/// A whole number field (`None` when empty); a message in `errors` when it is not a number.
pub fn number(form: &Fields, name: &str, _tr: Tr, errors: &mut FieldErrors) -> Option<i64> {
    let value = text(form, name)?;
    match value.parse() {
        Ok(n) => Some(n),
        Err(_) => {
            errors.insert(name.into(), vec![crate::i18n::ui("register.not_a_number")]);
            None
        }
    }
}

pub fn date(
    form: &Fields,
    name: &str,
    _tr: Tr,
    errors: &mut FieldErrors,
) -> Option<chrono::NaiveDate> {
    let value = text(form, name)?;
    match chrono::NaiveDate::parse_from_str(&value, "%Y-%m-%d") {
        Ok(d) => Some(d),
        Err(_) => {
            errors.insert(name.into(), vec![crate::i18n::ui("register.not_a_date")]);
            None
        }
    }
}

/// Whether a checkbox was ticked.
pub fn checkbox(form: &Fields, name: &str) -> bool {
    form.get(name).is_some_and(|v| !v.is_empty())
}

/// One option of a select.
pub struct Choice {
    /// Submitted value.
    pub value: String,
    /// Text shown.
    pub label: String,
    /// Chosen.
    pub selected: bool,
}

/// One field of a dashboard form, rendered by `admin/fields.html`.
pub struct Field {
    /// Name (also the id).
    pub name: &'static str,
    /// Catalogue key of the label.
    pub label_key: &'static str,
    /// `text`, `number`, `date`, `email`, `tel`, `select`, `checkbox` or `textarea`.
    pub kind: &'static str,
    /// The value entered (for a checkbox: non-empty when ticked).
    pub value: String,
    /// Required.
    pub required: bool,
    /// Message next to the field.
    pub error: Option<String>,
    /// Options of a select.
    pub options: Vec<Choice>,
    /// Catalogue key of a hint shown under the field (the format expected).
    pub hint_key: Option<&'static str>,
    /// The field takes the focus when the page opens (the desk's next walk-in).
    pub autofocus: bool,
}

impl Field {
    /// A field showing the form's value (empty when the form has none).
    pub fn new(
        name: &'static str,
        label_key: &'static str,
        kind: &'static str,
        form: &Fields,
    ) -> Field {
        Field {
            name,
            label_key,
            kind,
            value: form.get(name).cloned().unwrap_or_default(),
            required: false,
            error: None,
            options: Vec::new(),
            hint_key: None,
            autofocus: false,
        }
    }

    /// A field with a value shown when the form has none yet.
    pub fn plain(
        name: &'static str,
        label_key: &'static str,
        kind: &'static str,
        form: &Fields,
        default: &str,
    ) -> Field {
        let mut field = Field::new(name, label_key, kind, form);
        if field.value.is_empty() {
            field.value = default.to_string();
        }
        field
    }

    /// Marks the field required.
    pub fn required(mut self) -> Field {
        self.required = true;
        self
    }

    /// A select over `values`; labels from the catalogue keys `prefix.value` (or the value
    /// itself without a prefix); `default` is chosen when the form has no value yet.
    pub fn select(mut self, values: &[&str], prefix: Option<&str>, tr: Tr, default: &str) -> Field {
        let chosen = if self.value.is_empty() {
            default.to_string()
        } else {
            self.value.clone()
        };
        self.options = values
            .iter()
            .map(|v| Choice {
                value: (*v).to_string(),
                label: match (prefix, v.is_empty()) {
                    (_, true) => tr.t("adm.default").to_string(),
                    (Some(p), false) => tr.t(&format!("{p}.{v}")).to_string(),
                    (None, false) => (*v).to_string(),
                },
                selected: *v == chosen,
            })
            .collect();
        self
    }

    /// Adds a hint under the field.
    pub fn hint(mut self, key: &'static str) -> Field {
        self.hint_key = Some(key);
        self
    }

    /// Relabels the choices (not the empty one) by their values.
    pub fn labelled(mut self, label: impl Fn(&str) -> String) -> Field {
        for choice in self.options.iter_mut().filter(|c| !c.value.is_empty()) {
            choice.label = label(&choice.value);
        }
        self
    }
}

/// Puts the errors' messages next to their fields; what fits no field is returned.
pub fn place_errors(
    tr: Tr,
    fields: &mut [Field],
    errors: &FieldErrors,
    aliases: &[(&str, &str)],
) -> Vec<String> {
    let mut rest = Vec::new();
    for (key, messages) in errors {
        let target = aliases
            .iter()
            .find(|(from, _)| from == key)
            .map_or(key.as_str(), |(_, to)| to);
        match fields.iter_mut().find(|f| f.name == target) {
            Some(field) => {
                let joined = tr.msg(&Msg::list(messages.iter().cloned()));
                field.error = Some(match field.error.take() {
                    Some(before) => format!("{before}; {joined}"),
                    None => joined,
                });
            }
            None => rest.push(tr.msg(&Msg::field(key, Msg::list(messages.iter().cloned())))),
        }
    }
    rest
}

/// The field errors of an `Invalid` service error (empty for other errors).
pub fn invalid_fields(err: &Error, tr: Tr) -> Option<(String, FieldErrors)> {
    match err {
        Error::Invalid { message, fields } => Some((tr.msg(message), fields.clone())),
        _ => None,
    }
}

/// A success message key from `?done=` (only known keys; anything else is ignored).
pub fn done_notice(tr: Tr, uri: &axum::http::Uri) -> Option<String> {
    let query: HashMap<String, String> =
        serde_urlencoded::from_str(uri.query().unwrap_or("")).unwrap_or_default();
    let key = match query.get("done")?.as_str() {
        "created" => "adm.done.created",
        "entrant" => "adm.done.entrant",
        "entrant_status" => "adm.done.entrant_status",
        "entrant_edited" => "adm.done.entrant_edited",
        "registration" => "adm.done.registration",
        "paired" => "adm.done.paired",
        "published" => "adm.done.published",
        "clock" => "adm.done.clock",
        "unpaired" => "adm.done.unpaired",
        "result" => "adm.done.result",
        "converted" => "adm.results.converted_short",
        "settings" => "adm.done.settings",
        "bye" => "adm.done.bye",
        "bye_cancelled" => "adm.done.bye_cancelled",
        "forbidden" => "adm.done.forbidden",
        "allowed" => "adm.done.allowed",
        "repaired" => "adm.done.repaired",
        "imported" => "adm.done.imported",
        "event" => "adm.done.event",
        "event_status" => "adm.done.event_status",
        _ => return None,
    };
    Some(tr.t(key).to_string())
}
