#!/usr/bin/env bash
# Side-by-side HTTP benchmark: lqe serve answering cache hits vs nginx-light serving the identical
# bytes as static files, for a ~1 KB body (the usage.api-counts chart) and a ~174 KB body (a
# 100-row log listing), with wrk; runs alternate lqe / nginx so that both see the same load from
# the rest of the machine. Also: the time a miss adds over the bare query, and lqe's RSS.
#
# usage: bench/http/run.sh [path/to/lqe]     (default: build/lqe; build it Release first)
# env:   DURATION (default 10s), CONNECTIONS (64), THREADS (2), ROUNDS (3: each a run of each
#        server per body), EVENTS (edge events, 50000),
#        PIN (default 1): lqe (1 I/O thread) and nginx (1 worker) on CPU 0, wrk on the other CPUs,
#        so neither server competes with the load generator; PIN=0: lqe with IO_THREADS (0 = one
#        per core), nginx with one worker per core, nobody pinned.
# lqe runs in a session of its own, as the daemonised nginx does (see bench_start_lqe). Each run
# prints p50/p90/p99/p99.9 (percentiles.lua) and wait%: the share of the time the server's
# thread was runnable that it spent waiting for the CPU (other work on its CPU, not its own).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LQE=${1:-$ROOT/build/lqe}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-3}
IO_THREADS=${IO_THREADS:-0}
PIN=${PIN:-1}
server_cpu=() client_cpu=() nginx_workers=$(nproc)
if [[ $PIN == 1 ]]; then
  IO_THREADS=1 nginx_workers=1
  server_cpu=(taskset -c 0) client_cpu=(taskset -c "1-$(($(nproc) - 1))")
fi
source "$ROOT/bench/http/lib.sh"
bench_tools
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
bench_setup
bench_start_lqe "$IO_THREADS" 268435456 "${server_cpu[@]}"
idle_rss_kb=$(bench_rss_kb)

declare -A path=(
  [chart]="/api/endpoints/query/usage.api-counts?interval=daily&project=.%2A"
  [listing]="/api/endpoints/query/logs.cached?project=default"
)
mkdir -p "$work/www"
miss_time=$(curl -s -o "$work/www/chart.json" -w '%{time_total}' -H "X-API-KEY: $key" "$gw${path[chart]}")
hit_time=$(curl -s -o /dev/null -w '%{time_total}' -H "X-API-KEY: $key" "$gw${path[chart]}")
curl -s -o "$work/www/listing.json" -H "X-API-KEY: $key" "$gw${path[listing]}"
for body in chart listing; do
  state=$(curl -s -D - -o "$work/again.json" -H "X-API-KEY: $key" "$gw${path[$body]}" |
    tr -d '\r' | awk -F': ' 'tolower($1)=="x-cache" {print $2}')
  cmp -s "$work/again.json" "$work/www/$body.json" || { echo "$body: hit differs from miss" >&2; exit 1; }
  [[ $state == HIT ]] || { echo "$body: X-Cache $state, expected HIT" >&2; exit 1; }
done

bench_start_nginx "$nginx_workers" "${server_cpu[@]}"

run_wrk() {
  "${client_cpu[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency \
    -s "$ROOT/bench/http/percentiles.lua" "$@"
}
rps() { awk '/^Requests\/sec/ {print $2}' <<<"$1"; }
# p50 p90 p99 p99.9 in ms, from percentiles.lua's line.
percentiles_ms() { awk '$1=="percentiles_ms" {printf "%.2f %.2f %.2f %.2f", $3, $5, $7, $9}' <<<"$1"; }
requests() { awk '/requests in/ {print $1}' <<<"$1"; }
# CPU seconds (user, system) lqe has used so far, from /proc: less noisy than req/s on a shared VM.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.3f %.3f", $14 / hz, $15 / hz}' "/proc/${1:-$lqe_pid}/stat"; }
# The same summed over nginx's workers (the master only forks them).
nginx_cpu_seconds() {
  local pid
  for pid in $(pgrep -P "$(cat "$work/nginx.pid")"); do cpu_seconds "$pid"; echo; done |
    awk '{u += $1; s += $2} END {printf "%.3f %.3f", u, s}'
}
# Two totals so far, in ns: time on a CPU and time runnable but waiting for one, summed over the
# serving threads given (/proc/PID/schedstat is the main thread's: lqe's first I/O loop, or an
# nginx worker).
sched_ns() { local pid; for pid in "$@"; do cat "/proc/$pid/schedstat"; done | awk '{r += $1; w += $2} END {print r, w}'; }
# The share of its runnable time a server spent waiting for the CPU between two sched_ns
# readings: the scheduler's part of the latency, the same for both servers when they are
# treated alike.
wait_percent() {
  awk -v a="$1" -v b="$2" 'BEGIN {split(a, x, " "); split(b, y, " "); r = y[1] - x[1]; w = y[2] - x[2];
    printf "%.0f", (r + w > 0 ? 100 * w / (r + w) : 0)}'
}
# CPU microseconds per request between two cpu_seconds readings.
cpu_us_per_request() {
  awk -v c0="$1" -v c1="$2" -v n="$3" \
    'BEGIN {split(c0, a, " "); split(c1, b, " "); printf "%.1f", (b[1] + b[2] - a[1] - a[2]) * 1e6 / n}'
}

results=()  # "body server round rps p50 p90 p99 p99.9 cpu_us wait%"
run_lqe() {
  local body=$1 round=$2 out c0 c1 s0 s1
  c0=$(cpu_seconds) s0=$(sched_ns "$lqe_pid")
  out=$(run_wrk -H "X-API-KEY: $key" "$gw${path[$body]}")
  c1=$(cpu_seconds) s1=$(sched_ns "$lqe_pid")
  results+=("$body lqe $round $(rps "$out") $(percentiles_ms "$out") $(cpu_us_per_request "$c0" "$c1" "$(requests "$out")") $(wait_percent "$s0" "$s1")")
}
run_nginx() {
  local body=$1 round=$2 out c0 c1 s0 s1 workers
  workers=$(pgrep -P "$(cat "$work/nginx.pid")" | tr '\n' ' ')
  c0=$(nginx_cpu_seconds) s0=$(sched_ns $workers)
  out=$(run_wrk "http://127.0.0.1:$ng_port/$body.json")
  c1=$(nginx_cpu_seconds) s1=$(sched_ns $workers)
  results+=("$body nginx $round $(rps "$out") $(percentiles_ms "$out") $(cpu_us_per_request "$c0" "$c1" "$(requests "$out")") $(wait_percent "$s0" "$s1")")
}
for round in $(seq 1 "$ROUNDS"); do
  for body in chart listing; do
    # Alternate which server goes first, so a drift in the machine's load favours neither.
    if ((round % 2)); then run_lqe "$body" "$round"; run_nginx "$body" "$round"
    else run_nginx "$body" "$round"; run_lqe "$body" "$round"; fi
  done
done
busy_rss_kb=$(bench_rss_kb)

# Miss overhead: server-side request time minus time spent in Postgres, over uncached requests
# (logs.all has cache_seconds 0), from the /metrics histograms' sums.
# usage: miss_overhead [curl args]: 50 uncached logs.all requests; prints the mean time the
# gateway added over the query, and the query's own mean time.
miss_overhead() {
  local req0 q0 n0 req1 q1 n1 i
  req0=$(bench_metric lqe_request_duration_seconds_sum); q0=$(bench_metric lqe_query_duration_seconds_sum)
  n0=$(bench_metric lqe_query_duration_seconds_count)
  for i in $(seq 1 50); do
    curl -s -o /dev/null "$@" -H "X-API-KEY: $key" \
      "$gw/api/endpoints/query/logs.all?project=default&iso_timestamp_end=2030-01-0$(( i % 9 + 1 ))T00:00:0$(( i % 10 ))Z"
  done
  req1=$(bench_metric lqe_request_duration_seconds_sum); q1=$(bench_metric lqe_query_duration_seconds_sum)
  n1=$(bench_metric lqe_query_duration_seconds_count)
  awk -v r0="$req0" -v r1="$req1" -v q0="$q0" -v q1="$q1" -v n0="$n0" -v n1="$n1" \
    'BEGIN {n = n1 - n0; if (n <= 0) {print "n/a"; exit} printf "%.3f ms (query alone %.3f ms)", ((r1 - r0) - (q1 - q0)) * 1000 / n, (q1 - q0) * 1000 / n}'
}
miss_overhead_ms=$(miss_overhead)
miss_overhead_gzip_ms=$(miss_overhead -H "Accept-Encoding: gzip")
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo
echo "== $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency$([[ $PIN == 1 ]] && echo "; PIN=1: servers on CPU 0 (lqe io_threads 1, nginx 1 worker), wrk on the rest")"
echo "load average before: $load_before, after: $load_after"
# wait%: of the time the server's thread was runnable, the share it waited for the CPU.
printf '%-8s %-6s %5s %10s %8s %8s %8s %8s %11s %6s\n' body server round req/s p50_ms p90_ms p99_ms p99.9_ms cpu_us/req wait%
for r in "${results[@]}"; do printf '%-8s %-6s %5s %10s %8s %8s %8s %8s %11s %6s\n' $r; done
for body in chart listing; do
  printf '%s': "$body (lqe $(stat -c %s "$work/www/$body.json") bytes = nginx file):"
  printf '%s\n' "${results[@]}" | awk -v b="$body" '
    $1==b && $2=="lqe" {lr[$3]=$4; lp[$3]=$7; lt[$3]=$8; lc[$3]=$9} $1==b && $2=="nginx" {nr[$3]=$4; np[$3]=$7; nt[$3]=$8; nc[$3]=$9}
    END {for (r in lr) printf " round %s: req/s %.2fx, p99 %.2fx, p99.9 %.2fx, CPU/req %.2fx;", r, lr[r]/nr[r], lp[r]/np[r], lt[r]/nt[r], lc[r]/nc[r]; print ""}'
done
cat <<REPORT
first request (miss) ${miss_time}s, second (hit) ${hit_time}s (curl time_total, one new connection each)
miss overhead over the query (logs.all, 50 uncached requests):
  plain: $miss_overhead_ms
  gzip:  $miss_overhead_gzip_ms
lqe RSS: idle ${idle_rss_kb} KiB, after the load ${busy_rss_kb} KiB
REPORT
