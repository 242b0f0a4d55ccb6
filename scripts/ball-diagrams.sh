#!/usr/bin/env bash
# Draws the Chess on a Soccer Ball pictures of docs/polyhedral-chess.md into
# docs/images/soccer-ball/: the setup (stacks drawn as two pieces), Figure 2a (White's King on the
# Rook, Black's on the Knight), and every piece's moves from a pentagon and a hexagon with its
# rays (the ball drawn round pentagon A; L is the ring round the picture).
#
#   scripts/ball-diagrams.sh        (builds orbis in release mode first)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
orbis=target/release/orbis
game=examples/soccer-ball/soccer-ball.orbis
out=docs/images/soccer-ball
mkdir -p "$out"
"$orbis" diagram "$game" -o "$out/setup.svg"
after=$("$orbis" moves "$game" --after K@Rz2 K@Nx3 Pz2-y5 Px3-y6 | head -1)
"$orbis" diagram "$game" --position "$after" -o "$out/figure-2a.svg"
# From pentagon A the pentagon pieces, from hexagon x0 the hexagon pieces (with rays).
for piece in Rook Wizard Knight Guard; do
    "$orbis" diagram "$game" --moves "$piece@A" --paths -o "$out/${piece,,}-pentagon.svg"
done
for piece in Rook Bishop Knight Ringmaster Satellite Pawn; do
    "$orbis" diagram "$game" --moves "$piece@x0" --paths -o "$out/${piece,,}-hexagon.svg"
done
