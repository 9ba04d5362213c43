#!/usr/bin/env bash
# What the edge rollup trigger (logs.add_edge_rollups) costs, as CPU time of the PostgreSQL
# backend rather than wall time, so that a busy shared machine changes the figures little.
# COUNT generated edge events are loaded with `lqe load`; then ROWS of them, with new ids, are
# inserted again REPS times in one session, each insert rolled back:
#   1. with the trigger, the rollups as the load left them (the usual case: most rows exist),
#   2. without the trigger (ALTER TABLE ... DISABLE TRIGGER inside the rolled-back transaction),
#   3. with the trigger, the rollups emptied first (every rollup row is new),
#   4. as 1, then logs.compact_edge_rollups() folding that insert's delta in:
#      the same rollup work, deferred from the insert to the compactor.
# The backend's utime + stime come from /proc/self/stat (pg_read_file, as the superuser).
# Usage: bench/ingest/edge_trigger_cpu.sh [COUNT] [ROWS] [REPS]   (default 100000 5000 8)
#   LQE_BIN: the binary (default build/lqe).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh

COUNT=${1:-100000}
ROWS=${2:-5000}
REPS=${3:-8}
LQE=${LQE_BIN:-$ROOT/build/lqe}

source bench/lib/throwaway.sh
bench_throwaway_dir edge-trigger-cpu
bench_throwaway_cluster

echo "edge trigger CPU: $COUNT events loaded, inserts of $ROWS rows x $REPS;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
psql "$SUPER/postgres" -qX -c "CREATE DATABASE bench"
"$LQE" migrate --dsn "$SUPER/bench" >/dev/null
"$LQE" generate --source edge --count "$COUNT" --seed 1 >"$TMP/events.ndjson"
"$LQE" load --dsn "$SUPER/bench" --source edge "$TMP/events.ndjson" >/dev/null
psql "$SUPER/bench" -qX -c "VACUUM ANALYZE"

psql "$SUPER/bench" -qAtX -v ON_ERROR_STOP=1 <<SQL
CREATE TEMP TABLE new_rows AS SELECT * FROM logs.edge ORDER BY random() LIMIT $ROWS;
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
      INSERT INTO logs.edge SELECT * FROM new_rows;
      used := pg_temp.cpu_ticks() - before;
      RAISE EXCEPTION 'roll back';
    EXCEPTION WHEN raise_exception THEN
      INSERT INTO ticks VALUES ('1 trigger, rollups as loaded', used);
    END;
    BEGIN
      ALTER TABLE logs.edge DISABLE TRIGGER edge_rollups;
      before := pg_temp.cpu_ticks();
      INSERT INTO logs.edge SELECT * FROM new_rows;
      used := pg_temp.cpu_ticks() - before;
      RAISE EXCEPTION 'roll back';
    EXCEPTION WHEN raise_exception THEN
      INSERT INTO ticks VALUES ('2 no trigger', used);
    END;
    BEGIN
      TRUNCATE logs.edge_api_minute, logs.edge_url_rest_trigrams;
      before := pg_temp.cpu_ticks();
      INSERT INTO logs.edge SELECT * FROM new_rows;
      used := pg_temp.cpu_ticks() - before;
      RAISE EXCEPTION 'roll back';
    EXCEPTION WHEN raise_exception THEN
      INSERT INTO ticks VALUES ('3 trigger, rollups empty', used);
    END;
    CONTINUE WHEN to_regproc('logs.compact_edge_rollups') IS NULL;
    BEGIN
      before := pg_temp.cpu_ticks();
      INSERT INTO logs.edge SELECT * FROM new_rows;
      PERFORM logs.compact_edge_rollups();
      used := pg_temp.cpu_ticks() - before;
      RAISE EXCEPTION 'roll back';
    EXCEPTION WHEN raise_exception THEN
      INSERT INTO ticks VALUES ('4 trigger + compaction, as loaded', used);
    END;
  END LOOP;
END
\$\$;
SELECT format('%-40s %6s ms CPU per insert of $ROWS rows', kind, round(avg(ticks) * 1000 / $(getconf CLK_TCK)))
  FROM ticks GROUP BY kind ORDER BY kind;
SQL
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
