#!/usr/bin/env bash
# Search latency of the SQLite node against the PostgreSQL node (issue 12: within 10 %), on what
# bench/api-bench.sh left in bench/out/api (run it first, on both stores): both servers up at
# once, each on its own store and its own index of the same 20,000 meetings, the same 10 queries
# over one connection, alternating between the nodes ROUNDS times (A B, then B A, ...) for SECONDS
# each, so that the machine's noise falls on both alike, after WARM s of searching on each node
# (the steady state; default 120 s, for the reason bench/jar-ab.sh gives). Prints a row per
# round and the medians.
#   bench/search-stores-ab.sh [ROUNDS=6] [SECONDS=5] [WARM=120]
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-6}
SECONDS_EACH=${2:-5}
WARM=${3:-120}
OUT=bench/out/api
[ -f "$OUT/minutes.db" ] && [ -d "$OUT/pg/data" ] && [ -f "$OUT/search-paths.txt" ] \
  || { echo "run bench/api-bench.sh first: it leaves both stores in $OUT" >&2; exit 1; }
command -v wrk >/dev/null || scripts/debian-install.sh wrk
source scripts/postgres.sh
./run.sh --version >/dev/null
JAVA="$(./run.sh java-home)/bin/java"
read -ra SERVE_OPTS <<<"$(./run.sh java-opts serve)"   # as run.sh starts the server
WS=$(grep -m1 '"kind":"user"' "$OUT/corpus.ndjson" | sed 's/.*"workspace":"\([^"]*\)".*/\1/')
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

SERVERS=()
cleanup() {
  for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; done
  pg_stop "$OUT/pg" 2>/dev/null || true
}
trap cleanup EXIT
PG_DURABLE=1 pg_start "$OUT/pg" >/dev/null

declare -A PORT KEY
for store in sqlite postgresql; do
  if [ "$store" = postgresql ]; then
    db=(MINUTES_DB_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/minutes?user=postgres" MINUTES_DB_PATH=)
  else
    db=(MINUTES_DB_URL= MINUTES_DB_PATH="$OUT/minutes.db")
  fi
  PORT[$store]=$(free_port)
  run=(env "${db[@]}" MINUTES_INDEX_PATH="$OUT/index-$store" MINUTES_HTTP_PORT="${PORT[$store]}"
    MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0 "$JAVA" "${SERVE_OPTS[@]}"
    -jar target/minutes.jar)
  KEY[$store]=$("${run[@]}" keys create --workspace "$WS" --scopes meetings:read --name search-ab | tail -1)
  "${run[@]}" serve > "$OUT/search-ab-$store.log" 2>&1 &
  SERVERS+=($!)
done
for store in sqlite postgresql; do
  for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:${PORT[$store]}/healthz" >/dev/null && break; sleep 0.2; done
done

measure() { # store seconds -> "p50_ms p99_ms req/s"
  local out
  out=$(PATHS="$OUT/search-paths.txt" KEY="${KEY[$1]}" wrk -t1 -c1 -d"$2s" --latency -s bench/paths.lua \
    "http://127.0.0.1:${PORT[$1]}")
  ms() { awk -v p="$1" '$1==p { v=$2; if (v ~ /us$/) { sub(/us/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms/, "", v) } else { sub(/s/, "", v); v *= 1000 }; printf "%.2f", v }'; }
  echo "$(ms 50% <<<"$out") $(ms 99% <<<"$out") $(awk '/Requests\/sec/{print $2}' <<<"$out")"
}
measure sqlite "$WARM" >/dev/null; measure postgresql "$WARM" >/dev/null   # warm-up

echo "| round | SQLite node p50 · p99 ms · req/s | PostgreSQL node p50 · p99 ms · req/s |"
echo "|---|---|---|"
declare -a A50 B50 A99 B99
for r in $(seq 1 "$ROUNDS"); do
  if (( r % 2 )); then a=$(measure sqlite "$SECONDS_EACH"); b=$(measure postgresql "$SECONDS_EACH")
  else b=$(measure postgresql "$SECONDS_EACH"); a=$(measure sqlite "$SECONDS_EACH"); fi
  read -r a50 a99 arps <<<"$a"; read -r b50 b99 brps <<<"$b"
  A50+=("$a50"); B50+=("$b50"); A99+=("$a99"); B99+=("$b99")
  echo "| $r | $a50 · $a99 · $arps | $b50 · $b99 · $brps |"
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
m50a=$(median "${A50[@]}"); m50b=$(median "${B50[@]}"); m99a=$(median "${A99[@]}"); m99b=$(median "${B99[@]}")
echo
echo "medians of the rounds: SQLite node p50 $m50a ms, p99 $m99a ms; PostgreSQL node p50 $m50b ms, p99 $m99b ms;" \
  "PostgreSQL / SQLite: p50 $(awk -v a="$m50a" -v b="$m50b" 'BEGIN{printf "%.2f", b / a}'), p99 $(awk -v a="$m99a" -v b="$m99b" 'BEGIN{printf "%.2f", b / a}')"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ), command: bench/search-stores-ab.sh $ROUNDS $SECONDS_EACH $WARM, commit $(git rev-parse --short HEAD), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
