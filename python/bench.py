#!/usr/bin/env python3
"""Random playouts per second from Python: the package's batch entry point
against a pure-Python engine, measured in one run, interleaved.

    python python/bench.py [--holes 8] [--seeds 4] [--rounds 5] [--seconds 1.0]

Three ways to play uniformly random games from the start, each for about
`--seconds` per round, the rounds interleaved so that load on the machine
hits all three alike; the median round of each is printed:

- batch: `Position.playouts(n, seed)`, the games played in Rust;
- per-move: a Python loop over the package (`legal_moves()` and `after()`
  each ply), what a Python search pays per node;
- pure Python: the same loop on tools/replay_check.py's engine (legal moves
  by sowing each hole, as the referee's rules say), the stand-in for a bot's
  own copy of the rules.
"""
import argparse
import importlib.util
import pathlib
import random
import statistics
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
# Python puts this script's folder first on sys.path, where the source folder
# python/endodoi (without the built extension) would shadow the installed
# package: import the installed one.
sys.path[:] = [p for p in sys.path if pathlib.Path(p or ".").resolve() != HERE]

import endodoi  # noqa: E402


def pure_python_engine():
    spec = importlib.util.spec_from_file_location("replay_check", REPO / "tools" / "replay_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(play_one_batch, seconds):
    """Games per second of repeated batches for about `seconds`."""
    games, started = 0, time.perf_counter()
    while True:
        games += play_one_batch()
        spent = time.perf_counter() - started
        if spent >= seconds:
            return games / spent


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holes", type=int, default=8)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args(argv)
    rules = endodoi.Rules(args.holes, args.seeds)
    start = rules.start()
    ref = pure_python_engine()
    rng = random.Random(1)
    seed = [0]

    def batch():
        seed[0] += 1
        return start.playouts(2000, seed=seed[0]).games

    def per_move():
        for _ in range(20):
            pos = start
            while not pos.is_over:
                pos = pos.after(rng.choice(pos.legal_moves()))
        return 20

    def pure():
        game = ref.Game(rules.holes, rules.seeds, max_laps=rules.max_laps, max_plies=rules.max_plies)
        while not game.ended:
            game.play(rng.choice(game.legal_moves()))
        return 1

    runs = {"batch (Position.playouts)": [], "per-move loop on the package": [],
            "pure-Python engine": []}
    for _ in range(args.rounds):
        for name, fn in zip(runs, (batch, per_move, pure)):
            runs[name].append(timed(fn, args.seconds))
    print("2x%d, %d seeds, %d rounds of %.1f s each, interleaved; median playouts/s:"
          % (args.holes, args.seeds, args.rounds, args.seconds))
    pure_median = statistics.median(runs["pure-Python engine"])
    for name, rates in runs.items():
        median = statistics.median(rates)
        print("  %-30s %12.0f  (%.0fx pure Python)" % (name, median, median / pure_median))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
