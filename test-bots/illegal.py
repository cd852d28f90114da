#!/usr/bin/env python3
"""illegal.py [--hole N]: answers every turn with a hole not in `legal`: the
first of 1..n that is not legal (empty or endless), else n+1; or always N with
--hole. Otherwise correct. Expected termination: illegal-move (the bot is kept)."""
import sys

from _protocol import Bot

fixed = int(sys.argv[2]) if sys.argv[1:2] == ["--hole"] else None


class Illegal(Bot):
    def turn(self, args):
        n = len(args["mine"].split(","))
        legal = {int(h) for h in args["legal"].split(",")}
        bad = [h for h in range(1, n + 2) if h not in legal][0]
        return "move %d" % (bad if fixed is None else fixed)


Illegal("illegal").play()
