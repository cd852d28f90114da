#!/usr/bin/env python3
"""linger.py [--linger-ms N]: plays the first legal hole, but after `quit` or
the end of its input it stays N ms more (default 60000) before it exits, so
the arena has to end it with SIGTERM. It blocks in sleep, never busy-waits.
Expected: normal results in a tournament; `arena check` fails its quit check."""
import sys
import time

linger_ms = int(sys.argv[2]) if sys.argv[1:2] == ["--linger-ms"] else 60000


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    if words[:1] == ["hello"]:
        send("hello version=1 name=linger")
    elif words[:1] == ["newgame"]:
        send("ready")
    elif words[:1] == ["turn"]:
        send("move " + args["legal"].split(",")[0])
    elif words[:1] == ["quit"]:
        break
time.sleep(linger_ms / 1000)
