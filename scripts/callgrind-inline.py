#!/usr/bin/env python3
"""Inclusive instruction costs per call site inside one function of a callgrind profile,
through inlining (docs/performance.md, "Where a board's leaf goes").

The move generator's count is one large function with most of the generator inlined into it,
so callgrind's per-line figures split a call site's cost over many files. This script reads a
profile taken with --dump-instr=yes, keeps the instructions of the functions whose name
contains NAME, finds each instruction's chain of inlined calls with addr2line (build with
CARGO_PROFILE_RELEASE_DEBUG=line-tables-only), and sums the cost by the frame one level below
PREFIX (outermost frames first, each `file:line`; the function's own frame is left out).
Several profiles side by side, each divided by its leaves, compare boards per leaf:

  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg.orth PERFT orth.orbt 4
  scripts/callgrind-inline.py BINARY count_legal cg.orth 197281 cg.globe 222426 -- count.rs:173
"""
import collections
import re
import subprocess
import sys


def costs(path, name):
    """Instruction address -> cost, for the functions whose name contains `name`."""
    names, out = {}, collections.Counter()
    fn = None
    in_call = False
    last = [0, 0]
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(2):
                names[m.group(1)] = m.group(2)
            if line.startswith("fn="):
                fn = names.get(m.group(1))
            continue
        if line.startswith("calls="):
            in_call = True
            continue
        if not line or not (line[0].isdigit() or line[0] in "+-*"):
            continue
        fields = line.split()
        for i in range(2):
            tok = fields[i]
            last[i] = last[i] if tok == "*" else last[i] + int(tok, 0) if tok[0] in "+-" else int(tok, 0)
        if in_call:
            in_call = False
            continue
        if fn and name in fn and len(fields) > 2:
            out[last[0]] += int(fields[2])
    return out


def chains(binary, addresses):
    """Address -> inlined frames, outermost first, without the function's own frame."""
    text = subprocess.run(["addr2line", "-a", "-i", "-e", binary] + [hex(a) for a in addresses], capture_output=True, text=True).stdout
    found, current = {}, None
    for line in text.splitlines():
        if line.startswith("0x"):
            current = int(line, 16)
            found[current] = []
        else:
            frame = re.sub(r" \(discriminator \d+\)", "", line)
            found[current].append(re.sub(r"^.*/(src|library)/", "", frame))
    return {a: list(reversed(f))[1:] for a, f in found.items()}


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args) < 5:
        sys.exit(__doc__)
    split = args.index("--")
    binary, name, pairs, prefix = args[0], args[1], args[2:split], args[split + 1:]
    prefix = prefix[0].split(",") if prefix and prefix[0] else []
    columns = []
    for path, leaves in zip(pairs[::2], pairs[1::2]):
        cost = costs(path, name)
        frames = chains(binary, sorted(cost))
        sums = collections.Counter()
        for address, c in cost.items():
            f = frames.get(address, [])
            if f[: len(prefix)] == prefix:
                sums[f[len(prefix)] if len(f) > len(prefix) else "(here)"] += c / float(leaves)
        columns.append(sums)
    keys = sorted(set().union(*columns), key=lambda k: -max(c.get(k, 0) for c in columns))
    print(" ".join(f"{sum(c.values()):9.2f}" for c in columns), "total per leaf")
    for k in keys[:40]:
        print(" ".join(f"{c.get(k, 0):9.2f}" for c in columns), k)


if __name__ == "__main__":
    main()
