#!/usr/bin/env bash
# Reindex MB/s at two sizes (issue 15 item 5: "no worse than at 20,000"), on the corpora that
# bench/scale-bench.sh left in bench/out/scale-BIG and scale-BASE: ROUNDS rounds, each one
# `reindex` of either size, the order swapped every round (BASE first, then BIG first, ...) so
# that a drifting machine favours neither. Per reindex: wall MB/s of text, CPU seconds per MB,
# and the CPU of Lucene's merge threads (bench/timed-reindex.sh). Prints Markdown.
#   bench/reindex-sizes.sh [BIG=100000] [BASE=20000] [ROUNDS=2]
set -euo pipefail
cd "$(dirname "$0")/.."
BIG=${1:-100000}
BASE=${2:-20000}
ROUNDS=${3:-2}
for n in "$BASE" "$BIG"; do
  [ -f "bench/out/scale-$n/minutes.db" ] || { echo "run bench/scale-bench.sh $BIG $BASE first" >&2; exit 1; }
done
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
JAVA_HOME=$(./run.sh java-home)
export JAVA_HOME
mvn -B -q -DskipTests package >&2
# The classes copied: the source tree may be rebuilt meanwhile.
CPDIR=$(mktemp -d)
trap 'rm -rf "$CPDIR"' EXIT
cp -r target/classes target/lib "$CPDIR/"
CP="$CPDIR/classes:$CPDIR/lib/*"

echo "| round | meetings | text MB | wall s | MB/s | CPU s | CPU s per MB | of it merging, s |"
echo "|---|---|---|---|---|---|---|---|"
RESULTS=$(mktemp)
for round in $(seq 1 "$ROUNDS"); do
  order="$BASE $BIG"; [ $(( round % 2 )) = 0 ] && order="$BIG $BASE"
  for n in $order; do
    line=$(bench/timed-reindex.sh "bench/out/scale-$n" "$CP")
    # "reindexed N meetings, X MB of text in S s (R MB/s); ...; CPU C s user+sys, of it merging M s"
    read -r mb s cpu merge <<<"$(sed -n 's/.*, \([0-9,.]*\) MB of text in \([0-9.]*\) s .*CPU \([0-9]*\) s user+sys, of it merging \([0-9]*\) s.*/\1 \2 \3 \4/p' <<<"$line" | tr -d ,)"
    echo "$round $n $mb $s $cpu $merge" >> "$RESULTS"
    awk -v r="$round" -v n="$n" -v mb="$mb" -v s="$s" -v cpu="$cpu" -v m="$merge" \
      'BEGIN {printf "| %s | %s | %.1f | %.1f | %.2f | %d | %.4f | %d |\n", r, n, mb, s, mb / s, cpu, cpu / mb, m}'
  done
done
echo
# Per round: BIG's MB/s over BASE's (at least 1 is the target) and CPU per MB (BASE's over BIG's).
awk -v big="$BIG" '{mbs[$1, $2] = $3 / $4; cpm[$1, $2] = $5 / $3; rounds[$1] = 1; if ($2 != big) base = $2}
  END {for (r in rounds) printf "round %s: MB/s %.2fx, CPU per MB %.2fx (%s against %s meetings)\n",
         r, mbs[r, big] / mbs[r, base], cpm[r, base] / cpm[r, big], big, base}' "$RESULTS" | sort -k2,2n
rm -f "$RESULTS"
echo "command: bench/reindex-sizes.sh $BIG $BASE $ROUNDS; $(date -u +%Y-%m-%dT%H:%MZ); commit $(git rev-parse --short HEAD); load average before $LOAD_BEFORE"
