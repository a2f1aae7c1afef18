#!/usr/bin/env bash
# Issue 45: search on the PostgreSQL node against the SQLite node, this checkout against another
# commit, four servers up at once on the same 20,000 meetings (bench/NodesBench.java drives them,
# so the machine's noise falls on all alike): the SQLite corpus bench/search-bench.sh left in
# SQLITE_OUT (its database copied, since a server writes beside it; its index linked, since Lucene
# never rewrites a file) and the PostgreSQL one `KEEP=1 bench/search-features-pg.sh` left in
# PG_OUT (its pg and pg-index), each jar with its own linked copy of the index. After WARM s of 8
# clients on each node (the JIT compiles the search path): one client, query by query across the nodes, ROUNDS rounds of
# SQLITE_OUT/queries.txt; then 8 clients on one node at a time for SECONDS, ROUNDS turns each.
# Prints each mode's table (p50, p99, server CPU per search, PostgreSQL's CPU per search).
#   [SQLITE_OUT=dir] [PG_OUT=dir] bench/search-nodes-ab.sh OTHER_REV [ROUNDS=5] [SECONDS=10] [WARM=30]
set -euo pipefail
cd "$(dirname "$0")/.."
OTHER=${1:?usage: bench/search-nodes-ab.sh OTHER_REV [ROUNDS] [SECONDS] [WARM]}
ROUNDS=${2:-5}
SECONDS_EACH=${3:-10}
WARM=${4:-30}
SQLITE_OUT=${SQLITE_OUT:-bench/out/search}
PG_OUT=${PG_OUT:-bench/out/search}
WORK=bench/out/nodes-ab
[ -f "$SQLITE_OUT/minutes.db" ] && [ -f "$SQLITE_OUT/index/CURRENT" ] && [ -f "$SQLITE_OUT/queries.txt" ] \
  || { echo "run bench/search-bench.sh 20000 first" >&2; exit 1; }
[ -f "$PG_OUT/pg/imported" ] && [ -f "$PG_OUT/pg-index/CURRENT" ] \
  || { echo "run KEEP=1 bench/search-features-pg.sh 20000 first" >&2; exit 1; }
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
JAVA="$(./run.sh java-home)/bin/java"
export JAVA_HOME="${JAVA%/bin/java}"
read -ra SERVE_OPTS <<<"$(./run.sh java-opts serve)"
source scripts/postgres.sh
WT=$(mktemp -d)
SERVERS=()
cleanup() {
  for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; done
  pg_stop "$PG_OUT/pg"
  git worktree remove --force "$WT" 2>/dev/null || rm -rf "$WT"
  rm -rf "$WORK"
}
trap cleanup EXIT

rm -rf "$WORK" && mkdir -p "$WORK"
mvn -B -q -DskipTests package >&2 && cp target/minutes.jar "$WORK/this.jar"
THIS=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo "+changes")
git worktree add -q --detach "$WT" "$OTHER"
(cd "$WT" && mvn -B -q -DskipTests package >&2) && cp "$WT/target/minutes.jar" "$WORK/other.jar"   # finds target/lib
ln -s "$PWD/target/lib" "$WORK/lib"
cp "$SQLITE_OUT/minutes.db" "$WORK/minutes.db"
PG_DURABLE=1 pg_start "$PG_OUT/pg" >/dev/null
export MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
store_env() { # store -> the env of a process on it
  if [ "$1" = postgresql ]; then echo "MINUTES_DB_URL=jdbc:postgresql://127.0.0.1:$PG_PORT/minutes?user=postgres MINUTES_DB_PATH="
  else echo "MINUTES_DB_URL= MINUTES_DB_PATH=$WORK/minutes.db"; fi
}
NODES=()
# The other jar first: this one may add a migration, which the other then finds as a future one.
for jar in other this; do
  for store in sqlite postgresql; do
    index=$WORK/index-$store-$jar
    if [ "$store" = postgresql ]; then cp -al "$PG_OUT/pg-index" "$index"; else cp -al "$SQLITE_OUT/index" "$index"; fi
    # A lock is taken on the file's inode: each copy gets a lock file of its own.
    find "$index" -name write.lock -exec sh -c 'rm "$1" && touch "$1"' _ {} \;
    read -ra db <<<"$(store_env "$store")"
    port=$(free_port)
    env "${db[@]}" MINUTES_INDEX_PATH="$index" MINUTES_HTTP_PORT="$port" "$JAVA" "${SERVE_OPTS[@]}" \
      -jar "$WORK/$jar.jar" serve > "$WORK/$store-$jar.log" 2>&1 &
    SERVERS+=($!)
    for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "$store-$jar did not start: $WORK/$store-$jar.log" >&2; exit 1; }
    key=$(env "${db[@]}" "$JAVA" -jar "$WORK/this.jar" keys create --workspace bench-1 --scopes meetings:read \
      --name "nodes-ab-$jar" | tail -1)
    label=$([ "$jar" = this ] && echo "$THIS" || echo "$OTHER")
    NODES+=("$store-$label=$port=$key=${SERVERS[-1]}")
  done
done
# This checkout's SQLite node first: every ratio is to it.
ORDERED=("${NODES[2]}" "${NODES[3]}" "${NODES[0]}" "${NODES[1]}")
export DB_PID; DB_PID=$(head -1 "$PG_OUT/pg/data/postmaster.pid")
bench() { "$JAVA" bench/NodesBench.java "$@" "$SQLITE_OUT/queries.txt" "${ORDERED[@]}"; }
bench eight 0 "$WARM" >/dev/null   # the warm-up round alone, WARM s on each node
bench one "$ROUNDS" 0
echo
bench eight "$ROUNDS" "$SECONDS_EACH"
echo
echo "date: $(date -u +%Y-%m-%dT%H:%MZ), command: bench/search-nodes-ab.sh $OTHER $ROUNDS $SECONDS_EACH $WARM," \
  "this checkout $THIS, load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
