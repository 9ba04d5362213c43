#!/usr/bin/env bash
# Promoted columns (008_promoted_fields.sql): the filtered listing "status >= 500, path matching a regex,
# last hour, newest 100" on logs.auth, three ways, interleaved:
#   lqe      the translator's SQL with the promoted columns (as `lqe serve` emits once
#            metadata.status and metadata.path are backfilled: `lqe translate --config`)
#   hand     hand-written SQL on the same columns and index
#   jsonb    the translator's SQL without promotion (jsonb reads, no index on them)
# and the ingest cost of the fill trigger: `lqe load` of INGEST auth events into a fresh database
# with the promoted columns and without them (trigger dropped), alternated.
#
# Data: `lqe generate` auth events (10 projects, seed 1; half of them in the last 2 hours), loaded
# with `lqe load`, grown FACTOR times by copies with a new id, and given a status (5 % >= 500,
# from the id's hash: the generator's auth events have none) before metadata.path is promoted.
#
# Usage: bench/volume/promoted.sh [BASE] [FACTOR] [REPS] [INGEST]   (defaults 50000 6 5 100000)
# LQE_BIN overrides the binary (default build/lqe). Runs on a throwaway PostgreSQL 15 cluster.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/lib/pg-cluster.sh

BASE=${1:-50000}
FACTOR=${2:-6}
REPS=${3:-5}
INGEST=${4:-100000}
LQE=${LQE_BIN:-$PWD/build/lqe}
source bench/lib/throwaway.sh
bench_throwaway_dir promoted-bench
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

bench_throwaway_cluster
SERVER="postgresql://postgres@127.0.0.1:$PORT"
psql "$SERVER/postgres" -q -c "CREATE DATABASE bench"
DSN="$SERVER/bench"
"$LQE" migrate --dsn "$DSN" >/dev/null

"$LQE" generate --source auth --count "$BASE" --projects 10 --seed 1 >"$TMP/auth.ndjson"
"$LQE" load --dsn "$DSN" --source auth "$TMP/auth.ndjson" | tail -1
for k in $(seq 1 $((FACTOR - 1))); do
  psql "$DSN" -q -c "INSERT INTO logs.auth (id, \"timestamp\", event_message, project, metadata, extra)
    SELECT id || '.$k', \"timestamp\" + interval '$k ms', event_message, project, metadata, extra
    FROM logs.auth WHERE id NOT LIKE '%.%'"
done
psql "$DSN" -q -c "UPDATE logs.auth SET metadata = metadata || jsonb_build_object('status',
  CASE WHEN abs(hashtext(id)) % 100 < 5 THEN 500 + abs(hashtext(id)) % 4 ELSE 200 END)"
psql "$DSN" -q -c "INSERT INTO logs.promoted_fields (source, path, bq_type)
  VALUES ('auth', 'metadata.path', 'STRING')"
t0=$(now)
"$LQE" migrate --dsn "$DSN" | grep -c backfilled | sed 's/$/ partitions backfilled/'
t1=$(now)
psql "$DSN" -q -c "VACUUM ANALYZE logs.auth"
ROWS=$(psql "$DSN" -Atc "SELECT count(*) FROM logs.auth")
echo "auth rows: $ROWS; backfill of metadata.path: $(secs "$t0" "$t1") s"
PROJECT=$(psql "$DSN" -Atc "SELECT project FROM logs.auth GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")

QUERY="select t.timestamp, t.id, m.path, m.status from \`logs.auth\` as t
  cross join unnest(t.metadata) as m
  where t.project = '$PROJECT' and m.status >= 500 and regexp_contains(m.path, r'^/(token|verify)')
    and t.timestamp > timestamp_sub(current_timestamp(), interval 1 hour)
  order by t.timestamp desc limit 100"
mkdir "$TMP/endpoints"
echo "$QUERY" >"$TMP/endpoints/listing.sql"
cat >"$TMP/endpoints/listing.yaml" <<EOF
id: 0b0e7d4c-2f65-4c1a-9a51-5d0c8f1b2a10
name: listing
query_file: listing.sql
max_rows: 1000
EOF
cat >"$TMP/gateway.yaml" <<EOF
database:
  dsn: $DSN
catalogue_file: $PWD/schema/catalogue_seed.tsv
endpoints_dir: $TMP/endpoints
EOF
# The SQL of lqe translate's output, without its parameter and column sections.
sql_only() { sed '/^-- params$/,$d'; }
"$LQE" translate --config "$TMP/gateway.yaml" --endpoint listing | sql_only >"$TMP/lqe.sql"
"$LQE" translate "$TMP/endpoints/listing.sql" | sql_only >"$TMP/jsonb.sql"
cat >"$TMP/hand.sql" <<EOF
SELECT "timestamp", id, p_path, p_status FROM logs.auth
 WHERE project = '$PROJECT' AND p_status >= 500 AND p_path ~ '^/(token|verify)'
   AND "timestamp" > now() - interval '1 hour'
 ORDER BY "timestamp" DESC LIMIT 100
EOF
grep -q p_status "$TMP/lqe.sql" || { echo "lqe did not read the promoted column:"; cat "$TMP/lqe.sql"; exit 1; }

ROLE=$(psql "$DSN" -Atc "SELECT name FROM logs.gateway_role")
GATEWAY_DSN="postgresql://$ROLE@127.0.0.1:$PORT/bench"
run() {  # prints the execution time in ms of the SQL in file $1, as the gateway role
  { echo "EXPLAIN (ANALYZE, TIMING OFF) "; cat "$1"; } |
    psql "$GATEWAY_DSN" -At | sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p'
}
for q in lqe hand jsonb; do
  echo "$q: $(psql "$GATEWAY_DSN" -At -f "$TMP/$q.sql" | wc -l) rows; plan:"
  { echo "EXPLAIN "; cat "$TMP/$q.sql"; } | psql "$GATEWAY_DSN" -At | grep -E "Scan|Cond" | head -4 |
    sed 's/^/    /'
done
declare -A times
for _ in $(seq 1 "$REPS"); do
  for q in lqe hand jsonb; do times[$q]+="$(run "$TMP/$q.sql") "; done
done
for q in lqe hand jsonb; do
  echo "$q ms (best, median of $REPS): $(echo "${times[$q]}" | tr ' ' '\n' | sed '/^$/d' | sort -n |
    awk '{ a[NR] = $1 } END { printf "%.2f, %.2f", a[1], a[int((NR + 1) / 2)] }')"
done

# Ingest cost: fresh databases, the same events, with the fill trigger and without it.
"$LQE" generate --source auth --count "$INGEST" --projects 10 --seed 2 >"$TMP/ingest.ndjson"
declare -A load
for i in 1 2 3; do
  for mode in with without; do
    db="ingest_${mode}_$i"
    psql "$SERVER/postgres" -q -c "CREATE DATABASE $db"
    "$LQE" migrate --dsn "$SERVER/$db" >/dev/null
    psql "$SERVER/$db" -q -c "INSERT INTO logs.promoted_fields (source, path, bq_type)
      VALUES ('auth', 'metadata.path', 'STRING')"
    "$LQE" migrate --dsn "$SERVER/$db" >/dev/null
    if [ "$mode" = without ]; then
      psql "$SERVER/$db" -q -c "DROP TRIGGER fill_promoted ON logs.auth" \
        -c "DROP INDEX logs.$(psql "$SERVER/$db" -Atc "SELECT string_agg(quote_ident(indexname), ', logs.')
              FROM pg_indexes WHERE tablename = 'auth' AND indexdef LIKE '%p\_%'")"
    fi
    t0=$(now)
    "$LQE" load --dsn "$SERVER/$db" --source auth "$TMP/ingest.ndjson" >/dev/null
    t1=$(now)
    load[$mode]+="$(secs "$t0" "$t1") "
    psql "$SERVER/postgres" -q -c "DROP DATABASE $db"
  done
done
for mode in with without; do
  echo "load of $INGEST auth events $mode promoted columns (s, 3 runs): ${load[$mode]}"
done
