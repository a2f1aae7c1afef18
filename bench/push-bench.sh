#!/usr/bin/env bash
# Benchmark of issue 47 (push: long-poll, stream, webhooks), on each store in turn (SQLite, then a
# PostgreSQL server started here with durable settings):
#  1. latency: a long-poll (wait=30) held on a node, and a webhook to a receiver of the driver's;
#     ROUNDS imports of one meeting each (the import command, as an operator runs it); from each
#     import's return to the long-poll's answer and to the webhook's delivery: p50, p95, max. On
#     PostgreSQL a second node runs beside the first, and the long-poll is held on the second
#     (cluster mode: it learns of the import from the database, as every node does).
#  2. load: search p50 and p99 (one client, searches one after another) with nothing held, then
#     with HELD long-polls and STREAMS streams open, alternating, BENCH_LOAD_ROUNDS rounds (6); and the server's
#     heap after a full GC with none and with all of them held.
# Prints the figures for docs/BENCHMARKS.md.
#   bench/push-bench.sh [MEETINGS] [ROUNDS] [HELD] [STREAMS]
# BENCH_STORES ("sqlite postgresql") picks the stores.
set -euo pipefail
cd "$(dirname "$0")/.."
MEETINGS=${1:-2000}
ROUNDS=${2:-20}
HELD=${3:-1000}
STREAMS=${4:-100}
STORES=${BENCH_STORES:-sqlite postgresql}
OUT=bench/out/push
PORT=${BENCH_PORT:-18090}
PORT_B=$((PORT + 1))
RECEIVER=$((PORT + 2))
mkdir -p "$OUT"
export MINUTES_INDEX_PATH="$OUT/index-commands"   # the imports' own index; each server has its own
source scripts/postgres.sh

./run.sh --version >/dev/null   # builds the jar when needed
JAVA="$(./run.sh java-home)/bin/java"
RUN=("$JAVA" --enable-native-access=ALL-UNNAMED -Xmx1g -jar target/minutes.jar)
SERVERS=() PG_DIR="$OUT/pg"
stop_servers() { for s in "${SERVERS[@]}"; do kill "$s" 2>/dev/null; wait "$s" 2>/dev/null || true; done; SERVERS=(); }
cleanup() { stop_servers; pg_stop "$PG_DIR" 2>/dev/null || true; }
trap cleanup EXIT

[ -f "$OUT/corpus.ndjson" ] || "${RUN[@]}" generate --meetings "$MEETINGS" --workspaces 1 --seed 47 --out "$OUT/corpus.ndjson"
WS=$(grep -m1 '"kind":"workspace"' "$OUT/corpus.ndjson" | sed 's/.*"slug":"\([^"]*\)".*/\1/')
echo '{"kind":"workspace","slug":"bench-push","name":"Push bench"}' > "$OUT/start.ndjson"

start_server() { # name port
  MINUTES_HTTP_PORT=$2 MINUTES_INDEX_PATH="$OUT/index-$1" MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0 \
    "$JAVA" -Xmx512m -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -jar target/minutes.jar serve > "$OUT/server-$1.log" 2>&1 &
  SERVERS+=($!)
  for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$2/healthz" >/dev/null && return; sleep 0.2; done
  echo "the server $1 did not start (see $OUT/server-$1.log)" >&2; return 1
}
heap_mb() { # pid: heap used after a full GC, in MB
  jcmd "$1" GC.run >/dev/null
  jstat -gc "$1" | awk 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i} NR == 2 {print int(($col["S0U"] + $col["S1U"] + $col["EU"] + $col["OU"]) / 1024)}'
}

for store in $STORES; do
  if [ "$store" = postgresql ]; then pg_fresh_minutes "$PG_DIR"; else rm -rf "$OUT/minutes.db"*; export MINUTES_DB_PATH="$OUT/minutes.db"; unset MINUTES_DB_URL; fi
  rm -rf "$OUT"/index-*
  "${RUN[@]}" import "$OUT/corpus.ndjson" > /dev/null
  "${RUN[@]}" import "$OUT/start.ndjson" > /dev/null
  key=$("${RUN[@]}" keys create --workspace "$WS" --scopes meetings:read | tail -1)
  pushkey=$("${RUN[@]}" keys create --workspace bench-push --scopes meetings:read --name push | tail -1)
  pushid=$("${RUN[@]}" keys list | awk '$4 == "push" {print $1}')
  "${RUN[@]}" webhooks create --key "$pushid" --url "http://127.0.0.1:$RECEIVER/hook" > /dev/null
  start_server "$store-a" "$PORT"
  poll_port=$PORT
  if [ "$store" = postgresql ]; then start_server "$store-b" "$PORT_B"; poll_port=$PORT_B; fi
  echo "**$store** ($(date -u '+%Y-%m-%d %H:%M') UTC, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD))"
  "$JAVA" bench/PushBench.java latency "$poll_port" "$pushkey" "$RECEIVER" "$ROUNDS" -- "${RUN[@]}" import "$OUT/one.ndjson"
  stop_servers
  start_server "$store-a" "$PORT"
  pid=${SERVERS[0]}
  before=$(heap_mb "$pid")
  "$JAVA" bench/PushBench.java load "$PORT" "$key" "${BENCH_LOAD_ROUNDS:-6}" 1000 "$HELD" "$STREAMS" &
  driver=$!
  # The heap with everything held: sampled while the first round's long-polls and streams are open.
  for _ in $(seq 1 600); do
    held=$(curl -sf "http://127.0.0.1:$PORT/metrics" | awk '$1 == "minutes_changes_waiting" {print int($2)}')
    [ "${held:-0}" -ge $((HELD + STREAMS)) ] && break; sleep 0.1
  done
  during=$(heap_mb "$pid")
  wait "$driver"
  echo "heap after a full GC: $before MB with none held, $during MB with $HELD long-polls and $STREAMS streams (+$((during - before)) MB)"
  stop_servers
done
