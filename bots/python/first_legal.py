#!/usr/bin/env python3
"""Plays the first legal move. Save, chmod +x, and name it in a config."""
import sys

def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    if words[0] == "hello":
        send("hello version=1 name=first-legal")
    elif words[0] == "newgame":
        send("ready")
    elif words[0] == "turn":
        send("move " + args["legal"].split(",")[0])
    elif words[0] == "quit":
        break
