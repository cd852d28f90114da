#!/usr/bin/env python3
"""slow_start.py [--delay-ms N]: never answers `hello`: reads and ignores its
input until the end of input (blocking, not busy). Expected: the start-up
limit (startup_ms) runs out and the bot loses its games. With --delay-ms it
answers after N ms instead and then plays the first legal hole, to test a
start-up just inside or outside the limit."""
import sys
import time

delay = int(sys.argv[2]) if sys.argv[1:2] == ["--delay-ms"] else None


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    if delay is None:
        continue
    if words[:1] == ["hello"]:
        time.sleep(delay / 1000)
        send("hello version=1 name=slow-start")
    elif words[:1] == ["newgame"]:
        send("ready")
    elif words[:1] == ["turn"]:
        send("move " + args["legal"].split(",")[0])
    elif words[:1] == ["quit"]:
        break
