# Sourced by bench/search-bench.sh and bench/mcp-bench.sh, from the repository root, with OUT and
# MEETINGS set: builds, copies the classes to $OUT/cp (the source tree is shared and may be
# rebuilt meanwhile), defines JAVA, CP, JVM (the server's JVM, as run.sh), RUN (minutes.cli.Main)
# and BUILD (import and reindex, as run.sh), exports MINUTES_DB_PATH, MINUTES_INDEX_PATH and
# MINUTES_HTTP_PORT (a free port unless BENCH_PORT), and generates and imports MEETINGS meetings
# with 40-100 KB transcripts from the bundled QMSum corpus unless $OUT holds them (FRESH=1 redoes it).
# bench_serve starts the server (SERVER: its pid, stopped on exit) and waits until it answers.
PORT=${BENCH_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
mkdir -p "$OUT"
JAVA_HOME=$(./run.sh java-home)   # run.sh finds a JDK 21+ (the default java may be 17)
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
JAVA="$JAVA_HOME/bin/java"
mvn -B -q -DskipTests package >&2
rm -rf "$OUT/cp" && mkdir -p "$OUT/cp" && cp -r target/classes target/test-classes target/lib "$OUT/cp/"
CP="$OUT/cp/classes:$OUT/cp/test-classes:$OUT/cp/lib/*"
JVM=("$JAVA" -Xmx512m -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED)   # as run.sh
RUN=("${JVM[@]}" -cp "$CP" minutes.cli.Main)
BUILD=("$JAVA" -Xmx2g -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -cp "$CP" minutes.cli.Main)   # import, reindex: as run.sh

export MINUTES_DB_PATH="$OUT/minutes.db" MINUTES_INDEX_PATH="$OUT/index" MINUTES_HTTP_PORT="$PORT"
if [ "${FRESH:-0}" = 1 ] || [ ! -f "$OUT/minutes.db" ]; then
  rm -rf "$OUT/minutes.db"* "$OUT/index"
  echo "generating $MEETINGS meetings..." >&2
  "${RUN[@]}" generate --meetings "$MEETINGS" --transcript-kb 40-100 --workspaces 1 --seed 42 --out "$OUT/corpus.ndjson"
  echo "importing (the import also builds the first index)..." >&2
  # Wall and CPU seconds: the machine may be shared, and MB per CPU-second does not depend on that.
  /usr/bin/time -f "%U %S" -o "$OUT/import.cpu" "${BUILD[@]}" import "$OUT/corpus.ndjson" | grep "^imported" > "$OUT/import.txt"
  echo "$(cat "$OUT/import.txt"); CPU $(awk '{printf "%.0f s user+sys", $1 + $2}' "$OUT/import.cpu")" > "$OUT/import.txt"
  cat "$OUT/import.txt" >&2
  rm -f "$OUT/corpus.ndjson"   # several GB; the database holds it all now
fi
SLUG=bench-1

bench_serve() {
  # The rate limit is off: one key's back-to-back searches are the measurement, not a runaway client.
  MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0 "${JVM[@]}" -cp "$CP" minutes.cli.Main serve > "$OUT/server.log" 2>&1 &
  SERVER=$!
  trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null || true' EXIT
  for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
  kill -0 $SERVER 2>/dev/null || { echo "the server did not start; see $OUT/server.log" >&2; exit 1; }
}
