#!/usr/bin/env bash
# Runs a command next to a throwaway PostgreSQL server (own data folder, free loopback port),
# stopped and removed when the command ends, also on failure or Ctrl-C. The command sees
# MINUTES_TEST_PG_URL, a superuser URL the tests create their databases with.
# When MINUTES_TEST_PG_URL is already set (a server of your own), the command runs against that.
#   scripts/with-postgres.sh mvn -B verify
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ -n "${MINUTES_TEST_PG_URL:-}" ]; then exec "$@"; fi
source "$here/postgres.sh"
dir=$(mktemp -d /tmp/minutes-pg-XXXXXX)
cleanup() { pg_stop "$dir"; rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
pg_start "$dir"
echo "PostgreSQL for the tests: 127.0.0.1:$PG_PORT (data in $dir, removed afterwards)" >&2
export MINUTES_TEST_PG_URL="$PG_ADMIN_URL"
set +e
"$@"
status=$?
set -e
exit $status
