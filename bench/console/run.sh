#!/usr/bin/env bash
# Console API benchmark: the histogram (/api/logs/hits) over the last day and the last 7 days, and
# a word search (/api/logs/events?lql=<word>) over the last hour, on a generated logs.edge of
# COUNT events spread evenly over the last 7 days (1% of the messages hold the word "timeout").
# One throwaway PostgreSQL 15 cluster and one `lqe serve`; each figure is the median and the
# minimum of RUNS requests (each with its own range, so none is a cache hit), timed by curl.
# Usage: bench/console/run.sh [COUNT]   (default 1000000)
#   LQE_BIN: the binary (default build/lqe). LQE_BENCH_RUNS: requests per figure (default 7).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh
source deploy/lib/serve-lqe.sh

COUNT=${1:-1000000}
RUNS=${LQE_BENCH_RUNS:-7}
LQE=${LQE_BIN:-$ROOT/build/lqe}
source bench/lib/throwaway.sh
source bench/lib/serve.sh
bench_throwaway_dir console-bench
bench_throwaway_cluster
DB="$SUPER/postgres"
"$LQE" migrate --dsn "$DB" >/dev/null
echo "console bench: $COUNT edge events over 7 days; load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"

start=$(now)
psql "$DB" -qX -v ON_ERROR_STOP=1 -c \
  "SELECT count(logs.ensure_partition('edge', (current_date - d)::date)) FROM generate_series(-1, 8) AS d" >/dev/null
# In statements of at most CHUNK events, as ingest writes them (each statement's transition
# table feeds the rollup and minute-count triggers).
CHUNK=500000
for ((from = 1; from <= COUNT; from += CHUNK)); do
  psql "$DB" -qX -v ON_ERROR_STOP=1 -v count="$COUNT" -v from="$from" \
    -v to="$((from + CHUNK - 1 < COUNT ? from + CHUNK - 1 : COUNT))" <<'SQL'
INSERT INTO logs.edge (id, "timestamp", event_message, project, metadata, extra)
SELECT 'bench-' || n,
       now() - (n::float8 / :count) * interval '7 days',
       CASE WHEN n % 100 = 0 THEN 'upstream timeout on GET /rest/v1/items/' || n
            ELSE (ARRAY['GET', 'POST', 'PATCH'])[1 + n % 3] || ' /rest/v1/items/' || n || ' 200' END,
       'bench',
       jsonb_build_object('level', (ARRAY['info', 'info', 'warning', 'error'])[1 + n % 4],
                          'status', (ARRAY[200, 200, 201, 404, 500])[1 + n % 5],
                          'request', jsonb_build_object('method', 'GET', 'path', '/rest/v1/items')),
       '{}'::jsonb
FROM generate_series(:from, :to) AS n;
SQL
done
psql "$DB" -qX -v ON_ERROR_STOP=1 -c "SELECT logs.compact_source_minute_counts()" -c "ANALYZE logs.edge" >/dev/null
echo "generated and analysed in $(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"

bench_serve "sources:
  - {name: cloudflare.logs.prod, table: edge}
api_keys:
  - {name: bench, sha256_file: $TMP/key.sha256, endpoints: ['*'], ingest: ['*']}"

iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%S.%6NZ; }
# measure LABEL PATH SECONDS [LQL]: RUNS requests over the last SECONDS, each range ending a
# millisecond earlier than the one before (so each is a new cache key).
measure() {
  local label=$1 path=$2 seconds=$3 lql=${4:-} times=() end start i body answer
  for ((i = 0; i < RUNS; i++)); do
    end=$(awk -v t="$(date +%s.%N)" -v i="$i" 'BEGIN { printf "%.3f", t - i / 1000 }')
    start=$(awk -v t="$end" -v s="$seconds" 'BEGIN { printf "%.3f", t - s }')
    answer=$(curl -sS -o "$TMP/body.json" -w '%{http_code} %{time_total}' -G \
      "http://127.0.0.1:$HTTP_PORT$path" -H "X-API-Key: $KEY" \
      --data-urlencode source=cloudflare.logs.prod --data-urlencode "start=$(iso "$start")" \
      --data-urlencode "end=$(iso "$end")" ${lql:+--data-urlencode "lql=$lql"})
    if [[ ${answer%% *} != 200 ]]; then  # a refusal or a timeout is a figure too; not repeated
      printf '%-34s HTTP %s after %s s: %s\n' "$label" "${answer%% *}" "${answer#* }" \
        "$(head -c 160 "$TMP/body.json")"
      return 0
    fi
    times+=("${answer#* }")
  done
  body=$(head -c 120 "$TMP/body.json")
  printf '%s\n' "${times[@]}" | sort -n | awk -v label="$label" -v body="$body" '
    { t[NR] = $1 * 1000 }
    END { printf "%-34s median %7.1f ms  min %7.1f ms  (%s...)\n", label, t[int((NR + 1) / 2)], t[1], body }'
}
measure "hits, last 24 h" /api/logs/hits 86400
measure "hits, last 7 days" /api/logs/hits 604800
measure "hits, last 7 days, 500 buckets" "/api/logs/hits?buckets=500" 604800
measure "hits m.level:error, last 7 days" /api/logs/hits 604800 "m.level:error"
measure "events 'timeout', last hour" /api/logs/events 3600 timeout
measure "events m.status:500, last hour" /api/logs/events 3600 "m.status:500"
measure "facets m.level, last 24 h" "/api/logs/facets?field=m.level" 86400
