//! The section's desk in tabs (issue #15): each tab a stable address below `/admin/s/{id}`,
//! one tab bar (`templates/admin/section_tabs.html`) on every page of the section's desk.
//!
//! | tab | address | what it holds |
//! | --- | --- | --- |
//! | overview | `/admin/s/{id}` | facts, counts, the current round's progress, prints and public pages |
//! | entrants | `/admin/s/{id}/entrants` | check-in (search, number, selection), the list, add an entrant |
//! | registrations | `/admin/s/{id}/registrations` | registrations with their payments |
//! | byes | `/admin/s/{id}/byes` | requested byes and forbidden pairs |
//! | rounds | `/admin/s/{id}/rounds` | pairing, publishing, the current round's result forms |
//! | standings | `/admin/s/{id}/standings` | the standings, ties, exports |
//! | knockout, prizes, settings | their own pages | |
//!
//! The first five are parts of the desk page (`section.rs`, which routes them); every action of
//! a tab redirects back to it with its message, and a refused one shows the tab again. This
//! module knows only the tabs' names and addresses, so every page may name them.

use uuid::Uuid;

/// A tab of the section's desk.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    /// Facts and a summary.
    #[default]
    Overview,
    /// Check-in, the list, adding.
    Entrants,
    /// Registrations and payments.
    Registrations,
    /// Requested byes and forbidden pairs.
    Byes,
    /// Rounds and results.
    Rounds,
    /// Standings and ties.
    Standings,
    /// The knockout stage.
    Knockout,
    /// The prize table.
    Prizes,
    /// The section's settings.
    Settings,
}

impl Tab {
    /// The last part of the tab's address (empty for the overview), also its name in the tab
    /// bar's template.
    pub fn slug(self) -> &'static str {
        match self {
            Tab::Overview => "",
            Tab::Entrants => "entrants",
            Tab::Registrations => "registrations",
            Tab::Byes => "byes",
            Tab::Rounds => "rounds",
            Tab::Standings => "standings",
            Tab::Knockout => "knockout",
            Tab::Prizes => "prizes",
            Tab::Settings => "settings",
        }
    }

    /// The name the tab bar's template compares (`overview` for the overview).
    pub fn name(self) -> &'static str {
        match self {
            Tab::Overview => "overview",
            other => other.slug(),
        }
    }

    /// The tab's address.
    pub fn path(self, section: Uuid) -> String {
        match self {
            Tab::Overview => format!("/admin/s/{section}"),
            other => format!("/admin/s/{section}/{}", other.slug()),
        }
    }

    /// The tab's address with a query (`done=…`, without `?`) and a fragment (without `#`),
    /// either empty: where an action of the tab sends the desk back.
    pub fn url(self, section: Uuid, query: &str, fragment: &str) -> String {
        let mut url = self.path(section);
        if !query.is_empty() {
            url.push('?');
            url.push_str(query);
        }
        if !fragment.is_empty() {
            url.push('#');
            url.push_str(fragment);
        }
        url
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_addresses_are_stable() {
        let id = Uuid::nil();
        assert_eq!(Tab::Overview.path(id), format!("/admin/s/{id}"));
        assert_eq!(
            Tab::Rounds.url(id, "done=paired", ""),
            format!("/admin/s/{id}/rounds?done=paired")
        );
        assert_eq!(
            Tab::Entrants.url(id, "", "check-in"),
            format!("/admin/s/{id}/entrants#check-in")
        );
        assert_eq!(Tab::Overview.name(), "overview");
        assert_eq!(Tab::Byes.name(), "byes");
    }
}
