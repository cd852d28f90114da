#!/usr/bin/env python3
"""A template for a new En Dodoi bot: copy it, rename NAME, write choose().

As it is, it plays a random legal move, seeded per game. Check it with

    arena check -- python3 bots/python/template.py

and register it in a tournament config with

    [[bot]]
    name = "mybot"
    command = ["python3", "bots/python/mybot.py"]

The protocol is ../../protocol.md (version 1); this file handles all of it,
so only choose() needs your ideas. Standard library only.
"""
import random
import sys

# Your bot's name in the handshake: 1 to 64 of A-Z a-z 0-9 . _ -, starting
# with a letter or digit. Tournaments list bots by their config name.
NAME = "template-py"

# Your bot's options and their defaults, as strings: a config's
# options = { seed = 7 } in the bot's [[bot]] table arrives as option.seed=7
# in hello (docs/bots.md, "Options"). The hello reply lists their names.
OPTIONS = {"seed": "0"}


def choose(game, turn, rng):
    """Returns the hole to play: one of turn["legal"].

    game: the newgame settings, e.g. game["holes"], game["side"] ("south" or
          "north"), game["max_laps"], game["move_time_ms"].
    turn: the position from your own side, whichever side you play:
          turn["mine"]     seeds in your holes 1..n (index 0 is hole 1),
          turn["theirs"]   the opponent's holes 1..n, numbered from THEIR left,
                           so mine + theirs is the ring in sowing order,
          turn["captured"] [yours, theirs],
          turn["legal"]    your legal holes, never empty; empty holes and
                           endless moves are already left out,
          turn["last"]     the opponent's last hole (their numbering) or None,
          turn["ply"]      plies played so far,
          turn["time_ms"]  the time this reply may take, ms.
    rng:  a random.Random seeded from the game, so a game replays the same.

    Anything not in turn["legal"] loses the game (illegal-move). Going over
    turn["time_ms"] loses it too (timeout): keep a margin.
    """
    return rng.choice(turn["legal"])


def numbers(text):
    """'4,0,3' -> [4, 0, 3]."""
    return [int(x) for x in text.split(",")]


def send(line):
    """Writes one reply. Flushing matters: a reply still in the buffer has not
    arrived, and the clock keeps running."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def log(text):
    """Debug output: stderr goes to the bot's log file, never read as protocol."""
    sys.stderr.write(text + "\n")


def main():
    game = {}
    rng = random.Random(0)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue  # blank lines mean nothing
        # Arguments are key=value, in any order; ignore keys you do not know.
        args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        command = words[0]
        if command == "hello":
            # Load anything slow (tables, models) before answering: the reply
            # must come within the start-up limit (5 s by default).
            for key, value in args.items():
                name = key[len("option."):]
                if key.startswith("option.") and name in OPTIONS:
                    OPTIONS[name] = value  # ignore options you do not take
            send("hello version=1 name=%s options=%s" % (NAME, ",".join(OPTIONS)))
        elif command == "newgame":
            game = {k: (v if k == "side" else int(v)) for k, v in args.items()
                    if k == "side" or v.isdigit()}
            # Seeded from the seed option and the game's place in the
            # tournament, when given.
            rng.seed("%s-%s-%s" % (OPTIONS["seed"], args.get("series"), args.get("game")))
            send("ready")
        elif command == "turn":
            turn = {
                "mine": numbers(args["mine"]),
                "theirs": numbers(args["theirs"]),
                "captured": numbers(args["captured"]),
                "legal": numbers(args["legal"]),
                "last": None if args.get("last", "none") == "none" else int(args["last"]),
                "ply": int(args.get("ply", 0)),
                "time_ms": int(args.get("time_ms", 0)),
            }
            hole = choose(game, turn, rng)
            if hole not in turn["legal"]:  # a bug in choose(): stay legal
                log("choose() gave %r, not in %r" % (hole, turn["legal"]))
                hole = turn["legal"][0]
            send("move %d" % hole)
        elif command == "gameover":
            pass  # result=win|loss|draw mine=.. theirs=.. reason=..: learn from it
        elif command == "quit":
            break  # exit promptly: the arena waits 500 ms, then ends the process
    return 0


if __name__ == "__main__":
    sys.exit(main())
