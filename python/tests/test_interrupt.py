"""Ctrl-C reaches a long batch call (issue 19): `playouts` works in chunks,
takes the GIL back between them and checks for signals, so a SIGINT to a
process inside `playouts(4 * 10**18)` raises KeyboardInterrupt at once."""

import signal
import subprocess
import sys
import time

from conftest import REPO

SCRIPT = r"""
import sys
import endodoi
pos = endodoi.Rules(8, 4).start()
try:
    print("started", flush=True)
    pos.playouts(4 * 10**18)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def test_sigint_interrupts_playouts():
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], cwd=str(REPO / "rules"),
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "started\n"
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        took = time.monotonic() - sent
        assert code == 3, "playouts did not stop within 5 s of one SIGINT"
        assert proc.stdout.readline() == "interrupted\n"
        # About 100 ms on an idle machine; a generous bound for a loaded one.
        assert took < 2.0, "KeyboardInterrupt came %.2f s after SIGINT" % took
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
