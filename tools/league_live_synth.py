#!/usr/bin/env python3
"""A synthetic league run folder for measuring the live view at scale
(docs/live.md, "A league of 10,000 bots"):

    python3 tools/league_live_synth.py N ROUNDS DIR

N bots `bot00000`..., ROUNDS rounds, each pairing every bot once (one game
pair a pairing, results drawn from hidden strengths), written as a league
run would: config.toml, games.csv, league.csv (the pairing ratings an Elo
update gives), roster.csv (every 50th bot retired after ROUNDS - 1) and
the `finished` marker. The games replay (one fixed game's moves), their
results do not follow the moves: it is for sizes and times, not a
tournament. Then: python3 tools/league_live_measure.py ARENA DIR.
"""
import os
import random
import sys

N, R, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
os.makedirs(out, exist_ok=True)
rnd = random.Random(1)
names = [f"bot{i:05d}" for i in range(N)]
with open(f"{out}/config.toml", "w") as f:
    f.write(f'name = "big"\n[board]\nholes = 6\n[tournament]\nformat = "league"\nrounds = {R}\nseed = 1\n[ratings]\nbootstrap = 100\n')
    for n in names:
        f.write(f'[[bot]]\nname = "{n}"\ncommand = ["arena", "bot", "random"]\n')
strength = {n: rnd.gauss(0, 200) for n in names}
elo = {n: 0.0 for n in names}
moves = "4 4 5 1 6 1 1 6 3 2 6 4 4 4 6 6 1 3 1 6 4 4 3 2 5 5 1 6 1"
g = open(f"{out}/games.csv", "w")
g.write("series,game,pair,opening,south,north,holes,seeds,max_laps,max_plies,moves,plies,south_seeds,north_seeds,result,termination,detail,duration_ms\n")
l = open(f"{out}/league.csv", "w")
l.write("round,series,south,north,south_elo,south_sd,south_games,north_elo,north_sd,north_games,quality,note\n")
series = 0
for r in range(1, R + 1):
    order = sorted(names, key=lambda n: -elo[n] + rnd.gauss(0, 30))
    for i in range(0, N - 1, 2):
        a, b = order[i], order[i + 1]
        series += 1
        l.write(f"{r},{series},{a},{b},{elo[a]:.1f},100.0,{2*(r-1)},{elo[b]:.1f},100.0,{2*(r-1)},0.8,\n")
        for game, (s, n) in enumerate([(a, b), (b, a)], 1):
            p = 1 / (1 + 10 ** ((strength[n] - strength[s]) / 400))
            res = "south" if rnd.random() < p else "north"
            g.write(f"{series},{game},1,4 4,{s},{n},6,4,100000,1000,{moves},29,27,21,{res},no-moves,,1\n")
            w = 1.0 if res == "south" else 0.0
            e = 1 / (1 + 10 ** ((elo[n] - elo[s]) / 400))
            elo[s] += 16 * (w - e); elo[n] -= 16 * (w - e)
with open(f"{out}/roster.csv", "w") as f:
    f.write("bot,joined,retired\n")
    for i, n in enumerate(names):
        f.write(f"{n},1,{R - 1 if i % 50 == 0 else ''}\n")
open(f"{out}/finished", "w").close()
