#!/usr/bin/env bash
# The ClickHouse reference suite (tests/clickhouse): lqe's OTEL relation (logs.otel) and its
# ClickHouse SQL front end against ClickHouse itself (chdb, embedded, under node), over the same
# events: tests/fixtures/*.ndjson and tests/fixtures/ingest/*.ndjson loaded with `lqe load`, then
# mapped into a ClickHouse table of Logflare's OTEL shape. Builds and installs nothing: run
# deploy/build.sh and deploy/install-chdb.sh first. Uses the cluster of LQE_TEST_DSN (a fresh
# database in it) when set, else starts its own throwaway cluster. CLICKHOUSE_FILTER=S runs only
# the cases whose id contains S. Runs in about 2.5 min on a loaded 2-core machine (migrate, 18
# loads, then the cases; chdb itself starts in about 5 s).
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/lib/pg-cluster.sh
source deploy/lib/scratch-db.sh

fail() { echo "clickhouse.sh: $*" >&2; exit 1; }
command -v node >/dev/null || fail "node is missing (run deploy/install-chdb.sh)"
[[ -f tests/clickhouse/node_modules/chdb/package.json ]] ||
  fail "the npm package chdb is missing (run deploy/install-chdb.sh)"
[[ -x build/lqe ]] || fail "build/lqe is missing (run deploy/build.sh)"
command -v psql >/dev/null || fail "psql is missing (run deploy/install-deps.sh)"

TMP=$(mktemp -d /tmp/lqe-clickhouse.XXXXXX)
chmod 755 "$TMP"
DB=lqe_clickhouse_$$
cleanup() {
  scratch_db_drop "$TMP" "$DB"
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

scratch_db_create "$TMP" "$DB" || fail "no scratch database"

build/lqe migrate --dsn "$DSN" --gateway-role "lqe_gateway_$DB" >"$TMP/migrate.log" 2>&1 ||
  { cat "$TMP/migrate.log" >&2; fail "lqe migrate failed"; }
for src in edge postgres function_edge function_events auth realtime storage restapi pooler; do
  for f in "tests/fixtures/$src.ndjson" "tests/fixtures/ingest/$src.ndjson"; do
    [[ -f $f ]] || continue
    build/lqe load --dsn "$DSN" --source "$src" "$f" >"$TMP/load.log" 2>&1 ||
      { cat "$TMP/load.log" >&2; fail "lqe load --source $src $f failed"; }
  done
done

CLICKHOUSE_DSN=$DSN CLICKHOUSE_LQE=$PWD/build/lqe node tests/clickhouse/run.js
