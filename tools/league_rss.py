#!/usr/bin/env python3
"""The arena's memory over the rounds of a real league (issue 32's scale goal).

Plays a league of N instant bots (`arena bot first`, which plays its first
legal move at once, so the run measures the arena, not the bots) and
samples the arena process's resident set size (`VmRSS` of
/proc/PID/status, Linux) twice a second, beside the rows of its
`games.csv`. Prints the RSS when rounds 1, 10 and 50 (or --checkpoints)
are complete (every game of the round in games.csv), and the peak
(`VmHWM`) at the end of the games.

Usage (from the repository's root, after `cargo build --release -p arena`):

    python3 tools/league_rss.py --bots 500 --out /tmp/league-rss

Standard library only; Linux only (it reads /proc).
"""

import argparse
import os
import subprocess
import sys
import time


def config_text(bots, rounds):
    lines = [
        'name = "league-rss"',
        "",
        "[board]",
        "holes = 6",
        "seeds = 4",
        "",
        "[time]",
        "startup_ms = 30000",
        "",
        "[tournament]",
        'format = "league"',
        f"rounds = {rounds}",
        "concurrency = 2",
        "seed = 1",
        "",
        "[ratings]",
        "bootstrap = 0",
    ]
    for i in range(bots):
        lines += ["", "[[bot]]", f'name = "b{i:05d}"', 'command = ["arena", "bot", "first"]']
    return "\n".join(lines) + "\n"


def status(pid, key):
    """`key` of /proc/PID/status, KiB; None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def rows(path):
    """The data rows of a CSV file so far (0 before it exists)."""
    try:
        with open(path, "rb") as f:
            return max(sum(1 for _ in f) - 1, 0)
    except OSError:
        return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--arena", default="target/release/arena")
    p.add_argument("--bots", type=int, default=500)
    p.add_argument("--checkpoints", default="1,10,50")
    p.add_argument("--out", default="results/league-rss")
    args = p.parse_args()
    checkpoints = [int(c) for c in args.checkpoints.split(",")]
    os.makedirs(args.out, exist_ok=True)
    config = os.path.join(args.out, "league-rss.toml")
    with open(config, "w") as f:
        f.write(config_text(args.bots, max(checkpoints)))
    run = os.path.join(args.out, "run")
    games = os.path.join(run, "games.csv")
    per_round = args.bots // 2 * 2
    start = time.monotonic()
    log = open(os.path.join(args.out, "arena.log"), "w")
    arena = subprocess.Popen(
        [args.arena, "run", config, "--out", run, "--quiet"], stdout=log, stderr=subprocess.STDOUT
    )
    seen, peak = {}, None
    while arena.poll() is None:
        rss, hwm, done = status(arena.pid, "VmRSS"), status(arena.pid, "VmHWM"), rows(games)
        if hwm is not None:
            peak = hwm
        for c in checkpoints:
            if c not in seen and done >= c * per_round and rss is not None:
                seen[c] = (rss, done, time.monotonic() - start)
                print(f"round {c}: RSS {rss / 1024:.1f} MiB ({done} games, {seen[c][2]:.0f} s)", flush=True)
        time.sleep(0.5)
    if arena.returncode != 0:
        sys.exit(f"league_rss: the arena exited {arena.returncode}: see {args.out}/arena.log")
    print(f"peak (VmHWM) at the last sample: {peak / 1024:.1f} MiB; {rows(games)} games in {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
