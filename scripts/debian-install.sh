#!/usr/bin/env bash
# Installs Debian packages (as root) for their programs only: no default cluster, site or
# service of the package's own is created or left running (policy-rc.d refuses every start),
# and none of the packages they only recommend: the tests need the programs, and CI installs on
# every run (docs/BENCHMARKS.md, "The test suite").
#   scripts/debian-install.sh postgresql nginx
set -euo pipefail
[ "$#" -gt 0 ] || exit 0
if [ "$(id -u)" != 0 ]; then
  echo "installing $* needs root (or install them yourself: apt-get install $*)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
mkdir -p /etc/postgresql-common
grep -qs '^create_main_cluster' /etc/postgresql-common/createcluster.conf \
  || echo "create_main_cluster = false" >> /etc/postgresql-common/createcluster.conf
policy=/usr/sbin/policy-rc.d
own_policy=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod +x "$policy"
  own_policy=1
fi
trap '[ -z "$own_policy" ] || rm -f "$policy"' EXIT
apt-get update -qq
apt-get install -y -qq --no-install-recommends "$@" >/dev/null
