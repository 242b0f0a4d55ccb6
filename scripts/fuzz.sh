#!/usr/bin/env bash
# Fuzzes every target of fuzz/ (cargo-fuzz, libFuzzer) for SECONDS each, one after the other, and
# prints per target the executions, the time and the coverage. See docs/fuzzing.md.
#
#   scripts/fuzz.sh SECONDS [TARGET...]      (targets: grammar compiler tables position moves)
#
# Needs no nightly toolchain: RUSTC_BOOTSTRAP=1 lets the stable compiler take the sanitizer flags.
# Installs cargo-fuzz if it is missing (CI's normal run does not use this script). Environment:
#   FUZZ_SANITIZER   none (default: the crates have no unsafe code, and without AddressSanitizer
#                    the targets run about twice as fast) or address
#   FUZZ_SECONDS_<TARGET>  overrides SECONDS for one target, e.g. FUZZ_SECONDS_TABLES=3600
# New inputs go to fuzz/work/TARGET (not committed); the seeds in fuzz/corpus/TARGET are read
# only (regenerate them with `rm -r fuzz/corpus` when the language or the table format changes). A crash, timeout or out-of-memory input is written to fuzz/artifacts/TARGET/ and the
# script goes on with the next target, then exits 1.
set -euo pipefail

usage() { echo "usage: $0 SECONDS [TARGET...]" >&2; exit 2; }
[[ $# -ge 1 && $1 =~ ^[0-9]+$ ]] || usage
seconds=$1
shift
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(grammar compiler tables position moves)

cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
sanitizer=${FUZZ_SANITIZER:-none}

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

# Seeds: generated from examples/ and tests/ when missing (fuzz/examples/seeds.rs).
for t in "${targets[@]}"; do
    if [[ ! -d fuzz/corpus/$t ]]; then
        cargo run --manifest-path fuzz/Cargo.toml --example seeds
        break
    fi
done

# -O: optimised; -a: debug assertions (overflow checks too), as the test profile has them.
# Built once; the targets then run from these binaries, so that all of them fuzz the same code.
cargo fuzz build -O -a -s "$sanitizer"
bin="fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release"

# Per target: the largest input and the time one input may take before it counts as a hang.
max_len() {
    case $1 in
        grammar) echo 8192 ;;
        compiler) echo 4096 ;;
        tables) echo 393216 ;;
        *) echo 2048 ;;
    esac
}
timeout_s() {
    case $1 in
        compiler | tables) echo 20 ;;
        *) echo 10 ;;
    esac
}

logs=fuzz/work/logs
mkdir -p "$logs"
failed=()
summary=()
for t in "${targets[@]}"; do
    var="FUZZ_SECONDS_${t^^}"
    secs=${!var:-$seconds}
    mkdir -p "fuzz/work/$t"
    log="$logs/$t.log"
    echo "== $t: ${secs}s (log: $log)"
    start=$(date +%s)
    set +e
    mkdir -p "fuzz/artifacts/$t"
    "$bin/$t" -artifact_prefix="fuzz/artifacts/$t/" \
        -max_total_time="$secs" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout="$(timeout_s "$t")" \
        -max_len="$(max_len "$t")" -print_final_stats=1 "fuzz/work/$t" "fuzz/corpus/$t" </dev/null >"$log" 2>&1
    rc=$?
    set -e
    elapsed=$(($(date +%s) - start))
    # libFuzzer's own count of the fuzzing time (without the build); the wall time if it stopped.
    done_s=$(sed -nE 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/p' "$log" | tail -1)
    elapsed=${done_s:-$elapsed}
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    last=$(grep -E '^#[0-9]+.*cov: [0-9]+' "$log" | tail -1)
    cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$last")
    corp=$(sed -nE 's/.*corp: ([0-9]+)\/.*/\1/p' <<<"$last")
    rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    status=ok
    if [[ $rc -ne 0 ]]; then
        status="FAILED (exit $rc): $(grep -m1 -E 'ERROR: libFuzzer|ERROR: AddressSanitizer|panicked at|deadly signal' "$log" || true)"
        failed+=("$t")
        grep -E 'Test unit written to|panicked at' "$log" | head -5 || true
    fi
    summary+=("$(printf '%-9s %12s %7s %7s %7s %7s %7s  %s' "$t" "${execs:-?}" "${elapsed}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "${rss:-?}" "$status")")
done

echo
printf '%-9s %12s %7s %7s %7s %7s %7s  %s\n' target executions seconds cov ft corpus rss_mb status
total=0
for line in "${summary[@]}"; do
    echo "$line"
    n=$(awk '{print $2}' <<<"$line")
    [[ $n =~ ^[0-9]+$ ]] && total=$((total + n))
done
echo "total executions: $total"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "failed: ${failed[*]} (inputs in fuzz/artifacts/)"
    exit 1
fi
