#!/usr/bin/env bash
# Upgrade test: a database migrated and filled by the previous release (deploy/upgrade/
# previous-release) is migrated by this build's lqe and then answers the same queries with the
# same bytes. Steps:
#  1. builds the previous release's lqe (that target only) from a git worktree in a temp dir;
#     ccache with a base dir makes the unchanged files cache hits;
#  2. in a fresh database of the cluster in LQE_TEST_DSN: migrates it and loads the fixture events
#     with the old binary, serves them with the old binary and records the answers;
#  3. migrates the same database with this build's lqe (build/lqe, or LQE_BINARY), serves it with
#     the same config and compares every answer byte for byte.
# Usage: LQE_TEST_DSN=postgresql://postgres@127.0.0.1:PORT/postgres deploy/upgrade-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
NEW=${LQE_BINARY:-$ROOT/build/lqe}
: "${LQE_TEST_DSN:?set LQE_TEST_DSN to a superuser DSN of a throwaway cluster}"
[[ -x $NEW ]] || { echo "upgrade-test: $NEW is not built" >&2; exit 1; }

commit=$(sed -n 's/^commit=//p' deploy/upgrade/previous-release)
version=$(sed -n 's/^version=//p' deploy/upgrade/previous-release)
started=$SECONDS
say() { echo "upgrade-test: [$((SECONDS - started))s] $*"; }

TMP=$(mktemp -d /tmp/lqe-upgrade.XXXXXX)
DB=lqe_upgrade_$$
OLD_PID=
NEW_PID=
cleanup() {
  for pid in $OLD_PID $NEW_PID; do kill "$pid" 2>/dev/null || true; done
  psql "$LQE_TEST_DSN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  git -C "$ROOT" worktree remove --force "$TMP/src" >/dev/null 2>&1 || true
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

say "building lqe $version ($commit) in $TMP/src"
git -C "$ROOT" worktree add --detach "$TMP/src" "$commit" >/dev/null
(
  cd "$TMP/src"
  export CCACHE_BASEDIR=$TMP/src CCACHE_NOHASHDIR=1
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLQE_TESTS=OFF -DLQE_BENCH=OFF \
    -DLQE_SANITIZE=OFF >"$TMP/build.log" 2>&1 &&
    cmake --build build --target lqe -j"$(nproc)" >>"$TMP/build.log" 2>&1
) || {
  tail -50 "$TMP/build.log" >&2
  echo "upgrade-test: building $commit failed" >&2
  exit 1
}
OLD=$TMP/src/build/lqe
say "built $($OLD --version)"

psql "$LQE_TEST_DSN" -qc "CREATE DATABASE $DB" >/dev/null
DSN=${LQE_TEST_DSN%/*}/$DB

say "migrate and load with $version"
"$OLD" migrate --dsn "$DSN" >/dev/null
for file in "$TMP"/src/tests/fixtures/*.ndjson; do
  "$OLD" load --dsn "$DSN" --source "$(basename "$file" .ndjson)" "$file" >>"$TMP/load.log" 2>&1
done

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
KEY=upgrade-test-key
cat >"$TMP/gw.yaml" <<YAML
listen: 127.0.0.1:$PORT
database:
  dsn: $DSN
  pool_size: 2
endpoints_dir: $TMP/src/sql
api_keys:
  - name: upgrade
    sha256: $(printf %s "$KEY" | sha256sum | cut -d' ' -f1)
    endpoints: ['*']
YAML

# The questions: the listing, time ranges, and callers' SQL over every source's CTE.
QUERIES=(
  "logs.all?project=default"
  "logs.all?project=default&iso_timestamp_start=2025-01-15T10:00:30Z&iso_timestamp_end=2025-01-15T12:00:00Z"
  "logs.all?project=default&sql=select count(*) as n, min(timestamp) as first, max(timestamp) as last from edge_logs"
  "logs.all?project=default&sql=select id, event_message from postgres_logs order by timestamp, id"
  "logs.all?project=default&sql=select r.method, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r group by r.method order by r.method"
  "logs.all?project=default&sql=select count(*) as n from auth_logs"
  "logs.all?project=default&sql=select count(*) as n from function_edge_logs"
  "usage.api-counts?project=default&interval=hourly"
)

serve_and_ask() {  # binary, output dir; sets the pid variable named by $3
  local binary=$1 out=$2
  mkdir -p "$out"
  "$binary" serve --config "$TMP/gw.yaml" >"$out/serve.log" 2>&1 &
  local pid=$!
  eval "$3=$pid"
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break
    sleep 0.1
  done
  local i=0
  for query in "${QUERIES[@]}"; do
    local path=${query%%\?*} args=${query#*\?}
    local curl_args=()
    IFS='&' read -ra pairs <<<"$args"
    for pair in "${pairs[@]}"; do curl_args+=(--data-urlencode "$pair"); done
    curl -s -G -H "X-API-KEY: $KEY" -H 'Accept-Encoding: identity' -o "$out/$i.json" \
      -w '%{http_code}\n' "${curl_args[@]}" "http://127.0.0.1:$PORT/api/endpoints/query/$path" \
      >"$out/$i.status"
    i=$((i + 1))
  done
  kill "$pid"
  wait "$pid" || true
}

say "answers of $version"
serve_and_ask "$OLD" "$TMP/old" OLD_PID
OLD_PID=
for status in "$TMP"/old/*.status; do
  if [[ $(cat "$status") != 200 ]]; then
    echo "upgrade-test: $version answered $(cat "$status") to query $(basename "$status" .status)" >&2
    cat "$TMP/old/$(basename "$status" .status).json" >&2
    exit 1
  fi
done

say "migrate with this build ($("$NEW" --version))"
"$NEW" migrate --dsn "$DSN"

say "answers of this build"
serve_and_ask "$NEW" "$TMP/new" NEW_PID
NEW_PID=
failed=0
for ((i = 0; i < ${#QUERIES[@]}; i++)); do
  if ! cmp -s "$TMP/old/$i.status" "$TMP/new/$i.status" || ! cmp -s "$TMP/old/$i.json" "$TMP/new/$i.json"; then
    echo "upgrade-test: different answer to ${QUERIES[$i]}" >&2
    echo "  before ($(cat "$TMP/old/$i.status")): $(head -c 400 "$TMP/old/$i.json")" >&2
    echo "  after  ($(cat "$TMP/new/$i.status")): $(head -c 400 "$TMP/new/$i.json")" >&2
    failed=1
  fi
done
[[ $failed == 0 ]] || exit 1
rows=$(grep -o '"n":[0-9]*' "$TMP/new/2.json" | head -1)
say "passed: ${#QUERIES[@]} answers identical after the upgrade ($rows edge events)"
