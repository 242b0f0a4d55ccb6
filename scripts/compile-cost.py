#!/usr/bin/env python3
"""What compiling every example costs, and whether perft's memory stays flat with depth.

For every variant file under examples/ (libraries and examples/invalid left out): the best of
five wall-clock times of `orbis compile FILE` and the size of the table file it writes. Then the
peak memory (maximum resident set, from /usr/bin/time) of `orbis perft` on compiled tables at
increasing depths. Prints Markdown tables for docs/performance.md; exits 1 when a compile takes
50 ms or more or a table file reaches 1 MB (the goals of issue 16).

    python3 scripts/compile-cost.py [--orbis target/release/orbis] [--runs 5]
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

PERFT_MEMORY = [
    ("examples/orthodox.orbis", [3, 4, 5, 6]),
    ("examples/spherical/nadvorney.orbis", [3, 4, 5]),
    ("examples/soccer-ball/soccer-ball.orbis", [3, 4, 5]),
    ("examples/webball/webball.orbis", [2, 3, 4]),
]


def variants():
    for path in sorted(glob.glob("examples/**/*.orbis", recursive=True)):
        if "/invalid/" in path or "/lib/" in path or path.startswith("examples/boards/"):
            continue
        with open(path) as f:
            if any(line.startswith("library ") for line in f):
                continue
        yield path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--orbis", default="target/release/orbis")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    failed = False
    print("| example | compile (ms, best of %d) | table bytes |" % args.runs)
    print("|---|---:|---:|")
    slowest = largest = 0
    with tempfile.TemporaryDirectory() as tmp:
        tables = {}
        for path in variants():
            out = os.path.join(tmp, path.replace("/", "_") + ".orbt")
            best = float("inf")
            for _ in range(args.runs):
                start = time.perf_counter()
                run = subprocess.run([args.orbis, "compile", path, "-o", out], capture_output=True, text=True)
                best = min(best, time.perf_counter() - start)
                if run.returncode != 0:
                    sys.exit("%s does not compile:\n%s" % (path, run.stderr))
            size = os.path.getsize(out)
            tables[path] = out
            ms = best * 1000
            slowest, largest = max(slowest, ms), max(largest, size)
            failed |= ms >= 50 or size >= 1 << 20
            print("| %s | %.1f | %d |" % (path, ms, size))
        print()
        print("Slowest compile %.1f ms (goal < 50 ms), largest table %d bytes (goal < 1 MB)." % (slowest, largest))
        print()
        print("| perft on tables | depth | nodes | peak memory (KiB) |")
        print("|---|---:|---:|---:|")
        for path, depths in PERFT_MEMORY:
            if path not in tables:
                continue
            for depth in depths:
                run = subprocess.run(["/usr/bin/time", "-f", "%M", args.orbis, "perft", tables[path], "--depth", str(depth)],
                                     capture_output=True, text=True)
                nodes = next((l.split()[1] for l in run.stdout.splitlines() if l.startswith("nodes ")), "?")
                peak = run.stderr.strip().splitlines()[-1]
                print("| %s | %d | %s | %s |" % (path, depth, nodes, peak))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
