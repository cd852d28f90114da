#!/usr/bin/env python3
"""`arena rate` against Ordo on synthetic games, side by side (issue 31).

    python3 tools/ratings_bench.py ORDO [--arena PATH] [--work DIR]
        [--sets NAME,...] [--repeat 1]

For each set (bots, games, pairing) it writes games.csv and truth.csv with
tools/gen_games.py (kept in --work and reused), converts games.csv to PGN
for Ordo (Ordo reads only PGN: one game per record, the seven-tag roster
reduced to White, Black and Result; south is White, which does not matter
with Ordo's default white advantage of 0), and runs, interleaved, under
`/usr/bin/time -v`:

  arena-default  `arena rate` with its default intervals (1,000 bootstrap
                 samples, the default prior of 1 virtual draw per pair);
  arena-noprior  `arena rate --prior-draws 0 --bootstrap 0` (the fit alone,
                 without the prior, for the comparison with Ordo);
  ordo           `ordo -p games.pgn -a 0 -z 200.2409 -M -N 3 -q -c ordo.csv`,
                 Ordo's maximum-likelihood fit without error bars (no -s).

It prints per set and program the wall time and the peak memory (Maximum
resident set size), and for the fits: the largest |arena - Ordo|
difference in Elo (both shifted to mean 0 over the bots they rate), and
each fit's RMSE against the true ratings (also mean 0). Ordo's scale is
set to the logistic Elo scale (`-z 200.2409`: the difference for a 76%
expectancy; Ordo's default, 202, stretches every rating by 0.9%), and its
ratings are written with 3 decimals (`-N 3`).

CI does not run this script; it needs Ordo built from source
(https://github.com/michiguel/Ordo, `make`) and a release build of the
arena (`cargo build --release -p arena`).
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys
import time

# Ordo's -z: the rating difference for a 76% expectancy on the logistic Elo
# scale, 400 log10(0.76 / 0.24) (Ordo's default, 202, is 0.9% wider).
ORDO_SCALE = "%.6f" % (400 * math.log10(0.76 / 0.24))

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (bots, games, pairing)
SETS = {
    "1k-100k-random": (1000, 100_000, "random"),
    "2k-100k-chain": (2000, 100_000, "chain"),
    "2k-1m-random": (2000, 1_000_000, "random"),
    "2k-1m-chain": (2000, 1_000_000, "chain"),
    "10k-1m-random": (10_000, 1_000_000, "random"),
    "10k-1m-chain": (10_000, 1_000_000, "chain"),
}


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("ordo", help="path of the ordo executable")
    p.add_argument("--arena", default=os.path.join(ROOT, "target", "release", "arena"))
    p.add_argument("--work", default="/tmp/ratings_bench", help="folder for the generated sets")
    p.add_argument("--sets", default=",".join(SETS), help="comma-separated, from: " + ", ".join(SETS))
    p.add_argument("--repeat", type=int, default=1, help="runs of each program per set")
    p.add_argument("--no-ordo", default="", help="comma-separated sets to run without Ordo (its chain fits take minutes)")
    a = p.parse_args()
    for name in a.sets.split(",") + [s for s in a.no_ordo.split(",") if s]:
        if name not in SETS:
            p.error(f"unknown set {name!r}: choose from {', '.join(SETS)}")
    for path, what in ((a.ordo, "ordo"), (a.arena, "arena")):
        if not os.access(path, os.X_OK):
            p.error(f"{what} is not an executable at {path}")
    if not os.access("/usr/bin/time", os.X_OK):
        p.error("needs /usr/bin/time (GNU time, Debian's package time) for the peak memory")
    return a


def generate(work, name):
    """The set's folder, generated once."""
    bots, games, pairing = SETS[name]
    folder = os.path.join(work, name)
    if not os.path.exists(os.path.join(folder, "games.pgn")):
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "tools", "gen_games.py"), "--bots", str(bots),
             "--games", str(games), "--pairing", pairing, "--seed", "1", "--out", folder],
            check=True,
        )
        to_pgn(os.path.join(folder, "games.csv"), os.path.join(folder, "games.pgn"))
    return folder


def to_pgn(games_csv, pgn):
    """games.csv (south, north, result) as PGN for Ordo."""
    result = {"south": "1-0", "north": "0-1", "draw": "1/2-1/2"}
    with open(games_csv, newline="") as f, open(pgn + ".tmp", "w") as out:
        for row in csv.DictReader(f):
            r = result[row["result"]]
            out.write(f'[White "{row["south"]}"]\n[Black "{row["north"]}"]\n[Result "{r}"]\n\n{r}\n\n')
    os.replace(pgn + ".tmp", pgn)


def timed(command, cwd):
    """(wall seconds, peak resident MB) of `command` under /usr/bin/time -v."""
    start = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-v", *command], cwd=cwd, capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    return wall, int(rss.group(1)) / 1024 if rss else float("nan")


def centred(ratings):
    mean = sum(ratings.values()) / len(ratings)
    return {k: v - mean for k, v in ratings.items()}


def arena_ratings(folder):
    with open(os.path.join(folder, "standings.csv"), newline="") as f:
        return centred({r["bot"]: float(r["elo"]) for r in csv.DictReader(f) if r["elo"]})


def ordo_ratings(path):
    # Ordo's CSV: "#","PLAYER","RATING","ERROR","POINTS","PLAYED","(%)"
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = [h.strip().upper() for h in rows[0]]
    player, rating = head.index("PLAYER"), head.index("RATING")
    return centred({r[player].strip(): float(r[rating]) for r in rows[1:] if r})


def truth(folder):
    with open(os.path.join(folder, "truth.csv"), newline="") as f:
        return {r["bot"]: float(r["elo"]) for r in csv.DictReader(f)}


def rmse(fit, true):
    common = [k for k in fit if k in true]
    shift = sum(true[k] for k in common) / len(common)
    return math.sqrt(sum((fit[k] - (true[k] - shift)) ** 2 for k in common) / len(common))


def bench(a, name):
    folder = generate(a.work, name)
    runs = {
        "arena-default": [a.arena, "rate", "games.csv", "--out", "arena-default"],
        "arena-noprior": [a.arena, "rate", "games.csv", "--prior-draws", "0",
                          "--bootstrap", "0", "--out", "arena-noprior"],
        "ordo": [a.ordo, "-p", "games.pgn", "-a", "0", "-z", ORDO_SCALE, "-M", "-q", "-N", "3",
                 "-c", "ordo.csv"],
    }
    if name in a.no_ordo.split(","):
        del runs["ordo"]
    figures = {k: [] for k in runs}
    for _ in range(a.repeat):
        for key, command in runs.items():  # interleaved
            figures[key].append(timed(command, folder))
    true = truth(folder)
    fits = {
        "arena-default": arena_ratings(os.path.join(folder, "arena-default")),
        "arena-noprior": arena_ratings(os.path.join(folder, "arena-noprior")),
    }
    if "ordo" in runs:
        fits["ordo"] = ordo_ratings(os.path.join(folder, "ordo.csv"))
    bots, games, pairing = SETS[name]
    print(f"\n{name}: {bots} bots, {games} games, {pairing} pairings ({folder})")
    for key in runs:
        walls = ", ".join(f"{w:.2f}" for w, _ in figures[key])
        rss = max(m for _, m in figures[key])
        print(f"  {key:14} {walls} s  peak {rss:7.0f} MB  RMSE vs truth {rmse(fits[key], true):6.2f} Elo")
    if "ordo" in fits:
        common = [k for k in fits["ordo"] if k in fits["arena-noprior"]]
        gap = max(abs(fits["arena-noprior"][k] - fits["ordo"][k]) for k in common)
        print(f"  max |arena --prior-draws 0 - Ordo| = {gap:.3f} Elo over {len(common)} bots")
    sys.stdout.flush()


def main():
    a = parse()
    os.makedirs(a.work, exist_ok=True)
    for name in a.sets.split(","):
        bench(a, name)


if __name__ == "__main__":
    main()
