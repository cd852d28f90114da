//! Tests of [`super::rate`] and [`super::Ratings`].

use proptest::prelude::*;

use super::*;

fn pr(a: usize, b: usize, wins: u32, draws: u32, losses: u32) -> PairResult {
    PairResult {
        a,
        b,
        wins,
        draws,
        losses,
    }
}

fn options(samples: u32, seed: u64) -> RatingOptions {
    RatingOptions {
        bootstrap_samples: samples,
        seed,
        ..RatingOptions::default()
    }
}

fn small_tournament() -> Vec<PairResult> {
    vec![
        pr(0, 1, 12, 5, 8),
        pr(1, 2, 9, 9, 7),
        pr(0, 2, 15, 6, 4),
        pr(3, 0, 2, 3, 20),
        pr(3, 1, 6, 2, 17),
        pr(2, 3, 11, 4, 10),
    ]
}

#[test]
fn defaults() {
    let o = RatingOptions::default();
    assert_eq!(
        (o.prior_draws, o.bootstrap_samples, o.confidence),
        (1.0, 1000, 0.95)
    );
}

#[test]
fn ratings_equal_fit_and_intervals_use_the_normal_quantile() {
    let results = small_tournament();
    let r = rate(4, &results, &options(200, 7));
    let f = fit(4, &results, 1.0);
    assert_eq!(r.len(), 4);
    for (k, rating) in r.ratings.iter().enumerate() {
        assert_eq!(rating.elo, f[k]);
        assert!(rating.sd > 0.0);
        assert!((rating.upper - rating.elo - 1.959_963_984_540_054 * rating.sd).abs() < 1e-9);
        assert!((rating.elo - rating.lower - 1.959_963_984_540_054 * rating.sd).abs() < 1e-9);
        assert_eq!(rating.sd, r.covariance(k, k).sqrt());
        assert_eq!(rating.group, 0);
    }
    assert_eq!(r.ratings[0].games, 25 + 25 + 25);
    assert_eq!(r.groups, 1);
    assert!((r.draw_rate - 29.0 / 150.0).abs() < 1e-15);
    // A wider confidence level gives wider intervals.
    let wide = rate(
        4,
        &results,
        &RatingOptions {
            confidence: 0.99,
            ..options(200, 7)
        },
    );
    assert!(
        wide.ratings[0].upper - wide.ratings[0].lower > r.ratings[0].upper - r.ratings[0].lower
    );
}

#[test]
fn same_seed_same_numbers_other_seed_other_numbers() {
    let results = small_tournament();
    let a = rate(4, &results, &options(100, 42));
    let b = rate(4, &results, &options(100, 42));
    assert_eq!(a, b);
    let c = rate(4, &results, &options(100, 43));
    assert_ne!(a.ratings[0].sd, c.ratings[0].sd);
    assert_eq!(a.ratings[0].elo, c.ratings[0].elo);
}

#[test]
fn bootstrap_spread_matches_the_fisher_information() {
    // Two equal bots, 400 decisive games, one virtual draw: the asymptotic
    // sd of the difference is 1 / sqrt(401 / 4) natural units; each rating
    // is half the difference.
    let r = rate(2, &[pr(0, 1, 200, 0, 200)], &options(2000, 1));
    let per_elo = std::f64::consts::LN_10 / 400.0;
    let expected = 0.5 / (401.0f64 / 4.0).sqrt() / per_elo;
    assert!((expected - 8.675).abs() < 0.01, "{expected}");
    for rating in &r.ratings {
        assert!(
            (rating.sd / expected - 1.0).abs() < 0.1,
            "{} vs {expected}",
            rating.sd
        );
    }
    // The two ratings are perfectly anti-correlated.
    let corr = r.covariance(0, 1) / (r.ratings[0].sd * r.ratings[1].sd);
    assert!((corr + 1.0).abs() < 1e-9, "{corr}");
}

#[test]
fn los_follows_the_rating_difference() {
    let r = rate(2, &[pr(0, 1, 60, 0, 40)], &options(500, 3));
    let diff = r.ratings[0].elo - r.ratings[1].elo;
    let sd = 2.0 * r.ratings[0].sd;
    let expected = standard_normal().cdf(diff / sd);
    assert!(
        (r.los(0, 1) - expected).abs() < 1e-6,
        "{} vs {expected}",
        r.los(0, 1)
    );
    assert!(r.los(0, 1) > 0.9 && r.los(0, 1) < 1.0, "{}", r.los(0, 1));
    assert!((r.los(0, 1) + r.los(1, 0) - 1.0).abs() < 1e-12);
    assert_eq!(r.los(1, 1), 0.5);

    let equal = rate(2, &[pr(0, 1, 50, 10, 50)], &options(100, 3));
    assert!((equal.los(0, 1) - 0.5).abs() < 1e-9);

    let crushing = rate(2, &[pr(0, 1, 95, 0, 5)], &options(200, 3));
    assert!(crushing.los(0, 1) > 0.999);
}

#[test]
fn without_samples_los_uses_the_sign() {
    let r = rate(3, &[pr(0, 1, 6, 0, 4)], &options(0, 0));
    assert_eq!(r.samples, 0);
    for rating in &r.ratings {
        assert_eq!(
            (rating.lower, rating.upper, rating.sd),
            (rating.elo, rating.elo, 0.0)
        );
    }
    assert_eq!(r.los(0, 1), 1.0);
    assert_eq!(r.los(1, 0), 0.0);
    assert_eq!(r.los(2, 2), 0.5);
}

#[test]
fn idle_bots_and_groups_are_reported() {
    let r = rate(5, &[pr(0, 1, 7, 1, 2), pr(3, 2, 4, 4, 2)], &options(50, 9));
    assert_eq!(r.groups, 3);
    let groups: Vec<usize> = r.ratings.iter().map(|x| x.group).collect();
    assert_eq!(groups, vec![0, 0, 1, 1, 2]);
    let idle = r.ratings[4];
    assert_eq!(
        (idle.elo, idle.lower, idle.upper, idle.sd, idle.games),
        (0.0, 0.0, 0.0, 0.0, 0)
    );
    assert!(r.ratings[0].elo > 0.0 && r.ratings[3].elo > 0.0);
    assert!((r.ratings[0].elo + r.ratings[1].elo).abs() < 1e-9);
    assert!((r.ratings[2].elo + r.ratings[3].elo).abs() < 1e-9);
}

#[test]
fn nothing_at_all() {
    let r = rate(0, &[], &RatingOptions::default());
    assert!(r.is_empty() && r.groups == 0 && r.draw_rate == 0.0);
    let r = rate(3, &[], &RatingOptions::default());
    assert!(r
        .ratings
        .iter()
        .all(|x| x.elo == 0.0 && x.lower == 0.0 && x.upper == 0.0));
    assert_eq!(r.los(0, 1), 0.5);
}

#[test]
fn perfect_scores_stay_finite() {
    let results = [pr(0, 1, 30, 0, 0), pr(1, 2, 0, 0, 30), pr(0, 2, 30, 0, 0)];
    for prior in [1.0, 0.0] {
        let r = rate(
            3,
            &results,
            &RatingOptions {
                prior_draws: prior,
                ..options(100, 5)
            },
        );
        for rating in &r.ratings {
            assert!(rating.elo.is_finite() && rating.lower.is_finite() && rating.upper.is_finite());
            assert!(rating.lower <= rating.elo && rating.elo <= rating.upper);
        }
        assert!(r.ratings[0].elo > r.ratings[2].elo && r.ratings[2].elo > r.ratings[1].elo);
        assert!(r.los(0, 2) > 0.5 && r.los(0, 2) <= 1.0);
    }
    let r = rate(
        3,
        &results,
        &RatingOptions {
            prior_draws: 0.0,
            ..options(10, 5)
        },
    );
    assert_eq!(r.ratings[0].elo, ELO_LIMIT);
    assert_eq!(r.ratings[1].elo, -ELO_LIMIT);
}

#[test]
fn odd_options_are_sanitised() {
    let results = small_tournament();
    let nan = rate(
        4,
        &results,
        &RatingOptions {
            confidence: f64::NAN,
            prior_draws: f64::NAN,
            ..options(20, 1)
        },
    );
    assert_eq!(nan.confidence, 0.95);
    assert_eq!(nan.ratings[0].elo, fit(4, &results, 0.0)[0]);
    let one = rate(
        4,
        &results,
        &RatingOptions {
            confidence: 1.0,
            ..options(20, 1)
        },
    );
    assert!(one.confidence < 1.0);
    assert!(one
        .ratings
        .iter()
        .all(|x| x.lower.is_finite() && x.upper.is_finite()));
    let single = rate(4, &results, &options(1, 1));
    assert!(single.ratings.iter().all(|x| x.sd == 0.0));
}

fn tournament() -> impl Strategy<Value = (usize, Vec<PairResult>)> {
    (1usize..=6).prop_flat_map(|bots| {
        let result = (0..bots, 0..bots, 0u32..15, 0u32..15, 0u32..15)
            .prop_map(|(a, b, w, d, l)| pr(a, b, w, d, l));
        (Just(bots), proptest::collection::vec(result, 0..12))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn outputs_are_finite_centred_and_ordered(
        (bots, results) in tournament(),
        prior in prop_oneof![Just(0.0), Just(0.5), Just(1.0), 0.0f64..3.0],
        samples in 0u32..25,
        seed in any::<u64>(),
    ) {
        let r = rate(bots, &results, &RatingOptions { prior_draws: prior, bootstrap_samples: samples, seed, confidence: 0.95 });
        let f = fit(bots, &results, prior);
        prop_assert_eq!(r.ratings.len(), bots);
        let largest = r.ratings.iter().fold(0.0f64, |m, x| m.max(x.elo.abs()));
        let sum: f64 = r.ratings.iter().map(|x| x.elo).sum();
        prop_assert!(sum.abs() <= 1e-6 * (1.0 + largest), "sum {}", sum);
        for (k, x) in r.ratings.iter().enumerate() {
            prop_assert!(x.elo.is_finite() && x.lower.is_finite() && x.upper.is_finite() && x.sd.is_finite());
            prop_assert!(x.lower <= x.elo && x.elo <= x.upper, "{:?}", x);
            prop_assert_eq!(x.elo, f[k]);
            if x.games == 0 {
                prop_assert_eq!(x.elo, 0.0);
            }
            for j in 0..bots {
                let los = r.los(k, j);
                prop_assert!((0.0..=1.0).contains(&los), "los {}", los);
                prop_assert!((los + r.los(j, k) - 1.0).abs() < 1e-9);
            }
        }
        let p = pair_elo(
            results.iter().map(|x| x.wins).sum(),
            results.iter().map(|x| x.draws).sum(),
            results.iter().map(|x| x.losses).sum(),
        );
        prop_assert!(p.elo.is_finite() && p.error_95.is_finite() && p.error_95 >= 0.0);
        prop_assert!((0.0..=1.0).contains(&p.los) && (0.0..=1.0).contains(&p.score));
    }
}
