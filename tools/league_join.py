#!/usr/bin/env python3
"""Bots added to a running league: do they join at once, and rank where
their strength puts them? (issue 32, "bots that come and go").

Starts `arena run` on a league of N bundled `greedy --noise` bots (noise
spread evenly from 0 to 1), waits for WARM rounds, adds ADD bots (noise
0.05, 0.15, ... by an atomic save of the config), waits for the round
they join at and AFTER more, stops the league (SIGINT) and prints each
added bot's joining round and its rank in standings.csv against the rank
its noise gives among all the bots (1 + the bots of lower noise).

    python3 tools/league_join.py [--arena target/release/arena] [--bots 64]
        [--add 10] [--warm 10] [--after 5] [--dir /tmp/league-join]

It synchronises on the run's own files only (games.csv, roster.csv).
"""
import argparse
import csv
import os
import shutil
import signal
import subprocess
import sys
import time


def bot(name, noise, seed):
    return (f'\n[[bot]]\nname = "{name}"\ncommand = ["arena", "bot", "greedy", '
            f'"--seed", "{seed}", "--noise", "{noise:.4f}"]\n')


def games(run):
    try:
        with open(os.path.join(run, "games.csv")) as f:
            text = f.read()
    except FileNotFoundError:
        return 0
    return max(0, text[: text.rfind("\n") + 1].count("\n") - 1)


def roster(run):
    try:
        with open(os.path.join(run, "roster.csv")) as f:
            return list(csv.DictReader(f))
    except FileNotFoundError:
        return []


def wait(proc, what, ready, limit=1800):
    deadline = time.monotonic() + limit
    while not ready():
        if proc.poll() is not None:
            sys.exit(f"the run ended before {what}")
        if time.monotonic() > deadline:
            sys.exit(f"not {what} in {limit} s")
        time.sleep(0.05)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--arena", default="target/release/arena")
    p.add_argument("--bots", type=int, default=64)
    p.add_argument("--add", type=int, default=10)
    p.add_argument("--warm", type=int, default=10)
    p.add_argument("--after", type=int, default=5)
    p.add_argument("--dir", default="/tmp/league-join")
    a = p.parse_args()
    shutil.rmtree(a.dir, ignore_errors=True)
    os.makedirs(a.dir)
    cfg = os.path.join(a.dir, "league.toml")
    run = os.path.join(a.dir, "run")
    head = ('[board]\nholes = 6\n[tournament]\nformat = "league"\nseed = 1\n'
            'concurrency = 2\n[ratings]\nbootstrap = 100\n')
    noise = {f"g{i + 1}": i / (a.bots - 1) for i in range(a.bots)}
    text = head + "".join(bot(n, x, i + 1) for i, (n, x) in enumerate(noise.items()))
    with open(cfg, "w") as f:
        f.write(text)
    t0 = time.monotonic()
    # The console to files: a pipe nobody reads would fill and stop the run.
    out_file = open(os.path.join(a.dir, "stdout.txt"), "w")
    err_file = open(os.path.join(a.dir, "stderr.txt"), "w")
    proc = subprocess.Popen([a.arena, "run", cfg, "--quiet", "--out", run],
                            stdout=out_file, stderr=err_file)
    per_round = a.bots // 2 * 2
    wait(proc, f"{a.warm} rounds", lambda: games(run) >= a.warm * per_round)
    added = {f"new{k + 1}": (k + 0.5) / a.add for k in range(a.add)}
    text += "".join(bot(n, x, 1000 + k) for k, (n, x) in enumerate(added.items()))
    with open(cfg + ".tmp", "w") as f:
        f.write(text)
    os.replace(cfg + ".tmp", cfg)
    t_add = time.monotonic() - t0
    played_at_add = games(run)
    wait(proc, "the added bots joined",
         lambda: sum(r["bot"] in added for r in roster(run)) == a.add)
    joined = {r["bot"]: int(r["joined"]) for r in roster(run) if r["bot"] in added}
    j = max(joined.values())
    per_new = (a.bots + a.add) // 2 * 2
    target = (j - 1) * per_round + (a.after + 1) * per_new
    wait(proc, f"{a.after} rounds after the join", lambda: games(run) >= target)
    proc.send_signal(signal.SIGINT)
    proc.wait()
    with open(os.path.join(a.dir, "stderr.txt")) as f:
        for line in f:
            if "league.toml: " in line:
                print(line.rstrip())
    elapsed = time.monotonic() - t0
    with open(os.path.join(run, "league.csv")) as f:
        league = list(csv.DictReader(f))
    first = {}
    for r in league:
        for side in ("south", "north"):
            b = r[side]
            if b in added:
                first[b] = min(first.get(b, 10**9), int(r["round"]))
    with open(os.path.join(run, "standings.csv")) as f:
        standings = list(csv.DictReader(f))
    rank = {s["bot"]: int(s["rank"]) for s in standings}
    every = {**noise, **added}
    print(f"{a.bots} bots, {a.add} added after {played_at_add} games ({t_add:.0f} s); "
          f"run stopped after {elapsed:.0f} s, {games(run)} games")
    print("bot     noise  joined(roster)  first round paired  rank  expected  off")
    offs = []
    for b, x in added.items():
        expected = 1 + sum(y < x for y in every.values())
        offs.append(abs(rank[b] - expected))
        print(f"{b:7} {x:5.2f}  {joined[b]:14}  {first.get(b, '-'):18}  {rank[b]:4}  "
              f"{expected:8}  {rank[b] - expected:+4}")
    print(f"mean |rank - expected| = {sum(offs) / len(offs):.1f} of {len(every)} bots")
    # Spearman's rho of the added bots' ranks against their noise order.
    by_rank = sorted(added, key=lambda b: rank[b])
    d2 = sum((by_rank.index(b) - k) ** 2 for k, b in enumerate(added))
    n = len(added)
    if n > 1:
        print(f"Spearman of the added bots' ranks with their noise: "
              f"{1 - 6 * d2 / (n * (n * n - 1)):.3f}")
    # The field's own spread, for scale: the same for the bots of the start.
    offs0 = [abs(rank[b] - (1 + sum(y < x for y in every.values())))
             for b, x in noise.items()]
    print(f"(the bots of the start: mean |rank - expected| = {sum(offs0) / len(offs0):.1f})")


if __name__ == "__main__":
    main()
