#!/usr/bin/env bash
# Load while importing (issue 5, part 2; issue 15 item 4): 64 clients for 60 s mixing every
# endpoint against the 20,000-meeting corpus (the one bench/api-bench.sh uses: seed 42, 2
# workspaces, 20 tasks a meeting) while `import` adds 2,000 meetings (from 3 s) and `reindex`
# runs once (from 6 s). The load driver (bench/LoadDriver.java) accepts only 200 or a clean
# refusal (429/503 with the error body and Retry-After, which it then honours), spot-checks
# answers against SQLite and prints p50/p99 of the accepted requests for docs/BENCHMARKS.md.
# Exits non-zero on any failure, wrong answer or lost meeting.
#   bench/load-while-importing.sh [CLIENTS] [SECONDS]
# BENCH_MEETINGS (default 20000) and BENCH_EXTRA (2000) size a smaller trial run (its corpus is
# kept apart, under bench/out/load-N); BENCH_KEYS_PER_KIND (4) keys of each kind (two workspace
# keys and a personal one) share the clients, as separate integrations would. The server takes
# the overload settings from the environment as usual (MINUTES_HTTP_MAX_IN_FLIGHT, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENTS=${1:-64}
SECS=${2:-60}
MEETINGS=${BENCH_MEETINGS:-20000}
EXTRA=${BENCH_EXTRA:-2000}
PER_KIND=${BENCH_KEYS_PER_KIND:-4}
OUT=bench/out/load
[ "$MEETINGS" = 20000 ] || OUT="bench/out/load-$MEETINGS"
PORT=${BENCH_PORT:-18090}
mkdir -p "$OUT"
JAR=${MINUTES_JAR:-target/minutes.jar}
[ -n "${MINUTES_JAR:-}" ] || ./run.sh --version >/dev/null   # builds the jar when needed
JAVA="$(./run.sh java-home)/bin/java"
read -ra SERVE_OPTS <<<"$(./run.sh java-opts serve)"   # as run.sh starts the server
CP="$JAR:$(dirname "$JAR")/lib/*"
RUN=("$JAVA" "${SERVE_OPTS[@]}" -jar "$JAR")
PIDS=()
# import and reindex run in ( ... ) subshells: kill each one's children (the JVM) before the pid itself.
trap 'for p in "${PIDS[@]}"; do pkill -P "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done; for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done' EXIT

# The corpus: built once, then every run starts from a copy of the same database and index.
if [ ! -f "$OUT/base.db" ]; then
  if [ ! -f "$OUT/corpus.ndjson" ]; then
    echo "generating $MEETINGS meetings..." >&2
    "${RUN[@]}" generate --meetings "$MEETINGS" --tasks-per-meeting 20 --workspaces 2 --seed 42 --out "$OUT/corpus.ndjson"
  fi
  MINUTES_DB_PATH="$OUT/base.db" MINUTES_INDEX_PATH="$OUT/base-index" "${RUN[@]}" import "$OUT/corpus.ndjson" >&2
  rm -f "$OUT/corpus.ndjson"   # 234 MB; base.db holds it all now
fi
if [ ! -d "$OUT/base-index" ]; then
  MINUTES_DB_PATH="$OUT/base.db" MINUTES_INDEX_PATH="$OUT/base-index" "${RUN[@]}" reindex >&2
fi
[ -f "$OUT/extra.ndjson" ] || "${RUN[@]}" generate --meetings "$EXTRA" --tasks-per-meeting 20 --workspaces 2 --seed 4242 --out "$OUT/extra.ndjson"

rm -rf "$OUT/minutes.db"* "$OUT/index"
cp "$OUT/base.db" "$OUT/minutes.db"
cp -r "$OUT/base-index" "$OUT/index"
export MINUTES_DB_PATH="$OUT/minutes.db" MINUTES_INDEX_PATH="$OUT/index" MINUTES_HTTP_PORT="$PORT"
USER1=$(sqlite3 "$MINUTES_DB_PATH" "SELECT u.email FROM app_user u JOIN workspace w ON w.id = u.workspace_id WHERE w.slug = 'bench-1' ORDER BY u.email LIMIT 1")
SCOPES=meetings:read,action_items:read,transcripts:read
: > "$OUT/keys.txt"; chmod 600 "$OUT/keys.txt"
for i in $(seq 1 "$PER_KIND"); do
  K=$("${RUN[@]}" keys create --workspace bench-1 --scopes $SCOPES | tail -1)
  [ "$i" = 1 ] && K1=$K
  printf 'ws1-%s bench-1 -- %s\n' "$i" "$K" >> "$OUT/keys.txt"
  printf 'ws2-%s bench-2 -- %s\n' "$i" "$("${RUN[@]}" keys create --workspace bench-2 --scopes $SCOPES | tail -1)" >> "$OUT/keys.txt"
  printf 'personal-%s bench-1 %s %s\n' "$i" "$USER1" "$("${RUN[@]}" keys create --workspace bench-1 --user "$USER1" --scopes $SCOPES | tail -1)" >> "$OUT/keys.txt"
done

if curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz"; then echo "port $PORT is in use (BENCH_PORT=...)" >&2; exit 1; fi
"${RUN[@]}" serve > "$OUT/server.log" 2>&1 &
SERVER=$!; PIDS+=("$SERVER")
for _ in $(seq 1 600); do
  kill -0 "$SERVER" 2>/dev/null || { echo "the server exited; see $OUT/server.log" >&2; exit 1; }
  curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.5
done
curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null || { echo "server not healthy" >&2; exit 1; }

LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
echo "load: $CLIENTS clients for $SECS s; import of $EXTRA meetings at 3 s, reindex at 6 s" >&2
T0=$(date +%s.%N)
"$JAVA" -Xmx512m --enable-native-access=ALL-UNNAMED -cp "$CP" bench/LoadDriver.java "$PORT" "$MINUTES_DB_PATH" "$OUT/keys.txt" "$CLIENTS" "$SECS" > "$OUT/driver.txt" 2>"$OUT/driver.err" &
DRIVER=$!; PIDS+=("$DRIVER")
stamp() { awk -v t0="$T0" -v t="$(date +%s.%N)" 'BEGIN{printf "%.1f", t-t0}'; }
sleep 3
( s=$(stamp); rc=0; "${RUN[@]}" import "$OUT/extra.ndjson" > "$OUT/import.log" 2>&1 || rc=$?
  echo "import: $s s -> $(stamp) s, exit $rc: $(grep imported "$OUT/import.log")" > "$OUT/import.when"; exit $rc ) &
IMPORT=$!; PIDS+=("$IMPORT")
sleep 3
( s=$(stamp); rc=0; "${RUN[@]}" reindex > "$OUT/reindex.log" 2>&1 || rc=$?
  echo "reindex: $s s -> $(stamp) s, exit $rc: $(tail -1 "$OUT/reindex.log")" > "$OUT/reindex.when"; exit $rc ) &
REINDEX=$!; PIDS+=("$REINDEX")
set +e
wait "$DRIVER"; DRIVER_EXIT=$?
wait "$IMPORT" || { echo "import failed; see $OUT/import.log" >&2; DRIVER_EXIT=1; }
wait "$REINDEX" || { echo "reindex failed; see $OUT/reindex.log" >&2; DRIVER_EXIT=1; }
set -e
cat "$OUT/driver.txt"
echo
cat "$OUT/import.when" "$OUT/reindex.when"
# After the load: the server switches to the reindexed generation and catches up with the
# import; then every count agrees (bounded wait).
AFTER=bad
GEN=$(grep -o 'index gen-[0-9]* is' "$OUT/reindex.log" | awk '{print $2}')
for _ in $(seq 1 240); do
  if [ -n "$GEN" ] && grep -q "search answers from index $GEN" "$OUT/server.log"; then AFTER=switched; break; fi
  sleep 0.5
done
DBN=$(sqlite3 "$MINUTES_DB_PATH" "SELECT count(*) FROM meeting m JOIN workspace w ON w.id = m.workspace_id WHERE w.slug = 'bench-1'")
APIN=$(curl -s -H "Authorization: Bearer $K1" "http://127.0.0.1:$PORT/api/v1/meetings?limit=1" | sed 's/.*"total":\([0-9]*\).*/\1/')
ALLN=$(sqlite3 "$MINUTES_DB_PATH" "SELECT count(*) FROM meeting")
IDXN=$(grep -o "search answers from index ${GEN:-none} ([0-9]*" "$OUT/server.log" | tail -1 | grep -o '[0-9]*$')
echo "after: index $AFTER to the reindexed generation ${GEN:-?}, holding ${IDXN:-?} meetings (database: $ALLN); bench-1 meetings: database $DBN, API $APIN"
[ "$AFTER" = switched ] && [ "$DBN" = "$APIN" ] && [ "${IDXN:-x}" = "$ALLN" ] || DRIVER_EXIT=1
echo "server log: $(grep -c ' ERROR ' "$OUT/server.log" || true) ERROR lines"
echo "server metrics: $(curl -s "http://127.0.0.1:$PORT/metrics" | grep -E '^minutes_(http_shed_total|timeouts_total)' | tr '\n' ' ')"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ), machine: $(nproc) cores (shared), load average before: $LOAD_BEFORE, server -Xmx512m"
exit "$DRIVER_EXIT"
