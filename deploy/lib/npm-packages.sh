#!/usr/bin/env bash
# Shared by the installers of npm-based test tools (install-oracle.sh, install-ingest-clients.sh).
# Source it, then call: npm_packages_install <who> <dir with package-lock.json>
#   - installs node and npm from Debian's archive when the commands are missing. Commands, not
#     packages: a node that bundles its own npm (as some images ship) is enough, and Debian's npm
#     package would conflict with it;
#   - runs `npm ci` in <dir> when its node_modules is missing or older than the lock.

npm_packages_install() {
  local who=$1 dir=$2
  local missing=()
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
  if ((${#missing[@]} > 0)); then
    echo "$who: installing ${missing[*]} from Debian"
    local sudo=""
    if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi

  local stamp=$dir/node_modules/.package-lock.json
  if [[ ! -f $stamp || $dir/package-lock.json -nt $stamp ]]; then
    echo "$who: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund)
  else
    echo "$who: $dir/node_modules up to date"
  fi
}
