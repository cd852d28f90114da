//! `arena bot perfect --tablebase DIR`: a bot that plays the endgame tables
//! where they know the result exactly, and the bundled alphabeta elsewhere
//! (docs/tablebases.md, "Playing perfectly").

use std::path::PathBuf;
use std::sync::Arc;

use endodoi::{Move, MoveSet, Position};
use endodoi_bots::{Strategy, TimeLeft};
use endodoi_tablebase::{adjudicate, move_value, Tables};

/// `arena bot perfect --help`.
const USAGE: &str =
    "Usage: arena bot perfect --tablebase DIR [--root-only] [--depth D] [--time-ms T] [--seed N]\n\n\
The endgame tables' best move where they know the result exactly within the plies left\n\
(the fewest plies when winning, the most when losing, then the lowest hole); the bundled\n\
alphabeta, with these options, elsewhere, its search taking the tables' exact values at\n\
every position they know (--root-only: not, the tables used at the root only).\n\
DIR: a folder of `arena tablebase build`.";

/// The tables as the leaves of alphabeta's search: the exact margin of
/// every position they know within the plies left
/// ([`endodoi_tablebase::adjudicate`]).
#[derive(Debug)]
pub struct TableLeaves(pub Arc<Tables>);

impl endodoi_bots::Leaves for TableLeaves {
    fn exact_margin(&self, pos: &Position) -> Option<i32> {
        adjudicate(&self.0, pos).map(|a| a.margin)
    }
}

/// The move of `pos` (its side to move) that keeps the best forced value,
/// when the tables know the position exactly within the plies left
/// ([`endodoi_tablebase::adjudicate`]); `None` elsewhere. Among the moves
/// that keep it: the fewest plies to the end when the value is a win or a
/// draw, the most when it is a loss, then the lowest hole. A move counts
/// when it ends the game, or leads to a position the tables know exactly
/// within the plies left after it; its value is its capture minus the
/// child's value (the negamax identity of the margins from here).
#[must_use]
pub fn best_move(tables: &Tables, pos: &Position, legal: MoveSet) -> Option<Move> {
    let value = adjudicate(tables, pos)?.margin;
    let mut best: Option<(u32, Move)> = None;
    for mv in legal {
        let mut child = pos.clone();
        if child.play(mv).is_err() {
            continue;
        }
        let Some((margin, plies)) = move_value(tables, pos, &child) else {
            continue;
        };
        if margin != value {
            continue;
        }
        // Ranked by the order of preference: lower is better.
        let rank = if value >= 0 { plies } else { u32::MAX - plies };
        if best.is_none_or(|(b, _)| rank < b) {
            best = Some((rank, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

/// The strategy of `arena bot perfect`: [`best_move`] where the tables
/// know the position, the fallback (alphabeta) elsewhere.
pub struct Perfect {
    tables: Arc<Tables>,
    fallback: Box<dyn Strategy>,
    last: Option<String>,
}

impl Perfect {
    /// Plays `tables` where they reach and `fallback` elsewhere.
    #[must_use]
    pub fn new(tables: Arc<Tables>, fallback: Box<dyn Strategy>) -> Perfect {
        Perfect {
            tables,
            fallback,
            last: None,
        }
    }
}

impl Strategy for Perfect {
    fn name(&self) -> &str {
        "perfect"
    }

    fn new_game(&mut self, settings: &endodoi_protocol::NewGame) {
        self.fallback.new_game(settings);
        // Tables of another board or lap limit never match a position:
        // say so in the first move's info line, not silently.
        let rules = &settings.rules;
        if rules.holes() != self.tables.holes() || rules.max_laps() != self.tables.max_laps() {
            self.last = Some(format!(
                "tablebase: the tables are of 2x{} with max_laps {}, this game 2x{} with max_laps {}: alphabeta only",
                self.tables.holes(),
                self.tables.max_laps(),
                rules.holes(),
                rules.max_laps()
            ));
        }
    }

    fn choose(&mut self, pos: &Position, legal: MoveSet) -> Move {
        self.choose_timed(pos, legal, &TimeLeft::unlimited())
    }

    fn choose_timed(&mut self, pos: &Position, legal: MoveSet, time: &TimeLeft) -> Move {
        if let Some(mv) = best_move(&self.tables, pos, legal) {
            self.last = Some("tablebase".into());
            return mv;
        }
        let mv = self.fallback.choose_timed(pos, legal, time);
        let mismatch = self.last.take().filter(|l| l.contains("alphabeta only"));
        self.last = mismatch.or_else(|| self.fallback.info());
        mv
    }

    fn info(&mut self) -> Option<String> {
        self.last.take()
    }
}

/// `arena bot perfect`'s arguments: `--tablebase DIR` (required),
/// `--root-only` (the fallback's search without the tables at its nodes),
/// and the fallback alphabeta's options (`--depth D`, `--time-ms T`,
/// `--seed N`).
///
/// # Errors
/// No `--tablebase`, a tables folder that cannot be read, a bad option.
pub fn strategy(args: Vec<String>) -> anyhow::Result<Perfect> {
    let mut dir: Option<PathBuf> = None;
    let mut rest = Vec::new();
    let mut root_only = false;
    let mut words = args.into_iter();
    while let Some(word) = words.next() {
        if word == "--root-only" {
            root_only = true;
        } else if let Some(d) = word.strip_prefix("--tablebase=") {
            dir = Some(d.into());
        } else if word == "--tablebase" {
            dir = Some(
                words
                    .next()
                    .ok_or_else(|| anyhow::anyhow!("--tablebase needs a folder: --tablebase DIR"))?
                    .into(),
            );
        } else {
            rest.push(word);
        }
    }
    let dir = dir.ok_or_else(|| {
        anyhow::anyhow!("arena bot perfect needs --tablebase DIR, the folder `arena tablebase build --out DIR` wrote")
    })?;
    let tables = crate::output::tablebase::shared(&dir)?;
    let leaves: Option<Arc<dyn endodoi_bots::Leaves>> =
        (!root_only).then(|| Arc::new(TableLeaves(tables.clone())) as _);
    let fallback = endodoi_bots::alphabeta_from_args("arena bot perfect", rest, leaves)
        .map_err(|e| anyhow::anyhow!("{}", e.to_string().lines().next().unwrap_or_default()))?;
    Ok(Perfect::new(tables, fallback))
}

/// The whole of `arena bot perfect ARGS` on the standard streams; the exit
/// code: 0 after `quit` or the end of input, or after `--help` (also when
/// stdout closed early: [`super::print_help`]), 2 for bad arguments or
/// tables (one line on stderr), 1 for an I/O error.
#[must_use]
pub fn main(args: Vec<String>) -> u8 {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return match super::print_help(&format!("{USAGE}\n")) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("arena bot perfect: cannot write the help: {e}");
                1
            }
        };
    }
    let strategy = match strategy(args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arena bot perfect: {e:#}");
            return 2;
        }
    };
    match endodoi_bots::run(strategy, std::io::stdin().lock(), std::io::stdout().lock()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("arena bot perfect: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use endodoi::{Rules, Side, Termination};
    use endodoi_bots::{AlphaBeta, AlphaBetaOptions, Random};
    use rand::{Rng, SeedableRng};

    /// A position of 2x`holes` from a random start played on at random,
    /// `plies` plies in (or fewer, if the game ends).
    fn sample(rules: Rules, plies: u32, rng: &mut impl Rng) -> Position {
        let mut pos = rules.start();
        for _ in 0..plies {
            let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
            if legal.is_empty() || pos.is_over() {
                break;
            }
            let _ = pos.play(legal[rng.gen_range(0..legal.len())]);
        }
        pos
    }

    #[test]
    fn tables_of_another_board_are_said_in_the_first_info_line() {
        let tables = Arc::new(endodoi_tablebase::build(3, 4).unwrap());
        for (holes, warned) in [(4, true), (3, false)] {
            let rules = Rules::new(holes, 1).unwrap();
            let mut perfect = Perfect::new(tables.clone(), Box::new(Random::new(1)));
            perfect.new_game(&endodoi_protocol::NewGame {
                rules,
                side: Side::South,
                move_time_ms: 0,
                base_time_ms: 0,
                increment_ms: 0,
                game: None,
            });
            let pos = rules.start();
            let _ = perfect.choose(&pos, pos.legal_moves());
            let info = perfect.info().unwrap_or_default();
            assert_eq!(info.contains("alphabeta only"), warned, "2x{holes}: {info}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// `arena analyse` judges every move of `perfect` in a position
        /// the tables know as optimal (or forced): the two read the tables
        /// alike ([`endodoi_tablebase::judge_move`]).
        #[test]
        fn perfect_moves_are_judged_optimal(seed in 0u64..1_000_000, plies in 0u32..16) {
            let tables = endodoi_tablebase::build(3, 8).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut pos = sample(Rules::new(3, 1 + seed as u32 % 2).unwrap(), plies, &mut rng);
            while !pos.is_over() {
                let legal = pos.legal_moves();
                let Some(mv) = best_move(&tables, &pos, legal) else {
                    break;
                };
                let verdict = endodoi_tablebase::judge_move(&tables, &pos, mv).unwrap();
                proptest::prop_assert!(
                    matches!(verdict, endodoi_tablebase::Verdict::Optimal { .. } | endodoi_tablebase::Verdict::Forced { .. }),
                    "{pos}: {verdict:?}"
                );
                pos.play(mv).unwrap();
            }
        }
    }

    #[test]
    fn perfect_never_loses_a_resolved_won_position() {
        let tables = Arc::new(endodoi_tablebase::build(3, 9).unwrap());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(34);
        let mut checked = 0;
        for case in 0..200u64 {
            let rules = Rules::new(3, 1 + case as u32 % 2).unwrap();
            let pos = sample(rules, rng.gen_range(0..12), &mut rng);
            let Some(end) = adjudicate(&tables, &pos) else {
                continue;
            };
            if end.margin <= 0 {
                continue;
            }
            let mover = pos.to_move();
            let perfect = Perfect::new(tables.clone(), Box::new(Random::new(case)));
            // Half the cases against random, half against alphabeta.
            let opponent: Box<dyn Strategy> = if case % 2 == 0 {
                Box::new(Random::new(case + 1))
            } else {
                Box::new(AlphaBeta::new(AlphaBetaOptions {
                    depth: Some(4),
                    ..AlphaBetaOptions::default()
                }))
            };
            let fin = play_from(pos.clone(), mover, perfect, opponent);
            let margin = fin[mover.index()] as i32 - fin[mover.opponent().index()] as i32;
            let before = pos.captured(mover) as i32 - pos.captured(mover.opponent()) as i32;
            assert!(
                margin - before >= end.margin,
                "case {case}: forced {:+} but perfect made {:+}",
                end.margin,
                margin - before
            );
            checked += 1;
        }
        assert!(checked >= 20, "only {checked} won positions sampled");
    }

    /// A position of 2x4 with `k` seeds spread at random, South to move
    /// after a first ply, nothing captured.
    fn spread(k: u32, rng: &mut impl Rng) -> Position {
        let mut board = [0u32; 8];
        for _ in 0..k {
            board[rng.gen_range(0..8)] += 1;
        }
        let rules = Rules::new(4, 1).unwrap();
        Position::from_parts(rules, &board[..4], &board[4..], Side::South, [0, 0], 1).unwrap()
    }

    /// alphabeta (depth 6) with 2x4 tables to 6 seeds as its leaves, in
    /// positions of 7 to 9 seeds above them that tables to 9 know exactly:
    /// wherever its search proves its score, the score is the position's
    /// value and its move keeps it (the tables to 9 find no better move);
    /// and the leaves let it prove more positions than the search alone.
    #[test]
    fn alphabeta_with_table_leaves_plays_the_tables_best_where_it_proves() {
        let big = endodoi_tablebase::build(4, 9).unwrap();
        let small = Arc::new(endodoi_tablebase::build(4, 6).unwrap());
        let options = AlphaBetaOptions {
            depth: Some(6),
            ..AlphaBetaOptions::default()
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let (mut sampled, mut proven, mut proven_alone) = (0, 0, 0);
        for _ in 0..150 {
            let pos = spread(rng.gen_range(7..=9), &mut rng);
            let legal = pos.legal_moves();
            let Some(value) = adjudicate(&big, &pos).map(|a| a.margin) else {
                continue;
            };
            if legal.len() < 2 {
                continue;
            }
            sampled += 1;
            let leaves = Arc::new(TableLeaves(small.clone()));
            let r = AlphaBeta::with_leaves(options, leaves).analyse(
                &pos,
                legal,
                &TimeLeft::unlimited(),
            );
            let alone = AlphaBeta::new(options).analyse(&pos, legal, &TimeLeft::unlimited());
            proven_alone += u32::from(alone.exact);
            if !r.exact {
                continue;
            }
            proven += 1;
            assert_eq!(
                r.score,
                endodoi_bots::alphabeta::terminal_score(value),
                "{pos}"
            );
            let mut child = pos.clone();
            child.play(r.best).unwrap();
            let kept = move_value(&big, &pos, &child).map(|v| v.0);
            assert_eq!(
                kept,
                Some(value),
                "{pos}: {:?} gives {kept:?}, the tables force {value:+}",
                r.best
            );
        }
        assert!(
            sampled >= 100,
            "only {sampled} positions known to the tables to 9"
        );
        assert!(
            proven > proven_alone && proven >= sampled / 4,
            "{proven} proven with the leaves, {proven_alone} without, of {sampled}"
        );
    }

    /// Plays on from `pos` with `perfect` for `side` and `other` for the
    /// opponent; the final seeds (South, North).
    fn play_from(
        pos: Position,
        side: Side,
        mut perfect: impl Strategy,
        mut other: Box<dyn Strategy>,
    ) -> [u32; 2] {
        let mut pos = pos;
        while !pos.is_over() {
            let legal = pos.legal_moves();
            let view = endodoi_bots::own_view(&pos);
            let mv = if pos.to_move() == side {
                perfect.choose(&view, legal)
            } else {
                other.choose(&view, legal)
            };
            pos.play(mv).expect("a legal move");
        }
        final_seeds(&pos)
    }

    /// The final seeds of a finished game.
    fn final_seeds(pos: &Position) -> [u32; 2] {
        let outcome = pos.outcome().expect("over");
        let row = |s: Side| pos.row(s).sum();
        let mut seeds = [pos.captured(Side::South), pos.captured(Side::North)];
        match outcome.termination {
            Termination::NoMoves => {
                let last = pos.to_move().opponent();
                seeds[last.index()] += row(Side::South) + row(Side::North);
            }
            Termination::PlyLimit => {
                seeds[0] += row(Side::South);
                seeds[1] += row(Side::North);
            }
        }
        seeds
    }
}
