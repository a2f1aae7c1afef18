#!/usr/bin/env bash
# Issue 49's performance targets on the SQLite store, over the corpus bench/search-bench.sh left
# in OUT (its 20,000 meetings with transcripts and its 300 queries): match=most against match=all
# on those queries and on 300 five-word questions (the last five words of QMSum's questions, from
# the bundled data/qmsum), and moments=3 best first against the same moments in time order, each
# pair interleaved query by query over one plain socket (`SearchBench match`) after a warm-up
# round. bench/search-features-pg.sh with MODE=match times the same on PostgreSQL.
#   BENCH_OUT=dir bench/match-bench.sh [MEETINGS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
MEETINGS=${1:-20000}
ROUNDS=${2:-5}
OUT=${BENCH_OUT:-bench/out/search}
[ -f "$OUT/queries.txt" ] || { echo "run bench/search-bench.sh first: it leaves the corpus and $OUT/queries.txt" >&2; exit 1; }
source bench/transcript-corpus.sh
"$JAVA" -cp "$CP" minutes.relevance.RelevanceBench questions data/qmsum/qmsum.jsonl.gz "$OUT/questions.txt" 300
KEY=$("${RUN[@]}" keys create --workspace "$SLUG" --scopes meetings:read,transcripts:read --name match-bench | tail -1)
bench_serve
MATCH=("$JAVA" -cp "$CP" minutes.search.SearchBench match "http://127.0.0.1:$PORT" "$KEY" "$OUT/queries.txt" "$OUT/questions.txt")
"${MATCH[@]}" 1 >/dev/null   # warm-up: the JIT compiles each mode's path
echo "SQLite store, $MEETINGS meetings, commit $(git rev-parse --short HEAD):"
"${MATCH[@]}" "$ROUNDS"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
