//! Invariants of the rules over random games on boards of 2 to 50 holes, on
//! both board representations (the compact byte ring and the general one).

use endodoi::{Move, Position, Rules, Side};
use proptest::prelude::*;

/// The rules written the plain way, as a reference: one seed at a time, the
/// lap limit the only endless check. Returns the ring after the sowing and
/// the capture, or `None` for an endless move.
fn reference_move(
    ring: &[u32],
    start: usize,
    mover_row: std::ops::Range<usize>,
    max_laps: u32,
) -> Option<Vec<u32>> {
    let mut ring = ring.to_vec();
    let len = ring.len();
    let mut hole = start;
    for _lap in 0..max_laps {
        let mut seeds = std::mem::take(&mut ring[hole]);
        let mut at = hole;
        while seeds > 0 {
            at = (at + 1) % len;
            ring[at] += 1;
            seeds -= 1;
        }
        if ring[at] == 1 {
            let opposite = len - 1 - at;
            if mover_row.contains(&at) && ring[opposite] > 0 {
                ring[opposite] = 0;
                ring[at] = 0;
            }
            return Some(ring);
        }
        hole = at;
    }
    None
}

/// Rows of `holes` holes holding `total` seeds in all, spread by `cuts`.
fn rows(holes: usize, total: u32, cuts: &[u16]) -> Vec<u32> {
    let mut ring = vec![0u32; 2 * holes];
    let mut left = total;
    for (i, &cut) in cuts.iter().enumerate() {
        if left == 0 {
            break;
        }
        let seeds = (u32::from(cut) % (left + 1)).min(left);
        ring[(i * 7) % (2 * holes)] += seeds;
        left -= seeds;
    }
    ring[0] += left;
    ring
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every hole of a random position, on boards of 2 to 50 holes with up
    /// to 1000 seeds, plays exactly as the plain one-seed-at-a-time
    /// reference says, on the compact ring (where it fits) and on the
    /// general one; and the two representations agree on everything.
    #[test]
    fn both_representations_play_as_the_reference(
        holes in 2usize..=50,
        total in 0u32..=1000,
        cuts in proptest::collection::vec(any::<u16>(), 1..100),
        north in any::<bool>(),
    ) {
        let rules = Rules::new(holes, 1).unwrap().with_max_laps(300).unwrap();
        let ring = rows(holes, total, &cuts);
        let (south_row, north_row) = ring.split_at(holes);
        let side = if north { Side::North } else { Side::South };
        let compact = Position::from_parts(rules, south_row, north_row, side, [0, 0], 1).unwrap();
        let general = Position::from_parts(rules.with_general_board(), south_row, north_row, side, [0, 0], 1).unwrap();
        prop_assert_eq!(compact.is_compact(), holes <= 16 && total <= 255);
        prop_assert!(!general.is_compact());
        prop_assert_eq!(compact.to_string(), general.to_string());
        prop_assert_eq!(compact.legal_moves(), general.legal_moves());
        prop_assert_eq!(compact.candidate_moves(), general.candidate_moves());
        let row = match side { Side::South => 0..holes, Side::North => holes..2 * holes };
        for h in 1..=holes as u8 {
            let mv = Move::new(h).unwrap();
            let start = row.start + usize::from(h) - 1;
            let reference = if ring[start] > 0 { reference_move(&ring, start, row.clone(), 300) } else { None };
            let (mut a, mut b) = (compact.clone(), general.clone());
            let (pa, pb) = (a.play(mv), b.play(mv));
            prop_assert_eq!(pa, pb, "hole {} in {}", h, compact);
            prop_assert_eq!(compact.check(mv).is_ok(), pa.is_ok());
            prop_assert_eq!(reference.is_some(), pa.is_ok(), "hole {} in {}", h, compact);
            prop_assert_eq!(a.to_string(), b.to_string());
            if let (Some(r), false) = (reference, a.is_over()) {
                prop_assert_eq!(r.as_slice(), a.ring(), "hole {} in {}", h, compact);
            }
            if pa.is_ok() {
                let (mut c, mut d) = (compact.clone(), general.clone());
                prop_assert_eq!(c.play_unchecked(mv), d.play_unchecked(mv));
                prop_assert_eq!(&c, &a);
                prop_assert_eq!(d.legal_moves(), a.legal_moves());
            }
        }
    }

    /// Seeds are conserved by every move, every legal move can be played, and
    /// the legal moves are exactly the occupied holes that are not endless.
    #[test]
    fn random_games_conserve_seeds_and_respect_legality(
        holes in 2usize..=50,
        seeds in 1u32..=6,
        picks in proptest::collection::vec(any::<u16>(), 1..200),
        general in any::<bool>(),
    ) {
        // A low lap limit makes endless moves common enough to exercise.
        let rules = Rules::new(holes, seeds).unwrap().with_max_laps(200).unwrap();
        let rules = if general { rules.with_general_board() } else { rules };
        let mut pos = rules.start();
        for pick in picks {
            let legal = pos.legal_moves();
            if pos.is_over() {
                prop_assert!(legal.is_empty());
                break;
            }
            let me = pos.to_move();
            let row = match me { Side::South => 0..holes, Side::North => holes..2 * holes };
            for h in 1..=holes as u8 {
                let mv = Move::new(h).unwrap();
                let occupied = pos.seeds(me, h as usize) > 0;
                let mut after = pos.clone();
                let played = after.play(mv);
                prop_assert_eq!(legal.contains(mv), played.is_ok());
                prop_assert!(occupied || played.is_err(), "an empty hole was legal");
                // The plain reference agrees on legality and, while the game
                // goes on, on the board after the move.
                let reference = if occupied { reference_move(&pos.ring().to_vec(), row.start + h as usize - 1, row.clone(), 200) } else { None };
                prop_assert_eq!(reference.is_some(), played.is_ok(), "hole {} in {}", h, pos);
                if let (Some(r), false) = (reference, after.is_over()) {
                    prop_assert_eq!(r.as_slice(), after.ring(), "hole {} in {}", h, pos);
                }
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

    /// Every board the compact ring takes (2x2 to 2x16, up to 255 seeds, one
    /// word or two) plays whole random games exactly as the general ring
    /// does: the same legal moves, details and position after every ply.
    #[test]
    fn compact_boards_play_whole_games_as_the_general_one(
        holes in 2usize..=16,
        total in 1u32..=255,
        cuts in proptest::collection::vec(any::<u16>(), 1..40),
        picks in proptest::collection::vec(any::<u16>(), 1..300),
    ) {
        let rules = Rules::new(holes, 1).unwrap().with_max_laps(500).unwrap();
        let ring = rows(holes, total, &cuts);
        let (south_row, north_row) = ring.split_at(holes);
        let mut compact = Position::from_parts(rules, south_row, north_row, Side::South, [0, 0], 0).unwrap();
        let mut general = Position::from_parts(rules.with_general_board(), south_row, north_row, Side::South, [0, 0], 0).unwrap();
        prop_assert!(compact.is_compact());
        for pick in picks {
            let legal = compact.legal_moves();
            prop_assert_eq!(legal, general.legal_moves(), "in {}", compact);
            prop_assert_eq!(compact.candidate_moves(), general.candidate_moves());
            if legal.is_empty() {
                break;
            }
            let candidates = compact.candidate_moves();
            let mv = candidates.nth(pick as usize % candidates.len()).unwrap();
            let (a, b) = (compact.play(mv), general.play(mv));
            prop_assert_eq!(a, b, "{} in {}", mv, compact);
            prop_assert_eq!(compact.to_string(), general.to_string());
            prop_assert_eq!(compact.outcome(), general.outcome());
        }
    }

    /// Lap by lap, `Position::laps` is the sowing `play` makes: each lap
    /// lifts the hole the previous one ended in, conserves the seeds on the
    /// board, and the last lap (the only one that ends) leaves the board of
    /// the move but for the capture; laps and seeds sown agree with
    /// `MoveDetails`.
    #[test]
    fn laps_are_the_sowing_of_play(
        holes in 2usize..=30,
        seeds in 1u32..=6,
        picks in proptest::collection::vec(any::<u16>(), 1..120),
    ) {
        let rules = Rules::new(holes, seeds).unwrap().with_max_laps(200).unwrap();
        let mut pos = rules.start();
        for pick in picks {
            let legal = pos.legal_moves();
            if legal.is_empty() { break; }
            let mv = legal.nth(pick as usize % legal.len()).unwrap();
            let on_board: u32 = pos.ring().iter().sum();
            let mut laps = pos.laps(mv).unwrap();
            let mut count = 0u32;
            let mut sown = 0u64;
            let mut expected_from = holes * pos.to_move().index() + usize::from(mv.hole()) - 1;
            let mut last_lap = None;
            while let Some(lap) = laps.next() {
                count += 1;
                prop_assert_eq!(lap.number, count);
                prop_assert_eq!(lap.from, expected_from);
                prop_assert_eq!(laps.ring().iter().sum::<u32>(), on_board);
                prop_assert_eq!(lap.ends, laps.ring()[lap.last] == 1);
                prop_assert!(last_lap.is_none_or(|l: endodoi::Lap| !l.ends), "a lap after the end");
                sown += u64::from(lap.seeds);
                expected_from = lap.last;
                last_lap = Some(lap);
            }
            let last_lap = last_lap.unwrap();
            prop_assert!(last_lap.ends, "a legal move's last lap ends it");
            let mut board = laps.ring().to_vec();
            let before = pos.clone();
            let details = pos.play(mv).unwrap();
            prop_assert_eq!((count, sown, last_lap.last), (details.laps, details.sown, details.last));
            if let Some(c) = details.capture {
                let opposite = 2 * holes - 1 - details.last;
                prop_assert_eq!(board[opposite] + board[details.last], c.seeds);
                board[opposite] = 0;
                board[details.last] = 0;
            }
            if !pos.is_over() {
                prop_assert_eq!(board.as_slice(), pos.ring(), "{} after {} in {}", pos, mv, before);
            }
        }
    }

    /// Exact adjudication is exact: in a random game, from the first
    /// position where `decided_winner` names a side, every continuation
    /// (the game's own and `continuations` other random ones) ends with that
    /// side the winner, and it stays decided for that side at every ply on
    /// the way; a game it never names a side in ends without a winner above
    /// half (a draw, or a win by half the seeds or fewer cannot happen with
    /// two sides, so: a draw). Ply limits from 5 plies up, so the ply-limit
    /// end (each side takes its own row) is tried as well as the sweep.
    #[test]
    fn a_decided_winner_wins_whatever_follows(
        holes in 2usize..=12,
        seeds in 1u32..=6,
        max_plies in 5u32..=400,
        seed in any::<u64>(),
        continuations in 1usize..=4,
    ) {
        let rules = Rules::new(holes, seeds).unwrap().with_max_plies(max_plies).unwrap();
        // A small LCG: the picks of every continuation.
        let mut state = seed | 1;
        let mut pick = move |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let mut pos = rules.start();
        prop_assert_eq!(pos.decided_winner(), None);
        let mut first = None;
        while !pos.is_over() && first.is_none() {
            let legal = pos.legal_moves();
            pos.play(legal.nth(pick(legal.len())).unwrap()).unwrap();
            first = pos.decided_winner().map(|side| (side, pos.clone()));
        }
        match first {
            Some((side, at)) => {
                for _ in 0..=continuations {
                    let mut rest = at.clone();
                    while !rest.is_over() {
                        let legal = rest.legal_moves();
                        rest.play(legal.nth(pick(legal.len())).unwrap()).unwrap();
                        prop_assert_eq!(rest.decided_winner(), Some(side), "it changed at {}", rest);
                    }
                    prop_assert_eq!(rest.outcome().unwrap().winner, Some(side), "decided at {}", at);
                }
            }
            None => {
                // Over without ever being decided: neither side holds more
                // than half, and the totals add up, so they are equal.
                prop_assert!(pos.is_over());
                prop_assert_eq!(pos.outcome().unwrap().winner, None, "{}", pos);
            }
        }
    }

    /// Replaying the same moves from the start gives the same position.
    #[test]
    fn replays_are_deterministic(holes in 2usize..=20, picks in proptest::collection::vec(any::<u8>(), 0..100)) {
        let rules = Rules::new(holes, 4).unwrap();
        let mut pos = rules.start();
        let mut played = Vec::new();
        for pick in picks {
            let legal = pos.legal_moves();
            if legal.is_empty() { break; }
            let mv = legal.nth(pick as usize % legal.len()).unwrap();
            pos.play(mv).unwrap();
            played.push(mv);
        }
        let mut again = rules.start();
        for mv in played {
            again.play(mv).unwrap();
        }
        prop_assert_eq!(again, pos);
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

/// A game started with more than 255 seeds stays on the general ring; once
/// captures leave fewer, the same position read back from its text is
/// compact. The two are equal and hash alike.
#[test]
fn equal_positions_are_equal_whichever_their_representation() {
    use std::hash::{BuildHasher, RandomState};
    let rules = Rules::new(8, 20).unwrap();
    let mut pos = rules.start();
    assert!(!pos.is_compact());
    let mut pick = 0usize;
    while pos.ring().sum() > 255 || pos.is_over() {
        if pos.is_over() {
            pos = rules.start();
        }
        let legal = pos.legal_moves();
        pick = pick.wrapping_mul(31).wrapping_add(7);
        pos.play(legal.nth(pick % legal.len()).unwrap()).unwrap();
    }
    assert!(!pos.is_compact(), "moves never change the representation");
    let back = Position::parse(&pos.to_string(), rules).unwrap();
    assert!(back.is_compact());
    assert_eq!(back, pos);
    let hasher = RandomState::new();
    assert_eq!(hasher.hash_one(&back), hasher.hash_one(&pos));
    assert_ne!(
        Position::parse(&pos.to_string(), rules.with_general_board()).unwrap(),
        pos,
        "other rules, other positions"
    );
}
