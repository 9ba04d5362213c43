#!/usr/bin/env bash
# Style gate: every tracked C++ file is formatted as the root .clang-format says. Fails when
# clang-format is missing (deploy/install-deps.sh --test installs it) or reports any file.
# Usage: deploy/lib/check-format.sh [source root]
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"

if ! command -v clang-format >/dev/null; then
  echo "check-format: clang-format not found (run deploy/install-deps.sh --test)" >&2
  exit 1
fi
mapfile -d '' files < <(git ls-files -z '*.cpp' '*.h' '*.cc' '*.hpp')
if ((${#files[@]} == 0)); then
  echo "check-format: no C++ files found" >&2
  exit 1
fi
# --Werror turns every would-be change into an error and a non-zero exit.
if ! out=$(printf '%s\0' "${files[@]}" | xargs -0 clang-format --dry-run --Werror 2>&1); then
  echo "check-format: files not formatted with clang-format (fix: clang-format -i FILE):" >&2
  printf '%s\n' "$out" | grep -oE '^[^:]+:[0-9]+:[0-9]+: error' | cut -d: -f1 | sort -u >&2
  # Not a formatting report at all (e.g. a crash): show it as it came.
  printf '%s\n' "$out" | grep -q ': error: code should be clang-formatted' ||
    printf '%s\n' "$out" | head -n 20 >&2
  exit 1
fi
echo "check-format: ${#files[@]} C++ files formatted"
