//! The live view's memory over a long league (docs/live.md, "A
//! league"): the state that counts the games (`LiveState`, what
//! `arena run --serve` and `arena serve` hold) is fed a league's games
//! round by round, as the runner's events bring them, and its live heap
//! is measured with the counting allocator the memory tests share. It
//! must stay flat once the viewer is full: per bot its totals and its
//! last series, per open series its round, nothing per game. No timing
//! here.

mod heap;

use std::time::Instant;

use arena::format::{Format, LeagueSettings, PairBy, Plan};
use arena::live::state::REFIT_EVERY;
use arena::live::{LiveState, Setup};
use arena::output::GameRow;
use arena::referee::{GameEnd, GameRecord};
use arena::series::{score, SeriesRule, SeriesState};
use arena::stats::RatingOptions;
use endodoi::{Rules, Side};

#[global_allocator]
static GLOBAL: heap::Tracking = heap::Tracking;

const BOTS: usize = 16;
const ROUNDS: u32 = 200;

/// A whole game on 2x40 with 8 seeds, each ply a legal move drawn from
/// the seeded stream `x`: long, so that the viewer's budget of positions
/// is full within the first rounds, as a long league's is.
fn long_game(x: &mut u64) -> (String, u32, [u32; 2], Option<Side>) {
    let rules = Rules::new(40, 8).unwrap();
    let mut pos = rules.start();
    let mut moves = Vec::new();
    while !pos.is_over() {
        let legal: Vec<_> = pos.legal_moves().into_iter().collect();
        *x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let mv = legal[((*x >> 33) as usize) % legal.len()];
        pos.play(mv).unwrap();
        moves.push(mv.hole().to_string());
    }
    let winner = pos.outcome().unwrap().winner;
    let seeds = [pos.captured(Side::South), pos.captured(Side::North)];
    (moves.join(" "), moves.len() as u32, seeds, winner)
}

/// The row of game `game` of `series` between `names` (South, North).
fn row(
    series: usize,
    game: u32,
    names: [&str; 2],
    played: &(String, u32, [u32; 2], Option<Side>),
) -> GameRow {
    GameRow::from(&GameRecord {
        series,
        game,
        bots: [names[0].to_string(), names[1].to_string()],
        rules: Rules::new(40, 8).unwrap(),
        moves: played.0.clone(),
        plies: played.1,
        seeds: played.2,
        winner: played.3,
        end: GameEnd::NoMoves,
        detail: String::new(),
        duration_ms: 1,
        transcript_failed: None,
        opening: String::new(),
    })
}

/// A league of 16 bots over 200 rounds of one game pair a pairing, fed
/// game by game to the live state (the standings refitted after each
/// round): from round 50 to round 200 (2,400 games, the viewer long
/// full), its live heap grows by at most a few bytes a game, and its
/// peak stays within what one refit borrows.
#[test]
fn the_live_state_of_a_long_league_keeps_no_heap_a_game() {
    let format = Format::League(LeagueSettings {
        rounds: Some(ROUNDS),
        settle_los: None,
        seed: 9,
        prior_draws: 1.0,
        bootstrap: 0,
        pairing: PairBy::Rating,
        catch_up: arena::format::LEAGUE_CATCH_UP,
    });
    let rule = SeriesRule {
        first_to: 2,
        max_games: 2,
        sprt: None,
        pair_shard: None,
    };
    let names: Vec<String> = (0..BOTS).map(|i| format!("bot{i:02}")).collect();
    let mut x = 5u64;
    // Four games, played again and again (their results are the stream's).
    let games: Vec<_> = (0..4).map(|_| long_game(&mut x)).collect();
    let t0 = Instant::now();
    let mut state = LiveState::new(
        Setup {
            title: "league".into(),
            bots: names.clone(),
            ratings: RatingOptions {
                bootstrap_samples: 10,
                ..RatingOptions::default()
            },
            follows: true,
            format: format.clone(),
            series_rule: Some(rule),
            ..Setup::default()
        },
        t0,
    );
    // The league as the runner plays it: the same plan, fed the results.
    let mut plan = Plan::new(&format, BOTS, &[]);
    let (mut round, mut at_50) = (0u32, 0i64);
    while let Some(stage) = plan.next_stage() {
        round += 1;
        for s in &stage.series {
            let mut series = SeriesState::new(*s, rule);
            for game in 1..=2 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let played = &games[((x >> 33) % 4) as usize];
                let south = s.south(game);
                let north = if south == s.a { s.b } else { s.a };
                series.record(score(*s, game, played.3));
                let ended =
                    state.add_row(row(s.number, game, [&names[south], &names[north]], played));
                drop(ended);
            }
            assert!(plan.record(&series.result().unwrap()));
        }
        let now = t0 + REFIT_EVERY * round;
        assert!(state.tick(now).is_some(), "round {round} refitted");
        if round == 50 {
            at_50 = heap::reset_peak();
        }
    }
    assert_eq!(round, ROUNDS);
    let (grown, borrowed) = (heap::live() - at_50, heap::peak() - at_50);
    // The live view followed the league to its last round.
    let snap: serde_json::Value = serde_json::from_str(&state.snapshot(t0)).unwrap();
    assert_eq!(snap["league"]["rounds"], ROUNDS, "{}", snap["league"]);
    let games_since = f64::from((ROUNDS - 50) * BOTS as u32);
    let per_game = grown as f64 / games_since;
    println!(
        "the live state grew {grown} bytes from round 50 to {ROUNDS} ({games_since} games): {per_game:.1} a game; at most {borrowed} bytes more while it ran"
    );
    // 1.8 bytes a game measured (the rounds of the series, one run of
    // series numbers a round); 103.6 when it kept every series and game.
    assert!(
        per_game < 4.0,
        "the live state keeps {per_game:.1} bytes a game"
    );
    // What a refit and a game's update borrow, given back: 36 kB measured
    // at most over the 150 rounds.
    assert!(
        borrowed < 100_000,
        "the live state held {borrowed} bytes more at its peak"
    );
}
