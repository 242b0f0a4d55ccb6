#!/bin/sh
# Instructions per perft leaf of every example board, against orthodox at the same depth
# (docs/performance.md). Counts instructions with valgrind's callgrind, which gives the same
# figure whatever else the machine runs; a leaf costs (instructions at depth N - at depth 0) /
# leaves. Each board is counted at the deepest depth up to 5 whose perft stays under LEAVES
# leaves (default 12 000 000, the budget of `cargo bench --bench perft`, so that both measure
# the same depths; before 2026-12-01 the default was 3 000 000, which put most 8x8 boards a ply
# shallower than the benchmark). Costs are given to a tenth of an instruction, and the ratios
# rounded to a hundredth.
#
# The last two columns divide the same instructions by the positions whose moves the count
# generated (every position above the last ply, whose moves are counted by set and not made)
# instead of by leaves: a board with few moves a position has few leaves per such position, so
# its cost per leaf is high even when a position costs what an orthodox one does.
#
#   scripts/perft-cost.sh [ORBIS] [FILES...]    # ORBIS: the orbis binary (default target/release/orbis)
set -eu
orbis=${1:-${CARGO_TARGET_DIR:-target}/release/orbis}
[ $# -gt 0 ] && shift
leaves_max=${LEAVES:-12000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -eq 0 ]; then
    set -- examples/orthodox.orbis $(find examples tests/polygon -name '*.orbis' -not -path '*/invalid/*' -not -path '*/lib/*' -not -path 'examples/boards/*' -not -name orthodox.orbis | sort)
fi

instructions() { # tables depth
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$orbis" perft "$1" --depth "$2" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
nodes() { # tables depth
    "$orbis" perft "$1" --depth "$2" | sed -n 's/^nodes //p'
}
per_leaf() { # tables depth -> leaves, instructions per leaf, instructions per generating position
    n=$(nodes "$1" "$2")
    a=$(instructions "$1" "$2")
    b=$(instructions "$1" 0)
    p=0 i=0
    while [ $i -lt "$2" ]; do
        p=$((p + $(nodes "$1" $i)))
        i=$((i + 1))
    done
    echo "$n $a $b $p" | awk '{ printf "%d %.1f %.1f", $1, ($2 - $3) / $1, ($2 - $3) / $4 }'
}

"$orbis" compile examples/orthodox.orbis -o "$work/orthodox.orbt" >/dev/null
printf '%-52s %5s %10s %10s %7s %9s %7s\n' variant depth leaves instr/leaf cost instr/pos cost
for f in "$@"; do
    t="$work/$(echo "$f" | tr / _).orbt"
    "$orbis" compile "$f" -o "$t" >/dev/null
    d=1
    while [ $d -lt 5 ]; do
        n=$(nodes "$t" $((d + 1)))
        [ "$n" -gt "$leaves_max" ] && break
        d=$((d + 1))
    done
    set -- $(per_leaf "$t" $d)
    leaves=$1 cost=$2 pcost=$3
    eval "ortho=\${ortho_$d:-} portho=\${portho_$d:-}"
    if [ -z "$ortho" ]; then
        set -- $(per_leaf "$work/orthodox.orbt" $d)
        ortho=$2 portho=$3
        eval "ortho_$d=$ortho portho_$d=$portho"
    fi
    printf '%-52s %5s %10s %10s %6sx %9s %6sx\n' "$f" $d "$leaves" "$cost" "$(echo "$cost $ortho" | awk '{ printf "%.2f", $1 / $2 }')" \
        "$pcost" "$(echo "$pcost $portho" | awk '{ printf "%.2f", $1 / $2 }')"
done
