#!/usr/bin/env python3
"""A Python bot template on the exact rules: alphabeta_bot.py [--depth N]

It builds its position from each `turn` line with the `endodoi` package
(`pip install ./python`) and searches it with a small alpha-beta on the
seed difference (endodoi.search), deepening while the time allows. The
package's engine is the referee's, so the search sows, relays, captures and
skips endless moves exactly as the arena does. Copy it and change choose().

Check it with

    arena check -- python3 python/examples/alphabeta_bot.py

(with the Python that has the package), and enter it in a config as

    [[bot]]
    name = "alphabeta-py"
    command = ["python3", "../python/examples/alphabeta_bot.py"]

The protocol is protocol.md (version 1). The bundled bots in bots/python/
stay dependency-free; this one needs the package.
"""
import argparse
import sys
import time

import endodoi
from endodoi import search

NAME = "alphabeta-py"


def choose(pos, time_ms, max_depth):
    """The hole to play in `pos` (not over): iterative deepening of
    endodoi.search.alphabeta within about a quarter of `time_ms`."""
    legal = pos.legal_moves()
    if len(legal) == 1:
        return legal[0]
    budget = time_ms / 4000.0 if time_ms else 1.0
    started = time.monotonic()
    best = legal[0]
    for depth in range(1, max_depth + 1):
        best = search.alphabeta(pos, depth)
        spent = time.monotonic() - started
        # The next depth costs several times this one: stop in time.
        if spent * 6 > budget:
            break
    return best


def send(line):
    """Writes one reply, flushed (an unflushed reply has not arrived)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6, help="the deepest search, plies (default 6)")
    args = parser.parse_args(argv)
    rules, side = None, None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "hello":
            send("hello version=1 name=" + NAME)
        elif command == "newgame":
            rules, side = endodoi.parse_newgame(line)
            send("ready")
        elif command == "turn":
            pos = endodoi.Position.from_turn(line, rules, side)
            time_ms = next((int(w[8:]) for w in words if w.startswith("time_ms=")), 0)
            send("move %d" % choose(pos, time_ms, args.depth))
        elif command == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
