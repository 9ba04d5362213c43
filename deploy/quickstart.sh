#!/usr/bin/env bash
# One command from a fresh checkout to a running lqe: installs the runtime and build packages,
# builds the lqe binary only (Release; no tests or benchmarks), starts the local PostgreSQL
# cluster (./var/pg, port ${LQE_PG_PORT:-54329}), migrates, loads demo data once, creates an API
# key once, and runs the gateway on 127.0.0.1:4000 in the foreground. Safe to re-run: data is
# not reloaded and the key is not rotated.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
LQE=$ROOT/${BUILD_DIR:-build}/lqe

# Only what lqe needs: the runtime and build packages, and the lqe binary without the tests and
# benchmarks (deploy/test.sh installs and builds those).
bash deploy/install-deps.sh
bash deploy/build.sh -DLQE_TESTS=OFF -DLQE_BENCH=OFF -DLQE_SANITIZE=OFF
bash deploy/pg.sh start
DSN=$(bash deploy/pg.sh dsn)

"$LQE" migrate --dsn "$DSN" --gateway-role lqe_gateway_lqe --ingest-role lqe_ingest_lqe

# Demo data: 200k edge events and 20k of every other source, fixed seed.
rows=$(psql "$DSN" -tAc "SELECT count(*) FROM (SELECT 1 FROM logs.edge LIMIT 1) t")
if [[ "$rows" == "0" ]]; then
  echo "quickstart: loading demo data"
  for source in edge postgres function_edge function_events auth realtime storage restapi pooler; do
    count=20000
    if [[ $source == edge ]]; then count=200000; fi
    "$LQE" generate --source "$source" --count "$count" --seed 42 |
      "$LQE" load --dsn "$DSN" --source "$source"
  done
else
  echo "quickstart: demo data already loaded"
fi

# API key: 32 random bytes as hex, readable only by its owner; the gateway gets its SHA-256.
mkdir -p var
if [[ ! -s var/api-key ]]; then
  (umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >var/api-key)
  echo "quickstart: created a new API key in var/api-key"
fi
chmod 600 var/api-key
key=$(cat var/api-key)
printf '%s' "$key" | sha256sum | cut -d' ' -f1 >var/api-key.sha256

if ! "$LQE" serve --help >/dev/null 2>&1 || [[ ! -f deploy/local.yaml ]]; then
  echo "quickstart: data loaded into $DSN; the gateway (lqe serve with deploy/local.yaml) is"
  echo "quickstart: not available in this build yet, so stopping here."
  exit 0
fi

cat <<MSG
quickstart: API key: $key
quickstart: web console: open http://127.0.0.1:4000/ and sign in with that key (logs, a chart,
  a live tail, the endpoints to try)
quickstart: or try:
  curl -H "X-API-KEY: $key" 'http://127.0.0.1:4000/api/endpoints/query/logs.all?project=default'
quickstart: send logs as Vector does (any of the nine Supabase source names):
  curl -H "X-API-KEY: $key" -H 'Content-Type: application/json' \
    'http://127.0.0.1:4000/api/logs?source_name=cloudflare.logs.prod' \
    -d '[{"event_message":"hello from curl","project":"default"}]'
quickstart: starting lqe serve on 127.0.0.1:4000 (Ctrl-C to stop; deploy/pg.sh stop stops PostgreSQL;
  $LQE reload --pid-file var/lqe.pid reloads deploy/local.yaml)
MSG
exec "$LQE" serve --config deploy/local.yaml --pid-file var/lqe.pid
