//! Greedy must clearly beat Random: 200 in-process games on 2x8 with 4 seeds,
//! sides alternating, through the rules engine only (no processes).

use endodoi::{Rules, Side};
use endodoi_bots::{play_game, Greedy, Random};

/// Greedy's score (wins + half the draws) over `games` games, and the counts.
fn greedy_score(rules: Rules, games: u32, seed: u64) -> (f64, [u32; 3]) {
    let mut greedy = Greedy::new(seed);
    let mut random = Random::new(seed + 1);
    let [mut wins, mut draws, mut losses] = [0u32; 3];
    for game in 0..games {
        let greedy_side = if game % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let end = match greedy_side {
            Side::South => play_game(rules, &mut greedy, &mut random),
            Side::North => play_game(rules, &mut random, &mut greedy),
        }
        .expect("both bots play legal moves");
        assert_eq!(
            end.captured(Side::South) + end.captured(Side::North),
            rules.total_seeds()
        );
        match end.outcome().expect("the game is over").winner {
            Some(side) if side == greedy_side => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games);
    (score, [wins, draws, losses])
}

#[test]
fn greedy_beats_random_on_2x8() {
    let rules = Rules::new(8, 4).unwrap();
    let (score, [w, d, l]) = greedy_score(rules, 200, 2024);
    println!(
        "greedy vs random, 2x8, 200 games: +{w} ={d} -{l}, score {:.1}%",
        100.0 * score
    );
    assert!(
        score > 0.65,
        "greedy scored only {:.1}% (+{w} ={d} -{l})",
        100.0 * score
    );
}

#[test]
fn random_against_itself_is_balanced() {
    // The same harness with Random on both sides scores near 50%: a check
    // that the harness itself does not favour the first player passed in.
    let rules = Rules::new(8, 4).unwrap();
    let mut a = Random::new(7);
    let mut b = Random::new(8);
    let mut a_points = 0.0;
    let games = 200;
    for game in 0..games {
        let a_side = if game % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let end = match a_side {
            Side::South => play_game(rules, &mut a, &mut b),
            Side::North => play_game(rules, &mut b, &mut a),
        }
        .unwrap();
        a_points += match end.outcome().unwrap().winner {
            Some(side) if side == a_side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    let score = a_points / f64::from(games);
    assert!(
        (0.35..0.65).contains(&score),
        "random vs random scored {score}"
    );
}
