#!/usr/bin/env python3
"""Bots added to a running league: do they join at once, and rank where
their strength puts them? (issue 32, "bots that come and go").

Starts `arena run` on a league of N bundled `greedy --noise` bots (noise
spread evenly from 0 to 1), waits for WARM rounds, adds ADD bots (noise
0.05, 0.15, ... by an atomic save of the config), waits for the round
they join at (J) and AFTER more, stops the league (SIGINT) and prints each
added bot's joining round and its rank against the rank its noise gives
among all the bots (1 + the bots of lower noise), from the games of the
rounds up to J + AFTER (league.csv's rounds; `arena rate` of those games,
so that the games of the round that began before the stop do not count).
AFTER may be a list (`5,15`): one league, one measure at each.

    python3 tools/league_join.py [--arena target/release/arena] [--bots 64]
        [--add 10] [--warm 10] [--after 5[,15]] [--catch-up K]
        [--seed 1] [--dir /tmp/league-join]

`--catch-up K` sets `[tournament] catch_up` (the league's default when
not given). It synchronises on the run's own files only (games.csv,
roster.csv, the console's round lines).
"""
import argparse
import csv
import os
import re
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


def console_rounds(paths):
    """The last round the console announced (`arena: league round R`)."""
    found = []
    for path in paths:
        try:
            with open(path) as f:
                found += re.findall(r"^arena: league round (\d+)", f.read(), re.M)
        except FileNotFoundError:
            pass
    return max(map(int, found), default=0)


def ranks_at(arena, run, cut, where):
    """The ranks of the bots from the games of rounds 1 to `cut` (by
    league.csv), rated by `arena rate` into `where`; and each bot's games."""
    with open(os.path.join(run, "league.csv")) as f:
        rounds = {r["series"]: int(r["round"]) for r in csv.DictReader(f) if r["series"]}
    os.makedirs(where, exist_ok=True)
    with open(os.path.join(run, "games.csv")) as f:
        lines = f.read().splitlines(keepends=True)
    header, rows = lines[0], [l for l in lines[1:] if l.endswith("\n")]
    kept = [l for l, r in zip(rows, csv.DictReader([header] + rows))
            if rounds.get(r["series"], 10**9) <= cut]
    with open(os.path.join(where, "games.csv"), "w") as f:
        f.write(header + "".join(kept))
    subprocess.run([arena, "rate", os.path.join(where, "games.csv"), "--out", where],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(where, "standings.csv")) as f:
        standings = list(csv.DictReader(f))
    return ({s["bot"]: int(s["rank"]) for s in standings},
            {s["bot"]: int(s["games"]) for s in standings})


def report(rank, games, noise, added, joined, first, cut):
    every = {**noise, **added}
    expect = {b: 1 + sum(y < x for y in every.values()) for b, x in every.items()}
    print(f"\nafter round {cut}:")
    print("bot     noise  joined(roster)  first round paired  games  rank  expected  off")
    offs = []
    for b, x in added.items():
        offs.append(abs(rank[b] - expect[b]))
        print(f"{b:7} {x:5.2f}  {joined[b]:14}  {first.get(b, '-'):18}  {games[b]:5}  "
              f"{rank[b]:4}  {expect[b]:8}  {rank[b] - expect[b]:+4}")
    start_games = sorted(games[b] for b in noise)
    print(f"mean |rank - expected| = {sum(offs) / len(offs):.1f} of {len(every)} bots; "
          f"median games: added {sorted(games[b] for b in added)[len(added) // 2]}, "
          f"the start's {start_games[len(start_games) // 2]}")
    # Spearman's rho of the added bots' ranks against their noise order.
    by_rank = sorted(added, key=lambda b: rank[b])
    d2 = sum((by_rank.index(b) - k) ** 2 for k, b in enumerate(added))
    n = len(added)
    if n > 1:
        print(f"Spearman of the added bots' ranks with their noise: "
              f"{1 - 6 * d2 / (n * (n * n - 1)):.3f}")
    # The field's own spread, for scale: the same for the bots of the start.
    offs0 = [abs(rank[b] - expect[b]) for b in noise]
    print(f"(the bots of the start: mean |rank - expected| = {sum(offs0) / len(offs0):.1f})")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--arena", default="target/release/arena")
    p.add_argument("--bots", type=int, default=64)
    p.add_argument("--add", type=int, default=10)
    p.add_argument("--warm", type=int, default=10)
    p.add_argument("--after", default="5")
    p.add_argument("--catch-up", type=int)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dir", default="/tmp/league-join")
    a = p.parse_args()
    afters = sorted(int(x) for x in a.after.split(","))
    shutil.rmtree(a.dir, ignore_errors=True)
    os.makedirs(a.dir)
    cfg = os.path.join(a.dir, "league.toml")
    run = os.path.join(a.dir, "run")
    catch_up = "" if a.catch_up is None else f"catch_up = {a.catch_up}\n"
    # Generous limits: on a loaded machine the start-up check of 256 bots
    # at once outlasts the default 5 s, and an instant bot must not lose on
    # time to the scheduler.
    head = ('[board]\nholes = 6\n[time]\nmove_time_ms = 5000\nstartup_ms = 60000\n'
            '[tournament]\nformat = "league"\n'
            f'seed = {a.seed}\nconcurrency = 2\n{catch_up}[ratings]\nbootstrap = 100\n')
    noise = {f"g{i + 1}": i / (a.bots - 1) for i in range(a.bots)}
    text = head + "".join(bot(n, x, i + 1) for i, (n, x) in enumerate(noise.items()))
    with open(cfg, "w") as f:
        f.write(text)
    t0 = time.monotonic()
    # The console to files: a pipe nobody reads would fill and stop the run.
    out_path = os.path.join(a.dir, "stdout.txt")
    err_path = os.path.join(a.dir, "stderr.txt")
    out_file = open(out_path, "w")
    err_file = open(err_path, "w")
    # Not --quiet: the console's round lines say when a round is over.
    proc = subprocess.Popen([a.arena, "run", cfg, "--out", run],
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
    # The round after the last measured one announced: that one is over.
    last = j + afters[-1]
    wait(proc, f"{afters[-1]} rounds after the join",
         lambda: console_rounds([out_path, err_path]) > last, limit=7200)
    proc.send_signal(signal.SIGINT)
    proc.wait()
    for path in (out_path, err_path):
        with open(path) as f:
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
    print(f"{a.bots} bots, {a.add} added after {played_at_add} games ({t_add:.0f} s); "
          f"catch_up {a.catch_up if a.catch_up is not None else 'default'}; "
          f"run stopped after {elapsed:.0f} s, {games(run)} games")
    for after in afters:
        cut = j + after
        rank, played = ranks_at(a.arena, run, cut, os.path.join(a.dir, f"cut{cut}"))
        report(rank, played, noise, added, joined, first, cut)


if __name__ == "__main__":
    main()
