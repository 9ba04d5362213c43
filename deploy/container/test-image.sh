#!/usr/bin/env bash
# The container image test, with no registry: a debian:12-slim equivalent built from Debian's
# archive with mmdebstrap (cached in ~/.cache/lqe/), imported and tagged debian:12-slim; the
# unchanged Dockerfile built with podman (from build/lqe by default, the full multi-stage build
# with --full); the image run against a throwaway PostgreSQL with the environment self-hosted
# Supabase's compose stack gives its analytics service. Checks: the image's HEALTHCHECK,
# /health, a Vector-shaped ingest with the public token and a logs.all query with the private
# token. When containers cannot run here the test fails; it never skips.
# Usage: deploy/container/test-image.sh [--full]
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh
source deploy/lib/podman.sh

started=$SECONDS
say() { echo "test-image: [$((SECONDS - started))s] $*"; }
fail() {
  echo "test-image: FAILED: $*" >&2
  exit 1
}

for tool in podman mmdebstrap runc curl jq; do
  command -v "$tool" >/dev/null || fail "$tool is missing (deploy/install-deps.sh --image)"
done

# 1. The base image. The tarball is what `debian:12-slim` is: bookworm's minbase with the
# documentation, man pages and translations left out.
BASE=localhost/debian:12-slim
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/lqe
TARBALL=$CACHE/debian-12-slim.tar
if ! lqe_podman image exists "$BASE"; then
  if [[ ! -s $TARBALL ]]; then
    say "building $TARBALL with mmdebstrap (a few minutes, once)"
    mkdir -p "$CACHE"
    mmdebstrap --variant=minbase --quiet \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' \
      --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
      bookworm "$TARBALL.tmp" http://deb.debian.org/debian \
      || fail "mmdebstrap could not build the base image"
    mv "$TARBALL.tmp" "$TARBALL"
  fi
  say "importing $TARBALL as $BASE"
  lqe_podman import --change 'CMD ["bash"]' "$TARBALL" "$BASE" >/dev/null
fi

# 2. The image.
IMAGE=localhost/lqe-test:latest
if [[ ${1:-} == --full ]]; then
  LQE_IMAGE=$IMAGE bash deploy/container/build-image.sh
else
  LQE_IMAGE=$IMAGE bash deploy/container/build-image.sh --prebuilt
fi
say "image built"

# 3. PostgreSQL as the stack has it: the _supabase database owned by supabase_admin.
TMP=$(mktemp -d /tmp/lqe-image-test.XXXXXX)
chmod 755 "$TMP"
CONTAINER=lqe-image-test-$$
cleanup() {
  lqe_podman logs "$CONTAINER" >"$TMP/container.log" 2>&1 || true
  if [[ ${keep_log:-0} == 1 ]]; then tail -40 "$TMP/container.log" >&2; fi
  lqe_podman rm -f "$CONTAINER" >/dev/null 2>&1 || true
  pg_cluster_stop "$TMP/pg" 2>/dev/null || true
  rm -rf "$TMP"
}
keep_log=1
trap cleanup EXIT INT TERM
PG_PORT=$(pg_free_port)
pg_cluster_init "$TMP/pg"
pg_cluster_start "$TMP/pg" "$PG_PORT"
PSQL=(/usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -qAt)
"${PSQL[@]}" -d postgres -c "CREATE ROLE supabase_admin LOGIN SUPERUSER PASSWORD 'pw-1'" \
  -c "CREATE DATABASE _supabase OWNER supabase_admin"

# 4. The container, with the analytics service's environment from the stack's
# docker-compose.yml (its .env values made up) plus what docker-compose.lqe.yml adds.
LQE_PORT=$(pg_free_port)
PUBLIC_TOKEN=public-token-$$
PRIVATE_TOKEN=private-token-$$
say "starting the container (lqe on 127.0.0.1:$LQE_PORT, PostgreSQL on $PG_PORT)"
lqe_podman_run -d --name "$CONTAINER" \
  -e LOGFLARE_NODE_HOST=127.0.0.1 \
  -e DB_USERNAME=supabase_admin -e DB_DATABASE=_supabase -e DB_HOSTNAME=127.0.0.1 \
  -e DB_PORT="$PG_PORT" -e DB_PASSWORD=pw-1 -e DB_SCHEMA=_analytics \
  -e LOGFLARE_PUBLIC_ACCESS_TOKEN="$PUBLIC_TOKEN" -e LOGFLARE_PRIVATE_ACCESS_TOKEN="$PRIVATE_TOKEN" \
  -e LOGFLARE_SINGLE_TENANT=true -e LOGFLARE_SUPABASE_MODE=true \
  -e POSTGRES_BACKEND_URL="postgresql://supabase_admin:pw-1@127.0.0.1:$PG_PORT/_supabase" \
  -e POSTGRES_BACKEND_SCHEMA=_analytics -e LOGFLARE_FEATURE_FLAG_OVERRIDE=multibackend=true \
  -e LQE_MIGRATE=1 -e LQE_LISTEN="127.0.0.1:$LQE_PORT" \
  "$IMAGE" >/dev/null || fail "containers cannot run on this machine (podman run failed)"

# The image's own HEALTHCHECK (lqe health), as compose's service_healthy waits for it.
healthy=0
deadline=$((SECONDS + 120))  # migrating a fresh database takes a while on a loaded machine
while ((SECONDS < deadline)); do
  if lqe_podman healthcheck run "$CONTAINER" >/dev/null 2>&1; then
    healthy=1
    break
  fi
  [[ $(lqe_podman inspect --format '{{.State.Running}}' "$CONTAINER") == true ]] ||
    fail "the container exited"
  sleep 0.5
done
[[ $healthy == 1 ]] || fail "the image's HEALTHCHECK never passed"
say "HEALTHCHECK passes"

URL=http://127.0.0.1:$LQE_PORT
[[ $(curl -s -o /dev/null -w '%{http_code}' "$URL/health") == 200 ]] || fail "/health is not 200"
user=$(lqe_podman exec "$CONTAINER" id -un)
[[ $user == lqe ]] || fail "the container runs as $user, not lqe"

# A Vector batch as the stack's vector.yml sends it: a JSON array of events, the token in the
# query string. Timestamps are moved to now (partitions exist around today).
jq -c -s --arg now "$(date -u +%Y-%m-%dT%H:%M:%S.000000Z)" 'map(.timestamp = $now)' \
  tests/fixtures/ingest/auth.ndjson >"$TMP/batch.json"
sent=$(jq length "$TMP/batch.json")
code=$(curl -s -o "$TMP/ingest.out" -w '%{http_code}' -H 'Content-Type: application/json' \
  --data-binary @"$TMP/batch.json" \
  "$URL/api/logs?source_name=gotrue.logs.prod&api_key=$PUBLIC_TOKEN")
[[ $code == 200 ]] || fail "ingest answered $code: $(cat "$TMP/ingest.out")"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
  --data-binary @"$TMP/batch.json" "$URL/api/logs?source_name=gotrue.logs.prod&api_key=wrong")
[[ $code == 401 ]] || fail "ingest with a wrong token answered $code, not 401"
say "ingested $sent events"

# logs.all as Studio queries it, with the private token; ingest commits in the background.
count=""
for _ in $(seq 1 40); do
  count=$(curl -s -G -H "Authorization: Bearer $PRIVATE_TOKEN" \
    --data-urlencode project=default \
    --data-urlencode 'sql=select count(*) as n from auth_logs' \
    "$URL/api/endpoints/query/logs.all" | jq -r '.result[0].n // empty')
  [[ $count == "$sent" ]] && break
  sleep 0.25
done
[[ $count == "$sent" ]] || fail "logs.all counted '$count' auth events, expected $sent"
say "logs.all returns the $sent events"

keep_log=0
size=$(lqe_podman image inspect --format '{{.Size}}' "$IMAGE")
base_size=$(lqe_podman image inspect --format '{{.Size}}' "$BASE")
say "passed (image $((size / 1000000)) MB, of which the base $((base_size / 1000000)) MB)"
