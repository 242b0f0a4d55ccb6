#!/usr/bin/env python3
"""Compare orbis's legal moves with Fairy-Stockfish's on random playouts.

For each pair (an orbis variant file, the Fairy-Stockfish variant it writes), plays random games
with Fairy-Stockfish (its Python binding, `pip install pyffish`) and, in every position reached,
asks orbis for the legal moves of the same FEN (`orbis moves --position FEN --json`). The two
sets of moves are compared in UCI coordinates as `orbis moves --json` gives them (`e2e4`,
promotions `e7e8q` and Shogi's `c7c8+`, drops `P@e4`; castling as the king's move, which
Fairy-Stockfish writes as king-takes-rook in Chess960; Janggi's pass as the general's move to its
own cell, `e2e2`). Each position goes to both as FEN, without the moves before it: rules that look
at earlier moves (two passes in a row) are compared by perft instead (scripts/fsf-perft.py). In
Shogi and Minishogi, a pawn drop that checkmates
(uchifuzume) is left out of Fairy-Stockfish's set: it lists the drop as a legal move that loses,
orbis's `drop P no-mate` forbids it; such drops are counted and reported. Prints one line per variant
and the first differences; exits 1 if any position differs.

    python3 scripts/fsf-compare.py [--orbis target/release/orbis] [--games 20] [--plies 60]
                                   [--seed 1] [--only NAME ...]

The results are recorded in docs/fairy-stockfish.md.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import pyffish as sf

# (orbis file, Fairy-Stockfish variant, extra orbis arguments, Chess960 castling)
PAIRS = [
    ("examples/orthodox.orbis", "chess", [], False),
    ("examples/fairy/capablanca.orbis", "capablanca", [], False),
    ("examples/fairy/shatranj.orbis", "shatranj", [], False),
    ("examples/fairy/makruk.orbis", "makruk", [], False),
    ("examples/fairy/knightmate.orbis", "knightmate", [], False),
    ("examples/fairy/berolina.orbis", "berolina", [], False),
    ("examples/fairy/kingofthehill.orbis", "kingofthehill", [], False),
    ("examples/fairy/threecheck.orbis", "3check", [], False),
    ("examples/fairy/grand.orbis", "grand", [], False),
    ("examples/fairy/chess960.orbis", "fischerandom", [], True),
    ("examples/fairy/nightrider.orbis", "nightrider", [], False),
    ("examples/fairy/amazon.orbis", "amazon", [], False),
    ("examples/fairy/grasshopper.orbis", "grasshopper", [], False),
    ("examples/fairy/xiangqi.orbis", "xiangqi", [], False),
    ("examples/fairy/janggi.orbis", "janggi", [], False),
    ("examples/fairy/crazyhouse.orbis", "crazyhouse", [], False),
    ("examples/fairy/shogi.orbis", "shogi", [], False),
    ("examples/fairy/minishogi.orbis", "minishogi", [], False),
    ("examples/fairy/loop.orbis", "loop", [], False),
    ("examples/fairy/chessgi.orbis", "chessgi", [], False),
]


def orbis_moves(orbis, tables, fen):
    """orbis's legal moves of `fen` in coordinates, or an error text."""
    run = subprocess.run([orbis, "moves", tables, "--position", fen, "--json"], capture_output=True, text=True)
    if run.returncode != 0:
        return None, run.stderr.strip()
    return {m["uci"] for m in json.loads(run.stdout)}, None


def square(s):
    """'e10' -> ('e', 10)."""
    return s[0], int(s[1:])


# Variants whose pawn drops may not mate in orbis (`no-mate`).
NO_PAWN_DROP_MATE = {"shogi", "minishogi"}
# Pawn drops that mate, left out of Fairy-Stockfish's moves (reported), per variant.
pawn_drop_mates = {}


def fsf_moves(variant, fen, is960):
    """Fairy-Stockfish's legal moves, castling rewritten as the king's own move."""
    out = set()
    for uci in sf.legal_moves(variant, fen, [], is960):
        if variant in NO_PAWN_DROP_MATE and uci.startswith("P@") and sf.gives_check(variant, fen, [uci]) \
                and not sf.legal_moves(variant, sf.get_fen(variant, fen, [uci]), []):
            pawn_drop_mates.setdefault(variant, []).append((fen, uci))
            continue
        if is960:
            # King takes own rook: the king lands on the g- or c-file.
            piece_at = board_of(fen)
            frm, to = uci[:2], uci[2:4]
            king, rook = piece_at.get(frm), piece_at.get(to)
            if king and rook and king.lower() == "k" and rook.lower() == "r" and king.isupper() == rook.isupper():
                rank = frm[1:]
                uci = frm + ("g" if to[0] > frm[0] else "c") + rank
        out.add(uci)
    return out


def board_of(fen):
    """Square -> piece letter for an 8x8 FEN."""
    placement = fen.split()[0]
    cells = {}
    for r, row in enumerate(placement.split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                cells["abcdefgh"[f] + str(8 - r)] = c
                f += 1
    return cells


def build(orbis, path, extra, tmp):
    """The compiled tables' path, or an error text."""
    tables = os.path.join(tmp, os.path.basename(path) + "".join(extra) + ".orbt")
    built = subprocess.run([orbis, "compile", path, "-o", tables] + extra, capture_output=True, text=True)
    if built.returncode != 0:
        return None, "does not compile: " + (built.stderr.strip().splitlines() or ["?"])[0]
    return tables, None


def xfen(fen):
    """Chess960 castling rights as K/Q (the rook beyond the king's file or before it)."""
    fields = fen.split()
    cells = board_of(fen)
    rights = ""
    for c in fields[2]:
        if c == "-":
            continue
        if c in "KQkq":
            rights += c
            continue
        rank = "1" if c.isupper() else "8"
        king = next(sq for sq, p in cells.items() if p == ("K" if c.isupper() else "k"))
        side = "K" if c.lower() > king[0] else "Q"
        rights += side if c.isupper() else side.lower()
    fields[2] = "".join(sorted(rights, key="KQkq".index)) or "-"
    return " ".join(fields)


def compare(orbis, path, variant, extra, is960, games, plies, rng, tmp):
    if not os.path.exists(path):
        return None
    positions = differences = 0
    examples = []
    for g in range(games):
        if is960:
            number = rng.randrange(960)
            fen = chess960_fen(number)
            tables, error = build(orbis, path, extra + ["--setup", str(number)], tmp)
        else:
            fen = sf.start_fen(variant)
            tables, error = build(orbis, path, extra, tmp)
        if error:
            return 0, 1, [error]
        for _ in range(plies):
            ours, error = orbis_moves(orbis, tables, xfen(fen) if is960 else fen)
            theirs = fsf_moves(variant, fen, is960)
            compared = theirs
            positions += 1
            if ours != compared:
                differences += 1
                if len(examples) < 3:
                    detail = error or "orbis only: %s; Fairy-Stockfish only: %s" % (
                        " ".join(sorted(ours - compared)), " ".join(sorted(compared - ours)))
                    examples.append("%s: %s" % (fen, detail))
            if not theirs or sf.is_optional_game_end(variant, fen, [], is960)[0] or sf.is_immediate_game_end(variant, fen, [], is960)[0]:
                break
            move = rng.choice(sorted(theirs if not is960 else sf.legal_moves(variant, fen, [], is960)))
            fen = sf.get_fen(variant, fen, [move], is960)
    return positions, differences, examples


def chess960_fen(n):
    """The Chess960 start position number n (Scharnagl's numbering)."""
    row = [None] * 8
    n, b1 = divmod(n, 4)
    row[2 * b1 + 1] = "B"
    n, b2 = divmod(n, 4)
    row[2 * b2] = "B"
    n, q = divmod(n, 6)
    free = [i for i in range(8) if row[i] is None]
    row[free[q]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    free = [i for i in range(8) if row[i] is None]
    for k in knights:
        row[free[k]] = "N"
    free = [i for i in range(8) if row[i] is None]
    for i, p in zip(free, "RKR"):
        row[i] = p
    white = "".join(row)
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1" % (white.lower(), white)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--orbis", default="target/release/orbis")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    failed = False
    print("Fairy-Stockfish (pyffish %s) against %s: %d games of up to %d plies each, seed %d"
          % (".".join(map(str, sf.version())), args.orbis, args.games, args.plies, args.seed))
    with tempfile.TemporaryDirectory() as tmp:
        for path, variant, extra, is960 in PAIRS:
            if args.only and variant not in args.only:
                continue
            result = compare(args.orbis, path, variant, extra, is960, args.games, args.plies, rng, tmp)
            if result is None:
                print("%-40s %-14s missing" % (path, variant))
                continue
            positions, differences, examples = result
            failed |= differences > 0
            print("%-40s %-14s %6d positions, %d differ" % (path, variant, positions, differences))
            if variant in NO_PAWN_DROP_MATE:
                print("    pawn drops that mate, listed by Fairy-Stockfish, forbidden in orbis: %d" % len(pawn_drop_mates.get(variant, [])))
            for e in examples:
                print("    " + e)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
