//! The `mcts` bot: Monte Carlo tree search with UCT, the UCB1 rule (Auer,
//! Cesa-Bianchi & Fischer 2002, "Finite-time analysis of the multiarmed
//! bandit problem", *Machine Learning* 47) applied to the tree (Kocsis &
//! Szepesvári 2006, "Bandit based Monte-Carlo planning", ECML; see Browne et
//! al. 2012, "A survey of Monte Carlo tree search methods", *IEEE TCIAIG* 4).
//!
//! Each playout walks down the tree by UCB1 (exploration constant
//! [`DEFAULT_EXPLORATION`]), adds one node, plays the game out with the
//! rollout policy ([`Rollout`]) and backs the result up: 1 for a win, 1/2 for
//! a draw, 0 for a loss, from the side of the player who made each node's
//! move. The move played is the root's most visited child.
//!
//! Nodes hold no position (it is replayed from the root on the way down),
//! live in one vector kept across moves, and are linked by index: after the
//! first moves a playout allocates nothing. The tree is built afresh for
//! every move.
//!
//! The randomness is seeded per game from the bot's seed and the game's
//! series and number, so with a playout budget a game plays the same in any
//! process. A time budget or the protocol's deadline ([`TimePlan`], as for
//! `alphabeta`) can cut the playouts short.

use std::time::{Duration, Instant};

use endodoi::{Move, MoveSet, Position, Side};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::alphabeta::TimePlan;
use crate::strategy::{playable_moves, random_move, GameRng, Strategy, TimeLeft};
use endodoi_protocol::NewGame;

/// The UCB1 exploration constant `c` in `mean + c * sqrt(ln N / n)`, for
/// rewards in [0, 1]. Auer et al. and Kocsis & Szepesvári use sqrt(2); here
/// 0.5 was measured stronger (in-process, 2x8, random openings with sides
/// swapped, 200 games each at 1000 playouts): against sqrt(2), 0.5 scored
/// 66.0%, 1.0 54.5% and 2.0 45.8%; against 0.5, 0.35 scored 54.5% and 0.25
/// 35.8%. At 10000 playouts 0.5 scored 69.5% against sqrt(2) (100 games).
/// The optimum is broad, around 0.35 to 0.5.
pub const DEFAULT_EXPLORATION: f64 = 0.5;

/// The capture difference, in seeds, that scores a rollout cut short by
/// [`MctsOptions::rollout_plies`] `0.5 + 0.5 * tanh(1)`, about 0.88, for the
/// side ahead: the score is `0.5 + 0.5 * tanh(difference / CUTOFF_SCALE)`.
pub const CUTOFF_SCALE: f64 = 4.0;

/// The most nodes a tree may have (about 40 bytes each); past it, playouts
/// go on without adding nodes.
pub const MAX_NODES: usize = 1 << 22;

/// How a playout plays the game out from the new node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Rollout {
    /// Uniformly random legal moves (an occupied hole at random, again if it
    /// is endless).
    #[default]
    Random,
    /// The move that gains most at once, ties at random, as the `greedy`
    /// bot plays: stronger playouts, each about `n` times as costly.
    Greedy,
}

/// How the bot limits its search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsOptions {
    /// Playouts per move. Without it (and without `time_ms`), the time the
    /// protocol allows decides ([`TimePlan`]).
    pub playouts: Option<u32>,
    /// Take at most this long per move, ms.
    pub time_ms: Option<u64>,
    /// The rollout policy.
    pub rollout: Rollout,
    /// The UCB1 exploration constant.
    pub exploration: f64,
    /// The most plies a rollout plays; a rollout cut short is scored by the
    /// capture difference ([`CUTOFF_SCALE`]) instead of the game's result,
    /// a finished one as before. `None` (the default): to the end.
    ///
    /// Early playout termination with an evaluation (see Lorentz 2008,
    /// "Amazons discover Monte-Carlo", Computers and Games; Lanctot et al.
    /// 2014, "Monte Carlo tree search with heuristic evaluations using
    /// implicit minimax backups", IEEE CIG). Its best value for a fixed
    /// playout count lies inside its range, which makes it a second option
    /// worth tuning (`arena tune`, docs/tuning.md). At 0 a playout scores
    /// the new node by its captures alone, a one-ply greedy judgement that
    /// sees no reply. Unlimited, random play to the end drowns what the
    /// position was worth in the noise of dozens of random moves. A few
    /// plies see the captures at hand and the replies to them without that
    /// noise. Measured in-process (`bots/examples/match.rs`, 2x8, 300
    /// playouts, 600 games each against unlimited): 0 plies +1 Elo, 4 +42,
    /// 7 +88, 10 +82, 14 +78, 18 +61, 25 +38, 40 +40 (each ± about 28).
    pub rollout_plies: Option<u32>,
}

impl Default for MctsOptions {
    fn default() -> MctsOptions {
        MctsOptions {
            playouts: None,
            time_ms: None,
            rollout: Rollout::Random,
            exploration: DEFAULT_EXPLORATION,
            rollout_plies: None,
        }
    }
}

/// A node: the move that led to it, its statistics, and its children as a
/// linked list of indices.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Legal moves not yet added as children (endless ones are dropped when
    /// met).
    untried: MoveSet,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Sum of rewards for the player who made `hole`.
    reward: f64,
    hole: u8,
}

/// No node (index 0 is the root, which is nobody's child or sibling).
const NONE: u32 = 0;

/// What a search did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsResult {
    /// The move to play: the root's most visited child.
    pub best: Move,
    /// Its visits.
    pub visits: u32,
    /// Its mean reward, the estimated chance to win (draws count half).
    pub value: f64,
    /// Playouts done.
    pub playouts: u32,
    /// Nodes in the tree.
    pub nodes: usize,
    /// The time taken.
    pub elapsed: Duration,
}

/// The `mcts` bot.
#[derive(Clone, Debug)]
pub struct Mcts {
    options: MctsOptions,
    rng: GameRng,
    nodes: Vec<Node>,
    /// The node indices of the current playout's path, root first.
    path: Vec<u32>,
    last: Option<MctsResult>,
}

impl Mcts {
    /// The bot with these options, its randomness from `seed` (and each
    /// game's series and number).
    #[must_use]
    pub fn new(options: MctsOptions, seed: u64) -> Mcts {
        Mcts {
            options,
            rng: GameRng::new(seed),
            nodes: Vec::new(),
            path: Vec::new(),
            last: None,
        }
    }

    /// The options it plays with.
    #[must_use]
    pub fn options(&self) -> &MctsOptions {
        &self.options
    }

    /// Searches `pos` for a move among `legal`, with `time` to think.
    ///
    /// # Panics
    /// If no move of `legal` can be played in `pos`.
    pub fn search(&mut self, pos: &Position, legal: MoveSet, time: &TimeLeft) -> MctsResult {
        let playable = playable_moves(pos, legal);
        let fixed = self.options.playouts.is_some();
        let plan = TimePlan::for_position(time, pos, fixed, self.options.time_ms);
        let deadline = plan.hard.map(|d| time.received + d);
        let target = plan.target.map(|d| time.received + d);
        let budget = self.options.playouts.unwrap_or(u32::MAX);
        self.nodes.clear();
        self.nodes.push(Node {
            untried: playable,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            reward: 0.0,
            hole: 0,
        });
        let mut playouts = 0;
        while playouts < budget {
            // A look at the clock costs far less than a playout.
            if playouts > 0 && (deadline.is_some() || target.is_some()) {
                let now = Instant::now();
                if deadline.is_some_and(|d| now >= d) || target.is_some_and(|t| now >= t) {
                    break;
                }
            }
            self.playout(pos);
            playouts += 1;
        }
        let (best, visits, value) = self.best_child().expect("a legal move was played");
        MctsResult {
            best: Move::new(best).expect("a hole of the board"),
            visits,
            value,
            playouts,
            nodes: self.nodes.len(),
            elapsed: time.received.elapsed(),
        }
    }

    /// The root's most visited child: (hole, visits, mean reward); ties go to
    /// the higher mean, then the lower hole.
    fn best_child(&self) -> Option<(u8, u32, f64)> {
        let mut best: Option<(u8, u32, f64)> = None;
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let node = &self.nodes[c as usize];
            let mean = node.reward / f64::from(node.visits.max(1));
            let better = match best {
                None => true,
                Some((hole, visits, value)) => {
                    (node.visits, mean, std::cmp::Reverse(node.hole)).partial_cmp(&(
                        visits,
                        value,
                        std::cmp::Reverse(hole),
                    )) == Some(std::cmp::Ordering::Greater)
                }
            };
            if better {
                best = Some((node.hole, node.visits, mean));
            }
            c = node.next_sibling;
        }
        best
    }

    /// One playout from `root`: selection, expansion, rollout, backup.
    fn playout(&mut self, root: &Position) {
        let mut pos = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // Selection: down through fully expanded nodes by UCB1.
        loop {
            let n = &self.nodes[node as usize];
            if pos.is_over() || !n.untried.is_empty() || n.first_child == NONE {
                break;
            }
            let log_n = f64::from(n.visits.max(1)).ln();
            let mut best = (f64::NEG_INFINITY, NONE);
            let mut c = n.first_child;
            while c != NONE {
                let child = &self.nodes[c as usize];
                let visits = f64::from(child.visits.max(1));
                let ucb =
                    child.reward / visits + self.options.exploration * (log_n / visits).sqrt();
                if ucb > best.0 {
                    best = (ucb, c);
                }
                c = child.next_sibling;
            }
            node = best.1;
            let hole = self.nodes[node as usize].hole;
            pos.play_unchecked(Move::new(hole).expect("a hole"));
            self.path.push(node);
        }
        // Expansion: one untried move, at random; endless ones are dropped.
        while !pos.is_over() && self.nodes.len() < MAX_NODES {
            let untried = self.nodes[node as usize].untried;
            if untried.is_empty() {
                break;
            }
            let mv = random_move(self.rng.get(), untried);
            self.nodes[node as usize].untried.remove(mv);
            let mut next = pos.clone();
            if next.play(mv).is_err() {
                continue;
            }
            pos = next;
            let index = self.nodes.len() as u32;
            let parent = &mut self.nodes[node as usize];
            let sibling = parent.first_child;
            parent.first_child = index;
            self.nodes.push(Node {
                untried: pos.candidate_moves(),
                first_child: NONE,
                next_sibling: sibling,
                visits: 0,
                reward: 0.0,
                hole: mv.hole(),
            });
            node = index;
            self.path.push(node);
            break;
        }
        // Rollout to the end of the game, or of its plies.
        let plies = self.options.rollout_plies.unwrap_or(u32::MAX);
        match self.options.rollout {
            Rollout::Random => random_rollout(&mut pos, self.rng.get(), plies),
            Rollout::Greedy => greedy_rollout(&mut pos, self.rng.get(), plies),
        }
        // Backup: the root's side to move is South (the bot's own view).
        let south = south_score(&pos);
        let root_side = root.to_move();
        let for_root = if root_side == Side::South {
            south
        } else {
            1.0 - south
        };
        for (depth, &i) in self.path.iter().enumerate() {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            // The move into a node at odd depth was the root player's.
            n.reward += if depth % 2 == 1 {
                for_root
            } else {
                1.0 - for_root
            };
        }
    }
}

/// South's reward for `pos` at the end of a rollout: 1 for a win, 1/2 for a
/// draw, 0 for a loss; for a game not over, the capture difference scored
/// `0.5 + 0.5 * tanh(difference / CUTOFF_SCALE)`.
fn south_score(pos: &Position) -> f64 {
    if !pos.is_over() {
        let diff = f64::from(pos.captured(Side::South)) - f64::from(pos.captured(Side::North));
        return 0.5 + 0.5 * (diff / CUTOFF_SCALE).tanh();
    }
    match pos.outcome().and_then(|o| o.winner) {
        Some(Side::South) => 1.0,
        Some(Side::North) => 0.0,
        None => 0.5,
    }
}

/// Plays uniformly random legal moves to the end of the game, or for
/// `plies` moves.
fn random_rollout(pos: &mut Position, rng: &mut ChaCha8Rng, plies: u32) {
    for _ in 0..plies {
        if pos.is_over() {
            break;
        }
        let mut candidates = pos.candidate_moves();
        loop {
            let mv = random_move(rng, candidates);
            if pos.play(mv).is_ok() {
                break;
            }
            candidates.remove(mv);
        }
    }
}

/// Plays the move that gains most at once, ties at random, to the end, or
/// for `plies` moves.
fn greedy_rollout(pos: &mut Position, rng: &mut ChaCha8Rng, plies: u32) {
    let mut next = pos.clone();
    for _ in 0..plies {
        if pos.is_over() {
            break;
        }
        let me = pos.to_move();
        let before = pos.captured(me);
        let mut best_gain = 0;
        let mut best = MoveSet::EMPTY;
        for mv in pos.candidate_moves() {
            next.clone_from(pos);
            if next.play(mv).is_err() {
                continue;
            }
            let gain = next.captured(me) - before;
            if best.is_empty() || gain > best_gain {
                best = MoveSet::EMPTY;
                best_gain = gain;
            }
            if gain == best_gain {
                best.insert(mv);
            }
        }
        let mv = if best.len() == 1 {
            best.first().expect("one move")
        } else {
            best.nth(rng.gen_range(0..best.len())).expect("in range")
        };
        pos.play_unchecked(mv);
    }
}

impl Strategy for Mcts {
    fn name(&self) -> &str {
        "mcts"
    }

    fn new_game(&mut self, settings: &NewGame) {
        self.rng.new_game(settings);
    }

    fn choose(&mut self, pos: &Position, legal: MoveSet) -> Move {
        self.choose_timed(pos, legal, &TimeLeft::unlimited())
    }

    fn choose_timed(&mut self, pos: &Position, legal: MoveSet, time: &TimeLeft) -> Move {
        let playable = playable_moves(pos, legal);
        if pos.is_over() || playable.is_empty() {
            return legal
                .first()
                .unwrap_or_else(|| Move::new(1).expect("hole 1"));
        }
        if playable.len() == 1 {
            return playable.first().expect("one move");
        }
        let result = self.search(pos, playable, time);
        self.last = Some(result);
        result.best
    }

    fn info(&mut self) -> Option<String> {
        let r = self.last.take()?;
        Some(format!(
            "playouts {} nodes {} best {} visits {} value {:.3} time {:.2} ms",
            r.playouts,
            r.nodes,
            r.best,
            r.visits,
            r.value,
            r.elapsed.as_secs_f64() * 1e3
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use endodoi::Rules;
    use rand::SeedableRng;

    fn bot(playouts: u32, rollout: Rollout, seed: u64) -> Mcts {
        Mcts::new(
            MctsOptions {
                playouts: Some(playouts),
                rollout,
                ..MctsOptions::default()
            },
            seed,
        )
    }

    #[test]
    fn spends_its_budget_and_counts_right() {
        let pos = Rules::new(8, 4).unwrap().start();
        for rollout in [Rollout::Random, Rollout::Greedy] {
            let mut m = bot(500, rollout, 1);
            let r = m.search(&pos, pos.legal_moves(), &TimeLeft::unlimited());
            assert_eq!(r.playouts, 500);
            assert_eq!(m.nodes[0].visits, 500);
            // Every playout went through exactly one child of the root.
            let mut sum = 0;
            let mut c = m.nodes[0].first_child;
            while c != NONE {
                sum += m.nodes[c as usize].visits;
                c = m.nodes[c as usize].next_sibling;
            }
            assert_eq!(sum, 500);
            assert!(r.nodes <= 501);
            assert!((0.0..=1.0).contains(&r.value));
        }
    }

    #[test]
    fn seeded_per_game() {
        let rules = Rules::new(8, 4).unwrap();
        let settings = NewGame {
            rules,
            side: Side::South,
            move_time_ms: 0,
            base_time_ms: 0,
            increment_ms: 0,
            game: Some((3, 2)),
        };
        let play = |m: &mut Mcts| {
            m.new_game(&settings);
            let mut pos = rules.start();
            let mut moves = Vec::new();
            for _ in 0..6 {
                let view = crate::own_view(&pos);
                let mv = m.choose(&view, view.legal_moves());
                moves.push(mv);
                pos.play(mv).unwrap();
            }
            moves
        };
        let mut a = bot(200, Rollout::Random, 9);
        let first = play(&mut a);
        // The same game again, after other work, and in a fresh bot.
        assert_eq!(play(&mut a), first);
        assert_eq!(play(&mut bot(200, Rollout::Random, 9)), first);
    }

    #[test]
    fn rollouts_stop_after_their_plies_and_are_scored_by_captures() {
        let start = Rules::new(8, 4).unwrap().start();
        for plies in [0, 1, 7] {
            let mut rng = ChaCha8Rng::seed_from_u64(plies.into());
            let mut pos = start.clone();
            random_rollout(&mut pos, &mut rng, plies);
            assert_eq!(pos.ply(), start.ply() + plies, "random, {plies}");
            let mut pos = start.clone();
            greedy_rollout(&mut pos, &mut rng, plies);
            assert_eq!(pos.ply(), start.ply() + plies, "greedy, {plies}");
        }
        // Without a limit, to the end.
        let mut pos = start.clone();
        random_rollout(&mut pos, &mut ChaCha8Rng::seed_from_u64(1), u32::MAX);
        assert!(pos.is_over());
        let won = south_score(&pos);
        assert!([0.0, 0.5, 1.0].contains(&won), "{won}");
        // Not over: even at the start, ahead by 4 seeds 0.5 + 0.5 tanh(1).
        assert_eq!(south_score(&start), 0.5);
        let rules = Rules::new(3, 1).unwrap();
        let ahead = Position::parse("1,0,0/0,1,0 s 4 0 0", rules).unwrap();
        assert!(!ahead.is_over());
        assert_eq!(
            (ahead.captured(Side::South), ahead.captured(Side::North)),
            (4, 0)
        );
        let expected = 0.5 + 0.5 * 1f64.tanh();
        assert!((south_score(&ahead) - expected).abs() < 1e-12);
        assert!(south_score(&ahead) > 0.5);
    }

    #[test]
    fn rollout_plies_reach_the_search() {
        let pos = Rules::new(8, 4).unwrap().start();
        let search = |plies: Option<u32>| {
            let options = MctsOptions {
                playouts: Some(300),
                rollout_plies: plies,
                ..MctsOptions::default()
            };
            let r = Mcts::new(options, 3).search(&pos, pos.legal_moves(), &TimeLeft::unlimited());
            assert_eq!(r.playouts, 300);
            (r.best, r.visits, r.value)
        };
        assert_eq!(MctsOptions::default().rollout_plies, None);
        // Cut short, the same seed searches otherwise, and the same again.
        assert_ne!(search(None), search(Some(6)));
        assert_eq!(search(Some(6)), search(Some(6)));
        // A huge limit is no limit.
        assert_eq!(search(None), search(Some(100_000)));
    }

    #[test]
    fn finds_the_only_winning_first_move() {
        // Solved: at the start of 2x3 with 3 seeds only hole 1 wins (+8; holes
        // 2 and 3: -12 and +2), with 4 seeds only hole 2 (+4; -12 and -4).
        for (seeds, winner) in [(3, 1), (4, 2)] {
            let pos = Rules::new(3, seeds).unwrap().start();
            for rollout in [Rollout::Random, Rollout::Greedy] {
                let mv = bot(2000, rollout, 0).choose(&pos, pos.legal_moves());
                assert_eq!(mv.hole(), winner, "{seeds} seeds, {rollout:?}");
            }
        }
    }
}
