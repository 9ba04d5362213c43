#!/usr/bin/env bash
# The scale-out suite against real PostgreSQL 15 clusters, one phase per ctest test:
#   setup       three clusters: P (primary: databases coord, hash, single, shard_b, hash_b), R
#               (a streaming replica of P made with pg_basebackup -R), S (shard node: databases
#               shard_a, hash_a). The same events go into `single` (one node), `coord` and
#               `hash`; `lqe migrate --config` moves coord's older days to shard_a / shard_b
#               (by day) and splits hash's older days over hash_a / hash_b (by project hash).
#               Three gateways: `single`, `coord` with R as its replica, `hash`.
#   identical   every stored endpoint and a corpus of sandbox queries answer the same on all three.
#   explain     the coordinators' plans: async foreign scans, pruning on time and on project,
#               filter and sort pushdown, listings that stop at the newest day.
#   cold_ingest late events for cold days (lqe load, HTTP ingest, psql) reach the nodes through
#               the coordinators, and the rollups of logs.edge stay what one node has and what a
#               rebuild gives.
#   failover    R is killed under load: no request fails; R comes back into rotation.
#   shard_down  S is stopped: queries that need shard_a (hash_a) get a 503 naming it, others
#               answer.
#   teardown    stops what setup started (by recorded pid and data directory).
# Usage: cluster_test.sh PHASE STATE_DIR SOURCE_DIR LQE_BINARY
set -euo pipefail
phase=$1 state=$2 src=$3 lqe=$4
# STATE_DIR is a link to the clusters' temp directory (see setup): every phase works in the
# target itself, since the postgres user may not traverse the link's parents.
state_link=$state
if [[ -L $state_link ]]; then state=$(readlink "$state_link"); fi
source "$src/deploy/lib/pg-cluster.sh"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# mark STEP: seconds since the phase began, so a slow step shows in the test log.
mark() {
  echo "[$SECONDS s] $*"
}

psql_at() {  # psql_at PORT DB SQL
  psql -X -q -v ON_ERROR_STOP=1 -tA "postgresql://postgres@127.0.0.1:$1/$2" -c "$3"
}

# get GATEWAY PATH-AND-QUERY: prints the body, then the status on the last line.
get() {
  curl -sS -G -H "X-API-KEY: $(cat "$state/api-key")" -w '\n%{http_code}' "http://127.0.0.1:$1$2" \
    "${@:3}"
}

start_gateway() {  # start_gateway NAME
  # The log exists before the server starts: the redirect below happens in the child, after the
  # loop may already read the file.
  : >"$state/$1.log"
  "$lqe" serve --config "$state/$1.yaml" >>"$state/$1.log" 2>&1 &
  echo $! >"$state/$1.pid"
  # It listens on a port the kernel picks (a port chosen in advance may be taken meanwhile,
  # even by an outgoing connection); the port is read from its start-up log line.
  local port=""
  for _ in $(seq 1 300); do
    if [[ -z $port ]]; then
      port=$(sed -n 's/.*lqe serving [0-9]* endpoints on [^ ]*:\([0-9]*\) with.*/\1/p' "$state/$1.log" || true)
      [[ -n $port ]] && echo "$port" >"$state/$1.port"
    fi
    if [[ -n $port ]] && curl -fsS "http://127.0.0.1:$port/ready" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  cat "$state/$1.log" >&2
  fail "gateway $1 did not become ready in 30 s"
}

write_config() {  # write_config NAME DSN EXTRA-YAML
  cat >"$state/$1.yaml" <<EOF
listen: 127.0.0.1:0
io_threads: 1
worker_threads: 8
database:
  dsn: $2
  pool_size: 4
  statement_timeout_ms: 15000
  connect_timeout_ms: 1000
  max_queries_per_key: 16
$3
ingest:
  dsn: postgresql://lqe_ingest_$1@127.0.0.1:$p/$1
catalogue_file: $src/schema/catalogue_seed.tsv
access_log: false
log_level: info
api_keys:
  - name: test
    sha256_file: $state/api-key.sha256
    endpoints: ["*"]
    ingest: ["*"]
endpoints_dir: $src/sql
EOF
}

# Restarts a stopped cluster on its own port, waiting out a short-lived socket of a test running
# beside this suite that took the port meanwhile.
restart_cluster() {
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    pg_cluster_start "$1" "$2" && return 0
    sleep 1
  done
  return 1
}

# The clusters' files live in a temp directory that $state links to: the postgres user must
# traverse every parent of a data directory, which a checkout under a private directory (a
# clone in `mktemp -d`, a home directory) does not allow.
remove_state() {
  if [[ -L $state_link ]]; then rm -rf "$(readlink "$state_link")"; fi
  rm -rf "$state_link"
}

setup() {
  remove_state
  local files
  files=$(mktemp -d -t lqe-cluster-state.XXXXXX)
  chmod 755 "$files"
  mkdir -p "$(dirname "$state_link")"
  ln -s "$files" "$state_link"
  state=$files
  local p s r
  pg_cluster_init "$state/s" &
  local init_s=$!
  pg_cluster_init "$state/p" || fail "cannot init the primary cluster"
  wait "$init_s" || fail "cannot init the shard cluster"
  p=$(pg_cluster_start_on_free_port "$state/p") || fail "cannot start the primary cluster"
  s=$(pg_cluster_start_on_free_port "$state/s") || fail "cannot start the shard cluster"
  echo "$p" >"$state/p.port"
  echo "$s" >"$state/s.port"
  mark "clusters started"
  # The replica at once: a base backup of P, streaming from it; everything done on P from here
  # on reaches it by streaming.
  pg_cluster_init_replica "$state/r" "$p" || fail "pg_basebackup failed"
  r=$(pg_cluster_start_on_free_port "$state/r") || fail "cannot start the replica"
  echo "$r" >"$state/r.port"
  for db in coord hash single shard_b hash_b; do psql_at "$p" postgres "CREATE DATABASE $db"; done
  psql_at "$s" postgres "CREATE DATABASE shard_a"
  psql_at "$s" postgres "CREATE DATABASE hash_a"
  # One after the other: both databases' migrations alter the cluster-wide roles they share
  # (ALTER ROLE ... SET), which two concurrent transactions can collide on.
  "$lqe" migrate --dsn "postgresql://postgres@127.0.0.1:$p/single" --gateway-role lqe_gw_single >/dev/null ||
    fail "migrating single failed"
  "$lqe" migrate --dsn "postgresql://postgres@127.0.0.1:$p/coord" --gateway-role lqe_gw_coord >/dev/null ||
    fail "migrating coord failed"
  "$lqe" migrate --dsn "postgresql://postgres@127.0.0.1:$p/hash" --gateway-role lqe_gw_hash >/dev/null ||
    fail "migrating hash failed"
  mark "migrated" 
  # Same events, both layouts; the 8 days before now.
  "$lqe" generate --source all --count 400 --seed 7 --projects 5 --out-dir "$state" \
    --now "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  load_all() {  # load_all DB: every source's file, one after the other
    local f
    for f in "$state"/*.ndjson; do
      "$lqe" load --dsn "postgresql://postgres@127.0.0.1:$p/$1" --source "$(basename "$f" .ndjson)" \
        "$f" >/dev/null
    done
  }
  load_all single &
  local single_load=$!
  load_all hash &
  local hash_load=$!
  load_all coord || fail "loading coord failed"
  wait "$single_load" || fail "loading single failed"
  wait "$hash_load" || fail "loading hash failed"
  mark "events loaded" 
  # bench/cluster's seed of extra edge events, loaded the same way before the days move (rows
  # routed through the coordinator's foreign partitions cost a round trip each; see cold_ingest).
  if [[ ${LQE_CLUSTER_EDGE_EVENTS:-0} -gt 0 ]]; then
    "$lqe" generate --source edge --count "$LQE_CLUSTER_EDGE_EVENTS" --seed 11 --projects 5 \
      --now "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$state/edge-bulk.ndjson"
    local db bulk=()
    for db in single coord hash; do
      "$lqe" load --dsn "postgresql://postgres@127.0.0.1:$p/$db" --source edge \
        "$state/edge-bulk.ndjson" >/dev/null &
      bulk+=($!)
    done
    for pid in "${bulk[@]}"; do wait "$pid" || fail "bulk edge load failed"; done
    mark "bulk edge events loaded"
    rm "$state/edge-bulk.ndjson"
  fi
  # The key and the gateway configs; a sharded layout is a YAML change plus lqe migrate.
  head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$state/api-key"
  printf '%s' "$(cat "$state/api-key")" | sha256sum | cut -d' ' -f1 >"$state/api-key.sha256"
  write_config single "postgresql://lqe_gw_single@127.0.0.1:$p/single" ""
  write_config coord "postgresql://lqe_gw_coord@127.0.0.1:$p/coord" "  replicas:
    - postgresql://lqe_gw_coord@127.0.0.1:$r/coord
  max_replica_lag_ms: 5000
  replica_check_interval_ms: 200
shards:
  hot_days: 2
  nodes:
    - name: shard_a
      dsn: postgresql://postgres@127.0.0.1:$s/shard_a
    - name: shard_b
      dsn: postgresql://postgres@127.0.0.1:$p/shard_b"
  "$lqe" migrate --dsn "postgresql://postgres@127.0.0.1:$p/coord" --config "$state/coord.yaml" \
    >"$state/migrate-shards.log"
  mark "shards applied: $(grep -c '^moved' "$state/migrate-shards.log") partitions moved"
  for db in single coord; do psql_at "$p" "$db" "ANALYZE"; done
  grep -q "shards: 2 nodes" "$state/migrate-shards.log" || fail "migrate did not apply the shards"
  grep -q -- "-> shard_a" "$state/migrate-shards.log" || fail "no partition moved to shard_a"
  grep -q -- "-> shard_b" "$state/migrate-shards.log" || fail "no partition moved to shard_b"
  write_config hash "postgresql://lqe_gw_hash@127.0.0.1:$p/hash" "shards:
  hot_days: 2
  by: project
  nodes:
    - name: hash_a
      dsn: postgresql://postgres@127.0.0.1:$s/hash_a
    - name: hash_b
      dsn: postgresql://postgres@127.0.0.1:$p/hash_b"
  "$lqe" migrate --dsn "postgresql://postgres@127.0.0.1:$p/hash" --config "$state/hash.yaml" \
    >"$state/migrate-hash.log"
  mark "hash shards applied: $(grep -c '^moved' "$state/migrate-hash.log") partitions split"
  psql_at "$p" hash "ANALYZE"
  grep -q -- "-> hash_a, hash_b" "$state/migrate-hash.log" || fail "no partition split over the nodes"
  # The replica has streamed all of the above.
  [[ $(psql_at "$r" coord "SELECT pg_is_in_recovery()") == t ]] || fail "R is not a standby"
  mark "replica streaming"
  start_gateway single
  start_gateway coord
  start_gateway hash
  mark "gateways ready"
}

teardown() {
  for g in single coord hash; do
    if [[ -f $state/$g.pid ]]; then
      kill "$(cat "$state/$g.pid")" 2>/dev/null || true
    fi
  done
  for c in r s p; do pg_cluster_stop "$state/$c"; done
  remove_state
}

# compare PATH [curl args...]: the three gateways answer 200 with the same JSON.
compare() {
  local one two layout
  one=$(get "$(cat "$state/single.port")" "$@")
  [[ ${one##*$'\n'} == 200 ]] || fail "single node: $* -> ${one##*$'\n'}: ${one%$'\n'*}"
  [[ $(jq '.result | length' <<<"${one%$'\n'*}") -gt 0 ]] || fail "no rows for $*"
  for layout in coord hash; do
    two=$(get "$(cat "$state/$layout.port")" "$@")
    [[ ${two##*$'\n'} == 200 ]] || fail "sharded ($layout): $* -> ${two##*$'\n'}: ${two%$'\n'*}"
    diff <(jq -S . <<<"${one%$'\n'*}") <(jq -S . <<<"${two%$'\n'*}") >/dev/null ||
      fail "different results for $* ($layout)"
  done
  compared=$((compared + 1))
}

identical() {
  compared=0
  local p project start
  chart_inputs
  local all=(--data-urlencode "project=$project" --data-urlencode "iso_timestamp_start=$start")
  compare /api/endpoints/query/logs.all "${all[@]}"
  compare /api/endpoints/query/logs.all --data-urlencode "project=$project"
  for interval in daily hourly 7day; do
    compare /api/endpoints/query/usage.api-counts --data-urlencode "interval=$interval" \
      --data-urlencode "project=.*"
  done
  while IFS= read -r query; do
    [[ -z $query || $query == \#* ]] && continue
    compare /api/endpoints/query/logs.all "${all[@]}" --data-urlencode "sql=$query"
  done <"$src/tests/cluster/sandbox_queries.sql"
  while IFS= read -r query; do
    [[ -z $query || $query == \#* ]] && continue
    compare /api/endpoints/query/logs.all "${all[@]}" --data-urlencode "lql=$query"
  done <"$src/tests/cluster/lql_queries.txt"
  identical_charts
  echo "identical: $compared requests gave the same results on one node and on both shard layouts"
}

# compare_empty PATH [curl args...]: the three gateways answer 200 with no rows.
compare_empty() {
  local layout body
  for layout in single coord hash; do
    body=$(get "$(cat "$state/$layout.port")" "$@")
    [[ ${body##*$'\n'} == 200 ]] || fail "$layout: $* -> ${body##*$'\n'}: ${body%$'\n'*}"
    [[ $(jq -c .result <<<"${body%$'\n'*}") == "[]" ]] || fail "$layout: rows for $*: $body"
  done
  compared=$((compared + 1))
}

# Count charts of exactly the shape logs.count_by_bucket answers (007_shards.sql: each leaf
# partition counted as its own statement part, so a node counts its days): the gateways translate
# them to it, and every layout answers byte for byte as the single node's ordinary plan did.
identical_charts() {
  local p project rare start from to chart layout sql unit
  chart_inputs
  chart="select timestamp_trunc(timestamp, hour) as t, count(*) as n from edge_logs group by t order by t"
  for layout in single coord hash; do
    sql=$("$lqe" translate --config "$state/$layout.yaml" --endpoint logs.all --sql "$chart" 2>&1)
    grep -q "FROM logs.count_by_bucket('edge', interval '1 hour', \$1::text," <<<"$sql" ||
      fail "$layout: the chart is not counted by logs.count_by_bucket: $sql"
  done
  # Bounds inside days (a cold start day, a cold end day), every unit.
  from=$(date -u -d '6 days ago' +%Y-%m-%dT07:13:27Z)
  to=$(date -u -d '3 days ago' +%Y-%m-%dT19:45:00Z)
  for unit in second minute hour day; do
    chart="select timestamp_trunc(timestamp, $unit) as t, count(*) as n from edge_logs group by t order by t"
    compare /api/endpoints/query/logs.all --data-urlencode "project=$project" \
      --data-urlencode "iso_timestamp_start=$from" --data-urlencode "iso_timestamp_end=$to" \
      --data-urlencode "sql=$chart"
  done
  compare /api/endpoints/query/logs.all --data-urlencode "project=$project" \
    --data-urlencode "iso_timestamp_start=$start" --data-urlencode "lql=f:edge_logs c:count(*) c:group_by(t::s)"
  # A project with days without rows: those buckets are absent, as on the single node.
  rare=$(psql_at "$p" single "SELECT project FROM logs.edge GROUP BY 1 ORDER BY count(DISTINCT
    date_trunc('day', timestamp, 'UTC')), 1 LIMIT 1")
  chart="select timestamp_trunc(timestamp, day) as d, count(*) as n from edge_logs group by d order by d desc"
  compare /api/endpoints/query/logs.all --data-urlencode "project=$rare" \
    --data-urlencode "iso_timestamp_start=$start" --data-urlencode "sql=$chart"
  local days_rare days_all
  days_rare=$(get "$(cat "$state/coord.port")" /api/endpoints/query/logs.all \
    --data-urlencode "project=$rare" --data-urlencode "iso_timestamp_start=$start" \
    --data-urlencode "sql=$chart" | sed '$d' | jq '.result | length')
  days_all=$(psql_at "$p" single "SELECT count(DISTINCT date_trunc('day', timestamp, 'UTC'))
    FROM logs.edge WHERE timestamp > '$start'")
  [[ $days_rare -lt $days_all ]] ||
    fail "the fixture's rarest project ($rare) has rows every day: $days_rare of $days_all"
  # Empty ranges: a start after the end; a range on cold days of a project without rows.
  compare_empty /api/endpoints/query/logs.all --data-urlencode "project=$project" \
    --data-urlencode "iso_timestamp_start=$to" --data-urlencode "iso_timestamp_end=$from" \
    --data-urlencode "sql=$chart"
  compare_empty /api/endpoints/query/logs.all --data-urlencode "project=no-such-project" \
    --data-urlencode "iso_timestamp_start=$start" --data-urlencode "sql=$chart"
}

explain() {
  local p plan cold hot
  p=$(cat "$state/p.port")
  plan=$(psql_at "$p" coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT id, event_message FROM logs.edge
    WHERE project = 'x' AND timestamp > now() - interval '9 days'")
  grep -q "Async Foreign Scan" <<<"$plan" || fail "no async foreign scan: $plan"
  grep -q "Remote SQL: .*WHERE .*project = 'x'" <<<"$plan" || fail "filter not pushed: $plan"
  cold=$(psql_at "$p" coord "SELECT min(to_date(right(c.relname, 8), 'YYYYMMDD'))::text FROM
    pg_foreign_table f JOIN pg_class c ON c.oid = f.ftrelid WHERE c.relname LIKE 'edge_p%'")
  plan=$(psql_at "$p" coord "EXPLAIN (COSTS OFF) SELECT count(*) FROM logs.edge
    WHERE timestamp >= '$cold' AND timestamp < date '$cold' + 1")
  [[ $(grep -c "Foreign Scan" <<<"$plan") == 1 ]] || fail "pruning: one day, one node: $plan"
  grep -q "Seq Scan\|Index" <<<"$plan" && fail "pruning: a cold day read a local partition: $plan"
  hot=$(date -u +%Y-%m-%d)
  plan=$(psql_at "$p" coord "EXPLAIN (COSTS OFF) SELECT count(*) FROM logs.edge
    WHERE timestamp >= '$hot'")
  grep -q "Foreign Scan" <<<"$plan" && fail "pruning: today read a node: $plan"
  # Each node sorts its own rows for an ordered listing (PostgreSQL 15 pushes no LIMIT or
  # partial aggregate through a partitioned table; see README "Sharded storage").
  plan=$(psql_at "$p" coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM logs.edge
    WHERE project = 'x' AND timestamp >= '$cold' AND timestamp < date '$cold' + 1
    ORDER BY timestamp DESC LIMIT 5")
  grep -q "Remote SQL: .*WHERE .*project = 'x'.* ORDER BY .*timestamp.* DESC" <<<"$plan" ||
    fail "ordered remote scan: $plan"
  # A listing orders the NOT NULL timestamp with plain DESC (the translator's rendering), the
  # partitions' order: an ordered Append reads the newest (local) day first and stops at the
  # LIMIT, so no node is asked for rows. On both coordinators.
  local db project
  project=$(psql_at "$p" single "SELECT project FROM logs.edge GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
  for db in coord hash; do
    plan=$(psql_at "$p" "$db" "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT id FROM logs.edge
      WHERE project = '$project' AND timestamp > now() - interval '9 days'
      ORDER BY timestamp DESC LIMIT 5")
    grep -q "Merge Append" <<<"$plan" && fail "$db: the listing merges every partition: $plan"
    grep -q "Foreign Scan" <<<"$plan" || fail "$db: no foreign partition in the listing's range: $plan"
    grep "Foreign Scan" <<<"$plan" | grep -vq "never executed" &&
      fail "$db: the listing read a node although the newest day filled it: $plan"
  done
  # lqe cluster status: every node up, the shards' tables all attached on the coordinator.
  local status
  status=$("$lqe" cluster status --config "$state/coord.yaml" \
    --dsn "postgresql://postgres@127.0.0.1:$p/coord") || fail "cluster status: $status"
  grep -Eq "^replica 1 +replica .* up +[0-9]+ ms" <<<"$status" || fail "cluster status replica: $status"
  for shard in shard_a shard_b; do
    grep -Eq "^$shard +shard .* up .* ([0-9]+) \(\1 attached\)" <<<"$status" ||
      fail "cluster status $shard: $status"
  done
  explain_hash
  explain_charts
  explain_counts
  echo "explain: async append, pruning, filter and sort pushdown hold; cluster status agrees"
}

# chart_plan DB PROJECT START: the plan of an LQL hourly chart as DB's gateway runs it
# (translated by `lqe translate --config`, prepared, executed with the endpoint's parameters).
# A plain count chart is counted by logs.count_by_bucket (see count_plan); this one counts
# non-empty messages, so it reads the rows through the CTE.
chart_plan() {
  local sql
  sql=$("$lqe" translate --config "$state/$1.yaml" --endpoint logs.all \
    --lql "f:edge_logs c:count(event_message) c:group_by(t::hour)" 2>/dev/null | sed '/^-- params/,$d')
  [[ $sql == WITH* ]] || fail "$1: the chart did not translate: $sql"
  psql -X -q -v ON_ERROR_STOP=1 -tA "postgresql://postgres@127.0.0.1:$(cat "$state/p.port")/$1" <<SQL
PREPARE chart(text, text, text) AS $sql;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE chart('$2', '$3', '');
SQL
}

# count_plan DB PROJECT START: the plan of the statement logs.count_by_bucket runs for the
# bench's hourly edge chart (logs.count_by_bucket_sql gives it), as DB's gateway role.
count_plan() {
  local sql
  sql=$(psql -X -q -v ON_ERROR_STOP=1 -tA "postgresql://lqe_gw_$1@127.0.0.1:$(cat "$state/p.port")/$1" \
    -c "SELECT logs.count_by_bucket_sql('edge', '$2', '$3', 'infinity')")
  [[ $sql == SELECT* ]] || fail "$1: no count statement: $sql"
  psql -X -q -v ON_ERROR_STOP=1 -tA "postgresql://lqe_gw_$1@127.0.0.1:$(cat "$state/p.port")/$1" <<SQL
PREPARE counted(interval, text, timestamptz, timestamptz) AS $sql;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE counted('1 hour', '$2', '$3', 'infinity');
SQL
}

# chart_inputs: sets the caller's p (the primary's port), project (the busiest project) and
# start (midnight 9 days ago), the inputs of the chart plans below.
chart_inputs() {
  p=$(cat "$state/p.port")
  project=$(psql_at "$p" single "SELECT project FROM logs.edge GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
  start=$(date -u -d '9 days ago' +%Y-%m-%dT00:00:00Z)
}

# The count chart's plan on both coordinators: every foreign leaf in range (by project: only
# the project's share of each cold day) is its own branch, with the bucket and the project
# filter in its Remote SQL. Whether the count itself is shipped ("Relations: Aggregate on") is
# postgres_fdw's cost choice: with the bench's days (LQE_CLUSTER_EDGE_EVENTS, thousands of rows
# a day) it must be for every leaf; the suite's days hold a few rows each, where counting on the
# coordinator costs the same.
explain_counts() {
  local p db plan project start leaves in_plan
  chart_inputs
  for db in coord hash; do
    plan=$(count_plan "$db" "$project" "$start")
    leaves=$(psql_at "$p" "$db" "SELECT count(*) FROM pg_foreign_table f JOIN pg_class c
      ON c.oid = f.ftrelid WHERE c.relname LIKE 'edge_p%'")
    [[ $db == hash ]] && leaves=$((leaves / 2))
    in_plan=$(grep "Remote SQL: .* FROM logs.edge_p[0-9_h]* WHERE .*project = '$project'" <<<"$plan" |
      grep -c "date_bin(")
    [[ $in_plan == "$leaves" ]] ||
      fail "$db: $in_plan foreign leaves with the bucket and the project shipped, not $leaves: $plan"
    if [[ ${LQE_CLUSTER_EDGE_EVENTS:-0} -gt 0 ]]; then
      [[ $(grep -c "Relations: Aggregate on (logs.edge_p" <<<"$plan") == "$leaves" ]] ||
        fail "$db: not every foreign leaf counts on its node: $plan"
      [[ $(grep -c "Async Foreign Scan" <<<"$plan") == "$leaves" ]] ||
        fail "$db: the nodes do not count at once: $plan"
    fi
  done
}

# Charts on both coordinators. PostgreSQL 15 pushes no partial aggregate to a foreign partition
# and aggregates per partition only when grouped by the partition key, so a chart's rows are
# counted on the coordinator (README "Sharded storage"); what the plan must give: every node
# scanned at once, unordered (no sort on the nodes), the day partitions pruned on the time range.
# And the building block of a per-partition chart: over one foreign day table, date_bin's bucket
# (immutable, no collatable argument, unlike date_trunc's) is shipped to the node; whether the
# count goes with it is the planner's cost choice (on the 1M-row bench layout it does:
# "Relations: Aggregate on"; the suite's days are too small for that).
explain_charts() {
  local p db plan project start after cold
  chart_inputs
  for db in coord hash; do
    # Per-partition partial aggregates would lose the run-time pruning and the async scans.
    [[ $(psql -X -tA "postgresql://lqe_gw_$db@127.0.0.1:$p/$db" -c "SHOW enable_partitionwise_aggregate") == off ]] ||
      fail "$db: the gateway role plans partitionwise aggregates"
    plan=$(chart_plan "$db" "$project" "$start")
    [[ $(grep -c "Async Foreign Scan on" <<<"$plan") -ge 2 ]] ||
      fail "$db: the chart does not scan the nodes at once: $plan"
    grep -q "Remote SQL: .*ORDER BY" <<<"$plan" && fail "$db: a node sorts the chart's rows: $plan"
    grep -q "Merge Append\|Subquery Scan" <<<"$plan" &&
      fail "$db: the chart reads the partitions through an ordered subquery: $plan"
    grep -q "Remote SQL: .*WHERE .*project = '$project'" <<<"$plan" ||
      fail "$db: the chart's project filter is not pushed: $plan"
    # A start after the newest cold day: no node in the plan.
    after=$(psql_at "$p" "$db" "SELECT (max(to_date(substring(c.relname FROM '_p([0-9]{8})'),
      'YYYYMMDD')) + 1)::text || 'T00:00:00Z' FROM pg_foreign_table f JOIN pg_class c
      ON c.oid = f.ftrelid WHERE c.relname LIKE 'edge_p%'")
    plan=$(chart_plan "$db" "$project" "$after")
    grep -q "Foreign Scan" <<<"$plan" && fail "$db: pruning: a chart after the cold days reads a node: $plan"
  done
  cold=$(psql_at "$p" coord "SELECT min(c.relname) FROM pg_foreign_table f JOIN pg_class c
    ON c.oid = f.ftrelid WHERE c.relname LIKE 'edge_p%'")
  plan=$(psql_at "$p" coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT date_bin('1 hour', timestamp,
    '1970-01-01 00:00:00+00'), count(*) FROM logs.$cold WHERE project = '$project' GROUP BY 1")
  grep "Remote SQL: .*logs.$cold" <<<"$plan" | grep -q "date_bin(" ||
    fail "coord: the bucket of a count over one foreign day is not shipped: $plan"
  cold=$(psql_at "$p" hash "SELECT min(c.relname) FROM pg_foreign_table f JOIN pg_class c
    ON c.oid = f.ftrelid WHERE c.relname LIKE 'edge_p%'")
  plan=$(psql_at "$p" hash "EXPLAIN (VERBOSE, COSTS OFF) SELECT date_bin('1 hour', timestamp,
    '1970-01-01 00:00:00+00'), count(*) FROM logs.$cold WHERE project = '$project' GROUP BY 1")
  grep "Remote SQL: .*logs.$cold" <<<"$plan" | grep -q "date_bin(" ||
    fail "hash: the bucket of a count over one foreign project share is not shipped: $plan"
}

# The layout split by project hash: a one-project query reads one node per cold day (the
# expression of each source's logs.all filter is its hash key), others read every node at once.
# first_hash_day SOURCE: the oldest day of SOURCE split over the hash nodes. Per source: a
# source without rows on the edge's oldest day (late in the UTC day the oldest of the 8 days
# holds a few hours) has no split partition for it.
first_hash_day() {
  psql_at "$(cat "$state/p.port")" hash "SELECT min(to_date(substring(c.relname FROM
    '_p([0-9]{8})_h'), 'YYYYMMDD'))::text FROM pg_foreign_table f JOIN pg_class c
    ON c.oid = f.ftrelid WHERE c.relname LIKE '$1\_p%'"
}

explain_hash() {
  local p plan cold status
  p=$(cat "$state/p.port")
  cold=$(first_hash_day edge)
  [[ -n $cold ]] || fail "hash: no foreign edge partitions"
  plan=$(psql_at "$p" hash "EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM logs.edge
    WHERE project = 'x' AND timestamp >= '$cold' AND timestamp < date '$cold' + 1")
  [[ $(grep -c "Foreign Scan on" <<<"$plan") == 1 ]] || fail "hash: one project, one node: $plan"
  grep -q "Remote SQL: .*WHERE .*project = 'x'" <<<"$plan" || fail "hash: filter not pushed: $plan"
  plan=$(psql_at "$p" hash "EXPLAIN (COSTS OFF) SELECT count(*) FROM logs.edge
    WHERE timestamp >= '$cold' AND timestamp < date '$cold' + 1")
  [[ $(grep -c "Async Foreign Scan on" <<<"$plan") == 2 ]] || fail "hash: every node at once: $plan"
  cold=$(first_hash_day realtime)
  [[ -n $cold ]] || fail "hash: no foreign realtime partitions"
  plan=$(psql_at "$p" hash "EXPLAIN (COSTS OFF) SELECT count(*) FROM logs.realtime
    WHERE (metadata ->> 'project') = 'x' AND timestamp >= '$cold' AND timestamp < date '$cold' + 1")
  [[ $(grep -c "Foreign Scan on" <<<"$plan") == 1 ]] || fail "hash: metadata project key: $plan"
  status=$("$lqe" cluster status --config "$state/hash.yaml" \
    --dsn "postgresql://postgres@127.0.0.1:$p/hash") || fail "cluster status (hash): $status"
  for shard in hash_a hash_b; do
    grep -Eq "^$shard +shard .* up .* ([0-9]+) \(\1 attached\)" <<<"$status" ||
      fail "cluster status $shard: $status"
  done
  grep -q "split by project hash over 2 nodes" <<<"$status" || fail "cluster status rule: $status"
}

# Every row of a table of database DB, as one digest.
digest() {  # digest PORT DB TABLE
  psql_at "$1" "$2" "SELECT coalesce(md5(string_agg(x::text, ';' ORDER BY x::text)), '')
    FROM logs.$3 x"
}

cold_ingest() {
  local p db g now old line status
  p=$(cat "$state/p.port")
  now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  old=$(date -u -d '5 days ago' +%Y-%m-%dT%H:%M:%S.123456Z)
  # lqe load (the COPY writer HTTP ingest shares): 8 days of events, most of them cold.
  "$lqe" generate --source edge --count 300 --seed 13 --projects 5 --now "$now" >"$state/late.ndjson"
  for db in single coord hash; do
    "$lqe" load --dsn "postgresql://postgres@127.0.0.1:$p/$db" --source edge --batch-size 100 \
      "$state/late.ndjson" >/dev/null || fail "loading late events into $db failed"
  done
  # HTTP ingest: one batch holding a cold and a hot event.
  line=$(head -n 1 "$state/late.ndjson")
  local batch
  batch=$(jq -c --arg old "$old" --arg now "$now" '[(.id = "late-http-1" | .timestamp = $old),
    (.id = "late-http-2" | .timestamp = $now)]' <<<"$line")
  for g in single coord hash; do
    status=$(curl -sS -o "$state/ingest.out" -w '%{http_code}' -H "X-API-KEY: $(cat "$state/api-key")" \
      -H 'Content-Type: application/json' --data "$batch" \
      "http://127.0.0.1:$(cat "$state/$g.port")/api/logs?source_name=cloudflare.logs.prod")
    [[ $status == 200 ]] || fail "HTTP ingest into $g: $status $(cat "$state/ingest.out")"
  done
  # psql: one statement, a cold and a hot row.
  for db in single coord hash; do
    psql_at "$p" "$db" "INSERT INTO logs.edge (id, \"timestamp\", project, event_message, metadata)
      VALUES ('late-sql-1', '$old', 'late', 'GET', '{\"request\": {\"url\":
      \"https://late.supabase.co/rest/v1/x\", \"path\": \"/rest/v1/x\"}}'),
      ('late-sql-2', '$now', 'late', 'GET', '{}')"
  done
  # Minute counts still in the delta (005_edge_rollup.sql) are folded in, as each gateway does in time.
  for db in single coord hash; do
    psql_at "$p" "$db" "SELECT logs.compact_edge_rollups()" >/dev/null
  done
  local rows
  rows=$(psql_at "$p" single "SELECT count(*) FROM logs.edge")
  for db in coord hash; do
    [[ $(psql_at "$p" "$db" "SELECT count(*) FROM logs.edge") == "$rows" ]] ||
      fail "$db holds a different number of edge events than single ($rows)"
    [[ $(psql_at "$p" "$db" "SELECT count(*) FROM logs.edge WHERE id = 'late-http-1'
      AND \"timestamp\" = '$old'") == 1 ]] || fail "$db: the cold HTTP event is missing"
    for t in edge_api_minute edge_url_rest_trigrams; do
      [[ $(digest "$p" "$db" $t) == $(digest "$p" single $t) ]] ||
        fail "$db: logs.$t differs from the single node's"
    done
  done
  for db in single coord; do
    local before=() after=()
    for t in edge_api_minute edge_url_rest_trigrams; do before+=("$(digest "$p" "$db" $t)"); done
    psql_at "$p" "$db" "SELECT logs.rebuild_edge_rollups()" >/dev/null
    for t in edge_api_minute edge_url_rest_trigrams; do after+=("$(digest "$p" "$db" $t)"); done
    [[ ${before[*]} == "${after[*]}" ]] || fail "$db: the rollups differ from their rebuild"
  done
  [[ $(psql_at "$p" coord "SELECT count(*) FROM logs.edge_routed") == 0 ]] ||
    fail "coord: logs.edge_routed keeps rows"
  compared=0
  local start
  start=$(date -u -d '9 days ago' +%Y-%m-%dT00:00:00Z)
  compare /api/endpoints/query/logs.all --data-urlencode "project=late" \
    --data-urlencode "iso_timestamp_start=$start"
  compare /api/endpoints/query/usage.api-counts --data-urlencode "interval=7day" \
    --data-urlencode "project=late"
  echo "cold_ingest: late events through lqe load, HTTP ingest and psql stored on the nodes;" \
    "rollups equal the single node's and their rebuild; $compared endpoint results identical"
}

failover() {
  local port r failed=0 total=0 metrics
  port=$(cat "$state/coord.port")
  r=$(cat "$state/r.port")
  for _ in $(seq 1 50); do
    metrics=$(curl -fsS "http://127.0.0.1:$port/metrics")
    grep -q "lqe_db_in_rotation{host=\"127.0.0.1:$r\",role=\"replica\"} 1" <<<"$metrics" && break
    sleep 0.1
  done
  grep -q "lqe_db_in_rotation{host=\"127.0.0.1:$r\",role=\"replica\"} 1" <<<"$metrics" ||
    fail "the replica never joined the rotation: $metrics"
  # Four clients, uncached listing queries, while R is killed (immediate shutdown).
  local key
  key=$(cat "$state/api-key")
  seq 1 400 | xargs -P 4 -I{} curl -s -o /dev/null -w '%{http_code}\n' -H "X-API-KEY: $key" \
    "http://127.0.0.1:$port/api/endpoints/query/logs.all?project=p{}" >"$state/failover.codes" &
  local load=$!
  sleep 0.5
  _pg_as_owner "$PG_BIN/pg_ctl" -D "$state/r/data" -m immediate -w stop >/dev/null
  wait "$load"
  total=$(wc -l <"$state/failover.codes")
  failed=$(grep -vc '^200$' "$state/failover.codes" || true)
  [[ $total == 400 ]] || fail "expected 400 answers, got $total"
  [[ $failed == 0 ]] || fail "$failed of $total requests failed while the replica died"
  metrics=$(curl -fsS "http://127.0.0.1:$port/metrics")
  grep -q "lqe_db_in_rotation{host=\"127.0.0.1:$r\",role=\"replica\"} 0" <<<"$metrics" ||
    fail "the dead replica is still in rotation"
  local before after
  before=$(grep "^lqe_db_queries_total{.*role=\"replica\"}" <<<"$metrics" | awk '{print $2}')
  [[ $before -gt 0 ]] || fail "no query reached the replica before it died"
  grep -q '^lqe_db_queries_total{.*role="primary"} [1-9]' <<<"$metrics" ||
    fail "no query fell back to the primary"
  # Back up: the health check puts it back into rotation, and it takes queries again.
  restart_cluster "$state/r" "$r" || fail "cannot restart the replica"
  # Until its WAL receiver reconnects (wal_retrieve_retry_interval, 5 s, and slower on a loaded
  # machine) the replica cannot show it is current, so it stays out; allow 30 s.
  for _ in $(seq 1 300); do
    metrics=$(curl -fsS "http://127.0.0.1:$port/metrics")
    grep -q "lqe_db_in_rotation{host=\"127.0.0.1:$r\",role=\"replica\"} 1" <<<"$metrics" && break
    sleep 0.1
  done
  grep -q "lqe_db_in_rotation{host=\"127.0.0.1:$r\",role=\"replica\"} 1" <<<"$metrics" ||
    fail "the restarted replica did not rejoin the rotation"
  get "$port" /api/endpoints/query/logs.all --data-urlencode project=p1 >/dev/null
  after=$(curl -fsS "http://127.0.0.1:$port/metrics" |
    grep "^lqe_db_queries_total{.*role=\"replica\"}" | awk '{print $2}')
  [[ $after -gt $before ]] || fail "the rejoined replica takes no queries"
  echo "failover: $total requests, 0 failed; replica out, fallback to primary, back in rotation"
}

shard_down() {
  local port s body hot start project
  port=$(cat "$state/coord.port")
  s=$(cat "$state/s.port")
  project=$(psql_at "$(cat "$state/p.port")" single "SELECT project FROM logs.edge LIMIT 1")
  # By project hash: a project whose cold rows are all on hash_b (P), one with rows on hash_a.
  local on_b on_a
  on_b=$(psql_at "$(cat "$state/p.port")" hash "SELECT project FROM logs.edge GROUP BY 1
    HAVING bool_and(tableoid::regclass::text NOT LIKE '%_h0') AND
    bool_or(tableoid::regclass::text LIKE '%_h1') LIMIT 1")
  on_a=$(psql_at "$(cat "$state/p.port")" hash "SELECT project FROM logs.edge
    WHERE tableoid::regclass::text LIKE '%_h0' LIMIT 1")
  [[ -n $on_b && -n $on_a ]] || fail "hash: need projects on each node (got '$on_b', '$on_a')"
  _pg_as_owner "$PG_BIN/pg_ctl" -D "$state/s/data" -m fast -w stop >/dev/null
  hot=$(date -u -d '1 hour ago' +%Y-%m-%dT%H:%M:%SZ)
  body=$(get "$port" /api/endpoints/query/logs.all --data-urlencode "project=$project" \
    --data-urlencode "iso_timestamp_start=$hot")
  [[ ${body##*$'\n'} == 200 ]] || fail "a hot-only query failed with shard_a down: $body"
  start=$(date -u -d '9 days ago' +%Y-%m-%dT00:00:00Z)
  body=$(get "$port" /api/endpoints/query/logs.all --data-urlencode "project=$project" \
    --data-urlencode "iso_timestamp_start=$start")
  [[ ${body##*$'\n'} == 503 ]] || fail "expected 503 for a query over shard_a: $body"
  local json=${body%$'\n'*}
  [[ $(jq -r .error.reason <<<"$json") == shard_unavailable ]] || fail "reason: $json"
  [[ $(jq -r .error.shard <<<"$json") == shard_a ]] || fail "shard: $json"
  [[ $(jq -r .error.message <<<"$json") == "shard shard_a is unavailable; this query reads partitions stored on it; retry shortly" ]] ||
    fail "message: $json"
  local hash_port
  hash_port=$(cat "$state/hash.port")
  body=$(get "$hash_port" /api/endpoints/query/logs.all --data-urlencode "project=$on_b" \
    --data-urlencode "iso_timestamp_start=$start")
  [[ ${body##*$'\n'} == 200 ]] || fail "hash: a project on hash_b failed with hash_a down: $body"
  body=$(get "$hash_port" /api/endpoints/query/logs.all --data-urlencode "project=$on_a" \
    --data-urlencode "iso_timestamp_start=$start")
  [[ ${body##*$'\n'} == 503 ]] || fail "hash: expected 503 for a project on hash_a: $body"
  [[ $(jq -r .error.shard <<<"${body%$'\n'*}") == hash_a ]] || fail "hash: shard: $body"
  # The count chart (logs.count_by_bucket) lists only the leaves in range: the same answers.
  local chart="select timestamp_trunc(timestamp, hour) as t, count(*) as n from edge_logs group by t order by t"
  body=$(get "$port" /api/endpoints/query/logs.all --data-urlencode "project=$project" \
    --data-urlencode "iso_timestamp_start=$hot" --data-urlencode "sql=$chart")
  [[ ${body##*$'\n'} == 200 ]] || fail "a hot-only count chart failed with shard_a down: $body"
  body=$(get "$port" /api/endpoints/query/logs.all --data-urlencode "project=$project" \
    --data-urlencode "iso_timestamp_start=$start" --data-urlencode "sql=$chart")
  [[ ${body##*$'\n'} == 503 ]] || fail "expected 503 for a count chart over shard_a: $body"
  json=${body%$'\n'*}
  [[ $(jq -r .error.reason <<<"$json") == shard_unavailable ]] || fail "chart reason: $json"
  [[ $(jq -r .error.shard <<<"$json") == shard_a ]] || fail "chart shard: $json"
  [[ $(jq -r .error.message <<<"$json") == "shard shard_a is unavailable; this query reads partitions stored on it; retry shortly" ]] ||
    fail "chart message: $json"
  body=$(get "$hash_port" /api/endpoints/query/logs.all --data-urlencode "project=$on_b" \
    --data-urlencode "iso_timestamp_start=$start" --data-urlencode "sql=$chart")
  [[ ${body##*$'\n'} == 200 ]] || fail "hash: a count chart of a project on hash_b failed: $body"
  body=$(get "$hash_port" /api/endpoints/query/logs.all --data-urlencode "project=$on_a" \
    --data-urlencode "iso_timestamp_start=$start" --data-urlencode "sql=$chart")
  [[ ${body##*$'\n'} == 503 ]] || fail "hash: expected 503 for a count chart on hash_a: $body"
  [[ $(jq -r .error.shard <<<"${body%$'\n'*}") == hash_a ]] || fail "hash: chart shard: $body"
  restart_cluster "$state/s" "$s" || fail "cannot restart the shard"
  body=$(get "$port" /api/endpoints/query/logs.all --data-urlencode "project=$project" \
    --data-urlencode "iso_timestamp_start=$start")
  [[ ${body##*$'\n'} == 200 ]] || fail "the shard is back but the query still fails: $body"
  echo "shard_down: 503 naming shard_a (hash_a) only for queries over its days (projects); back when it is"
}

case $phase in
  setup) setup ;;
  teardown) teardown ;;
  identical) identical ;;
  explain) explain ;;
  cold_ingest) cold_ingest ;;
  failover) failover ;;
  shard_down) shard_down ;;
  *) fail "unknown phase $phase" ;;
esac
