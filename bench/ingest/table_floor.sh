#!/usr/bin/env bash
# Where PostgreSQL's time goes when lqe writes a log table: lqe's own rows, already formed (a
# COPY TO of a loaded table), are copied back with 2 parallel connections and lz4 TOAST
# compression into
#   0. (for scale) run.sh's floor: the raw NDJSON events into one jsonb column, pglz;
#   1. the one-column jsonb table of run.sh's floor (metadata only: the document's bulk),
#   2. logs.<source> with everything lqe migrate puts on it (indexes, rollup trigger),
#   3. logs.<source> without the rollup trigger,
#   4. logs.<source> without the trigger and the secondary indexes (the unique index stays).
# Phase 2 is the true floor of lqe's table on this machine: no client work at all.
# Usage: bench/ingest/table_floor.sh [COUNT]   (default 100000 edge events)
#   LQE_BIN: the binary (default build/lqe); LQE_BENCH_SOURCE: the source (default edge);
#   LQE_BENCH_LIVE: SECONDS: every event in the SECONDS before now (as run.sh's live stream).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh

COUNT=${1:-100000}
SOURCE=${LQE_BENCH_SOURCE:-edge}
LQE=${LQE_BIN:-$ROOT/build/lqe}

source bench/lib/throwaway.sh
bench_throwaway_dir table-floor

bench_throwaway_cluster
fresh_db() {
  psql "$SUPER/postgres" -qX -c "CREATE DATABASE $1"
  "$LQE" migrate --dsn "$SUPER/$1" >/dev/null
  [[ -f $TMP/days.sql ]] && psql "$SUPER/$1" -qX -f "$TMP/days.sql" >/dev/null
  true
}

echo "table floor: $COUNT $SOURCE events; load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
"$LQE" generate --source "$SOURCE" --count "$COUNT" --seed 1 \
  ${LQE_BENCH_LIVE:+--live "$LQE_BENCH_LIVE"} >"$TMP/events.ndjson"
fresh_db source
"$LQE" load --dsn "$SUPER/source" --source "$SOURCE" "$TMP/events.ndjson" >/dev/null
# The loaded days' partitions, made in every database before the timed COPYs.
psql "$SUPER/source" -qAtX -c "SELECT DISTINCT format('SELECT logs.ensure_partition(%L, %L);',
  '$SOURCE', (\"timestamp\" AT TIME ZONE 'UTC')::date) FROM logs.$SOURCE" >"$TMP/days.sql"
COLUMNS='id, "timestamp", event_message, project, metadata, extra'
psql "$SUPER/source" -qX -c "\\copy (SELECT $COLUMNS FROM logs.$SOURCE) TO '$TMP/rows.tsv'"
psql "$SUPER/source" -qX -c "\\copy (SELECT metadata FROM logs.$SOURCE) TO '$TMP/docs.tsv'"
split -n l/2 "$TMP/rows.tsv" "$TMP/rows."
split -n l/2 "$TMP/docs.tsv" "$TMP/docs."
split -n l/2 "$TMP/events.ndjson" "$TMP/raw."

# copy2 DB TABLE(COLUMNS) PREFIX [COMPRESSION [COPY OPTIONS]]: the two halves at once (lz4
# unless told); prints events/s.
copy2() {
  local t0 t1
  t0=$(now)
  for half in "$TMP/$3".a?; do
    PGOPTIONS="-c default_toast_compression=${4:-lz4}" psql "$SUPER/$1" -qX -c \
      "\\copy $2 FROM '$half'${5:+ WITH ($5)}" &
  done
  wait
  t1=$(now)
  rate "$COUNT" "$t0" "$t1"
}

psql "$SUPER/postgres" -qX -c "CREATE DATABASE docs"
psql "$SUPER/docs" -qX -c "CREATE TABLE docs (doc jsonb)"
# CSV with quote and delimiter bytes that never occur in JSON text: each line is one value.
RAW=$(copy2 docs "docs (doc)" raw pglz "FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02'")
psql "$SUPER/docs" -qX -c "TRUNCATE docs"
DOCS=$(copy2 docs "docs (doc)" docs)
fresh_db migrated
FULL=$(copy2 migrated "logs.$SOURCE ($COLUMNS)" rows)
fresh_db notrigger
psql "$SUPER/notrigger" -qX -c "ALTER TABLE logs.$SOURCE DISABLE TRIGGER USER"
NOTRIGGER=$(copy2 notrigger "logs.$SOURCE ($COLUMNS)" rows)
fresh_db bare
psql "$SUPER/bare" -qX -c "ALTER TABLE logs.$SOURCE DISABLE TRIGGER USER"
psql "$SUPER/bare" -qAtX -c "SELECT format('DROP INDEX logs.%I;', c.relname) FROM pg_index i
  JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
  JOIN pg_namespace n ON n.oid = t.relnamespace
  WHERE n.nspname = 'logs' AND t.relname = '$SOURCE' AND NOT i.indisunique" |
  psql "$SUPER/bare" -qX
BARE=$(copy2 bare "logs.$SOURCE ($COLUMNS)" rows)

ratio() { awk -v a="$1" -v b="$RAW" 'BEGIN { printf "%.2f", a / b }'; }
printf '%-64s %10s\n' "run.sh's floor: raw events -> one jsonb column, 2 connections, pglz" "$RAW"
printf '%-64s %10s %7s\n' "COPY of lqe's formed rows, 2 connections, lz4" "events/s" "x floor"
printf '%-64s %10s %7s\n' "metadata documents only -> one jsonb column" "$DOCS" "$(ratio "$DOCS")"
printf '%-64s %10s %7s\n' "logs.$SOURCE as migrated (indexes, rollup trigger): lqe's floor" "$FULL" "$(ratio "$FULL")"
printf '%-64s %10s %7s\n' "logs.$SOURCE without the rollup trigger" "$NOTRIGGER" "$(ratio "$NOTRIGGER")"
printf '%-64s %10s %7s\n' "logs.$SOURCE without trigger and secondary indexes" "$BARE" "$(ratio "$BARE")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
