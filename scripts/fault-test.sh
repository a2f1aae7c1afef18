#!/usr/bin/env bash
# Faults (issue 5, part 3), one command:
#   1. kill -9 at seeded random moments: the server while it applies an import to the index,
#      `import` and `reindex` half-way (FaultTest, ROUNDS rounds; CI runs 1), then the
#      consistency checks after each restart; damaged index files (DamagedIndexTest);
#   2. storage faults on real file systems (needs root for mount; skipped otherwise):
#      a full disk (small tmpfs) under import, reindex and the running server, and a
#      read-only index folder (read-only bind mount).
# Every server this script starts is stopped on exit; every wait is bounded.
#   scripts/fault-test.sh [ROUNDS] [SEED]          (defaults: 30, random)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-30}
SEED=${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
export JAVA_HOME="$(./run.sh java-home)"
export PATH="$JAVA_HOME/bin:$PATH"
OUT=target/reliability
mkdir -p "$OUT"
PIDS=()
MOUNTS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  for (( i=${#MOUNTS[@]}-1; i>=0; i-- )); do umount "${MOUNTS[$i]}" 2>/dev/null || true; done
  [ -z "${W:-}" ] || rm -rf --one-file-system "$W" 2>/dev/null || true   # the mktemp folder, also on failure and without root
}
trap cleanup EXIT

if [ "${SKIP_KILLS:-}" != 1 ]; then
  echo "== kill -9 rounds: $ROUNDS, seed $SEED (replay: scripts/fault-test.sh $ROUNDS $SEED)"
  mvn -B -q test -Dtest='FaultTest,DamagedIndexTest' -Dsurefire.failIfNoSpecifiedTests=false \
    -Dfaults.rounds="$ROUNDS" -Dfaults.seed="$SEED"
  cat "$OUT/faults-summary.txt"
fi

# ---------------------------------------------------------------- storage faults
JAR=${MINUTES_JAR:-target/minutes.jar}
[ -n "${MINUTES_JAR:-}" ] || ./run.sh --version >/dev/null   # builds the jar when needed (never a stale one)
RUN=(java --enable-native-access=ALL-UNNAMED -Xmx256m -XX:+UseSerialGC -jar "$JAR")
W=$(mktemp -d /tmp/minutes-storage-XXXXXX)
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS+1)); }
ok() { echo "ok:   $*"; }
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=1m tmpfs "$W" 2>/dev/null; then
  echo "== storage faults skipped: mounting needs root (see docs/RELIABILITY.md for the manual steps)"
  exit 0
fi
umount "$W"
PORT=${FAULT_PORT:-18471}
export MINUTES_HTTP_PORT=$PORT
"${RUN[@]}" generate --meetings 20 --seed 11 --transcript-kb 15-40 --out "$W/base.ndjson" 2>/dev/null
"${RUN[@]}" generate --meetings 60 --seed 12 --transcript-kb 15-40 --out "$W/more.ndjson" 2>/dev/null

serve() { # start a server on the configured paths; waits for it to listen (bounded)
  "${RUN[@]}" serve >>"$W/server.log" 2>&1 &
  SERVER=$!; PIDS+=("$SERVER")
  for _ in $(seq 1 300); do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && return 0; sleep 0.2; done
  fail "server did not listen"; return 1
}
stop() { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; }
status() { curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT$1"; }
count() { sqlite3 "$MINUTES_DB_PATH" 'SELECT count(*) FROM meeting'; }

echo "== full disk (tmpfs)"
D="$W/full"; mkdir -p "$D"; mount -t tmpfs -o size=24m tmpfs "$D"; MOUNTS+=("$D")
export MINUTES_DB_PATH="$D/minutes.db" MINUTES_INDEX_PATH="$D/index"
"${RUN[@]}" import "$W/base.ndjson" >/dev/null 2>&1
KEY=$("${RUN[@]}" keys create --workspace bench-1 --scopes meetings:read,action_items:read,transcripts:read | tail -1)
serve
BEFORE=$(count)
# Fill the disk, leaving ~1 MB: the next import (~4 MB) cannot fit.
dd if=/dev/zero of="$D/filler" bs=1M count=100 2>/dev/null || true
AVAIL=$(df -k --output=avail "$D" | tail -1)
if [ "$AVAIL" -gt 0 ]; then truncate -s 0 "$D/filler"; dd if=/dev/zero of="$D/filler" bs=1K count=$(( $(df -k --output=avail "$D" | tail -1) - 1024 )) 2>/dev/null || true; fi
set +e; ERR=$("${RUN[@]}" import "$W/more.ndjson" 2>&1 >/dev/null); CODE=$?; set -e
echo "   import on a full disk: exit $CODE, says: $(tail -1 <<<"$ERR")"
[ "$CODE" -ne 0 ] && ok "import on a full disk fails (exit $CODE)" || fail "import on a full disk exited 0"
grep -qiE 'full|space' <<<"$ERR" && ok "its message says the disk is full" || fail "message does not say the disk is full"
[ "$(count)" = "$BEFORE" ] && ok "nothing of it landed ($BEFORE meetings)" || fail "half an import landed: $(count) vs $BEFORE"
[ "$(sqlite3 "$MINUTES_DB_PATH" 'PRAGMA integrity_check')" = ok ] && ok "database intact" || fail "database damaged"
for p in /api/v1/meetings "/api/v1/search?q=meeting" /api/v1/action-items /healthz; do
  s=$(status "$p"); [ "$s" = 200 ] && ok "server answers $p: 200 while the disk is full" || fail "$p answered $s on a full disk"
done
set +e; ERR=$("${RUN[@]}" reindex 2>&1 >/dev/null); CODE=$?; set -e
echo "   reindex on a full disk: exit $CODE, says: $(tail -1 <<<"$ERR")"
[ "$CODE" -ne 0 ] && ok "reindex on a full disk fails (exit $CODE)" || fail "reindex on a full disk exited 0"
s=$(status "/api/v1/search?q=meeting"); [ "$s" = 200 ] && ok "search still answers from the old index" || fail "search answered $s after a failed reindex"
[ "$(ls -d "$D"/index/gen-* | wc -l)" = 1 ] && ok "the failed reindex left no partial generation" || fail "partial generation left: $(ls "$D/index")"
rm -f "$D/filler"
"${RUN[@]}" import "$W/more.ndjson" >/dev/null 2>&1 && ok "with space again, the same import succeeds" || fail "import failed after freeing space"
sleep 2
N=$(curl -s -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/api/v1/meetings?limit=1" | sed 's/.*"total":\([0-9]*\).*/\1/')
[ "$N" = "$(count)" ] && ok "server shows all $N meetings" || fail "server shows $N of $(count)"
stop
umount "$D"; unset 'MOUNTS[${#MOUNTS[@]}-1]'

echo "== read-only index folder (bind mount)"
D="$W/ro"; mkdir -p "$D"
export MINUTES_DB_PATH="$D/minutes.db" MINUTES_INDEX_PATH="$D/index"
"${RUN[@]}" import "$W/base.ndjson" >/dev/null 2>&1
KEY=$("${RUN[@]}" keys create --workspace bench-1 --scopes meetings:read,action_items:read,transcripts:read | tail -1)
mount --bind "$D/index" "$D/index"; MOUNTS+=("$D/index"); mount -o remount,ro,bind "$D/index"
touch "$D/index/x" 2>/dev/null && fail "the index folder is writable" || ok "index folder is read-only"
: >"$W/server.log"
serve
sleep 3
for p in /api/v1/meetings "/api/v1/search?q=meeting" /healthz; do echo "   $p: $(status "$p")"; done
S=$(status "/api/v1/search?q=meeting"); H=$(status /healthz)
[ "$S" = 200 ] || [ "$S" = 503 ] && ok "search answers $S, never 500" || fail "search answered $S"
[ "$(status /api/v1/meetings)" = 200 ] && ok "the meeting endpoints keep answering" || fail "meetings not answering"
grep -iE 'read-only|permission|denied' "$W/server.log" | head -2 | sed 's/^/   log: /'
grep -qiE 'read-only|permission|denied' "$W/server.log" && ok "the log says why the index is not usable" || fail "no clear log line about the read-only index"
set +e; ERR=$("${RUN[@]}" import "$W/more.ndjson" 2>&1 >/dev/null); CODE=$?; set -e
echo "   import with a read-only index: exit $CODE, says: $(tail -1 <<<"$ERR")"
grep -q 'import is complete' <<<"$ERR" && ok "import says the data landed and the index did not" || fail "import message unclear"
set +e; ERR=$("${RUN[@]}" reindex 2>&1 >/dev/null); CODE=$?; set -e
echo "   reindex with a read-only index: exit $CODE, says: $(tail -1 <<<"$ERR")"
[ "$CODE" -ne 0 ] && ok "reindex fails clearly (exit $CODE)" || fail "reindex exited 0 on a read-only folder"
stop
umount "$D/index"; unset 'MOUNTS[${#MOUNTS[@]}-1]'
"${RUN[@]}" reindex >/dev/null 2>&1 && ok "writable again, reindex is the way out" || fail "reindex failed after making the folder writable"
: >"$W/server.log"; serve; sleep 1
[ "$(status "/api/v1/search?q=meeting")" = 200 ] && ok "search answers again" || fail "search not answering after reindex"
stop
echo "storage faults: $FAILS failure(s)"
[ "$FAILS" = 0 ]
