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
    python3 tools/bench_engine.py --baseline ../old-target/release/examples/playouts

Ratios are medians of each round's own ratio (the runs of a round are
seconds apart, so a machine's slow spells cancel). --baseline runs another
build's `playouts` example in the same rounds and adds its ratio to this
build's: the way to measure one change.

Exits 1 if a count differs, 2 if the kernel, a compiler or the baseline is
missing.
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


def positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of 1 or more")
    return value


def boards(text):
    try:
        holes = [int(h) for h in text.split(",")]
    except ValueError:
        holes = []
    # fastplay.c holds at most 128 holes on its ring; the engine takes 2 to 50 a row.
    if not holes or any(h < 2 or h > 50 for h in holes):
        raise argparse.ArgumentTypeError(f"'{text}' is not a list of holes per row from 2 to 50, like 6,8,10")
    return holes


def core(text):
    value = int(text) if text.isdigit() else -1
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else {value}
    if value not in allowed:
        raise argparse.ArgumentTypeError(f"'{text}' is not a core this process may run on: use one of {sorted(allowed)}")
    return value


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    m = LINE.search(out)
    if not m:
        sys.exit(f"bench_engine: no 'playouts/s ... S/N/D' in the output of {cmd}: {out!r}")
    return float(m.group(1)), m.group(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--kernel",
        default=os.path.join(ROOT, "..", "shared", "bench", "fastplay.c"),
        help="the C yardstick's source (default ../shared/bench/fastplay.c beside the clone)",
    )
    ap.add_argument("--games", type=positive, default=200_000, help="games per run (default 200000)")
    ap.add_argument("--rounds", type=positive, default=3, help="interleaved rounds; medians are printed (default 3)")
    ap.add_argument("--core", type=core, default=1, help="the core to pin to with taskset (default 1)")
    ap.add_argument("--boards", type=boards, default=[6, 8, 10], help="holes per row, comma separated (default 6,8,10)")
    ap.add_argument(
        "--baseline",
        help="another build's playouts example (e.g. from a worktree of an older commit), run in the same rounds",
    )
    args = ap.parse_args()
    if args.baseline and not os.access(args.baseline, os.X_OK):
        print(f"bench_engine: --baseline {args.baseline} is not an executable: build it with "
              "cargo build --release -p endodoi --example playouts", file=sys.stderr)
        return 2

    if not os.path.exists(args.kernel):
        print(f"bench_engine: {args.kernel} is missing: pass --kernel PATH to fastplay.c", file=sys.stderr)
        return 2
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        print("bench_engine: no C compiler: install gcc or set CC", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="bench_engine.")
    try:
        return bench(args, cc, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bench(args, cc, tmp):
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

    rounds = "1 round" if args.rounds == 1 else f"{args.rounds} rounds interleaved, medians"
    print(f"{args.games} games per run, {rounds}; core {args.core if pin else '-'}")
    extra = f" {'sample/base':>11} {'legal/base':>10}" if args.baseline else ""
    print(f"{'board':>6} {'C playouts/s':>13} {'sample':>9} {'legal':>9} {'sample/C':>9} {'legal/C':>8}{extra}  counts")
    bad = False
    for holes in args.boards:
        rows = []
        counts = set()
        for _ in range(args.rounds):
            c, c_counts = run(pin + [kernel, str(holes), str(args.games)])
            s, s_counts = run(pin + [playouts, str(holes), str(args.games), "sample"])
            l, _ = run(pin + [playouts, str(holes), str(args.games), "legal"])
            counts.add((c_counts, s_counts))
            row = [c, s, l, s / c, l / c]
            if args.baseline:
                bs, b_counts = run(pin + [args.baseline, str(holes), str(args.games), "sample"])
                bl, _ = run(pin + [args.baseline, str(holes), str(args.games), "legal"])
                counts.add((c_counts, b_counts))
                row += [s / bs, l / bl]
            rows.append(row)
        same = all(a == b for a, b in counts)
        bad |= not same
        med = [statistics.median(column) for column in zip(*rows)]
        verdict = "equal" if same else "DIFFER " + repr(sorted(counts))
        line = f"2x{holes:<4} {med[0]:>13.0f} {med[1]:>9.0f} {med[2]:>9.0f} {med[3]:>8.2f}x {med[4]:>7.2f}x"
        if args.baseline:
            line += f" {med[5]:>10.2f}x {med[6]:>9.2f}x"
        print(f"{line}  {verdict}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
