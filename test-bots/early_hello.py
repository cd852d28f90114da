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

from _protocol import Bot, send

once = "--once" in sys.argv
banner = sys.argv[sys.argv.index("--banner") + 1] if "--banner" in sys.argv else None


class EarlyHello(Bot):
    def hello(self):
        # With --once (and no banner) the early reply was the only one.
        return None if once and banner is None else super().hello()


bot = EarlyHello("early-hello")
if banner is None:
    send(Bot.hello(bot))  # the early reply: the correct one, unasked
else:
    # The banner's bytes, with Python's escapes (\xff) read as bytes, so
    # that it can send a line that is not UTF-8.
    sys.stdout.buffer.write(codecs.escape_decode(banner.encode())[0] + b"\n")
    sys.stdout.buffer.flush()
bot.play()
