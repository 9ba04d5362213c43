#!/usr/bin/env bash
# Tidy gate: runs clang-tidy (the root .clang-tidy, every warning an error) on the C++ files
# changed by the last N commits (LQE_TIDY_COMMITS, default 10) plus uncommitted changes, using
# BUILD_DIR/compile_commands.json. A changed header brings in the .cpp of the same name beside
# it. The set depends only on the checkout, so a fresh clone of main checks the same files.
# Fails when clang-tidy is missing, when it reports anything, or when it cannot process a file.
# A file that passed before with the same key (tidy-cache-key.py: clang-tidy version, config,
# compile command and the content of everything it includes) is not checked again; the keys
# live in ${XDG_CACHE_HOME:-~/.cache}/lqe/tidy (LQE_TIDY_CACHE=0 checks every file).
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
start=$SECONDS
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/lqe/tidy
mkdir -p "$CACHE"
todo=()
keys=()
cached=0
while read -r key file; do
  if [[ ${LQE_TIDY_CACHE:-1} != 0 && -f $CACHE/$key ]]; then
    cached=$((cached + 1))
  else
    todo+=("$file")
    keys+=("$key")
  fi
done < <(python3 deploy/lib/tidy-cache-key.py "$BUILD" "${files[@]}")
echo "check-tidy: ${#files[@]} files changed since $(git rev-parse --short "$base"):" \
  "$cached passed before with the same key, ${#todo[@]} to check"
if ((${#todo[@]} == 0)); then
  exit 0
fi
log=$(mktemp -d /tmp/lqe-tidy.XXXXXX)
trap 'rm -rf "$log"' EXIT
# One clang-tidy per file, two at a time; a file's key is recorded only when it passed.
# The build's flags are GCC's: clang must not stop on the GCC-only warning options.
tidy_one() {
  local key=$1 file=$2
  if clang-tidy -p "$BUILD" --quiet --extra-arg=-Wno-unknown-warning-option "$file" \
      >"$log/$key" 2>&1; then
    touch "$CACHE/$key"
  else
    echo "$file" >"$log/$key.failed"
  fi
}
export -f tidy_one
export BUILD CACHE log
for i in "${!todo[@]}"; do printf '%s\0%s\0' "${keys[$i]}" "${todo[$i]}"; done |
  xargs -0 -n 2 -P "$(nproc)" bash -c 'tidy_one "$1" "$2"' _
if compgen -G "$log/*.failed" >/dev/null; then
  for failed in "$log"/*.failed; do
    grep -vhE '^[0-9]+ warnings?( and [0-9]+ errors?)? generated\.$|^Suppressed [0-9]+ warnings' \
      "${failed%.failed}" >&2 || true
  done
  echo "check-tidy: clang-tidy reported errors (above) in $(cat "$log"/*.failed | tr '\n' ' ')" \
    "after $((SECONDS - start))s" >&2
  exit 1
fi
echo "check-tidy: ${#todo[@]} files clean in $((SECONDS - start))s"
