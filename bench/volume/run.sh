#!/usr/bin/env bash
# Volume benchmark: lqe's queries against the best hand-written SQL over a large logs.edge.
#
# Builds the data set with bench/volume/dataset.sh (BASE generated events, grown in the database
# to BASE x FACTOR rows over 8 days and 10 projects), then runs every query of the issue's table
# as the gateway role (jit off, work_mem 64MB, custom plans as the gateway's unnamed statements
# get) through bench/volume/queries.sh: each lqe query and its hand-written counterpart
# interleaved, REPS rounds of 3 timed runs each, planning included; prints a markdown table of
# medians and p95 with the ratios the goals are stated in. INGEST > 0 also measures the ingest
# cost of the rollups and indexes (INGEST events into fresh databases, with and without them).
#
# Usage: bench/volume/run.sh [BASE] [FACTOR] [REPS] [INGEST]   (defaults 1000000 10 5 0)
# KEEP=DIR keeps the cluster (and its data set) in DIR: the first run builds it, later runs with
# the same DIR only run the queries (the data is relative to its build time, so the "last hour"
# is representative for about an hour after the build; the age is printed).
# LQE_BIN overrides the binary (default build/lqe). Otherwise a throwaway PostgreSQL 15 cluster.
# QUERY_SET=otel runs bench/volume/otel.sh (Studio's OTEL queries) instead of queries.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/lib/pg-cluster.sh

BASE=${1:-1000000}
FACTOR=${2:-10}
REPS=${3:-5}
INGEST=${4:-0}
export LQE_BIN=${LQE_BIN:-$PWD/build/lqe}
TMP=$(mktemp -d /tmp/lqe-volume-bench.XXXXXX)
chmod 755 "$TMP"
if [ -n "${KEEP:-}" ]; then
  mkdir -p "$KEEP"
  KEEP=$(cd "$KEEP" && pwd -P)
  CLUSTER=$KEEP/pg
else
  CLUSTER=$TMP/pg
fi
cleanup() {
  pg_cluster_stop "$CLUSTER"
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

FRESH=0
[ -f "$CLUSTER/data/PG_VERSION" ] || FRESH=1
pg_cluster_init "$CLUSTER"
if [ "$FRESH" = 1 ]; then
  # Room for a bulk load: fewer checkpoints, more of the table in memory.
  printf '%s\n' "shared_buffers = '2GB'" "max_wal_size = '16GB'" "checkpoint_timeout = '30min'" \
    "maintenance_work_mem = '512MB'" >>"$CLUSTER/data/postgresql.auto.conf"
fi
PORT=$(pg_free_port)
pg_cluster_start "$CLUSTER" "$PORT"
SERVER="postgresql://postgres@127.0.0.1:$PORT"
DSN="$SERVER/bench"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# The edge fields the filters read (status, method, path), promoted as min/max columns (008_promoted_fields.sql)
# columns by the next lqe migrate.
declare_promoted_fields() {
  psql "$DSN" -q -c "INSERT INTO logs.promoted_fields (source, path, bq_type) VALUES
    ('edge', 'metadata.response.status_code', 'INT64'), ('edge', 'metadata.request.method', 'STRING'),
    ('edge', 'metadata.request.path', 'STRING') ON CONFLICT DO NOTHING"
}

BUILT=$(psql "$DSN" -Atc "SELECT base || ' x ' || factor FROM public.volume_built" 2>/dev/null || true)
if [ -z "$BUILT" ]; then
  psql "$SERVER/postgres" -q -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench"
  "$LQE_BIN" migrate --dsn "$DSN" >/dev/null
  # PROMOTE=1 on a fresh build: the fields are declared before the growth, so the fill trigger
  # fills every copy as it is inserted (a backfill of 10M rows afterwards rewrites the table).
  if [ "${PROMOTE:-}" = 1 ]; then
    declare_promoted_fields
    "$LQE_BIN" migrate --dsn "$DSN" >/dev/null
  fi
  bash bench/volume/dataset.sh "$DSN" "$BASE" "$FACTOR"
else
  echo "data set kept in $CLUSTER: $BUILT rows, built $(psql "$DSN" -Atc "SELECT built_at || ' (' || date_trunc('second', now() - built_at) || ' ago)' FROM public.volume_built")"
fi
echo "load average after the build: $(cut -d' ' -f1-3 /proc/loadavg)"
# PROMOTE=1: promote the edge fields the filters read (status, method, path: 008_promoted_fields.sql's
# min/max columns) and backfill them before the queries; PROMOTE=0 hides them from the
# translator again (marked not backfilled; the columns, trigger and indexes stay).
if [ "${PROMOTE:-}" = 1 ]; then
  declare_promoted_fields
  start=$(date +%s.%N)
  "$LQE_BIN" migrate --dsn "$DSN" | { grep -c backfilled || true; } | sed 's/$/ partitions backfilled/'
  psql "$DSN" -q -c "VACUUM ANALYZE logs.edge"  # the backfill rewrote every row
  echo "promotion of 3 edge fields (columns, indexes, backfill, VACUUM ANALYZE): $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
elif [ "${PROMOTE:-}" = 0 ]; then
  psql "$DSN" -q -c "UPDATE logs.promoted_fields SET backfilled = false WHERE source = 'edge'"
fi

# QUERY_SET=otel: Studio's OTEL queries on logs.all.otel against their BigQuery twins instead.
bash "bench/volume/${QUERY_SET:-queries}.sh" "$DSN" "$REPS"
echo "load average after the queries: $(cut -d' ' -f1-3 /proc/loadavg)"

# Ingest cost of the rollups: the same events into fresh databases, with and without them.
if [ "$INGEST" -gt 0 ]; then
  "$LQE_BIN" generate --source edge --count "$INGEST" --projects 10 --seed 2 >"$TMP/ingest.ndjson"
  for round in 1 2; do
    for variant in with without; do
      db="ingest_${variant}_$round"
      psql "$SERVER/postgres" -q -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
      "$LQE_BIN" migrate --dsn "$SERVER/$db" >/dev/null
      if [ "$variant" = without ]; then
        psql "$SERVER/$db" -q -c "ALTER TABLE logs.edge DISABLE TRIGGER edge_rollups" \
          -c "DROP INDEX logs.edge_timestamp" \
          -c "SELECT format('DROP INDEX logs.%I', index_name) FROM logs.promoted_fields WHERE source = 'edge'" \
          -c '\gexec' >/dev/null
      fi
      echo "ingest $variant rollups (round $round): $("$LQE_BIN" load --dsn "$SERVER/$db" --source edge "$TMP/ingest.ndjson" | tail -1)"
      psql "$SERVER/postgres" -q -c "DROP DATABASE $db"
    done
  done
fi
