#!/usr/bin/env bash
# Fuzzing (issue 5, part 1): 20,000 generated hostile requests against the real server over
# raw sockets, with keys of every kind. Deterministic by seed; a failure prints the seed and
# the exact bytes sent. CI runs the same test with its smaller default count.
#   scripts/fuzz.sh [REQUESTS] [SEED]        (defaults: 20000, a new random seed each run)
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${1:-20000}
SEED=${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
export JAVA_HOME="$(./run.sh java-home)"
export PATH="$JAVA_HOME/bin:$PATH"
echo "fuzz: $REQUESTS requests, seed $SEED (replay: scripts/fuzz.sh $REQUESTS $SEED)" >&2
status=0
mvn -B -q test -Dtest=FuzzTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfuzz.requests="$REQUESTS" -Dfuzz.seed="$SEED" || status=$?
cat target/reliability/fuzz-summary.txt 2>/dev/null || true
[ $status -eq 0 ] || echo "fuzz FAILED; details in target/surefire-reports/minutes.reliability.FuzzTest.txt (seed $SEED)" >&2
exit $status
