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
# The JVM options of run.sh's import and reindex.
MINUTES_DB_PATH="$OUT/minutes.db" MINUTES_INDEX_PATH="$OUT/index" /usr/bin/time -f "%U %S" -o "$OUT/reindex.cpu" \
  "$JAVA_HOME/bin/java" -Xmx2g -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -cp "$CP" minutes.cli.Main reindex \
  > "$OUT/reindex.out" &
TIMED=$!
declare -A MERGE_TICKS=()
while kill -0 "$TIMED" 2>/dev/null; do
  for task in /proc/$(pgrep -P "$TIMED" | head -1)/task/*; do
    [[ "$(cat "$task/comm" 2>/dev/null)" =~ ^(Lucene\ Merge|CachedExecutor) ]] || continue
    # utime and stime, counted after the name: "(Lucene Merge Th)" holds spaces.
    ticks=$(sed 's/.*) //' "$task/stat" 2>/dev/null | awk '{print $12 + $13}') && MERGE_TICKS[${task##*/}]=$ticks
  done
  sleep 1
done
wait "$TIMED"
MERGE_CPU=$(printf '%s\n' 0 "${MERGE_TICKS[@]}" | awk -v hz="$(getconf CLK_TCK)" '{t += $1} END {printf "%.0f", t / hz}')
echo "$(tail -1 "$OUT/reindex.out"); CPU $(awk '{printf "%.0f s user+sys", $1 + $2}' "$OUT/reindex.cpu"), of it merging $MERGE_CPU s"
