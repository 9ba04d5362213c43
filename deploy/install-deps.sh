#!/usr/bin/env bash
# Installs the Debian packages lqe needs to build, test and run, when any are missing.
# Everything comes from Debian's archive; nothing is downloaded from anywhere else.
set -euo pipefail

BUILD_PACKAGES=(
  build-essential cmake pkg-config ccache
  libpqxx-dev libpq-dev
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev libboost-system1.81-dev
  libyaml-cpp-dev libspdlog-dev libfmt-dev libdeflate-dev libcli11-dev libre2-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  postgresql-15 postgresql-client-15
  clang libclang-rt-14-dev
  curl
)
# Only for bench/ (load tests side by side with nginx); installed with --bench.
BENCH_PACKAGES=(wrk nginx-light)

want=("${BUILD_PACKAGES[@]}")
if [[ "${1:-}" == "--bench" ]]; then want+=("${BENCH_PACKAGES[@]}"); fi

missing=()
for pkg in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#want[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# postgresql-common would otherwise create and start a system cluster; lqe never uses one.
if [[ ! -e /etc/postgresql-common/createcluster.conf ]]; then
  $SUDO mkdir -p /etc/postgresql-common
  echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.conf >/dev/null
fi
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
