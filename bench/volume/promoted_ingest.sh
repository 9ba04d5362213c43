#!/usr/bin/env bash
# Ingest cost of promoted fields inside edge's REPEATED records (008_promoted_fields.sql): `lqe load` of the
# same COUNT generated edge events into fresh databases, ROUNDS times each, alternating
#   none    no edge field promoted (as shipped)
#   status  metadata.response.status_code (2 columns, 2 indexes)
#   three   status, metadata.request.method and metadata.request.path (6 columns, 6 indexes)
# Prints each variant's load times and its median rate against `none`.
#
# Usage: bench/volume/promoted_ingest.sh [COUNT] [ROUNDS]   (defaults 50000 3)
# LQE_BIN overrides the binary (default build/lqe). Runs on a throwaway PostgreSQL 15 cluster.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/lib/pg-cluster.sh

COUNT=${1:-50000}
ROUNDS=${2:-3}
LQE=${LQE_BIN:-$PWD/build/lqe}
source bench/lib/throwaway.sh
bench_throwaway_dir promoted-ingest
bench_throwaway_cluster
SERVER="postgresql://postgres@127.0.0.1:$PORT"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

"$LQE" generate --source edge --count "$COUNT" --projects 10 --seed 2 >"$TMP/ingest.ndjson"
declare -A FIELDS=(
  [none]=""
  [status]="('edge', 'metadata.response.status_code', 'INT64')"
  [three]="('edge', 'metadata.response.status_code', 'INT64'), ('edge', 'metadata.request.method', 'STRING'), ('edge', 'metadata.request.path', 'STRING')"
)
declare -A TIMES
for round in $(seq 1 "$ROUNDS"); do
  for variant in none status three; do
    db="ingest_${variant}_$round"
    psql "$SERVER/postgres" -q -c "CREATE DATABASE $db"
    "$LQE" migrate --dsn "$SERVER/$db" >/dev/null
    if [ -n "${FIELDS[$variant]}" ]; then
      psql "$SERVER/$db" -q -c "INSERT INTO logs.promoted_fields (source, path, bq_type) VALUES ${FIELDS[$variant]}"
      "$LQE" migrate --dsn "$SERVER/$db" >/dev/null
    fi
    t0=$(now)
    "$LQE" load --dsn "$SERVER/$db" --source edge "$TMP/ingest.ndjson" >/dev/null
    t1=$(now)
    TIMES[$variant]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') "
    psql "$SERVER/postgres" -q -c "DROP DATABASE $db"
  done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
BASE_S=$(echo "${TIMES[none]}" | median)
for variant in none status three; do
  m=$(echo "${TIMES[$variant]}" | median)
  echo "$variant: load of $COUNT edge events ${TIMES[$variant]}s; median $m s = $(awk -v n="$COUNT" -v s="$m" 'BEGIN { printf "%.0f", n / s }') events/s ($(awk -v m="$m" -v b="$BASE_S" 'BEGIN { printf "%+.0f %%", (m / b - 1) * 100 }') time vs none)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
