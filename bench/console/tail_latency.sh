#!/usr/bin/env bash
# Live-tail latency under ingest load: for each background load (events per second posted to
# logs.edge in batches of 100, as pino-logflare sends them), a tail filtered to a marker follows
# while a marker event is posted every 100 ms; prints each load's markers seen and the
# post-to-arrival p50, p99 and max. One throwaway PostgreSQL 15 cluster and one `lqe serve`.
# Usage: bench/console/tail_latency.sh [EVENTS_PER_SECOND ...]   (default: 0 2000 10000)
#   LQE_BIN: the binary (default build/lqe). LQE_BENCH_SECONDS: seconds per load (default 20).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh
source deploy/lib/serve-lqe.sh

RATES=("$@")
((${#RATES[@]})) || RATES=(0 2000 10000)
SECONDS_EACH=${LQE_BENCH_SECONDS:-20}
LQE=${LQE_BIN:-$ROOT/build/lqe}
source bench/lib/throwaway.sh
source bench/lib/serve.sh
bench_throwaway_dir tail-bench
bench_throwaway_cluster
DB="$SUPER/postgres"
"$LQE" migrate --dsn "$DB" >/dev/null
"$LQE" generate --source edge --count 20000 --seed 1 >"$TMP/events.ndjson"
bench_serve "sources:
  - {name: cloudflare.logs.prod, table: edge}
api_keys:
  - {name: bench, sha256_file: $TMP/key.sha256, endpoints: ['*'], ingest: ['*']}"
URL="http://127.0.0.1:$HTTP_PORT"
echo "tail latency bench: ${SECONDS_EACH}s per load; load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"

for rate in "${RATES[@]}"; do
  load_pid=""
  if ((rate > 0)); then
    node bench/ingest/post_client.js "$URL" "$KEY" "$TMP/events.ndjson" cloudflare.logs.prod \
      --shape pino --batch-events 100 --concurrency 8 --rate "$((rate / 100))" \
      --seconds "$((SECONDS_EACH + 3))" >"$TMP/load-$rate.json" &
    load_pid=$!
    sleep 2  # the load settles
  fi
  probe=$(node bench/console/tail_probe.js "$URL" "$KEY" cloudflare.logs.prod \
    --seconds "$SECONDS_EACH" --interval 100) || echo "tail_probe: markers missing" >&2
  [[ -n $load_pid ]] && wait "$load_pid"
  printf 'load %6s events/s  %s' "$rate" "$probe"
  [[ -n $load_pid ]] && printf '  load client: %s' "$(head -c 200 "$TMP/load-$rate.json")"
  printf '\n'
done
