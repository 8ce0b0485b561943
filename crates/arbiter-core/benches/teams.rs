//! Team pairing speed (issue #41: pairing a 500-team round in < 1 s).
//!
//! Builds a 500-team section of 4 boards (2,000 players) by pairing rounds 1–5 with the
//! section's own system through `teams::pairing` and generated board results (40 % Red
//! wins, 25 % draws, 30 % Black wins, 5 % forfeits), then measures pairing round 6 the way
//! the server does it: the team matches read from the players' records
//! (`teams::matches`) and the teams paired on match points (`teams::pairing::pair_teams`),
//! once with the Chinese system (积分编排) and once with the FIDE Dutch engine.
//! `cargo bench -p arbiter-core --bench teams`. Measured 7 Dec 2026 on the shared 2-core
//! machine at a load average of about 10: 47.5 ms (Chinese) and 37.2 ms (Dutch) a round.

use arbiter_core::model::{Entrant, ResultCode, RoundRecord, Side, Tournament};
use arbiter_core::pairing::chinese::ChineseOptions;
use arbiter_core::pairing::dutch::DutchOptions;
use arbiter_core::pairing::System;
use arbiter_core::teams::pairing::{match_boards, pair_teams};
use arbiter_core::teams::{matches, Team, TeamScoring};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

const TEAMS: u32 = 500;
const BOARDS: u32 = 4;

struct Lcg(u64);

impl Lcg {
    fn below(&mut self, m: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % m
    }
}

/// The teams (team `i` has players `i·BOARDS + 1 ..= (i + 1)·BOARDS`) and their players
/// after `rounds` rounds paired by `system`.
fn section(system: &System, rounds: u32, seed: u64) -> (Vec<Team>, Tournament) {
    let mut rng = Lcg(seed);
    let teams: Vec<Team> = (0..TEAMS)
        .map(|i| Team {
            name: format!("T{}", i + 1),
            roster: (1..=BOARDS).map(|b| i * BOARDS + b).collect(),
        })
        .collect();
    let mut players = Tournament {
        entrants: (1..=TEAMS * BOARDS)
            .map(|no| Entrant {
                start_no: no,
                name: format!("P{no}"),
                ..Entrant::default()
            })
            .collect(),
        ..Tournament::default()
    };
    let scoring = TeamScoring::default();
    for round in 1..=rounds {
        let history = matches(&players, &teams, &scoring).expect("matches");
        let pairing = pair_teams(&teams, &history, &scoring, system).expect("pairs");
        for m in &pairing.boards {
            let (a, b) = (m.red as usize - 1, m.black as usize - 1);
            for board in match_boards(&teams[a].roster, &teams[b].roster) {
                let (red, black) = match rng.below(100) {
                    0..=39 => (ResultCode::Win, ResultCode::Loss),
                    40..=64 => (ResultCode::Draw, ResultCode::Draw),
                    65..=94 => (ResultCode::Loss, ResultCode::Win),
                    _ => (ResultCode::ForfeitWin, ResultCode::ForfeitLoss),
                };
                for (no, opp, side, result) in [
                    (board.red, board.black, Side::Red, red),
                    (board.black, board.red, Side::Black, black),
                ] {
                    let e = &mut players.entrants[no as usize - 1];
                    e.rounds
                        .resize(round as usize - 1, RoundRecord::bye(ResultCode::ZeroBye));
                    e.rounds.push(RoundRecord::game(opp, side, result));
                }
            }
        }
    }
    (teams, players)
}

fn bench(c: &mut Criterion) {
    let scoring = TeamScoring::default();
    let mut group = c.benchmark_group("teams");
    group.sample_size(10);
    for (name, system) in [
        ("chinese", System::Chinese(ChineseOptions::default())),
        ("dutch", System::Dutch(DutchOptions::default())),
    ] {
        let (teams, players) = section(&system, 5, 2026);
        group.bench_function(
            format!("{name}: pair round 6 of {TEAMS} teams of {BOARDS} boards"),
            |b| {
                b.iter(|| {
                    let history = matches(black_box(&players), &teams, &scoring).expect("matches");
                    black_box(pair_teams(&teams, &history, &scoring, &system).expect("pairs"))
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
