#!/usr/bin/env bash
# Installs what the oracle suite (tests/oracle, deploy/oracle.sh) needs: node and npm from
# Debian's archive when missing, then the locked npm packages (the ZetaSQL reference server and
# the gRPC client) with `npm ci` when tests/oracle/node_modules is missing or older than the lock.
set -euo pipefail
cd "$(dirname "$0")/.."

# Commands, not packages: a node that bundles its own npm (as some images ship) is enough, and
# Debian's npm package would conflict with it.
missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]} > 0)); then
  echo "install-oracle: installing ${missing[*]} from Debian"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

stamp=tests/oracle/node_modules/.package-lock.json
if [[ ! -f $stamp || tests/oracle/package-lock.json -nt $stamp ]]; then
  echo "install-oracle: npm ci in tests/oracle"
  (cd tests/oracle && npm ci --no-audit --no-fund)
else
  echo "install-oracle: tests/oracle/node_modules up to date"
fi
