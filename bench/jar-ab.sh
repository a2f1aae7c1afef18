#!/usr/bin/env bash
# Server CPU per search, this checkout against another commit, on what bench/api-bench.sh left
# in bench/out/api (its SQLite store, or with STORE=postgresql its PostgreSQL one, started
# here), or with BENCH_OUT=dir on the SQLite corpus bench/search-bench.sh left there (its
# transcripts and its query paths, paths.txt, in workspace bench-1): both jars built, then ROUNDS rounds of a fresh server per jar in turn (A B, A B, ...):
# WARM s of wrk over the scenario's 10 search paths (default 120: on the slower machine of
# 2026-12-07 a server's CPU per search still fell a minute in, while in 2026-11 the JIT had the
# search path compiled in 40 s; a server whose first measure reads over 1.1x its last is named
# at the end as not warm), then 3 x 10 s measured: searches/s, p50, p99, and the server's and
# PostgreSQL's CPU ms per search from /proc. On a machine whose speed varies within the hour, the CPU per search of
# alternating runs is the fairer figure. CONNS: wrk's connections (default 8). Each jar searches
# an index it built itself (`reindex` into OUT/ab-index-STORE-this, -other1, ..., removed
# at the end): they may write different index formats.
# OTHER_REV may name several commits, comma-separated (A B C, A B C, ...): each against the same
# rounds of this checkout. AB_PATHS=file loads those paths instead of the search paths (for
# example bench/api-mix.sh's mix of the other endpoints); the figures are then per request.
# Its lines "personal PATH" carry a personal key of the corpus's first user (bench/paths.lua).
#   [STORE=sqlite|postgresql] [CONNS=8] [BENCH_OUT=dir] [AB_PATHS=file] bench/jar-ab.sh OTHER_REV[,OTHER_REV...] [ROUNDS] [WARM]
set -euo pipefail
cd "$(dirname "$0")/.."
OTHER=${1:?usage: bench/jar-ab.sh OTHER_REV[,OTHER_REV...] [ROUNDS] [WARM]}
IFS=, read -ra OTHERS <<<"$OTHER"
JARS=(this)
for i in "${!OTHERS[@]}"; do JARS+=("other$((i + 1))"); done
ROUNDS=${2:-2}
WARM=${3:-120}
STORE=${STORE:-sqlite}
CONNS=${CONNS:-8}
THREADS=$(( CONNS < 2 ? 1 : 2 ))
OUT=${BENCH_OUT:-bench/out/api}
# bench/api-bench.sh's search paths, or bench/search-bench.sh's
SEARCH_PATHS=$OUT/search-paths.txt
[ -f "$SEARCH_PATHS" ] || SEARCH_PATHS=$OUT/paths.txt
SEARCH_PATHS=${AB_PATHS:-$SEARCH_PATHS}
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
{ [ "$STORE" = postgresql ] || [ -f "$OUT/minutes.db" ]; } && [ -f "$SEARCH_PATHS" ] \
  || { echo "run bench/api-bench.sh or bench/search-bench.sh first" >&2; exit 1; }
[ "$STORE" != postgresql ] || [ -d "$OUT/pg/data" ] || { echo "run bench/api-bench.sh on PostgreSQL first" >&2; exit 1; }
command -v wrk >/dev/null || scripts/debian-install.sh wrk
JAVA="$(./run.sh java-home)/bin/java"
read -ra SERVE_OPTS <<<"$(./run.sh java-opts serve)"   # as run.sh starts the server
read -ra BUILD_OPTS <<<"$(./run.sh java-opts build)"   # and its import and reindex
export JAVA_HOME="${JAVA%/bin/java}"
source scripts/postgres.sh
source bench/ab-jars.sh
WT=$(mktemp -d)
SERVER="" NOT_WARM=()
index_of() { echo "$OUT/ab-index-$STORE-$1"; }
label_of() { [ "$1" = this ] && echo "$THIS_LABEL" || echo "${OTHERS[${1#other} - 1]}"; }
cleanup() {
  [ -z "$SERVER" ] || { kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true; }
  git worktree remove --force "$WT" 2>/dev/null || rm -rf "$WT"
  for jar in "${JARS[@]}"; do rm -rf "target/ab-$jar.jar" "$(index_of "$jar")"; done
  [ "$STORE" != postgresql ] || pg_stop "$OUT/pg"
}
trap cleanup EXIT

THIS_LABEL=$(this_label)
mvn -B -q -DskipTests package >&2 && cp target/minutes.jar target/ab-this.jar
git worktree add -q --detach "$WT" HEAD
for i in "${!OTHERS[@]}"; do
  git -C "$WT" checkout -q --detach "${OTHERS[$i]}"
  (cd "$WT" && mvn -B -q -DskipTests package >&2) && cp "$WT/target/minutes.jar" "target/ab-other$((i + 1)).jar"   # finds target/lib
done
export MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0
if [ "$STORE" = postgresql ]; then
  PG_DURABLE=1 pg_start "$OUT/pg" >/dev/null
  export MINUTES_DB_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/minutes?user=postgres"
  unset MINUTES_DB_PATH
else
  export MINUTES_DB_PATH="$OUT/minutes.db"
  unset MINUTES_DB_URL
fi
for jar in "${JARS[@]}"; do
  rm -rf "$(index_of $jar)"
  MINUTES_INDEX_PATH="$(index_of $jar)" "$JAVA" "${BUILD_OPTS[@]}" -jar "target/ab-$jar.jar" reindex | tail -1 | sed "s/^/$jar: /" >&2
done
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export MINUTES_HTTP_PORT=$PORT
# bench/search-bench.sh deletes its corpus file once imported; its workspace is bench-1
WS=bench-1
[ ! -f "$OUT/corpus.ndjson" ] || WS=$(grep -m1 '"kind":"user"' "$OUT/corpus.ndjson" | sed 's/.*"workspace":"\([^"]*\)".*/\1/')
KEY=$("$JAVA" -jar target/ab-this.jar keys create --workspace "$WS" --scopes meetings:read,action_items:read,transcripts:read --name jar-ab | tail -1)
PKEY=$KEY
if [ -f "$OUT/corpus.ndjson" ]; then
  USER_EMAIL=$(grep -m1 '"kind":"user"' "$OUT/corpus.ndjson" | sed 's/.*"email":"\([^"]*\)".*/\1/')
  PKEY=$("$JAVA" -jar target/ab-this.jar keys create --workspace "$WS" --user "$USER_EMAIL" --scopes meetings:read,action_items:read --name jar-ab | tail -1)
fi
export PKEY
cpu() { # CPU ticks of the given processes
  for pid in "$@"; do awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null; done | awk '{s += $1} END {print s + 0}'
}
database_cpu() { # PostgreSQL's postmaster and its backends; 0 on SQLite (inside the server)
  [ "$STORE" = postgresql ] || { echo 0; return; }
  local postmaster; postmaster=$(head -1 "$OUT/pg/data/postmaster.pid")
  cpu "$postmaster" $(pgrep -P "$postmaster")
}
per_search() { awk -v a="$1" -v b="$2" -v n="$3" -v hz="$(getconf CLK_TCK)" 'BEGIN{printf "%.3f", (b - a) * 1000 / hz / n}'; }

echo "| round | jar | searches/s | p50 ms | p99 ms | server CPU ms per search | PostgreSQL CPU ms per search |"
echo "|---|---|---|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
  for jar in "${JARS[@]}"; do
    MINUTES_INDEX_PATH="$(index_of $jar)" "$JAVA" "${SERVE_OPTS[@]}" \
      -jar "target/ab-$jar.jar" serve >/dev/null 2>&1 &
    SERVER=$!
    for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
    PATHS="$SEARCH_PATHS" KEY="$KEY" wrk -t"$THREADS" -c"$CONNS" -d"${WARM}s" -s bench/paths.lua "http://127.0.0.1:$PORT" >/dev/null
    measured=()
    for _ in 1 2 3; do
      before=$(cpu "$SERVER"); db_before=$(database_cpu)
      out=$(PATHS="$SEARCH_PATHS" KEY="$KEY" wrk -t"$THREADS" -c"$CONNS" -d10s --latency -s bench/paths.lua "http://127.0.0.1:$PORT")
      after=$(cpu "$SERVER"); db_after=$(database_cpu)
      n=$(awk '/requests in/{print $1}' <<<"$out")
      measured+=("$(per_search "$before" "$after" "$n")")
      printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$round" "$(label_of "$jar")" \
        "$(awk '/Requests\/sec/{print $2}' <<<"$out")" "$(awk '$1=="50%"{print $2}' <<<"$out")" "$(awk '$1=="99%"{print $2}' <<<"$out")" \
        "${measured[-1]}" "$(per_search "$db_before" "$db_after" "$n")"
    done
    # A server still compiling reads slower in its first measure than in its last: the figures
    # would weigh the JIT, not the code.
    awk -v first="${measured[0]}" -v last="${measured[2]}" 'BEGIN { exit !(first > 1.1 * last) }' \
      && NOT_WARM+=("round $round $(label_of "$jar"): CPU per search ${measured[0]} then ${measured[2]} ms")
    kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""
  done
done
echo
for line in "${NOT_WARM[@]}"; do echo "not warm (first measure over 1.1x the last; give a longer WARM): $line"; done
echo "date: $(date -u +%Y-%m-%dT%H:%MZ), command: STORE=$STORE CONNS=$CONNS BENCH_OUT=$OUT ${AB_PATHS:+AB_PATHS=$AB_PATHS }bench/jar-ab.sh $OTHER $ROUNDS $WARM, load average before: $LOAD_BEFORE"
