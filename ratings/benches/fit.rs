//! Criterion benchmark of the rating fit and its intervals on synthetic
//! tournaments (issue 31): 1,000 bots and 100,000 games, random or
//! chain-like pairings, generated here from known true ratings with a
//! seeded generator (the same model as `tools/gen_games.py`: true ratings
//! from N(0, 200) Elo, games in pairs with sides swapped, a draw with
//! probability `min(0.2, 2E, 2(1 - E))`).
//!
//! `cargo bench -p endodoi-ratings` times [`endodoi_ratings::fit()`] alone
//! and [`endodoi_ratings::rate`] with its default intervals (the one-step
//! bootstrap, 1,000 samples); CI only builds it (`--no-run`). The whole
//! `arena rate` pipeline, with Ordo beside it, is `tools/ratings_bench.py`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use endodoi_ratings::{fit, rate, PairResult, RatingOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Bots and games of each generated tournament.
const BOTS: usize = 1000;
const GAMES: usize = 100_000;
/// Chain-like pairings: opponents at most this many ranks apart.
const WIDTH: usize = 25;

/// A tournament's results, one entry per game pair, from true ratings
/// drawn with `seed`; `chain` pairs bots within [`WIDTH`] ranks.
fn tournament(chain: bool, seed: u64) -> Vec<PairResult> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Sum of 12 uniforms: a normal draw to the benchmark's needs.
    let truth: Vec<f64> = (0..BOTS)
        .map(|_| 200.0 * ((0..12).map(|_| rng.gen::<f64>()).sum::<f64>() - 6.0))
        .collect();
    let mut by_rank: Vec<usize> = (0..BOTS).collect();
    by_rank.sort_by(|&x, &y| truth[y].total_cmp(&truth[x]));
    (0..GAMES / 2)
        .map(|_| {
            let (a, b) = if chain {
                let r = rng.gen_range(0..BOTS);
                let lo = r.saturating_sub(WIDTH);
                let hi = (r + WIDTH).min(BOTS - 1);
                let mut s = rng.gen_range(lo..hi);
                if s >= r {
                    s += 1;
                }
                (by_rank[r], by_rank[s])
            } else {
                let a = rng.gen_range(0..BOTS);
                let b = (a + rng.gen_range(1..BOTS)) % BOTS;
                (a, b)
            };
            let e = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
            let d = 0.2f64.min(2.0 * e).min(2.0 * (1.0 - e));
            let mut result = PairResult {
                a,
                b,
                wins: 0,
                draws: 0,
                losses: 0,
            };
            for _ in 0..2 {
                let u: f64 = rng.gen();
                if u < e - d / 2.0 {
                    result.wins += 1;
                } else if u < e + d / 2.0 {
                    result.draws += 1;
                } else {
                    result.losses += 1;
                }
            }
            result
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("1000 bots, 100000 games");
    group.sample_size(10);
    for (name, chain) in [("random", false), ("chain", true)] {
        let results = tournament(chain, 1);
        group.bench_with_input(BenchmarkId::new("fit", name), &results, |b, r| {
            b.iter(|| fit(BOTS, r, 1.0));
        });
        group.bench_with_input(
            BenchmarkId::new("fit and intervals", name),
            &results,
            |b, r| b.iter(|| rate(BOTS, r, &RatingOptions::default())),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
