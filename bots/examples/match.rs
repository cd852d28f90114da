//! A quick in-process match between two bundled bots, from random openings
//! with sides swapped in each pair (no processes, no time limits):
//! `cargo run --release -p endodoi-bots --example match -- HOLES PAIRS "BOT A OPTIONS" "BOT B OPTIONS"`,
//! e.g. `... -- 8 100 "alphabeta --depth 6" "mcts --playouts 2000"`.

mod common;

use std::time::{Duration, Instant};

use endodoi::{Position, Rules, Side};
use endodoi_bots::{own_view, strategy_from_args, Strategy, TimeLeft};
use endodoi_protocol::NewGame;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use common::random_opening;

fn bot(spec: &str) -> Box<dyn Strategy> {
    let mut words = spec.split_whitespace();
    let name = words.next().expect("a bot name");
    strategy_from_args(name, name, words).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [holes, pairs, a, b] = &args[..] else {
        panic!("usage: match HOLES PAIRS \"BOT A\" \"BOT B\"");
    };
    let rules = Rules::new(holes.parse().expect("holes"), 4).expect("rules");
    let pairs: u64 = pairs.parse().expect("pairs");
    let mut bots = [bot(a), bot(b)];
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut score = [0.0f64; 2];
    let (mut wins, mut draws) = ([0u32; 2], 0u32);
    let mut thinking = [Duration::ZERO; 2];
    let mut moves = [0u32; 2];
    for pair in 0..pairs {
        // A random opening of 2 to 4 plies.
        let opening = random_opening(&rules.start(), &mut rng);
        if opening.is_over() {
            continue;
        }
        for swap in 0..2 {
            let south = swap; // bot index playing South
            for (i, bot) in bots.iter_mut().enumerate() {
                bot.new_game(&NewGame {
                    rules,
                    side: if i == south { Side::South } else { Side::North },
                    move_time_ms: 0,
                    base_time_ms: 0,
                    increment_ms: 0,
                    game: Some((pair + 1, swap as u64 + 1)),
                });
            }
            let mut pos: Position = opening.clone();
            while !pos.is_over() {
                let i = if pos.to_move() == Side::South {
                    south
                } else {
                    1 - south
                };
                let view = own_view(&pos);
                let t = Instant::now();
                let mv = bots[i].choose_timed(&view, view.legal_moves(), &TimeLeft::unlimited());
                thinking[i] += t.elapsed();
                moves[i] += 1;
                pos.play(mv).expect("a legal move");
            }
            match pos.outcome().unwrap().winner {
                None => {
                    draws += 1;
                    score[0] += 0.5;
                    score[1] += 0.5;
                }
                Some(side) => {
                    let w = if side == Side::South {
                        south
                    } else {
                        1 - south
                    };
                    wins[w] += 1;
                    score[w] += 1.0;
                }
            }
        }
    }
    let games = score[0] + score[1];
    let p = score[0] / games;
    let elo = -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    println!(
        "2x{holes}: {a} vs {b}: +{} ={draws} -{} ({:.1}%, {elo:+.0} Elo); ms/move {:.2} vs {:.2}",
        wins[0],
        wins[1],
        100.0 * p,
        thinking[0].as_secs_f64() * 1e3 / f64::from(moves[0].max(1)),
        thinking[1].as_secs_f64() * 1e3 / f64::from(moves[1].max(1)),
    );
}
