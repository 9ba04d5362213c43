#!/usr/bin/env bash
# What the minute-count triggers (024_source_minute_counts.sql) cost an insert, as CPU time of
# the PostgreSQL backend (a busy shared machine changes it little). For each SOURCE, COUNT
# generated events are loaded with `lqe load`; then ROWS of them, with new ids, are inserted again
# REPS times in one session, each insert rolled back, with the count triggers and without them
# (DISABLE TRIGGER inside the rolled-back transaction). logs.edge has the chart rollup's
# transition-table trigger too, so the transition rows are captured either way; a table such as
# logs.postgres pays for their capture because of the counts alone.
# Usage: bench/ingest/minute_counts_cpu.sh [COUNT] [ROWS] [REPS] [SOURCE ...]
#   (default 50000 5000 8 edge postgres). LQE_BIN: the binary (default build/lqe).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh

COUNT=${1:-50000}
ROWS=${2:-5000}
REPS=${3:-8}
shift $(($# < 3 ? $# : 3))
SOURCES=("$@")
((${#SOURCES[@]})) || SOURCES=(edge postgres)
LQE=${LQE_BIN:-$ROOT/build/lqe}

source bench/lib/throwaway.sh
bench_throwaway_dir minute-counts-cpu
bench_throwaway_cluster

echo "minute counts CPU: $COUNT events loaded per source, inserts of $ROWS rows x $REPS;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
psql "$SUPER/postgres" -qX -c "CREATE DATABASE bench"
"$LQE" migrate --dsn "$SUPER/bench" >/dev/null
for source in "${SOURCES[@]}"; do
  "$LQE" generate --source "$source" --count "$COUNT" --seed 1 >"$TMP/$source.ndjson"
  "$LQE" load --dsn "$SUPER/bench" --source "$source" "$TMP/$source.ndjson" >/dev/null
done
psql "$SUPER/bench" -qX -c "VACUUM ANALYZE"

for source in "${SOURCES[@]}"; do
  psql "$SUPER/bench" -qAtX -v ON_ERROR_STOP=1 <<SQL
CREATE TEMP TABLE new_rows AS SELECT * FROM logs.$source ORDER BY random() LIMIT $ROWS;
UPDATE new_rows SET id = id || '.again';
\i bench/lib/cpu_ticks.sql
CREATE TEMP TABLE ticks (kind text, ticks bigint);
DO \$\$
DECLARE
  before bigint;
  used bigint;
BEGIN
  FOR i IN 1..$REPS LOOP
    BEGIN
      before := pg_temp.cpu_ticks();
      INSERT INTO logs.$source SELECT * FROM new_rows;
      used := pg_temp.cpu_ticks() - before;
      RAISE EXCEPTION 'roll back';
    EXCEPTION WHEN raise_exception THEN
      INSERT INTO ticks VALUES ('with the minute counts', used);
    END;
    BEGIN
      ALTER TABLE logs.$source DISABLE TRIGGER count_minutes_insert;
      before := pg_temp.cpu_ticks();
      INSERT INTO logs.$source SELECT * FROM new_rows;
      used := pg_temp.cpu_ticks() - before;
      RAISE EXCEPTION 'roll back';
    EXCEPTION WHEN raise_exception THEN
      INSERT INTO ticks VALUES ('without them', used);
    END;
  END LOOP;
END
\$\$;
SELECT format('logs.%-10s %-24s %6s ms CPU per insert of $ROWS rows', '$source', kind,
              round(avg(ticks) * 1000 / $(getconf CLK_TCK)))
  FROM ticks GROUP BY kind ORDER BY kind DESC;
SQL
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
