#!/usr/bin/env python3
"""slow_start.py [--delay-ms N]: never answers `hello`: reads and ignores its
input until the end of input (blocking, not busy). Expected: the start-up
limit (startup_ms) runs out and the bot loses its games. With --delay-ms it
answers after N ms instead and then plays the first legal hole, to test a
start-up just inside or outside the limit."""
import sys
import time

from _protocol import Bot

delay = int(sys.argv[2]) if sys.argv[1:2] == ["--delay-ms"] else None


class SlowStart(Bot):
    def hello(self):
        time.sleep(delay / 1000)
        return super().hello()


if delay is None:
    for _ in sys.stdin:
        pass
else:
    SlowStart("slow-start").play()
