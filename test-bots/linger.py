#!/usr/bin/env python3
"""linger.py [--linger-ms N]: plays the first legal hole, but after `quit` or
the end of its input it stays N ms more (default 60000) before it exits, so
the arena has to end it with SIGTERM. It blocks in sleep, never busy-waits.
Expected: normal results in a tournament; `arena check` fails its quit check."""
import sys
import time

from _protocol import Bot

linger_ms = int(sys.argv[2]) if sys.argv[1:2] == ["--linger-ms"] else 60000

Bot("linger").play()
time.sleep(linger_ms / 1000)
