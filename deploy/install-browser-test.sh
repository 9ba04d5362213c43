#!/usr/bin/env bash
# Installs what the console's browser test (deploy/browser-test.sh, tests/browser) drives:
# Debian's chromium (and a font for its text) when /usr/bin/chromium is missing, node and npm,
# then the locked puppeteer-core with `npm ci` in tests/browser (it never downloads a browser of
# its own: the test points it at the system Chromium). The test fails, never skips, without them.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/lib/npm-packages.sh
if [[ ! -x /usr/bin/chromium ]]; then
  echo "install-browser-test: installing chromium from Debian"
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium \
    fonts-dejavu-core
fi
export PUPPETEER_SKIP_DOWNLOAD=1
npm_packages_install install-browser-test tests/browser
