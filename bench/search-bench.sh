#!/usr/bin/env bash
# Search benchmark (issue 3, "Performance"): N meetings with 40-100 KB transcripts generated
# by seed from the bundled QMSum corpus, imported, reindexed (timed), then 300 fixed mixed
# queries (bench/out/search/queries.txt) timed one at a time over HTTP (plain, and with the
# moments, facets, order and offset of issue 32 against the plain ones), under 8 concurrent
# connections with wrk, and in-process against the same index for the server's overhead.
# Prints Markdown for docs/BENCHMARKS.md.
#   bench/search-bench.sh [MEETINGS] [WRK_SECONDS]      (FRESH=1 regenerates the corpus,
#   SKIP_REINDEX=1 keeps the index, KEEP_QUERIES=1 the query set, BENCH_OUT=dir another corpus
#   folder than bench/out/search, as bench/scale-bench.sh uses)
set -euo pipefail
cd "$(dirname "$0")/.."
MEETINGS=${1:-20000}
WRK_SECONDS=${2:-20}
OUT=${BENCH_OUT:-bench/out/search}
command -v wrk >/dev/null || { echo "installing wrk (Debian package)" >&2; apt-get install -y -qq wrk >/dev/null; }
source bench/transcript-corpus.sh
BENCH=("${JVM[@]}" -cp "$CP" minutes.search.SearchBench)

echo "reindexing..." >&2
if [ "${SKIP_REINDEX:-0}" != 1 ]; then
  REINDEX=$(bench/timed-reindex.sh "$OUT" "$CP")
else
  REINDEX="(skipped: SKIP_REINDEX=1)"
fi
echo "$REINDEX" >&2
KEY=$("${RUN[@]}" keys create --workspace "$SLUG" --scopes meetings:read,transcripts:read --name search-bench | tail -1)
# KEEP_QUERIES=1 times the query set of the previous run again: for A/B runs on the same database.
if [ "${KEEP_QUERIES:-0}" != 1 ] || [ ! -f "$OUT/queries.txt" ]; then
  "${BENCH[@]}" queries "$OUT/index" "$OUT/queries.txt"
fi

bench_serve

echo "| what (300 queries, limit 50, snippets) | p50 ms | p95 ms | p99 ms | queries timed |"
echo "|---|---|---|---|---|"
"${BENCH[@]}" socket "http://127.0.0.1:$PORT" "$KEY" "$OUT/queries.txt" 10
# The same single client through the JDK HttpClient, which adds about half a millisecond of its own.
"${BENCH[@]}" http "http://127.0.0.1:$PORT" "$KEY" "$OUT/queries.txt" 10
echo
# Moments, facets, date order and deep pages (issue 32) against the plain searches they extend.
"${BENCH[@]}" features "http://127.0.0.1:$PORT" "$KEY" "$OUT/queries.txt" 5
echo
PATHS="$OUT/paths.txt" KEY="$KEY" wrk -t2 -c8 -d5s -s bench/paths.lua "http://127.0.0.1:$PORT" >/dev/null  # warm-up
WRK=$(PATHS="$OUT/paths.txt" KEY="$KEY" wrk -t2 -c8 -d"${WRK_SECONDS}s" -s bench/paths.lua "http://127.0.0.1:$PORT")
HEAP=$(jcmd "$SERVER" GC.heap_info 2>/dev/null | grep -Eo 'used [0-9]+K' | head -1 || true)
RSS=$(ps -o rss= -p "$SERVER" | awk '{printf "%.0f MB", $1/1024}')
kill $SERVER; wait $SERVER 2>/dev/null || true
trap - EXIT
"${BENCH[@]}" inprocess "$OUT/minutes.db" "$OUT/index" "$OUT/queries.txt" "$SLUG" 10

echo
# Only wrk's counts: its latency histogram (with a request script) has disagreed with its own request rate.
echo "wrk, 8 connections, ${WRK_SECONDS}s: $(awk '/Requests\/sec/{print $2}' <<<"$WRK") searches/s,"\
  "mean latency by Little's law $(awk '/Requests\/sec/{printf "%.1f ms", 8000 / $2}' <<<"$WRK"), non-2xx: $(awk '/Non-2xx/{print $5}' <<<"$WRK" | grep . || echo 0)"
[ ! -f "$OUT/import.txt" ] || echo "import (when the corpus was made): $(cat "$OUT/import.txt")"
echo "reindex: $REINDEX"
echo "database $(du -ch "$OUT"/minutes.db* | tail -1 | cut -f1), index $(du -sh "$OUT/index" | cut -f1)"
echo "server: -Xmx512m -XX:+UseSerialGC; heap used after the load: ${HEAP:-n/a}; RSS $RSS"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); machine: $(nproc) cores, $(free -g | awk '/Mem/{print $2}') GB; load average $(cut -d' ' -f1-3 /proc/loadavg)"
