#!/usr/bin/env python3
"""Synthetic games.csv files for benchmarking the ratings (issue 31).

    python3 tools/gen_games.py --bots N --games G [--pairing random|chain]
        [--width 25] [--sd 200] [--draw-rate 0.2] [--seed 0] --out DIR

writes DIR/games.csv and DIR/truth.csv. Each bot gets a true rating drawn
from N(0, sd) Elo (logistic scale); the games come in game pairs (a series
of two games, sides swapped), each game drawn from the logistic model: the
stronger side's expected score is 1 / (1 + 10^(-D/400)), a draw has
probability min(draw_rate, 2E, 2(1 - E)) and a win E - d/2 (the arena's own
bootstrap model, docs/ratings.md).

Pairings:
  random  each game pair is two distinct bots chosen uniformly;
  chain   bots are ranked by true rating and each game pair is a bot and an
          opponent at most --width ranks away (as rating lists and gauntlets
          pair them): the graph of who met whom is a long thin band, where
          iterative solvers crawl.

games.csv has the columns series, game, pair, south, north, result,
termination, and no moves: `arena rate` counts such rows without replaying
them. Bot names are `b00000`... in a shuffled order, so the file's
alphabetical order is not the rating order. truth.csv is `bot,elo`, the true
ratings centred to mean 0, for measuring a fit's error.
"""
import argparse
import csv
import os
import random


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bots", type=int, required=True)
    p.add_argument("--games", type=int, required=True, help="games (rounded up to pairs)")
    p.add_argument("--pairing", choices=["random", "chain"], default="random")
    p.add_argument("--width", type=int, default=25, help="chain: ranks apart at most")
    p.add_argument("--sd", type=float, default=200.0, help="sd of the true ratings, Elo")
    p.add_argument("--draw-rate", type=float, default=0.2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="folder for games.csv and truth.csv")
    args = p.parse_args()
    if args.bots < 2 or args.games < 1 or args.width < 1:
        p.error("need at least 2 bots, 1 game and a width of 1")
    return args


def result(rng, elo_south, elo_north, draw_rate):
    """'south', 'north' or 'draw' for one game, from the logistic model."""
    e = 1.0 / (1.0 + 10.0 ** ((elo_north - elo_south) / 400.0))
    d = min(draw_rate, 2.0 * e, 2.0 * (1.0 - e))
    u = rng.random()
    if u < e - d / 2.0:
        return "south"
    if u < e + d / 2.0:
        return "draw"
    return "north"


def main():
    a = parse()
    rng = random.Random(a.seed)
    elo = [rng.gauss(0.0, a.sd) for _ in range(a.bots)]
    mean = sum(elo) / a.bots
    elo = [x - mean for x in elo]
    ids = list(range(a.bots))
    rng.shuffle(ids)
    names = ["b%05d" % i for i in ids]
    by_rank = sorted(range(a.bots), key=lambda k: -elo[k])
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "truth.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["bot", "elo"])
        for k in sorted(range(a.bots), key=lambda k: names[k]):
            w.writerow([names[k], "%.3f" % elo[k]])
    with open(os.path.join(a.out, "games.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["series", "game", "pair", "south", "north", "result", "termination"])
        for series in range(1, (a.games + 1) // 2 + 1):
            if a.pairing == "random":
                x, y = rng.sample(range(a.bots), 2)
            else:
                r = rng.randrange(a.bots)
                s = r + rng.choice([k for k in range(-a.width, a.width + 1) if k and 0 <= r + k < a.bots])
                x, y = by_rank[r], by_rank[s]
            for game, (south, north) in ((1, (x, y)), (2, (y, x))):
                res = result(rng, elo[south], elo[north], a.draw_rate)
                w.writerow([series, game, 1, names[south], names[north], res, "no-moves"])


if __name__ == "__main__":
    main()
