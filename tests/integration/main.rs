//! Integration tests: real PostgreSQL (`#[sqlx::test]` gives each test its own migrated
//! database), the real router in process, and the real binary for the embedded cluster.

#![allow(
    clippy::unwrap_used,
    reason = "a test that cannot unwrap should fail loudly"
)]
mod api;
mod audit_words;
mod auth;
mod authz;
mod connections;
mod crash;
mod dashboard;
mod dashboard_forms;
mod desk_care;
mod desk_money;
mod desk_roles;
mod desk_tabs;
mod desk_words;
mod embedded;
mod event_file;
mod event_import;
mod events;
mod exports;
mod hall;
mod hardening;
mod health;
mod hidden_records;
mod instances;
mod integrity;
mod interchange;
mod keys;
mod knockout;
mod knockout_notation;
mod knockout_setups;
mod links;
mod lockout;
mod mail;
mod mid_round;
mod migrations;
mod names;
mod outbox;
mod pages;
mod player_rules;
mod players;
mod prints;
mod prize_money;
mod push;
mod records;
mod registration;
mod repair;
mod reports;
mod schedule;
mod screen;
mod seeds;
mod staff;
mod stages;
mod support;
mod team_desk;
mod team_exports;
mod team_pages;
mod team_registration;
mod team_reports;
mod team_views;
mod teams;
mod teams_events;
mod teams_input;
mod trust;
mod walk_ins;
