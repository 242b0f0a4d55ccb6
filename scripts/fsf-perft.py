#!/usr/bin/env python3
"""Perft with Fairy-Stockfish through pyffish (`pip install pyffish`): the [FFPY] counts of
tests/perft/fairy.txt.

    python3 scripts/fsf-perft.py VARIANT FEN DEPTH [--no-pawn-drop-mate]

Prints the counts for depths 1 to DEPTH. With `--no-pawn-drop-mate`, pawn drops that checkmate
are left out: Shogi's uchifuzume as an illegal move, as orbis's `no-mate` reads it
(Fairy-Stockfish lists such a drop as a legal move that loses). Slow (Python): fine to depth 3. Every position is given to Fairy-Stockfish as the root FEN and
the moves from it, so rules that depend on earlier moves count as they do in play.
"""

import sys

import pyffish as sf


def moves(variant, fen, played, no_mate):
    ms = sf.legal_moves(variant, fen, played)
    if no_mate:
        ms = [m for m in ms if not (m.startswith("P@") and sf.gives_check(variant, fen, played + [m])
                                    and not sf.legal_moves(variant, fen, played + [m]))]
    return ms


def perft(variant, fen, played, depth, no_mate):
    """The moves are kept from the root, not folded into FEN: rules that look at earlier moves
    (Janggi's two passes in a row, bikjang) need them."""
    ms = moves(variant, fen, played, no_mate)
    if depth == 1:
        return len(ms)
    return sum(perft(variant, fen, played + [m], depth - 1, no_mate) for m in ms)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    no_mate = "--no-pawn-drop-mate" in sys.argv
    variant, fen, depth = args[0], args[1], int(args[2])
    print(" ".join(str(perft(variant, fen, [], d, no_mate)) for d in range(1, depth + 1)))


if __name__ == "__main__":
    main()
