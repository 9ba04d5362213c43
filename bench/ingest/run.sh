#!/usr/bin/env bash
# Ingest benchmark, one run on the same events:
#   1. floor:  bare COPY of the raw NDJSON into a one-column jsonb table, 2 parallel connections
#              (what this storage costs on this machine before lqe does anything);
#   2. load:   `lqe load` of the file;
#   3. vector: HTTP ingest, Vector-shaped ~1 MB JSON arrays, 16 concurrent clients;
#   4. pino:   HTTP ingest, pino-logflare-shaped {"batch":[100 events]}, 16 concurrent clients;
#   5. p99:    latency of 100-event batches at half of the pino rate measured in 4;
# and the gateway's RSS sampled every 0.2 s during 3-5. Each phase writes into a fresh database
# of one throwaway PostgreSQL 15 cluster. Prints a table with the ratios to the floor.
# Usage: bench/ingest/run.sh [COUNT]   (default 100000 edge events, ~3 minutes in all)
#   LQE_BIN: the binary (default build/lqe); LQE_BENCH_SOURCE: the source (default edge);
#   LQE_BENCH_P99_SECONDS: length of the fixed-rate phase (default 10);
#   LQE_BENCH_QUEUE_MAX_BYTES: the gateway's ingest.queue_max_bytes (default: lqe's default);
#   LQE_BENCH_LIVE: SECONDS: every event in the SECONDS before now (`lqe generate --live`), a live
#     stream as shippers send it, instead of the generator's 8-day spread.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh

COUNT=${1:-100000}
SOURCE=${LQE_BENCH_SOURCE:-edge}
LQE=${LQE_BIN:-$ROOT/build/lqe}
P99_SECONDS=${LQE_BENCH_P99_SECONDS:-10}
case $SOURCE in
  edge) SOURCE_NAME=cloudflare.logs.prod ;;
  pooler) SOURCE_NAME=pgbouncer.logs.prod ;;
  auth) SOURCE_NAME=gotrue.logs.prod ;;
  postgres) SOURCE_NAME=postgres.logs ;;
  *) echo "run.sh: LQE_BENCH_SOURCE must be edge, pooler, auth or postgres" >&2; exit 2 ;;
esac

SERVE_PID=""
SAMPLER_PID=""
bench_stop_processes() {
  [[ -n $SAMPLER_PID ]] && kill "$SAMPLER_PID" 2>/dev/null || true
  [[ -n $SERVE_PID ]] && kill "$SERVE_PID" 2>/dev/null && wait "$SERVE_PID" 2>/dev/null || true
}
source bench/lib/throwaway.sh
bench_throwaway_dir ingest-bench
json() { node -e "const o=JSON.parse(process.argv[1]); console.log($2)" "$1"; }

bench_throwaway_cluster
# Each timed phase starts after a CHECKPOINT: the phase before leaves up to a few hundred MB of WAL,
# and a checkpoint falling inside the next phase (and the full-page writes after it) would charge
# that phase for the one before.
checkpoint() { psql "$SUPER/postgres" -qX -c CHECKPOINT; }
fresh_db() {
  psql "$SUPER/postgres" -qX -c "CREATE DATABASE $1"
  "$LQE" migrate --dsn "$SUPER/$1" >/dev/null
}

echo "ingest bench: $COUNT $SOURCE events${LQE_BENCH_LIVE:+ of the last $LQE_BENCH_LIVE s}; load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
"$LQE" generate --source "$SOURCE" --count "$COUNT" --seed 1 \
  ${LQE_BENCH_LIVE:+--live "$LQE_BENCH_LIVE"} >"$TMP/events.ndjson"
echo "events: $(du -m "$TMP/events.ndjson" | cut -f1) MB, $(awk -v b="$(stat -c %s "$TMP/events.ndjson")" -v n="$COUNT" 'BEGIN{printf "%.0f", b/n}') bytes each"

# 1. The floor: the raw lines into one jsonb column, the file split in two, two COPYs at once.
# CSV with quote and delimiter bytes that never occur in JSON text, so each line is one value.
psql "$SUPER/postgres" -qX -c "CREATE DATABASE floor"
psql "$SUPER/floor" -qX -c "CREATE TABLE floor (doc jsonb)"
split -n l/2 "$TMP/events.ndjson" "$TMP/half."
# floor_copy COMPRESSION: the two COPYs at once into a fresh table; prints events/s.
floor_copy() {
  psql "$SUPER/floor" -qX -c "DROP TABLE IF EXISTS floor" -c "CREATE TABLE floor (doc jsonb)"
  local t0 t1 rows
  checkpoint
  t0=$(now)
  for half in "$TMP"/half.*; do
    PGOPTIONS="-c default_toast_compression=$1" psql "$SUPER/floor" -qX -c \
      "\\copy floor (doc) FROM '$half' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')" &
  done
  wait
  t1=$(now)
  rows=$(psql "$SUPER/floor" -qAtX -c "SELECT count(*) FROM floor")
  [[ $rows == "$COUNT" ]] || { echo "floor: $rows rows, expected $COUNT" >&2; exit 1; }
  rate "$COUNT" "$t0" "$t1"
}
# PostgreSQL's default TOAST compression (pglz) is the floor; lqe's writers use lz4, shown too.
FLOOR=$(floor_copy pglz)
FLOOR_LZ4=$(floor_copy lz4)

# 2. lqe load.
fresh_db load
checkpoint
t0=$(now)
"$LQE" load --dsn "$SUPER/load" --source "$SOURCE" "$TMP/events.ndjson" >"$TMP/load.out"
t1=$(now)
LOAD=$(rate "$COUNT" "$t0" "$t1")
echo "floor $FLOOR events/s (lz4: $FLOOR_LZ4), lqe load $LOAD events/s"

# 3-5. lqe serve with HTTP ingest on its defaults (the nine Supabase source names).
fresh_db http
KEY=$("$LQE" keygen --sha256-file "$TMP/key.sha256" | awk '/^api_key:/ {print $2}')
HTTP_PORT=$(pg_free_port)
cat >"$TMP/serve.yaml" <<YAML
listen: 127.0.0.1:$HTTP_PORT
database:
  dsn: $SUPER/http
catalogue_file: $ROOT/schema/catalogue_seed.tsv
endpoints_dir: $ROOT/sql
access_log: false
${LQE_BENCH_QUEUE_MAX_BYTES:+ingest: {queue_max_bytes: $LQE_BENCH_QUEUE_MAX_BYTES\}}
api_keys:
  - {name: shipper, sha256_file: $TMP/key.sha256, endpoints: ["*"], ingest: ["*"]}
YAML
"$LQE" serve --config "$TMP/serve.yaml" >"$TMP/serve.log" 2>&1 &
SERVE_PID=$!
for _ in $(seq 100); do
  curl -fs "http://127.0.0.1:$HTTP_PORT/health" >/dev/null 2>&1 && break
  sleep 0.1
done
if ! curl -fs "http://127.0.0.1:$HTTP_PORT/health" >/dev/null 2>&1; then
  echo "run.sh: lqe serve did not start:" >&2
  cat "$TMP/serve.log" >&2
  exit 1
fi
RSS_IDLE=$(awk '/VmRSS/ {print $2}' /proc/$SERVE_PID/status)
(while sleep 0.2; do awk '/VmRSS/ {print $2}' /proc/$SERVE_PID/status; done) >"$TMP/rss.txt" 2>/dev/null &
SAMPLER_PID=$!

client() { node bench/ingest/post_client.js "http://127.0.0.1:$HTTP_PORT" "$KEY" "$TMP/events.ndjson" "$SOURCE_NAME" "$@"; }
count_http() { psql "$SUPER/http" -qAtX -c "SELECT count(*) FROM logs.$SOURCE"; }

checkpoint
VECTOR_JSON=$(client --shape vector --concurrency 16 --batch-bytes 1000000)
VECTOR_ROWS=$(count_http)
psql "$SUPER/http" -qX -c "TRUNCATE logs.$SOURCE"
checkpoint
PINO_JSON=$(client --shape pino --concurrency 16 --batch-events 100)
PINO_ROWS=$(count_http)
psql "$SUPER/http" -qX -c "TRUNCATE logs.$SOURCE"
PINO_RATE=$(json "$PINO_JSON" "o.events_per_s")
HALF_BATCHES=$(awk -v e="$PINO_RATE" 'BEGIN { printf "%.1f", e / 2 / 100 }')
checkpoint
P99_JSON=$(client --shape pino --concurrency 16 --batch-events 100 --rate "$HALF_BATCHES" --seconds "$P99_SECONDS")
kill "$SAMPLER_PID" 2>/dev/null || true
SAMPLER_PID=""
RSS_MAX=$(sort -n "$TMP/rss.txt" | tail -1)
RSS_END=$(awk '/VmRSS/ {print $2}' /proc/$SERVE_PID/status)
CPU=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / hz }' /proc/$SERVE_PID/stat)

VECTOR=$(json "$VECTOR_JSON" "o.events_per_s")
ratio() { awk -v a="$1" -v b="$FLOOR" 'BEGIN { printf "%.2f", a / b }'; }
echo
printf '%-52s %12s %8s\n' "phase" "events/s" "x floor"
printf '%-52s %12s %8s\n' "floor: COPY raw JSON -> jsonb column, 2 connections" "$FLOOR" "1.00"
printf '%-52s %12s %8s\n' "  the same with lz4 TOAST compression (as lqe writes)" "$FLOOR_LZ4" "$(ratio "$FLOOR_LZ4")"
printf '%-52s %12s %8s\n' "lqe load" "$LOAD" "$(ratio "$LOAD")"
printf '%-52s %12s %8s\n' "HTTP, Vector-shaped ~1 MB arrays, 16 clients" "$VECTOR" "$(ratio "$VECTOR")"
printf '%-52s %12s %8s\n' "HTTP, pino-shaped 100-event batches, 16 clients" "$PINO_RATE" "$(ratio "$PINO_RATE")"
echo
echo "vector: $VECTOR_JSON"
echo "pino:   $PINO_JSON"
echo "half rate ($HALF_BATCHES batches/s for ${P99_SECONDS} s): $P99_JSON"
echo "p99 of a 100-event batch at half the pino rate: $(json "$P99_JSON" "o.latency_ms.p99") ms (p50 $(json "$P99_JSON" "o.latency_ms.p50") ms)"
echo "rows stored: vector $VECTOR_ROWS, pino $PINO_ROWS of $COUNT each"
echo "gateway RSS: idle $((RSS_IDLE / 1024)) MB, max during ingest $((RSS_MAX / 1024)) MB, after $((RSS_END / 1024)) MB; gateway CPU $CPU s"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
tail -1 "$TMP/load.out"
