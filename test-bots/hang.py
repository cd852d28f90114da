#!/usr/bin/env python3
"""hang.py [--at K] [--stubborn]: plays the first legal hole until its K-th
turn of a game (default 1), which it never answers: from then on it reads and
ignores its input, `quit` included, and exits at end of input. With
--stubborn it also ignores SIGTERM and end of input, so only SIGKILL ends it.
It blocks, never busy-waits. Expected termination: timeout."""
import signal
import sys

from _protocol import Bot, first_legal

argv = sys.argv[1:]
stubborn = "--stubborn" in argv
at = int(argv[argv.index("--at") + 1]) if "--at" in argv else 1


class Hang(Bot):
    def turn(self, args):
        if self.turns < at:
            return first_legal(args)
        if stubborn:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for _ in sys.stdin:  # blocks in read(); never answers
            pass
        while stubborn:
            signal.pause()
        sys.exit(0)


Hang("hang").play()
