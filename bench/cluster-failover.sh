#!/usr/bin/env bash
# Failover benchmark (issue 12): scripts/cluster.sh with two nodes behind nginx, 16 clients
# searching through nginx for 60 s; 15 s in, one node is killed with kill -9, 20 s later it is
# started again and catches up. Prints wrk's latency distribution, its count of failed
# requests (non-2xx and socket errors: the target is 0) and what happened when, for
# docs/BENCHMARKS.md.
#   bench/cluster-failover.sh [SECONDS] [CLIENTS]
# BENCH_IMPORT=FILE imports an NDJSON file first (e.g. bench/out/api/corpus.ndjson), so that the
# nodes search more than the demo data.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
CLIENTS=${2:-16}
PORT=${BENCH_PORT:-18180}
OUT=bench/out/failover
mkdir -p "$OUT"
command -v wrk >/dev/null || scripts/debian-install.sh wrk
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

# One key carries all the load here: the per-key rate limit (per node) would refuse most of it.
export MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0
# The queue's wait limit is off too (the bound of 16 waiting stays): with one node killed, 16
# clients on the other, which shares 2 cores with nginx, PostgreSQL and wrk, often wait past
# 50 ms, and the node sheds them as configured: 70 % of the requests at 21:57 on 2026-11-25
# (docs/BENCHMARKS.md). This bench measures failing over, not overload.
export MINUTES_HTTP_MAX_QUEUE_WAIT_MS=0
scripts/cluster.sh --port "$PORT" > "$OUT/cluster.out" 2> "$OUT/cluster.err" &
CLUSTER=$!
RESTARTED=""
cleanup() {
  [ -z "$RESTARTED" ] || { kill "$RESTARTED" 2>/dev/null; wait "$RESTARTED" 2>/dev/null || true; }
  kill -TERM "$CLUSTER" 2>/dev/null || true  # a background job of a script ignores SIGINT
  wait "$CLUSTER" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 600); do grep -q 'Ctrl-C stops' "$OUT/cluster.out" 2>/dev/null && break; sleep 0.5; done
grep -q 'Ctrl-C stops' "$OUT/cluster.out" || { echo "the cluster did not start; see $OUT/cluster.err" >&2; exit 1; }
KEY=$(sed -n 's/^  \(mk_[A-Za-z0-9_-]*\)$/\1/p' "$OUT/cluster.out" | head -n 1)
DB_URL=$(sed -n "s/^  MINUTES_DB_URL='\([^']*\)'.*/\1/p" "$OUT/cluster.out")
WORK=$(sed -n 's/^cluster folder: //p' "$OUT/cluster.err")
if [ -n "${BENCH_IMPORT:-}" ]; then
  echo "importing $BENCH_IMPORT..." >&2
  MINUTES_DB_URL="$DB_URL" MINUTES_INDEX_PATH="$OUT/cli-index" ./run.sh import "$BENCH_IMPORT" >&2
  # Both nodes follow the import; wait until each has caught up (no pending change_log entries).
  for node in 1 2; do
    for _ in $(seq 1 1200); do
      lag=$(curl -fs "http://127.0.0.1:$((PORT + node))/metrics" | awk '/^minutes_index_lag_entries /{print $2}')
      [ "${lag:-1}" = "0.0" ] && break
      sleep 0.5
    done
  done
fi
for q in remote design budget "battery%20life" "%22we%20should%22" meeting "market%20research" project; do
  echo "/api/v1/search?q=$q"
done > "$OUT/search-paths.txt"

node2_pid() { ss -ltnp "sport = :$((PORT + 2))" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1; }
started=$(date +%s.%N)
PATHS="$OUT/search-paths.txt" KEY="$KEY" wrk -t2 -c"$CLIENTS" -d"${SECS}s" --latency --timeout 10s \
  -s bench/paths.lua "http://127.0.0.1:$PORT" > "$OUT/wrk.txt" &
WRK=$!
sleep 15
victim=$(node2_pid)
kill -9 "$victim"
killed=$(date +%s.%N)
echo "node 2 (pid $victim) killed with kill -9" >&2
sleep 20
MINUTES_DB_URL="$DB_URL" MINUTES_HTTP_PORT=$((PORT + 2)) MINUTES_INDEX_PATH="$WORK/index-2" \
  ./run.sh serve > "$OUT/node-2-restarted.log" 2>&1 &
RESTARTED=$!
restart_at=$(date +%s.%N)
for _ in $(seq 1 600); do curl -fs -o /dev/null "http://127.0.0.1:$((PORT + 2))/healthz" && break; sleep 0.1; done
healthy_at=$(date +%s.%N)
echo "node 2 started again, healthy after $(awk -v a="$restart_at" -v b="$healthy_at" 'BEGIN{printf "%.1f", b-a}') s" >&2
wait "$WRK"
WRK_OUT=$(cat "$OUT/wrk.txt")

echo "| $CLIENTS clients, ${SECS} s, search through nginx; node 2 killed at $(awk -v a="$started" -v b="$killed" 'BEGIN{printf "%.0f", b-a}') s and restarted at $(awk -v a="$started" -v b="$restart_at" 'BEGIN{printf "%.0f", b-a}') s | value |"
echo "|---|---|"
echo "| requests | $(awk '/requests in/{print $1}' <<<"$WRK_OUT") |"
echo "| failed (non-2xx) | $(awk '/Non-2xx/{print $5}' <<<"$WRK_OUT" | grep . || echo 0) |"
echo "| failed (socket errors) | $(awk '/Socket errors/{print $0}' <<<"$WRK_OUT" | grep . || echo none) |"
echo "| p50 / p90 / p99 | $(awk '$1=="50%"{a=$2} $1=="90%"{b=$2} $1=="99%"{c=$2} END{print a" / "b" / "c}' <<<"$WRK_OUT") |"
echo "| max | $(awk '/Latency /{print $4}' <<<"$WRK_OUT") |"
echo "| req/s | $(awk '/Requests\/sec/{print $2}' <<<"$WRK_OUT") |"
echo "| restarted node healthy after | $(awk -v a="$restart_at" -v b="$healthy_at" 'BEGIN{printf "%.1f s", b-a}') |"
echo
echo "date: $(date -u +%Y-%m-%dT%H:%MZ), command: bench/cluster-failover.sh $SECS $CLIENTS${BENCH_IMPORT:+ (BENCH_IMPORT=$BENCH_IMPORT)}, machine: $(nproc) cores, load average before: $LOAD_BEFORE"
