#!/usr/bin/env python3
"""The rules engine against the C yardstick, in one run.

Builds `../shared/bench/fastplay.c` (or the file given with --kernel) with the
system's C compiler and the engine's `playouts` example in release mode, then
runs both on 2x6, 2x8 and 2x10, interleaved (C, sample, legal, C, ...), pinned
to one core with `taskset` when it is there, and prints for each board the
median playouts per second, the ratios to the C kernel, and whether the
`sample` mode's South/North/draw counts equal the C kernel's (they must: the
same generator and pick play the same games).

    python3 tools/bench_engine.py                 # 200,000 games, 3 rounds
    python3 tools/bench_engine.py --games 50000 --rounds 5 --core 0

Exits 1 if a count differs, 2 if the kernel or a compiler is missing.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"([0-9.]+) playouts/s.*S/N/D (\d+/\d+/\d+)")


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    m = LINE.search(out)
    if not m:
        sys.exit(f"bench_engine: no 'playouts/s ... S/N/D' in the output of {cmd}: {out!r}")
    return float(m.group(1)), m.group(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel", default=os.path.join(ROOT, "..", "shared", "bench", "fastplay.c"))
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--core", type=int, default=1, help="the core to pin to (default 1)")
    ap.add_argument("--boards", default="6,8,10", help="holes per row, comma separated")
    args = ap.parse_args()

    if not os.path.exists(args.kernel):
        print(f"bench_engine: {args.kernel} is missing: pass --kernel PATH to fastplay.c", file=sys.stderr)
        return 2
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        print("bench_engine: no C compiler: install gcc or set CC", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="bench_engine.")
    kernel = os.path.join(tmp, "fastplay")
    subprocess.run([cc, "-O3", "-march=native", args.kernel, "-o", kernel], check=True)
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "-p", "endodoi", "--example", "playouts"],
        check=True,
        cwd=ROOT,
    )
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    playouts = os.path.join(target, "release", "examples", "playouts")
    pin = ["taskset", "-c", str(args.core)] if shutil.which("taskset") else []
    if not pin:
        print("bench_engine: taskset not found, running unpinned", file=sys.stderr)

    print(f"{args.games} games per run, {args.rounds} rounds interleaved, medians; core {args.core if pin else '-'}")
    print(f"{'board':>6} {'C playouts/s':>13} {'sample':>9} {'legal':>9} {'sample/C':>9} {'legal/C':>8}  counts")
    bad = False
    for holes in [int(h) for h in args.boards.split(",")]:
        c, s, l = [], [], []
        counts = set()
        for _ in range(args.rounds):
            rate, c_counts = run(pin + [kernel, str(holes), str(args.games)])
            c.append(rate)
            rate, s_counts = run(pin + [playouts, str(holes), str(args.games), "sample"])
            s.append(rate)
            rate, _ = run(pin + [playouts, str(holes), str(args.games), "legal"])
            l.append(rate)
            counts.add((c_counts, s_counts))
        same = all(a == b for a, b in counts)
        bad |= not same
        mc, ms, ml = (statistics.median(x) for x in (c, s, l))
        verdict = "equal" if same else "DIFFER " + repr(sorted(counts))
        print(f"2x{holes:<4} {mc:>13.0f} {ms:>9.0f} {ml:>9.0f} {ms / mc:>8.2f}x {ml / mc:>7.2f}x  {verdict}")
    shutil.rmtree(tmp)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
