#!/usr/bin/env bash
# One version number: CMakeLists.txt's project(VERSION) must be debian/changelog's newest entry.
# Prints it. Usage: deploy/package/check-version.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake_version=$(sed -n 's/^project(lqe VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
deb_version=$(dpkg-parsechangelog -S Version)
if [[ -z $cmake_version || $cmake_version != "$deb_version" ]]; then
  echo "check-version: CMakeLists.txt says '$cmake_version', debian/changelog '$deb_version':" \
    "add a debian/changelog entry (dch -v $cmake_version)" >&2
  exit 1
fi
echo "$cmake_version"
