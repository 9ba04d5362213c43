#!/usr/bin/env bash
# Shared by the installers of npm-based test tools (install-oracle.sh, install-ingest-clients.sh).
# Source it, then call: npm_packages_install <who> <dir with package-lock.json> [ci|install]
#   - installs node and npm from Debian's archive when the commands are missing. Commands, not
#     packages: a node that bundles its own npm (as some images ship) is enough, and Debian's npm
#     package would conflict with it;
#   - runs `npm ci` in <dir> when its node_modules is missing or older than the lock. With
#     `install`, runs `npm install --no-save` instead: it installs the same locked versions, but
#     tolerates optional platform packages the lock cannot list (chdb names one per platform, and a
#     registry that serves only Linux's leaves the others out of the lock, which `npm ci` refuses).

npm_packages_install() {
  local who=$1 dir=$2 mode=${3:-ci}
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
    if [[ $mode == install ]]; then
      echo "$who: npm install --no-save in $dir (locked versions)"
      (cd "$dir" && npm install --no-save --no-audit --no-fund)
      touch "$stamp"
    else
      echo "$who: npm ci in $dir"
      (cd "$dir" && npm ci --no-audit --no-fund)
    fi
  else
    echo "$who: $dir/node_modules up to date"
  fi
}
