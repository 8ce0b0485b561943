//! Snake seeding (蛇形编排) of a single-elimination bracket (RULES §2.1–§2.2).

use super::KnockoutError;

/// Smallest bracket this module builds.
pub const MIN_BRACKET: u32 = 2;
/// Largest bracket this module builds (SPEC §7: 2–64).
pub const MAX_BRACKET: u32 = 64;

/// The seed in each bracket position, top to bottom, for a bracket of `size` slots.
///
/// `order(2) = [1, 2]`, `order(2m) = flatten over s in order(m) of [s, 2m + 1 − s]`
/// (RULES §2.2), so `8 → [1, 8, 4, 5, 2, 7, 3, 6]`: position pairs (0,1), (2,3), … are the
/// first-round matches, seeds 1 and 2 sit in different halves and can meet only in the final,
/// and in every round the best remaining seed meets the worst one of its sub-bracket.
///
/// `size` must be a power of two from 2 to 64.
pub fn snake_order(size: u32) -> Result<Vec<u32>, KnockoutError> {
    if !(MIN_BRACKET..=MAX_BRACKET).contains(&size) || !size.is_power_of_two() {
        return Err(KnockoutError::BadBracketSize(size));
    }
    let mut order = vec![1u32, 2];
    while (order.len() as u32) < size {
        let twice = 2 * order.len() as u32;
        order = order.iter().flat_map(|&s| [s, twice + 1 - s]).collect();
    }
    Ok(order)
}

/// The bracket size for `entrants` qualifiers: the smallest power of two that holds them
/// (the missing seeds are byes for the top seeds).
pub fn bracket_size(entrants: u32) -> Result<u32, KnockoutError> {
    if !(MIN_BRACKET..=MAX_BRACKET).contains(&entrants) {
        return Err(KnockoutError::BadBracketSize(entrants));
    }
    Ok(entrants.next_power_of_two())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_seeds_follow_the_rules_table() {
        assert_eq!(
            snake_order(8).expect("valid size"),
            vec![1, 8, 4, 5, 2, 7, 3, 6]
        );
    }

    #[test]
    fn small_and_sixteen_seed_orders_are_the_standard_ones() {
        assert_eq!(snake_order(2).expect("valid"), vec![1, 2]);
        assert_eq!(snake_order(4).expect("valid"), vec![1, 4, 2, 3]);
        assert_eq!(
            snake_order(16).expect("valid"),
            vec![1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
        );
    }

    #[test]
    fn every_order_from_two_to_sixty_four_is_a_fair_permutation() {
        for size in [2u32, 4, 8, 16, 32, 64] {
            let order = snake_order(size).expect("valid size");
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (1..=size).collect::<Vec<_>>());
            // First-round opponents always add up to size + 1 (best v worst).
            for pair in order.chunks(2) {
                assert_eq!(pair[0] + pair[1], size + 1);
            }
            // Seeds 1 and 2 are in different halves.
            let half = (size / 2) as usize;
            assert!(order[..half].contains(&1) && order[half..].contains(&2));
            // Recursively: each half, reduced to the survivors by seed, is the smaller order.
            if size > 2 {
                let smaller = snake_order(size / 2).expect("valid size");
                let winners: Vec<u32> = order.chunks(2).map(|p| p[0].min(p[1])).collect();
                assert_eq!(winners, smaller);
            }
        }
    }

    #[test]
    fn sizes_that_are_not_powers_of_two_are_rejected_but_fit_a_bracket() {
        assert!(snake_order(6).is_err());
        assert!(snake_order(128).is_err());
        assert!(snake_order(1).is_err());
        assert_eq!(bracket_size(6).expect("valid"), 8);
        assert_eq!(bracket_size(64).expect("valid"), 64);
        assert_eq!(bracket_size(33).expect("valid"), 64);
        assert!(bracket_size(65).is_err());
    }
}
