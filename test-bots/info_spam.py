#!/usr/bin/env python3
"""info_spam.py [--infos K] [--stderr-bytes N]: a correct bot (first legal
hole) that, before each move, writes N bytes to stderr (default 1 MB) and
sends K `info` lines (default 5), some shaped like moves (`info move 99`).
Checks that info lines are never taken as replies and that a full stderr pipe
never blocks the bot: it should play every game to a normal end."""
import sys

from _protocol import Bot, first_legal, send

argv = sys.argv[1:]
infos = int(argv[argv.index("--infos") + 1]) if "--infos" in argv else 5
noise = int(argv[argv.index("--stderr-bytes") + 1]) if "--stderr-bytes" in argv else 1000000
chunk = ("e" * 99 + "\n") * (noise // 100) + "e" * (noise % 100)


class InfoSpam(Bot):
    def turn(self, args):
        sys.stderr.write(chunk)
        sys.stderr.flush()
        n = len(args["mine"].split(","))
        for i in range(infos):
            send("info move %d" % (n + 1) if i % 2 == 0 else "info thinking %d of %d" % (i, infos))
        return first_legal(args)


InfoSpam("info-spam").play()
