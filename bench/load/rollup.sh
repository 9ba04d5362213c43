#!/usr/bin/env bash
# Ingest cost of a declared rollup: loads the same generated edge events with `lqe load` into two
# fresh databases of one throwaway PostgreSQL 15 cluster, one without rollups and one with the
# example rollup (examples/rollups/rollups.yaml), chunk by chunk, alternating which database goes
# first, and reports events/s of each and the median slowdown per chunk.
# Usage: bench/load/rollup.sh [CHUNKS] [EVENTS_PER_CHUNK]   (LQE_BIN overrides build/lqe)
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/lib/pg-cluster.sh

CHUNKS=${1:-6}
PER_CHUNK=${2:-10000}
LQE=${LQE_BIN:-$PWD/build/lqe}
source bench/lib/throwaway.sh
bench_throwaway_dir rollup-bench

bench_throwaway_cluster
BASE="postgresql://postgres@127.0.0.1:$PORT"
for db in plain rolled; do psql "$BASE/postgres" -q -c "CREATE DATABASE $db"; done
"$LQE" migrate --dsn "$BASE/plain" >/dev/null
{
  printf 'database:\n  dsn: "%s"\nendpoints_dir: "%s"\n' "$BASE/rolled" "$PWD/examples/rollups/endpoints"
  cat examples/rollups/rollups.yaml
} >"$TMP/config.yaml"
"$LQE" migrate --dsn "$BASE/rolled" --config "$TMP/config.yaml" | grep '^rollups:'

"$LQE" generate --source edge --count $((CHUNKS * PER_CHUNK)) --seed 1 --projects 20 \
  >"$TMP/events.ndjson"
split -l "$PER_CHUNK" -d -a 3 "$TMP/events.ndjson" "$TMP/chunk."

load() {  # prints the seconds one chunk took
  local t0 t1
  t0=$(now)
  "$LQE" load --dsn "$BASE/$1" --source edge "$2" >/dev/null
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

i=0
: >"$TMP/times"
for chunk in "$TMP"/chunk.*; do
  if ((i % 2 == 0)); then
    p=$(load plain "$chunk"); r=$(load rolled "$chunk")
  else
    r=$(load rolled "$chunk"); p=$(load plain "$chunk")
  fi
  echo "chunk $i: plain ${p}s, with rollup ${r}s"
  echo "$p $r" >>"$TMP/times"
  i=$((i + 1))
done
median=$(awk '{ print $2 / $1 }' "$TMP/times" | sort -g |
  awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
awk -v n="$PER_CHUNK" -v m="$median" '
  { p += $1; r += $2 }
  END {
    printf "plain: %.0f events/s, with rollup: %.0f events/s, median slowdown per chunk: %+.1f%%\n",
      n * NR / p, n * NR / r, (m - 1) * 100
  }' "$TMP/times"
psql "$BASE/rolled" -Atc "SELECT 'rollup rows: ' || count(*) || ', events counted: ' || sum(requests) FROM logs.rollup_edge_status"
