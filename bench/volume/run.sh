#!/usr/bin/env bash
# Volume benchmark for the usage.api-counts rollup (migration 020).
#
# Builds the data set reproducibly: `lqe generate` BASE edge events (10 projects, seed 1) loaded
# with `lqe load`, then grown in the database to BASE x FACTOR rows by copying every event
# FACTOR-1 times with a new id and its timestamp moved by k ms (the rollup trigger maintains the
# rollups for the copies too). Then, as the gateway role (jit off, work_mem 64MB), it runs the
# chart for every interval with the shipped query (sql/usage.api-counts.sql) and the raw query it
# replaced (tests/fixtures/volume/usage.api-counts.raw.sql), interleaved, REPS times each, and
# prints the best and median times. Finally it measures the ingest cost of the rollups: INGEST
# events loaded into fresh databases with the trigger, the chart's timestamp index and the
# promoted-field indexes, and without them, alternated. Then the listings and an LQL chart.
#
# Usage: bench/volume/run.sh [BASE] [FACTOR] [REPS] [INGEST]   (defaults 1000000 10 3 100000)
# LQE_BIN overrides the binary (default build/lqe). Runs on a throwaway PostgreSQL 15 cluster.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/lib/pg-cluster.sh

BASE=${1:-1000000}
FACTOR=${2:-10}
REPS=${3:-3}
INGEST=${4:-100000}
PROJECT_REF=${PROJECT_REF:-}
LQE=${LQE_BIN:-$PWD/build/lqe}
TMP=$(mktemp -d /tmp/lqe-volume-bench.XXXXXX)
chmod 755 "$TMP"
cleanup() {
  pg_cluster_stop "$TMP/pg"
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

PORT=$(pg_free_port)
pg_cluster_init "$TMP/pg"
pg_cluster_start "$TMP/pg" "$PORT"
SERVER="postgresql://postgres@127.0.0.1:$PORT"
psql "$SERVER/postgres" -q -c "CREATE DATABASE bench"
DSN="$SERVER/bench"
"$LQE" migrate --dsn "$DSN" >/dev/null

t0=$(now)
"$LQE" generate --source edge --count "$BASE" --projects 10 --seed 1 >"$TMP/edge.ndjson"
t1=$(now)
"$LQE" load --dsn "$DSN" --source edge "$TMP/edge.ndjson" | tail -1
t2=$(now)
echo "generate $BASE: $(secs "$t0" "$t1") s; load: $(secs "$t1" "$t2") s"
for k in $(seq 1 $((FACTOR - 1))); do
  psql "$DSN" -q -c "INSERT INTO logs.edge (id, \"timestamp\", event_message, project, metadata, extra)
    SELECT id || '.$k', \"timestamp\" + interval '$k ms', event_message, project, metadata, extra
    FROM logs.edge WHERE id NOT LIKE '%.%'"
done
t3=$(now)
psql "$DSN" -q -c "VACUUM ANALYZE"
echo "grown to $(psql "$DSN" -Atc 'SELECT count(*) FROM logs.edge') rows in $(secs "$t2" "$t3") s;" \
  "rollup: $(psql "$DSN" -Atc "SELECT count(*) || ' rows, ' || pg_size_pretty(pg_total_relation_size('logs.edge_api_minute')) FROM logs.edge_api_minute")," \
  "trigrams: $(psql "$DSN" -Atc "SELECT count(*) || ' rows, ' || pg_size_pretty(pg_total_relation_size('logs.edge_url_rest_trigrams')) FROM logs.edge_url_rest_trigrams")," \
  "edge: $(psql "$DSN" -Atc "SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'logs.edge'::regclass")"

# A generated project reference (the most frequent one after "default") unless given.
if [ -z "$PROJECT_REF" ]; then
  PROJECT_REF=$(psql "$DSN" -Atc "SELECT substring(url_prefix FROM '//([a-z]+)[.]') FROM logs.edge_api_minute
    WHERE url_prefix NOT LIKE '%default%' GROUP BY 1 ORDER BY sum(requests) DESC LIMIT 1")
fi
translate() {
  local dir=$1 file=$2
  sed "s|query_file: .*|query_file: $file|" sql/usage.api-counts.yaml >"$dir/endpoint.yaml"
  "$LQE" translate --endpoint-file "$dir/endpoint.yaml" --catalogue schema/catalogue_seed.tsv |
    sed '/^-- params/,$d'
}
mkdir -p "$TMP/q"
cp tests/fixtures/volume/usage.api-counts.raw.sql sql/usage.api-counts.sql "$TMP/q/"
RAW_SQL=$(translate "$TMP/q" usage.api-counts.raw.sql)
SHIPPED_SQL=$(translate "$TMP/q" usage.api-counts.sql)
ROLE=$(psql "$DSN" -Atc "SELECT name FROM logs.gateway_role")
GATEWAY_DSN="postgresql://$ROLE@127.0.0.1:$PORT/bench"

# One psql session per query and interval, as a pooled gateway connection: a first EXECUTE warms
# the shipped query's session (plpgsql helpers compiled), then each timed EXECUTE plans and runs the query again
# (custom plans, as the gateway's unnamed statements get).
time_query() {
  local kind=$1 interval=$2 runs=$3
  local sql types params
  if [ "$kind" = raw ]; then
    sql=$RAW_SQL types="text, text" params="'$interval', '$PROJECT_REF'"
  else
    sql=$SHIPPED_SQL types="text, text, text" params="'$interval', '$PROJECT_REF', '$PROJECT_REF'"
  fi
  {
    echo "PREPARE q($types) AS $sql;"
    if [ "$kind" = shipped ]; then echo "EXECUTE q($params);"; fi
    echo '\timing on'
    for _ in $(seq 1 "$runs"); do echo "EXECUTE q($params);"; done
  } | psql "$GATEWAY_DSN" -qAt | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
stats() { sort -n | awk '{ v[NR] = $1 } END { printf "best %.1f ms, median %.1f ms", v[1], v[int((NR + 1) / 2)] }'; }

echo "project parameter: $PROJECT_REF; jit for $ROLE: $(psql "$GATEWAY_DSN" -Atc 'SHOW jit')"
for interval in minutely hourly daily 1hr 1day 7day; do
  : >"$TMP/raw.t"
  : >"$TMP/shipped.t"
  for _ in $(seq 1 "$REPS"); do
    time_query raw "$interval" 1 >>"$TMP/raw.t"
    time_query shipped "$interval" 3 >>"$TMP/shipped.t"
  done
  echo "usage.api-counts $interval: shipped $(stats <"$TMP/shipped.t"); raw $(stats <"$TMP/raw.t")"
done

# The listings and the LQL chart: lqe's translation (logs.all, project=default, start = 1 hour
# ago) against hand-written SQL, interleaved. "jsonb" reads the status like a person would
# (::int), so it cannot use the promoted index; "same index" reads it as lqe does.
time_sql() {
  local runs=$1 types=$2 params=$3 sql=$4
  {
    [ -n "$types" ] && echo "PREPARE q($types) AS $sql;" || echo "PREPARE q AS $sql;"
    echo "EXECUTE q$params;"
    echo '\timing on'
    for _ in $(seq 1 "$runs"); do echo "EXECUTE q$params;"; done
  } | psql "$GATEWAY_DSN" -qAt | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
START=$(psql "$DSN" -Atc "SELECT to_char((now() - interval '1 hour') AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')")
LISTING_PARAMS="('default', '$START', '')"
lqe_sql() { "$LQE" translate --endpoint-file sql/logs.all.yaml --catalogue schema/catalogue_seed.tsv "$@" | sed '/^-- params/,$d'; }
FILTER="select timestamp, request.method, request.path, response.status_code from edge_logs cross join unnest(metadata) as metadata cross join unnest(metadata.request) as request cross join unnest(metadata.response) as response where response.status_code >= 500 and regexp_contains(request.path, '/rest') order by timestamp desc limit 100"
declare -A LQE_Q HAND_Q
LQE_Q[default_listing]=$(lqe_sql)
HAND_Q[default_listing]="SELECT \"timestamp\", id, event_message, metadata FROM logs.edge WHERE project = \$1 AND \"timestamp\" > \$2::timestamptz ORDER BY \"timestamp\" DESC NULLS LAST LIMIT 100"
LQE_Q[filtered_listing]=$(lqe_sql --sql "$FILTER")
HAND_Q[filtered_listing]="SELECT \"timestamp\", metadata->'request'->>'method', metadata->'request'->>'path', bq.json_int64(metadata->'response'->>'status_code') FROM logs.edge WHERE project = \$1 AND \"timestamp\" > \$2::timestamptz AND bq.json_int64(metadata->'response'->>'status_code') >= 500 AND metadata->'request'->>'path' ~ '/rest' ORDER BY \"timestamp\" DESC NULLS LAST LIMIT 100"
HAND_Q[filtered_listing_jsonb]="SELECT \"timestamp\", metadata->'request'->>'method', metadata->'request'->>'path', (metadata->'response'->>'status_code')::int FROM logs.edge WHERE project = \$1 AND \"timestamp\" > \$2::timestamptz AND (metadata->'response'->>'status_code')::int >= 500 AND metadata->'request'->>'path' ~ '/rest' ORDER BY \"timestamp\" DESC NULLS LAST LIMIT 100"
LQE_Q[lql_minute_chart]=$(lqe_sql --lql "f:edge_logs c:count(*) c:group_by(t::minute)")
HAND_Q[lql_minute_chart]="SELECT date_trunc('minute', \"timestamp\", 'UTC') AS t, count(*) FROM logs.edge WHERE project = \$1 AND \"timestamp\" > \$2::timestamptz GROUP BY 1 ORDER BY 1"
for name in default_listing filtered_listing lql_minute_chart; do
  : >"$TMP/lqe.t"
  : >"$TMP/hand.t"
  for _ in $(seq 1 "$REPS"); do
    time_sql 3 "text, text, text" "$LISTING_PARAMS" "${LQE_Q[$name]}" >>"$TMP/lqe.t"
    time_sql 3 "text, text, text" "$LISTING_PARAMS" "${HAND_Q[$name]}" >>"$TMP/hand.t"
  done
  line="$name: lqe $(stats <"$TMP/lqe.t"); hand-written $(stats <"$TMP/hand.t")"
  if [ "$name" = filtered_listing ]; then
    : >"$TMP/jsonb.t"
    for _ in $(seq 1 "$REPS"); do
      time_sql 1 "text, text, text" "$LISTING_PARAMS" "${HAND_Q[filtered_listing_jsonb]}" >>"$TMP/jsonb.t"
    done
    line="$line; hand-written on raw jsonb $(stats <"$TMP/jsonb.t")"
  fi
  echo "$line"
done

# Ingest cost of the rollups: the same events into fresh databases, with and without them.
head -n "$INGEST" "$TMP/edge.ndjson" >"$TMP/ingest.ndjson"
for round in 1 2; do
  for variant in with without; do
    [ "$INGEST" -gt 0 ] || continue
    db="ingest_${variant}_$round"
    psql "$SERVER/postgres" -q -c "CREATE DATABASE $db"
    "$LQE" migrate --dsn "$SERVER/$db" >/dev/null
    if [ "$variant" = without ]; then
      psql "$SERVER/$db" -q -c "ALTER TABLE logs.edge DISABLE TRIGGER edge_rollups" \
        -c "DROP INDEX logs.edge_timestamp" \
        -c "SELECT format('DROP INDEX logs.%I', index_name) FROM logs.promoted_fields" -c '\gexec' >/dev/null
    fi
    echo "ingest $variant rollups (round $round): $("$LQE" load --dsn "$SERVER/$db" --source edge "$TMP/ingest.ndjson" | tail -1)"
  done
done
