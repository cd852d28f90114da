#!/usr/bin/env python3
"""What exact adjudication saves: runs each config with `[board] adjudicate`
"off" and "decided", interleaved (off then decided, then decided then off,
...), and prints the plies played, the games adjudicated, the wall time, and
the share of plies and time saved.

usage: tools/adjudication_savings.py [--runs N] [--arena PATH]
                                     [--first-to K --max-games M] [CONFIG ...]

CONFIG defaults to configs/demo.toml and configs/ladder.toml. Each run plays a
copy of the config (with the key set, and `first_to`/`max_games` replaced if
asked) in a temporary folder, beside a `config-dir` file naming the config's
own folder so its relative paths resolve as they do for the original. The
bundled bots take their seed per game, so both ways play the same games up to
the adjudicated ply: the script also counts the games whose result differs
(0 expected, unless a search was cut short by the time limit).

Needs a release build (default: target/release/arena, built if missing).
Standard library only.
"""

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def copy_config(src, dst_dir, adjudicate, first_to, max_games):
    """Writes src's text with the [board] key set (and the series length
    replaced) to dst_dir/t.toml, and the config-dir file beside it."""
    text = src.read_text()
    text = re.sub(r"(?m)^\s*adjudicate\s*=.*\n", "", text)
    line = f'adjudicate = "{adjudicate}"\n'
    if re.search(r"(?m)^\[board\]\s*$", text):
        text = re.sub(r"(?m)^\[board\]\s*\n", lambda m: m.group(0) + line, text, count=1)
    else:
        text = re.sub(r"(?m)^\[", lambda m: "[board]\n" + line + "\n[", text, count=1)
    for key, value in (("first_to", first_to), ("max_games", max_games)):
        if value is not None:
            text, n = re.subn(rf"(?m)^{key}\s*=.*$", f"{key} = {value}", text)
            if n == 0:
                text = text.replace("[tournament]\n", f"[tournament]\n{key} = {value}\n", 1)
    dst = dst_dir / "t.toml"
    dst.write_text(text)
    (dst_dir / "config-dir").write_text(str(src.resolve().parent) + "\n")
    return dst


def run_once(arena, config, adjudicate, args, work):
    folder = Path(tempfile.mkdtemp(prefix=f"{adjudicate}-", dir=work))
    cfg = copy_config(config, folder, adjudicate, args.first_to, args.max_games)
    out = folder / "run"
    start = time.monotonic()
    done = subprocess.run([str(arena), "run", str(cfg), "--out", str(out), "--quiet"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"arena run {cfg} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    with open(out / "games.csv", newline="") as f:
        games = list(csv.DictReader(f))
    return {
        "wall": wall,
        "games": len(games),
        "plies": sum(int(g["plies"]) for g in games),
        "decided": sum(g["termination"] == "decided" for g in games),
        "results": {(g["series"], g["game"]): g["result"] for g in games},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("configs", nargs="*", type=Path,
                    default=[REPO / "configs/demo.toml", REPO / "configs/ladder.toml"])
    ap.add_argument("--runs", type=int, default=3, help="runs each way (default 3)")
    ap.add_argument("--arena", type=Path, help="the arena binary (default: target/release/arena)")
    ap.add_argument("--first-to", type=int, help="replace [tournament] first_to (a shorter run)")
    ap.add_argument("--max-games", type=int, help="replace [tournament] max_games")
    args = ap.parse_args()
    arena = args.arena
    if arena is None:
        target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
        arena = target / "release" / "arena"
        if not arena.exists():
            subprocess.run(["cargo", "build", "--release", "-p", "arena"], cwd=REPO, check=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="adjudication-") as work:
        for config in args.configs:
            runs = {"off": [], "decided": []}
            for i in range(args.runs):
                order = ("off", "decided") if i % 2 == 0 else ("decided", "off")
                for mode in order:
                    r = run_once(arena, config, mode, args, Path(work))
                    runs[mode].append(r)
                    print(f"{config.name} {mode} run {i + 1}: {r['games']} games, "
                          f"{r['plies']} plies, {r['decided']} decided, {r['wall']:.1f} s",
                          file=sys.stderr, flush=True)
            rows.append((config, runs))
    print("| config | adjudicate | games | plies | decided games | wall s (median; each) |")
    print("|---|---|---|---|---|---|")
    for config, runs in rows:
        for mode in ("off", "decided"):
            rs = runs[mode]
            walls = [r["wall"] for r in rs]
            plies = sorted({r["plies"] for r in rs})
            print(f"| {config.name} | {mode} | {rs[0]['games']} | "
                  f"{'/'.join(map(str, plies))} | {rs[0]['decided']} | "
                  f"{statistics.median(walls):.1f}; {', '.join(f'{w:.1f}' for w in walls)} |")
    print()
    for config, runs in rows:
        off, on = runs["off"], runs["decided"]
        saved_plies = 1 - statistics.mean(r["plies"] for r in on) / statistics.mean(r["plies"] for r in off)
        saved_wall = 1 - statistics.median(r["wall"] for r in on) / statistics.median(r["wall"] for r in off)
        # Per pair of runs, the games (series, game) whose result differs.
        differ = max(
            sum(a["results"].get(k) != b["results"].get(k)
                for k in a["results"].keys() | b["results"].keys())
            for a, b in zip(off, on))
        print(f"{config.name}: plies saved {100 * saved_plies:.1f}%, wall time saved "
              f"{100 * saved_wall:.1f}% (median of {len(off)} runs each); "
              f"games whose result differs: {differ}")


if __name__ == "__main__":
    main()
