#!/usr/bin/env bash
# Fails when a tracked source file names a path that exists only on some machine: a user's or a
# workplace's directory (home directories, work, mnt, opt, usr/local, ...) or a fixed file in the
# temp dir. The build, the tests and the scripts must work from any fresh clone, so they reach
# their inputs relative to the checkout (tests: SourcePath, fixtures under tests/fixtures/).
# A temp path is allowed only as a mktemp/mkdtemp/mkstemp template (/tmp/NAME.XXXXXX), which
# names no existing file. Paths Debian itself defines (/usr/lib/..., /etc/..., /dev/null) are fine.
# Checked: C++, CMake, shell (by extension or shebang), CI files, yaml, sql, python, golden .test
# files and json fixtures. Usage: deploy/lib/check-machine-paths.sh [source root]
set -euo pipefail
ROOT=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -d '' files < <(git ls-files -z)
else
  # An exported tree without .git: every file outside build and state directories.
  mapfile -d '' files < <(find . -type f ! -path './build*' ! -path './var/*' ! -path './.git/*' \
    -printf '%P\0')
fi

source_kind() {
  local f=$1
  case "$f" in
    *.c | *.cc | *.cpp | *.cxx | *.h | *.hh | *.hpp | *.def | *.cmake | */CMakeLists.txt | \
      CMakeLists.txt | *.sh | *.bash | *.yaml | *.yml | *.sql | *.py | *.test | *.json | \
      .ci/* | .clang-tidy | .clang-format | .gitignore)
      return 0 ;;
  esac
  # Extensionless scripts: judged by their shebang.
  [[ -f $f ]] && head -c 2 "$f" 2>/dev/null | grep -q '^#!'
}

# A machine directory at the start of a path: not preceded by a character that would make it
# part of a relative path, a URL path or a variable ("$X/home" and "a/mnt" are fine).
machine_dirs='work|root|home|Users|mnt|media|srv|opt|scratch|private|var/tmp|usr/local|tmp'
pattern="(?<![A-Za-z0-9_.~\$}/-])/($machine_dirs)(?=/|\\b|\$)"
# The one allowed form: a temp-file template on a line that creates it.
template='/t[m]p/[A-Za-z0-9._-]*XXXXXX'  # [m]: this line must not match itself

checked=0
found=0
for f in "${files[@]}"; do
  [[ -f $f ]] || continue
  source_kind "$f" || continue
  checked=$((checked + 1))
  while IFS= read -r hit; do
    line=${hit#*:}
    if [[ $line =~ (mktemp|mkdtemp|mkstemp) ]]; then
      # Drop the allowed templates; anything machine-specific left on the line still counts.
      rest=$(printf '%s' "$line" | sed -E "s#$template##g")
      printf '%s' "$rest" | grep -qP "$pattern" || continue
    fi
    echo "$f:$hit"
    found=$((found + 1))
  done < <(grep -nP "$pattern" "$f" || true)
done

if ((checked == 0)); then
  echo "check-machine-paths: no source files found under $ROOT" >&2
  exit 1
fi
if ((found > 0)); then
  echo "check-machine-paths: $found line(s) above name a machine-specific absolute path;" \
    "use a path relative to the checkout (fixtures under tests/fixtures/) or a mktemp template" >&2
  exit 1
fi
echo "check-machine-paths: $checked tracked source files name no machine-specific path"
