#!/usr/bin/env bash
# Tidy gate: runs clang-tidy (the root .clang-tidy, every warning an error) on the C++ files
# changed by the last N commits (LQE_TIDY_COMMITS, default 10) plus uncommitted changes, using
# BUILD_DIR/compile_commands.json. A changed header brings in the .cpp of the same name beside
# it. The set depends only on the checkout, so a fresh clone of main checks the same files.
# Fails when clang-tidy is missing, when it reports anything, or when it cannot process a file.
# Usage: deploy/lib/check-tidy.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:?usage: check-tidy.sh BUILD_DIR}
COMMITS=${LQE_TIDY_COMMITS:-10}

if ! command -v clang-tidy >/dev/null; then
  echo "check-tidy: clang-tidy not found (run deploy/install-deps.sh --test)" >&2
  exit 1
fi
if [[ ! -f $BUILD/compile_commands.json ]]; then
  echo "check-tidy: $BUILD/compile_commands.json missing (configure the build first)" >&2
  exit 1
fi
# HEAD~N, or the first commit when the history is shorter.
base=$(git rev-list --max-count="$((COMMITS + 1))" HEAD | tail -n 1)

mapfile -t changed < <(git diff --name-only --diff-filter=ACMR "$base" -- \
  '*.cpp' '*.cc' '*.h' '*.hpp' | sort -u)
declare -A wanted=()
for f in "${changed[@]}"; do
  case "$f" in
    *.h | *.hpp) [[ -f ${f%.*}.cpp ]] && wanted[${f%.*}.cpp]=1 ;;
    *) wanted[$f]=1 ;;
  esac
done

# Only translation units of this build: the fuzz targets (clang build) are compiled elsewhere.
compiled=$(grep -oE '"file": *"[^"]+"' "$BUILD/compile_commands.json" | sed -E 's/.*"([^"]+)"$/\1/')
files=()
skipped=()
for f in "${!wanted[@]}"; do
  if grep -qxF "$PWD/$f" <<<"$compiled"; then files+=("$f"); else skipped+=("$f"); fi
done
if ((${#skipped[@]} > 0)); then
  echo "check-tidy: not compiled in $BUILD, not checked: ${skipped[*]}"
fi
if ((${#files[@]} == 0)); then
  echo "check-tidy: no C++ file changed in the last $COMMITS commits"
  exit 0
fi

mapfile -t files < <(printf '%s\n' "${files[@]}" | sort)
echo "check-tidy: ${#files[@]} files changed since $(git rev-parse --short "$base")"
start=$SECONDS
log=$(mktemp /tmp/lqe-tidy.XXXXXX)
trap 'rm -f "$log"' EXIT
# The build's flags are GCC's: clang must not stop on the GCC-only warning options.
if ! printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$(nproc)" \
    clang-tidy -p "$BUILD" --quiet --extra-arg=-Wno-unknown-warning-option >"$log" 2>&1; then
  grep -vE '^[0-9]+ warnings?( and [0-9]+ errors?)? generated\.$|^Suppressed [0-9]+ warnings' \
    "$log" >&2 || true
  echo "check-tidy: clang-tidy reported errors (above) in $((SECONDS - start))s" >&2
  exit 1
fi
echo "check-tidy: ${#files[@]} files clean in $((SECONDS - start))s"
