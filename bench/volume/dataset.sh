#!/usr/bin/env bash
# Builds the volume data set into an empty migrated database: BASE generated edge events (seed 1,
# 10 projects, `--now` = the build minute) loaded with `lqe load`, then grown in the database to
# BASE x FACTOR rows. Growth is one INSERT ... SELECT per copy and source day: copy k of an event
# gets the id `<id>.<k>` and its age shifted by k x 8 days / FACTOR, wrapped into the 8 days before
# the build minute, so copies spread over the 8 days (and their partitions) instead of piling up
# on the base's recent hours. The indexes are maintained by the inserts; the rollup trigger is
# off during growth (it would read every copy's jsonb again) and the copies' rollup rows are
# computed from the base's request fields in two statements. Up to 2M rows (or CHECK_ROLLUPS=1)
# the result is then compared with a rebuild from logs.edge (logs.rebuild_edge_rollups) and
# must be equal.
#
# Usage: bench/volume/dataset.sh DSN BASE FACTOR   (LQE_BIN: the binary; prints timings)
set -euo pipefail
cd "$(dirname "$0")/../.."

DSN=$1
BASE=$2
FACTOR=$3
LQE=${LQE_BIN:-$PWD/build/lqe}
WORK=$(mktemp -d /tmp/lqe-volume-data.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
sql() { psql "$DSN" -qAt -v ON_ERROR_STOP=1 "$@"; }

BUILT_AT=$(date -u +%Y-%m-%dT%H:%M:00Z)
t0=$(now)
"$LQE" generate --source edge --count "$BASE" --projects 10 --seed 1 --now "$BUILT_AT" >"$WORK/edge.ndjson"
t1=$(now)
"$LQE" load --dsn "$DSN" --source edge "$WORK/edge.ndjson" | tail -1
t2=$(now)
echo "generate $BASE: $(secs "$t0" "$t1") s; load: $(secs "$t1" "$t2") s"

# The base events, kept apart so that each copy reads only them, and their request fields as the
# rollup trigger reads them (logs.add_edge_rollups).
sql -c "CREATE UNLOGGED TABLE public.volume_base AS SELECT * FROM logs.edge" \
  -c "CREATE INDEX ON public.volume_base (\"timestamp\")" \
  -c "CREATE UNLOGGED TABLE public.volume_req AS
        SELECT ts, prefix, substr(url, length(prefix) + 1) AS rest,
               coalesce((path ~ '/rest')::int, 0) AS rest_n, coalesce((path ~ '/storage')::int, 0) AS storage_n,
               coalesce((path ~ '/auth')::int, 0) AS auth_n, coalesce((path ~ '/realtime')::int, 0) AS realtime_n
        FROM (SELECT \"timestamp\" AS ts, (metadata -> 'request') ->> 'url' AS url,
                     (metadata -> 'request') ->> 'path' AS path,
                     logs.url_prefix((metadata -> 'request') ->> 'url') AS prefix
              FROM public.volume_base) r
        WHERE url IS NOT NULL" \
  -c "CREATE TABLE public.volume_built (built_at timestamptz, base int, factor int)" \
  -c "INSERT INTO public.volume_built VALUES ('$BUILT_AT', $BASE, $FACTOR)" \
  -c "SELECT logs.ensure_partitions(('$BUILT_AT'::timestamptz - interval '9 days')::date, '$BUILT_AT'::date)" >/dev/null
SPAN_US=$((8 * 24 * 3600 * 1000000))
STEP_US=$((SPAN_US / FACTOR))
# Copy k of an event at ts: its age grown by k x 8 days / FACTOR (and an odd number of
# microseconds, which keeps copies off the base's exact instants), wrapped into the 8 days.
shifted() {
  echo "('$BUILT_AT'::timestamptz - ((((extract(epoch FROM '$BUILT_AT'::timestamptz - $1) * 1000000)::bigint
    + $STEP_US * $2 + 2 * $2 + 1) % $SPAN_US) * interval '1 microsecond'))"
}
mapfile -t DAYS < <(sql -c "SELECT DISTINCT date_trunc('day', \"timestamp\" AT TIME ZONE 'UTC')::date FROM public.volume_base ORDER BY 1")
# The rows go in with the trigger off; the rollups of the copies are added below from the base's
# request fields, without reading the copies' jsonb again.
sql -c "ALTER TABLE logs.edge DISABLE TRIGGER edge_rollups"
# JOBS sessions (default: one per core) insert at once, each its share of the copies.
JOBS=${JOBS:-$(nproc)}
grow() {
  local job=$1
  for k in $(seq 1 $((FACTOR - 1))); do
    [ $((k % JOBS)) = "$job" ] || continue
    for day in "${DAYS[@]}"; do
      sql -c "INSERT INTO logs.edge (id, \"timestamp\", event_message, project, metadata, extra)
        SELECT id || '.$k', $(shifted '"timestamp"' "$k"), event_message, project, metadata, extra
        FROM public.volume_base
        WHERE \"timestamp\" >= '$day'::timestamptz AND \"timestamp\" < '$day'::timestamptz + interval '1 day'"
    done
  done
}
pids=()
for job in $(seq 0 $((JOBS - 1))); do
  grow "$job" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
sql -c "ALTER TABLE logs.edge ENABLE TRIGGER edge_rollups"
t3=$(now)
echo "grown to $((BASE * FACTOR)) rows in $(secs "$t2" "$t3") s ($(awk -v n=$((BASE * (FACTOR - 1))) -v a="$t2" -v b="$t3" 'BEGIN { printf "%.0f", n / (b - a) }') rows/s)"
FIRST_DAY=$(sql -c "SELECT ('$BUILT_AT'::timestamptz - interval '9 days')::date")
sql -c "INSERT INTO logs.edge_api_minute AS a
    SELECT date_trunc('minute', s.ts, 'UTC'), prefix, count(*), sum(rest_n), sum(storage_n), sum(auth_n), sum(realtime_n)
    FROM public.volume_req, generate_series(1, $((FACTOR - 1))) AS k, LATERAL (SELECT $(shifted ts k) AS ts) s
    GROUP BY 1, 2
    ON CONFLICT (\"timestamp\", url_prefix) DO UPDATE SET
      requests = a.requests + excluded.requests,
      rest_requests = a.rest_requests + excluded.rest_requests,
      storage_requests = a.storage_requests + excluded.storage_requests,
      auth_requests = a.auth_requests + excluded.auth_requests,
      realtime_requests = a.realtime_requests + excluded.realtime_requests" \
  -c "WITH rest_days AS (
      -- per URL rest, the days its copies land on, as a bit mask (bit b: FIRST_DAY + b)
      SELECT rest, bit_or(1::bigint << (date_trunc('day', s.ts, 'UTC')::date - '$FIRST_DAY'::date)) AS days
      FROM public.volume_req, generate_series(1, $((FACTOR - 1))) AS k, LATERAL (SELECT $(shifted ts k) AS ts) s
      GROUP BY rest
    ), trigram_days AS (
      -- the trigrams the trigger stores for a rest (005_edge_rollup.sql)
      SELECT t.trigram, bit_or(days) AS days
      FROM rest_days, unnest(logs.url_rest_trigrams(rest)) AS t(trigram) GROUP BY 1
    )
    INSERT INTO logs.edge_url_rest_trigrams (day, trigram)
    SELECT ('$FIRST_DAY'::date + b)::timestamp AT TIME ZONE 'UTC', trigram
    FROM trigram_days, generate_series(0, 15) AS b WHERE days & (1::bigint << b) <> 0
    ON CONFLICT DO NOTHING" >/dev/null
t3b=$(now)
echo "rollups of the copies: $(secs "$t3" "$t3b") s"
sql -c "DROP TABLE public.volume_base, public.volume_req" -c "VACUUM ANALYZE"
t4=$(now)
echo "vacuum analyze: $(secs "$t3b" "$t4") s; total build $(secs "$t0" "$t4") s"

echo "rows: $(sql -c 'SELECT count(*) FROM logs.edge');" \
  "edge: $(sql -c "SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'logs.edge'::regclass");" \
  "rollup: $(sql -c "SELECT count(*) || ' rows' FROM logs.edge_api_minute")"

if [ "${CHECK_ROLLUPS:-$([ $((BASE * FACTOR)) -le 2000000 ] && echo 1 || echo 0)}" = 0 ]; then exit 0; fi
# The rollups (the base's from the trigger, the copies' computed above) must equal a rebuild.
sql -c "CREATE TEMP TABLE m AS SELECT * FROM logs.edge_api_minute;
        CREATE TEMP TABLE g AS SELECT * FROM logs.edge_url_rest_trigrams;
        SELECT logs.rebuild_edge_rollups();
        SELECT 'rollup rows differing from a rebuild: ' ||
          (SELECT count(*) FROM ((TABLE m EXCEPT ALL TABLE logs.edge_api_minute)
                                 UNION ALL (TABLE logs.edge_api_minute EXCEPT ALL TABLE m)) d) || ', trigram rows: ' ||
          (SELECT count(*) FROM ((TABLE g EXCEPT ALL TABLE logs.edge_url_rest_trigrams)
                                 UNION ALL (TABLE logs.edge_url_rest_trigrams EXCEPT ALL TABLE g)) d)" |
  grep rollup
t5=$(now)
echo "rollup check (rebuild + compare): $(secs "$t4" "$t5") s"
