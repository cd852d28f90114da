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

/// The moves of `legal` that can be played in `pos` (its candidate moves).
pub(crate) fn playable_moves(pos: &Position, legal: MoveSet) -> MoveSet {
    MoveSet::from_bits(legal.bits() & pos.candidate_moves().bits())
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
    rng: GameRng,
}

impl Random {
    /// A random player whose choices follow from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Random {
        Random {
            rng: GameRng::new(seed),
        }
    }
}

/// A bot's random generator, seeded from the bot's seed and anew for each
/// game the arena names (its series and number), so a game plays the same in
/// any process (a restarted bot, a resumed run, another shard).
#[derive(Clone, Debug)]
pub(crate) struct GameRng {
    seed: u64,
    rng: ChaCha8Rng,
}

impl GameRng {
    /// The generator of a bot with this `seed`, before any game.
    pub(crate) fn new(seed: u64) -> GameRng {
        GameRng {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Reseeds for the game `settings` starts, when it names one (`series=`
    /// and `game=`); else the generator goes on as it is.
    pub(crate) fn new_game(&mut self, settings: &NewGame) {
        if let Some((series, game)) = settings.game {
            self.rng = ChaCha8Rng::seed_from_u64(
                self.seed
                    ^ series.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    ^ game.wrapping_mul(0xBF58_476D_1CE4_E5B9),
            );
        }
    }

    /// The generator, to draw from.
    pub(crate) fn get(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }
}

impl Strategy for Random {
    fn name(&self) -> &str {
        "random"
    }

    fn new_game(&mut self, settings: &NewGame) {
        self.rng.new_game(settings);
    }

    fn choose(&mut self, _pos: &Position, legal: MoveSet) -> Move {
        random_move(self.rng.get(), legal)
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
    rng: GameRng,
}

impl Greedy {
    /// A greedy player whose tie-breaks follow from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: GameRng::new(seed),
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
        self.rng.new_game(settings);
    }

    fn choose(&mut self, pos: &Position, legal: MoveSet) -> Move {
        let candidates = Greedy::best_moves(pos, legal).map_or(legal, |(moves, _)| moves);
        random_move(self.rng.get(), candidates)
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

/// Another strategy with noise: with probability `noise` a move is a
/// uniformly random legal move instead of the inner strategy's (the
/// `--noise P` option, `option.noise=P` in `hello`, of every bundled bot).
/// A population of one bot at noise levels from 0 to 1 has a known order of
/// strength, for tests and demonstrations of the ranking formats.
///
/// The coin and the random move come from a generator of their own, seeded
/// per game from the bot's seed and the game's series and number (as
/// [`Random`]'s), so a game plays the same in any process. At noise 0 the
/// inner strategy plays every move (and no coin is drawn); at noise 1 every
/// move is [`Random`]'s choice.
#[derive(Clone, Debug)]
pub struct Noisy<S> {
    inner: S,
    noise: f64,
    /// Seeded from the bot's seed salted with `NOISE_SALT`.
    rng: GameRng,
    /// Whether the last move was the random one (then no `info` line).
    random_last: bool,
}

/// Mixed into the seed of [`Noisy`]'s generator, so its coins are not the
/// inner strategy's own random draws (the first 64 bits of pi's fraction).
const NOISE_SALT: u64 = 0x243F_6A88_85A3_08D3;

impl<S: Strategy> Noisy<S> {
    /// `inner`, playing a random legal move with probability `noise`
    /// (clamped to `0..=1`; NaN counts as 0), its coins seeded from `seed`.
    #[must_use]
    pub fn new(inner: S, noise: f64, seed: u64) -> Noisy<S> {
        let noise = if noise.is_nan() {
            0.0
        } else {
            noise.clamp(0.0, 1.0)
        };
        Noisy {
            inner,
            noise,
            rng: GameRng::new(seed ^ NOISE_SALT),
            random_last: false,
        }
    }

    /// Whether this move is the random one: a coin of probability `noise`.
    fn flip(&mut self) -> bool {
        self.random_last = self.noise > 0.0 && self.rng.get().gen_bool(self.noise);
        self.random_last
    }
}

impl<S: Strategy> Strategy for Noisy<S> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn new_game(&mut self, settings: &NewGame) {
        self.rng.new_game(settings);
        self.inner.new_game(settings);
    }

    fn choose(&mut self, pos: &Position, legal: MoveSet) -> Move {
        if self.flip() {
            random_move(self.rng.get(), legal)
        } else {
            self.inner.choose(pos, legal)
        }
    }

    fn choose_timed(&mut self, pos: &Position, legal: MoveSet, time: &TimeLeft) -> Move {
        if self.flip() {
            random_move(self.rng.get(), legal)
        } else {
            self.inner.choose_timed(pos, legal, time)
        }
    }

    fn info(&mut self) -> Option<String> {
        if self.random_last {
            Some("noise: a random legal move".into())
        } else {
            self.inner.info()
        }
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

    /// The settings of game `game` of series 1 on `rules`, as the arena
    /// names it.
    fn named_game(rules: Rules, game: u64) -> NewGame {
        NewGame {
            rules,
            side: Side::South,
            move_time_ms: 0,
            base_time_ms: 0,
            increment_ms: 0,
            game: Some((1, game)),
        }
    }

    /// The moves of one game of `south` against `north` from the start.
    fn moves_of(
        rules: Rules,
        game: u64,
        south: &mut dyn Strategy,
        north: &mut dyn Strategy,
    ) -> Vec<Move> {
        south.new_game(&named_game(rules, game));
        north.new_game(&named_game(rules, game));
        let mut pos = rules.start();
        let mut moves = Vec::new();
        while !pos.is_over() {
            let view = own_view(&pos);
            let mv = match pos.to_move() {
                Side::South => south.choose(&view, view.legal_moves()),
                Side::North => north.choose(&view, view.legal_moves()),
            };
            pos.play(mv).unwrap();
            moves.push(mv);
        }
        moves
    }

    #[test]
    fn noise_zero_plays_as_the_bot_itself() {
        let rules = Rules::new(6, 4).unwrap();
        for game in 1..=20 {
            let plain = moves_of(rules, game, &mut Greedy::new(3), &mut Random::new(4));
            let noisy = moves_of(
                rules,
                game,
                &mut Noisy::new(Greedy::new(3), 0.0, 3),
                &mut Random::new(4),
            );
            assert_eq!(plain, noisy, "game {game}");
        }
    }

    #[test]
    fn noise_one_plays_uniformly_at_random_and_is_seeded_per_game() {
        // `first` always plays hole 1; at noise 1 it plays each legal move
        // of the start of 2x8 about equally often over 8000 games.
        let rules = Rules::new(8, 4).unwrap();
        let pos = rules.start();
        let mut counts = [0u32; 8];
        let mut bot = Noisy::new(First, 1.0, 7);
        for game in 0..8000 {
            bot.new_game(&named_game(rules, game));
            counts[usize::from(bot.choose(&pos, pos.legal_moves()).hole()) - 1] += 1;
        }
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
        // The same game plays the same moves in another process.
        let a = moves_of(
            rules,
            5,
            &mut Noisy::new(Greedy::new(1), 0.5, 9),
            &mut Random::new(2),
        );
        let b = moves_of(
            rules,
            5,
            &mut Noisy::new(Greedy::new(1), 0.5, 9),
            &mut Random::new(2),
        );
        assert_eq!(a, b);
    }

    #[test]
    fn more_noise_scores_less_against_the_same_opponent() {
        // Greedy with noise 0.1 against greedy with noise 0.9, sides
        // swapped each game: the less noisy bot takes more seeds.
        let rules = Rules::new(6, 4).unwrap();
        let (mut low, mut high) = (0u32, 0u32);
        for game in 0..200 {
            let mut a = Noisy::new(Greedy::new(game), 0.1, game);
            let mut b = Noisy::new(Greedy::new(game + 1000), 0.9, game + 1000);
            let (south, north): (&mut dyn Strategy, &mut dyn Strategy) = if game % 2 == 0 {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            south.new_game(&named_game(rules, game));
            north.new_game(&named_game(rules, game));
            let pos = play_game_named(rules, south, north);
            let (s, n) = (pos.captured(Side::South), pos.captured(Side::North));
            if game % 2 == 0 {
                low += s;
                high += n
            } else {
                low += n;
                high += s
            }
        }
        assert!(low > high, "noise 0.1 took {low} seeds, noise 0.9 {high}");
    }

    /// [`play_game`] without its `new_game` calls (the caller made them).
    fn play_game_named(
        rules: Rules,
        south: &mut dyn Strategy,
        north: &mut dyn Strategy,
    ) -> Position {
        let mut pos = rules.start();
        while !pos.is_over() {
            let view = own_view(&pos);
            let mv = match pos.to_move() {
                Side::South => south.choose(&view, view.legal_moves()),
                Side::North => north.choose(&view, view.legal_moves()),
            };
            pos.play(mv).unwrap();
        }
        pos
    }

    proptest::proptest! {
        /// Whatever the noise, the seed and the position, the move is legal.
        #[test]
        fn a_noisy_move_is_always_legal(
            noise in 0.0f64..=1.0,
            seed in proptest::prelude::any::<u64>(),
            holes in 2usize..=10,
            seeds in 1u32..=5,
            plies in 0usize..40,
            inner in 0usize..3,
        ) {
            let rules = Rules::new(holes, seeds).unwrap();
            let mut pos = rules.start();
            let mut walk = Random::new(seed);
            for _ in 0..plies {
                if pos.is_over() {
                    break;
                }
                let view = own_view(&pos);
                pos.play(walk.choose(&view, view.legal_moves())).unwrap();
            }
            proptest::prop_assume!(!pos.is_over());
            let inner: Box<dyn Strategy> = match inner {
                0 => Box::new(Greedy::new(seed)),
                1 => Box::new(First),
                _ => Box::new(Random::new(seed)),
            };
            let mut bot = Noisy::new(inner, noise, seed);
            bot.new_game(&named_game(rules, seed % 1000));
            let view = own_view(&pos);
            for _ in 0..8 {
                let mv = bot.choose_timed(&view, view.legal_moves(), &TimeLeft::unlimited());
                proptest::prop_assert!(view.legal_moves().contains(mv));
            }
        }
    }
}
