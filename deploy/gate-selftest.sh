#!/usr/bin/env bash
# Shows that each gate of deploy/test.sh fires: on a scratch clone of the committed checkout it
# plants each problem in turn and expects the gate to fail, and checks that the clean clone
# passes. Needs the test packages (deploy/install-deps.sh --test); builds nothing (a configure
# gives clang-tidy its compile_commands.json). Takes about a minute.
# Usage: deploy/gate-selftest.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SCRATCH=$(mktemp -d /tmp/lqe-gate-selftest.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT
failures=0

# expect pass|fail WHAT REASON COMMAND...: runs COMMAND in the scratch clone; it must exit zero
# (pass) or non-zero (fail), and its output must match the extended regex REASON, so a gate
# failing for another reason (a missing file, a typo) does not count.
expect() {
  local want=$1 what=$2 reason=$3
  shift 3
  local status=0
  (cd "$SCRATCH/repo" && "$@") >"$SCRATCH/out" 2>&1 || status=$?
  if { [[ $want == fail && $status -ne 0 ]] || [[ $want == pass && $status -eq 0 ]]; } &&
    { [[ -z $reason ]] || grep -qE -- "$reason" "$SCRATCH/out"; }; then
    echo "gate-selftest: ok    $what (exit $status)"
  else
    echo "gate-selftest: WRONG $what: expected to $want with /$reason/, exit $status" >&2
    tail -n 20 "$SCRATCH/out" >&2
    failures=$((failures + 1))
  fi
}
fresh_clone() {
  rm -rf "$SCRATCH/repo"
  git clone -q "$ROOT" "$SCRATCH/repo"
  git -C "$SCRATCH/repo" config user.name gate-selftest
  git -C "$SCRATCH/repo" config user.email gate-selftest@lqe.local
}
commit_all() { git -C "$SCRATCH/repo" add -A && git -C "$SCRATCH/repo" commit -qm "$1"; }
# A PATH on which every program but clang-format and clang-tidy is found.
without_clang_tools() {
  local bin=$SCRATCH/bin-without-clang-tools
  if [[ ! -d $bin ]]; then
    mkdir -p "$bin"
    for tool in /usr/bin/*; do
      case "$(basename "$tool")" in clang-format* | clang-tidy*) continue ;; esac
      ln -sf "$tool" "$bin/$(basename "$tool")"
    done
  fi
  PATH=$bin "$@"
}
configure() {  # build dir $1 of the scratch clone, with cmake args after it
  local dir=$1
  shift
  (cd "$SCRATCH/repo" && cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@")
}

fresh_clone
expect pass "machine paths: clean checkout" "name no machine-specific path" \
  bash deploy/lib/check-machine-paths.sh
expect pass "clang-format: clean checkout" "C\+\+ files formatted" bash deploy/lib/check-format.sh

# 1. An absolute machine path in a tracked source (the string is assembled so that this script
#    itself names none), and a fixed temp file; a mktemp template stays allowed.
machine_path="/wo""rk/shared/data/ingest-samples"
printf 'const char* kSamples = "%s";\n' "$machine_path" >"$SCRATCH/repo/tests/unit/planted.cpp"
commit_all "plant a machine path"
expect fail "machine paths: a path under the workplace in a .cpp" "planted.cpp:1:" \
  bash deploy/lib/check-machine-paths.sh
fresh_clone
printf 'out=/t''mp/lqe-output.txt\n' >"$SCRATCH/repo/deploy/planted.sh"
commit_all "plant a fixed temp file"
expect fail "machine paths: a fixed temp file in a .sh" "planted.sh:1:" \
  bash deploy/lib/check-machine-paths.sh
fresh_clone
printf 'dir=$(mktemp -d /t''mp/lqe-x.XXXXXX)\n' >"$SCRATCH/repo/deploy/planted.sh"
commit_all "plant a mktemp template"
expect pass "machine paths: a mktemp template is allowed" "name no machine" \
  bash deploy/lib/check-machine-paths.sh

# 2. clang-format: an unformatted file, and clang-format missing.
fresh_clone
printf 'int   planted ( ) {return 1 ;}\n' >"$SCRATCH/repo/tests/unit/planted.cpp"
commit_all "plant an unformatted file"
expect fail "clang-format: an unformatted file" "^tests/unit/planted.cpp$" \
  bash deploy/lib/check-format.sh
fresh_clone
expect fail "clang-format: clang-format missing" "clang-format not found" \
  without_clang_tools bash deploy/lib/check-format.sh

# 3. clang-tidy on the last commit only: a finding in a compiled file, and clang-tidy missing.
fresh_clone
configure build -DLQE_TESTS=ON >/dev/null
target=translator/src/pg/emit_ops.cpp
cat >>"$SCRATCH/repo/$target" <<'EOF'
namespace lqe {
int PlantedTidyFinding(int x) {
  if (x > 0)
    return x * 2 + x * 3 + x * 4 + x * 5 + x * 6 + x * 7 + x * 8 + x * 9 + x * 10 + x * 11;
  return 0;
}
}  // namespace lqe
EOF
commit_all "plant a clang-tidy finding"
expect fail "clang-tidy: a statement without braces" "readability-braces-around-statements" \
  env LQE_TIDY_COMMITS=1 \
  bash deploy/lib/check-tidy.sh build
git -C "$SCRATCH/repo" revert --no-edit HEAD >/dev/null
expect pass "clang-tidy: the same file clean" "1 files clean" env LQE_TIDY_COMMITS=1 \
  bash deploy/lib/check-tidy.sh build
expect fail "clang-tidy: clang-tidy missing" "clang-tidy not found" \
  without_clang_tools env LQE_TIDY_COMMITS=1 \
  bash deploy/lib/check-tidy.sh build

# 4. Test registration: a stale LQE_TESTS=OFF build has no tests, an unlisted test directory
#    stops the configure, and a build below the floor fails before running anything.
fresh_clone
configure build-notests -DLQE_TESTS=OFF >/dev/null
expect fail "ctest --no-tests=error on a build without tests" "No tests were found" \
  bash -c 'cd build-notests && ctest --no-tests=error'
expect fail "test-count floor on a build without tests" "registers 0 tests" \
  bash deploy/lib/run-ctest.sh build-notests 400 75
mkdir -p "$SCRATCH/repo/tests/planted"
echo 'add_test(NAME planted COMMAND true)' >"$SCRATCH/repo/tests/planted/CMakeLists.txt"
expect fail "an unlisted tests/ directory stops the configure" "add .planted. to LQE_TEST_AREAS" \
  \
  configure build-planted

# 5. test.sh itself: UPDATE_GOLDEN cleared, tests forced ON, fuzz run without the execute bit.
fresh_clone
expect pass "test.sh unsets UPDATE_GOLDEN" "" grep -qx 'unset UPDATE_GOLDEN' deploy/test.sh
expect pass "test.sh configures tests ON" "" grep -q 'deploy/build.sh -DLQE_TESTS=ON' deploy/test.sh
expect pass "test.sh calls fuzz.sh through bash" "" grep -qE '^bash deploy/fuzz.sh' deploy/test.sh

if ((failures > 0)); then
  echo "gate-selftest: $failures gate(s) did not behave" >&2
  exit 1
fi
echo "gate-selftest: every gate fired"
