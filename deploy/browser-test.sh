#!/usr/bin/env bash
# The web console in a real browser (tests/browser/console.test.js): Debian's headless Chromium,
# driven by puppeteer-core, against build/lqe serve on a fresh database of the throwaway cluster
# (LQE_TEST_DSN; else its own cluster), with events posted over HTTP. Screenshots (PNG) and the
# measured figures (first paint, asset sizes, tail latency) go to build/browser-artifacts/.
# Builds and installs nothing: run deploy/build.sh and deploy/install-browser-test.sh first.
# Fails, never skips, when chromium, node, puppeteer-core or build/lqe is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source deploy/lib/pg-cluster.sh
source deploy/lib/scratch-db.sh
source deploy/lib/serve-lqe.sh

fail() { echo "browser-test.sh: $*" >&2; exit 1; }
CHROMIUM=${LQE_CHROMIUM:-/usr/bin/chromium}
[[ -x $CHROMIUM ]] || fail "$CHROMIUM is missing (run deploy/install-browser-test.sh)"
command -v node >/dev/null || fail "node is missing (run deploy/install-browser-test.sh)"
[[ -f tests/browser/node_modules/puppeteer-core/package.json ]] ||
  fail "the npm package puppeteer-core is missing (run deploy/install-browser-test.sh)"
[[ -x build/lqe ]] || fail "build/lqe is missing (run deploy/build.sh)"

WORK=$(mktemp -d /tmp/lqe-browser.XXXXXX)
chmod 755 "$WORK"
SERVE_PID=""
DB=lqe_browser_$$
cleanup() {
  if [[ -n $SERVE_PID ]]; then kill "$SERVE_PID" 2>/dev/null || true; wait "$SERVE_PID" 2>/dev/null || true; fi
  scratch_db_drop "$WORK" "$DB"
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

scratch_db_create "$WORK" "$DB" || fail "no scratch database"
KEY=$(build/lqe keygen --sha256-file "$WORK/key.sha256" | awk '/^api_key:/ {print $2}')
[[ -n $KEY ]] || fail "lqe keygen printed no key"
build/lqe migrate --dsn "$DSN" --gateway-role "lqe_gateway_$DB" --ingest-role "lqe_ingest_$DB" \
  >"$WORK/migrate.log" 2>&1 || { cat "$WORK/migrate.log" >&2; fail "lqe migrate failed"; }

write_config() {
  sed -e "s|@LISTEN@|127.0.0.1:$1|" \
    -e "s|@DSN@|postgresql://lqe_gateway_$DB@$SERVER/$DB|" \
    -e "s|@INGEST_DSN@|postgresql://lqe_ingest_$DB@$SERVER/$DB|" \
    -e "s|@KEY_FILE@|$WORK/key.sha256|" -e "s|@ENDPOINTS_DIR@|$ROOT/sql|" \
    tests/browser/lqe.yaml.in >"$WORK/lqe.yaml"
}
serve_lqe_start write_config "$WORK" || fail "lqe serve did not become ready"

ARTIFACTS=$ROOT/build/browser-artifacts
rm -rf "$ARTIFACTS"
mkdir -p "$ARTIFACTS"
status=0
LQE_URL="http://127.0.0.1:$LQE_PORT" LQE_KEY=$KEY LQE_CHROMIUM=$CHROMIUM \
  LQE_ARTIFACTS=$ARTIFACTS timeout 300 node --test --test-reporter=spec tests/browser/console.test.js || status=$?
if ((status != 0)); then
  echo "browser-test.sh: lqe serve's log:" >&2
  tail -n 50 "$WORK/serve.log" >&2
  fail "the browser test failed (screenshots in $ARTIFACTS)"
fi
