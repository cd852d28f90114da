#!/usr/bin/env python3
"""Each test bot, fed a scripted exchange, shows its one fault and nothing else:
python3 test-bots/test_test_bots.py"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = ("hello version=1\n"
          "newgame holes=3 seeds=1 side=south move_time_ms=1000 base_time_ms=0 increment_ms=0 "
          "max_plies=1000 max_laps=100000\n"
          "turn mine=1,0,1 theirs=1,1,1 captured=0,0 last=none legal=1,3 ply=0 time_ms=1000\n"
          "turn mine=2,0,1 theirs=0,1,1 captured=0,0 last=1 legal=1,3 ply=2 time_ms=1000\n"
          "gameover result=win mine=4 theirs=2 reason=no-moves\n"
          "quit\n")


def run(bot, *args, where=HERE):
    out = subprocess.run([sys.executable, os.path.join(where, bot), *args], input=SCRIPT,
                         capture_output=True, text=True, timeout=60)
    return out.returncode, out.stdout.splitlines(), out.stderr


# The fault bots, each a script that imports the shared loop _protocol.py.
BOTS = sorted(f for f in os.listdir(HERE)
              if f.endswith(".py") and not f.startswith(("_", "test_")))


def start(name):
    return ["hello version=1 name=" + name, "ready"]


class TestBots(unittest.TestCase):
    def test_crash(self):
        self.assertEqual(run("crash.py")[:2], (3, start("crash") + ["move 1"]))
        self.assertEqual(run("crash.py", "--at", "1")[:2], (3, start("crash")))

    def test_illegal(self):
        self.assertEqual(run("illegal.py")[:2], (0, start("illegal") + ["move 2", "move 2"]))
        self.assertEqual(run("illegal.py", "--hole", "0")[1][2:], ["move 0", "move 0"])

    def test_garbage(self):
        self.assertEqual(run("garbage.py")[:2], (0, start("garbage") + ["hello there"] * 2))
        self.assertEqual(run("garbage.py", "--reply", "move")[1][2:], ["move"] * 2)

    def test_hang(self):
        self.assertEqual(run("hang.py")[:2], (0, start("hang")))
        self.assertEqual(run("hang.py", "--at", "2")[:2], (0, start("hang") + ["move 1"]))

    def test_slow_start(self):
        self.assertEqual(run("slow_start.py")[:2], (0, []))
        self.assertEqual(run("slow_start.py", "--delay-ms", "1")[:2],
                         (0, ["hello version=1 name=slow-start", "ready", "move 1", "move 1"]))

    def test_linger(self):
        self.assertEqual(run("linger.py", "--linger-ms", "0")[:2],
                         (0, start("linger") + ["move 1", "move 1"]))

    def test_early_hello(self):
        hello = "hello version=1 name=early-hello"
        self.assertEqual(run("early_hello.py")[:2],
                         (0, [hello] + start("early-hello") + ["move 1", "move 1"]))
        self.assertEqual(run("early_hello.py", "--once")[:2],
                         (0, start("early-hello") + ["move 1", "move 1"]))
        self.assertEqual(run("early_hello.py", "--banner", "EarlyBot 1.0")[1][:2],
                         ["EarlyBot 1.0", hello])

    def test_info_spam(self):
        code, lines, err = run("info_spam.py")
        self.assertEqual(code, 0)
        self.assertEqual([l for l in lines if not l.startswith("info ")],
                         start("info-spam") + ["move 1", "move 1"])
        self.assertEqual(len([l for l in lines if l.startswith("info ")]), 10)
        self.assertIn("info move 4", lines)
        self.assertEqual(len(err), 2000000)


# Arguments that keep a bot's exchange short.
QUICK = {"linger.py": ["--linger-ms", "0"], "info_spam.py": ["--stderr-bytes", "100"]}


class CopiedBots(unittest.TestCase):
    """A bot copied out of this folder (as the arena's tests copy them, or a
    user who takes one) needs _protocol.py beside it."""

    def test_a_bot_copied_with_the_loop_plays_as_here(self):
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(os.path.join(HERE, "_protocol.py"), tmp)
            for bot in BOTS:
                # linger.py would wait a minute; info_spam.py need not write 1 MB.
                args = QUICK.get(bot, [])
                shutil.copy(os.path.join(HERE, bot), tmp)
                self.assertEqual(run(bot, *args, where=tmp), run(bot, *args), bot)

    def test_a_bot_copied_alone_names_the_missing_loop(self):
        with tempfile.TemporaryDirectory() as tmp:
            for bot in BOTS:
                shutil.copy(os.path.join(HERE, bot), tmp)
                code, lines, err = run(bot, where=tmp)
                self.assertEqual((code, lines), (1, []), bot)
                self.assertIn("No module named '_protocol'", err, bot)


if __name__ == "__main__":
    unittest.main()
