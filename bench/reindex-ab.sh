#!/usr/bin/env bash
# The index build alone, this checkout against another commit, on PostgreSQL (where the rows read
# back for the index cross the wire): each jar imports bench/import-ab.sh's corpus
# (bench/ab-jars.sh) into a database of its own, then runs `reindex` ROUNDS times,
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
source bench/ab-jars.sh
cleanup() {
  ab_jars_remove
  pg_stop "$OUT/pg" 2>/dev/null || true
  rm -rf "$OUT/pg" "$OUT"/index-*
}
trap cleanup EXIT
ab_jars "$OTHER"
corpus=$(ab_corpus "$MEETINGS")
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
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); this: $THIS_LABEL, other: $OTHER"
