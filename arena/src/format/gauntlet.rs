//! The gauntlet: each candidate meets every other bot, and two bots that
//! are not candidates never meet (cutechess-cli's `-tournament gauntlet`,
//! with any number of candidates).

use crate::schedule::Series;

/// Every series of a gauntlet of `candidates` (indices, in the config's
/// order) over `bots` bots, numbered from 1. Round `r` holds each
/// candidate's `r`-th opponent (an order, not a pairing: a bot may play
/// more than one series of a round), so the series played at once tend to
/// involve different candidates. Two candidates meet once, in the earlier
/// candidate's list. Within a series, `a` is the lower index.
#[must_use]
pub fn schedule(bots: usize, candidates: &[usize]) -> Vec<Series> {
    let is_candidate = |i: usize| candidates.contains(&i);
    // Each candidate's opponents: every bot but itself and the candidates
    // before it (they met already).
    let lists: Vec<Vec<usize>> = candidates
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            (0..bots)
                .filter(|&o| o != c && !(is_candidate(o) && candidates[..k].contains(&o)))
                .collect()
        })
        .collect();
    let rounds = lists.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = Vec::new();
    for r in 0..rounds {
        for (&c, list) in candidates.iter().zip(&lists) {
            if let Some(&o) = list.get(r) {
                out.push(Series {
                    number: out.len() + 1,
                    round: r as u32 + 1,
                    a: c.min(o),
                    b: c.max(o),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    proptest! {
        /// A gauntlet never pairs two non-candidates, pairs each candidate
        /// with every other bot exactly once, and numbers its series in order.
        #[test]
        fn candidates_meet_everyone_once_and_others_never_meet(
            bots in 2usize..12,
            picks in proptest::collection::vec(any::<bool>(), 12),
        ) {
            let candidates: Vec<usize> = (0..bots).filter(|&i| picks[i]).collect();
            prop_assume!(!candidates.is_empty());
            let s = schedule(bots, &candidates);
            let mut seen = HashSet::new();
            for (i, x) in s.iter().enumerate() {
                prop_assert_eq!(x.number, i + 1);
                prop_assert!(x.a < x.b && x.b < bots);
                prop_assert!(candidates.contains(&x.a) || candidates.contains(&x.b), "two non-candidates met: {:?}", x);
                prop_assert!(seen.insert((x.a, x.b)), "a pair met twice: {:?}", x);
            }
            for &c in &candidates {
                let met = s.iter().filter(|x| x.a == c || x.b == c).count();
                prop_assert_eq!(met, bots - 1);
            }
        }
    }
}
