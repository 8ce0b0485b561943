//! The desk's message after a redirect about one entrant (withdrawn, checked in, added), with
//! the undo it offers.

use crate::i18n::Tr;
use crate::service::entrants::EntrantView;
use crate::vocab::EntrantStatus;
use uuid::Uuid;

/// An undo button under a success message: a form posting `action`.
pub struct Undo {
    /// Where the button posts.
    pub action: String,
    /// Catalogue key of the button's text.
    pub label_key: &'static str,
}

/// What the desk was told after a redirect, about one entrant (`?withdrawn=` or `?checked=`).
#[derive(Default, Clone, Copy, PartialEq, Eq)]
pub enum Flash {
    /// Nothing.
    #[default]
    None,
    /// This entrant was withdrawn (the message offers re-admission).
    Withdrawn(Uuid),
    /// This entrant was checked in by number (`true`), or already was (`false`).
    CheckedIn(Uuid, bool),
    /// This entrant was just added at the desk (the form waits for the next walk-in).
    Added(Uuid),
}

/// The message about one entrant after a redirect, and its undo; else `notice` as it was.
pub(super) fn flash_notice(
    tr: Tr,
    entrants: &[EntrantView],
    section_id: Uuid,
    flash: Flash,
    notice: Option<String>,
) -> (Option<String>, Option<Undo>) {
    let (id, key) = match flash {
        Flash::None => return (notice, None),
        Flash::Withdrawn(id) => (id, "adm.done.withdrawn"),
        Flash::CheckedIn(id, true) => (id, "adm.done.checked_in"),
        Flash::CheckedIn(id, false) => (id, "adm.done.already_in"),
        Flash::Added(id) => (id, "adm.done.added"),
    };
    let Some(e) = entrants.iter().find(|e| e.id == id) else {
        return (notice, None);
    };
    let label = super::confirm::entrant_label(tr, &e.name, e.start_no);
    // The undo only while it still applies (not after a re-admission elsewhere).
    let undo =
        (matches!(flash, Flash::Withdrawn(_)) && e.status == EntrantStatus::Withdrawn).then(|| {
            Undo {
                action: format!("/admin/s/{section_id}/entrants/{id}/readmit"),
                label_key: "adm.undo.readmit",
            }
        });
    (Some(tr.fmt(key, label)), undo)
}
