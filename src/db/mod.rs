//! Database access: SQL only, no HTTP types and no business rules. Functions take an executor
//! so the caller decides whether they run inside a transaction.

pub mod access;
pub mod audit;
pub mod collation;
pub mod entrant;
pub mod event_file;
pub mod key;
pub mod knockout;
pub mod knockout_stage;
pub mod mail;
pub mod outbox;
pub mod payment;
pub mod prize;
pub mod push;
pub mod record;
pub mod registration;
pub mod report;
pub mod round;
pub mod schedule;
pub mod section;
pub mod section_rules;
pub mod setup;
pub mod staff;
pub mod stage;
pub mod team;
pub mod throttle;
pub mod tie;
pub mod tournament;
pub mod user;
