//! Strategies: what a bot plays in a position. [`Random`] and [`Greedy`] are
//! the simple reference bots; [`play_game`] plays two strategies against each
//! other in-process, through the rules engine, with no processes or protocol.

use std::time::Instant;

use endodoi::{IllegalMove, Move, MoveSet, Position, Rules, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use endodoi_protocol::NewGame;

/// A bot's brain. The protocol loop ([`run`](crate::run)) calls
/// [`new_game`](Strategy::new_game) at each `newgame`, and at each `turn`
/// [`choose_timed`](Strategy::choose_timed) (which calls
/// [`choose`](Strategy::choose) unless a strategy manages its time) and then
/// [`info`](Strategy::info).
pub trait Strategy {
    /// The name sent in the `hello` reply (`[A-Za-z0-9._-]`, at most 64 characters;
    /// other characters are replaced).
    fn name(&self) -> &str;

    /// A game starts with these settings. Does nothing by default.
    fn new_game(&mut self, settings: &NewGame) {
        let _ = settings;
    }

    /// The move to play in `pos`, one of `legal` (never empty).
    ///
    /// `pos` is the position as the bot sees it: the bot is South and to move
    /// (its row is [`Position::row`]`(Side::South)`, its captured seeds are
    /// `captured(Side::South)`), under the game's real [`Rules`], so a strategy
    /// can search with [`Position::play`]. `legal` is the arena's list of legal
    /// moves, which normally equals `pos.legal_moves()`. A move outside `legal`
    /// is replaced by the first legal move.
    fn choose(&mut self, pos: &Position, legal: MoveSet) -> Move;

    /// The move to play in `pos` when the arena says how much time the reply
    /// may take (the protocol loop calls this, not [`choose`](Strategy::choose)).
    /// By default the time is ignored and [`choose`](Strategy::choose) answers.
    fn choose_timed(&mut self, pos: &Position, legal: MoveSet, time: &TimeLeft) -> Move {
        let _ = time;
        self.choose(pos, legal)
    }

    /// A line for the arena's log about the last choice, such as the depth and
    /// score of a search; the protocol loop sends it as `info TEXT` before the
    /// move. `None` (nothing) by default.
    fn info(&mut self) -> Option<String> {
        None
    }
}

/// How long a bot may think about one move: what a `turn` request and the
/// game's `newgame` say about time (protocol.md, "Timing"). Times in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// When the `turn` request was read: the arena's clock for this reply
    /// started a little earlier, when it wrote the request.
    pub received: Instant,
    /// The time the reply may take before the bot loses on time (`time_ms`:
    /// the per-move limit or the game clock, whichever is less); `None`
    /// when there is no limit.
    pub reply_ms: Option<u64>,
    /// The bot's game clock before this move (the first of `clock_ms`), when
    /// the game has a clock.
    pub clock_ms: Option<u64>,
    /// Added to the bot's clock after each of its moves (`increment_ms`).
    pub increment_ms: u64,
}

impl TimeLeft {
    /// No limit at all, counted from now: for in-process games.
    #[must_use]
    pub fn unlimited() -> TimeLeft {
        TimeLeft {
            received: Instant::now(),
            reply_ms: None,
            clock_ms: None,
            increment_ms: 0,
        }
    }
}

impl<S: Strategy + ?Sized> Strategy for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn new_game(&mut self, settings: &NewGame) {
        (**self).new_game(settings);
    }

    fn choose(&mut self, pos: &Position, legal: MoveSet) -> Move {
        (**self).choose(pos, legal)
    }

    fn choose_timed(&mut self, pos: &Position, legal: MoveSet, time: &TimeLeft) -> Move {
        (**self).choose_timed(pos, legal, time)
    }

    fn info(&mut self) -> Option<String> {
        (**self).info()
    }
}

/// A uniformly random member of `legal`, or hole 1 if it is empty.
pub(crate) fn random_move(rng: &mut ChaCha8Rng, legal: MoveSet) -> Move {
    if legal.is_empty() {
        return Move::new(1).expect("hole 1 exists");
    }
    legal
        .nth(rng.gen_range(0..legal.len()))
        .expect("index below the set's length")
}

/// Plays a uniformly random legal move. Deterministic for a given seed.
#[derive(Clone, Debug)]
pub struct Random {
    seed: u64,
    rng: ChaCha8Rng,
}

impl Random {
    /// A random player whose choices follow from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Random {
        Random {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

/// The generator for a game: from the bot's seed and, when the arena names
/// the game, its series and number, so a game plays the same in any process
/// (a restarted bot, a resumed run, another shard).
pub(crate) fn game_rng(seed: u64, settings: &NewGame) -> Option<ChaCha8Rng> {
    settings.game.map(|(series, game)| {
        ChaCha8Rng::seed_from_u64(
            seed ^ series.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ game.wrapping_mul(0xBF58_476D_1CE4_E5B9),
        )
    })
}

impl Strategy for Random {
    fn name(&self) -> &str {
        "random"
    }

    fn new_game(&mut self, settings: &NewGame) {
        if let Some(rng) = game_rng(self.seed, settings) {
            self.rng = rng;
        }
    }

    fn choose(&mut self, _pos: &Position, legal: MoveSet) -> Move {
        random_move(&mut self.rng, legal)
    }
}

/// Plays its first (lowest) legal hole, at once: the instant bot that
/// `arena bench` pits against itself to measure the arena, and the Rust twin
/// of `bots/python/first_legal.py`.
#[derive(Clone, Copy, Debug, Default)]
pub struct First;

impl Strategy for First {
    fn name(&self) -> &str {
        "first"
    }

    fn choose(&mut self, _pos: &Position, legal: MoveSet) -> Move {
        legal
            .first()
            .unwrap_or_else(|| Move::new(1).expect("hole 1 exists"))
    }
}

/// Plays the legal move that gains the most seeds at once: each move is played
/// on a copy of the position and the mover's captured total compared (so the
/// board sweep of a move that ends the game counts too). Ties are broken
/// uniformly at random, from the seed, so that a series between deterministic
/// bots is not one game repeated.
#[derive(Clone, Debug)]
pub struct Greedy {
    seed: u64,
    rng: ChaCha8Rng,
}

impl Greedy {
    /// A greedy player whose tie-breaks follow from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The moves of `legal` that gain the most seeds for the side to move in
    /// `pos`, with that gain; moves that cannot be played in `pos` are left
    /// out. `None` when none can be played.
    #[must_use]
    pub fn best_moves(pos: &Position, legal: MoveSet) -> Option<(MoveSet, u32)> {
        let me = pos.to_move();
        let before = pos.captured(me);
        let mut best: Option<(MoveSet, u32)> = None;
        for mv in legal {
            let mut after = pos.clone();
            if after.play(mv).is_err() {
                continue;
            }
            let gain = after.captured(me) - before;
            match &mut best {
                Some((moves, top)) if gain == *top => moves.insert(mv),
                Some((_, top)) if gain < *top => {}
                _ => {
                    let mut moves = MoveSet::EMPTY;
                    moves.insert(mv);
                    best = Some((moves, gain));
                }
            }
        }
        best
    }
}

impl Strategy for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn new_game(&mut self, settings: &NewGame) {
        if let Some(rng) = game_rng(self.seed, settings) {
            self.rng = rng;
        }
    }

    fn choose(&mut self, pos: &Position, legal: MoveSet) -> Move {
        let candidates = Greedy::best_moves(pos, legal).map_or(legal, |(moves, _)| moves);
        random_move(&mut self.rng, candidates)
    }
}

/// Another strategy that takes its time: it waits `think` before each move
/// (`--think-ms` of `random`, `greedy` and `first`), so that a tournament of
/// instant bots plays slowly enough for a person to watch its games live
/// (`arena run --serve`). The wait never costs a game on time: with a limit
/// on the reply it stops at half of what the reply may take.
#[derive(Clone, Debug)]
pub struct Thinking<S> {
    inner: S,
    think: std::time::Duration,
}

impl<S: Strategy> Thinking<S> {
    /// `inner`, waiting `think` before each of its moves.
    #[must_use]
    pub fn new(inner: S, think: std::time::Duration) -> Thinking<S> {
        Thinking { inner, think }
    }

    /// How long to wait for a reply whose time is `time`: `think`, cut to
    /// half of the reply's limit (counted from when the request was read).
    fn wait(&self, time: &TimeLeft) -> std::time::Duration {
        match time.reply_ms {
            None => self.think,
            Some(ms) => {
                let half = std::time::Duration::from_millis(ms / 2);
                self.think.min(half.saturating_sub(time.received.elapsed()))
            }
        }
    }
}

impl<S: Strategy> Strategy for Thinking<S> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn new_game(&mut self, settings: &NewGame) {
        self.inner.new_game(settings);
    }

    fn choose(&mut self, pos: &Position, legal: MoveSet) -> Move {
        std::thread::sleep(self.think);
        self.inner.choose(pos, legal)
    }

    fn choose_timed(&mut self, pos: &Position, legal: MoveSet, time: &TimeLeft) -> Move {
        std::thread::sleep(self.wait(time));
        self.inner.choose_timed(pos, legal, time)
    }

    fn info(&mut self) -> Option<String> {
        self.inner.info()
    }
}

/// `pos` as the side to move sees it: that side is South, its row first, its
/// captured seeds first, same rules and ply count. The identity for South to
/// move; meant for positions whose game is still going on.
///
/// ```
/// use endodoi::{Move, Rules, Side};
/// let mut pos = Rules::new(4, 4)?.start();
/// pos.play(Move::new(4).unwrap())?;
/// let view = endodoi_bots::own_view(&pos);
/// assert_eq!(view.to_move(), Side::South);
/// assert_eq!(view.row(Side::South), pos.row(Side::North));
/// assert_eq!(view.legal_moves(), pos.legal_moves());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn own_view(pos: &Position) -> Position {
    match pos.to_move() {
        Side::South => pos.clone(),
        Side::North => {
            let n = pos.holes();
            let mut ring = [0u32; 2 * endodoi::MAX_HOLES];
            pos.ring().copy_to(&mut ring);
            Position::from_parts(
                *pos.rules(),
                &ring[n..2 * n],
                &ring[..n],
                Side::South,
                [pos.captured(Side::North), pos.captured(Side::South)],
                pos.ply(),
            )
            .expect("a position's own rows fit its rules")
        }
    }
}

/// Plays one game between two strategies in-process under `rules`, from the
/// start position, and returns the final position (see
/// [`Position::outcome`]). Each strategy is told its side with
/// [`Strategy::new_game`] (no time limits) and sees each position through
/// [`own_view`], as over the protocol.
///
/// # Errors
/// The [`IllegalMove`] reason if a strategy chooses a move that is not legal.
pub fn play_game(
    rules: Rules,
    south: &mut dyn Strategy,
    north: &mut dyn Strategy,
) -> Result<Position, IllegalMove> {
    let settings = |side| NewGame {
        rules,
        side,
        move_time_ms: 0,
        base_time_ms: 0,
        increment_ms: 0,
        game: None,
    };
    south.new_game(&settings(Side::South));
    north.new_game(&settings(Side::North));
    let mut pos = rules.start();
    while !pos.is_over() {
        let view = own_view(&pos);
        let legal = view.legal_moves();
        let mv = match pos.to_move() {
            Side::South => south.choose(&view, legal),
            Side::North => north.choose(&view, legal),
        };
        pos.play(mv)?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_takes_the_biggest_capture() {
        // 2x6, 1 seed: South's hole 4 captures 3 seeds (the rules crate's example).
        let pos = Rules::new(6, 1).unwrap().start();
        let (best, gain) = Greedy::best_moves(&pos, pos.legal_moves()).unwrap();
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play(mv).unwrap();
            let g = after.captured(Side::South);
            assert!(g <= gain);
            assert_eq!(best.contains(mv), g == gain, "move {mv}");
        }
        assert!(gain >= 3);
        let mut greedy = Greedy::new(1);
        for _ in 0..20 {
            assert!(best.contains(greedy.choose(&pos, pos.legal_moves())));
        }
    }

    #[test]
    fn greedy_breaks_ties_at_random() {
        // At the start of 2x8 with 4 seeds several moves tie; a seeded greedy
        // player must not always pick the same one.
        let pos = Rules::new(8, 4).unwrap().start();
        let (best, _) = Greedy::best_moves(&pos, pos.legal_moves()).unwrap();
        if best.len() > 1 {
            let mut greedy = Greedy::new(5);
            let picks: std::collections::HashSet<Move> = (0..50)
                .map(|_| greedy.choose(&pos, pos.legal_moves()))
                .collect();
            assert!(picks.len() > 1, "{picks:?} of {best}");
        }
    }

    #[test]
    fn random_is_uniform_enough_and_seeded() {
        let pos = Rules::new(8, 4).unwrap().start();
        let mut counts = [0u32; 8];
        let mut random = Random::new(0);
        for _ in 0..8000 {
            counts[usize::from(random.choose(&pos, pos.legal_moves()).hole()) - 1] += 1;
        }
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
        let mut a = Random::new(9);
        let mut b = Random::new(9);
        for _ in 0..20 {
            assert_eq!(
                a.choose(&pos, pos.legal_moves()),
                b.choose(&pos, pos.legal_moves())
            );
        }
        let only = MoveSet::EMPTY;
        assert_eq!(random.choose(&pos, only).hole(), 1);
    }

    #[test]
    fn own_view_mirrors_north() {
        let rules = Rules::new(5, 3).unwrap();
        let mut pos = rules.start();
        let mut random = Random::new(3);
        while !pos.is_over() {
            let view = own_view(&pos);
            assert_eq!(view.to_move(), Side::South);
            assert_eq!(view.legal_moves(), pos.legal_moves());
            assert_eq!(view.row(Side::South), pos.row(pos.to_move()));
            assert_eq!(view.captured(Side::South), pos.captured(pos.to_move()));
            let mv = random.choose(&view, view.legal_moves());
            let mut a = view.clone();
            let da = a.play(mv).unwrap();
            let db = pos.play(mv).unwrap();
            assert_eq!(da.capture, db.capture);
        }
    }

    #[test]
    fn play_game_conserves_seeds() {
        let rules = Rules::new(8, 4).unwrap();
        let pos = play_game(rules, &mut Greedy::new(1), &mut Random::new(2)).unwrap();
        assert!(pos.is_over());
        assert_eq!(
            pos.captured(Side::South) + pos.captured(Side::North),
            rules.total_seeds()
        );
    }
}
