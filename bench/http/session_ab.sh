#!/usr/bin/env bash
# Why lqe's cache-hit tails were longer than nginx's in bench/http/run.sh: the same lqe binary
# started in the bench script's session and in a session of its own (as
# nginx is once it daemonises, and lqe under systemd), against nginx, runs interleaved, each
# server on CPU 0 and wrk on the rest. With the kernel's autogroup scheduling a session is one
# scheduling group, so an lqe sharing the script's session also shares its CPU weight with wrk.
# Prints req/s, latency percentiles, and how long the server's thread waited for the CPU.
#
# usage: bench/http/session_ab.sh [path/to/lqe]   env: DURATION (10s), ROUNDS (3), EVENTS (50000)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LQE=${1:-$ROOT/build/lqe}
DURATION=${DURATION:-10s}
source "$ROOT/bench/http/lib.sh"
bench_tools
echo "kernel.sched_autogroup_enabled = $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo n/a)"
bench_setup
LQE_OWN_SESSION=0 bench_start_lqe 1 268435456 taskset -c 0
shared_pid=$lqe_pid shared_gw=$gw
LQE_OWN_SESSION=1 bench_start_lqe 1 268435456 taskset -c 0
own_pid=$lqe_pid own_gw=$gw
declare -A path=(
  [chart]="/api/endpoints/query/usage.api-counts?interval=daily&project=.%2A"
  [listing]="/api/endpoints/query/logs.cached?project=default"
)
mkdir -p "$work/www"
for body in chart listing; do
  curl -s -o "$work/www/$body.json" -H "X-API-KEY: $key" "$shared_gw${path[$body]}"
  curl -s -o /dev/null -H "X-API-KEY: $key" "$own_gw${path[$body]}"
done
bench_start_nginx 1 taskset -c 0
nginx_worker=$(pgrep -P "$(cat "$work/nginx.pid")" | head -1)

# run NAME PID URL [wrk args]: one wrk run against a server whose serving thread is PID.
run() {
  local name=$1 pid=$2 url=$3 r0 w0 r1 w1 out
  shift 3
  read -r r0 w0 _ <"/proc/$pid/schedstat"
  out=$(taskset -c "1-$(($(nproc) - 1))" wrk -t2 -c64 -d"$DURATION" --latency \
    -s "$ROOT/bench/http/percentiles.lua" "$@" "$url")
  read -r r1 w1 _ <"/proc/$pid/schedstat"
  printf '%-8s %-12s %10s %s  cpu %5d ms  waited %5d ms  load %s\n' "$body" "$name" \
    "$(awk '/^Requests\/sec/ {print $2}' <<<"$out")" \
    "$(awk '$1=="percentiles_ms" {print $2, $3, $4, $5, $6, $7, $8, $9}' <<<"$out")" \
    $(((r1 - r0) / 1000000)) $(((w1 - w0) / 1000000)) "$(cut -d' ' -f1 /proc/loadavg)"
}
printf '%-8s %-12s %10s %s\n' body server req/s "latency ms (p50 p90 p99 p99.9)"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for body in chart listing; do
    run lqe-shared "$shared_pid" "$shared_gw${path[$body]}" -H "X-API-KEY: $key"
    run lqe-own "$own_pid" "$own_gw${path[$body]}" -H "X-API-KEY: $key"
    run nginx "$nginx_worker" "http://127.0.0.1:$ng_port/$body.json"
  done
done
kill "$shared_pid" && wait "$shared_pid" 2>/dev/null || true
