#!/usr/bin/env bash
# Draws the Cube-Surface Chess pictures of docs/polyhedral-chess.md into docs/images/cube/: each
# game's setup on the cube net, and the moves of rook, bishop, queen, knight and pawn from a face
# square, an edge square and a vertex triangle (next to the vertex x7y7z7, where lines bend).
#
#   scripts/cube-diagrams.sh        (builds orbis in release mode first)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
orbis=target/release/orbis
out=docs/images/cube
mkdir -p "$out"
for game in cube-8x8 cube-5x5 cube-8x8-four-player; do
    [[ -f examples/cube/$game.orbis ]] && "$orbis" diagram "examples/cube/$game.orbis" -o "$out/$game-setup.svg"
done
game=examples/cube/cube-8x8.orbis
# Where: a face square diagonally next to the vertex, an edge square next to it, the vertex.
declare -A cells=([face]=x6y6z7 [edge]=x7y6z7 [vertex]=x7y7z7)
for where in face edge vertex; do
    for piece in Rook Bishop Queen; do
        "$orbis" diagram "$game" --moves "$piece@${cells[$where]}" --paths -o "$out/${piece,,}-$where.svg"
    done
    "$orbis" diagram "$game" --moves "Knight@${cells[$where]}" -o "$out/knight-$where.svg"
done
# Pawns (White, unmoved): on board 1, on the 1/5 edge (two forwards, as on board 5) and on the
# vertex of boards 1, 2 and 5 (one forward, down the 2/5 edge).
declare -A pawns=([face]=x3y5z7 [edge]=x0y4z7 [vertex]=x0y0z7)
for where in face edge vertex; do
    "$orbis" diagram "$game" --moves "Pawn@${pawns[$where]}" -o "$out/pawn-$where.svg"
done
