#!/usr/bin/env python3
"""crash.py [--at K]: plays the first legal hole, but exits with code 3 when
asked for its K-th move of a game (default 2). Expected termination: crash."""
import sys

from _protocol import Bot, first_legal

at = int(sys.argv[2]) if sys.argv[1:2] == ["--at"] else 2


class Crash(Bot):
    def turn(self, args):
        if self.turns >= at:
            sys.exit(3)
        return first_legal(args)


Crash("crash").play()
