//! arbiter server: HTTP API and pages over PostgreSQL, around the pure `arbiter_core`.
//!
//! Layers, outermost first: `http` (thin handlers: extract, call one service, render) →
//! `service` (use cases, one transaction each, all rules) → `db` (SQL only) → PostgreSQL.
//! `embedded_pg` runs a private cluster when no `DATABASE_URL` is given.
#![forbid(unsafe_code)]

pub mod backup;
pub mod cli;
pub mod config;
pub mod connections;
pub mod db;
pub mod delivery;
pub mod embedded_pg;
pub mod http;
pub mod i18n;
pub mod metrics;
pub mod service;
pub mod startup;
pub mod vocab;
