#!/usr/bin/env bash
# The index build alone, this checkout against another commit, on PostgreSQL (where the rows read
# back for the index cross the wire): each jar imports the same generated corpus (as
# bench/import-ab.sh makes it) into a database of its own, then runs `reindex` ROUNDS times,
# alternating; each line prints the reindex summary and the command's CPU (user, sys) and wall s.
#   bench/reindex-ab.sh OTHER_REV [ROUNDS] [MEETINGS]
set -euo pipefail
cd "$(dirname "$0")/.."
OTHER=${1:?usage: bench/reindex-ab.sh OTHER_REV [ROUNDS] [MEETINGS]}
ROUNDS=${2:-3}
MEETINGS=${3:-20000}
OUT=bench/out/reindex-ab
mkdir -p "$OUT"
JAVA="$(./run.sh java-home)/bin/java"
export JAVA_HOME="${JAVA%/bin/java}"
read -ra BUILD_OPTS <<<"$(./run.sh java-opts build)"
source scripts/postgres.sh
WT=$(mktemp -d)
cleanup() {
  git worktree remove --force "$WT" 2>/dev/null || rm -rf "$WT"
  rm -f target/ab-this.jar target/ab-other.jar
  pg_stop "$OUT/pg" 2>/dev/null || true
  rm -rf "$OUT/pg" "$OUT"/index-*
}
trap cleanup EXIT
mvn -B -q -DskipTests package >&2 && cp target/minutes.jar target/ab-this.jar
git worktree add -q --detach "$WT" "$OTHER"
(cd "$WT" && mvn -B -q -DskipTests package >&2) && cp "$WT/target/minutes.jar" target/ab-other.jar
corpus=bench/out/import-ab/corpus-$MEETINGS.ndjson
if [ ! -f "$corpus" ]; then
  mkdir -p bench/out/import-ab
  "$JAVA" -jar target/ab-this.jar generate --meetings "$MEETINGS" --transcript-kb 4-12 --tasks-per-meeting 10 \
    --workspaces 2 --seed 5 --out "$corpus"
fi
PG_DURABLE=1 pg_start "$OUT/pg"
PG_BIN=$(pg_bin_dir)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {   # run JAR COMMAND...: its summary line and "cpu USER SYS wall S"
  local jar=$1
  shift
  unset MINUTES_DB_PATH
  export MINUTES_DB_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/ab_$jar?user=postgres" MINUTES_INDEX_PATH="$OUT/index-$jar"
  { /usr/bin/time -f 'cpu %U %S wall %e' "$JAVA" "${BUILD_OPTS[@]}" -jar "target/ab-$jar.jar" "$@" 2>&1; } \
    | grep -E '^(imported|reindexed|cpu)' | tr '\n' ' '
  echo
}
for jar in this other; do
  "$PG_BIN/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -c "DROP DATABASE IF EXISTS ab_$jar WITH (FORCE)" \
    -c "CREATE DATABASE ab_$jar" postgres
  echo "import $jar: $(run "$jar" import "$corpus")"
done
for round in $(seq 1 "$ROUNDS"); do
  for jar in this other; do
    rm -rf "$OUT/index-$jar"
    echo "reindex $round $jar: $(run "$jar" reindex)"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); this: $(git rev-parse --short HEAD), other: $OTHER"
