#!/usr/bin/env python3
"""crash.py [--at K]: plays the first legal hole, but exits with code 3 when
asked for its K-th move of a game (default 2). Expected termination: crash."""
import sys

at = int(sys.argv[2]) if sys.argv[1:2] == ["--at"] else 2


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


turns = 0
for line in sys.stdin:
    words = line.split()
    args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    if words[:1] == ["hello"]:
        send("hello version=1 name=crash")
    elif words[:1] == ["newgame"]:
        turns = 0
        send("ready")
    elif words[:1] == ["turn"]:
        turns += 1
        if turns >= at:
            sys.exit(3)
        send("move " + args["legal"].split(",")[0])
    elif words[:1] == ["quit"]:
        break
