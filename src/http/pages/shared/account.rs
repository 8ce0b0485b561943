//! Helpers of the account and staff pages: field messages in the visitor's language, role
//! names, an error split into field and page messages, the token-only form.

use crate::i18n::Tr;
use crate::service::{self, FieldErrors};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Field messages in the visitor's language.
#[derive(Debug, Clone, Default)]
pub struct Errors(BTreeMap<String, Vec<String>>);

impl Errors {
    pub fn from_service(fields: FieldErrors, tr: Tr) -> Errors {
        Errors(
            fields
                .into_iter()
                .map(|(k, v)| (k, v.iter().map(|m| tr.msg(m)).collect()))
                .collect(),
        )
    }

    pub fn one(field: &str, message: String) -> Errors {
        let mut fields = BTreeMap::new();
        fields.insert(field.to_string(), vec![message]);
        Errors(fields)
    }

    /// The messages of a field, joined.
    pub fn of(&self, field: &str) -> Option<String> {
        self.0.get(field).map(|m| m.join(" "))
    }
}

/// The name of a role (`chief_arbiter`, `scorer`, `admin`…) in the page's language.
pub fn role_name(tr: Tr, role: &str) -> &'static str {
    tr.t(match role {
        "chief_arbiter" => "role.chief_arbiter",
        "arbiter" => "role.arbiter",
        "scorer" => "role.scorer",
        "admin" => "role.admin",
        _ => "role.user",
    })
}

/// A service error that belongs next to a field (Invalid), or on its own line (the rest).
pub fn split_error(
    err: service::Error,
    tr: Tr,
    fallback_field: &str,
) -> Result<Errors, service::Error> {
    match err {
        service::Error::Invalid { fields, message } if fields.is_empty() => {
            Ok(Errors::one(fallback_field, tr.msg(&message)))
        }
        service::Error::Invalid { fields, .. } => Ok(Errors::from_service(fields, tr)),
        service::Error::Conflict(message) => Ok(Errors::one(fallback_field, tr.msg(&message))),
        other => Err(other),
    }
}

/// A form with only its CSRF token.
#[derive(Debug, Deserialize)]
pub struct EmptyForm {}
