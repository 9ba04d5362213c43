#!/usr/bin/env bash
# Builds lqe_<version>_amd64.deb with dpkg-buildpackage from a copy of the source tree (the files
# git does not ignore), then checks it: lintian (no warning or error), systemd-analyze verify on
# its units, the expected layout (the same as `cmake --install`), and the binary run from a
# scratch root the package was unpacked into (`lqe --version` must print the version).
#   deploy/package/build-deb.sh              compiles lqe (Release) inside dpkg-buildpackage
#   deploy/package/build-deb.sh --prebuilt   packages build/lqe instead (CI: the Release build's)
# The .deb is left in build/package/.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source deploy/lib/podman.sh  # lqe_build_context

started=$SECONDS
say() { echo "build-deb: [$((SECONDS - started))s] $*"; }
fail() {
  echo "build-deb: FAILED: $*" >&2
  exit 1
}
prebuilt=""
case "${1:-}" in
  --prebuilt) prebuilt=1 ;;
  "") ;;
  *) echo "usage: deploy/package/build-deb.sh [--prebuilt]" >&2; exit 2 ;;
esac
for tool in dpkg-buildpackage dh lintian systemd-analyze; do
  command -v "$tool" >/dev/null || fail "$tool is missing (deploy/install-deps.sh --package)"
done
VERSION=$(bash deploy/package/check-version.sh)
if [[ -n $prebuilt && ! -x build/lqe ]]; then fail "build/lqe is missing (deploy/build.sh)"; fi

# For `lqe --version`: the source copy has no .git, so debian/rules passes this to CMake.
LQE_GIT_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
TMP=$(mktemp -d /tmp/lqe-deb.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
SRC=$TMP/lqe-$VERSION
lqe_build_context "$SRC"
say "dpkg-buildpackage in $SRC ${prebuilt:+(packaging build/lqe)}"
(
  cd "$SRC"
  if [[ -n $prebuilt ]]; then export LQE_PREBUILT_BINARY=$ROOT/build/lqe; fi
  export LQE_GIT_COMMIT
  dpkg-buildpackage -us -uc -b >"$TMP/dpkg-buildpackage.log" 2>&1
) || { tail -40 "$TMP/dpkg-buildpackage.log" >&2; fail "dpkg-buildpackage"; }
DEB=$TMP/lqe_${VERSION}_amd64.deb
[[ -f $DEB ]] || fail "no $(basename "$DEB") was built"
mkdir -p build/package
cp "$DEB" build/package/
say "built build/package/$(basename "$DEB") ($(($(stat -c %s "$DEB") / 1000)) kB)"

# lintian: no warning or error (overrides, each with its reason: debian/lqe.lintian-overrides).
lintian --fail-on warning,error --tag-display-limit 0 "$DEB" || fail "lintian"
say "lintian clean"

# The layout, as cmake/Install.cmake lays it out.
dpkg-deb -c "$DEB" | awk '{print $6}' | sed 's|^\./|/|' >"$TMP/files"
for f in /usr/bin/lqe /etc/lqe/lqe.yaml /etc/default/lqe /lib/systemd/system/lqe.service \
  /lib/systemd/system/lqe-retention.service /lib/systemd/system/lqe-retention.timer \
  /usr/share/lqe/sql/logs.all.yaml /usr/share/lqe/sql/logs.all.sql \
  /usr/share/lqe/sql/usage.api-counts.yaml /usr/share/lqe/sql/usage.api-counts.sql \
  /usr/share/lqe/catalogue_seed.tsv /usr/share/doc/lqe/deploy.md; do
  grep -qx "$f" "$TMP/files" || fail "the package lacks $f"
done
dpkg-deb -I "$DEB" conffiles | grep -qx /etc/lqe/lqe.yaml || fail "/etc/lqe/lqe.yaml is no conffile"

# Unpacked into a scratch root: the units verify against it, and the binary runs from it.
ROOTFS=$TMP/root
dpkg-deb -x "$DEB" "$ROOTFS"
# verify checks each Exec binary on this host: the copies name the unpacked one.
mkdir -p "$TMP/units"
for unit in lqe.service lqe-retention.service lqe-retention.timer; do
  sed "s|/usr/bin/lqe|$ROOTFS/usr/bin/lqe|" "$ROOTFS/lib/systemd/system/$unit" >"$TMP/units/$unit"
done
SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no "$TMP/units/lqe.service" \
  "$TMP/units/lqe-retention.service" "$TMP/units/lqe-retention.timer" 2>"$TMP/verify.log" || true
if [[ -s $TMP/verify.log ]]; then
  cat "$TMP/verify.log" >&2
  fail "systemd-analyze verify"
fi
say "systemd-analyze verify passes"
out=$("$ROOTFS/usr/bin/lqe" --version) || fail "lqe --version exited $?"
[[ $out == *"$VERSION"* ]] || fail "lqe --version printed '$out', not $VERSION"
# Compiled here, the binary names this commit (a --prebuilt one names the commit it was built at).
if [[ -z $prebuilt && $LQE_GIT_COMMIT != unknown && $out != *"$LQE_GIT_COMMIT"* ]]; then
  fail "lqe --version printed '$out', not the commit $LQE_GIT_COMMIT"
fi
say "lqe --version from the unpacked package: $out"
# Without a config file the unpacked binary finds the stored endpoints installed beside it.
env -u LQE_CONFIG -u LQE_DATABASE_URL -u POSTGRES_BACKEND_URL -u DB_HOSTNAME -u LQE_ENDPOINTS_DIR \
  "$ROOTFS/usr/bin/lqe" serve 2>"$TMP/serve.log" && fail "lqe serve started without a database"
grep -q "no database" "$TMP/serve.log" || { cat "$TMP/serve.log" >&2; fail "lqe serve: $(cat "$TMP/serve.log")"; }
grep -q "no endpoints" "$TMP/serve.log" && fail "the installed endpoints were not found"
say "passed"
