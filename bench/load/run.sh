#!/usr/bin/env bash
# Load benchmark: generates N edge events (default 1M) to a file, loads them with `lqe load` into
# a fresh database on a throwaway PostgreSQL 15 cluster, and reports events/s for both steps.
# Usage: bench/load/run.sh [COUNT] [SOURCE]   (LQE_BIN overrides the binary, default build/lqe)
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/lib/pg-cluster.sh

COUNT=${1:-1000000}
SOURCE=${2:-edge}
LQE=${LQE_BIN:-$PWD/build/lqe}
source bench/lib/throwaway.sh
bench_throwaway_dir load-bench

bench_throwaway_cluster
DSN="postgresql://postgres@127.0.0.1:$PORT/bench"
psql "postgresql://postgres@127.0.0.1:$PORT/postgres" -q -c "CREATE DATABASE bench"
"$LQE" migrate --dsn "$DSN" >/dev/null

t0=$(now)
"$LQE" generate --source "$SOURCE" --count "$COUNT" --seed 1 >"$TMP/events.ndjson"
t1=$(now)
size=$(du -m "$TMP/events.ndjson" | cut -f1)
echo "generate: $COUNT $SOURCE events (${size} MB) in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s: $(rate "$COUNT" "$t0" "$t1") events/s"

t2=$(now)
"$LQE" load --dsn "$DSN" --source "$SOURCE" "$TMP/events.ndjson"
t3=$(now)
echo "load: $(rate "$COUNT" "$t2" "$t3") events/s end to end (wall clock incl. connect)"

psql "$DSN" -c "SELECT count(*) AS rows, count(DISTINCT project) AS projects FROM logs.$SOURCE"
psql "$DSN" -c "SELECT count(*) AS catalogue_rows FROM logs.field_catalogue WHERE source = '$SOURCE'"
