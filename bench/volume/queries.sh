#!/usr/bin/env bash
# The volume benchmark's query set (see bench/volume/run.sh): every query lqe runs for the
# issue's table against the best hand-written SQL for the same answer, interleaved, as the
# gateway role. Prints one markdown table: medians and p95 (nearest rank) in ms, planning
# included, and each row's ratio next to its goal.
#
# Usage: bench/volume/queries.sh DSN REPS   (DSN: an owner login on the bench database)
# LISTINGS_ONLY=1 leaves out the usage.api-counts charts.
set -euo pipefail
cd "$(dirname "$0")/../.."

DSN=$1
REPS=$2
# LQE, TMP, GATEWAY_DSN, iso; time_sql, stats and measure (ROWS): one psql session per
# measurement, interleaved rounds.
source bench/volume/measure.sh

# The chart's project: the generated reference with the most requests after "default".
PROJECT_REF=$(psql "$DSN" -Atc "SELECT project FROM logs.edge_p$(date -u +%Y%m%d) WHERE project <> 'default'
  GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
HOUR_AGO=$(iso '1 hour')
THREE_HOURS_AGO=$(iso '3 hours')
TWO_HOURS_AGO=$(iso '2 hours')
DAY_AGO=$(iso '1 day')

translate_chart() {
  sed "s|query_file: .*|query_file: $2|" sql/usage.api-counts.yaml >"$1/endpoint.yaml"
  "$LQE" translate --endpoint-file "$1/endpoint.yaml" --catalogue schema/catalogue_seed.tsv | sed '/^-- params/,$d'
}
mkdir -p "$TMP/q"
cp tests/fixtures/volume/usage.api-counts.raw.sql sql/usage.api-counts.sql "$TMP/q/"
CHART_SQL=$(translate_chart "$TMP/q" usage.api-counts.sql)
# The listings translate as `lqe serve` would on this database: its catalogue and the promoted
# columns that are backfilled (none unless the run declared some, see run.sh PROMOTE=1).
mkdir -p "$TMP/endpoints"
cp sql/logs.all.yaml sql/logs.all.sql "$TMP/endpoints/"
printf 'database:\n  dsn: %s\ncatalogue_file: %s\nendpoints_dir: %s\n' "$DSN" "$PWD/schema/catalogue_seed.tsv" "$TMP/endpoints" >"$TMP/gateway.yaml"
listing() { "$LQE" translate --config "$TMP/gateway.yaml" --endpoint logs.all "$@" | sed '/^-- params/,$d'; }
# With edge fields promoted, the best hand-written SQL with the same indexes reads the columns.
PROMOTED=$(psql "$DSN" -Atc "SELECT string_agg(column_name, ' ' ORDER BY column_name) FROM logs.promoted_fields WHERE source = 'edge' AND backfilled")
echo "promoted edge columns: ${PROMOTED:-none}"
on_columns() {
  sed -e "s/(metadata->'response'->>'status_code')::int/p_response_status_code_max/g" \
    -e "s/metadata->'request'->>'method'/p_request_method_max/g" -e "s/metadata->'request'->>'path'/p_request_path_max/g"
}

# usage.api-counts: the shipped query (rollup) against hand-written SQL on the raw rows, per
# interval: window and bucket as the endpoint defines them.
declare -A WINDOW=([minutely]='60 minutes' [hourly]='1 hour' [daily]='7 days' [1hr]='1 hour' [1day]='1 day' [7day]='7 days')
declare -A BUCKET=([minutely]=minute [hourly]=hour [daily]=day [1hr]=minute [1day]=hour [7day]=day)
# LISTINGS_ONLY=1 skips them (the raw daily charts take seconds each).
INTERVALS="minutely hourly daily 1hr 1day 7day"
[ "${LISTINGS_ONLY:-0}" = 1 ] && INTERVALS=""
for interval in $INTERVALS; do
  hand="SELECT date_trunc('${BUCKET[$interval]}', \"timestamp\" AT TIME ZONE 'UTC') AS \"timestamp\",
      count(*) FILTER (WHERE metadata->'request'->>'path' ~ '/rest') AS total_rest_requests,
      count(*) FILTER (WHERE metadata->'request'->>'path' ~ '/storage') AS total_storage_requests,
      count(*) FILTER (WHERE metadata->'request'->>'path' ~ '/auth') AS total_auth_requests,
      count(*) FILTER (WHERE metadata->'request'->>'path' ~ '/realtime') AS total_realtime_requests
    FROM logs.edge WHERE \"timestamp\" >= now() - interval '${WINDOW[$interval]}'
      AND metadata->'request'->>'url' ~ \$1 GROUP BY 1 ORDER BY 1"
  goal="ms 50"
  [ "$interval" = daily ] && goal="faster 600"
  measure "usage.api-counts $interval" "$goal" 3 1 "text, text, text" \
    "('$interval', '$PROJECT_REF', '$PROJECT_REF')" "$CHART_SQL" "('$PROJECT_REF', '', '')" "$hand"
done

# Listings of logs.all (project default): lqe's translation of the endpoint, or of a Studio-style
# consumer query on edge_logs, against SQL a person would write on the same indexes.
COLS="\"timestamp\", metadata->'request'->>'method' AS method, metadata->'request'->>'path' AS path, (metadata->'response'->>'status_code')::int AS status_code"
consumer() { echo "select timestamp, request.method, request.path, response.status_code from edge_logs cross join unnest(metadata) as metadata cross join unnest(metadata.request) as request cross join unnest(metadata.response) as response where $1 order by timestamp desc limit 100"; }
hand_listing() { echo "SELECT $COLS FROM logs.edge WHERE project = \$1 AND \"timestamp\" > \$2::timestamptz AND (\$3 = '' OR \"timestamp\" <= \$3::timestamptz) AND $1 ORDER BY \"timestamp\" DESC LIMIT 100"; }
P3="text, text, text"
LAST_HOUR="('default', '$HOUR_AGO', '')"
measure "default listing, last hour" "ratio 1.2" 3 3 "$P3" "$LAST_HOUR" "$(listing)" "$LAST_HOUR" \
  "SELECT \"timestamp\", id, event_message, metadata FROM logs.edge WHERE project = \$1 AND \"timestamp\" > \$2::timestamptz ORDER BY \"timestamp\" DESC LIMIT 100"
WINDOW_2H="('default', '$THREE_HOURS_AGO', '$TWO_HOURS_AGO')"
measure "default listing, window 3 h – 2 h ago" "ratio 1.2" 3 3 "$P3" "$WINDOW_2H" "$(listing)" "$WINDOW_2H" \
  "SELECT \"timestamp\", id, event_message, metadata FROM logs.edge WHERE project = \$1 AND \"timestamp\" > \$2::timestamptz AND \"timestamp\" <= \$3::timestamptz ORDER BY \"timestamp\" DESC LIMIT 100"
filtered() {
  local label=$1 params=$2 bq=$3 pg=$4
  local lqe_sql
  lqe_sql=$(listing --sql "$(consumer "$bq")")
  measure "filtered listing: $label" "ratio 1.2" 3 3 "$P3" "$params" "$lqe_sql" "$params" "$(hand_listing "$pg")"
  if [ "$PROMOTED" = "p_request_method p_request_path p_response_status_code" ]; then
    measure "filtered listing: $label (hand-written on the promoted columns)" "ratio 1.2" 3 3 "$P3" "$params" "$lqe_sql" "$params" "$(hand_listing "$(echo "$pg" | on_columns)")"
  fi
}
filtered "status ≥ 500, last hour" "$LAST_HOUR" "response.status_code >= 500" "(metadata->'response'->>'status_code')::int >= 500"
filtered "path ~ /storage, last hour" "$LAST_HOUR" "regexp_contains(request.path, '/storage')" "metadata->'request'->>'path' ~ '/storage'"
filtered "method = DELETE, last hour" "$LAST_HOUR" "request.method = 'DELETE'" "metadata->'request'->>'method' = 'DELETE'"
filtered "status ≥ 500 and path ~ /rest, last hour" "$LAST_HOUR" \
  "response.status_code >= 500 and regexp_contains(request.path, '/rest')" \
  "(metadata->'response'->>'status_code')::int >= 500 AND metadata->'request'->>'path' ~ '/rest'"
filtered "status ≥ 500, window 3 h – 2 h ago" "$WINDOW_2H" "response.status_code >= 500" "(metadata->'response'->>'status_code')::int >= 500"
LAST_DAY="('default', '$DAY_AGO', '')"
filtered "method = DELETE and status ≥ 400, last day" "$LAST_DAY" "request.method = 'DELETE' and response.status_code >= 400" \
  "metadata->'request'->>'method' = 'DELETE' AND (metadata->'response'->>'status_code')::int >= 400"

# The LQL chart over the last hour: count per minute.
measure "LQL chart, count per minute, last hour" "ms 100" 3 3 "$P3" "$LAST_HOUR" \
  "$(listing --lql 'f:edge_logs c:count(*) c:group_by(t::minute)')" "$LAST_HOUR" \
  "SELECT date_trunc('minute', \"timestamp\" AT TIME ZONE 'UTC') AS \"timestamp\", count(*) FROM logs.edge WHERE project = \$1 AND \"timestamp\" > \$2::timestamptz GROUP BY 1 ORDER BY 1"
measure "LQL chart, status ≥ 500 per minute, last hour" "ms 100" 3 3 "$P3" "$LAST_HOUR" \
  "$(listing --lql 'f:edge_logs m.response.status_code:>=500 c:count(*) c:group_by(t::minute)')" "$LAST_HOUR" \
  "SELECT date_trunc('minute', \"timestamp\" AT TIME ZONE 'UTC') AS \"timestamp\", count(*) FROM logs.edge WHERE project = \$1 AND \"timestamp\" > \$2::timestamptz AND (metadata->'response'->>'status_code')::int >= 500 GROUP BY 1 ORDER BY 1"
if [ "$PROMOTED" = "p_request_method p_request_path p_response_status_code" ]; then
  measure "LQL chart, status ≥ 500 per minute, last hour (hand-written on the promoted columns)" "ms 100" 3 3 "$P3" "$LAST_HOUR" \
    "$(listing --lql 'f:edge_logs m.response.status_code:>=500 c:count(*) c:group_by(t::minute)')" "$LAST_HOUR" \
    "SELECT date_trunc('minute', \"timestamp\" AT TIME ZONE 'UTC') AS \"timestamp\", count(*) FROM logs.edge WHERE project = \$1 AND \"timestamp\" > \$2::timestamptz AND p_response_status_code_max >= 500 GROUP BY 1 ORDER BY 1"
fi

echo
echo "chart project parameter: $PROJECT_REF; $REPS interleaved rounds (lqe 3 timed runs a round, hand-written raw charts 1, other hand-written 3)"
echo
echo "| query | lqe median (p95) ms | hand-written median (p95) ms | vs goal |"
echo "|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
