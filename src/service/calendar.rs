//! Calendars (issue #37, RFC 5545): a section's rounds (`/s/{id}/calendar.ics`) and a
//! player's own rounds (`/k/{key}/calendar.ics`) as iCalendar text. Times are written in UTC
//! (`DTSTART:20261208T013000Z`, RFC 5545 §3.3.5 form 2), the event's zone named in
//! `X-WR-TIMEZONE` for the calendars that show it; each round's UID is stable (section, round,
//! and for a player's calendar the entrant), and its SEQUENCE counts the changes of the
//! round's start (`round_schedule.sequence`), one more once the player's pairing is public.
//! The texts come from the caller (in the visitor's language); this module only writes them.

use super::schedule::ScheduleView;
use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

/// One event of a calendar.
#[derive(Debug, Clone)]
pub struct CalEvent {
    /// Stable identifier.
    pub uid: String,
    /// How many times it changed.
    pub sequence: i32,
    /// Start.
    pub start: DateTime<Utc>,
    /// End.
    pub end: DateTime<Utc>,
    /// Title.
    pub summary: String,
    /// Details, if any.
    pub description: Option<String>,
    /// Where, if known.
    pub location: Option<String>,
    /// A page about it, if known (an absolute URL).
    pub url: Option<String>,
    /// When it last changed.
    pub last_modified: DateTime<Utc>,
}

/// How long a round lasts in a calendar when the next round does not bound it.
pub const ROUND_LENGTH: Duration = Duration::hours(3);

/// Round `number`'s end in a calendar: the next planned start when it comes within
/// [`ROUND_LENGTH`], else the start plus [`ROUND_LENGTH`].
pub fn round_end(schedule: &ScheduleView, number: i32, start: DateTime<Utc>) -> DateTime<Utc> {
    let default = start + ROUND_LENGTH;
    schedule
        .planned
        .iter()
        .find(|p| p.round > number)
        .map(|p| p.starts_at)
        .filter(|next| *next > start && *next < default)
        .unwrap_or(default)
}

/// The UID of round `number` of a section's calendar.
pub fn section_uid(section_id: Uuid, number: i32) -> String {
    format!("{section_id}-round-{number}@arbiter")
}

/// The UID of round `number` of an entrant's own calendar.
pub fn player_uid(section_id: Uuid, entrant_id: Uuid, number: i32) -> String {
    format!("{section_id}-round-{number}-{entrant_id}@arbiter")
}

/// A TEXT value escaped (RFC 5545 §3.3.11).
fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A content line folded at 75 octets, never inside a character (§3.1), ended by CRLF.
fn line(out: &mut String, content: &str) {
    let mut width = 0;
    for c in content.chars() {
        let len = c.len_utf8();
        if width + len > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += len;
    }
    out.push_str("\r\n");
}

fn stamp(t: DateTime<Utc>) -> String {
    t.format("%Y%m%dT%H%M%SZ").to_string()
}

/// The calendar `name` in `zone` with `events`, as iCalendar text.
pub fn render(name: &str, zone: &str, events: &[CalEvent], now: DateTime<Utc>) -> String {
    let mut out = String::new();
    line(&mut out, "BEGIN:VCALENDAR");
    line(&mut out, "VERSION:2.0");
    line(&mut out, "PRODID:-//arbiter//round schedule//EN");
    line(&mut out, "CALSCALE:GREGORIAN");
    line(&mut out, "METHOD:PUBLISH");
    line(&mut out, &format!("X-WR-CALNAME:{}", text(name)));
    line(&mut out, &format!("X-WR-TIMEZONE:{}", text(zone)));
    line(&mut out, "REFRESH-INTERVAL;VALUE=DURATION:PT1H");
    line(&mut out, "X-PUBLISHED-TTL:PT1H");
    for e in events {
        line(&mut out, "BEGIN:VEVENT");
        line(&mut out, &format!("UID:{}", text(&e.uid)));
        line(&mut out, &format!("SEQUENCE:{}", e.sequence.max(0)));
        line(&mut out, &format!("DTSTAMP:{}", stamp(now)));
        line(
            &mut out,
            &format!("LAST-MODIFIED:{}", stamp(e.last_modified)),
        );
        line(&mut out, &format!("DTSTART:{}", stamp(e.start)));
        line(&mut out, &format!("DTEND:{}", stamp(e.end)));
        line(&mut out, &format!("SUMMARY:{}", text(&e.summary)));
        if let Some(d) = &e.description {
            line(&mut out, &format!("DESCRIPTION:{}", text(d)));
        }
        if let Some(l) = &e.location {
            line(&mut out, &format!("LOCATION:{}", text(l)));
        }
        if let Some(u) = &e.url {
            line(&mut out, &format!("URL:{u}"));
        }
        line(&mut out, "STATUS:CONFIRMED");
        line(&mut out, "TRANSP:OPAQUE");
        line(&mut out, "END:VEVENT");
    }
    line(&mut out, "END:VCALENDAR");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_fold_at_75_octets_between_characters() {
        let mut out = String::new();
        line(&mut out, &format!("SUMMARY:{}", "象棋".repeat(40)));
        for l in out.split("\r\n") {
            assert!(l.len() <= 75, "{l}");
        }
        let unfolded = out.replace("\r\n ", "");
        assert_eq!(unfolded, format!("SUMMARY:{}\r\n", "象棋".repeat(40)));
        assert_eq!(text("a,b;c\\d\ne"), "a\\,b\\;c\\\\d\\ne");
    }
}
