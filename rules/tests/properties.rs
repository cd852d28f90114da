//! Invariants of the rules over random games on boards of 2 to 50 holes.

use endodoi::{Move, Rules, Side};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Seeds are conserved by every move, every legal move can be played, and
    /// the legal moves are exactly the occupied holes that are not endless.
    #[test]
    fn random_games_conserve_seeds_and_respect_legality(
        holes in 2usize..=50,
        seeds in 1u32..=6,
        picks in proptest::collection::vec(any::<u16>(), 1..200),
    ) {
        // A low lap limit makes endless moves common enough to exercise.
        let rules = Rules::new(holes, seeds).unwrap().with_max_laps(200).unwrap();
        let mut pos = rules.start();
        for pick in picks {
            let legal = pos.legal_moves();
            if pos.is_over() {
                prop_assert!(legal.is_empty());
                break;
            }
            let me = pos.to_move();
            for h in 1..=holes as u8 {
                let mv = Move::new(h).unwrap();
                let occupied = pos.seeds(me, h as usize) > 0;
                let playable = pos.clone().play(mv).is_ok();
                prop_assert_eq!(legal.contains(mv), playable);
                prop_assert!(occupied || !playable, "an empty hole was legal");
            }
            prop_assert!(!legal.is_empty(), "a game that goes on has a legal move");
            let mv = legal.nth(pick as usize % legal.len()).unwrap();
            let before = pos.clone();
            let mut unchecked = pos.clone();
            let details = pos.play(mv).unwrap();
            prop_assert_eq!(&unchecked.play_unchecked(mv), &details);
            prop_assert_eq!(&unchecked, &pos);
            let on_board: u32 = pos.ring().iter().sum();
            prop_assert_eq!(on_board + pos.captured(Side::South) + pos.captured(Side::North), rules.total_seeds());
            prop_assert_eq!(pos.ply(), before.ply() + 1);
            prop_assert!(details.laps >= 1);
        }
    }

    /// The text format round-trips.
    #[test]
    fn positions_parse_what_they_display(holes in 2usize..=12, picks in proptest::collection::vec(any::<u8>(), 0..40)) {
        let rules = Rules::new(holes, 3).unwrap();
        let mut pos = rules.start();
        for pick in picks {
            let legal = pos.legal_moves();
            if legal.is_empty() { break; }
            pos.play(legal.nth(pick as usize % legal.len()).unwrap()).unwrap();
        }
        if !pos.is_over() {
            let text = pos.to_string();
            let parsed = endodoi::Position::parse(&text, rules).unwrap();
            prop_assert_eq!(parsed, pos);
        }
    }
}
