#!/usr/bin/env bash
# Scale-out figures: listing and chart latency on one node vs the two sharded layouts (older days
# on two shard nodes through postgres_fdw, by day and by project hash), and cache-miss throughput
# with 0, 1 and 2 streaming replicas. Uses the cluster suite's setup (tests/cluster/
# cluster_test.sh), so the layouts are exactly the tested ones. On one machine all clusters share
# its cores: read the ratios and plans, not absolute figures.
#
# Data: SEED_EVENTS generated edge events are loaded into every layout with `lqe load` (before
# the cold days move: a row routed to a foreign partition of a table with rollups costs a round
# trip and a rollup statement of its own, 007_shards.sql), then
# every edge table grows in the database (each row copied with a new id and a timestamp moved by
# microseconds within its day) until a layout holds about ROWS edge rows. Each table grows where
# it lives: the single node's locally, the coordinators' hot days on the coordinator and their
# cold days directly on the shard nodes. One cold day of the by-day layout grows through the
# coordinator instead (its foreign partition, whose routing trigger also counts the rows in the
# rollups), and both rates are printed. Rows grown on a node bypass the coordinator's rollups:
# usage.api-counts is not part of this benchmark.
#
# usage: bench/cluster/run.sh [path/to/lqe]   (Release build)
# env:   ROWS (edge rows per layout, default 1000000), SEED_EVENTS (default 20000),
#        RUNS (sequential requests per figure, default 15), DURATION (wrk, default 10s),
#        CONNECTIONS (wrk, default 8),
#        KEEP=1     leave clusters and gateways running after the run (prints the directory),
#        REUSE=DIR  run the queries again on a directory a KEEP=1 run left (no setup, no growth),
#        LAYOUTS    the layouts grown and queried, default "single coord hash" (single node, by
#                   day, by project; setup still makes all three with the seed),
#        VIA_FACTOR growth factor of the by-day cold day grown through the coordinator (default:
#                   the full factor); the rest of its copies grow on its shard node. Through the
#                   coordinator rows cost ~4 ms each (routing trigger, rollups): at 10M rows the
#                   full factor would take an hour, VIA_FACTOR=20 measures the rate in minutes,
#                   VIA_FACTOR=1 skips the measure,
#        GROW_JOBS  tables grown at once (default 1; at most the machine's cores),
#        GROW_TO=N  with REUSE: first grow the kept layouts named in LAYOUTS further, to about N
#                   edge rows each (new copies of the seed rows, as the first growth made),
#        GROW_ONLY=1 stop after the growth (no queries): with REUSE, GROW_TO and KEEP=1, grow a
#                   kept run in steps (let each finish: a step cut short cannot be repeated),
#        STATEMENT_TIMEOUT_MS  the gateways' database.statement_timeout_ms for this run (default:
#                   the suite's 15000; a 10M-row chart takes longer), set by config reload,
#        REPLICAS   "0 1 2" (default): the replica counts of the throughput figure; "" skips it
#                   (the second replica is a full copy of the primary's cluster).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LQE=${1:-$ROOT/build/lqe}
ROWS=${ROWS:-1000000}
LAYOUTS=${LAYOUTS:-single coord hash}
GROW_JOBS=${GROW_JOBS:-1}
REPLICAS=${REPLICAS-0 1 2}
SEED_EVENTS=${SEED_EVENTS:-20000}
RUNS=${RUNS:-15}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-8}
source "$ROOT/deploy/lib/pg-cluster.sh"
script=$ROOT/tests/cluster/cluster_test.sh
if [[ -n ${REUSE:-} ]]; then
  work=$REUSE
else
  work=$(mktemp -d)
  chmod 755 "$work"
fi
state=$work/state
cleanup() {
  if [[ -n ${KEEP:-} ]]; then
    echo "kept: REUSE=$work bash $0   (stop: bash $script teardown $state $ROOT $LQE;"
    echo "      source deploy/lib/pg-cluster.sh; pg_cluster_stop $work/r2; rm -rf $work)"
    return
  fi
  bash "$script" teardown "$state" "$ROOT" "$LQE" || true
  pg_cluster_stop "$work/r2"
  rm -rf "$work"
}
trap cleanup EXIT

psql_at() {  # psql_at PORT DB SQL
  psql -X -q -v ON_ERROR_STOP=1 -tA "postgresql://postgres@127.0.0.1:$1/$2" -c "$3"
}
now_ms() { date +%s%3N; }
has_layout() { [[ " $LAYOUTS " == *" $1 "* ]]; }
load_avg() { cut -d' ' -f1-3 /proc/loadavg; }

# grow PORT DB TABLE FACTOR [FROM]: adds copies FROM (default 1) to FACTOR-1 of each seed row of
# logs.TABLE; prints rows added.
grow() {
  local columns
  columns=$(psql_at "$1" "$2" "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum)
    FROM pg_attribute WHERE attrelid = 'logs.$3'::regclass AND attnum > 0 AND NOT attisdropped
    AND attgenerated = '' AND attname NOT IN ('id', 'timestamp')")
  psql_at "$1" "$2" "WITH added AS (
    INSERT INTO logs.$3 (id, timestamp, $columns)
    SELECT t.id || '~' || k, greatest(date_trunc('day', t.timestamp, 'UTC'),
                                      t.timestamp - k * interval '1 microsecond'), $columns
    FROM logs.$3 AS t, generate_series(${5:-1}, $4 - 1) AS k WHERE t.id NOT LIKE '%~%'
    RETURNING 1) SELECT count(*) FROM added"
}

# local_edge_tables PORT DB: the edge day tables stored in that database.
local_edge_tables() {
  psql_at "$1" "$2" "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'logs' AND c.relkind = 'r' AND c.relname ~ '^edge_p[0-9]{8}(_h[0-9]+)?$'
    ORDER BY 1"
}

# grow_tables FILE FROM FACTOR: grows the tables listed from copy FROM (the via day's shard table
# from VIA_FACTOR on, at the first growth) to FACTOR; prints rows added.
grow_tables() {
  local sum=0 port db table from added
  while read -r port db table; do
    [[ $db == coord && $table == "$via" ]] && continue
    from=$2
    [[ $from == 1 && ($db == shard_a || $db == shard_b) && $table == "$via" ]] && from=$VIA_FACTOR
    added=$(grow "$port" "$db" "$table" "$3" "$from")
    sum=$((sum + added))
  done <"$1"
  echo "$sum"
}

# grow_layouts FROM FACTOR: grows the tables of $work/tables that belong to LAYOUTS, round-robin
# over GROW_JOBS background jobs; prints rows added.
grow_layouts() {
  local pids=() j
  awk -v layouts=" $LAYOUTS " '{ l = $2 ~ /^(coord|shard_)/ ? "coord" : $2 ~ /^hash/ ? "hash" : $2 }
    index(layouts, " " l " ")' "$work/tables" >"$work/tables.grown"
  for ((j = 0; j < GROW_JOBS; j++)); do
    awk -v n="$GROW_JOBS" -v j="$j" '(NR - 1) % n == j' "$work/tables.grown" >"$work/tables.$j"
    grow_tables "$work/tables.$j" "$1" "$2" >"$work/grown.$j" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done  # each one, so a failed job fails the run
  cat "$work"/grown.[0-9]* | awk '{ s += $1 } END { print s + 0 }'
  rm -f "$work"/grown.[0-9]* "$work"/tables.[0-9]*
}

analyze_all() {
  for db in single coord hash shard_b hash_b; do psql_at "$p" "$db" "ANALYZE"; done
  for db in shard_a hash_a; do psql_at "$s" "$db" "ANALYZE"; done
}

if [[ -z ${REUSE:-} ]]; then
  start=$(date +%s)
  LQE_CLUSTER_EDGE_EVENTS=$SEED_EVENTS bash "$script" setup "$state" "$ROOT" "$LQE"
  echo "cluster setup with the seed: $(($(date +%s) - start)) s"
  p=$(cat "$state/p.port")
  s=$(cat "$state/s.port")
  seed=$(psql_at "$p" single "SELECT count(*) FROM logs.edge")
  factor=$(((ROWS + seed - 1) / seed))
  echo "seed: $seed edge rows per layout; growth factor $factor"
  VIA_FACTOR=${VIA_FACTOR:-$factor}
  echo "load average after setup: $(load_avg)"
  # Where each layout's day tables live: "port db table" lines.
  {
    if has_layout single; then
      for t in $(local_edge_tables "$p" single); do echo "$p single $t"; done
    fi
    if has_layout coord; then
      for t in $(local_edge_tables "$p" coord); do echo "$p coord $t"; done
      for t in $(local_edge_tables "$s" shard_a); do echo "$s shard_a $t"; done
      for t in $(local_edge_tables "$p" shard_b); do echo "$p shard_b $t"; done
    fi
    if has_layout hash; then
      for t in $(local_edge_tables "$p" hash); do echo "$p hash $t"; done
      for t in $(local_edge_tables "$s" hash_a); do echo "$s hash_a $t"; done
      for t in $(local_edge_tables "$p" hash_b); do echo "$p hash_b $t"; done
    fi
  } >"$work/tables"
  # One cold day of the by-day layout grows through the coordinator, as a measure.
  via=$(awk '$2 == "shard_a" || $2 == "shard_b" { print $3; exit }' "$work/tables")
  via_added=0 via_ms=0
  if [[ -n $via && $VIA_FACTOR -gt 1 ]]; then
    # Counted, not returned: the routing trigger inserts the rows itself (RETURNING sees none).
    before=$(psql_at "$p" coord "SELECT count(*) FROM logs.$via")
    t0=$(now_ms)
    grow "$p" coord "$via" "$VIA_FACTOR" >/dev/null
    via_ms=$(($(now_ms) - t0))
    via_added=$(($(psql_at "$p" coord "SELECT count(*) FROM logs.$via") - before))
    echo "grown through the coordinator (foreign partition $via): $via_added rows in $via_ms ms"
  fi
  t0=$(now_ms)
  direct_rows=$(grow_layouts 1 "$factor")
  direct_ms=$(($(now_ms) - t0))
  echo "grown where they live: $direct_rows rows in $direct_ms ms (load average $(load_avg))"
  echo "$factor" >"$work/factor"
  analyze_all
  echo
  echo "| growth | rows | ms | rows/s |"
  echo "|---|---|---|---|"
  if [[ $via_ms -gt 0 ]]; then
    echo "| through the coordinator (one cold day, postgres_fdw both ways) | $via_added | $via_ms | $(awk -v r="$via_added" -v m="$via_ms" 'BEGIN { printf "%.0f", r / m * 1000 }') |"
  fi
  echo "| in each database directly (all other tables) | $direct_rows | $direct_ms | $(awk -v r="$direct_rows" -v m="$direct_ms" 'BEGIN { printf "%.0f", r / m * 1000 }') |"
elif [[ -n ${GROW_TO:-} ]]; then
  p=$(cat "$state/p.port")
  s=$(cat "$state/s.port")
  via="" VIA_FACTOR=1
  seed=$(psql_at "$p" single "SELECT count(*) FROM logs.edge WHERE id NOT LIKE '%~%'")
  if [[ -f $work/factor ]]; then
    from=$(cat "$work/factor")
  else  # a run made before the factor was recorded: every grown layout holds seed x factor rows
    from=$(psql_at "$p" single "SELECT round(count(*)::numeric / $seed) FROM logs.edge")
  fi
  factor=$(((GROW_TO + seed - 1) / seed))
  echo "growing $LAYOUTS from $((seed * from)) to $((seed * factor)) edge rows (load average $(load_avg))"
  t0=$(now_ms)
  added=$(grow_layouts "$from" "$factor")
  ms=$(($(now_ms) - t0))
  echo "$factor" >"$work/factor"
  analyze_all
  echo "grown where they live: $added rows in $ms ms," \
    "$(awk -v r="$added" -v m="$ms" 'BEGIN { printf "%.0f", r / m * 1000 }') rows/s (load average $(load_avg))"
fi
[[ -n ${GROW_ONLY:-} ]] && exit 0

p=$(cat "$state/p.port")
key=$(cat "$state/api-key")
if [[ -n ${STATEMENT_TIMEOUT_MS:-} ]]; then
  for gw in single coord hash; do
    sed -i "s/^  statement_timeout_ms: [0-9]*$/  statement_timeout_ms: $STATEMENT_TIMEOUT_MS/" "$state/$gw.yaml"
    kill -HUP "$(cat "$state/$gw.pid")"
  done
  sleep 2
fi
project=$(psql_at "$p" single "SELECT project FROM logs.edge GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
since=$(date -u -d '9 days ago' +%Y-%m-%dT00:00:00Z)
echo
echo "edge rows per layout: $(psql_at "$p" single "SELECT count(*) FROM logs.edge") (project" \
  "$project: $(psql_at "$p" single "SELECT count(*) FROM logs.edge WHERE project = '$project'"));" \
  "by day: $(psql_at "$p" coord "SELECT count(*) FROM logs.edge");" \
  "by project: $(psql_at "$p" hash "SELECT count(*) FROM logs.edge")"

# median_ms GATEWAY ARGS...: median and p95 wall time of RUNS sequential requests (must all be
# 200), as "MEDIAN P95"; "- -" for a layout not in LAYOUTS.
median_ms() {
  if ! has_layout "$1"; then
    echo "- -"
    return
  fi
  local port
  port=$(cat "$state/$1.port")
  for _ in $(seq 1 "$RUNS"); do
    curl -sS -G -o /dev/null -w '%{http_code} %{time_total}\n' -H "X-API-KEY: $key" \
      "http://127.0.0.1:$port/api/endpoints/query/logs.all" \
      --data-urlencode "project=$project" --data-urlencode "iso_timestamp_start=$since" "${@:2}"
  done | awk '$1 != 200 { bad = 1 } { print $2 * 1000 } END { if (bad) exit 1 }' | sort -n |
    awk '{ v[NR] = $1 } END { p = int(NR * 0.95); if (p < NR * 0.95) p++
                               printf "%.1f %.1f\n", v[int((NR + 1) / 2)], v[p] }'
}
ratio() {
  if [[ $1 == - || $2 == - ]]; then echo -; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b / a }'; fi
}

# The chart is counted by logs.count_by_bucket (007_shards.sql: per leaf partition, so each node
# counts its days); with a LIMIT it is not that exact shape and reads every row through the
# partitioned table (the plan without it), for comparison.
chart="select timestamp_trunc(timestamp, hour) as t, count(*) as n from edge_logs group by t order by t"
echo
echo "load average before the queries: $(load_avg)"
echo "| query (9 days, one project; median (p95) of $RUNS) | single node ms | by day ms | by project ms | by day / single | by project / single |"
echo "|---|---|---|---|---|---|"
for kind in listing chart chart_rows; do
  args=()
  [[ $kind == chart ]] && args=(--data-urlencode "sql=$chart")
  [[ $kind == chart_rows ]] && args=(--data-urlencode "sql=$chart limit 100000")
  # Interleaved: each layout's runs follow the previous layout's within the same minute.
  one=$(median_ms single "${args[@]}")
  two=$(median_ms coord "${args[@]}")
  three=$(median_ms hash "${args[@]}")
  read -r one one95 <<<"$one"
  read -r two two95 <<<"$two"
  read -r three three95 <<<"$three"
  echo "| $kind | $one ($one95) | $two ($two95) | $three ($three95) | $(ratio "$one" "$two") |" \
    "$(ratio "$one" "$three") |"
done
echo "load average after the queries: $(load_avg)"

if [[ -n $REPLICAS ]]; then
  # Cache-miss throughput on the single-node database with 0, 1, 2 replicas (a second replica is
  # made the same way), switched by config reload.
  r=$(cat "$state/r.port")
  # The second replica copies the whole primary cluster (at 10M rows ~57 GB, ~30 min here).
  if [[ " $REPLICAS " == *" 2 "* && ! -f $work/r2.port ]]; then
    pg_free_port >"$work/r2.port"
    pg_cluster_init_replica "$work/r2" "$p"
    pg_cluster_start "$work/r2" "$(cat "$work/r2.port")"
  fi
  r2_port=$(cat "$work/r2.port" 2>/dev/null || true)
  # Both replicas have replayed everything written so far.
  lsn=$(psql_at "$p" postgres "SELECT pg_current_wal_lsn()")
  for port in "$r" $r2_port; do
    until [[ $(psql_at "$port" postgres "SELECT pg_last_wal_replay_lsn() >= '$lsn'") == t ]]; do
      sleep 1
    done
  done
  gw=$(cat "$state/single.port")
  echo
  echo "| replicas | requests/s (wrk -c $CONNECTIONS, $DURATION, uncached listing) | non-2xx |"
  echo "|---|---|---|"
  for replicas in $REPLICAS; do
    cfg=$state/single.yaml
    sed -i '/^  replicas:/,/^  max_replica_lag_ms/d; /^  replica_check_interval_ms/d' "$cfg"
    if [[ $replicas -gt 0 ]]; then
      list="  replicas:\n    - postgresql://lqe_gw_single@127.0.0.1:$r/single"
      [[ $replicas == 2 ]] && list+="\n    - postgresql://lqe_gw_single@127.0.0.1:$r2_port/single"
      sed -i "s|^  max_queries_per_key: [0-9]*|  max_queries_per_key: 64\n$list\n  max_replica_lag_ms: 5000\n  replica_check_interval_ms: 200|" "$cfg"
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
  echo "load average after the throughput runs: $(load_avg)"
fi

# The plans behind the figures, on both coordinators.
for db in coord hash; do
  has_layout "$db" || continue
  echo
  echo "== $db: listing"
  psql_at "$p" "$db" "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF)
    SELECT timestamp, id, event_message FROM logs.edge WHERE project = '$project'
    AND timestamp > '$since' ORDER BY timestamp DESC LIMIT 100"
  echo "== $db: chart (logs.count_by_bucket's statement)"
  sql=$(psql_at "$p" "$db" "SELECT logs.count_by_bucket_sql('edge', '$project', '$since', 'infinity')")
  psql -X -q -v ON_ERROR_STOP=1 -tA "postgresql://postgres@127.0.0.1:$p/$db" <<SQL
PREPARE counted(interval, text, timestamptz, timestamptz) AS $sql;
EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF) EXECUTE counted('1 hour', '$project', '$since', 'infinity');
SQL
  echo "== $db: chart_rows"
  psql_at "$p" "$db" "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF)
    SELECT date_trunc('hour', timestamp) AS t, count(*) FROM logs.edge WHERE project = '$project'
    AND timestamp > '$since' GROUP BY 1 ORDER BY 1"
done
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
