#!/usr/bin/env python3
"""illegal.py [--hole N]: answers every turn with a hole not in `legal`: the
first of 1..n that is not legal (empty or endless), else n+1; or always N with
--hole. Otherwise correct. Expected termination: illegal-move (the bot is kept)."""
import sys

fixed = int(sys.argv[2]) if sys.argv[1:2] == ["--hole"] else None


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    if words[:1] == ["hello"]:
        send("hello version=1 name=illegal")
    elif words[:1] == ["newgame"]:
        send("ready")
    elif words[:1] == ["turn"]:
        n = len(args["mine"].split(","))
        legal = {int(h) for h in args["legal"].split(",")}
        bad = [h for h in range(1, n + 2) if h not in legal][0]
        send("move %d" % (bad if fixed is None else fixed))
    elif words[:1] == ["quit"]:
        break
