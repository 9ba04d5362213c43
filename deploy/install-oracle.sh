#!/usr/bin/env bash
# Installs what the oracle suite (tests/oracle, deploy/oracle.sh) needs: node and npm from
# Debian's archive when missing, then the locked npm packages (the ZetaSQL reference server and
# the gRPC client) with `npm ci` when tests/oracle/node_modules is missing or older than the lock.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/lib/npm-packages.sh
npm_packages_install install-oracle tests/oracle
