#!/usr/bin/env bash
# Run the whole suite RUNS times in a row (default 3) while BURNERS busy loops (default 2) keep
# every core busy: timing-dependent waits in the tests must hold on a loaded machine.
# Usage: bash tests/busy_suite.sh   (after `make install`); stops at the first failing run.
# Run it in a clone of its own: the suite reads templates and rulesets from the work tree.
# Each run's output goes to $LOG/busy-suite-run-N.log (LOG defaults to /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-3}"
burners="${BURNERS:-2}"
pids=()
stop() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop EXIT
for _ in $(seq "$burners"); do
    python3 -c "while True: pass" &
    pids+=($!)
done
echo "busy-suite: $burners busy loops running; $(nproc) cores"
for run in $(seq "$runs"); do
    start=$(date +%s)
    status=0
    .venv/bin/python -m pytest -q -p no:cacheprovider > "${LOG:-/tmp}/busy-suite-run-$run.log" 2>&1 || status=$?
    summary=$(tail -1 "${LOG:-/tmp}/busy-suite-run-$run.log")
    echo "busy-suite: run $run: $summary (exit $status, wall $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg))"
    [ "$status" = 0 ] || exit 1
done
