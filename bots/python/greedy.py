#!/usr/bin/env python3
"""A greedy En Dodoi bot in the standard library only: greedy.py [--seed N]

It looks two plies ahead: for each legal move it simulates the sowing, takes
the seeds that move gains, and subtracts the most the opponent can gain in
reply. Gains include the board sweep when a move leaves the other side without
a move, and the row sweep at the ply limit. Ties are broken at random from the
seed, so a series of games is not one game repeated.

Positions are seen as the protocol sends them: a ring of 2n holes, my holes
1..n (indices 0..n-1) then the opponent's (indices n..2n-1), sowing towards
higher indices. Opposite index k is index 2n-1-k. See ../../protocol.md.
"""
import random
import sys

NAME = "greedy-py"
REPLY_LAP_CAP = 2000  # opponent replies still sowing after this many laps are skipped
CYCLE_CHECK_FROM = 64  # laps before lap-start states are compared for a cycle


def sow(ring, start, max_laps):
    """Relay-sows in place from ring index `start`; the emptied hole is not
    skipped. Returns the index where the last seed fell into an empty hole,
    or None when the sowing is endless (still going at lap max_laps, or a
    lap-start state repeated)."""
    size = len(ring)
    hole = start
    saved, power, lam = None, 1, 0
    for lap in range(1, max_laps + 1):
        if lap > CYCLE_CHECK_FROM:  # Brent's cycle detection over (ring, hole)
            if saved is not None and saved[0] == hole and saved[1] == ring:
                return None
            lam += 1
            if lam >= power:
                saved, power, lam = (hole, list(ring)), power * 2, 0
        seeds = ring[hole]
        ring[hole] = 0
        full, rest = divmod(seeds, size)
        if full:
            for k in range(size):
                ring[k] += full
        for k in range(hole + 1, hole + 1 + rest):
            ring[k % size] += 1
        last = (hole + rest) % size
        if ring[last] == 1:
            return last
        hole = last
    return None


def play(ring, hole, max_laps):
    """The mover (owner of indices 0..n-1) plays own hole `hole` (1..n).
    Returns (new ring, seeds captured), or None if the move is endless."""
    n = len(ring) // 2
    ring = list(ring)
    last = sow(ring, hole - 1, max_laps)
    if last is None:
        return None
    gain = 0
    if last < n:
        opposite = 2 * n - 1 - last
        if ring[opposite] > 0:
            gain = ring[opposite] + ring[last]
            ring[opposite] = 0
            ring[last] = 0
    return ring, gain


def flip(ring):
    """The same ring seen by the other player."""
    n = len(ring) // 2
    return ring[n:] + ring[:n]


def reply_value(ring, ply, max_plies, lap_cap=REPLY_LAP_CAP):
    """The most the player to move in `ring` (own view) gains over the other
    in one move, or None if it has no move that ends within `lap_cap` laps."""
    n = len(ring) // 2
    best = None
    for hole in range(1, n + 1):
        if ring[hole - 1] == 0:
            continue
        result = play(ring, hole, lap_cap)
        if result is None:
            continue
        after, gain = result
        if sum(after[n:]) == 0:  # the other side cannot move: I sweep the board
            gain += sum(after)
        elif ply + 1 >= max_plies:  # ply limit: each side takes its own row
            gain += sum(after[:n]) - sum(after[n:])
        if best is None or gain > best:
            best = gain
    return best


def move_values(ring, legal, ply, max_plies, max_laps):
    """{hole: my gain minus the opponent's best reply} for each legal hole."""
    n = len(ring) // 2
    values = {}
    for hole in legal:
        result = play(ring, hole, max_laps)
        if result is None:
            continue
        after, gain = result
        reply = reply_value(flip(after), ply + 1, max_plies)
        if reply is None:  # the opponent has no move: I sweep the board
            values[hole] = gain + sum(after)
        elif ply + 1 >= max_plies:  # ply limit: each side takes its own row
            values[hole] = gain + sum(after[:n]) - sum(after[n:])
        else:
            values[hole] = gain - reply
    return values


def choose(mine, theirs, legal, ply, max_plies, max_laps, rng):
    """The hole to play: the best by move_values, ties broken with `rng`."""
    values = move_values(mine + theirs, legal, ply, max_plies, max_laps)
    if not values:
        return rng.choice(legal)
    top = max(values.values())
    return rng.choice(sorted(h for h, v in values.items() if v == top))


def numbers(text):
    return [int(x) for x in text.split(",")]


def main(argv):
    seed = 0
    if len(argv) == 2 and argv[0] == "--seed":
        seed = int(argv[1])
    elif argv:
        sys.stderr.write("usage: greedy.py [--seed N]\n")
        return 2
    rng = random.Random(seed)
    max_plies, max_laps = 1000, 100000

    def send(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        if words[0] == "hello":
            send("hello version=1 name=" + NAME)
        elif words[0] == "newgame":
            max_plies = int(args.get("max_plies", 1000))
            max_laps = int(args.get("max_laps", 100000))
            # Seeded per game, so a game plays the same in any process.
            if "series" in args and "game" in args:
                rng.seed(f"{seed}-{args['series']}-{args['game']}")
            send("ready")
        elif words[0] == "turn":
            legal = numbers(args["legal"])
            try:
                hole = choose(numbers(args["mine"]), numbers(args["theirs"]), legal,
                              int(args.get("ply", 0)), max_plies, max_laps, rng)
            except (KeyError, ValueError) as e:
                sys.stderr.write("bad turn %r: %s\n" % (line, e))
                hole = legal[0]
            send("move %d" % hole)
        elif words[0] == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
