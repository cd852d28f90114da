#!/usr/bin/env python3
"""early_hello.py [--once] [--banner TEXT]: writes its `hello` reply as soon
as it starts, before it is asked, and again when the arena's `hello` comes
(so the arena sees two). With --once it does not answer the asked `hello`
(the early line is its only one); with --banner it writes TEXT at start
instead of the early reply (escapes such as \\xff read as bytes, so it
may not be UTF-8), then answers `hello` once, as asked. Otherwise correct:
it plays the first legal hole.
Expected termination: normal results (the extra lines are skipped)."""
import codecs
import sys

once = "--once" in sys.argv
banner = sys.argv[sys.argv.index("--banner") + 1] if "--banner" in sys.argv else None
HELLO = "hello version=1 name=early-hello"


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


if banner is None:
    send(HELLO)
else:
    # The banner's bytes, with Python's escapes (\xff) read as bytes, so
    # that it can send a line that is not UTF-8.
    sys.stdout.buffer.write(codecs.escape_decode(banner.encode())[0] + b"\n")
    sys.stdout.buffer.flush()
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["hello"]:
        if banner is not None or not once:
            send(HELLO)
    elif words[:1] == ["newgame"]:
        send("ready")
    elif words[:1] == ["turn"]:
        args = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        send("move " + args["legal"].split(",")[0])
    elif words[:1] == ["quit"]:
        break
