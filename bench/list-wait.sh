#!/usr/bin/env bash
# How long a list request waits for the in-memory orders' rebuild after an import (issue 45
# item 6: the orders are the only way /meetings, /action-items and /customers answer, and a
# request never gets an older version than its own). On a copy of what bench/api-bench.sh left in
# bench/out/api (its SQLite file, or with STORE=postgresql a dump of its PostgreSQL database
# restored into a server started here), this checkout's server is started, one client per list
# asks GET /meetings?limit=1, /action-items?limit=1 and /customers in turn, back to back, and
# IMPORTS times a file of one changed meeting (its title and tasks rewritten) is imported. With
# CLIENTS=n, n clients per list. One more client asks GET /meetings/{id} of that meeting, which
# waits for no order: whether the waiting list requests hold it up (they keep their places
# among http.max_in_flight). Prints per path: the median and longest request before the imports,
# and the longest after each one (the wait for the rebuild) with the 503s, and the orders' build
# seconds from /metrics.
#   [STORE=sqlite|postgresql] [IMPORTS=3] [CLIENTS=1] bench/list-wait.sh
set -euo pipefail
cd "$(dirname "$0")/.."
STORE=${STORE:-sqlite}
IMPORTS=${IMPORTS:-3}
SRC=bench/out/api
OUT=bench/out/list-wait
[ -f "$SRC/corpus.ndjson" ] && [ -f "$SRC/minutes.db" ] || { echo "run bench/api-bench.sh first" >&2; exit 1; }
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
JAVA="$(./run.sh java-home)/bin/java"
export JAVA_HOME="${JAVA%/bin/java}"
mvn -B -q -o -DskipTests package >&2
read -ra SERVE_OPTS <<<"$(./run.sh java-opts serve)"
read -ra BUILD_OPTS <<<"$(./run.sh java-opts build)"
source scripts/postgres.sh
rm -rf "$OUT"; mkdir -p "$OUT"
SERVER=""
cleanup() {
  [ -z "$SERVER" ] || { kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true; }
  [ "$STORE" != postgresql ] || { pg_stop "$OUT/pg"; pg_stop "$SRC/pg"; }
}
trap cleanup EXIT
if [ "$STORE" = postgresql ]; then
  PG_DURABLE=1 pg_start "$SRC/pg" >/dev/null
  "$(pg_bin_dir)/pg_dump" -h 127.0.0.1 -p "$PG_PORT" -U postgres -Fc minutes > "$OUT/minutes.dump"
  pg_stop "$SRC/pg"
  pg_fresh_minutes "$OUT/pg"
  # A dump may repeat what a new database has (schema public): said, not fatal.
  "$(pg_bin_dir)/pg_restore" -h 127.0.0.1 -p "$PG_PORT" -U postgres --no-owner -d minutes "$OUT/minutes.dump" \
    || echo "pg_restore reported the errors above" >&2
  pg_psql "$OUT/pg" -d minutes -c "VACUUM (ANALYZE)"
else
  cp "$SRC/minutes.db" "$OUT/minutes.db"
  export MINUTES_DB_PATH="$OUT/minutes.db"
  unset MINUTES_DB_URL
fi
export MINUTES_INDEX_PATH="$OUT/index" MINUTES_HTTP_RATE_LIMIT_PER_MINUTE=0
"$JAVA" "${BUILD_OPTS[@]}" -jar target/minutes.jar reindex | tail -1 >&2
WS=$(grep -m1 '"kind":"user"' "$SRC/corpus.ndjson" | sed 's/.*"workspace":"\([^"]*\)".*/\1/')
KEY=$("$JAVA" -jar target/minutes.jar keys create --workspace "$WS" --scopes meetings:read,action_items:read --name list-wait | tail -1)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export MINUTES_HTTP_PORT=$PORT
"$JAVA" "${SERVE_OPTS[@]}" -jar target/minutes.jar serve > "$OUT/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
# The meeting to change: the first of the benchmarked workspace, with its tasks.
grep -m1 "\"kind\":\"meeting\",\"workspace\":\"$WS\"" "$SRC/corpus.ndjson" > "$OUT/meeting.ndjson"
python3 - "$PORT" "$KEY" "$OUT" "$IMPORTS" "$JAVA" "${CLIENTS:-1}" <<'PY'
import json, re, statistics, subprocess, sys, threading, time, urllib.error, urllib.request
port, key, out, imports, java, clients = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
line = json.loads(open(f"{out}/meeting.ndjson").read())
lists = {"meetings": "/api/v1/meetings?limit=1", "action-items": "/api/v1/action-items?limit=1", "customers": "/api/v1/customers",
         "meeting (no order)": "/api/v1/meetings/" + line["id"]}
log = {name: [] for name in lists}  # (start, seconds, status)
stop = threading.Event()
def client(name, path):
    while not stop.is_set():
        req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Authorization": "Bearer " + key})
        t = time.monotonic()
        try:
            with urllib.request.urlopen(req) as r:
                r.read()
                status = r.status
        except urllib.error.HTTPError as e:
            status = e.code
        log[name].append((t, time.monotonic() - t, status))
threads = [threading.Thread(target=client, args=(name, path), daemon=True)
           for name, path in lists.items() for _ in range(1 if name.startswith("meeting ") else clients)]
for t in threads: t.start()
time.sleep(10)
before = time.monotonic()
windows = []
for n in range(imports):
    line["title"] = f"List wait probe {n}"
    for p in line.get("protocols", []):
        for a in p.get("action_items", []):
            a["task"] = f"probe {n}: " + a["task"].split(": ", 1)[-1]
    with open(f"{out}/change.ndjson", "w") as f:
        f.write(json.dumps(line) + "\n")
    t = time.monotonic()
    subprocess.run([java, "-Xmx128m", "--enable-native-access=ALL-UNNAMED", "-jar", "target/minutes.jar", "import",
                    f"{out}/change.ndjson"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    done = time.monotonic()
    time.sleep(8)
    windows.append((t, done, time.monotonic()))
stop.set()
for t in threads: t.join()
metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
builds = ", ".join(f"{o} {float(v):.2f} s" for o, v in re.findall(r'minutes_list_order_build_seconds\{order="(\w+)"\} ([0-9.]+)', metrics))
print(f"{clients} client(s) per list")
print("| path | requests before | p50 before ms | max before ms | " + " | ".join(f"max after import {i + 1} ms (503s)" for i in range(imports)) + " |")
print("|---|---|---|---|" + "---|" * imports)
for name in lists:
    pre = [s for (t, s, c) in log[name] if t < before]
    after = []
    for w in windows:
        during = [(s, c) for (t, s, c) in log[name] if w[0] <= t < w[2]]
        after.append(f"{max([s for s, c in during] or [0]) * 1000:.0f} ({sum(1 for s, c in during if c == 503)})")
    print(f"| {name} | {len(pre)} | {statistics.median(pre) * 1000:.1f} | {max(pre) * 1000:.1f} | " + " | ".join(after) + " |")
print(f"\nimport of one changed meeting: {', '.join(f'{w[1] - w[0]:.1f} s' for w in windows)}; last builds (/metrics): {builds}")
PY
echo "date: $(date -u +%Y-%m-%dT%H:%MZ), command: STORE=$STORE IMPORTS=$IMPORTS CLIENTS=${CLIENTS:-1} bench/list-wait.sh, load average before: $LOAD_BEFORE"
