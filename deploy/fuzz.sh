#!/usr/bin/env bash
# Fuzz smoke run: builds every tests/fuzz/fuzz_*.cpp with clang and libFuzzer (+ASan/UBSan) in
# build-fuzz/ (the translator, the gateway library and the fuzz targets), then runs each for N
# seconds on a copy of its seed corpus tests/fuzz/corpus/<name without fuzz_>/, with
# tests/fuzz/<target>.dict when present (fuzz_parse also gets sql/*.sql).
# Fails on any crash, leak or timeout.
# Usage: deploy/fuzz.sh [--seconds N] [--only TARGET]... (default 20 s per target)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_PER_TARGET=20
only=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) SECONDS_PER_TARGET="$2"; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found" >&2; exit 1; }

BUILD="$ROOT/build-fuzz"
# -fno-sanitize=function: clang 14's UBSan function check cannot compile the gateway's
# coroutines ("Cannot represent a difference across sections", llvm-project issue 49689).
SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=function -fno-sanitize-recover=all"
SAN+=" -fno-omit-frame-pointer"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DLQE_FUZZ=ON -DLQE_WERROR=OFF -DLQE_TESTS=OFF -DLQE_BENCH=OFF \
  -DCMAKE_CXX_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null

targets=()
for src in "$ROOT"/tests/fuzz/fuzz_*.cpp; do
  [[ -e "$src" ]] || continue
  name=$(basename "$src" .cpp)
  if ((${#only[@]} > 0)) && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  targets+=("$name")
done
if [[ ${#targets[@]} -eq 0 ]]; then
  echo "fuzz.sh: no fuzz targets" >&2
  exit 1
fi
if ! nice -n 10 cmake --build "$BUILD" -j2 --target "${targets[@]}" >"$BUILD/build.log" 2>&1; then
  grep -E "error|Error" -A5 "$BUILD/build.log" | head -n 60 >&2
  echo "fuzz.sh: build failed (full log: build-fuzz/build.log)" >&2
  exit 1
fi

WORK=$(mktemp -d /tmp/lqe-fuzz.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
status=0
for t in "${targets[@]}"; do
  seeds="$ROOT/tests/fuzz/corpus/${t#fuzz_}"
  mkdir -p "$WORK/$t/corpus" "$WORK/$t/artifacts"
  # The stored endpoints' queries seed the SQL parser from sql/ itself, not from copies.
  if [[ $t == fuzz_parse ]]; then cp "$ROOT"/sql/*.sql "$WORK/$t/corpus/"; fi
  args=("$WORK/$t/corpus")
  [[ -d "$seeds" ]] && args+=("$seeds")
  dict="$ROOT/tests/fuzz/$t.dict"
  [[ -f "$dict" ]] && args=(-dict="$dict" "${args[@]}")
  echo "fuzz.sh: $t for ${SECONDS_PER_TARGET}s"
  if ! "$BUILD/tests/fuzz/$t" -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$WORK/$t/artifacts/" \
      "${args[@]}" 2>"$WORK/$t/log"; then
    status=1
    tail -n 60 "$WORK/$t/log" >&2
    mkdir -p "$ROOT/build-fuzz/crashes"
    cp -r "$WORK/$t/artifacts/." "$ROOT/build-fuzz/crashes/" 2>/dev/null || true
    echo "fuzz.sh: $t FAILED (reproducers in build-fuzz/crashes/)" >&2
  else
    grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$WORK/$t/log" | tail -n 2 || true
  fi
done
exit $status
