#!/usr/bin/env bash
# Benchmark of issue 13 (deletes, erasure, the change feed), on each store in turn (SQLite, then
# a PostgreSQL server started here with durable settings), the same steps on both:
#  1. history: import the corpus of bench/api-bench.sh (MEETINGS meetings, 20 tasks each, two
#     workspaces, seed 42), then import its meetings four times more (each a replacement), so
#     that the history holds 5 x MEETINGS changes (100,000 at 20,000 meetings); reindex.
#  2. feed: GET /api/v1/changes?limit=100 from cursors spread over the whole history (one every
#     1,000 changes of the workspace key, at most 100), with 8 connections (wrk), for a workspace
#     key and for a personal key: p50 and p99, next to GET /healthz as the reference.
#  3. delete: MEETINGS/10 meetings of one workspace (2,000 at 20,000), imported (as a replacement)
#     and then deleted in one import, each timed; right after the delete returns, a search for 20
#     of their titles must find none of them; then how long until the server's index has applied
#     the delete (lag 0) and until the deleted text is merged out of its files (no deleted
#     document left: erasure), and what the import's erasure step (WAL checkpoint or VACUUM) took.
#  4. erasure's cost on import throughput: with BENCH_BASELINE_JAR (target/minutes.jar of a build
#     from before issue 13, with its lib/ next to it) the same corpus is imported by that build
#     into a fresh database of the same store, first fresh and then again as a replacement, next to
#     this build's first two imports of step 1.
# Prints a Markdown table per store for docs/BENCHMARKS.md.
#   bench/changes-bench.sh [MEETINGS] [SECONDS]
# BENCH_STORES ("sqlite postgresql") picks the stores. BENCH_TRANSCRIPT_KB (e.g. 40-100, as
# bench/search-bench.sh; default 0, no transcripts, as bench/api-bench.sh) gives the meetings
# transcripts, for the erasure's merge at the index segment sizes of the search benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
MEETINGS=${1:-20000}
SECONDS_EACH=${2:-15}
STORES=${BENCH_STORES:-sqlite postgresql}
BASELINE=${BENCH_BASELINE_JAR:-}
TRANSCRIPT_KB=${BENCH_TRANSCRIPT_KB:-0}
OUT=bench/out/changes
[ "$MEETINGS" = 20000 ] || OUT="$OUT-$MEETINGS"
[ "$TRANSCRIPT_KB" = 0 ] || OUT="$OUT-transcripts-$TRANSCRIPT_KB"
PORT=${BENCH_PORT:-18085}
mkdir -p "$OUT"
command -v wrk >/dev/null || scripts/debian-install.sh wrk
command -v jq >/dev/null || scripts/debian-install.sh jq
source scripts/postgres.sh

./run.sh --version >/dev/null   # builds the jar when needed
JAVA="$(./run.sh java-home)/bin/java"
RUN=("$JAVA" --enable-native-access=ALL-UNNAMED -Xmx2g -jar target/minutes.jar)
SERVER="" PG_DIR="$OUT/pg"
stop_server() { [ -z "$SERVER" ] || { kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true; SERVER=""; }; }
cleanup() { stop_server; pg_stop "$PG_DIR" 2>/dev/null || true; }
trap cleanup EXIT

if [ ! -f "$OUT/corpus.ndjson" ]; then
  echo "generating $MEETINGS meetings..." >&2
  "${RUN[@]}" generate --meetings "$MEETINGS" --tasks-per-meeting 20 --workspaces 2 --seed 42 \
    --transcript-kb "$TRANSCRIPT_KB" --out "$OUT/corpus.ndjson"
fi
WS=$(grep -m1 '"kind":"user"' "$OUT/corpus.ndjson" | sed 's/.*"workspace":"\([^"]*\)".*/\1/')
USER_EMAIL=$(grep -m1 '"kind":"user"' "$OUT/corpus.ndjson" | sed 's/.*"email":"\([^"]*\)".*/\1/')
grep '"kind":"meeting"' "$OUT/corpus.ndjson" > "$OUT/meetings.ndjson"
# The meetings deleted in step 3: the first tenth of one workspace's, with their titles.
awk -v ws="\"workspace\":\"$WS\"" -v n=$((MEETINGS / 10)) 'index($0, ws) && c++ < n' "$OUT/meetings.ndjson" > "$OUT/subset.ndjson"
sed 's/.*"kind":"meeting","workspace":"[^"]*","id":"\([^"]*\)".*/\1/' "$OUT/subset.ndjson" > "$OUT/subset-ids.txt"
sed "s/.*/{\"kind\":\"delete\",\"what\":\"meeting\",\"workspace\":\"$WS\",\"id\":\"&\"}/" "$OUT/subset-ids.txt" > "$OUT/deletes.ndjson"
head -20 "$OUT/subset.ndjson" | jq -r '.title' > "$OUT/subset-titles.txt"
echo '{"kind":"workspace","slug":"bench-0","name":"Bench start"}' > "$OUT/start.ndjson"

use_store() { # sqlite | postgresql: a fresh, empty database in the environment
  if [ "$1" = postgresql ]; then
    pg_fresh_minutes "$PG_DIR"
  else
    rm -rf "$OUT/minutes.db"*
    export MINUTES_DB_PATH="$OUT/minutes.db"
    unset MINUTES_DB_URL
  fi
  rm -rf "$MINUTES_INDEX_PATH"
}

start_server() {
  MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0 "$JAVA" -Xmx512m -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED \
    -jar target/minutes.jar serve > "$OUT/server-$1.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && return; sleep 0.2; done
  echo "the server did not start (see $OUT/server-$1.log)" >&2; return 1
}

api() { curl -sf -H "Authorization: Bearer $1" "http://127.0.0.1:$PORT$2"; }
metric() { curl -sf "http://127.0.0.1:$PORT/metrics" | awk -v m="$1" '$1 == m {print $2}'; }
is_zero() { [ "$(metric "$1" | awk '{print ($1 == 0)}')" = 1 ]; }
now_ms() { date +%s%3N; }

# An import's "imported ..." line (seconds, MB/s) and its "erased ..." line, if any.
import_timed() { "${RUN[@]}" import "$@" 2> "$OUT/import.err" | tee -a "$OUT/imports.log" | grep -E "^imported|^erased"; }

scenario() { # name key paths-file
  PATHS="$3" KEY="$2" wrk -t2 -c8 -d3s -s bench/paths.lua "http://127.0.0.1:$PORT" >/dev/null
  local out; out=$(PATHS="$3" KEY="$2" wrk -t2 -c8 -d"${SECONDS_EACH}s" --latency -s bench/paths.lua "http://127.0.0.1:$PORT")
  printf '| %s | %s | %s | %s | %s |\n' "$1" "$(awk '$1=="50%"{print $2}' <<<"$out")" "$(awk '$1=="99%"{print $2}' <<<"$out")" \
    "$(awk '/Requests\/sec/{print $2}' <<<"$out")" "$(awk '/Non-2xx/{print $5}' <<<"$out" | grep . || echo 0)"
}

bench_store() {
  local store=$1 cursor0 key pkey cursor rounds=() line t0 deleted applied merged
  export MINUTES_INDEX_PATH="$OUT/index-$store" MINUTES_HTTP_PORT="$PORT"
  use_store "$store"
  : > "$OUT/imports.log"
  echo "$store: history..." >&2
  # A first workspace, so that serve does not load the demo, and a cursor from before any change.
  "${RUN[@]}" import "$OUT/start.ndjson" >/dev/null
  key=$("${RUN[@]}" keys create --workspace bench-0 --scopes meetings:read | tail -1)
  start_server "$store-start"
  cursor0=$(api "$key" /api/v1/changes | jq -r .next_cursor)
  stop_server
  for round in 1 2 3 4 5; do
    rounds+=("$(import_timed "$OUT/corpus.ndjson" | head -1)")
    echo "  import $round: ${rounds[-1]}" >&2
  done
  "${RUN[@]}" reindex | grep "^reindexed" >&2
  # As after any bulk load (docs/CLUSTER.md): else autovacuum visits the tables during the feed
  # scenarios, and their p99 measures it.
  if [ "$store" = postgresql ]; then pg_psql "$PG_DIR" -d minutes -c "VACUUM (ANALYZE)"; fi
  key=$("${RUN[@]}" keys create --workspace "$WS" --scopes meetings:read | tail -1)
  pkey=$("${RUN[@]}" keys create --workspace "$WS" --user "$USER_EMAIL" --scopes meetings:read | tail -1)
  start_server "$store"

  # Cursors spread over the whole history: the workspace key reads it from the start in pages of
  # 1,000, and every step-th next_cursor (at most 100 of them) starts a measured page of 100.
  : > "$OUT/cursors.txt"
  cursor=$cursor0
  local total=0 page
  while :; do
    page=$(api "$key" "/api/v1/changes?limit=1000&since=$cursor")
    total=$((total + $(jq '.data | length' <<<"$page")))
    cursor=$(jq -r .next_cursor <<<"$page")
    echo "$cursor" >> "$OUT/cursors.txt"
    [ "$(jq -r .has_more <<<"$page")" = true ] || break
  done
  local step=$(( ($(wc -l < "$OUT/cursors.txt") + 99) / 100 ))
  awk -v s="$step" 'NR % s == 1 || s == 1 {print "/api/v1/changes?limit=100&since=" $0}' "$OUT/cursors.txt" > "$OUT/feed-paths.txt"

  echo
  echo "**$store** ($MEETINGS meetings, $total changes seen by the workspace key, $(wc -l < "$OUT/feed-paths.txt") cursors)"
  echo
  echo "| request (8 connections, ${SECONDS_EACH}s each) | p50 | p99 | req/s | non-2xx |"
  echo "|---|---|---|---|---|"
  echo /healthz > "$OUT/healthz-path.txt"
  scenario "reference: GET /healthz (HTTP only)" "$key" "$OUT/healthz-path.txt"
  scenario "GET /changes?limit=100 (workspace key)" "$key" "$OUT/feed-paths.txt"
  scenario "GET /changes?limit=100 (personal key)" "$pkey" "$OUT/feed-paths.txt"

  echo
  echo "| step | result |"
  echo "|---|---|"
  echo "| import 1 (fresh) | ${rounds[0]} |"
  echo "| import 2 (replaces every meeting) | ${rounds[1]} |"
  echo "| import $(wc -l < "$OUT/subset.ndjson") meetings (replacing them) | $(import_timed "$OUT/subset.ndjson" | head -1) |"
  line=$(import_timed "$OUT/deletes.ndjson" | tr '\n' ' ')
  t0=$(now_ms)
  # Watched from the moment the import returned, while the searches below run.
  ( applied="" merged=""
    for _ in $(seq 1 6000); do
      [ -n "$applied" ] || { is_zero minutes_index_lag_entries && applied=$(( $(now_ms) - t0 )); }
      [ -n "$applied" ] && is_zero minutes_index_deleted_documents && { merged=$(( $(now_ms) - t0 )); break; }
      sleep 0.05
    done
    echo "${applied:-?} ${merged:-?}" > "$OUT/after-delete.txt" ) &
  local watcher=$!
  deleted=0
  while read -r title; do
    api "$key" "/api/v1/search?limit=100&q=$(jq -rn --arg t "$title" '$t|@uri')" | jq -r '.data[].meeting_id' \
      | grep -qxFf "$OUT/subset-ids.txt" && deleted=$((deleted + 1))
  done < "$OUT/subset-titles.txt"
  echo "| delete them in one import | $line |"
  echo "| searches for 20 of their titles right after (done $(( $(now_ms) - t0 )) ms after the import returned) finding one of them | $deleted |"
  wait "$watcher"
  read -r applied merged < "$OUT/after-delete.txt"
  echo "| index applied the delete (lag 0, polled every 50 ms) | $applied ms after the import returned |"
  echo "| deleted text merged out of the index files (no deleted document left) | $merged ms after (? = not within 5 min); server: $(grep -o 'merged out of its files in [0-9]* ms' "$OUT/server-$store.log" | tail -1) |"
  echo "| database on disk after | $(metric minutes_database_size_bytes | awk '{printf "%.0f MB", $1/1e6}'); index $(metric minutes_index_size_bytes | awk '{printf "%.0f MB", $1/1e6}') |"
  stop_server

  if [ -n "$BASELINE" ]; then
    use_store "$store"
    local base=("$JAVA" --enable-native-access=ALL-UNNAMED -Xmx2g -jar "$BASELINE")
    echo "| baseline build: import 1 (fresh) | $("${base[@]}" import "$OUT/corpus.ndjson" 2>/dev/null | grep '^imported') |"
    echo "| baseline build: import 2 (replaces every meeting) | $("${base[@]}" import "$OUT/corpus.ndjson" 2>/dev/null | grep '^imported') |"
  fi
}

echo "changes-bench: $MEETINGS meetings, $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD)"
for s in $STORES; do bench_store "$s"; done
