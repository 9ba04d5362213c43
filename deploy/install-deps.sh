#!/usr/bin/env bash
# Installs the Debian packages lqe needs, when any are missing: to build and run it by default,
# plus what the tests and gates need with --test, the container image test with --image, the
# Debian package build with --package, and the load-test tools with --bench.
# Everything comes from Debian's archive; nothing is downloaded from anywhere else.
set -euo pipefail

# What building and running lqe needs (deploy/quickstart.sh installs only these).
BUILD_PACKAGES=(
  build-essential cmake pkg-config ccache
  libpqxx-dev libpq-dev
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev libboost-system1.81-dev
  libyaml-cpp-dev libspdlog-dev libfmt-dev libdeflate-dev libcli11-dev libre2-dev
  libcurl4-openssl-dev libprotobuf-dev protobuf-compiler
  postgresql-15 postgresql-client-15
  curl
)
# deploy/test.sh also needs: GoogleTest, Google Benchmark (the benchmarks must keep compiling),
# clang + libFuzzer runtime (deploy/fuzz.sh), clang-format and clang-tidy (style gates) and git
# (the gates list tracked files).
TEST_PACKAGES=(
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev clang-format clang-tidy
  git
)
# The container image test (deploy/container/test-image.sh): podman with runc (crun fails on
# some cgroup layouts), mmdebstrap to build the debian:12-slim base from Debian's archive, jq to
# shape the Vector batch it sends; podman-compose for the compose override test
# (deploy/supabase/test-compose.sh).
IMAGE_PACKAGES=(podman runc mmdebstrap uidmap jq podman-compose)
# The Debian package (deploy/package/build-deb.sh): dpkg-buildpackage and debhelper, lintian,
# systemd-analyze (systemd) to verify the units, adduser (its postinst).
PACKAGE_PACKAGES=(dpkg-dev debhelper lintian systemd adduser)
# Only for bench/ (load tests side by side with nginx; bench/volume/storage.sh's FS=btrfs).
BENCH_PACKAGES=(libbenchmark-dev wrk nginx-light btrfs-progs btrfs-compsize)

usage() {
  echo "usage: deploy/install-deps.sh [--test] [--image] [--package] [--bench]" >&2
  exit 2
}
want=("${BUILD_PACKAGES[@]}")
for arg in "$@"; do
  case "$arg" in
    --test) want+=("${TEST_PACKAGES[@]}") ;;
    --image) want+=("${IMAGE_PACKAGES[@]}") ;;
    --package) want+=("${PACKAGE_PACKAGES[@]}") ;;
    --bench) want+=("${BENCH_PACKAGES[@]}") ;;
    *) usage ;;
  esac
done

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
