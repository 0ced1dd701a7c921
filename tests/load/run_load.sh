#!/usr/bin/env bash
# Load test: the production command (`make run`) on loopback, driven by Debian's wrk.
#
# For each connection count (32 and 128) it runs, one after the other on the same server:
#   trivial  GET /api/health, the route that does nothing (the server's own ceiling)
#   score    GET /api/score on a real hand
#   mix      calculator and result pages, API calls (score, waits, settle) and error requests
# each for $DURATION seconds (60 by default), then prints requests per second, p50/p99
# latency, errors (socket errors, 5xx, unexpected statuses) and /api/score's throughput as a
# share of the trivial route's. Traffic goes to 127.0.0.1 only; every run is bounded in time
# and the server is stopped at the end, whatever happens.
#
#   make load                        # or: bash tests/load/run_load.sh
#   DURATION=10 make load            # a quick look
#   CONNECTIONS="32" LOAD_PORT=9100 bash tests/load/run_load.sh
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
DURATION="${DURATION:-60}"
CONNECTIONS="${CONNECTIONS:-32 128}"
WRK_THREADS="${WRK_THREADS:-2}"
PORT="${LOAD_PORT:-8765}"
OUT="${LOAD_OUT:-$(mktemp -d /tmp/mahjong-load.XXXXXX)}"
BASE="http://127.0.0.1:$PORT"
SCRIPT="$ROOT/tests/load/load.lua"
SCORE_PATH="/api/score?rules=hong-kong&hand=123m456m789m234p55s&discarder=N"
mkdir -p "$OUT"

if ! command -v wrk >/dev/null 2>&1; then
    echo "load: installing Debian's wrk"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -q
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q wrk
fi
make -s install

if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    echo "load: port $PORT is taken; set LOAD_PORT" >&2
    exit 1
fi

# The production command, exactly as `make run` gives it, on loopback only. setsid puts make,
# gunicorn and its workers in one process group, which the trap stops.
setsid make -s run HOST=127.0.0.1 PORT="$PORT" >"$OUT/server.log" 2>&1 &
SERVER=$!
stop() {
    kill -TERM -- "-$SERVER" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 -- "-$SERVER" 2>/dev/null || return 0; sleep 0.2; done
    kill -KILL -- "-$SERVER" 2>/dev/null || true
}
trap stop EXIT

# Wait on a deadline (a first run installs the package before gunicorn starts).
deadline=$((SECONDS + 180))
until curl -fsS --max-time 2 -o /dev/null "$BASE/api/health" 2>/dev/null; do
    kill -0 "$SERVER" 2>/dev/null || { echo "load: the server did not start:" >&2; cat "$OUT/server.log" >&2; exit 1; }
    [ "$SECONDS" -lt "$deadline" ] || { echo "load: no answer within 180 s" >&2; cat "$OUT/server.log" >&2; exit 1; }
    sleep 0.2
done

run() {   # name connections url [mix]
    local name=$1 conns=$2 url=$3 mix=${4:-0}
    LOAD_MIX=$mix timeout $((DURATION + 30)) wrk -t"$WRK_THREADS" -c"$conns" -d"${DURATION}s" \
        --timeout 5s --latency -s "$SCRIPT" "$url" >"$OUT/$name-$conns.txt" 2>&1
    local line
    line=$(grep '^RESULT' "$OUT/$name-$conns.txt" || true)
    [ -n "$line" ] || { echo "load: wrk gave no result for $name at $conns:" >&2; cat "$OUT/$name-$conns.txt" >&2; exit 1; }
    echo "$name $conns ${line#RESULT }" >>"$OUT/results.txt"
    echo "  $name at $conns connections: ${line#RESULT }"
}

echo "load: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, ${DURATION}s a run, wrk -t$WRK_THREADS, server log in $OUT"
: >"$OUT/results.txt"
LOAD_MIX=1 timeout 30 wrk -t"$WRK_THREADS" -c32 -d3s -s "$SCRIPT" "$BASE/" >/dev/null 2>&1 || true   # warm up
for conns in $CONNECTIONS; do
    run trivial "$conns" "$BASE/api/health"
    run score "$conns" "$BASE$SCORE_PATH"
    run mix "$conns" "$BASE/" 1
done

tracebacks=$(grep -c 'Traceback' "$OUT/server.log" || true)
"$ROOT/.venv/bin/python" - "$OUT/results.txt" "$tracebacks" <<'PY'
import sys

rows = {}
for line in open(sys.argv[1]):
    name, conns, *fields = line.split()
    rows[name, int(conns)] = dict(f.split("=", 1) for f in fields)
failed = []
print(f"\n{'run':<8} {'conns':>5} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'5xx':>5}  statuses")
for (name, conns), r in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    errors = int(r["socket_errors"]) + int(r["unexpected"])
    print(f"{name:<8} {conns:>5} {float(r['rps']):>9.0f} {float(r['p50_ms']):>8.2f} "
          f"{float(r['p99_ms']):>8.2f} {errors:>7} {int(r['server_errors']):>5}  {r['statuses']}")
    if errors or int(r["server_errors"]):
        failed.append(f"{name} at {conns}: {errors} errors, {r['server_errors']} 5xx")
print()
for conns in sorted({c for _, c in rows}):
    trivial, score = rows.get(("trivial", conns)), rows.get(("score", conns))
    if trivial and score:
        ratio = float(score["rps"]) / float(trivial["rps"])
        print(f"/api/score at {conns} connections: {float(score['rps']):.0f} req/s = {ratio:.2f} x the"
              f" trivial route's {float(trivial['rps']):.0f} req/s (target: at least 0.50)")
        if ratio < 0.5:
            failed.append(f"/api/score throughput {ratio:.2f} of the trivial route's at {conns}")
    mix = rows.get(("mix", conns))
    if conns == 32 and mix:
        print(f"mix p99 at 32 connections: {float(mix['p99_ms']):.2f} ms (target: under 50 ms)")
        if float(mix["p99_ms"]) >= 50:
            failed.append(f"mix p99 {mix['p99_ms']} ms at 32 connections")
if int(sys.argv[2]):
    failed.append(f"{sys.argv[2]} tracebacks in the server log")
print("\nload: " + ("all targets met" if not failed else "MISSED: " + "; ".join(failed)))
sys.exit(1 if failed else 0)
PY
