#!/usr/bin/env bash
# The README's second command: installs what is missing, builds, starts a throwaway PostgreSQL 15
# cluster on a free port in a temp dir, runs every test (unit, integration, fuzz smoke), and
# stops the cluster even on failure. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh

bash deploy/install-deps.sh

# Style gate: every tracked C++ file is clang-formatted (.clang-format at the root).
unformatted=$(git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run 2>&1 | grep -o '^[^:]*:[0-9]*:[0-9]*: warning' | cut -d: -f1 | sort -u || true)
if [[ -n $unformatted ]]; then
  echo "test.sh: files not formatted with clang-format:" >&2
  echo "$unformatted" >&2
  exit 1
fi

bash deploy/build.sh

TMP=$(mktemp -d /tmp/lqe-test.XXXXXX)
chmod 755 "$TMP"
cleanup() {
  pg_cluster_stop "$TMP/pg"
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

PORT=$(pg_free_port)
pg_cluster_init "$TMP/pg"
pg_cluster_start "$TMP/pg" "$PORT"
export LQE_TEST_DSN="postgresql://postgres@127.0.0.1:$PORT/postgres"
echo "test.sh: throwaway cluster on 127.0.0.1:$PORT"

cd build
ctest --output-on-failure -j"$(nproc)" --timeout 600
cd "$ROOT"

# Oracle suite (tests/oracle): lqe against the ZetaSQL reference evaluator, a fresh database in
# the throwaway cluster. Installs node/npm (Debian) and the locked npm packages when missing.
bash deploy/install-oracle.sh
bash deploy/oracle.sh

# Fuzz smoke: libFuzzer targets built with clang, each run for a short fixed time.
if [[ -x deploy/fuzz.sh ]]; then
  bash deploy/fuzz.sh --seconds "${LQE_FUZZ_SECONDS:-20}"
fi
