#!/usr/bin/env bash
# Draws the Webball pictures of docs/polyhedral-chess.md into docs/images/webball/: the globe's
# two halves with every square's name, the setup, and the moves of every piece from a node (N), a
# connector (NA), a node-ring square (N*) and an edge-ring square (NA*).
#
#   scripts/webball-diagrams.sh        (builds orbis in release mode first)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
orbis=target/release/orbis
game=examples/webball/webball.orbis
out=docs/images/webball
mkdir -p "$out"
"$orbis" diagram "$game" --empty -o "$out/board.svg"
"$orbis" diagram "$game" -o "$out/setup.svg"
declare -A cells=([node]=N [connector]=NA [node-ring]='N*' [edge-ring]='NA*')
for where in node connector node-ring edge-ring; do
    for piece in King Ringer Mega-ringer Knight Pawn; do
        paths=--paths
        [[ $piece == Mega-ringer || $piece == Knight || $piece == Pawn || $piece == King ]] && paths=
        "$orbis" diagram "$game" --moves "$piece@${cells[$where]}" $paths -o "$out/${piece,,}-$where.svg"
    done
done
