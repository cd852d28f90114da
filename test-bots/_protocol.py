"""The protocol loop the fault bots of this folder share (protocol version 1,
../protocol.md): `Bot` answers `hello`, `newgame` and `turn` correctly, playing
the first legal hole, and stops at `quit` or at the end of its input; each
fault bot overrides the one answer it gets wrong. Not a bot itself: a script
that imports it finds it beside itself (Python puts the script's folder on
sys.path), so a test that copies a fault bot copies this file with it."""
import sys


def send(line):
    """Writes one line to the arena and flushes it at once."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def first_legal(args):
    """The `move` line for the first hole of a turn's `legal` list."""
    return "move " + args["legal"].split(",")[0]


class Bot:
    """A correct bot named `name`; `turns` counts the turns of the current
    game, this one included. An answer method that returns None sends
    nothing."""

    def __init__(self, name):
        self.name = name
        self.turns = 0

    def hello(self):
        """The reply to the arena's `hello`."""
        return "hello version=1 name=" + self.name

    def newgame(self):
        """The reply to `newgame`."""
        return "ready"

    def turn(self, args):
        """The reply to a `turn`, given its `key=value` fields."""
        return first_legal(args)

    def play(self):
        """Reads the arena's lines until `quit` or the end of input and sends
        each answer; returns then (the script's own exit is its caller's)."""
        for line in sys.stdin:
            words = line.split()
            args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
            if words[:1] == ["hello"]:
                reply = self.hello()
            elif words[:1] == ["newgame"]:
                self.turns = 0
                reply = self.newgame()
            elif words[:1] == ["turn"]:
                self.turns += 1
                reply = self.turn(args)
            elif words[:1] == ["quit"]:
                break
            else:
                reply = None
            if reply is not None:
                send(reply)
