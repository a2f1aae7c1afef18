#!/usr/bin/env bash
# Import speed, this checkout against another commit, alternating jars (A B, A B, ...): each
# round imports the same generated corpus into a fresh database with each jar, on SQLite and on
# a PostgreSQL server started here (durable, as bench/api-bench.sh runs it). Prints per store and
# jar the median of the import's own MB/s (its summary line: input bytes over its seconds), of
# the whole command's CPU seconds and of its wall seconds (the rows and then the search index it
# builds: "import with its index"), and the ratio this/other. The corpus (MEETINGS meetings with
# 4-12 KiB transcripts and 10 tasks each, seed 5) stays in bench/out/import-ab (ignored by git).
#   [STORES="sqlite postgresql"] bench/import-ab.sh OTHER_REV [ROUNDS] [MEETINGS]
set -euo pipefail
cd "$(dirname "$0")/.."
OTHER=${1:?usage: bench/import-ab.sh OTHER_REV [ROUNDS] [MEETINGS]}
ROUNDS=${2:-3}
MEETINGS=${3:-4000}
STORES=${STORES:-sqlite postgresql}
OUT=bench/out/import-ab
mkdir -p "$OUT"
JAVA="$(./run.sh java-home)/bin/java"
export JAVA_HOME="${JAVA%/bin/java}"
read -ra BUILD_OPTS <<<"$(./run.sh java-opts build)"   # as run.sh runs import
source scripts/postgres.sh
source bench/ab-jars.sh
cleanup() {
  ab_jars_remove
  pg_stop "$OUT/pg" 2>/dev/null || true
  rm -rf "$OUT/pg" "$OUT/db"
}
trap cleanup EXIT

ab_jars "$OTHER"
corpus=$(ab_corpus "$MEETINGS")
echo "corpus: $(du -h "$corpus" | cut -f1), load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# import JAR STORE: prints "MB/s cpu-seconds wall-seconds" of one import into a fresh database
import() {
  local jar=$1 store=$2 line cpu wall
  rm -rf "$OUT/db" && mkdir -p "$OUT/db"
  unset MINUTES_DB_URL MINUTES_DB_PATH
  if [ "$store" = postgresql ]; then
    "$PG_BIN/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -c "DROP DATABASE IF EXISTS ab WITH (FORCE)" -c "CREATE DATABASE ab" postgres
    export MINUTES_DB_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/ab?user=postgres"
  else
    export MINUTES_DB_PATH="$OUT/db/minutes.db"
  fi
  export MINUTES_INDEX_PATH="$OUT/db/index"
  line=$( { /usr/bin/time -f 'cpu %U %S wall %e' "$JAVA" "${BUILD_OPTS[@]}" -jar "target/ab-$jar.jar" import "$corpus" 2>&1; } \
    | grep -E '^(imported|cpu)' | tr '\n' ' ')
  cpu=$(awk '{for (i = 1; i <= NF; i++) if ($i == "cpu") print $(i + 1) + $(i + 2)}' <<<"$line")
  wall=$(awk '{for (i = 1; i <= NF; i++) if ($i == "wall") print $(i + 1)}' <<<"$line")
  echo "$(grep -oE '[0-9.]+ MB/s' <<<"$line" | cut -d' ' -f1) $cpu $wall"
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
declare -A med   # per jar and column of $store.txt (2 MB/s, 3 CPU s, 4 wall s): the median over the rounds
ratio() { awk -v a="${med[this$1]}" -v b="${med[other$1]}" 'BEGIN {printf "%.2f", a / b}'; }

for store in $STORES; do
  if [ "$store" = postgresql ]; then
    PG_DURABLE=1 pg_start "$OUT/pg"
    PG_BIN=$(pg_bin_dir)
  fi
  : >"$OUT/$store.txt"
  for round in $(seq 1 "$ROUNDS"); do
    for jar in this other; do
      echo "$jar $(import "$jar" "$store")" | tee -a "$OUT/$store.txt" >&2
    done
  done
  [ "$store" != postgresql ] || pg_stop "$OUT/pg"
  for jar in this other; do
    for col in 2 3 4; do med[$jar$col]=$(awk -v j=$jar -v c=$col '$1 == j {print $c}' "$OUT/$store.txt" | median); done
    echo "$store $jar ($([ $jar = this ] && echo "$THIS_LABEL" || echo "$OTHER")): median ${med[${jar}2]} MB/s, ${med[${jar}3]} CPU s, ${med[${jar}4]} s wall"
  done
  echo "$store this/other: MB/s $(ratio 2)x, CPU s $(ratio 3)x, wall s $(ratio 4)x"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
