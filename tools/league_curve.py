#!/usr/bin/env python3
"""The league's ranking against the games it spends (issue 32's goal).

A population of N bots of known order (`arena bot alphabeta --depth D` with
`--noise` spread evenly from 0 to 1, bot 0 the strongest) plays a league
twice per seed, once paired by rating (`pairing = "rating"`) and once at
random (`pairing = "random"`), alternating, with the same seed. After
each round the ratings are compared with the noise order by Spearman's
rank correlation, and the script prints the curve of the correlation
against the games each bot has played, for both pairings, per seed and
their mean.

The ratings after round r - 1 are exact and free: `league.csv` lists, for
each pairing of round r, both bots' ratings as the round was paired (the
league's own fit of every game before it, with its virtual draws against
the population's mean), so the curve has a point for rounds 2 to R, at
2 (r - 1) games a bot: 26 rounds give the points up to 50 games a bot.
`standings.csv`'s fit after the last round (without those virtual
draws, which tell apart little once the games connect every bot) is
printed for each run beside it.

Usage (from the repository's root, after `cargo build --release -p arena`;
copy the binary first if you may rebuild while it runs, since the bots
are the arena binary itself):

    python3 tools/league_curve.py --seeds 1,2,3,4,5 --out results/curve

Runs already finished in --out are read again, not replayed, so a longer
measurement can be built up seed by seed. It also prints each league's
median rating uncertainty by round (the rating pairing's warm-up lasts
while it is above 80 Elo) and the rounds the two pairings of a seed
paired alike (the warm-up's, when it is the random control's).
Standard library only.
"""

import argparse
import csv
import os
import subprocess
import sys
import time


def config_text(method, seed, bots, rounds, depth, holes, concurrency):
    """The league's config: `bots` alphabeta bots with noise 0 to 1."""
    lines = [
        f'name = "curve-{method}-s{seed}"',
        "",
        "[board]",
        f"holes = {holes}",
        "seeds = 4",
        "",
        "[time]",
        "move_time_ms = 1000",
        "margin_ms = 50",
        "startup_ms = 30000",
        "",
        "[tournament]",
        'format = "league"',
        f'pairing = "{method}"',
        f"rounds = {rounds}",
        "max_games = 2",
        f"concurrency = {concurrency}",
        f"seed = {seed}",
        "",
        "[openings]",
        "plies_min = 2",
        "plies_max = 4",
        "",
        "[ratings]",
        "bootstrap = 0",
    ]
    for i in range(bots):
        noise = i / (bots - 1)
        lines += [
            "",
            "[[bot]]",
            f'name = "{bot_name(i)}"',
            'command = ["arena", "bot", "alphabeta", "--depth", "%d", "--seed", "%d", "--noise", "%.6f"]'
            % (depth, seed * 100_000 + i + 1, noise),
        ]
    return "\n".join(lines) + "\n"


def bot_name(i):
    """Bot i's name: its place in the noise order (0 the strongest)."""
    return f"ab-{i:05d}"


def ranks(values):
    """Average ranks (1-based) of `values`, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    k = 0
    while k < len(order):
        j = k
        while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
            j += 1
        for m in range(k, j + 1):
            out[order[m]] = (k + j) / 2 + 1
        k = j + 1
    return out


def spearman(elo):
    """Spearman's correlation of `elo` (bot i's rating) with the noise
    order (bot 0 the strongest): Pearson's correlation of the ranks, ties
    averaged; 0 when every rating is equal."""
    x = ranks([-e for e in elo])
    y = [i + 1.0 for i in range(len(elo))]
    n = len(elo)
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / (sxx * syy) ** 0.5 if sxx > 0 else 0.0


def curve(folder, bots):
    """[(games a bot, spearman)] of one finished league in `folder` from
    `league.csv`, and the (games a bot, spearman) of its `standings.csv`."""
    index = {bot_name(i): i for i in range(bots)}
    by_round = {}
    with open(os.path.join(folder, "league.csv"), newline="") as f:
        for row in csv.DictReader(f):
            r = int(row["round"])
            elo = by_round.setdefault(r, [0.0] * bots)
            elo[index[row["south"]]] = float(row["south_elo"])
            if row["north"]:
                elo[index[row["north"]]] = float(row["north_elo"])
    points = [(2 * (r - 1), spearman(by_round[r])) for r in sorted(by_round) if r > 1]
    final = [0.0] * bots
    with open(os.path.join(folder, "standings.csv"), newline="") as f:
        for row in csv.DictReader(f):
            final[index[row["bot"]]] = float(row["elo"])
    return points, (2 * max(by_round), spearman(final))


def pairings(folder):
    """{round: the set of its pairs (each a sorted pair of bot names, or
    the bye's bot alone)} of the league in `folder`, from `league.csv`."""
    by_round = {}
    with open(os.path.join(folder, "league.csv"), newline="") as f:
        for row in csv.DictReader(f):
            pair = tuple(sorted(b for b in (row["south"], row["north"]) if b))
            by_round.setdefault(int(row["round"]), set()).add(pair)
    return by_round


def median_sd(folder):
    """{round: the median rating uncertainty (Elo) of the bots with games
    as the round was paired}, from `league.csv` (the upper median of an
    even count, as the league's warm-up takes it)."""
    sds = {}
    with open(os.path.join(folder, "league.csv"), newline="") as f:
        for row in csv.DictReader(f):
            for side in ("south", "north"):
                if row[side] and int(row[f"{side}_games"]) > 0:
                    sds.setdefault(int(row["round"]), []).append(float(row[f"{side}_sd"]))
    return {r: sorted(v)[len(v) // 2] for r, v in sds.items()}


def alike_rounds(a, b):
    """The rounds from 1 that two leagues' folders paired alike."""
    pa, pb = pairings(a), pairings(b)
    r = 0
    while r + 1 in pa and pa.get(r + 1) == pb.get(r + 1):
        r += 1
    return r


def run(args, method, seed):
    """Plays (or reads again) one league; returns its folder."""
    folder = os.path.join(args.out, f"{method}-s{seed}")
    if os.path.exists(os.path.join(folder, "finished")):
        return folder, 0.0
    os.makedirs(args.out, exist_ok=True)
    config = os.path.join(args.out, f"{method}-s{seed}.toml")
    with open(config, "w") as f:
        f.write(
            config_text(
                method, seed, args.bots, args.rounds, args.depth, args.holes, args.concurrency
            )
        )
    start = time.monotonic()
    cmd = [args.arena, "run", config, "--out", folder, "--resume-if-exists", "--quiet"]
    with open(os.path.join(args.out, f"{method}-s{seed}.log"), "w") as log:
        code = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT)
    if code != 0:
        sys.exit(f"league_curve: {' '.join(cmd)} exited {code}: see its log in {args.out}")
    return folder, time.monotonic() - start


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--arena", default="target/release/arena", help="the arena binary")
    p.add_argument("--out", default="results/league-curve", help="the folder of the runs")
    p.add_argument("--seeds", default="1", help="comma separated, e.g. 1,2,3,4,5")
    p.add_argument("--methods", default="rating,random", help="the pairings, in play order")
    p.add_argument("--bots", type=int, default=256)
    p.add_argument("--rounds", type=int, default=26, help="26: points up to 50 games a bot")
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--holes", type=int, default=6)
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--csv", help="also write the curves here")
    args = p.parse_args()
    seeds = [int(s) for s in args.seeds.split(",") if s]
    methods = args.methods.split(",")
    curves = {}
    folders = {}
    for seed in seeds:
        for method in methods:
            folder, secs = run(args, method, seed)
            points, (games, final) = curve(folder, args.bots)
            curves[(method, seed)] = dict(points)
            folders[(method, seed)] = folder
            sd = median_sd(folder)
            print(
                f"# {method} seed {seed}: {secs:.0f} s; standings.csv after {games} games a bot: spearman {final:.4f}; "
                "median sd by round: " + " ".join(f"{sd[r]:.0f}" for r in sorted(sd)),
                flush=True,
            )
        if len(methods) == 2:
            alike = alike_rounds(folders[(methods[0], seed)], folders[(methods[1], seed)])
            print(f"# seed {seed}: {methods[0]} and {methods[1]} paired rounds 1 to {alike} alike", flush=True)
    budgets = sorted(set.intersection(*(set(c) for c in curves.values())))
    header = ["games_a_bot"] + [f"{m}_mean" for m in methods]
    header += [f"{m}_s{s}" for s in seeds for m in methods]
    rows = []
    for g in budgets:
        mean = [sum(curves[(m, s)][g] for s in seeds) / len(seeds) for m in methods]
        each = [curves[(m, s)][g] for s in seeds for m in methods]
        rows.append([g] + mean + each)
    print(" ".join(f"{h:>11}" for h in header))
    for row in rows:
        print(f"{row[0]:>11} " + " ".join(f"{v:>11.4f}" for v in row[1:]))
    if len(methods) == 2:
        ahead = [r[0] for r in rows if r[1] > r[2]]
        print(f"# {methods[0]} ahead of {methods[1]} (mean) at {len(ahead)} of {len(rows)} budgets")
        for m, col in zip(methods, (1, 2)):
            reach = [r[0] for r in rows if r[col] >= 0.95]
            print(f"# {m}: mean spearman >= 0.95 from {reach[0] if reach else 'no'} games a bot")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)


if __name__ == "__main__":
    main()
