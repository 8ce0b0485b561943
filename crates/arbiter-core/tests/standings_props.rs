//! Standings never panic and always give a consistent table, whatever the records say
//! (asymmetric games, unknown opponents, pending results, fouls).

use arbiter_core::model::{Entrant, ResultCode, RoundRecord, Scoring, Side, Tournament};
use arbiter_core::standings::{
    rank, to_tsv, PrevReading, StandingsOptions, TiebreakKey, UnplayedMode,
};
use proptest::prelude::*;

const ALL_KEYS: &str =
    "OPP,BH,BH/C1,BH/C2,BH/M1,SB,SB/C1,PS,PS/C1,WIN,WON,BPG,BWG,DE,FOULS,PREV,CUT_EARLY,RTNG";

fn record(n: u32) -> impl Strategy<Value = RoundRecord> {
    (
        prop::option::of(1..=n + 1),
        prop::option::of(prop::sample::select(vec![Side::Red, Side::Black])),
        prop::sample::select("1=0WDL+-UFHZ ".chars().collect::<Vec<_>>()),
        0u32..3,
    )
        .prop_map(|(opponent, colour, letter, fouls)| RoundRecord {
            opponent,
            colour,
            result: ResultCode::from_trf_letter(letter).unwrap_or(ResultCode::Pending),
            fouls,
        })
}

fn tournament() -> impl Strategy<Value = Tournament> {
    (1u32..25, 0usize..7).prop_flat_map(|(n, rounds)| {
        prop::collection::vec(
            (
                prop::collection::vec(record(n), 0..=rounds),
                prop::option::of(1000u32..2800),
            ),
            n as usize,
        )
        .prop_map(move |players| Tournament {
            scoring: Scoring::two_one_zero(),
            entrants: players
                .into_iter()
                .enumerate()
                .map(|(i, (rounds, rating))| Entrant {
                    start_no: i as u32 + 1,
                    rating,
                    rounds,
                    ..Entrant::default()
                })
                .collect(),
            ..Tournament::default()
        })
    })
}

fn mode() -> impl Strategy<Value = UnplayedMode> {
    prop::sample::select(vec![
        UnplayedMode::Cxa,
        UnplayedMode::Fide2023,
        UnplayedMode::Fide2026,
        UnplayedMode::None,
    ])
}

proptest! {
    #[test]
    fn every_entrant_is_ranked_once_in_a_consistent_order(t in tournament(), unplayed in mode(), lot in any::<bool>(), seed in any::<u64>(), reading in prop::sample::select(vec![PrevReading::Cumulative, PrevReading::PreviousStandings, PrevReading::OpponentsReverse])) {
        let mut chain: Vec<TiebreakKey> = ALL_KEYS.split(',').map(|k| k.parse().expect("key")).collect();
        if lot {
            chain.push(TiebreakKey::Lot);
        }
        let options = StandingsOptions { chain, unplayed, lot_seed: seed, prev_reading: reading, ..StandingsOptions::default() };
        let s = rank(&t, &options);
        prop_assert_eq!(s.rows.len(), t.entrants.len());
        let mut seen: Vec<u32> = s.rows.iter().map(|r| r.start_no).collect();
        seen.sort_unstable();
        prop_assert_eq!(seen, (1..=t.entrants.len() as u32).collect::<Vec<_>>());
        for (i, row) in s.rows.iter().enumerate() {
            prop_assert_eq!(row.values.len(), options.chain.len());
            if i == 0 {
                prop_assert_eq!(row.rank, 1);
            } else {
                let prev = &s.rows[i - 1];
                prop_assert!(prev.points >= row.points);
                prop_assert!(row.rank == prev.rank || row.rank == i as u32 + 1);
                if lot {
                    prop_assert_eq!(row.rank, i as u32 + 1);
                }
            }
        }
        prop_assert_eq!(to_tsv(&s).lines().count(), t.entrants.len() + 1);
    }
}
