#!/usr/bin/env bash
# minutes: build if needed, then run a command (default: serve).
#   ./run.sh [serve|import|keys|reindex|migrate|generate] ...   run the service
#   ./run.sh test                                                 run the whole test suite
#   ./run.sh aot                                                  JDK 25+: train the start-up cache serve uses
#   ./run.sh java-home | java-opts serve|build                    what scripts starting java themselves need
set -euo pipefail
cd "$(dirname "$0")"

java_major() { "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | cut -d. -f1; }

# The machine's default java may be older than 21: look for a JDK 21+ ourselves.
find_java_home() {
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for d in /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/*; do
    [ -d "$d" ] && candidates+=("$d")
  done
  local best="" best_v=0 v
  for d in "${candidates[@]}"; do
    [ -x "$d/bin/java" ] && [ -x "$d/bin/javac" ] || continue
    v=$(java_major "$d/bin/java")
    if [ -n "$v" ] && [ "$v" -ge 21 ] && [ "$v" -gt "$best_v" ]; then best="$d"; best_v="$v"; fi
  done
  [ -n "$best" ] || { echo "minutes needs a JDK 21 or newer; none found (set JAVA_HOME)." >&2; exit 1; }
  echo "$best"
}

export JAVA_HOME="$(find_java_home)"
export PATH="$JAVA_HOME/bin:$PATH"
MVN=(mvn -B -q)

build_if_needed() {
  local jar=target/minutes.jar
  if [ ! -f "$jar" ] || [ -n "$(find pom.xml src/main -newer "$jar" -print -quit)" ]; then
    echo "Building minutes (JDK: $JAVA_HOME)..." >&2
    # Quiet unless it fails: even with -q, Debian's Maven writes a line of colour resets.
    local log; log=$(mktemp)
    if ! "${MVN[@]}" -DskipTests package > "$log" 2>&1; then cat "$log" >&2; rm -f "$log"; exit 1; fi
    rm -f "$log"
  fi
}

# jboss-threads (under Undertow) calls sun.misc.Unsafe, which JDK 24+ warns about on every
# start; JDK 23+ knows the switch that allows it quietly, while JDK 21 would refuse to start with it.
QUIET_UNSAFE=""
if [ "$(java_major "$JAVA_HOME/bin/java")" -ge 23 ]; then QUIET_UNSAFE="--sun-misc-unsafe-memory-access=allow"; fi
# Maven itself runs on this JDK, and Debian's Maven (its guava) calls sun.misc.Unsafe too: four
# warnings on a newcomer's first build. Not in .mvn/jvm.config: JDK 21 refuses the switch.
export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }$QUIET_UNSAFE"
# sqlite-jdbc loads its native library through JNI, which newer JDKs want allowed explicitly.
SERVE_OPTS="--enable-native-access=ALL-UNNAMED $QUIET_UNSAFE ${MINUTES_JAVA_OPTS:--Xmx512m -XX:+UseSerialGC}"
# Full index builds (import, reindex) get a larger heap: a third of it is their indexing buffer,
# and a larger buffer writes fewer segments, which every search then pays less for and which
# Lucene need not merge again while the build runs (docs/BENCHMARKS.md, "Ten times the size").
# 4 GB, or a quarter of the memory where that is less (the container's limit where it has one),
# so that a build on a small machine is not the process the kernel kills when memory runs out.
build_heap_mb() {
  local kb mb limit
  kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo 2>/dev/null || true)
  limit=$(cat /sys/fs/cgroup/memory.max 2>/dev/null || true)   # cgroup v2; "max" when unlimited
  if [[ "$limit" =~ ^[0-9]+$ ]] && [ -n "$kb" ] && [ "$(( limit / 1024 ))" -lt "$kb" ]; then kb=$(( limit / 1024 )); fi
  mb=$(( ${kb:-16777216} / 4096 ))   # a quarter, in MB (4 GB where /proc is absent)
  if [ "$mb" -gt 4096 ]; then mb=4096; fi
  if [ "$mb" -lt 256 ]; then mb=256; fi
  echo "$mb"
}
BUILD_OPTS="--enable-native-access=ALL-UNNAMED $QUIET_UNSAFE ${MINUTES_JAVA_OPTS:--Xmx$(build_heap_mb)m -XX:+UseSerialGC}"
# JDK 25+ can start from an ahead-of-time cache (JEP 483/514/515): classes already loaded and
# linked, and method profiles that let the JIT compile the hot code sooner, so the first requests
# after a start are fast sooner. `./run.sh aot` trains it; `serve` uses it while it is newer than
# the jar (the JVM ignores, with a warning, a cache that does not match). MINUTES_AOT=off skips it.
AOT=target/minutes.aot
aot_usable() {
  [ "${MINUTES_AOT:-on}" != off ] && [ -f "$AOT" ] && [ "$AOT" -nt target/minutes.jar ] \
    && [ "$(java_major "$JAVA_HOME/bin/java")" -ge 25 ]
}

# The training run: a server on a throw-away copy of the demo data (classes and profiles are what
# the cache keeps, not data), every endpoint asked a few hundred times, then a clean stop, at
# which the JVM writes the cache.
train_aot() {
  local tmp pid port key i id w
  tmp=$(mktemp -d)
  rm -f "$AOT"
  MINUTES_DB_PATH="$tmp/minutes.db" MINUTES_INDEX_PATH="$tmp/index" MINUTES_HTTP_HOST=127.0.0.1 MINUTES_HTTP_PORT=0 \
    MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0 MINUTES_METRICS_REQUIRE_KEY=false \
    java $SERVE_OPTS -XX:AOTCacheOutput="$AOT" -jar target/minutes.jar serve --config /dev/null > "$tmp/out" 2> "$tmp/log" &
  pid=$!
  for i in $(seq 1 600); do
    grep -q 'is serving on' "$tmp/out" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/log" >&2; rm -rf "$tmp"; exit 1; }
    sleep 0.1
  done
  port=$(sed -n 's/.*is serving on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$tmp/out")
  key=$(sed -n 's/^  \(mk_[A-Za-z0-9_-]*\)$/\1/p' "$tmp/out" | head -1)
  for i in $(seq 1 600); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  local base="http://127.0.0.1:$port/api/v1" words=(budget remote design "remote control" meeting plan market data)
  local ids=($(curl -s -H "Authorization: Bearer $key" "$base/meetings?limit=20" | grep -o '"id":"[^"]*"' | cut -d'"' -f4))
  [ "${#ids[@]}" -gt 0 ] || { echo "the training server listed no meetings" >&2; kill "$pid"; rm -rf "$tmp"; exit 1; }
  for i in $(seq 1 150); do
    id=${ids[$((i % ${#ids[@]}))]}
    printf 'url = "%s/meetings/%s"\nurl = "%s/meetings/%s/participants"\nurl = "%s/meetings/%s/action-items"\n' \
      "$base" "$id" "$base" "$id" "$base" "$id"
    printf 'url = "%s/meetings/%s/transcript?limit=50"\nurl = "%s/meetings?offset=%d"\nurl = "%s/action-items?limit=100"\n' \
      "$base" "$id" "$base" "$i" "$base"
    printf 'url = "%s/customers"\nurl = "http://127.0.0.1:%s/healthz"\n' "$base" "$port"
    for w in "${words[@]}"; do printf 'url = "%s/search?q=%s"\n' "$base" "${w// /%20}"; done
  done > "$tmp/urls"
  curl -s -H "Authorization: Bearer $key" -K "$tmp/urls" > /dev/null || true
  kill -TERM "$pid"; wait "$pid" || true
  rm -rf "$tmp"
  [ -f "$AOT" ] || { echo "the JVM wrote no ahead-of-time cache" >&2; exit 1; }
  echo "ahead-of-time cache written: $AOT ($(du -h "$AOT" | cut -f1)); serve starts with it" >&2
}

case "${1:-serve}" in
  java-home)   # for scripts (benchmarks) that start the JVM themselves
    echo "$JAVA_HOME"
    ;;
  java-opts)   # the JVM options of `serve` (java-opts serve) or of import and reindex (java-opts build)
    case "${2:-}" in
      serve) echo "$SERVE_OPTS" ;;
      build) echo "$BUILD_OPTS" ;;
      *) echo "usage: ./run.sh java-opts serve|build" >&2; exit 2 ;;
    esac
    ;;
  test)
    shift
    # Once on SQLite and once on a throwaway PostgreSQL server that this starts and stops.
    exec scripts/with-postgres.sh mvn -B verify "$@"
    ;;
  aot)   # train the ahead-of-time cache (JDK 25+) that serve then starts from
    build_if_needed
    v=$(java_major "$JAVA_HOME/bin/java")
    if [ "$v" -lt 25 ]; then
      echo "the ahead-of-time cache needs JDK 25 or newer (this is JDK $v); serve starts without it" >&2
      exit 1
    fi
    train_aot
    ;;
  *)
    build_if_needed
    case "${1:-serve}" in
      import|reindex) opts="$BUILD_OPTS" ;;
      serve)          opts="$SERVE_OPTS"; if aot_usable; then opts="$opts -XX:AOTCache=$AOT"; fi ;;
      *)              opts="$SERVE_OPTS" ;;
    esac
    exec java $opts -jar target/minutes.jar "$@"
    ;;
esac
