#!/usr/bin/env bash
# Installs the real log shippers the ingest_clients tests run against lqe (tests/ingest_clients):
# node and npm from Debian's archive when missing, then the locked npm packages (pino and
# pino-logflare) with `npm ci` when tests/ingest_clients/node_modules is missing or older than
# the lock. The tests fail, never skip, when these are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# Commands, not packages: a node that bundles its own npm is enough (see install-oracle.sh).
missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]} > 0)); then
  echo "install-ingest-clients: installing ${missing[*]} from Debian"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

dir=tests/ingest_clients
stamp=$dir/node_modules/.package-lock.json
if [[ ! -f $stamp || $dir/package-lock.json -nt $stamp ]]; then
  echo "install-ingest-clients: npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund)
else
  echo "install-ingest-clients: $dir/node_modules up to date"
fi
