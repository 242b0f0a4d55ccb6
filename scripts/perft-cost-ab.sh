#!/bin/sh
# Instructions per perft leaf of every board under two builds of the runtime's perft example,
# side by side: for trying a change to the move generator (docs/performance.md). Each board is
# counted at the deepest depth up to 5 under LEAVES leaves (default 3 000 000, a ply shallower
# than scripts/perft-cost.sh and the benchmark on most 8x8 boards, for speed; LEAVES=12000000
# measures at theirs); a leaf costs (instructions at depth N - at depth 0) / leaves, as there. The
# runtime example loads tables directly, so the whole comparison takes about a minute and a half
# on two cores (two boards at a time).
#
#   cargo build --release -p orbis-runtime --example perft && cp target/release/examples/perft /tmp/before
#   (change the runtime, build again)
#   scripts/perft-cost-ab.sh /tmp/before target/release/examples/perft [FILES...]
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BEFORE AFTER [FILES...]" >&2; exit 2; }
before=$1 after=$2
shift 2
orbis=${ORBIS:-${CARGO_TARGET_DIR:-target}/release/orbis}
leaves_max=${LEAVES:-3000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -eq 0 ]; then
    set -- $(find examples tests/polygon -name '*.orbis' -not -path '*/invalid/*' -not -path '*/lib/*' -not -path 'examples/boards/*' | sort)
fi

instructions() { # binary tables depth
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_leaf() { # binary tables depth leaves -> instructions per leaf, one decimal
    a=$(instructions "$1" "$2" "$3")
    b=$(instructions "$1" "$2" 0)
    echo "$a $b $4" | awk '{ printf "%.1f", ($1 - $2) / $3 }'
}

printf '%-52s %5s %8s %8s %7s\n' variant depth before after change
for f in "$@"; do
    t="$work/$(echo "$f" | tr / _).orbt"
    "$orbis" compile "$f" -o "$t" >/dev/null
    d=1
    while [ $d -lt 5 ] && [ "$("$before" "$t" $((d + 1)))" -le "$leaves_max" ]; do
        d=$((d + 1))
    done
    n=$("$before" "$t" $d)
    m=$("$after" "$t" $d)
    [ "$n" = "$m" ] || { echo "$f: perft $d differs: $n before, $m after" >&2; exit 1; }
    per_leaf "$before" "$t" $d "$n" > "$work/before" &
    per_leaf "$after" "$t" $d "$n" > "$work/after"
    wait
    x=$(cat "$work/before") y=$(cat "$work/after")
    printf '%-52s %5s %8s %8s %7s\n' "$f" $d "$x" "$y" "$(echo "$x $y" | awk '{ printf "%+.1f", $2 - $1 }')"
done
