#!/usr/bin/env python3
"""Perft with Fairy-Stockfish through pyffish (`pip install pyffish`): the [FFPY] counts of
tests/perft/fairy.txt.

    python3 scripts/fsf-perft.py VARIANT FEN DEPTH [--no-pawn-drop-mate]

Prints the counts for depths 1 to DEPTH. With `--no-pawn-drop-mate`, pawn drops that checkmate
are left out: Shogi's uchifuzume as an illegal move, as orbis's `no-mate` reads it
(Fairy-Stockfish lists such a drop as a legal move that loses). Slow (Python): fine to depth 3.
"""

import sys

import pyffish as sf


def moves(variant, fen, no_mate):
    ms = sf.legal_moves(variant, fen, [])
    if no_mate:
        ms = [m for m in ms if not (m.startswith("P@") and sf.gives_check(variant, fen, [m])
                                    and not sf.legal_moves(variant, sf.get_fen(variant, fen, [m]), []))]
    return ms


def perft(variant, fen, depth, no_mate):
    ms = moves(variant, fen, no_mate)
    if depth == 1:
        return len(ms)
    return sum(perft(variant, sf.get_fen(variant, fen, [m]), depth - 1, no_mate) for m in ms)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    no_mate = "--no-pawn-drop-mate" in sys.argv
    variant, fen, depth = args[0], args[1], int(args[2])
    print(" ".join(str(perft(variant, fen, d, no_mate)) for d in range(1, depth + 1)))


if __name__ == "__main__":
    main()
