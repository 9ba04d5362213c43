#!/usr/bin/env bash
# Runs every ctest test of a build dir, after checking that at least MIN tests (MIN_INTEGRATION
# of them labelled integration) are registered: a stale LQE_TESTS=OFF cache, an unregistered test
# directory or a failed discovery then fails the run instead of passing on what is left.
# ctest itself also refuses to pass on zero tests (--no-tests=error).
# Usage: deploy/lib/run-ctest.sh BUILD_DIR MIN MIN_INTEGRATION
set -euo pipefail
BUILD=${1:?usage: run-ctest.sh BUILD_DIR MIN MIN_INTEGRATION}
MIN=${2:?}
MIN_INTEGRATION=${3:?}
cd "$BUILD"

count_tests() {  # tests registered, all or with label $1
  local label_args=()
  [[ -n ${1:-} ]] && label_args=(-L "^$1\$")
  ctest -N "${label_args[@]}" | sed -n 's/^Total Tests: *//p'
}
total=$(count_tests)
integration=$(count_tests integration)
if ((${total:-0} < MIN || ${integration:-0} < MIN_INTEGRATION)); then
  echo "run-ctest: $BUILD registers ${total:-0} tests (${integration:-0} integration);" \
    "at least $MIN ($MIN_INTEGRATION integration) expected" >&2
  exit 1
fi
echo "run-ctest: $BUILD: $total tests ($integration integration)"
# LQE_CTEST_EXCLUDE: a ctest -E regex of tests known to fail in this build, each with its reason
# where the caller sets it (deploy/test.sh); the floors above still count them as registered.
exclude=()
if [[ -n ${LQE_CTEST_EXCLUDE:-} ]]; then
  exclude=(-E "$LQE_CTEST_EXCLUDE")
  echo "run-ctest: NOT RUN here (known failures): $LQE_CTEST_EXCLUDE"
fi
# LQE_CTEST_ONLY: a ctest -R regex, to run only those tests of this build (deploy/test.sh runs the
# tests the sanitizer build cannot run in the Release build); the floors still count them all.
if [[ -n ${LQE_CTEST_ONLY:-} ]]; then
  exclude+=(-R "$LQE_CTEST_ONLY")
  echo "run-ctest: only $LQE_CTEST_ONLY"
fi
# A GoogleTest suite whose SetUpTestSuite throws marks its tests SKIPPED, and ctest counts a
# skipped test as not failed. lqe has no deliberately skipped test, so any skip fails the run.
log=$(mktemp /tmp/lqe-ctest.XXXXXX)
trap 'rm -f "$log"' EXIT
status=0
ctest --output-on-failure --no-tests=error -j"$(nproc)" --timeout "${LQE_CTEST_TIMEOUT:-600}" \
  "${exclude[@]}" 2>&1 | tee "$log" || status=$?
if grep -q '(Skipped)$' "$log"; then
  echo "run-ctest: tests were skipped (a failed suite set-up): failing the run" >&2
  grep '(Skipped)$' "$log" >&2
  exit 1
fi
exit "$status"
