#!/usr/bin/env bash
# One `reindex` of the corpus in OUT (its minutes.db into OUT/index), timed: prints the command's
# own line, then its CPU seconds (user + sys) and how many of them Lucene's merge threads used
# ("Lucene Merge Thread #N" and the "CachedExecutor" threads they hand parts of a merge to),
# sampled each second from /proc, each thread's last figure summed: what a larger index costs
# beyond indexing. CPU seconds, because the machine may be shared and MB per CPU second does
# not depend on that. Run by bench/search-bench.sh and bench/reindex-sizes.sh.
#   bench/timed-reindex.sh OUT CLASSPATH
set -euo pipefail
OUT=${1:?usage: bench/timed-reindex.sh OUT CLASSPATH}
CP=${2:?usage: bench/timed-reindex.sh OUT CLASSPATH}
JAVA_HOME=${JAVA_HOME:-$(cd "$(dirname "$0")/.." && ./run.sh java-home)}
BUILD_OPTS=$(cd "$(dirname "$0")/.." && ./run.sh java-opts build)
MINUTES_DB_PATH="$OUT/minutes.db" MINUTES_INDEX_PATH="$OUT/index" /usr/bin/time -f "%U %S" -o "$OUT/reindex.cpu" \
  "$JAVA_HOME/bin/java" $BUILD_OPTS -cp "$CP" minutes.cli.Main reindex \
  > "$OUT/reindex.out" &
TIMED=$!
declare -A MERGE_TICKS=()
JVM_PID=""
# Builtins only in this loop: a process forked per thread each second would take CPU from the
# reindex it measures.
while kill -0 "$TIMED" 2>/dev/null; do
  [ -n "$JVM_PID" ] || JVM_PID=$(pgrep -P "$TIMED" | head -1 || true)
  for task in /proc/$JVM_PID/task/*; do
    read -r name 2>/dev/null < "$task/comm" || continue
    [[ "$name" =~ ^(Lucene\ Merge|CachedExecutor) ]] || continue
    read -r stat 2>/dev/null < "$task/stat" || continue
    # The fields after the name ("(Lucene Merge Th)" holds spaces), from the state on: utime and stime.
    fields=(${stat##*) })
    MERGE_TICKS[${task##*/}]=$(( fields[11] + fields[12] ))
  done
  sleep 1
done
wait "$TIMED"
MERGE_CPU=$(printf '%s\n' 0 "${MERGE_TICKS[@]}" | awk -v hz="$(getconf CLK_TCK)" '{t += $1} END {printf "%.0f", t / hz}')
echo "$(tail -1 "$OUT/reindex.out"); CPU $(awk '{printf "%.0f s user+sys", $1 + $2}' "$OUT/reindex.cpu"), of it merging $MERGE_CPU s"
