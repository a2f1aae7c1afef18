#!/usr/bin/env bash
# Writes DIR/api-mix.txt: the endpoints of bench/api-bench.sh other than search, mixed, for
# `AB_PATHS=DIR/api-mix.txt BENCH_OUT=DIR bench/jar-ab.sh REV` (the API before and after a change,
# alternating jars). Per meeting of the first 400 of workspace bench-1 in DIR/minutes.db (as
# bench/search-bench.sh and bench/api-bench.sh leave it): the meeting, its participants, its
# action items and its first 100 transcript segments; and one of the eight list requests of
# bench/api-bench.sh in turn.
#   bench/api-mix.sh DIR
set -euo pipefail
DIR=${1:?usage: bench/api-mix.sh DIR}
python3 - "$DIR" <<'PY'
import sqlite3, sys
d = sys.argv[1]
c = sqlite3.connect(f"file:{d}/minutes.db?mode=ro", uri=True)
ids = [r[0] for r in c.execute(
    "SELECT m.id FROM meeting m JOIN workspace w ON w.id = m.workspace_id WHERE w.slug = 'bench-1' ORDER BY m.id LIMIT 400")]
lists = ["/api/v1/action-items", "/api/v1/action-items?status=open&verdict=open",
         "/api/v1/action-items?due_from=2026-06-01&due_to=2026-06-30", "/api/v1/action-items?offset=100000",
         "/api/v1/meetings", "/api/v1/meetings?offset=10000&limit=200", "/api/v1/meetings?q=planning&order=title",
         "/api/v1/customers"]
with open(f"{d}/api-mix.txt", "w") as out:
    for i, m in enumerate(ids):
        for p in ("", "/participants", "/action-items", "/transcript?limit=100"):
            out.write(f"/api/v1/meetings/{m}{p}\n")
        out.write(lists[i % len(lists)] + "\n")
PY
wc -l < "$DIR/api-mix.txt"
