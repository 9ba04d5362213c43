#!/usr/bin/env bash
# Builds lqe's container image from the committed source tree with the full multi-stage
# Dockerfile (lqe compiled in the builder stage), or with --prebuilt from build/lqe (the Release
# build's binary; no compiler in the build). Tags it $LQE_IMAGE (default localhost/lqe:latest)
# and prints its size. Needs podman and a local debian:12-slim (deploy/container/test-image.sh
# builds one with mmdebstrap when it is missing, or `podman pull debian:12-slim`).
# Usage: deploy/container/build-image.sh [--prebuilt]
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/lib/podman.sh

IMAGE=${LQE_IMAGE:-localhost/lqe:latest}
mode=full
case "${1:-}" in
  --prebuilt) mode=prebuilt ;;
  "") ;;
  *) echo "usage: deploy/container/build-image.sh [--prebuilt]" >&2; exit 2 ;;
esac
if [[ $mode == prebuilt && ! -x build/lqe ]]; then
  echo "build-image: build/lqe is missing (deploy/build.sh builds it)" >&2
  exit 1
fi

CONTEXT=$(mktemp -d /tmp/lqe-image.XXXXXX)
trap 'rm -rf "$CONTEXT"' EXIT
started=$SECONDS
if [[ $mode == prebuilt ]]; then
  lqe_build_context "$CONTEXT" prebuilt
  lqe_podman_build -f "$CONTEXT/deploy/container/Dockerfile" --target prebuilt -t "$IMAGE" \
    "$CONTEXT"
else
  lqe_build_context "$CONTEXT"
  lqe_podman_build -f "$CONTEXT/deploy/container/Dockerfile" -t "$IMAGE" \
    --build-arg "LQE_GIT_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$CONTEXT"
fi
size=$(lqe_podman image inspect --format '{{.Size}}' "$IMAGE")
echo "build-image: $IMAGE ($mode) built in $((SECONDS - started))s, $((size / 1000000)) MB"
