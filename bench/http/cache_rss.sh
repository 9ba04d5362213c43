#!/usr/bin/env bash
# Memory of the result cache: fills lqe's cache with ENTRIES distinct ~174 KB log listings (each
# a miss that renders, gzips and caches) and compares the process's resident set with what the
# cache says it holds and with its byte budget. A budget that the listings overflow exercises
# eviction too. Reports numbers; asserts nothing about time.
#
# usage: bench/http/cache_rss.sh [path/to/lqe]     (default: build/lqe)
# env:   ENTRIES (1000), BUDGETS_MB ("256 64": one lqe run per budget), EVENTS (50000),
#        GZIP (1: the fill asks for gzip, as browsers do; caching keeps both forms either way)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LQE=${1:-$ROOT/build/lqe}
ENTRIES=${ENTRIES:-1000}
BUDGETS_MB=${BUDGETS_MB:-256 64}
GZIP=${GZIP:-1}
source "$ROOT/bench/http/lib.sh"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
bench_setup

# One curl process, one keep-alive connection, ENTRIES distinct cache keys.
make_fill_config() {
  local i
  for ((i = 0; i < ENTRIES; i++)); do
    printf 'url = "%s/api/endpoints/query/logs.cached?project=default&iso_timestamp_end=2030-01-01T%02d:%02d:%02dZ"\noutput = "/dev/null"\n' \
      "$gw" $((i / 3600)) $((i / 60 % 60)) $((i % 60))
  done >"$work/fill.curl"
}

report=()
for budget_mb in $BUDGETS_MB; do
  bench_start_lqe 0 $((budget_mb << 20))
  idle_kb=$(bench_rss_kb)
  make_fill_config
  gzip_header=()
  [[ $GZIP == 1 ]] && gzip_header=(-H "Accept-Encoding: gzip")
  start=$(date +%s.%N)
  curl -s -H "X-API-KEY: $key" "${gzip_header[@]}" -K "$work/fill.curl"
  fill_s=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}')
  sleep 1
  rss_kb=$(bench_rss_kb)
  entries=$(bench_metric lqe_cache_entries)
  bytes=$(bench_metric lqe_cache_bytes)
  evictions=$(bench_metric lqe_cache_evictions_total)
  listing_bytes=$(curl -s -o /dev/null -w '%{size_download}' -H "X-API-KEY: $key" \
    "$gw/api/endpoints/query/logs.cached?project=default&iso_timestamp_end=2030-01-01T00:00:00Z")
  limit_kb=$(awk -v b="$budget_mb" 'BEGIN {printf "%d", (b * 1.2 + 30) * 1024}')
  verdict=$([[ $rss_kb -le $limit_kb ]] && echo within || echo OVER)
  report+=("$(printf 'budget %4d MiB: %5s entries, cache counts %7.1f MiB, RSS %7.1f MiB (idle %5.1f, growth %7.1f), limit budget*1.2+30 = %6.1f MiB: %s; %s evictions; fill %s s' \
    "$budget_mb" "$entries" "$(awk -v b="$bytes" 'BEGIN {print b / 1048576}')" \
    "$(awk -v k="$rss_kb" 'BEGIN {print k / 1024}')" "$(awk -v k="$idle_kb" 'BEGIN {print k / 1024}')" \
    "$(awk -v k="$rss_kb" -v i="$idle_kb" 'BEGIN {print (k - i) / 1024}')" \
    "$(awk -v k="$limit_kb" 'BEGIN {print k / 1024}')" "$verdict" "$evictions" "$fill_s")")
  kill "$lqe_pid"
  wait "$lqe_pid" 2>/dev/null || true
  lqe_pid=
done
echo
echo "== $ENTRIES listings of $listing_bytes bytes (gzip asked: $GZIP); load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%s\n' "${report[@]}"
