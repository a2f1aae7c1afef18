#!/usr/bin/env bash
# Cold start (issue 15 item 6): p99 of the first 1,000 searches after a restart against the warm
# p99, without and with the JDK's ahead-of-time cache (JDK 25+, JEP 483/514/515; `./run.sh aot`).
# Uses the corpus of bench/load-while-importing.sh (20,000 meetings; BENCH_MEETINGS=N for the
# smaller copy under bench/out/load-N, which that script builds), copied so the original stays.
# Each mode: start the server, wait for /healthz, send 1,000 searches one after another (cold),
# then 4,000 more to warm up, then 1,000 again (warm). Prints one line per measurement:
#   mode phase searches p50_ms p99_ms max_ms
# BENCH_CORPUS=DIR starts on DIR/minutes.db and DIR/index with the key in DIR/key instead (the
# folder bench/search-bench.sh leaves). BENCH_ROUNDS=N (default 1) measures N times, each start
# followed by one without the search warm-up (mode no-warm-up, search.warmup_ms=0): what the
# warm-up buys. BENCH_AOT=0 skips the ahead-of-time cache.
#   bench/cold-start.sh [SEARCHES]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}
MEETINGS=${BENCH_MEETINGS:-20000}
SRC=bench/out/load
[ "$MEETINGS" = 20000 ] || SRC="bench/out/load-$MEETINGS"
DB=$SRC/base.db INDEX=$SRC/base-index
[ -z "${BENCH_CORPUS:-}" ] || { SRC=$BENCH_CORPUS DB=$BENCH_CORPUS/minutes.db INDEX=$BENCH_CORPUS/index; }
[ -f "$DB" ] && [ -d "$INDEX" ] || { echo "no corpus in $SRC: run bench/load-while-importing.sh first (BENCH_MEETINGS=$MEETINGS), or name one in BENCH_CORPUS" >&2; exit 1; }
OUT=bench/out/cold
PORT=${BENCH_PORT:-18091}
./run.sh --version >/dev/null   # builds the jar when needed
JAVA="$(./run.sh java-home)/bin/java"
MAJOR=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | cut -d. -f1)
read -ra OPTS <<<"$(./run.sh java-opts serve)"   # as run.sh starts the server
SERVER=""
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; wait 2>/dev/null || true' EXIT

rm -rf "$OUT" && mkdir -p "$OUT"
cp "$DB" "$OUT/minutes.db" && cp -r "$INDEX" "$OUT/index"
export MINUTES_DB_PATH="$OUT/minutes.db" MINUTES_INDEX_PATH="$OUT/index" MINUTES_HTTP_PORT="$PORT" MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0
if [ -n "${BENCH_CORPUS:-}" ]; then KEY=$(cat "$BENCH_CORPUS/key"); else
  KEY=$("$JAVA" "${OPTS[@]}" -jar target/minutes.jar keys create --workspace bench-1 --scopes meetings:read | tail -1); fi
if curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz"; then echo "port $PORT is in use (BENCH_PORT=...)" >&2; exit 1; fi

# One start: the first N searches, then a warm-up, then N again. $1 names the mode; the rest are JVM options.
measure() {
  local mode=$1; shift
  # A restarted process finds the index in the page cache; after a reboot it would not (BENCH_DROP_CACHES=1, root).
  if [ "${BENCH_DROP_CACHES:-0}" = 1 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi
  local t0; t0=$(date +%s%N)
  "$JAVA" "${OPTS[@]}" "$@" -jar target/minutes.jar serve > "$OUT/server-$mode.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 1200); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done
  echo "$mode healthy_after_ms $(( ($(date +%s%N) - t0) / 1000000 ))"
  "$JAVA" bench/ColdStart.java "$PORT" "$KEY" "$N" "$mode first"
  "$JAVA" bench/ColdStart.java "$PORT" "$KEY" 4000 "$mode warm-up" > /dev/null
  "$JAVA" bench/ColdStart.java "$PORT" "$KEY" "$N" "$mode warm"
  kill "$SERVER"; wait "$SERVER" || true; SERVER=""
}

echo "date: $(date -u +%Y-%m-%dT%H:%MZ), JDK $MAJOR, $MEETINGS meetings, load average $(cut -d' ' -f1 /proc/loadavg)"
for _ in $(seq 1 "${BENCH_ROUNDS:-1}"); do
  measure plain
  [ "${BENCH_ROUNDS:-1}" = 1 ] || MINUTES_SEARCH_WARMUP_MS=0 measure no-warm-up
done
if [ "${BENCH_AOT:-1}" = 0 ]; then
  :
elif [ "$MAJOR" -ge 25 ]; then
  # The cache is trained on the demo data by `./run.sh aot` (classes, linking and method profiles, not data).
  ./run.sh aot >&2
  measure aot "-XX:AOTCache=target/minutes.aot"
else
  echo "JDK $MAJOR has no ahead-of-time cache (JDK 25+): measured without it only"
fi
