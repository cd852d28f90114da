#!/usr/bin/env python3
"""hang.py [--at K] [--stubborn]: plays the first legal hole until its K-th
turn of a game (default 1), which it never answers: from then on it reads and
ignores its input, `quit` included, and exits at end of input. With
--stubborn it also ignores SIGTERM and end of input, so only SIGKILL ends it.
It blocks, never busy-waits. Expected termination: timeout."""
import signal
import sys

argv = sys.argv[1:]
stubborn = "--stubborn" in argv
at = int(argv[argv.index("--at") + 1]) if "--at" in argv else 1


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


turns = 0
for line in sys.stdin:
    words = line.split()
    args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    if words[:1] == ["hello"]:
        send("hello version=1 name=hang")
    elif words[:1] == ["newgame"]:
        turns = 0
        send("ready")
    elif words[:1] == ["turn"]:
        turns += 1
        if turns >= at:
            if stubborn:
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
            for _ in sys.stdin:  # blocks in read(); never answers
                pass
            while stubborn:
                signal.pause()
            sys.exit(0)
        send("move " + args["legal"].split(",")[0])
    elif words[:1] == ["quit"]:
        break
