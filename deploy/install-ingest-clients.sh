#!/usr/bin/env bash
# Installs the real log shippers the ingest_clients tests run against lqe (tests/ingest_clients):
# node and npm from Debian's archive when missing, then the locked npm packages (pino and
# pino-logflare) with `npm ci` when tests/ingest_clients/node_modules is missing or older than
# the lock. The tests fail, never skip, when these are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/lib/npm-packages.sh
npm_packages_install install-ingest-clients tests/ingest_clients
