#!/usr/bin/env bash
# Installs what the ClickHouse reference suite (tests/clickhouse, deploy/clickhouse.sh) needs: node
# and npm from Debian's archive when missing, then the locked npm packages (chdb, an embedded
# ClickHouse, with its platform package @chdb/lib-linux-x64-gnu) at the locked versions when
# tests/clickhouse/node_modules is missing or older than the lock.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/lib/npm-packages.sh
npm_packages_install install-chdb tests/clickhouse install
