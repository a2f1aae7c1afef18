#!/usr/bin/env bash
# A minutes cluster on this machine: a PostgreSQL server, two (or --nodes N) API nodes with an
# index each, and nginx in front that spreads requests, checks each node's /healthz every
# second and retries an idempotent request on the next node when one fails. Prints a curl line
# that works as printed; Ctrl-C stops everything and deletes the cluster's folder
# (--keep keeps it, with the logs).
#
#   scripts/cluster.sh [--nodes N] [--port PORT] [--keep]
#
# The nodes are ./run.sh serve processes with MINUTES_DB_URL set (docs/CLUSTER.md); nginx and
# PostgreSQL are Debian's (installed when missing, as root, without their services).
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=2 port=8080 keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) nodes=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "usage: scripts/cluster.sh [--nodes N] [--port PORT] [--keep]" >&2; exit 2 ;;
  esac
done
source scripts/postgres.sh

missing=()
command -v nginx >/dev/null || missing+=(nginx)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] || scripts/debian-install.sh "${missing[@]}"

work=$(mktemp -d /tmp/minutes-cluster-XXXXXX)
chmod 711 "$work" # the PostgreSQL server's user (not us when we are root) must reach its folder inside
pids=()
stopping=""
stop_all() {
  [ -z "$stopping" ] || return 0
  stopping=1
  echo >&2
  echo "stopping the cluster..." >&2
  [ -f "$work/nginx.pid" ] && nginx -c "$work/nginx.conf" -p "$work" -s quit 2>/dev/null || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pg_stop "$work/pg"
  if [ -n "$keep" ]; then echo "kept $work (logs: $work/*.log)" >&2; else rm -rf "$work"; fi
}
trap stop_all EXIT
trap 'exit 130' INT TERM

echo "cluster folder: $work" >&2
pg_start "$work/pg"
pg_psql "$work/pg" -c "CREATE DATABASE minutes" >/dev/null
export MINUTES_DB_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/minutes?user=postgres"
export MINUTES_JAVA_OPTS="${MINUTES_JAVA_OPTS:--Xmx512m -XX:+UseSerialGC}"
./run.sh migrate >&2

# Node 1 starts first: on the empty database it loads the demo data and prints the demo key.
node_port() { echo $((port + $1)); }
start_node() {
  local i=$1
  MINUTES_HTTP_PORT=$(node_port "$i") MINUTES_INDEX_PATH="$work/index-$i" \
    ./run.sh serve >"$work/node-$i.out" 2>"$work/node-$i.log" &
  pids+=($!)
}
healthy() { curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$1/healthz"; }
wait_healthy() {
  local i=$1
  for _ in $(seq 1 300); do
    healthy "$(node_port "$i")" && return 0
    kill -0 "${pids[$((i - 1))]}" 2>/dev/null || { echo "node $i exited; see $work/node-$i.log" >&2; tail -n 20 "$work/node-$i.log" >&2; exit 1; }
    sleep 0.2
  done
  echo "node $i did not become healthy; see $work/node-$i.log" >&2
  exit 1
}
for i in $(seq 1 "$nodes"); do
  start_node "$i"
  wait_healthy "$i"
  echo "node $i: http://127.0.0.1:$(node_port "$i") (index $work/index-$i)" >&2
done
key=$(sed -n 's/^  \(mk_[A-Za-z0-9_-]*\)$/\1/p' "$work/node-1.out" | head -n 1)

# nginx in front. Open-source nginx only notices a dead node when a request to it fails
# (max_fails); the watcher below also marks nodes whose /healthz fails as down, and back.
mkdir -p "$work/nginx-tmp" && chmod 1777 "$work/nginx-tmp"
write_nginx_conf() {
  {
    echo "worker_processes 1; pid $work/nginx.pid; error_log $work/nginx-error.log warn;"
    echo "events { worker_connections 1024; }"
    echo "http {"
    echo "  access_log $work/nginx-access.log; client_body_temp_path $work/nginx-tmp/body; proxy_temp_path $work/nginx-tmp/proxy;"
    echo "  fastcgi_temp_path $work/nginx-tmp/fcgi; uwsgi_temp_path $work/nginx-tmp/uwsgi; scgi_temp_path $work/nginx-tmp/scgi;"
    echo "  upstream minutes {"
    for i in $(seq 1 "$nodes"); do
      echo "    server 127.0.0.1:$(node_port "$i") max_fails=1 fail_timeout=2s$([ "${down[$i]:-}" = 1 ] && echo ' down');"
    done
    echo "    keepalive 32;"
    echo "  }"
    echo "  server {"
    echo "    listen 127.0.0.1:$port;"
    echo "    location / {"
    echo "      proxy_pass http://minutes;"
    echo "      proxy_http_version 1.1; proxy_set_header Connection \"\"; proxy_set_header Host \$host;"
    # GET and HEAD are idempotent: nginx retries them on the next node when one fails or sheds load.
    echo "      proxy_next_upstream error timeout http_502 http_503 http_504; proxy_next_upstream_tries $nodes;"
    echo "      proxy_connect_timeout 1s; proxy_read_timeout 30s;"
    echo "    }"
    echo "  }"
    echo "}"
  } >"$work/nginx.conf"
}
declare -A down=()
write_nginx_conf
nginx -c "$work/nginx.conf" -p "$work"
for _ in $(seq 1 50); do healthy "$port" && break; sleep 0.1; done

echo
echo "minutes cluster: $nodes nodes behind nginx on http://127.0.0.1:$port, PostgreSQL on 127.0.0.1:$PG_PORT"
echo "Demo key (all scopes, workspace 'demo'):"
echo "  $key"
echo "Try:"
echo "  curl -H 'Authorization: Bearer $key' http://127.0.0.1:$port/api/v1/meetings"
echo "Import through any node's configuration (each node has its own index and follows the database):"
echo "  MINUTES_DB_URL='$MINUTES_DB_URL' ./run.sh import FILE"
echo "Ctrl-C stops the cluster."

# The watcher: a node whose /healthz fails is taken out of nginx until it answers again.
while true; do
  changed=""
  for i in $(seq 1 "$nodes"); do
    if healthy "$(node_port "$i")"; then now=0; else now=1; fi
    if [ "${down[$i]:-0}" != "$now" ]; then
      down[$i]=$now
      changed=1
      echo "node $i is $([ "$now" = 1 ] && echo down || echo up again)" >&2
    fi
  done
  if [ -n "$changed" ]; then
    write_nginx_conf
    nginx -c "$work/nginx.conf" -p "$work" -s reload
  fi
  sleep 1
done
