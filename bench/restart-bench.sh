#!/usr/bin/env bash
# Restart time (issue 15 item 5): the milliseconds from starting `serve` to its first search
# answered 200, on an existing database and index, three times with the files in the page cache
# and once after dropping it (as after a reboot; root only). The server runs from the classes
# and libraries in CP (a folder with classes/ and lib/, as bench/search-bench.sh copies them) or
# from target/, with run.sh's JVM options and without the ahead-of-time cache: the slower case.
#   bench/restart-bench.sh DB INDEX WORKSPACE [CP]
# Prints one line: "restart to the first search answered: W1, W2, W3 ms (files in the page
# cache); C ms after dropping the page cache".
set -euo pipefail
cd "$(dirname "$0")/.."
DB=$1 INDEX=$2 WORKSPACE=$3 CP=${4:-target}
JAVA="$(./run.sh java-home)/bin/java"
read -ra SERVE_OPTS <<<"$(./run.sh java-opts serve)"   # as run.sh starts the server
[ -f target/minutes.jar ] || ./run.sh --version >/dev/null
if [ -d "$CP/classes" ]; then CLASSPATH_ARGS=(-cp "$CP/classes:$CP/lib/*"); else CLASSPATH_ARGS=(-cp "target/minutes.jar:target/lib/*"); fi
RUN=("$JAVA" "${SERVE_OPTS[@]}" "${CLASSPATH_ARGS[@]}" minutes.cli.Main)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export MINUTES_DB_PATH="$DB" MINUTES_INDEX_PATH="$INDEX" MINUTES_HTTP_PORT="$PORT"
unset MINUTES_DB_URL
KEY=$("${RUN[@]}" keys create --workspace "$WORKSPACE" --scopes meetings:read --name restart-bench | tail -1)
LOG=$(mktemp)
SERVER=""
cleanup() {
  [ -z "$SERVER" ] || { kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true; }
  "${RUN[@]}" keys revoke "${KEY_ID:-none}" >/dev/null 2>&1 || true
  rm -f "$LOG"
}
trap cleanup EXIT
KEY_ID=$("${RUN[@]}" keys list 2>/dev/null | awk '/restart-bench/ {print $1}' | tail -1 || true)

restart() { # prints the milliseconds from start to the first search answered 200
  local t0 ms=""
  t0=$(date +%s%N)
  "${RUN[@]}" serve > "$LOG" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 1200); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" \
        "http://127.0.0.1:$PORT/api/v1/search?q=budget%20meeting")" = 200 ]; then
      ms=$(( ($(date +%s%N) - t0) / 1000000 )); break
    fi
    sleep 0.05
  done
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true
  SERVER=""
  echo "${ms:-never (60 s)}"
}
warm=$(for _ in 1 2 3; do restart; done | paste -sd, -)
if [ "$(id -u)" = 0 ]; then
  sync; echo 3 > /proc/sys/vm/drop_caches
  cold=$(restart)
else
  cold="not measured (dropping the page cache needs root)"
fi
echo "restart to the first search answered: ${warm//,/, } ms (files in the page cache); $cold ms after dropping the page cache"
