#!/usr/bin/env bash
# Issue 32's search parameters (moments, facets, date order, deep pages) against plain searches,
# as bench/search-bench.sh times them (`SearchBench features`), on a PostgreSQL store: the same
# MEETINGS generated meetings (seed 42, 40-100 KB transcripts) imported into a durable
# PostgreSQL server started in OUT/pg, indexed, served, timed; the server and PostgreSQL are
# stopped at the end, also on failure. The query set is OUT/queries.txt when bench/search-bench.sh
# left one there (the same queries on both stores), else written from this index.
# REUSE_INDEX=1 serves the index a run before built with the same classes instead of reindexing
# (about 4 minutes); MODE=facets|moments times only those rows (SearchBench's modes), MODE=match
# issue 49's match=most pairs (bench/match-bench.sh).
#   BENCH_OUT=dir bench/search-features-pg.sh [MEETINGS] [ROUNDS]   (KEEP=1 keeps OUT/pg for another run)
set -euo pipefail
cd "$(dirname "$0")/.."
MEETINGS=${1:-20000}
ROUNDS=${2:-5}
OUT=${BENCH_OUT:-bench/out/search}
mkdir -p "$OUT"
JAVA_HOME=$(./run.sh java-home)
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
mvn -B -q -DskipTests package >&2
BUILT=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo "+changes")   # what the classes are, whatever HEAD is later
# A copy of the classes: the source tree is shared and may be rebuilt meanwhile.
rm -rf "$OUT/pg-cp" && mkdir -p "$OUT/pg-cp" && cp -r target/classes target/test-classes target/lib "$OUT/pg-cp/"
CP="$OUT/pg-cp/classes:$OUT/pg-cp/test-classes:$OUT/pg-cp/lib/*"
read -ra SERVE_OPTS <<<"$(./run.sh java-opts serve)"
read -ra BUILD_OPTS <<<"$(./run.sh java-opts build)"
source scripts/postgres.sh
SERVER=""
cleanup() {
  [ -z "$SERVER" ] || { kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true; }
  pg_stop "$OUT/pg"
  [ "${KEEP:-0}" = 1 ] || rm -rf "$OUT/pg" "$OUT/pg-index" "$OUT/pg-cp"
}
trap cleanup EXIT
export MINUTES_INDEX_PATH="$OUT/pg-index" MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0
if [ -f "$OUT/pg/imported" ]; then
  PG_DURABLE=1 pg_start "$OUT/pg" >/dev/null
  export MINUTES_DB_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/minutes?user=postgres"
  unset MINUTES_DB_PATH
else
  pg_fresh_minutes "$OUT/pg"
  echo "generating and importing $MEETINGS meetings into PostgreSQL..." >&2
  java "${BUILD_OPTS[@]}" -cp "$CP" minutes.cli.Main generate --meetings "$MEETINGS" --transcript-kb 40-100 \
    --workspaces 1 --seed 42 --out "$OUT/pg-corpus.ndjson"
  java "${BUILD_OPTS[@]}" -cp "$CP" minutes.cli.Main import "$OUT/pg-corpus.ndjson" | grep "^imported" >&2
  rm -f "$OUT/pg-corpus.ndjson"
  touch "$OUT/pg/imported"
fi
if [ "${REUSE_INDEX:-0}" != 1 ]; then
  echo "indexing..." >&2
  java "${BUILD_OPTS[@]}" -cp "$CP" minutes.cli.Main reindex >&2
fi
KEY=$(java "${BUILD_OPTS[@]}" -cp "$CP" minutes.cli.Main keys create --workspace bench-1 \
  --scopes meetings:read,transcripts:read --name features-bench | tail -1)
[ -f "$OUT/queries.txt" ] || java -cp "$CP" minutes.search.SearchBench queries "$OUT/pg-index" "$OUT/queries.txt"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
MINUTES_HTTP_PORT=$PORT java "${SERVE_OPTS[@]}" -cp "$CP" minutes.cli.Main serve > "$OUT/pg-server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
kill -0 "$SERVER" 2>/dev/null || { echo "the server did not start; see $OUT/pg-server.log" >&2; exit 1; }
echo "PostgreSQL store, $MEETINGS meetings, commit $BUILT:"
if [ "${MODE:-features}" = match ]; then   # issue 49's pairs, as bench/match-bench.sh times them on SQLite
  java -cp "$CP" minutes.relevance.RelevanceBench questions data/qmsum/qmsum.jsonl.gz "$OUT/questions.txt" 300
  java -cp "$CP" minutes.search.SearchBench match "http://127.0.0.1:$PORT" "$KEY" "$OUT/queries.txt" "$OUT/questions.txt" 1 >/dev/null
  java -cp "$CP" minutes.search.SearchBench match "http://127.0.0.1:$PORT" "$KEY" "$OUT/queries.txt" "$OUT/questions.txt" "$ROUNDS"
else
  java -cp "$CP" minutes.search.SearchBench "${MODE:-features}" "http://127.0.0.1:$PORT" "$KEY" "$OUT/queries.txt" "$ROUNDS"
fi
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
