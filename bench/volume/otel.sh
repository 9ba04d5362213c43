#!/usr/bin/env bash
# The OTEL endpoint at volume: Studio's ClickHouse-dialect queries on logs.all.otel (rows, count,
# chart, facet) against the BigQuery-dialect query Studio sends to logs.all for the same page,
# over the last hour, day and seven days of project "default", both as `lqe serve` translates
# them for this database, interleaved, as the gateway role (bench/volume/measure.sh). The goal of
# each row: the OTEL query within 1.2x of its BigQuery twin, or faster.
#
# Usage: bench/volume/otel.sh DSN REPS   (DSN: an owner login on a database built by
# bench/volume/dataset.sh; bench/volume/run.sh runs it with QUERY_SET=otel)
# WINDOWS='1 hour,1 day' limits the windows (default: all three); RUNS=N timed runs of each query
# per round (default 3): the seven-day charts take about a minute a run at 10M rows.
set -euo pipefail
cd "$(dirname "$0")/../.."

DSN=$1
REPS=$2
source bench/volume/measure.sh  # LQE, TMP, GATEWAY_DSN, iso, measure

mkdir -p "$TMP/endpoints"
cp sql/logs.all.yaml sql/logs.all.sql sql/logs.all.otel.yaml sql/logs.all.otel.sql "$TMP/endpoints/"
printf 'database:\n  dsn: %s\ncatalogue_file: %s\nendpoints_dir: %s\n' "$DSN" \
  "$PWD/schema/catalogue_seed.tsv" "$TMP/endpoints" >"$TMP/gateway.yaml"
# The caller's sql in the endpoint's sandbox, as the gateway runs it ($1 project, $2 start, $3 end).
translated() { "$LQE" translate --config "$TMP/gateway.yaml" --endpoint "$1" --sql "$2" | sed '/^-- params/,$d'; }

# Studio's edge_logs page: Logs.utils.otel.ts (OTEL) and Logs.utils.ts (BigQuery).
OTEL_ROWS="SELECT id, timestamp, event_message, log_attributes['identifier'] AS identifier, log_attributes['request.method'] AS method, log_attributes['request.path'] AS path, log_attributes['request.search'] AS search, log_attributes['response.status_code'] AS status_code FROM logs WHERE source = 'edge_logs' ORDER BY timestamp DESC LIMIT 100"
BQ_ROWS="select id, identifier, timestamp, event_message, request.method, request.path, request.search, response.status_code from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as request cross join unnest(m.response) as response order by timestamp desc limit 100"
OTEL_COUNT="SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.method'] = 'GET'"
BQ_COUNT="select count(*) as count from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as request where request.method = 'GET'"
otel_chart() {
  echo "SELECT $1(timestamp) AS timestamp, countIf(NOT ((toInt32OrZero(log_attributes['response.status_code']) >= 500) OR (toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499))) AS ok_count, countIf(toInt32OrZero(log_attributes['response.status_code']) >= 500) AS error_count, countIf(toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499) AS warning_count FROM logs WHERE source = 'edge_logs' GROUP BY timestamp ORDER BY timestamp ASC"
}
bq_chart() {
  echo "select timestamp_trunc(t.timestamp, $1) as timestamp, countif(not (response.status_code >= 500 or response.status_code between 400 and 499)) as ok_count, countif(response.status_code >= 500) as error_count, countif(response.status_code between 400 and 499) as warning_count from edge_logs t cross join unnest(t.metadata) as m cross join unnest(m.response) as response group by timestamp order by timestamp asc"
}
# Unified Logs' method facet (UnifiedLogs.queries.ts) over every source; its BigQuery twin reads
# edge_logs, the only source with rows in this data set.
OTEL_FACET="SELECT 'method' AS dimension, (log_attributes['request.method']) AS value, count() AS count FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (log_attributes['request.method']) IS NOT NULL AND (log_attributes['request.method']) != '' GROUP BY value LIMIT 20"
BQ_FACET="select 'method' as dimension, request.method as value, count(*) as count from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as request where request.method is not null and request.method != '' group by value limit 20"

declare -A OTEL_BUCKET=(['1 hour']=toStartOfMinute ['1 day']=toStartOfHour ['7 days']=toStartOfDay)
declare -A BQ_BUCKET=(['1 hour']=minute ['1 day']=hour ['7 days']=day)
P3="text, text, text"
RUNS=${RUNS:-3}
IFS=, read -r -a windows <<<"${WINDOWS:-1 hour,1 day,7 days}"
for window in "${windows[@]}"; do
  params="('default', '$(iso "$window")', '')"
  pair() {
    measure "$1, last $window" "ratio 1.2" "$RUNS" "$RUNS" "$P3" "$params" \
      "$(translated logs.all.otel "$2")" \
      "$params" "$(translated logs.all "$3")"
  }
  pair rows "$OTEL_ROWS" "$BQ_ROWS"
  pair "count (method = GET)" "$OTEL_COUNT" "$BQ_COUNT"
  pair "chart (status per ${BQ_BUCKET[$window]})" "$(otel_chart "${OTEL_BUCKET[$window]}")" \
    "$(bq_chart "${BQ_BUCKET[$window]}")"
  pair "facet (method)" "$OTEL_FACET" "$BQ_FACET"
done

echo
echo "project default; $REPS interleaved rounds of $RUNS timed runs each"
echo
echo "| Studio query | logs.all.otel (ClickHouse) median (p95) ms | logs.all (BigQuery) median (p95) ms | vs goal |"
echo "|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
