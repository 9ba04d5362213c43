# Podman with the options containers need on a CI machine like this one (sourced, not run):
# runc (crun fails on a hybrid cgroup v1/v2 layout), cgroupfs (no systemd cgroup manager), ulimits
# no higher than the host's hard limits (raising them needs CAP_SYS_RESOURCE) and host networking.
# LQE_PODMAN_GLOBAL / LQE_PODMAN_CONTAINER override them (as whitespace-separated words).
read -r -a LQE_PODMAN_GLOBAL_OPTS <<<"${LQE_PODMAN_GLOBAL:---runtime runc --cgroup-manager=cgroupfs}"
read -r -a LQE_PODMAN_CONTAINER_OPTS <<<"${LQE_PODMAN_CONTAINER:---ulimit nofile=1024:1024 --ulimit nproc=1024:1024 --network host}"

lqe_podman() { podman "${LQE_PODMAN_GLOBAL_OPTS[@]}" "$@"; }
# Never pulls: the base image is built locally (deploy/container/test-image.sh) or already there.
# --format docker: the OCI image format has no HEALTHCHECK, and podman would drop it.
lqe_podman_build() { lqe_podman build --format docker --pull=never "${LQE_PODMAN_CONTAINER_OPTS[@]}" "$@"; }
lqe_podman_run() { lqe_podman run "${LQE_PODMAN_CONTAINER_OPTS[@]}" "$@"; }

# lqe_build_context DIR [prebuilt]: the image's build context in DIR: the working tree's files
# git does not ignore (so a local build/ or var/ is not sent); with `prebuilt`, plus build/lqe.
lqe_build_context() {
  local dir=$1 root
  root=$(git rev-parse --show-toplevel)
  mkdir -p "$dir"
  (cd "$root" && git ls-files -z --cached --others --exclude-standard |
    xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
    tar --null -T - -cf -) | tar -x -C "$dir"
  if [[ ${2:-} == prebuilt ]]; then
    mkdir -p "$dir/build"
    cp "$root/build/lqe" "$dir/build/lqe"
    strip "$dir/build/lqe"
  fi
}
