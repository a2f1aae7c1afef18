#!/usr/bin/env bash
# Plain search, two builds alternating, each over its own corpus folder of the same data (as
# bench/search-bench.sh leaves one: minutes.db, index/ built by that build, queries.txt, cp/ with
# its classes, key with a key that may read transcripts): per turn a fresh server and
# `SearchBench socket` (300 queries, warmed, 3 timed rounds), A B, A B, ...; every server stopped.
# For builds whose index layouts differ, where bench/jar-ab.sh would rebuild both indexes.
# MODE=facets|moments|features runs `SearchBench MODE ... 4` (issue 32's parameters against
# plain search, interleaved) instead of `socket`.
#   [MODE=facets] bench/search-ab-dirs.sh ROUNDS DIR_A DIR_B
set -uo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:?usage: bench/search-ab-dirs.sh ROUNDS DIR_A DIR_B}
JAVA="$(./run.sh java-home)/bin/java"
read -ra SERVE_OPTS <<<"$(./run.sh java-opts serve)"
SERVER=""
trap '[ -z "$SERVER" ] || { kill "$SERVER"; wait "$SERVER" 2>/dev/null; }' EXIT
turn() { # DIR
  local out=$1 cp="$1/cp/classes:$1/cp/test-classes:$1/cp/lib/*" port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  MINUTES_DB_PATH=$out/minutes.db MINUTES_INDEX_PATH=$out/index MINUTES_HTTP_PORT=$port MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0 \
    "$JAVA" "${SERVE_OPTS[@]}" -cp "$cp" minutes.cli.Main serve > "$out/ab-server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
  "$JAVA" -cp "$cp" minutes.search.SearchBench "${MODE:-socket}" "http://127.0.0.1:$port" "$(cat "$out/key")" "$out/queries.txt" \
    "$([ "${MODE:-socket}" = socket ] && echo 3 || echo 4)" 2>/dev/null \
    | sed "s|^|$(basename "$out") |"
  kill "$SERVER"; wait "$SERVER" 2>/dev/null; SERVER=""
}
for _ in $(seq 1 "$ROUNDS"); do
  turn "$2"
  turn "$3"
  echo "load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%MZ)"
done
