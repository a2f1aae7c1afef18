#!/usr/bin/env bash
# Functions for a throwaway PostgreSQL server on loopback, for tests and the local cluster.
# Source it, then: pg_start DIR [PORT] (sets PG_PORT and PG_ADMIN_URL), pg_stop DIR.
# The server runs as the user "postgres" when we are root (initdb refuses root), with its
# own data folder, listening on 127.0.0.1 only, on the first free port it can bind.

pg_bin_dir() {
  local d best=""
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && best="$d"; done
  [ -n "$best" ] || { echo "PostgreSQL server binaries not found (Debian: apt-get install postgresql)" >&2; return 1; }
  echo "$best"
}

# Runs a PostgreSQL program as the server's owner.
pg_as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# pg_start DIR [PORT]: initialise DIR (created if missing) and start its server on PORT, or on
# a free port when none is given (a restart passes the port the clients know).
pg_start() {
  local dir want=${2:-} bin port attempt
  dir=$(realpath -m "$1") # the server runs in its data folder: a relative path would point elsewhere
  bin=$(pg_bin_dir) || return 1
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
  chmod 700 "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    # An English collation, as most servers have, rather than C: the schema must sort text by code
    # point (as SQLite does) whatever the server's default, and the tests should show it.
    pg_as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
      --locale-provider=icu --icu-locale=en-US >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; return 1; }
  fi
  # Below the kernel's ephemeral ports: a server restarted on its port (OwnPostgres) found it
  # taken once by some client's outgoing connection (PostgresOutageTest, the whole suite, 2026-12-05).
  local ephemeral
  ephemeral=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=${want:-$(( 10000 + RANDOM % (ephemeral - 10000) ))}
    # Throwaway data: no fsync, unless PG_DURABLE=1 (benchmarks compare with a SQLite that
    # syncs every commit). Sockets in the data folder, so nothing is written outside it.
    local speed="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    # shared_buffers as an operator sizes it (docs/CLUSTER.md): the bench's 20,000-meeting
    # database (about 530 MB) fits; with 256 MB each request read pages through the kernel.
    [ "${PG_DURABLE:-}" = 1 ] && speed="-c shared_buffers=${PG_SHARED_BUFFERS:-1GB}"
    if pg_as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir/data $speed -c max_connections=200" \
        start >/dev/null 2>&1; then
      PG_PORT=$port
      PG_ADMIN_URL="jdbc:postgresql://127.0.0.1:$port/postgres?user=postgres"
      export PG_PORT PG_ADMIN_URL
      return 0
    fi
  done
  echo "could not start PostgreSQL (see $dir/server.log)" >&2
  tail -n 20 "$dir/server.log" >&2 || true
  return 1
}

# pg_stop DIR: stop the server of DIR at once; its data is throwaway.
pg_stop() {
  local dir bin
  dir=$(realpath -m "$1")
  bin=$(pg_bin_dir) || return 0
  [ -f "$dir/data/postmaster.pid" ] && pg_as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
}

# pg_fresh_minutes DIR: a new server in DIR with durable settings (fsync and synchronous commit on,
# as SQLite's synchronous=FULL, for benchmarks that compare the two) and an empty database
# "minutes", named in MINUTES_DB_URL (and MINUTES_DB_PATH unset) for the commands run next.
pg_fresh_minutes() {
  pg_stop "$1"; rm -rf "$1"
  PG_DURABLE=1 pg_start "$1" || return 1
  pg_psql "$1" -c "CREATE DATABASE minutes" >/dev/null
  export MINUTES_DB_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/minutes?user=postgres"
  unset MINUTES_DB_PATH
}

# pg_psql DIR SQL...: runs SQL as the superuser against the server of DIR.
pg_psql() {
  local dir=$1; shift
  "$(pg_bin_dir)/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt "$@"
}
