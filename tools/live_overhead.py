#!/usr/bin/env python3
"""What watching a run live costs its games: time per ply with 0, 1 and 100
clients of `arena run --serve`, standard library only.

    python3 tools/live_overhead.py [--rounds 5] [--games 300] [--clients 0,1,100] [--holes 40] [--seeds 8]

Plays the same fast match (greedy against random, a fixed number of games,
one game at a time, on 2x40 with 8 seeds: long games, so that duration_ms,
whole milliseconds, is not rounded away) again and again, in interleaved rounds: each round runs
every setting once, in an order rotated from round to round, so that a
change in the machine's load falls on every setting alike. The settings:
no --serve at all, then --serve with each number of clients. A client is a
real HTTP client on its own socket that asks for /events and reads the
stream as it comes (all of them in one thread of this script, with
`selectors`). The arena and its bots are pinned to one core and the clients
to the others where the machine has more than one (os.sched_setaffinity).

A run's time per ply is the sum of games.csv's duration_ms over the sum of
its plies, leaving out its first --skip games (the bots' start, and the
clients connecting: the script checks they were all reading before the
first counted game ended). It prints each setting's median over the rounds,
its range, and the ratio to --serve with no clients and to no --serve.
Exit status 0 when it measured; 1 when a run failed or a client was not
connected in time.
"""

import argparse
import csv
import os
import select
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
URL_PREFIX = "arena: live view at http://"
DEADLINE_S = 600.0

CONFIG = """name = "overhead"
[board]
holes = {holes}
seeds = {seeds}
[tournament]
first_to = {games}
max_games = {games}
concurrency = 1
seed = 7
[[bot]]
name = "greedy"
command = ["arena", "bot", "greedy", "--seed", "1"]
[[bot]]
name = "random"
command = ["arena", "bot", "random", "--seed", "2"]
"""


class Failed(Exception):
    """A run could not be measured."""


class Clients:
    """`count` SSE clients of `addr`, read in one thread until their
    streams end."""

    def __init__(self, addr, count):
        self.sel = selectors.DefaultSelector()
        self.bytes = [0] * count
        self.first = [b""] * count
        self.snapshot_at = [None] * count
        self.open = count
        host, port = addr.rsplit(":", 1)
        for i in range(count):
            s = socket.create_connection((host, int(port)), timeout=30)
            s.sendall(f"GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n".encode())
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ, i)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while self.open:
            for key, _ in self.sel.select(timeout=1.0):
                i = key.data
                try:
                    chunk = key.fileobj.recv(1 << 16)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    self.sel.unregister(key.fileobj)
                    key.fileobj.close()
                    self.open -= 1
                    continue
                self.bytes[i] += len(chunk)
                if self.snapshot_at[i] is None:
                    self.first[i] = (self.first[i] + chunk)[:4096]
                    if b"event: snapshot" in self.first[i] or b"event:snapshot" in self.first[i]:
                        self.snapshot_at[i] = time.monotonic()

    def all_reading(self):
        return all(t is not None for t in self.snapshot_at)

    def close(self):
        for key in list(self.sel.get_map().values()):
            try:
                key.fileobj.close()
            except OSError:
                pass
        self.open = 0


def rows_in(path):
    try:
        with open(path, newline="") as f:
            return max(sum(1 for _ in f) - 1, 0)
    except FileNotFoundError:
        return 0


def pin(cpus):
    """A preexec_fn pinning the child to `cpus` (when there are any)."""
    def go():
        if cpus:
            os.sched_setaffinity(0, cpus)
    return go


def one_run(arena, cfg, out, clients, serve, skip, arena_cpus):
    """Plays the match once; its ms per ply and what the clients read."""
    cmd = [arena, "run", str(cfg), "--out", str(out), "--quiet"]
    if serve:
        cmd += ["--serve", "127.0.0.1:0"]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, preexec_fn=pin(arena_cpus))
    err = b""
    readers = None
    late = None
    try:
        if serve:
            deadline = start + 60
            while URL_PREFIX.encode() not in err:
                left = deadline - time.monotonic()
                if left <= 0 or proc.poll() is not None:
                    raise Failed(f"no URL line: {err.decode(errors='replace')}")
                ready, _, _ = select.select([proc.stderr], [], [], left)
                if ready:
                    chunk = os.read(proc.stderr.fileno(), 4096)
                    if not chunk:
                        raise Failed(f"no URL line: {err.decode(errors='replace')}")
                    err += chunk
            line = err.decode().split(URL_PREFIX, 1)[1].split("\n", 1)[0]
            addr = line.rstrip("/")
            if clients:
                readers = Clients(addr, clients)
                deadline = time.monotonic() + 60
                while not readers.all_reading():
                    if time.monotonic() > deadline:
                        raise Failed("the clients got no snapshot within 60 s")
                    time.sleep(0.005)
                late = rows_in(out / "games.csv")
                if late >= skip:
                    raise Failed(f"the clients were reading only after {late} games "
                                 f"(raise --skip above it)")
        _, rest = proc.communicate(timeout=DEADLINE_S)
        err += rest or b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if readers:
            readers.thread.join(timeout=10)
            readers.close()
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise Failed(f"arena run exited {proc.returncode}: {err.decode(errors='replace')[-2000:]}")
    with open(out / "games.csv", newline="") as f:
        games = list(csv.DictReader(f))[skip:]
    ms = sum(int(g["duration_ms"]) for g in games)
    plies = sum(int(g["plies"]) for g in games)
    read = readers.bytes if readers else []
    return {"ms_per_ply": ms / plies, "plies": plies, "games": len(games), "wall": wall,
            "read": read}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=300, help="games per run")
    ap.add_argument("--holes", type=int, default=40)
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--clients", default="0,1,100", help="the numbers of clients, comma-separated")
    ap.add_argument("--skip", type=int, default=10, help="first games of a run left out")
    ap.add_argument("--arena", type=Path, help="the arena binary (default: build target/release/arena)")
    args = ap.parse_args()

    arena = args.arena
    if arena is None:
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "arena"], cwd=REPO, check=True)
        target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
        arena = target / "release" / "arena"
    arena = str(Path(arena).resolve())
    counts = [int(c) for c in args.clients.split(",")]
    settings = [("no --serve", False, 0)] + [(f"{c} client{'s' if c != 1 else ''}", True, c)
                                              for c in counts]
    cpus = sorted(os.sched_getaffinity(0))
    arena_cpus = {cpus[0]} if len(cpus) > 1 else set()
    if len(cpus) > 1:
        os.sched_setaffinity(0, set(cpus[1:]))  # this script and its clients
    where = (f"the arena and its bots on CPU {cpus[0]}, the clients on {cpus[1:]}"
             if arena_cpus else "one CPU: nothing pinned")
    print(f"live overhead: {args.rounds} rounds of {len(settings)} runs, {args.games} games of "
          f"greedy against random on 2x{args.holes} ({args.seeds} seeds), first {args.skip} "
          f"left out; {where}", flush=True)
    results = {name: [] for name, _, _ in settings}
    with tempfile.TemporaryDirectory(prefix="live-overhead-") as tmp:
        tmp = Path(tmp)
        cfg = tmp / "overhead.toml"
        cfg.write_text(CONFIG.format(holes=args.holes, seeds=args.seeds, games=args.games))
        for r in range(args.rounds):
            order = settings[r % len(settings):] + settings[:r % len(settings)]
            for name, serve, clients in order:
                out = tmp / f"run-{r}-{clients}-{int(serve)}"
                try:
                    res = one_run(arena, cfg, out, clients, serve, args.skip, arena_cpus)
                except Failed as e:
                    print(f"FAILED: round {r + 1}, {name}: {e}", file=sys.stderr)
                    return 1
                results[name].append(res)
                extra = ""
                if res["read"]:
                    extra = (f", each client read {min(res['read']) / 1e3:.0f} to "
                             f"{max(res['read']) / 1e3:.0f} kB")
                print(f"  round {r + 1} {name:>11}: {res['ms_per_ply'] * 1000:7.1f} us/ply over "
                      f"{res['plies']} plies, run {res['wall']:.1f} s{extra}", flush=True)
    medians = {name: statistics.median(x["ms_per_ply"] for x in rs) for name, rs in results.items()}
    base = medians.get("0 clients")
    bare = medians["no --serve"]
    print()
    print("| setting | ms per ply (median) | range over rounds | vs 0 clients | vs no --serve |")
    print("|---|---|---|---|---|")
    for name, rs in results.items():
        m = medians[name]
        lo = min(x["ms_per_ply"] for x in rs)
        hi = max(x["ms_per_ply"] for x in rs)
        ratio = f"{m / base:.3f}" if base else "-"
        print(f"| {name} | {m:.4f} | {lo:.4f} to {hi:.4f} | {ratio} | {m / bare:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
