//! Pure core of arbiter: the tournament model, pairing engines, standings, knockout
//! brackets, TRF files and hidden-piece set-ups. No I/O, no async, no database.
//!
//! Design decisions:
//! - **Integer points** ([`model::Points`] counts tenths), so 1/½/0, 2/1/0 and 3/1/0 are exact
//!   and no ranking ever compares floats.
//! - **Dense starting numbers** ([`model::StartNo`]) inside; the server maps them to UUIDs.
//! - **Deterministic**: the same input gives the same output; any randomness comes in as a
//!   seed or an RNG parameter, and no result depends on `HashMap` iteration order.
//! - Generic algorithms (weighted matching) know nothing about Xiangqi; systems encode their
//!   criteria as weights.
//! - Game rules and records live in [`game`]: one padded-mailbox position type for Xiangqi and
//!   Jieqi (face-down pieces move as their square's piece), a separate Banqi board, FEN, and
//!   ICCS/Chinese/WXF notation read by matching text against the legal moves' facts.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod game;
pub mod generator;
pub mod knockout;
pub mod model;
pub mod pairing;
pub mod search;
pub mod setup;
pub mod stages;
pub mod standings;
pub mod teams;
pub mod text;
pub mod trf;
