#!/usr/bin/env bash
# Drain benchmark: HTTP ingest with 0, 1 and 3 active drains, how fast the drains deliver, and
# their lag at half the ingest rate. One throwaway PostgreSQL 15 cluster, one `lqe serve`, local
# receivers (bench/drains/receiver.js, answering 200 at once) on the same machine.
#   1. ingest, pino-shaped 100-event batches from 16 clients, no drain;
#   2. the same with 1 webhook drain (gzip), then until every event is delivered;
#   3. the same with 3 drains (webhook, webhook without gzip, OTLP protobuf);
#   4. 1 webhook drain while ingest runs at half the rate of 1 for LQE_BENCH_LAG_SECONDS (default
#      20): lqe_drain_lag_seconds sampled every 0.2 s, its p50/p99/max.
# Usage: bench/drains/run.sh [COUNT]   (default 100000 edge events)
#   LQE_BIN: the binary (default build/lqe).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh
source deploy/lib/serve-lqe.sh

COUNT=${1:-100000}
LQE=${LQE_BIN:-$ROOT/build/lqe}
LAG_SECONDS=${LQE_BENCH_LAG_SECONDS:-20}
source bench/lib/throwaway.sh
source bench/lib/serve.sh
bench_throwaway_dir drains-bench
json() { node -e "const o=JSON.parse(process.argv[1]); console.log($2)" "$1"; }

bench_throwaway_cluster
DB="$SUPER/postgres"
"$LQE" migrate --dsn "$DB" >/dev/null
echo "drain bench: $COUNT edge events; load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
"$LQE" generate --source edge --count "$COUNT" --seed 1 >"$TMP/events.ndjson"

bench_serve "api_keys:
  - {name: bench, sha256_file: $TMP/key.sha256, endpoints: ['*'], ingest: ['*'],
     scopes: [query, ingest, private]}"

RECEIVER_PORTS=()
for _ in 1 2 3; do
  p=$(pg_free_port)
  node bench/drains/receiver.js "$p" >"$TMP/receiver-$p.out" &
  PIDS+=($!)
  RECEIVER_PORTS+=("$p")
done
sleep 0.5

api() {
  curl -fsS -X "$1" "http://127.0.0.1:$HTTP_PORT$2" -H "authorization: Bearer $KEY" \
    -H 'content-type: application/json' ${3:+--data "$3"}
}
# drain TYPE CONFIG: a backend with a rule taking every edge event.
drain() {
  local id
  id=$(api POST /api/backends "{\"name\":\"bench\",\"type\":\"$1\",\"config\":$2}" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).id))')
  api POST /api/rules "{\"backend_id\":$id,\"source_id\":1,\"lql_string\":\"~\\\".*?\\\"\"}" >/dev/null
}
reset() {
  psql "$DB" -qX -c "DELETE FROM lqe_admin.backends" -c "TRUNCATE logs.edge" \
    -c "DELETE FROM lqe_admin.drain_outbox" -c CHECKPOINT
}
client() {
  node bench/ingest/post_client.js "http://127.0.0.1:$HTTP_PORT" "$KEY" "$TMP/events.ndjson" \
    cloudflare.logs.prod --shape pino --concurrency 16 --batch-events 100 "$@"
}
undelivered() {
  psql "$DB" -qAtX -c "SELECT coalesce(sum($COUNT - delivered), 0) FROM lqe_admin.drain_state"
}
# phase NAME FILE: ingest every event; prints ingest events/s and, with drains, the rate at which
# each had delivered everything (COUNT over the time from the first post to the last delivery).
phase() {
  local t0 t2 out delivered=-
  t0=$(now)
  out=$(client)
  if [[ $(psql "$DB" -qAtX -c "SELECT count(*) FROM lqe_admin.drain_state") -gt 0 ]]; then
    for _ in $(seq 1200); do
      [[ $(undelivered) == 0 ]] && break
      sleep 0.1
    done
    [[ $(undelivered) == 0 ]] || { echo "$1: drains did not catch up" >&2; exit 1; }
    t2=$(now)
    delivered=$(rate "$COUNT" "$t0" "$t2")
  fi
  printf '%-44s %10s %12s\n' "$1" "$(json "$out" "o.events_per_s")" "$delivered"
  echo "$out" >"$TMP/$2.json"
}

WEBHOOK="{\"url\":\"http://127.0.0.1:${RECEIVER_PORTS[0]}/hook\",\"gzip\":true}"
printf '%-44s %10s %12s\n' "phase" "ingest/s" "delivered/s"
reset
phase "no drain" none
BASE=$(json "$(cat "$TMP/none.json")" "o.events_per_s")
reset
drain webhook "$WEBHOOK"
phase "1 drain (webhook, gzip)" one
reset
drain webhook "$WEBHOOK"
drain webhook "{\"url\":\"http://127.0.0.1:${RECEIVER_PORTS[1]}/hook\",\"gzip\":false}"
drain otlp "{\"endpoint\":\"http://127.0.0.1:${RECEIVER_PORTS[2]}\",\"protocol\":\"http/protobuf\"}"
phase "3 drains (webhook, webhook plain, OTLP)" three

reset
drain webhook "$WEBHOOK"
HALF=$(awk -v e="$BASE" 'BEGIN { printf "%.1f", e / 2 / 100 }')
(while sleep 0.2; do
  curl -fs "http://127.0.0.1:$HTTP_PORT/metrics" -H "authorization: Bearer $KEY" |
    awk '/^lqe_drain_lag_seconds/ {print $2}'
done) >"$TMP/lag.txt" 2>/dev/null &
SAMPLER=$!
LAG_OUT=$(client --rate "$HALF" --seconds "$LAG_SECONDS")
kill "$SAMPLER" 2>/dev/null || true
sort -n "$TMP/lag.txt" >"$TMP/lag.sorted"
n=$(wc -l <"$TMP/lag.sorted")
pick() { sed -n "$(awk -v n="$n" -v q="$1" 'BEGIN { i = int(n * q + 0.999); if (i < 1) i = 1; print i }')p" "$TMP/lag.sorted"; }
echo
echo "ratios to no drain: 1 drain $(awk -v a="$(json "$(cat "$TMP/one.json")" "o.events_per_s")" -v b="$BASE" 'BEGIN { printf "%.2f", a / b }'), 3 drains $(awk -v a="$(json "$(cat "$TMP/three.json")" "o.events_per_s")" -v b="$BASE" 'BEGIN { printf "%.2f", a / b }')"
echo "lag at half the ingest rate ($HALF batches/s of 100 for ${LAG_SECONDS} s, $n samples): p50 $(pick 0.5) s, p99 $(pick 0.99) s, max $(tail -1 "$TMP/lag.sorted") s"
echo "half-rate ingest: $LAG_OUT"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
