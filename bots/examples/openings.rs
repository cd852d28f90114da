//! How much moving first, and the first move, matter on each board:
//! `alphabeta` at a fixed depth plays both sides from
//!
//! - random openings of 2 to 4 plies, as a tournament's `[openings]` draws
//!   them (uniform over the legal moves, a fixed seed);
//! - every first move of South;
//! - every 2-ply opening (every first move, every reply);
//!
//! and South's score (wins plus half the draws), with a 95% interval for
//! the random openings, and the mean final margin are printed as Markdown.
//!
//! ```sh
//! nice -n 10 cargo run --release -p endodoi-bots --example openings -- [--depth 8] [--random 500] [--holes 6,7,8,9,10] [--seeds 4] [--seed 1]
//! ```
//!
//! Deterministic: the bot makes no random choices and starts every game with
//! a cleared table, and the openings come from a seeded generator, so every
//! run prints the same tables.

mod common;

use endodoi::{Move, Position, Rules, Side};
use endodoi_bots::{own_view, AlphaBeta, AlphaBetaOptions, Strategy, TimeLeft};
use endodoi_protocol::NewGame;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use common::random_opening;

/// Plays `pos` out with `bot` on both sides; returns South's final margin.
fn play_out(bot: &mut AlphaBeta, mut pos: Position) -> i32 {
    bot.new_game(&NewGame {
        rules: *pos.rules(),
        side: Side::South,
        move_time_ms: 0,
        base_time_ms: 0,
        increment_ms: 0,
        game: None,
    });
    while !pos.is_over() {
        let view = own_view(&pos);
        let result = bot.analyse(&view, view.legal_moves(), &TimeLeft::unlimited());
        pos.play(result.best).expect("the bot plays legal moves");
    }
    pos.captured(Side::South) as i32 - pos.captured(Side::North) as i32
}

/// South's results over a set of games.
#[derive(Default, Clone, Copy)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    margin: i64,
}

impl Tally {
    fn add(&mut self, margin: i32) {
        match margin.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.margin += i64::from(margin);
    }

    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    /// "55.0% (+30 =2 -25), margin +1.2", with `± x` after the score when
    /// `interval` (95%, normal approximation over the games' scores).
    fn summary(&self, interval: bool) -> String {
        let n = f64::from(self.games().max(1));
        let p = self.score();
        let half = if interval {
            // Per-game scores are 1, 1/2 or 0: their sample variance.
            let mean_sq = (f64::from(self.wins) + 0.25 * f64::from(self.draws)) / n;
            let var = (mean_sq - p * p).max(0.0) * n / (n - 1.0).max(1.0);
            format!(" ± {:.1}", 100.0 * 1.96 * (var / n).sqrt())
        } else {
            String::new()
        };
        format!(
            "{:.1}%{half} (+{} ={} -{}), margin {:+.1}",
            100.0 * p,
            self.wins,
            self.draws,
            self.losses,
            self.margin as f64 / n
        )
    }
}

fn main() {
    let mut depth = 8;
    let mut random = 500;
    let mut holes: Vec<usize> = (6..=10).collect();
    let mut seeds = 4;
    let mut seed = 1;
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair
            .get(1)
            .unwrap_or_else(|| panic!("{} needs a value", pair[0]));
        match pair[0].as_str() {
            "--depth" => depth = value.parse().expect("--depth: a number"),
            "--random" => random = value.parse().expect("--random: a number"),
            "--holes" => {
                holes = value
                    .split(',')
                    .map(|h| h.parse().expect("--holes: numbers"))
                    .collect();
            }
            "--seeds" => seeds = value.parse().expect("--seeds: a number"),
            "--seed" => seed = value.parse().expect("--seed: a number"),
            other => panic!(
                "unknown option {other}; usage: openings [--depth D] [--random N] [--holes 6,8] [--seeds S] [--seed N]"
            ),
        }
    }
    let mut bot = AlphaBeta::new(AlphaBetaOptions {
        depth: Some(depth),
        ..AlphaBetaOptions::default()
    });
    println!(
        "alphabeta at depth {depth} plays both sides; South's score (wins and half the draws) and mean final margin (South's seeds minus North's)\n"
    );
    println!(
        "| board | {random} random 2-4 ply openings | every first move | every 2-ply opening |"
    );
    println!("|---|---|---|---|");
    let mut first_moves = Vec::new();
    for &n in &holes {
        let rules = Rules::new(n, seeds).expect("valid rules");
        let start = rules.start();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut from_random = Tally::default();
        for _ in 0..random {
            from_random.add(play_out(&mut bot, random_opening(&start, &mut rng)));
        }
        let mut from_first = Tally::default();
        let mut from_two = Tally::default();
        let mut per_first: Vec<(Move, i32, Tally)> = Vec::new();
        for first in start.legal_moves() {
            let mut pos = start.clone();
            pos.play(first).expect("a legal move");
            let margin = play_out(&mut bot, pos.clone());
            from_first.add(margin);
            let mut replies = Tally::default();
            for reply in pos.legal_moves() {
                let mut next = pos.clone();
                next.play(reply).expect("a legal move");
                let m = play_out(&mut bot, next);
                replies.add(m);
                from_two.add(m);
            }
            if pos.is_over() {
                replies.add(margin);
                from_two.add(margin);
            }
            per_first.push((first, margin, replies));
        }
        println!(
            "| 2x{n} | {} | {} | {} games: {} |",
            from_random.summary(true),
            from_first.summary(false),
            from_two.games(),
            from_two.summary(false)
        );
        first_moves.push((n, per_first));
    }
    println!(
        "\nSouth's final margin after each first move, both sides searching from there; in brackets South's score over every reply of North\n"
    );
    for (n, per_first) in first_moves {
        let cells: Vec<String> = per_first
            .iter()
            .map(|(mv, margin, replies)| {
                format!("{mv}: {margin:+} ({:.0}%)", 100.0 * replies.score())
            })
            .collect();
        println!("- 2x{n}: {}", cells.join(", "));
    }
}
