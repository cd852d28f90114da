#!/usr/bin/env python3
"""garbage.py [--reply TEXT]: answers every turn with the line `hello there`
(or TEXT), which is not `move N`. Handshake and newgame are correct.
Expected termination: protocol-error."""
import sys

reply = sys.argv[2] if sys.argv[1:2] == ["--reply"] else "hello there"


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if words[:1] == ["hello"]:
        send("hello version=1 name=garbage")
    elif words[:1] == ["newgame"]:
        send("ready")
    elif words[:1] == ["turn"]:
        send(reply)
    elif words[:1] == ["quit"]:
        break
