//! Batch entry points: many random playouts, or every legal move's result,
//! in one call from Python.

use endodoi::{MoveDetails, Position, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The tally of [`playouts`]: how `games` uniformly random games from one
/// position ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Games played.
    pub games: u64,
    /// Games South won.
    pub south_wins: u64,
    /// Games North won.
    pub north_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Plies played in all games together (from the given position on).
    pub plies: u64,
    /// South's final seeds minus North's, summed over the games.
    pub seed_difference: i64,
}

/// Plays `games` random games from `pos`, each move picked uniformly from
/// the legal moves, with a generator seeded by `seed` (ChaCha8: the same
/// seed gives the same games on every platform). A position that is over
/// counts as `games` games of no plies with its outcome.
///
/// ```
/// use endodoi::Rules;
/// use endodoi_python::batch::playouts;
/// let start = Rules::new(6, 4)?.start();
/// let stats = playouts(&start, 100, 7);
/// assert_eq!(stats.south_wins + stats.north_wins + stats.draws, 100);
/// assert_eq!(stats, playouts(&start, 100, 7));
/// # Ok::<(), endodoi::RulesError>(())
/// ```
#[must_use]
pub fn playouts(pos: &Position, games: u64, seed: u64) -> PlayoutStats {
    let mut run = Playouts::new(seed);
    run.play(pos, games);
    run.stats()
}

/// A run of [`playouts`] played in parts: the games of `play(pos, a)` then
/// `play(pos, b)` are the games of `playouts(pos, a + b, seed)`, so a long
/// batch can stop between parts (the bindings check for Ctrl-C there).
///
/// ```
/// use endodoi::Rules;
/// use endodoi_python::batch::{playouts, Playouts};
/// let start = Rules::new(6, 4)?.start();
/// let mut run = Playouts::new(7);
/// run.play(&start, 40);
/// run.play(&start, 60);
/// assert_eq!(run.stats(), playouts(&start, 100, 7));
/// # Ok::<(), endodoi::RulesError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Playouts {
    rng: ChaCha8Rng,
    stats: PlayoutStats,
}

impl Playouts {
    /// A run with no games yet, its generator seeded by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Playouts {
        Playouts {
            rng: ChaCha8Rng::seed_from_u64(seed),
            stats: PlayoutStats::default(),
        }
    }

    /// The tally of the games played so far.
    #[must_use]
    pub fn stats(&self) -> PlayoutStats {
        self.stats
    }

    /// Plays `games` more random games from `pos`.
    pub fn play(&mut self, pos: &Position, games: u64) {
        let (rng, stats) = (&mut self.rng, &mut self.stats);
        stats.games += games;
        for _ in 0..games {
            let mut game = pos.clone();
            let start_ply = game.ply();
            while let Some(mv) = random_legal(&game, rng) {
                game.play_unchecked(mv);
            }
            let outcome = game.outcome().expect("a game without legal moves is over");
            match outcome.winner {
                Some(Side::South) => stats.south_wins += 1,
                Some(Side::North) => stats.north_wins += 1,
                None => stats.draws += 1,
            }
            stats.plies += u64::from(game.ply() - start_ply);
            stats.seed_difference +=
                i64::from(game.captured(Side::South)) - i64::from(game.captured(Side::North));
        }
    }
}

/// A uniformly random legal move, or `None` when the game is over: picks
/// among the occupied holes and drops an endless one, as
/// [`Position::candidate_moves`] suggests.
fn random_legal(pos: &Position, rng: &mut ChaCha8Rng) -> Option<endodoi::Move> {
    let mut candidates = pos.candidate_moves();
    while !candidates.is_empty() {
        let mv = candidates
            .nth(rng.gen_range(0..candidates.len()))
            .expect("the index is below the set's length");
        if pos.check(mv).is_ok() {
            return Some(mv);
        }
        candidates.remove(mv);
    }
    None
}

/// Every legal move of `pos` in increasing hole order, with what it does
/// and the position it leads to.
///
/// ```
/// use endodoi::Rules;
/// use endodoi_python::batch::children;
/// let start = Rules::new(4, 4)?.start();
/// let all = children(&start);
/// assert_eq!(all.len(), 4);
/// assert_eq!(all[0].1.ring(), [4, 0, 9, 9, 1, 1, 8, 0]); // hole 1, as Position::ring's example
/// # Ok::<(), endodoi::RulesError>(())
/// ```
#[must_use]
pub fn children(pos: &Position) -> Vec<(MoveDetails, Position)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = pos.clone();
            let details = next.play_unchecked(mv);
            (details, next)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use endodoi::{Move, Rules};

    #[test]
    fn playouts_conserve_and_repeat() {
        let start = Rules::new(8, 4).unwrap().start();
        let a = playouts(&start, 200, 1);
        assert_eq!(a.games, 200);
        assert_eq!(a.south_wins + a.north_wins + a.draws, 200);
        assert!(a.plies > 200 * 10, "random 2x8 games last about 48 plies");
        assert_eq!(a, playouts(&start, 200, 1));
        assert_ne!(a, playouts(&start, 200, 2));
    }

    #[test]
    fn playouts_of_an_ended_game_count_its_outcome() {
        let rules = Rules::new(2, 1).unwrap();
        // North, the last mover, sweeps the board: 1 to 3 seeds.
        let over = Position::parse("0,0/1,1 s 1 1 5", rules).unwrap();
        let stats = playouts(&over, 3, 0);
        assert_eq!(
            (stats.north_wins, stats.plies, stats.seed_difference),
            (3, 0, -6)
        );
    }

    #[test]
    fn random_moves_skip_the_endless_one() {
        // RULES.md's example: North's hole 1 is endless.
        let pos = Position::parse("0,5,0,1/2,0,6,5 n 5 8 5", Rules::new(4, 4).unwrap()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            let mv = random_legal(&pos, &mut rng).unwrap();
            assert!(pos.legal_moves().contains(mv), "{mv} is not legal");
        }
    }

    #[test]
    fn children_are_the_played_moves() {
        let start = Rules::new(6, 4).unwrap().start();
        for (details, child) in children(&start) {
            let mut played = start.clone();
            assert_eq!(played.play(details.mv), Ok(details));
            assert_eq!(played, child);
        }
        assert_eq!(children(&start).first().map(|c| c.0.mv), Move::new(1));
    }
}
