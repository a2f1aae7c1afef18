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
JVM=("$JAVA" $(./run.sh java-opts serve))
RUN=("${JVM[@]}" -cp "$CP" minutes.cli.Main)
BUILD=("$JAVA" $(./run.sh java-opts build) -cp "$CP" minutes.cli.Main)   # import, reindex

export MINUTES_DB_PATH="$OUT/minutes.db" MINUTES_INDEX_PATH="$OUT/index" MINUTES_HTTP_PORT="$PORT"
if [ "${FRESH:-0}" = 1 ] || [ ! -f "$OUT/minutes.db" ]; then
  rm -rf "$OUT/minutes.db"* "$OUT/index" "$OUT"/part-*
  echo "generating $MEETINGS meetings..." >&2
  GENERATE=("${RUN[@]}" generate --meetings "$MEETINGS" --transcript-kb 40-100 --workspaces 1 --seed 42)
  if [ -n "${IMPORT_CHUNK:-}" ]; then
    # IMPORT_CHUNK=N: N lines per import (the workspace, users and companies come first), each
    # part deleted once imported: one import of everything holds the whole database twice at
    # its commit (write-ahead log and file) next to the NDJSON, more disk than some runs have.
    "${GENERATE[@]}" --out - | split -l "$IMPORT_CHUNK" -d -a 3 - "$OUT/part-"
  else
    "${GENERATE[@]}" --out "$OUT/corpus.ndjson"
  fi
  echo "importing (the import also builds the first index)..." >&2
  : > "$OUT/import-parts.txt"
  for part in "$OUT"/part-* "$OUT/corpus.ndjson"; do
    [ -f "$part" ] || continue
    # Wall and CPU seconds: the machine may be shared, and MB per CPU-second does not depend on that.
    /usr/bin/time -f "%U %S" -o "$OUT/import.cpu" "${BUILD[@]}" import "$part" | grep "^imported" > "$OUT/import.txt"
    echo "$(cat "$OUT/import.txt"); CPU $(awk '{printf "%.0f s user+sys", $1 + $2}' "$OUT/import.cpu")" >> "$OUT/import-parts.txt"
    tail -1 "$OUT/import-parts.txt" >&2
    rm -f "$part"   # several GB; the database holds it all now
  done
  # One line for all parts: their MB and seconds summed.
  sed -n 's/.*(\([0-9,.]*\) MB in \([0-9.]*\) s.*CPU \([0-9]*\) s.*/\1 \2 \3/p' "$OUT/import-parts.txt" | tr -d , \
    | awk -v n="$(wc -l < "$OUT/import-parts.txt")" '{mb += $1; s += $2; cpu += $3}
        END {printf "%d import(s): %.1f MB in %.1f s, %.1f MB/s; CPU %d s user+sys\n", n, mb, s, mb / s, cpu}' > "$OUT/import.txt"
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
