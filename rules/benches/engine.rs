//! Rules-engine benchmarks: `cargo bench -p endodoi`.
//!
//! - random playouts from the start of 2x8 (playouts per second), on the
//!   compact board and on the general one;
//! - moves generated and played (legal-move generation plus one play);
//! - legal-move generation in a position that holds an endless move;
//! - the same playouts with a plain "sow one seed at a time" engine, kept
//!   here as the baseline the real engine is compared with.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use endodoi::{Move, Position, Rules, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// One random game to its end; returns the plies played.
fn playout(start: &Position, rng: &mut SmallRng) -> u32 {
    let mut pos = start.clone();
    loop {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return pos.ply();
        }
        let mv = legal.nth(rng.gen_range(0..legal.len())).expect("in range");
        pos.play_unchecked(mv);
    }
}

/// One random game by rejection sampling: pick an occupied hole and let
/// `play` refuse the rare endless one. Uniform over the legal moves, and
/// only one sowing per ply.
fn fast_playout(start: &Position, rng: &mut SmallRng) -> u32 {
    let mut pos = start.clone();
    loop {
        let mut candidates = pos.candidate_moves();
        loop {
            let Some(mv) = candidates.nth(rng.gen_range(0..candidates.len().max(1))) else {
                return pos.ply();
            };
            if pos.play(mv).is_ok() {
                break;
            }
            candidates.remove(mv);
        }
    }
}

/// The baseline: the rules written the plain way, one seed per step, with the
/// lap limit as the only endless check. It plays the same games.
mod plain {
    pub struct Board {
        pub ring: Vec<u32>,
        pub n: usize,
        pub south_to_move: bool,
        pub captured: [u32; 2],
        pub max_laps: u32,
    }

    impl Board {
        pub fn new(n: usize, seeds: u32, max_laps: u32) -> Board {
            Board {
                ring: vec![seeds; 2 * n],
                n,
                south_to_move: true,
                captured: [0, 0],
                max_laps,
            }
        }

        /// The ring after sowing from `start`, and where it ended, or None if endless.
        fn sow(&self, start: usize) -> Option<(Vec<u32>, usize)> {
            let mut ring = self.ring.clone();
            let mut hole = start;
            for _lap in 0..self.max_laps {
                let mut seeds = std::mem::take(&mut ring[hole]);
                let mut at = hole;
                while seeds > 0 {
                    at = (at + 1) % ring.len();
                    ring[at] += 1;
                    seeds -= 1;
                }
                if ring[at] == 1 {
                    return Some((ring, at));
                }
                hole = at;
            }
            None
        }

        pub fn legal(&self) -> Vec<(usize, Vec<u32>, usize)> {
            let base = if self.south_to_move { 0 } else { self.n };
            (0..self.n)
                .filter(|&h| self.ring[base + h] > 0)
                .filter_map(|h| self.sow(base + h).map(|(r, end)| (h, r, end)))
                .collect()
        }

        pub fn play(&mut self, ring: Vec<u32>, end: usize) {
            self.ring = ring;
            let me = usize::from(!self.south_to_move);
            let own = if me == 0 {
                0..self.n
            } else {
                self.n..2 * self.n
            };
            let opp = 2 * self.n - 1 - end;
            if own.contains(&end) && self.ring[opp] > 0 {
                self.captured[me] += self.ring[opp] + 1;
                self.ring[opp] = 0;
                self.ring[end] = 0;
            }
            self.south_to_move = !self.south_to_move;
        }
    }

    pub fn playout(n: usize, rng: &mut impl rand::Rng) -> u32 {
        let mut b = Board::new(n, 4, 100_000);
        let mut plies = 0;
        loop {
            let mut legal = b.legal();
            if legal.is_empty() || plies >= 1000 {
                return plies;
            }
            let (_, ring, end) = legal.swap_remove(rng.gen_range(0..legal.len()));
            b.play(ring, end);
            plies += 1;
        }
    }
}

/// A 2x4 position where North's hole 1 is endless (RULES.md's example).
fn endless_position() -> Position {
    let mut pos = Rules::new(4, 4).unwrap().start();
    for h in [4, 3, 2, 4, 1] {
        pos.play(Move::new(h).unwrap()).unwrap();
    }
    assert_eq!(pos.legal_moves().len(), 2);
    pos
}

/// A move that runs to `max_laps` (100,000 laps) without a cycle Brent's
/// method finds in time: the rare moves that dominate the C kernel's time.
/// Found in random 2x8 and 2x10 games of `../shared/bench/fastplay.c`.
fn long_endless_moves() -> [(Position, Move); 2] {
    let case = |n: usize, south: &[u32], north: &[u32], side: Side, hole: u8| {
        let rules = Rules::new(n, 4).unwrap();
        let pos = Position::from_parts(rules, south, north, side, [0, 0], 0).unwrap();
        let mv = Move::new(hole).unwrap();
        assert!(pos.check(mv).is_err(), "endless");
        (pos, mv)
    };
    [
        case(
            8,
            &[0, 9, 0, 3, 4, 9, 2, 2],
            &[10, 0, 1, 0, 10, 0, 2, 5],
            Side::South,
            7,
        ),
        case(
            10,
            &[1, 0, 1, 0, 5, 0, 1, 2, 7, 2],
            &[1, 8, 14, 6, 1, 7, 1, 0, 1, 7],
            Side::North,
            10,
        ),
    ]
}

fn benches(c: &mut Criterion) {
    let start = Rules::new(8, 4).unwrap().start();
    let mut group = c.benchmark_group("2x8");
    group.throughput(Throughput::Elements(1));
    let mut rng = SmallRng::seed_from_u64(1);
    group.bench_function("random playout", |b| {
        b.iter(|| playout(black_box(&start), &mut rng))
    });
    let mut rng = SmallRng::seed_from_u64(1);
    group.bench_function("random playout, rejection sampling", |b| {
        b.iter(|| fast_playout(black_box(&start), &mut rng))
    });
    // The same with a lap limit of 1,000: what the rare endless checks cost.
    let short = Rules::new(8, 4)
        .unwrap()
        .with_max_laps(1000)
        .unwrap()
        .start();
    let mut rng = SmallRng::seed_from_u64(1);
    group.bench_function("random playout, max_laps 1000", |b| {
        b.iter(|| playout(black_box(&short), &mut rng))
    });
    // The same games on the general board: what the compact ring buys.
    let general = Rules::new(8, 4).unwrap().with_general_board().start();
    let mut rng = SmallRng::seed_from_u64(1);
    group.bench_function("random playout, rejection sampling, general board", |b| {
        b.iter(|| fast_playout(black_box(&general), &mut rng))
    });
    let mut rng = SmallRng::seed_from_u64(1);
    group.bench_function("random playout, plain engine", |b| {
        b.iter(|| plain::playout(8, &mut rng))
    });
    // Mid-game positions for the per-move figure.
    let mut rng = SmallRng::seed_from_u64(2);
    let mids: Vec<Position> = (0..256)
        .filter_map(|_| {
            let mut pos = start.clone();
            for _ in 0..rng.gen_range(0..30) {
                let legal = pos.legal_moves();
                if legal.len() < 2 {
                    return None;
                }
                pos.play_unchecked(legal.nth(rng.gen_range(0..legal.len())).unwrap());
            }
            Some(pos)
        })
        .collect();
    let mut i = 0;
    group.bench_function("generate and play one move", |b| {
        b.iter_batched(
            || {
                i = (i + 1) % mids.len();
                mids[i].clone()
            },
            |mut pos| {
                let mv = pos.legal_moves().first().unwrap();
                pos.play_unchecked(mv);
                pos
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();

    let endless = endless_position();
    c.bench_function("legal moves with an endless move (2x4)", |b| {
        b.iter(|| black_box(&endless).legal_moves())
    });

    // One lap of a long sowing: throughput is in laps.
    let mut group = c.benchmark_group("endless move of 100,000 laps");
    group.throughput(Throughput::Elements(100_000));
    for (pos, mv) in long_endless_moves() {
        group.bench_function(format!("2x{}", pos.holes()), |b| {
            b.iter(|| black_box(&pos).check(black_box(mv)))
        });
    }
    group.finish();
}

criterion_group!(engine, benches);
criterion_main!(engine);
