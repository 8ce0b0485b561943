use super::*;
use rand_chacha::ChaCha8Rng;

#[test]
fn the_standard_array_has_the_documented_canonical_form_and_commitment() {
    let standard = Setup::Jieqi(JieqiSetup {
        red: JIEQI_PIECES,
        black: JIEQI_PIECES,
    });
    let canonical = standard.canonical();
    assert_eq!(canonical, "jieqi:RHEAAEHRCCPPPPP/rheaaehrccppppp");
    // Reference value from an independent SHA-256 (Python hashlib).
    let expected = "2d9079c6ed3104f4de375032757806ae9a0439c9b5dd127fecc33aa510109ee9";
    assert_eq!(standard.commitment("abc"), expected);
    assert!(verify(&canonical, "abc", &expected.to_uppercase()));
    assert!(!verify(&canonical, "abd", expected));
    assert!(!verify(
        "jieqi:HREAAEHRCCPPPPP/rheaaehrccppppp",
        "abc",
        expected
    ));
}

#[test]
fn canonical_forms_parse_back_to_the_same_set_up() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for game in [Game::Jieqi, Game::Banqi] {
        for _ in 0..50 {
            let s = Setup::generate(game, &mut rng);
            let text = s.canonical();
            assert_eq!(Setup::parse_canonical(&text).expect("canonical"), s);
        }
    }
    for bad in [
        "jieqi:RHEAAEHRCCPPPPP",
        "jieqi:RHEAAEHRCCPPPPR/rheaaehrccppppp",
        "jieqi:rheaaehrccppppp/RHEAAEHRCCPPPPP",
        "banqi:KAAEERRH/HCCPPPPP/kaaeerrh/hccppppp/",
        "banqi:KAAEERRH/HCCPPPPP/kaaeerrh/hccpppPp",
        "xiangqi:whatever",
    ] {
        assert!(Setup::parse_canonical(bad).is_err(), "{bad}");
    }
    assert!(Setup::parse_canonical("banqi:KAAEERRH/HCCPPPPP/kaaeerrh/hccppppp").is_ok());
}

#[test]
fn the_same_seed_gives_the_same_sheet_and_another_seed_another() {
    let a = setup_text(Game::Jieqi, 42);
    assert_eq!(a, setup_text(Game::Jieqi, 42));
    assert_ne!(a, setup_text(Game::Jieqi, 43));
    assert!(a.contains("commitment: "));
    // The sheet's commitment verifies against its own canonical form and salt.
    let field = |name: &str| {
        a.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.split_whitespace().next().unwrap_or("").to_string())
            .expect("field present")
    };
    assert!(verify(
        &field("canonical:"),
        &field("salt:"),
        &field("commitment:")
    ));
    let b = setup_text(Game::Banqi, 1);
    assert!(b.contains("banqi:"));
}

#[test]
fn the_jieqi_diagram_puts_the_generals_on_the_palace_centres() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let d = Setup::generate(Game::Jieqi, &mut rng).diagram();
    let line = |rank: char| {
        d.lines()
            .find(|l| l.starts_with(rank))
            .expect("rank line")
            .to_string()
    };
    assert_eq!(line('0').split_whitespace().nth(5), Some("K"));
    assert_eq!(line('9').split_whitespace().nth(5), Some("k"));
    // Empty ranks 1 and 8 hold nothing.
    assert!(line('1').split_whitespace().skip(1).all(|c| c == "."));
}

/// Upper critical value of the chi-square distribution with `df` degrees of freedom at the
/// normal quantile `z` (Wilson–Hilferty; accurate to a few percent for df ≥ 5).
fn chi_square_critical(df: f64, z: f64) -> f64 {
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

/// Chi-square statistic of observed counts against expected probabilities.
fn chi_square(counts: &[u64], probabilities: &[f64], draws: u64) -> f64 {
    counts
        .iter()
        .zip(probabilities)
        .map(|(&o, &p)| {
            let e = p * draws as f64;
            (o as f64 - e).powi(2) / e
        })
        .sum()
}

/// z for a one-sided p of 1e-5: each square's test fails by chance once in 100,000.
const Z_1E5: f64 = 4.265;

#[test]
fn jieqi_pieces_are_uniform_on_every_square() {
    const DRAWS: u64 = 100_000;
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_129);
    // counts[side][square][kind]
    let mut counts = [[[0u64; 7]; 15]; 2];
    for _ in 0..DRAWS {
        let Setup::Jieqi(s) = Setup::generate(Game::Jieqi, &mut rng) else {
            unreachable!("asked for Jieqi")
        };
        for (side, pieces) in [&s.red, &s.black].into_iter().enumerate() {
            for (square, p) in pieces.iter().enumerate() {
                counts[side][square][*p as usize] += 1;
            }
        }
    }
    // Expected: 2/15 for R H E A C, 5/15 for P (the general is never hidden in Jieqi).
    let probs = [2.0, 2.0, 2.0, 2.0, 2.0, 5.0].map(|c| c / 15.0);
    let critical = chi_square_critical(5.0, Z_1E5);
    let mut total = 0.0;
    for side in &counts {
        for square in side {
            assert_eq!(square[Piece::General as usize], 0);
            let x = chi_square(&square[..6], &probs, DRAWS);
            assert!(x < critical, "chi-square {x} ≥ {critical}");
            total += x;
        }
    }
    // All 30 squares together: 150 degrees of freedom.
    assert!(total < chi_square_critical(150.0, Z_1E5), "total {total}");
}

#[test]
fn banqi_pieces_are_uniform_on_every_square() {
    const DRAWS: u64 = 100_000;
    let mut rng = ChaCha8Rng::seed_from_u64(4_2026);
    // counts[square][side * 7 + kind]
    let mut counts = [[0u64; 14]; 32];
    for _ in 0..DRAWS {
        let Setup::Banqi(s) = Setup::generate(Game::Banqi, &mut rng) else {
            unreachable!("asked for Banqi")
        };
        for (square, p) in s.squares.iter().enumerate() {
            let side = usize::from(p.side == Side::Black);
            counts[square][side * 7 + p.piece as usize] += 1;
        }
    }
    // Per colour: R 2, H 2, E 2, A 2, C 2, P 5, K 1 of 32 squares.
    let per_side = [2.0, 2.0, 2.0, 2.0, 2.0, 5.0, 1.0];
    let probs: Vec<f64> = per_side
        .iter()
        .chain(per_side.iter())
        .map(|c| c / 32.0)
        .collect();
    let critical = chi_square_critical(13.0, Z_1E5);
    let mut total = 0.0;
    for square in &counts {
        let x = chi_square(square, &probs, DRAWS);
        assert!(x < critical, "chi-square {x} ≥ {critical}");
        total += x;
    }
    assert!(
        total < chi_square_critical(32.0 * 13.0, Z_1E5),
        "total {total}"
    );
}

#[test]
fn the_unbiased_draw_covers_its_range_evenly() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut counts = [0u64; 7];
    for _ in 0..70_000 {
        counts[below(&mut rng, 7) as usize] += 1;
    }
    let x = chi_square(&counts, &[1.0 / 7.0; 7], 70_000);
    assert!(x < chi_square_critical(6.0, Z_1E5));
}
