#!/usr/bin/env python3
"""garbage.py [--reply TEXT]: answers every turn with the line `hello there`
(or TEXT), which is not `move N`. Handshake and newgame are correct.
Expected termination: protocol-error."""
import sys

from _protocol import Bot

reply = sys.argv[2] if sys.argv[1:2] == ["--reply"] else "hello there"


class Garbage(Bot):
    def turn(self, args):
        return reply


Garbage("garbage").play()
