#!/usr/bin/env bash
# The oracle suite (tests/oracle): the same BigQuery queries through the ZetaSQL reference
# evaluator and through lqe end to end (build/lqe serve, a sandboxed endpoint over `logs.edge`
# and `logs.postgres` loaded with tests/oracle/fixtures/*.ndjson), results compared; and every
# stored endpoint under sql/ and examples/ as written, with sample parameters (stored.yaml). Builds and installs nothing:
# run deploy/build.sh and deploy/install-oracle.sh first. Fails when node, npm, the npm packages
# or build/lqe are missing. Uses the cluster of LQE_TEST_DSN (a fresh database in it) when set,
# else starts its own throwaway cluster.
#   ORACLE_SEED=N (default: random, printed)  ORACLE_COUNT=N generated queries (default 3000)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh
source deploy/lib/scratch-db.sh
source deploy/lib/serve-lqe.sh

fail() { echo "oracle.sh: $*" >&2; exit 1; }
command -v node >/dev/null || fail "node is missing (run deploy/install-oracle.sh)"
command -v npm >/dev/null || fail "npm is missing (run deploy/install-oracle.sh)"
[[ -f tests/oracle/node_modules/@fivetrandevelopers/zetasql/package.json ]] ||
  fail "the npm package @fivetrandevelopers/zetasql is missing (run deploy/install-oracle.sh)"
[[ -x build/lqe ]] || fail "build/lqe is missing (run deploy/build.sh)"
command -v psql >/dev/null || fail "psql is missing (run deploy/install-deps.sh)"

TMP=$(mktemp -d /tmp/lqe-oracle.XXXXXX)
chmod 755 "$TMP"
SERVE_PID=""
DB=lqe_oracle_$$
cleanup() {
  if [[ -n $SERVE_PID ]]; then kill "$SERVE_PID" 2>/dev/null || true; wait "$SERVE_PID" 2>/dev/null || true; fi
  scratch_db_drop "$TMP" "$DB"
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

scratch_db_create "$TMP" "$DB" || fail "no scratch database"

KEY=$(build/lqe keygen --sha256-file "$TMP/key.sha256" | awk '/^api_key:/ {print $2}')
[[ -n $KEY ]] || fail "lqe keygen printed no key"
# The stored endpoints as written: sql/ and examples/*/endpoints/ in one endpoints_dir, and the
# examples' rollups (which `lqe migrate --config` creates and backfills).
mkdir "$TMP/endpoints"
for f in sql/*.yaml sql/*.sql examples/*/endpoints/*.yaml examples/*/endpoints/*.sql; do
  if [[ -e $f ]]; then ln -s "$ROOT/$f" "$TMP/endpoints/"; fi
done
write_config() {
  sed -e "s|@LISTEN@|127.0.0.1:$1|" -e "s|@DSN@|postgresql://lqe_gateway_$DB@$SERVER/$DB|" \
    -e "s|@KEY_FILE@|$TMP/key.sha256|" -e "s|@ENDPOINTS_DIR@|$TMP/endpoints|" \
    tests/oracle/lqe.yaml.in >"$TMP/lqe.yaml"
  echo "rollups:" >>"$TMP/lqe.yaml"
  for f in examples/*/rollups.yaml; do sed -n '/^rollups:/,$p' "$f" | tail -n +2; done >>"$TMP/lqe.yaml"
}
write_config "$(pg_free_port)"
build/lqe migrate --dsn "$DSN" --gateway-role "lqe_gateway_$DB" --config "$TMP/lqe.yaml" >"$TMP/migrate.log" 2>&1 ||
  { cat "$TMP/migrate.log" >&2; fail "lqe migrate failed"; }
# Each source: load its fixture, then give the reference lqe's catalogue for it (as the translator
# sees it) and the rows as lqe stored them (the loader drops null, "", [] and {} values).
SOURCES="edge postgres"
for src in $SOURCES; do
  build/lqe load --dsn "$DSN" --source "$src" "tests/oracle/fixtures/$src.ndjson" >"$TMP/load.log" 2>&1 ||
    { cat "$TMP/load.log" >&2; fail "lqe load --source $src failed"; }
  psql -At -F $'\t' -v ON_ERROR_STOP=1 "$DSN" \
    -c "select path, bq_type, mode from logs.field_catalogue where source = '$src' order by path" \
    >"$TMP/catalogue-$src.tsv"
  psql -At -v ON_ERROR_STOP=1 "$DSN" -c "select json_build_object('id', id,
      'timestamp', to_char(timestamp at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'),
      'event_message', event_message, 'metadata', metadata) from logs.$src where project = 'oracle'" \
    >"$TMP/rows-$src.ndjson"
done
# The edge events again at times relative to now, for the stored endpoints' windows that end now.
node tests/oracle/lib/recent_events.js tests/oracle/fixtures/edge.ndjson >"$TMP/edge-recent.ndjson"
build/lqe load --dsn "$DSN" --source edge "$TMP/edge-recent.ndjson" >"$TMP/load.log" 2>&1 ||
  { cat "$TMP/load.log" >&2; fail "lqe load --source edge (recent events) failed"; }
# Edge Function invocations and runtime events at times relative to now (the functions.* windows).
for src in function_edge function_events; do
  node tests/oracle/lib/recent_function_events.js "$src" >"$TMP/$src-recent.ndjson"
  build/lqe load --dsn "$DSN" --source "$src" "$TMP/$src-recent.ndjson" >"$TMP/load.log" 2>&1 ||
    { cat "$TMP/load.log" >&2; fail "lqe load --source $src (recent events) failed"; }
done
# Every table of the catalogue, internal rollups and trigrams included, as lqe's PostgreSQL holds
# it: the stored endpoints read them by name, and the reference gets the same rows.
TABLES=$(psql -At -v ON_ERROR_STOP=1 "$DSN" -c "select distinct source from logs.field_catalogue order by 1")
for table in $TABLES; do
  psql -At -F $'\t' -v ON_ERROR_STOP=1 "$DSN" \
    -c "select path, bq_type, mode from logs.field_catalogue where source = '$table' order by path" \
    >"$TMP/catalogue-$table.tsv"
  PGTZ=UTC psql -At -v ON_ERROR_STOP=1 "$DSN" -c "select row_to_json(x) from logs.$table as x" \
    >"$TMP/table-$table.ndjson"
done

serve_lqe_start write_config "$TMP" || fail "lqe serve did not become ready"

cd tests/oracle
ORACLE_LQE_PORT=$LQE_PORT ORACLE_LQE_KEY=$KEY ORACLE_ENDPOINT=oracle.edge \
  ORACLE_DATA_DIR="$TMP" ORACLE_SOURCES="edge:edge_logs postgres:postgres_logs" \
  ORACLE_ROOT="$ROOT" ORACLE_TABLES="$(echo $TABLES)" node run.js
