#!/usr/bin/env python3
"""Perft with the independent rules of replay_check.py, to cross-check the
checked-in table rules/tests/perft.csv that the Rust engine is tested against.

    python3 tools/perft.py HOLES SEEDS DEPTH          print counts for depths 0..DEPTH
    python3 tools/perft.py --check [TABLE] [--max-leaves N]
                                                      check every row with at most N leaves
                                                      (default: rules/tests/perft.csv, 60000)

perft(d) is the number of legal move sequences of exactly d plies (games
that end sooner count nothing), as chess engines count it.
"""
import copy
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_check import Game  # noqa: E402  (the independent engine)


def perft(game, depth):
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for hole in moves:
        child = copy.deepcopy(game)
        child.play(hole)
        total += perft(child, depth - 1)
    return total


def check(table, max_leaves):
    passed = failed = 0
    with open(table, newline="") as f:
        for row in csv.DictReader(f):
            holes, seeds, depth, leaves = (int(row[k]) for k in ("holes", "seeds", "depth", "leaves"))
            if leaves > max_leaves:
                continue
            got = perft(Game(holes, seeds), depth)
            if got == leaves:
                passed += 1
            else:
                failed += 1
                print(f"2x{holes} seeds {seeds} depth {depth}: table says {leaves}, this engine counts {got}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


# The table the Rust engine is tested against, and the leaves up to which
# its rows are recounted here (as arena/tests/python_suites.rs does).
DEFAULT_TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rules", "tests", "perft.csv")
DEFAULT_MAX_LEAVES = 60_000


def main(argv):
    if argv[:1] == ["--check"]:
        rest = argv[1:]
        max_leaves = DEFAULT_MAX_LEAVES
        if "--max-leaves" in rest:
            i = rest.index("--max-leaves")
            max_leaves = int(rest[i + 1])
            del rest[i : i + 2]
        return check(rest[0] if rest else DEFAULT_TABLE, max_leaves)
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    holes, seeds, depth = (int(a) for a in argv)
    for d in range(depth + 1):
        print(f"{holes},{seeds},{d},{perft(Game(holes, seeds), d)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
