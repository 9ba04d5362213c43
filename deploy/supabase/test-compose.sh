#!/usr/bin/env bash
# The compose override test: podman-compose brings up the analytics service of a Supabase-shaped
# stack (tests/fixtures/supabase/docker-compose.yml, with the stack's .env lines) with
# deploy/supabase/docker-compose.lqe.yml on top, unchanged, against a throwaway PostgreSQL that
# has the stack's _supabase database. Checks: lqe migrates on start and becomes healthy by the
# override's healthcheck, the service that depends on `analytics: service_healthy` starts after
# it and reaches it at http://analytics:4000, /health answers, a Vector-shaped batch is ingested with the public token and read back
# through logs.all with the private token. The services run on the stack's own network and reach
# PostgreSQL on the host as host.containers.internal with the .env's password; a third file
# publishes the port and sets the ulimits this machine allows (docker-compose.ci.yml).
# Needs podman-compose (deploy/install-deps.sh --image) and the image: $LQE_IMAGE, built from
# build/lqe when missing. Fails, never skips, when compose or containers cannot run.
# Usage: deploy/supabase/test-compose.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/lib/pg-cluster.sh
source deploy/lib/podman.sh

started=$SECONDS
say() { echo "test-compose: [$((SECONDS - started))s] $*"; }
fail() {
  echo "test-compose: FAILED: $*" >&2
  exit 1
}
for tool in podman podman-compose curl jq; do
  command -v "$tool" >/dev/null || fail "$tool is missing (deploy/install-deps.sh --image)"
done

export LQE_IMAGE=${LQE_IMAGE:-localhost/lqe-test:latest}
if ! lqe_podman image exists "$LQE_IMAGE"; then
  say "building $LQE_IMAGE from build/lqe"
  bash deploy/container/build-image.sh --prebuilt
fi

TMP=$(mktemp -d /tmp/lqe-compose-test.XXXXXX)
chmod 755 "$TMP"
PROJECT=lqe-compose-$$
STACK=(-p "$PROJECT" -f "$TMP/docker-compose.yml" -f "$PWD/deploy/supabase/docker-compose.lqe.yml"
  -f "$TMP/docker-compose.ci.yml")
compose() {
  podman-compose --podman-args "${LQE_PODMAN_GLOBAL_OPTS[*]}" "${STACK[@]}" "$@"
}
keep_log=1
cleanup() {
  if [[ $keep_log == 1 ]]; then
    lqe_podman logs supabase-analytics 2>&1 | tail -40 >&2 || true
    tail -20 "$TMP/compose.log" >&2 2>/dev/null || true
  fi
  compose down >/dev/null 2>&1 || true
  lqe_podman rm -f supabase-analytics supabase-dependent >/dev/null 2>&1 || true
  pg_cluster_stop "$TMP/pg" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

# The stack's database: _supabase owned by supabase_admin, with the .env's password, reachable
# from the containers' network (samenet: the host's own subnets, the bridge's among them).
PG_PORT=$(pg_free_port)
pg_cluster_init "$TMP/pg"
echo "host all all samenet scram-sha-256" >>"$TMP/pg/data/pg_hba.conf"
PG_LISTEN='*' pg_cluster_start "$TMP/pg" "$PG_PORT"
cp tests/fixtures/supabase/docker-compose.yml tests/fixtures/supabase/docker-compose.ci.yml "$TMP/"
sed "s/^POSTGRES_PORT=.*/POSTGRES_PORT=$PG_PORT/" tests/fixtures/supabase/env.example >"$TMP/.env"
set -a
source "$TMP/.env"
set +a
/usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -qAt \
  -c "CREATE ROLE supabase_admin LOGIN SUPERUSER PASSWORD '$POSTGRES_PASSWORD'" \
  -c "CREATE DATABASE _supabase OWNER supabase_admin"

LQE_TEST_PORT=$(pg_free_port)
export LQE_TEST_PORT
say "podman-compose up (lqe on 127.0.0.1:$LQE_TEST_PORT, PostgreSQL on $PG_PORT)"
# podman-compose reads .env from the directory of the first compose file, as docker compose does.
(cd "$TMP" && compose up -d) >"$TMP/compose.log" 2>&1 || fail "podman-compose up failed"

healthy=0
deadline=$((SECONDS + 120))
while ((SECONDS < deadline)); do
  if lqe_podman healthcheck run supabase-analytics >/dev/null 2>&1; then
    healthy=1
    break
  fi
  [[ $(lqe_podman inspect --format '{{.State.Running}}' supabase-analytics 2>/dev/null) == true ]] ||
    fail "the analytics container is not running"
  sleep 0.5
done
[[ $healthy == 1 ]] || fail "the override's healthcheck never passed"
say "analytics (lqe) is healthy"
image=$(lqe_podman inspect --format '{{.ImageName}}' supabase-analytics)
[[ $image == "$LQE_IMAGE" ]] || fail "analytics runs $image, not $LQE_IMAGE"

URL=http://127.0.0.1:$LQE_TEST_PORT
[[ $(curl -s -o /dev/null -w '%{http_code}' "$URL/health") == 200 ]] || fail "/health is not 200"

# The dependent service is started by compose once analytics is up.
running=""
for _ in $(seq 1 60); do
  running=$(lqe_podman inspect --format '{{.State.Running}}' supabase-dependent 2>/dev/null || true)
  [[ $running == true ]] && break
  sleep 0.5
done
[[ $running == true ]] || fail "the service depending on analytics did not start"
# Vector's and Studio's URL, from inside the stack's network.
code=$(lqe_podman exec supabase-dependent curl -s -o /dev/null -w '%{http_code}' \
  http://analytics:4000/health || true)
[[ $code == 200 ]] || fail "http://analytics:4000/health from another service answered '$code'"
say "http://analytics:4000 answers inside the stack's network"

# Vector's batch, with the .env's public token in the query string as the stack's vector.yml does.
jq -c -s --arg now "$(date -u +%Y-%m-%dT%H:%M:%S.000000Z)" 'map(.timestamp = $now)' \
  tests/fixtures/ingest/auth.ndjson >"$TMP/batch.json"
sent=$(jq length "$TMP/batch.json")
code=$(curl -s -o "$TMP/ingest.out" -w '%{http_code}' -H 'Content-Type: application/json' \
  --data-binary @"$TMP/batch.json" \
  "$URL/api/logs?source_name=gotrue.logs.prod&api_key=$LOGFLARE_PUBLIC_ACCESS_TOKEN")
[[ $code == 200 ]] || fail "ingest answered $code: $(cat "$TMP/ingest.out")"
count=""
for _ in $(seq 1 40); do
  curl -s -G -H "Authorization: Bearer $LOGFLARE_PRIVATE_ACCESS_TOKEN" \
    --data-urlencode project=default --data-urlencode 'sql=select count(*) as n from auth_logs' \
    "$URL/api/endpoints/query/logs.all" >"$TMP/query.out"
  count=$(jq -r '.result[0].n // empty' "$TMP/query.out" 2>/dev/null || true)
  [[ $count == "$sent" ]] && break
  sleep 0.25
done
[[ $count == "$sent" ]] ||
  fail "logs.all counted '$count' auth events, expected $sent: $(head -c 400 "$TMP/query.out")"
say "ingested $sent events with the public token and read them back with the private one"

keep_log=0
say "passed"
