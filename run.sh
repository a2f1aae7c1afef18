#!/usr/bin/env bash
# minutes: build if needed, then run a command (default: serve).
#   ./run.sh [serve|import|keys|reindex|migrate|generate] ...   run the service
#   ./run.sh test                                                 run the whole test suite
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
    "${MVN[@]}" -DskipTests package >&2
  fi
}

case "${1:-serve}" in
  java-home)   # for scripts (benchmarks) that start the JVM themselves
    echo "$JAVA_HOME"
    ;;
  test)
    shift
    exec mvn -B verify "$@"
    ;;
  *)
    build_if_needed
    # Full index builds get a larger heap: a third of it is their indexing buffer, and a
    # larger buffer writes fewer segments, which every search then pays less for.
    case "${1:-serve}" in
      import|reindex) opts="-Xmx2g -XX:+UseSerialGC" ;;
      *)              opts="-Xmx512m -XX:+UseSerialGC" ;;
    esac
    # sqlite-jdbc loads its native library through JNI, which newer JDKs want allowed explicitly.
    flags=(--enable-native-access=ALL-UNNAMED)
    # jboss-threads (under Undertow) calls sun.misc.Unsafe, which JDK 24+ warns about on every
    # start; JDK 23+ knows the switch that allows it quietly, while JDK 21 would refuse to start with it.
    if [ "$(java_major "$JAVA_HOME/bin/java")" -ge 23 ]; then flags+=(--sun-misc-unsafe-memory-access=allow); fi
    exec java "${flags[@]}" ${MINUTES_JAVA_OPTS:-$opts} -jar target/minutes.jar "$@"
    ;;
esac
