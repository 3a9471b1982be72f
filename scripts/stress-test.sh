#!/usr/bin/env bash
# `make test` N times in a row (default 3) while `stress-ng --cpu 2` keeps two
# cores busy beside it: a suite that passes only on an idle machine has a race
# (in the product or in a test) that this finds. Not part of `make test`; it
# takes N full runs, so run it on a machine nobody else is using.
#
#   scripts/stress-test.sh [N]
#
# Each run's log is kept in build/stress-test/run-K.log. Exit status 0 when
# every run passed.
set -u

runs=${1:-3}
case "$runs" in
    ''|*[!0-9]*|0) echo "usage: scripts/stress-test.sh [N]  (N: how many runs, at least 1)" >&2; exit 2 ;;
esac
command -v stress-ng >/dev/null || { echo "stress-ng is not installed (scripts/install-deps.sh installs it)" >&2; exit 2; }

cd "$(dirname "$0")/.."
logs=build/stress-test
mkdir -p "$logs"

stress-ng --cpu 2 --quiet &
stress_pid=$!
# Stopped by the PID recorded at its start (its workers follow their parent).
stop_stress() {
    kill "$stress_pid" 2>/dev/null
    wait "$stress_pid" 2>/dev/null
}
trap stop_stress EXIT
trap 'exit 130' INT TERM
echo "stress-ng --cpu 2 running (PID $stress_pid)"

passed=0
results=()
for run in $(seq 1 "$runs"); do
    log="$logs/run-$run.log"
    started=$(date +%s)
    if make test >"$log" 2>&1; then result=passed; passed=$((passed + 1)); else result=FAILED; fi
    seconds=$(( $(date +%s) - started ))
    line="run $run of $runs: $result in $((seconds / 60)) min $((seconds % 60)) s (log: $log)"
    results+=("$line")
    echo "$line"
    if [ "$result" = FAILED ]; then
        # The failing tests, as Swift Testing and XCTest name them.
        grep -E "✘ Test|failed after|error: .*XCTAssert|Test Case .* failed" "$log" | head -20 | sed 's/^/    /'
    fi
done

echo
echo "summary: $passed of $runs runs passed under stress-ng --cpu 2"
for line in "${results[@]}"; do echo "  $line"; done
[ "$passed" -eq "$runs" ]
