#!/usr/bin/env python3
"""Tests for greedy.py (standard library only): python3 bots/python/test_greedy.py

- its sowing simulator against the rule vectors, <repo>/rules/tests/vectors.csv (a copy of ../shared/vectors/rules.csv),
  and the examples of RULES.md;
- its strength against a uniformly random player, in-process;
- its speed, and one short exchange over the protocol as a subprocess.
"""
import csv
import os
import random
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import greedy  # noqa: E402

VECTORS = os.path.join(HERE, "..", "..", "rules", "tests", "vectors.csv")
MAX_LAPS = 100000


def start(holes, seeds):
    """A game under the rules, as [ring, captured, to_move, ply]: the ring is
    the absolute one (South's row, then North's), to_move 0 = South."""
    return [[seeds] * (2 * holes), [0, 0], 0, 0]


def view(game):
    """The ring as the side to move sees it."""
    ring, _, to_move, _ = game
    return greedy.flip(ring) if to_move else list(ring)


def legal(game):
    ring = view(game)
    n = len(ring) // 2
    return [h for h in range(1, n + 1)
            if ring[h - 1] and greedy.play(ring, h, MAX_LAPS) is not None]


def play(game, hole, max_plies=1000):
    """Plays `hole` for the side to move; returns True once the game is over."""
    ring, captured, to_move, ply = game
    result = greedy.play(view(game), hole, MAX_LAPS)
    assert result is not None, "endless move %d" % hole
    after, gain = result
    captured[to_move] += gain
    game[0] = greedy.flip(after) if to_move else after
    game[2] = 1 - to_move
    game[3] = ply + 1
    n = len(after) // 2
    if not legal(game):  # no move: the last mover sweeps the board
        captured[to_move] += sum(game[0])
    elif game[3] >= max_plies:  # ply limit: each side takes its own row
        captured[0] += sum(game[0][:n])
        captured[1] += sum(game[0][n:])
    else:
        return False
    game[0] = [0] * (2 * n)
    return True


class Simulator(unittest.TestCase):
    def test_rule_vectors(self):
        if not os.path.exists(VECTORS):
            self.skipTest("no rule vectors at " + VECTORS)
        checked = 0
        with open(VECTORS, newline="") as f:
            for line, row in enumerate(csv.DictReader(f), start=2):
                if row["ended"]:
                    continue
                game = start(int(row["holes"]), int(row["seeds"]))
                for hole in row["moves"].split():
                    self.assertFalse(play(game, int(hole)), "line %d" % line)
                where = "line %d" % line
                self.assertEqual(game[0], [int(x) for x in row["board"].split()], where)
                self.assertEqual(game[1], [int(row["south_seeds"]), int(row["north_seeds"])],
                                 where)
                self.assertEqual(game[2], 0 if row["to_move"] == "south" else 1, where)
                self.assertEqual(" ".join(map(str, legal(game))), row["legal"], where)
                checked += 1
        self.assertGreaterEqual(checked, 20)

    def test_one_seed_example(self):
        # The rules crate's example: 2x6 with 1 seed, South plays 4: 7 laps,
        # capture of North's hole 2 (2 seeds) plus the triggering seed.
        after, gain = greedy.play([1] * 12, 4, MAX_LAPS)
        self.assertEqual(gain, 3)
        self.assertEqual(after, [0, 2, 0, 1, 0, 2, 0, 0, 0, 2, 0, 2])

    def test_endless_example_of_rules_md(self):
        game = start(4, 4)
        for hole in [4, 3, 2, 4, 1]:
            self.assertFalse(play(game, hole))
        self.assertEqual(game[0], [0, 5, 0, 1, 2, 0, 6, 5])
        self.assertEqual(game[2], 1)
        self.assertEqual(legal(game), [3, 4])
        self.assertIsNone(greedy.play(view(game), 1, MAX_LAPS))

    def test_emptied_hole_is_not_skipped(self):
        ring = [5, 0, 0, 0]
        self.assertIsNone(greedy.sow(ring, 0, 1))  # lap 1 ends in the refilled origin
        self.assertEqual(ring, [1, 2, 1, 1])


class Strength(unittest.TestCase):
    def play_games(self, games, holes=8, seed=1):
        rng = random.Random(seed + 1)
        points, times = 0.0, []
        for g in range(games):
            game = start(holes, 4)
            me = g % 2
            over = False
            while not over:
                moves = legal(game)
                if game[2] == me:
                    ring = view(game)
                    t = time.perf_counter()
                    hole = greedy.choose(ring[:holes], ring[holes:], moves, game[3],
                                         1000, MAX_LAPS, rng)
                    times.append(time.perf_counter() - t)
                    self.assertIn(hole, moves)
                else:
                    hole = rng.choice(moves)
                over = play(game, hole)
            mine, theirs = game[1][me], game[1][1 - me]
            points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        return points / games, times

    def test_beats_random_and_is_fast(self):
        score, times = self.play_games(100)
        mean_ms = 1000 * sum(times) / len(times)
        print("\ngreedy.py vs random, 2x8, 100 games: %.1f%%; %.2f ms per move (max %.2f)"
              % (100 * score, mean_ms, 1000 * max(times)), file=sys.stderr)
        self.assertGreater(score, 0.85)
        self.assertLess(mean_ms, 50)


class Protocol(unittest.TestCase):
    def test_exchange(self):
        script = ("hello version=1\r\n"
                  "newgame holes=2 seeds=1 side=south move_time_ms=1000 base_time_ms=0 "
                  "increment_ms=0 max_plies=1000 max_laps=100000 future=1\n"
                  "turn mine=1,1 theirs=1,1 captured=0,0 last=none legal=1,2 ply=0 time_ms=1000\n"
                  "gameover result=win mine=4 theirs=0 reason=no-moves\n"
                  "quit\n"
                  "turn mine=1,1 theirs=1,1 legal=1,2\n")
        out = subprocess.run([sys.executable, os.path.join(HERE, "greedy.py"), "--seed", "3"],
                             input=script, capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        # Hole 1 captures 3 and leaves North no seeds; hole 2 captures nothing.
        self.assertEqual(out.stdout.splitlines(),
                         ["hello version=1 name=greedy-py", "ready", "move 1"])


if __name__ == "__main__":
    unittest.main()
