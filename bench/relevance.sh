#!/usr/bin/env bash
# Relevance benchmark (issue 49, item 1; docs/BENCHMARKS.md, "Relevance"): the 197 QMSum meetings
# of train and val imported with the real CLI into a throw-away SQLite database (neutral titles,
# the general summary as minutes, a segment per turn), the real server started on a free loopback
# port, and QMSum's 1,332 labelled questions and 874 topics asked over the REST API in each form
# and `match` mode, next to plain BM25 computed with Lucene on the same texts
# (src/test/java/minutes/relevance). Prints one Markdown table, also written to
# bench/out/relevance/results.md.
#   bench/relevance.sh [--small] [--data DIR|FILE] [--write-floor]
# --data: QMSum's folder holding train/ and val/ (default ../shared/data/qmsum, the sibling
#   `shared` folder of the repository), or the bundled data/qmsum/qmsum.jsonl.gz (the same files).
# --small: every 10th meeting and its queries (the regression guard's set), in well under a minute.
# --write-floor: a --small run that records its minutes rows as the guard's floor
#   (src/test/resources/relevance-floor.tsv, read by RelevanceGuardTest).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=../shared/data/qmsum
SMALL=()
FLOOR=()
while [ $# -gt 0 ]; do
  case "$1" in
    --small) SMALL=(--small) ;;
    --data) DATA=${2:?--data needs a folder or file}; shift ;;
    --write-floor) SMALL=(--small); FLOOR=(--write-floor src/test/resources/relevance-floor.tsv) ;;
    *) echo "usage: bench/relevance.sh [--small] [--data DIR|FILE] [--write-floor]" >&2; exit 2 ;;
  esac
  shift
done
[ -e "$DATA" ] || { echo "no QMSum data at $DATA: give --data QMSum's folder holding train/ and val/," \
  "or data/qmsum/qmsum.jsonl.gz" >&2; exit 1; }

OUT=bench/out/relevance
mkdir -p "$OUT"
export JAVA_HOME=$(./run.sh java-home)
export PATH="$JAVA_HOME/bin:$PATH"
JAVA="$JAVA_HOME/bin/java"
mvn -B -q -DskipTests package >&2
TMP=$(mktemp -d)
SERVER=""
trap '[ -z "$SERVER" ] || { kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; }; rm -rf "$TMP"' EXIT
# A copy of the classes: the source tree is shared and may be rebuilt while this runs.
cp -r target/classes target/test-classes target/lib "$TMP/"
CP="$TMP/classes:$TMP/test-classes:$TMP/lib/*"
BENCH=("$JAVA" -cp "$CP" minutes.relevance.RelevanceBench)
CLI=("$JAVA" $(./run.sh java-opts build) -cp "$CP" minutes.cli.Main)
export MINUTES_DB_PATH="$TMP/minutes.db" MINUTES_INDEX_PATH="$TMP/index" MINUTES_HTTP_HOST=127.0.0.1 \
  MINUTES_HTTP_PORT=0 MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0   # the benchmark's searches are no runaway client

"${BENCH[@]}" workspace "$DATA" "$TMP/qmsum.ndjson" "${SMALL[@]}"
"${CLI[@]}" import --config /dev/null "$TMP/qmsum.ndjson" | grep '^imported' >&2   # imports and builds the index
KEY=$("${CLI[@]}" keys create --config /dev/null --workspace qmsum --scopes meetings:read,transcripts:read \
  --name relevance | tail -1)
"$JAVA" $(./run.sh java-opts serve) -cp "$CP" minutes.cli.Main serve --config /dev/null > "$TMP/server.out" 2>&1 &
SERVER=$!
for _ in $(seq 1 600); do
  grep -qs "is serving on" "$TMP/server.out" && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$TMP/server.out" >&2; exit 1; }
  sleep 0.1
done
BASE=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$TMP/server.out" | head -1)
[ -n "$BASE" ] || { echo "the server did not say where it serves:" >&2; cat "$TMP/server.out" >&2; exit 1; }

{
  echo "Relevance, $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' (with uncommitted changes)'):" \
    "\`bench/relevance.sh${SMALL:+ --small}\`, data $DATA; machine $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  "${BENCH[@]}" measure "$BASE" "$KEY" "$DATA" "${SMALL[@]}" "${FLOOR[@]}"
} | tee "$OUT/results.md"
