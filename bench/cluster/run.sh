#!/usr/bin/env bash
# Scale-out figures: listing and chart latency on one node vs the sharded layout (same events,
# older days on two shard nodes through postgres_fdw), and cache-miss throughput with 0, 1 and 2
# streaming replicas. Uses the cluster suite's setup (tests/cluster/cluster_test.sh), so the
# layouts are exactly the tested ones. On one machine all clusters share its cores: read the
# ratios and plans, not absolute figures.
#
# usage: bench/cluster/run.sh [path/to/lqe]   (Release build)
# env:   EDGE_EVENTS (extra edge rows, default 1000000), RUNS (sequential requests per figure,
#        default 15), DURATION (wrk, default 10s), CONNECTIONS (wrk, default 8)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LQE=${1:-$ROOT/build/lqe}
RUNS=${RUNS:-15}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-8}
export LQE_CLUSTER_EDGE_EVENTS=${EDGE_EVENTS:-1000000}
source "$ROOT/deploy/lib/pg-cluster.sh"
work=$(mktemp -d)
chmod 755 "$work"
state=$work/state
script=$ROOT/tests/cluster/cluster_test.sh
cleanup() {
  bash "$script" teardown "$state" "$ROOT" "$LQE" || true
  pg_cluster_stop "$work/r2"
  rm -rf "$work"
}
trap cleanup EXIT

start=$(date +%s)
bash "$script" setup "$state" "$ROOT" "$LQE"
echo "setup with $LQE_CLUSTER_EDGE_EVENTS extra edge rows: $(($(date +%s) - start)) s"
p=$(cat "$state/p.port")
key=$(cat "$state/api-key")
project=$(psql -XtA "postgresql://postgres@127.0.0.1:$p/single" -c \
  "SELECT project FROM logs.edge GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
since=$(date -u -d '9 days ago' +%Y-%m-%dT00:00:00Z)
rows=$(psql -XtA "postgresql://postgres@127.0.0.1:$p/single" -c "SELECT count(*) FROM logs.edge")
echo "edge rows: $rows (project $project: $(psql -XtA "postgresql://postgres@127.0.0.1:$p/single" \
  -c "SELECT count(*) FROM logs.edge WHERE project = '$project'"))"

# median_ms GATEWAY ARGS...: median wall time of RUNS sequential requests (must all be 200).
median_ms() {
  local port
  port=$(cat "$state/$1.port")
  for _ in $(seq 1 "$RUNS"); do
    curl -sS -G -o /dev/null -w '%{http_code} %{time_total}\n' -H "X-API-KEY: $key" \
      "http://127.0.0.1:$port/api/endpoints/query/logs.all" \
      --data-urlencode "project=$project" --data-urlencode "iso_timestamp_start=$since" "${@:2}"
  done | awk '$1 != 200 { bad = 1 } { print $2 * 1000 } END { if (bad) exit 1 }' | sort -n |
    awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] }'
}

chart="select timestamp_trunc(timestamp, hour) as t, count(*) as n from edge_logs group by t order by t"
echo
echo "| query (9 days, one project) | single node ms | sharded ms | sharded / single |"
echo "|---|---|---|---|"
for kind in listing chart; do
  args=()
  [[ $kind == chart ]] && args=(--data-urlencode "sql=$chart")
  one=$(median_ms single "${args[@]}")
  two=$(median_ms coord "${args[@]}")
  echo "| $kind | $one | $two | $(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", b / a }') |"
done

# Cache-miss throughput on the single-node database with 0, 1, 2 replicas (a second replica is
# made the same way), switched by config reload.
r2_port=$(pg_free_port)
pg_cluster_init_replica "$work/r2" "$p"
pg_cluster_start "$work/r2" "$r2_port"
r=$(cat "$state/r.port")
gw=$(cat "$state/single.port")
echo
echo "| replicas | requests/s (wrk -c $CONNECTIONS, $DURATION, uncached listing) | non-2xx |"
echo "|---|---|---|"
for replicas in 0 1 2; do
  cfg=$state/single.yaml
  sed -i '/^  replicas:/,/^  max_replica_lag_ms/d; /^  replica_check_interval_ms/d' "$cfg"
  if [[ $replicas -gt 0 ]]; then
    list="  replicas:\n    - postgresql://lqe_gw_single@127.0.0.1:$r/single"
    [[ $replicas == 2 ]] && list+="\n    - postgresql://lqe_gw_single@127.0.0.1:$r2_port/single"
    sed -i "s|^  max_queries_per_key: 16|  max_queries_per_key: 64\n$list\n  max_replica_lag_ms: 5000\n  replica_check_interval_ms: 200|" "$cfg"
  fi
  sed -i 's/^  max_queries_per_key: 16$/  max_queries_per_key: 64/' "$cfg"
  kill -HUP "$(cat "$state/single.pid")"
  sleep 2
  out=$(wrk -t 2 -c "$CONNECTIONS" -d "$DURATION" -H "X-API-KEY: $key" \
    "http://127.0.0.1:$gw/api/endpoints/query/logs.all?project=$project&iso_timestamp_start=$since")
  rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$out")
  non2xx=$(awk '/Non-2xx/ { print $NF }' <<<"$out")
  echo "| $replicas | $rps | ${non2xx:-0} |"
done
curl -s "http://127.0.0.1:$gw/metrics" | grep '^lqe_db_queries_total'

# The plans behind the figures.
echo
psql -XtA "postgresql://postgres@127.0.0.1:$p/coord" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
  SELECT timestamp, id, event_message FROM logs.edge WHERE project = '$project'
  AND timestamp > '$since' ORDER BY timestamp DESC LIMIT 100"
psql -XtA "postgresql://postgres@127.0.0.1:$p/coord" -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
  SELECT date_trunc('hour', timestamp) AS t, count(*) FROM logs.edge WHERE project = '$project'
  AND timestamp > '$since' GROUP BY 1 ORDER BY 1"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
